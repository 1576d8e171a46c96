package symeval

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/augur-verify/augur/presburger"
)

// This file reads cells whose content is an affine function of the cell.
//
// A buffer that a parallel loop over overlapping tiles fills (a Halide
// stage computed at root, each tile writing the cells it shares with its
// neighbour again) has a heap component such as
//
//	{ buf[i0, i1] -> f[h1, h2] : h1 = i0 + c0 and h2 = i1 + c1 and
//	  (exists t: i1 in tile t) }
//
// whose pieces differ only in which tile wrote the cell: the tile index,
// projected out by the union over the loop's iterations (T-PARLOOP), is an
// existential of each piece that coalescing cannot merge. Every piece
// holds the same content, f[i0 + c0, i1 + c1], whoever wrote the cell.
// The image of a read under such a component has one piece per piece of
// the location and per piece of the heap, and the product of a stencil's
// reads multiplies them: with 44 pieces a read in the 16-stage stencil
// chain, the pieces of a value grow as 44 to the power of its reads.
//
// When the content is one affine function f of the cell, the value read
// at location t is f(t) wherever t is a cell of the component: the pieces
// of the heap are not needed, only those of t. Where t is not a cell of
// the heap the read is undefined, which the premise reads(e) ⊆ dom(h) of
// rule S-ASSIGN excludes (Clément 2022, section 5.4, Fig. 5.4): it is the
// assignment's own undefined-read condition, decided over Presburger sets
// on the same heap, under the scope's facts and the kernel's assumptions,
// and a kernel is only valid if it holds. The value obligations keep only
// the points of the facts and the assumptions (valueObligations), so there
// the read set f(t) is exactly the image of t whenever the condition holds.
// This only applies when the array has a single component (one context)
// in the heap: then dom(h) restricted to the array is that component's
// domain, and the premise says that t lies in it.

// cellFn is what cellFunction found for one heap component, and
// piecewiseCellFunction once asked.
type cellFn struct {
	graph *presburger.Map // { a[i] -> E[h] : h = f(i) } over all cells, nil if none
	// pieces is the graph of piecewiseCellFunction (nil if none), known
	// once piecesKnown.
	pieces      *presburger.Map
	piecesKnown bool
}

// maxCellFnCandidates bounds the candidate functions cellFunction tries.
const maxCellFnCandidates = 4

// cellFunction returns the graph { a[i] -> E[h] : h = f(i, p) } of the
// affine function f that gives the content of every cell of the heap
// component m, when there is one under the parameter domain assumed (nil:
// none), or nil. The candidates for f are read off the equalities of m's
// pieces that define each hole from the cell and the parameters (no local
// variable, no other hole, coefficient ±1), at most maxCellFnCandidates
// distinct ones: pieces may define the same content differently, one
// that the assumptions make equal (a tile shifted back only when the
// image is a single tile wide, say). A candidate must hold on all of m
// under assumed, which a subtraction decides.
func cellFunction(ctx context.Context, m, assumed *presburger.Map) (*presburger.Map, error) {
	on := m
	if assumed != nil {
		var err error
		if on, err = m.IntersectParams(assumed); err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{}
	for _, b := range m.Basics() {
		g, key := pieceFunction(m.Space(), b)
		if g == nil || seen[key] {
			continue
		}
		if len(seen) == maxCellFnCandidates {
			break
		}
		seen[key] = true
		graph := presburger.NewMap(m.Space(), g)
		// Best effort: past coalesceSteps steps the candidate is given up.
		rest, err := on.Subtract(presburger.WithBudget(ctx, presburger.Budget{MaxSteps: coalesceSteps}), graph)
		switch {
		case errors.Is(err, presburger.ErrBudget):
			continue
		case err != nil:
			return nil, fmt.Errorf("content of %s: %w", m.Space().In.Name, err)
		}
		if rest.NumBasics() == 0 {
			return graph, nil
		}
	}
	return nil, nil
}

// piecewiseCellFunction returns the graph of a function f that gives the
// content of every cell of the heap component m and is affine in the cell
// on each of a few parameter domains, when cellFunction finds no single
// one, or nil. A buffer that a loop over row tiles fills again for each
// tile, the last tile shifted back over its neighbour, holds f1(i) in the
// last tile and f2(i) in the others: its pieces define the holes in two
// ways (pieceFunction), each on a domain of the parameters (the loop
// variables of the enclosing tiles among them).
//
// The pieces of m are grouped by the function g_j that their equalities
// define (every piece must define one); P_j is the parameter domain of
// group j, and the graph is the union of g_j restricted to P_j. Every
// piece lies in its group's g_j and its parameters in P_j, so m is
// contained in the graph; the P_j are pairwise disjoint under assumed
// (emptiness tests over the parameters), so the graph is single-valued
// there. Where a cell c of m is read under the assumptions, m's contents
// at c are then the one point of the graph's image of c: the read's image
// through the graph is exact wherever the read is defined, which is all
// the value obligations need (see the top of this file). At most
// maxCellFnCandidates groups are tried.
func piecewiseCellFunction(ctx context.Context, m, assumed *presburger.Map) (*presburger.Map, error) {
	sp := m.Space()
	type group struct {
		graph  *presburger.BasicMap
		pieces []*presburger.BasicMap
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, b := range m.Basics() {
		g, key := pieceFunction(sp, b)
		if g == nil {
			return nil, nil
		}
		gr, ok := byKey[key]
		if !ok {
			if len(groups) == maxCellFnCandidates {
				return nil, nil
			}
			gr = &group{graph: g}
			byKey[key] = gr
			groups = append(groups, gr)
		}
		gr.pieces = append(gr.pieces, b)
	}
	if len(groups) < 2 {
		return nil, nil
	}
	doms := make([]*presburger.Map, len(groups))
	for j, gr := range groups {
		// The parameters of a group's pieces, which differ in the cells
		// they hold (the first tile, the last, the others), mostly make
		// one domain: coalesced, the graph and the images through it have
		// a piece per group, not per piece of the heap.
		d, err := compactDomain(presburger.WithBudget(ctx, presburger.Budget{MaxSteps: coalesceSteps}), presburger.NewMap(sp, gr.pieces...).Params())
		switch {
		case errors.Is(err, presburger.ErrBudget):
			return nil, nil
		case err != nil:
			return nil, fmt.Errorf("content of %s: %w", sp.In.Name, err)
		}
		doms[j] = d
	}
	for j := range doms {
		for k := j + 1; k < len(doms); k++ {
			both, err := doms[j].Intersect(doms[k])
			if err == nil && assumed != nil {
				both, err = both.IntersectParams(assumed)
			}
			if err != nil {
				return nil, fmt.Errorf("content of %s: %w", sp.In.Name, err)
			}
			// Best effort, as the coalescing: past coalesceSteps steps
			// the function is given up.
			empty, err := both.IsEmpty(presburger.WithBudget(ctx, presburger.Budget{MaxSteps: coalesceSteps}))
			switch {
			case errors.Is(err, presburger.ErrBudget):
				return nil, nil
			case err != nil:
				return nil, fmt.Errorf("content of %s: %w", sp.In.Name, err)
			case !empty:
				return nil, nil
			}
		}
	}
	out := presburger.Empty(sp)
	for j, gr := range groups {
		part, err := presburger.NewMap(sp, gr.graph).IntersectParams(doms[j])
		if err == nil {
			out, err = out.Union(part)
		}
		if err != nil {
			return nil, fmt.Errorf("content of %s: %w", sp.In.Name, err)
		}
	}
	return out, nil
}

// pieceFunction returns the equalities of piece b (of a heap component in
// space sp) that define every hole from the cell and the parameters, as a
// piece of sp without local variables, and a key identifying them; nil
// when some hole has no such equality.
func pieceFunction(sp presburger.Space, b *presburger.BasicMap) (*presburger.BasicMap, string) {
	nOut := sp.NumOut()
	g := presburger.NewBasicMap(sp)
	first := b.Col(presburger.DimOut, 0)
	found := make([]bool, nOut)
	var key strings.Builder
	for _, e := range b.Eqs() {
		k := -1
		for h := 0; h < nOut; h++ {
			if !e[first+h].IsZero() {
				if k >= 0 {
					k = -2
					break
				}
				k = h
			}
		}
		if k < 0 || found[k] {
			continue
		}
		c := e[first+k]
		if !c.IsOne() && !c.Equal(presburger.NewInt(-1)) {
			continue
		}
		local := false
		for l := 0; l < b.NumLocals(); l++ {
			if !e[b.LocalCol(l)].IsZero() {
				local = true
				break
			}
		}
		if local {
			continue
		}
		row := g.NewRow()
		copy(row, e[:b.LocalOffset()])
		row[g.ConstCol()] = e[b.ConstCol()]
		if c.IsOne() {
			// Normalise to -h + f = 0, so that the key does not depend
			// on the equality's sign.
			for i := range row {
				row[i] = row[i].Neg()
			}
		}
		g.AddEq(row)
		found[k] = true
		fmt.Fprintf(&key, "%d:", k)
		for _, v := range row {
			key.WriteString(v.String())
			key.WriteByte(',')
		}
		key.WriteByte(';')
	}
	for _, ok := range found {
		if !ok {
			return nil, ""
		}
	}
	return g, key.String()
}

// functionalRead returns the contents of the cells loc of array a in the
// heap h as the image of loc under the affine function that gives the
// content of every cell of a's component of h (see cellFunction), or nil
// when a has several components in h or its content is no such function.
// The result is exact wherever loc lies in the heap's cells; see the
// comment at the top of this file for why that is all the value
// obligations need. memo caches cellFunction by component.
func functionalRead(ctx context.Context, h *Heap, loc *presburger.Map, assumed *presburger.Map, memo map[*presburger.Map]cellFn) (*presburger.UnionMap, error) {
	comp := soleComponent(h, loc)
	if comp == nil {
		return nil, nil
	}
	fn, ok := memo[comp]
	if !ok {
		g, err := cellFunction(ctx, comp, assumed)
		if err != nil {
			return nil, err
		}
		fn = cellFn{graph: g}
		memo[comp] = fn
	}
	if fn.graph == nil {
		return nil, nil
	}
	return chargedImage(ctx, loc, fn.graph)
}

// chargedImage returns the image of loc through the function graph g,
// its work counted against the step budget of ctx (chargeBuilt).
func chargedImage(ctx context.Context, loc, g *presburger.Map) (*presburger.UnionMap, error) {
	img, err := presburger.NewUnionMap(loc).Apply(presburger.NewUnionMap(g))
	if err != nil {
		return nil, err
	}
	if err := chargeBuiltUnion(ctx, loc.NumBasics()*g.NumBasics(), img); err != nil {
		return nil, fmt.Errorf("read through the content of %s: %w", loc.Space().Out.Name, err)
	}
	return img, nil
}

// piecewiseRead is functionalRead through the function of
// piecewiseCellFunction, for a component that cellFunction found no
// single function for (nil otherwise, or when there is none). memo is
// functionalRead's, whose entry for the component must be there.
func piecewiseRead(ctx context.Context, h *Heap, loc *presburger.Map, assumed *presburger.Map, memo map[*presburger.Map]cellFn) (*presburger.UnionMap, error) {
	comp := soleComponent(h, loc)
	if comp == nil {
		return nil, nil
	}
	fn, ok := memo[comp]
	if !ok || fn.graph != nil {
		return nil, nil
	}
	if !fn.piecesKnown {
		g, err := piecewiseCellFunction(ctx, comp, assumed)
		if err != nil {
			return nil, err
		}
		fn.pieces, fn.piecesKnown = g, true
		memo[comp] = fn
	}
	if fn.pieces == nil {
		return nil, nil
	}
	return chargedImage(ctx, loc, fn.pieces)
}

// soleComponent returns the component of h that holds the cells of the
// array that loc reads, or nil when the array has none or several (or one
// of another rank).
func soleComponent(h *Heap, loc *presburger.Map) *presburger.Map {
	a := loc.Space().Out
	var comp *presburger.Map
	for _, m := range h.u.Maps() {
		in := m.Space().In
		if in == nil || in.Name != a.Name {
			continue
		}
		if comp != nil || m.Space().NumIn() != loc.Space().NumOut() {
			return nil
		}
		comp = m
	}
	return comp
}

// readByLocation returns the image img of the location loc (a single
// context's component of loc applied to the heap; parts holds the image
// of each piece of loc) rebuilt piece of loc by piece of loc: where every piece of the image of a piece L of loc
// that can occur within (the scope's facts and the assumptions) defines
// each hole by the same affine function g of the parameters, that image
// is { g(p) : p in the parameters of L }, one piece. The pieces it
// replaces differ only in which of the heap's pieces held the cell (which
// iteration wrote a line of a buffer folded modulo its size, say), and
// coalescing each read's image to merge them again cost most of the
// symbolic evaluation of the stencil chain. Exact within, wherever the
// read is defined, for the reason given at the top of this file: there
// the image of L at p holds a content, and every content it can hold is
// g(p). Pieces of loc whose image is not of that form keep their image.
func readByLocation(ctx context.Context, loc *presburger.Map, parts []*presburger.UnionMap, img, within *presburger.Map) (*presburger.Map, error) {
	sp := img.Space()
	out := presburger.Empty(sp)
	for i, b := range loc.Basics() {
		l := presburger.NewMap(loc.Space(), b)
		iu := parts[i]
		var part *presburger.Map
		for _, m := range iu.Maps() {
			if m.Space().Key() != sp.Key() {
				// Another context: the location's image is not one
				// component.
				return img, nil
			}
			part = m
		}
		if part == nil || part.NumBasics() == 0 {
			continue
		}
		g, err := commonFunction(ctx, sp, part, within)
		if err != nil {
			return nil, err
		}
		if g != nil {
			if part, err = presburger.NewMap(sp, g).IntersectParams(l.Params()); err != nil {
				return nil, err
			}
		}
		if out, err = out.Union(part); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// commonFunction returns the piece of the equalities that define every
// hole alike in every piece of m that has a point within (see
// pieceFunction), or nil when some piece defines them otherwise or not
// at all. Only the pieces that do not define them as the first piece
// does take an emptiness test.
func commonFunction(ctx context.Context, sp presburger.Space, m, within *presburger.Map) (*presburger.BasicMap, error) {
	var g *presburger.BasicMap
	var key string
	// A look at every constraint of every piece.
	if err := chargeBuilt(ctx, 0, m); err != nil {
		return nil, fmt.Errorf("content of %s: %w", sp.In.Name, err)
	}
	for _, b := range m.Basics() {
		gi, ki := pieceFunction(sp, b)
		if gi != nil && (g == nil || ki == key) {
			if g == nil {
				g, key = gi, ki
			}
			continue
		}
		// A piece that defines the holes otherwise, or not at all:
		// harmless if it cannot occur.
		if within == nil {
			return nil, nil
		}
		pm, err := presburger.NewMap(sp, b).IntersectParams(within)
		if err != nil {
			return nil, err
		}
		empty, err := pm.IsEmpty(ctx)
		if err != nil || !empty {
			return nil, err
		}
	}
	return g, nil
}
