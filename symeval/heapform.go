package symeval

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/augur-verify/augur/presburger"
)

// This file coalesces a heap component too large to coalesce as a whole
// a form at a time.
//
// A component relates cells to the holes of one context; its pieces
// often hold a few forms of content (the same equalities defining the
// holes, the same local variables) over many ranges of cells: a buffer
// that the loops a compiler partitions fill, each loop its own range of
// columns, holds one piece per range and per row's source. Coalescing the
// whole component tests every pair of its pieces, hundreds of pieces
// squared, and runs out of coalesceSteps, so the component is kept in
// all its pieces, and every read of it, and every product of reads, is
// split by them. Pieces of different forms seldom merge anyway (a merged
// piece must be exactly the union of the two, and two pieces whose holes
// are different functions of the cell are not one convex piece but in
// degenerate cases); coalescing the pieces of each form apart tests only
// the pairs of one form and merges the ranges of cells that hold it.
//
// The result is exact whatever the grouping: the union of the coalesced
// groups has the points of the union of the groups, that is, of the
// component; only its pieces differ. A group whose coalescing runs out of
// its budget keeps its pieces.

// formGroupMin is the number of pieces from which a component whose
// coalescing runs out of its budget is coalesced a form at a time.
const formGroupMin = 16

// pieceForm returns a key naming the form of piece b of a heap
// component: the definitions of its local variables and its equalities
// that involve a hole (an output dimension), each row as written, up to
// its sign. Pieces with equal keys define their holes alike.
func pieceForm(b *presburger.BasicMap) string {
	var key strings.Builder
	for l := 0; l < b.NumLocals(); l++ {
		num, den := b.Local(l)
		key.WriteString("d")
		key.WriteString(den.String())
		key.WriteByte(':')
		writeRow(&key, num)
	}
	first, n := b.Col(presburger.DimOut, 0), b.NumOut()
	for _, e := range b.Eqs() {
		hole := false
		for h := 0; h < n && !hole; h++ {
			hole = !e[first+h].IsZero()
		}
		if !hole {
			continue
		}
		if firstNonZeroNegative(e) {
			for i := range e {
				e[i] = e[i].Neg()
			}
		}
		key.WriteString("e:")
		writeRow(&key, e)
	}
	return key.String()
}

// writeRow appends the coefficients of row r to key.
func writeRow(key *strings.Builder, r []presburger.Int) {
	for _, v := range r {
		key.WriteString(v.String())
		key.WriteByte(',')
	}
	key.WriteByte(';')
}

// firstNonZeroNegative reports whether the first nonzero coefficient of r
// is negative.
func firstNonZeroNegative(r []presburger.Int) bool {
	for _, v := range r {
		if !v.IsZero() {
			return v.Sign() < 0
		}
	}
	return false
}

// coalesceByForm returns the heap component m with the pieces of each
// form (pieceForm) coalesced among themselves, each group within
// coalesceSteps steps (past them the group keeps its pieces), and
// whether any pieces merged. The groups are kept in the order of their
// first pieces. simplified tells that m's pieces are simplified, none
// empty (Map.Simplify's result), as presburger.CoalesceSimplified needs.
func coalesceByForm(ctx context.Context, m *presburger.Map, simplified bool) (*presburger.Map, bool, error) {
	var order []string
	groups := map[string][]*presburger.BasicMap{}
	for _, b := range m.Basics() {
		k := pieceForm(b)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], b)
	}
	if len(order) == m.NumBasics() {
		return m, false, nil // a piece per form: nothing to merge apart
	}
	sp := m.Space()
	coalesce := coalescer(simplified)
	var out []*presburger.BasicMap
	merged := false
	for _, k := range order {
		g := groups[k]
		if len(g) == 1 {
			out = append(out, g...)
			continue
		}
		c, err := coalesce(presburger.WithBudget(ctx, presburger.Budget{MaxSteps: coalesceSteps}), presburger.NewMap(sp, g...))
		switch {
		case errors.Is(err, presburger.ErrBudget):
			out = append(out, g...)
			continue
		case err != nil:
			return nil, false, fmt.Errorf("coalesce by form: %w", err)
		}
		if c.NumBasics() < len(g) {
			merged = true
		}
		out = append(out, c.Basics()...)
	}
	if !merged {
		return m, false, nil
	}
	return presburger.NewMap(sp, out...), true, nil
}

// coalesceFormsOf returns the heap component m, whose coalescing as a
// whole ran out of its budget, coalesced a form at a time (coalesceByForm)
// when it has formGroupMin pieces or more, its merged pieces simplified;
// m itself otherwise. simplified tells whether m's pieces are simplified
// (not empty): the groups of the others are coalesced by
// presburger.Coalesce, which drops empty pieces first.
func coalesceFormsOf(ctx context.Context, m *presburger.Map, simplified bool) (*presburger.Map, error) {
	if m.NumBasics() < formGroupMin {
		return m, nil
	}
	c, merged, err := coalesceByForm(ctx, m, simplified)
	if err != nil || !merged {
		return m, err
	}
	// Merged pieces may have duplicate constraints (see Simplify); past
	// its budget the simplification is skipped, the points the same.
	s, err := c.Simplify(ctx)
	switch {
	case errors.Is(err, presburger.ErrBudget):
		return c, nil
	case err != nil:
		return nil, fmt.Errorf("simplify heap: %w", err)
	}
	return s, nil
}
