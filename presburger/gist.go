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
func Gist(ctx context.Context, s, c *Map) (*Map, error) {
	return gist(ctx, s, c, true)
}

// gist is Gist, with the tests that a context's constraint decides as it
// stands (impliesRow) skipped if syntactic is set: the result is the same
// either way, only the cost differs.
func gist(ctx context.Context, s, c *Map, syntactic bool) (_ *Map, err error) {
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
		g, keep, err := gistBasic(ctx, b, cbs, syntactic)
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
// from the context. syntactic is gist's.
func gistBasic(ctx context.Context, b *BasicMap, cbs []*BasicMap, syntactic bool) (*BasicMap, bool, error) {
	eqs, ineqs := b.Eqs(), b.Ineqs()
	// inContext reports whether the constraints, with extra, meet one
	// of the context's conjunctions; those of which implies(c) says
	// that they exclude extra are known not to.
	inContext := func(extra []Int, eqs, ineqs [][]Int, implies func(c *BasicMap) bool) (bool, error) {
		for _, c := range cbs {
			if syntactic && implies != nil && implies(c) {
				continue
			}
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
	if nonEmpty, err := inContext(nil, eqs, ineqs, nil); err != nil || !nonEmpty {
		return nil, false, err
	}
	neg := func(r []Int) []Int {
		n := negRow(r)
		n[len(n)-1] = n[len(n)-1].Sub(NewInt(1))
		return n
	}
	for i := 0; i < len(ineqs); {
		rest := append(append([][]Int(nil), ineqs[:i]...), ineqs[i+1:]...)
		r := ineqs[i]
		possible, err := inContext(neg(r), eqs, rest, func(c *BasicMap) bool { return impliesRow(c, b, r) })
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
		r, nr := eqs[i], negRow(eqs[i])
		lo, err := inContext(neg(r), rest, ineqs, func(c *BasicMap) bool { return impliesRow(c, b, r) })
		if err != nil {
			return nil, false, err
		}
		hi := false
		if !lo {
			hi, err = inContext(neg(nr), rest, ineqs, func(c *BasicMap) bool { return impliesRow(c, b, nr) })
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

// impliesRow reports whether one constraint of the conjunction c, as it
// stands, implies row·x >= 0, for a row over the columns of b, a
// conjunction of c's space: a row and a constraint of c that involve no
// local variable and differ only in the constant, c's the stronger (an
// equality either way round). Then row's negation contradicts c, which
// an emptiness test would find at far greater cost: the gist of a
// relation restricted to its context, whose conjunctions repeat the
// context's constraints, asks that question of every one of them.
func impliesRow(c, b *BasicMap, row []Int) bool {
	nd := b.nDims()
	if c.nDims() != nd {
		return false
	}
	for _, x := range row[nd : len(row)-1] {
		if !x.IsZero() {
			return false
		}
	}
	k := row[len(row)-1]
	// match returns the sign s with q = s*row on the dimensions, or 0.
	match := func(q []Int) int {
		for _, x := range q[nd : len(q)-1] {
			if !x.IsZero() {
				return 0
			}
		}
		same, opp := true, true
		for j := range nd {
			if !q[j].Equal(row[j]) {
				same = false
			}
			if !q[j].isNegOf(row[j]) {
				opp = false
			}
			if !same && !opp {
				return 0
			}
		}
		if same {
			return 1
		}
		return -1
	}
	for _, q := range c.ineqs {
		// q·x >= 0 with q = row but for a constant no greater.
		if match(q) == 1 && q[len(q)-1].Cmp(k) <= 0 {
			return true
		}
	}
	for _, q := range c.eqs {
		// s*q·x = 0 makes row·x the difference of the constants.
		switch match(q) {
		case 1:
			if q[len(q)-1].Cmp(k) <= 0 {
				return true
			}
		case -1:
			if q[len(q)-1].Neg().Cmp(k) <= 0 {
				return true
			}
		}
	}
	return false
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

// GistCover is Gist with a weaker test for dropping a constraint, for
// relations of several conjunctions: a constraint of a conjunction of
// g = Gist(s, c) is dropped when the points it then adds within the
// context all belong to g (to another of its conjunctions, say), not only
// when there are none. The result r still satisfies
//
//	r ∩ c = s ∩ c
//
// since r ⊇ g and every point r adds to g within c is in g ∩ c = s ∩ c,
// whatever the order of the drops. Where c has several conjunctions (the
// pieces of a min), Gist keeps, in each conjunction of s, the constraints
// that tell c's pieces apart, which the conjunctions of s together need
// not: s = {x : x < a and a <= b} ∪ {x : x < a and b < a} under
// c = {: a <= b or b < a} is {x : x < a} there. Every test is an exact
// integer emptiness test, counted against the budget of ctx.
func GistCover(ctx context.Context, s, c *Map) (_ *Map, err error) {
	defer lxRecover("gist", &err)
	g, err := Gist(ctx, s, c)
	if err != nil || g.NumBasics() < 2 {
		return g, err
	}
	cm, err := gistLift(s, c)
	if err != nil {
		return nil, err
	}
	if !sameStrings(g.Space().Params, cm.Space().Params) {
		return g, nil
	}
	sp := g.Space()
	// covered reports whether the points of the conjunction with the
	// given constraints and extra within c all belong to g.
	covered := func(b *BasicMap, eqs, ineqs [][]Int, extra []Int) (bool, error) {
		t := gistRebuild(b, eqs, ineqs)
		t.AddIneq(extra)
		x, err := NewMap(sp, t).Intersect(cm)
		if err != nil {
			return false, err
		}
		d, err := x.Subtract(ctx, g)
		if err != nil {
			return false, err
		}
		return d.IsEmpty(ctx)
	}
	out := make([]*BasicMap, 0, g.NumBasics())
	for _, b := range g.Basics() {
		eqs, ineqs := b.Eqs(), b.Ineqs()
		for i := 0; i < len(ineqs); {
			rest := append(append([][]Int(nil), ineqs[:i]...), ineqs[i+1:]...)
			ok, err := covered(b, eqs, rest, negRowMinusOne(ineqs[i]))
			if err != nil {
				return nil, fmt.Errorf("gist: %w", err)
			}
			if ok {
				ineqs = rest
				continue
			}
			i++
		}
		for i := 0; i < len(eqs); {
			rest := append(append([][]Int(nil), eqs[:i]...), eqs[i+1:]...)
			ok, err := covered(b, rest, ineqs, negRowMinusOne(eqs[i]))
			if err == nil && ok {
				ok, err = covered(b, rest, ineqs, negRowMinusOne(negRow(eqs[i])))
			}
			if err != nil {
				return nil, fmt.Errorf("gist: %w", err)
			}
			if ok {
				eqs = rest
				continue
			}
			i++
		}
		out = append(out, gistRebuild(b, eqs, ineqs))
	}
	return NewMap(sp, out...), nil
}
