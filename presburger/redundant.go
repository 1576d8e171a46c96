package presburger

import (
	"context"
	"fmt"
)

// This file keeps results small: removal of empty pieces, of pieces
// contained in another piece, of redundant inequalities, and detection of
// implicit equalities. All tests are exact integer emptiness tests.

// Simplify returns a Map equal to m (as a set of points) with empty pieces
// removed, pieces contained in another piece removed (when m has at most
// 32 pieces), implicit equalities turned into equalities and redundant
// inequalities removed. An inequality r >= 0 is redundant if the piece
// without it has no integer point with r < 0; it is an implicit equality if
// the piece has no integer point with r > 0.
func (m *Map) Simplify(ctx context.Context) (*Map, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trMapSimplify, m.Simplify, m)
	}
	mt := newMeter(ctx)
	var bs []*BasicMap
	for _, b := range m.basics {
		c, err := b.simplify(mt)
		if err != nil {
			return nil, fmt.Errorf("simplify: %w", err)
		}
		if c != nil {
			bs = append(bs, c)
		}
	}
	if len(bs) > 1 && len(bs) <= simplifySubsetLimit {
		keep := make([]bool, len(bs))
		for i := range keep {
			keep[i] = true
		}
		for i := range bs {
			for j := range bs {
				if i == j || !keep[j] || !keep[i] {
					continue
				}
				sub, err := pieceSubset(ctx, mt, m.space, bs[i], bs[j])
				if err != nil {
					return nil, fmt.Errorf("simplify: %w", err)
				}
				if sub {
					keep[i] = false
				}
			}
		}
		var kept []*BasicMap
		for i, b := range bs {
			if keep[i] {
				kept = append(kept, b)
			}
		}
		bs = kept
	}
	return m.withBasics(bs), nil
}

// Simplify returns an equal conjunction without redundant inequalities and
// with implicit equalities made explicit, or nil if b is empty.
func (b *BasicMap) Simplify(ctx context.Context) (*BasicMap, error) {
	return b.simplify(newMeter(ctx))
}

func (b *BasicMap) simplify(mt *meter) (*BasicMap, error) {
	c := b.Copy()
	if !c.normalize() {
		return nil, nil
	}
	empty, err := c.isEmpty(mt)
	if err != nil || empty {
		return nil, err
	}
	w := c.NumCols()
	one := NewInt(1)
	// Implicit equalities: r >= 0 with no point where r >= 1.
	for i := 0; i < len(c.ineqs); i++ {
		r := copyRow(c.ineqs[i])
		r[w-1] = r[w-1].Sub(one)
		e, err := c.emptyWith(mt, c.eqs, replaceRow(c.ineqs, i, r))
		if err != nil {
			return nil, err
		}
		if e {
			c.eqs = append(c.eqs, c.ineqs[i])
			c.ineqs = append(c.ineqs[:i:i], c.ineqs[i+1:]...)
			i--
		}
	}
	if !c.normalize() {
		return nil, nil
	}
	w = c.NumCols()
	// Redundant inequalities: no point of the others violates r.
	for i := 0; i < len(c.ineqs); i++ {
		r := negRow(c.ineqs[i])
		r[w-1] = r[w-1].Sub(one)
		e, err := c.emptyWith(mt, c.eqs, replaceRow(c.ineqs, i, r))
		if err != nil {
			return nil, err
		}
		if e {
			c.ineqs = append(c.ineqs[:i:i], c.ineqs[i+1:]...)
			i--
		}
	}
	if !c.normalize() {
		return nil, nil
	}
	return c, nil
}

// simplifySubsetLimit bounds the number of pieces for which Map.Simplify
// drops the pieces contained in another (a quadratic number of tests).
const simplifySubsetLimit = 32
