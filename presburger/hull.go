package presburger

import (
	"context"
	"fmt"
)

// SimpleHull returns a relation of one conjunction that contains m: the
// constraints of m's first conjunction that every other conjunction of m
// satisfies, with that conjunction's locals. Each constraint is kept only
// when an exact emptiness test shows that no point of another conjunction
// violates it (its divisions read with the first conjunction's
// definitions); a constraint on a plain existential is dropped, so the
// result may be larger than necessary, never smaller than m. A relation
// of at most one conjunction is returned as it is.
//
// Its use is a quick emptiness test: a set disjoint from the hull is
// disjoint from m, at the cost of one test where m costs one per
// conjunction. The tests are counted against the budget of ctx.
func SimpleHull(ctx context.Context, m *Map) (_ *Map, err error) {
	defer lxRecover("simple hull", &err)
	if len(m.basics) < 2 {
		return m, nil
	}
	mt := newMeter(ctx)
	b0 := m.basics[0]
	// usable: the row does not involve a plain existential, whose
	// negation would not be the complement of the constraint.
	usable := func(row []Int) bool {
		for i, d := range b0.divs {
			if d.Den.IsZero() && !row[b0.locCol(i)].IsZero() {
				return false
			}
		}
		return true
	}
	// holds reports whether every other conjunction satisfies row >= 0:
	// its intersection with row <= -1 is empty.
	holds := func(row []Int) (bool, error) {
		neg := negRowMinusOne(row)
		n := gistRebuild(b0, nil, [][]Int{neg})
		for _, bj := range m.basics[1:] {
			e, err := bj.Intersect(n).isEmpty(mt)
			if err != nil || !e {
				return false, err
			}
		}
		return true, nil
	}
	var eqs, ineqs [][]Int
	for _, e := range b0.eqs {
		if !usable(e) {
			continue
		}
		ge, err := holds(e)
		if err != nil {
			return nil, fmt.Errorf("simple hull: %w", err)
		}
		ne := negRow(e)
		le, err := holds(ne)
		if err != nil {
			return nil, fmt.Errorf("simple hull: %w", err)
		}
		switch {
		case ge && le:
			eqs = append(eqs, e)
		case ge:
			ineqs = append(ineqs, e)
		case le:
			ineqs = append(ineqs, ne)
		}
	}
	for _, r := range b0.ineqs {
		if !usable(r) {
			continue
		}
		ok, err := holds(r)
		if err != nil {
			return nil, fmt.Errorf("simple hull: %w", err)
		}
		if ok {
			ineqs = append(ineqs, r)
		}
	}
	return NewMap(m.space, gistRebuild(b0, eqs, ineqs)), nil
}

// negRowMinusOne returns the row of the negation of row >= 0 over the
// integers: -row - 1 >= 0.
func negRowMinusOne(row []Int) []Int {
	out := negRow(row)
	last := len(out) - 1
	out[last] = out[last].Sub(NewInt(1))
	return out
}
