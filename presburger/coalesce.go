package presburger

import (
	"context"
	"fmt"
)

// maxCoalesceCover bounds the number of conjunctions for which Coalesce
// tests whether one is covered by the union of all the others.
const maxCoalesceCover = 8

// Coalesce returns a representation of m with fewer conjunctions and the
// same points (isl's coalesce). It removes empty conjunctions and those
// contained in another one (or, for small unions, in the union of the
// others), and replaces two conjunctions A and B by a single one H when H
// is exactly A ∪ B: H is built from the constraints of A valid on all of
// B and those of B valid on all of A, so H ⊇ A ∪ B, and the merge happens
// only when H ⊆ A ∪ B is proved. Conjunctions are merged only when they
// have the same local variables (same division definitions and no plain
// existentials). The result is exact; it fails only on budget or context
// errors.
func Coalesce(ctx context.Context, m *Map) (*Map, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trMapCoalesce, func(ctx context.Context) (*Map, error) { return Coalesce(ctx, m) }, m)
	}
	return coalesce(ctx, m, false)
}

// CoalesceSimplified is Coalesce for a map that Map.Simplify has just
// returned: it has no empty piece and, when it has 32 pieces or fewer, no
// piece inside another, so those two passes are not done again.
func CoalesceSimplified(ctx context.Context, m *Map) (*Map, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trMapCoalesceSimp, func(ctx context.Context) (*Map, error) { return CoalesceSimplified(ctx, m) }, m)
	}
	return coalesce(ctx, m, true)
}

func coalesce(ctx context.Context, m *Map, simplified bool) (_ *Map, err error) {
	defer lxRecover("coalesce", &err)
	sp := m.Space()
	var bs []*BasicMap
	for _, b := range m.Basics() {
		if simplified {
			bs = append(bs, b)
			continue
		}
		e, err := b.IsEmpty(ctx)
		if err != nil {
			return nil, fmt.Errorf("coalesce: %w", err)
		}
		if !e {
			bs = append(bs, b)
		}
	}
	subset := func(a *BasicMap, others ...*BasicMap) (bool, error) {
		return NewMap(sp, a).IsSubset(ctx, NewMap(sp, others...))
	}
	// Drop conjunctions contained in another.
	for i := 0; i < len(bs) && !(simplified && len(m.Basics()) <= simplifySubsetLimit); i++ {
		for j := 0; j < len(bs); j++ {
			if i == j {
				continue
			}
			in, err := subset(bs[i], bs[j])
			if err != nil {
				return nil, fmt.Errorf("coalesce: %w", err)
			}
			if in {
				bs = append(bs[:i], bs[i+1:]...)
				i--
				break
			}
		}
	}
	bs, err = coalesceMerge(ctx, sp, bs)
	if err != nil {
		return nil, fmt.Errorf("coalesce: %w", err)
	}
	// Drop conjunctions covered by the union of the others.
	if len(bs) <= maxCoalesceCover {
		for i := 0; i < len(bs) && len(bs) > 1; i++ {
			others := append(append([]*BasicMap(nil), bs[:i]...), bs[i+1:]...)
			in, err := subset(bs[i], others...)
			if err != nil {
				return nil, fmt.Errorf("coalesce: %w", err)
			}
			if in {
				bs = others
				i--
			}
		}
	}
	return NewMap(sp, bs...), nil
}

// coalesceSameLocals reports whether a and b have the same division
// locals (and no plain existentials), so their rows share columns.
func coalesceSameLocals(a, b *BasicMap) bool {
	if a.NumLocals() != b.NumLocals() {
		return false
	}
	for i := 0; i < a.NumLocals(); i++ {
		na, da := a.Local(i)
		nb, db := b.Local(i)
		if da.IsZero() || db.IsZero() || !da.Equal(db) || !intsEqual(na, nb) {
			return false
		}
	}
	return true
}

// rowValidity is what the rows of one conjunction say about a row r >= 0
// of another without solving anything.
type rowValidity int

const (
	validityUnknown rowValidity = iota
	// validityHolds: a row of the conjunction implies r >= 0.
	validityHolds
	// validityFails: a row of the conjunction implies r <= -1, so r >= 0
	// holds nowhere on it (it is not empty: coalesce drops empty pieces).
	validityFails
)

// syntacticValidity decides, when the rows of x do, whether r >= 0 holds
// on all of x: x has a row with r's coefficients (an inequality, or an
// equality of either sign) whose constant bounds r's from the right side.
// Rows are normalised (coprime coefficients), and x and the conjunction r
// comes from have the same locals, so equal coefficients mean the same
// affine form.
func syntacticValidity(r []Int, x *BasicMap) rowValidity {
	n := len(r) - 1
	c := r[n]
	sameCoefs := func(o []Int, sign int) bool {
		for i := 0; i < n; i++ {
			if sign > 0 && !o[i].Equal(r[i]) || sign < 0 && !o[i].Equal(r[i].Neg()) {
				return false
			}
		}
		return true
	}
	for _, o := range x.ineqs {
		switch {
		case sameCoefs(o, 1):
			// r + c >= r + o_c >= 0 when o_c <= c.
			if o[n].Cmp(c) <= 0 {
				return validityHolds
			}
		case sameCoefs(o, -1):
			// -r + o_c >= 0: r <= o_c, so r + c <= o_c + c < 0 when o_c + c < 0.
			if o[n].Add(c).Sign() < 0 {
				return validityFails
			}
		}
	}
	for _, e := range x.eqs {
		var v Int // the value of r's constant term at which r + c = 0 on x
		switch {
		case sameCoefs(e, 1):
			v = e[n] // r = -e_c, so r + c = c - e_c
			if c.Sub(v).Sign() >= 0 {
				return validityHolds
			}
			return validityFails
		case sameCoefs(e, -1):
			v = e[n] // r = e_c, so r + c = c + e_c
			if c.Add(v).Sign() >= 0 {
				return validityHolds
			}
			return validityFails
		}
	}
	return validityUnknown
}

// coalescePair returns a single conjunction equal to a ∪ b, or nil.
func coalescePair(ctx context.Context, sp Space, a, b *BasicMap) (*BasicMap, error) {
	if !coalesceSameLocals(a, b) {
		return nil, nil
	}
	// validOn reports whether row >= 0 holds on all of x.
	validOn := func(row []Int, x *BasicMap) (bool, error) {
		switch syntacticValidity(row, x) {
		case validityHolds:
			return true, nil
		case validityFails:
			return false, nil
		}
		t := x.Copy()
		n := negRow(row)
		n[len(n)-1] = n[len(n)-1].Sub(NewInt(1))
		t.AddIneq(n)
		return t.IsEmpty(ctx)
	}
	var keep [][]Int
	// collect keeps the rows of from valid on all of on, and returns the
	// others.
	collect := func(from, on *BasicMap) ([][]Int, error) {
		rows := from.Ineqs()
		for _, e := range from.Eqs() {
			rows = append(rows, e, negRow(e))
		}
		var rest [][]Int
		for _, r := range rows {
			ok, err := validOn(r, on)
			if err != nil {
				return nil, err
			}
			if ok {
				keep = append(keep, r)
			} else {
				rest = append(rest, r)
			}
		}
		return rest, nil
	}
	restA, err := collect(a, b)
	if err != nil {
		return nil, err
	}
	restB, err := collect(b, a)
	if err != nil {
		return nil, err
	}
	h := gistRebuild(a, nil, keep)
	// H ⊆ A ∪ B iff H ∧ ¬A ∧ ¬B is empty. The locals are the same
	// divisions in H, A and B (functions of the dimensions), so ¬A within
	// H is the union of H ∧ ¬r for the rows r of A not kept, and likewise
	// for B: every pair must give an empty conjunction.
	neg := func(r []Int) []Int {
		n := negRow(r)
		n[len(n)-1] = n[len(n)-1].Sub(NewInt(1))
		return n
	}
	for _, ra := range restA {
		for _, rb := range restB {
			t := h.Copy()
			t.AddIneq(neg(ra))
			t.AddIneq(neg(rb))
			e, err := t.IsEmpty(ctx)
			if err != nil {
				return nil, err
			}
			if !e {
				return nil, nil
			}
		}
	}
	return h, nil
}

// coalesceMerge merges pairs of conjunctions whose union is one
// conjunction, until nothing changes.
// A pair that did not merge is not tried again: the test depends only on
// the two conjunctions, and a merge replaces them by a new one.
func coalesceMerge(ctx context.Context, sp Space, bs []*BasicMap) ([]*BasicMap, error) {
	failed := map[[2]*BasicMap]bool{}
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(bs) && !changed; i++ {
			for j := i + 1; j < len(bs) && !changed; j++ {
				if failed[[2]*BasicMap{bs[i], bs[j]}] {
					continue
				}
				h, err := coalescePair(ctx, sp, bs[i], bs[j])
				if err != nil {
					return nil, err
				}
				if h == nil {
					failed[[2]*BasicMap{bs[i], bs[j]}] = true
				}
				if h != nil {
					bs[i] = h
					bs = append(bs[:j], bs[j+1:]...)
					changed = true
				}
			}
		}
	}
	return bs, nil
}
