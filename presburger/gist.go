package presburger

import (
	"context"
	"fmt"
)

// Gist simplifies s under the context c (isl's gist): it returns a relation
// g with
//
//	g ∩ c = s ∩ c
//
// obtained by dropping, from each conjunction of s, every constraint that
// the context and the conjunction's remaining constraints imply, and by
// dropping the conjunctions disjoint from c. Outside c the result is
// unspecified (usually larger than s). c lives in the space of s, or is a
// parameter domain (isl's gist_params). Division definitions are never
// dropped. The result is exact: every implication is decided by an
// integer emptiness test.
func Gist(ctx context.Context, s, c *Map) (_ *Map, err error) {
	defer lxRecover("gist", &err)
	cm, err := gistLift(s, c)
	if err != nil {
		return nil, err
	}
	// Give s the (possibly longer) parameter list of the context.
	if s, err = s.Intersect(Universe(cm.Space())); err != nil {
		return nil, fmt.Errorf("gist: %w", err)
	}
	if !sameStrings(s.Space().Params, cm.Space().Params) {
		return nil, fmt.Errorf("gist: cannot align the parameters of %s and %s", s.Space(), cm.Space())
	}
	cbs := cm.Basics()
	var out []*BasicMap
	for _, b := range s.Basics() {
		g, keep, err := gistBasic(ctx, b, cbs)
		if err != nil {
			return nil, fmt.Errorf("gist: %w", err)
		}
		if !keep {
			continue
		}
		if len(g.Eqs()) == 0 && len(g.Ineqs()) == 0 && g.NumLocals() == 0 {
			// A conjunction without constraints covers everything.
			return NewMap(s.Space(), g), nil
		}
		out = append(out, g)
	}
	return NewMap(s.Space(), out...), nil
}

// gistLift returns c in the space of s (a parameter domain is extended to
// every tuple of s's space).
func gistLift(s, c *Map) (*Map, error) {
	sp, cs := s.Space(), c.Space()
	if cs.IsParams() && !sp.IsParams() {
		u, err := Universe(sp).IntersectParams(c)
		if err != nil {
			return nil, fmt.Errorf("gist: %w", err)
		}
		return u, nil
	}
	if cs.Key() != sp.Key() {
		return nil, fmt.Errorf("gist of %s in context %s: spaces differ", sp, cs)
	}
	if !sameStrings(cs.Params, sp.Params) {
		// Align parameters through an intersection with the universe.
		u, err := Universe(sp).Intersect(c)
		if err != nil {
			return nil, fmt.Errorf("gist: %w", err)
		}
		return u, nil
	}
	return c, nil
}

// gistBasic drops the constraints of b implied by the context (any of cbs)
// and b's other remaining constraints; keep is false when b is disjoint
// from the context.
func gistBasic(ctx context.Context, b *BasicMap, cbs []*BasicMap) (*BasicMap, bool, error) {
	eqs, ineqs := b.Eqs(), b.Ineqs()
	inContext := func(extra []Int, eqs, ineqs [][]Int) (bool, error) {
		for _, c := range cbs {
			t := gistRebuild(b, eqs, ineqs)
			if extra != nil {
				t.AddIneq(extra)
			}
			// Align b and c (same space after lifting); b's locals first.
			x := t.Intersect(c)
			e, err := x.IsEmpty(ctx)
			if err != nil {
				return false, err
			}
			if !e {
				return true, nil
			}
		}
		return false, nil
	}
	// Disjoint from the context?
	if nonEmpty, err := inContext(nil, eqs, ineqs); err != nil || !nonEmpty {
		return nil, false, err
	}
	neg := func(r []Int) []Int {
		n := negRow(r)
		n[len(n)-1] = n[len(n)-1].Sub(NewInt(1))
		return n
	}
	for i := 0; i < len(ineqs); {
		rest := append(append([][]Int(nil), ineqs[:i]...), ineqs[i+1:]...)
		possible, err := inContext(neg(ineqs[i]), eqs, rest)
		if err != nil {
			return nil, false, err
		}
		if !possible {
			ineqs = rest
			continue
		}
		i++
	}
	for i := 0; i < len(eqs); {
		rest := append(append([][]Int(nil), eqs[:i]...), eqs[i+1:]...)
		lo, err := inContext(neg(eqs[i]), rest, ineqs)
		if err != nil {
			return nil, false, err
		}
		hi := false
		if !lo {
			hi, err = inContext(neg(negRow(eqs[i])), rest, ineqs)
			if err != nil {
				return nil, false, err
			}
		}
		if !lo && !hi {
			eqs = rest
			continue
		}
		i++
	}
	return gistRebuild(b, eqs, ineqs), true, nil
}

// gistRebuild returns a conjunction with b's space and locals and the
// given constraint rows (over b's columns).
func gistRebuild(b *BasicMap, eqs, ineqs [][]Int) *BasicMap {
	n := NewBasicMap(b.Space())
	for i := 0; i < b.NumLocals(); i++ {
		num, den := b.Local(i)
		if den.IsZero() {
			n.AddExistential()
			continue
		}
		w := n.NumCols()
		row := make([]Int, w)
		copy(row, num[:w-1])
		row[w-1] = num[len(num)-1]
		n.AddLocalDiv(row, den)
	}
	for _, e := range eqs {
		n.AddEq(e)
	}
	for _, r := range ineqs {
		n.AddIneq(r)
	}
	return n
}
