package presburger

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// This file splits the conjunctions of a union, before their
// lexicographic optima are combined, into groups whose domains do not
// meet. Where no input of one conjunction is an input of another, the
// optimum of their union is the optimum of each on its own domain: the
// pieces of their optima are disjoint and are kept as they are, without
// the pairwise intersection of the pieces that pwLexCombine tests.
//
// Testing the conjunctions rather than the pieces of their optima is
// both fewer tests (a conjunction's optimum commonly has several pieces)
// and cheaper ones: a piece's domain carries the divisions that the
// parametric search introduced (Gomory cuts, nested divisions of the
// inputs), while a conjunction's domain only has its own locals and its
// outputs as existential variables. The verifier's last writes of a
// folded buffer (a union of hundreds of conjunctions, one per case of a
// store's partitioned loops, each writing cells no other writes) take a
// few steps per pair of conjunctions instead of thousands per pair of
// pieces. The iterated update keeps the groups of its last write
// (lxLastWrite) to substitute each conjunction of the heap with the
// pieces of the groups its cells meet only.

// lexDisjointSteps bounds the emptiness test of the intersection of two
// conjunctions' domains (or the budget of the context, if smaller). A
// test that runs out of it leaves the two in one group: their optima are
// then combined piece by piece, exactly, as without the grouping.
const lexDisjointSteps = 20000

// lxGrouped is the lexicographic optimum of a union, by groups of its
// conjunctions whose domains meet (lxDomainGroups).
type lxGrouped struct {
	// groups lists the conjunctions of each group, by index.
	groups [][]int
	// opts holds the optimum of each group's conjunctions: the domains
	// of the pieces of two groups' optima are disjoint.
	opts []*PwMultiAff
	// doms holds the domain of every conjunction, as conjunctions, and
	// rows their sharedRows over their dimensions.
	doms [][]*BasicMap
	rows [][][]sharedRow
}

// lexOptGrouped computes the optimum of every conjunction of m, groups
// the conjunctions (lxDomainGroups) and combines the optima of each group
// (pwLexCombine).
func lexOptGrouped(ctx context.Context, m *Map, max bool) (*lxGrouped, error) {
	mt := newMeter(ctx)
	bs := m.Basics()
	opts := make([]*PwMultiAff, len(bs))
	for i, b := range bs {
		p, err := lexOptBasic(ctx, mt, b, max, false)
		if errors.Is(err, ErrUnsupportedExistential) {
			// Retry with the locals in column echelon form, which removes
			// the lines of their solution sets.
			p, err = lexOptBasic(ctx, mt, b, max, true)
		}
		if err != nil {
			return nil, fmt.Errorf("lexicographic optimum of conjunction %d of %d: %w", i+1, m.NumBasics(), err)
		}
		opts[i] = p
	}
	g := &lxGrouped{}
	g.domains(m)
	var err error
	if g.groups, err = g.partition(ctx); err != nil {
		return nil, fmt.Errorf("lexicographic optimum of a union: %w", err)
	}
	for _, idx := range g.groups {
		o := opts[idx[0]]
		for _, i := range idx[1:] {
			if o, err = pwLexCombine(ctx, o, opts[i], max); err != nil {
				return nil, fmt.Errorf("lexicographic optimum of a union: %w", err)
			}
		}
		g.opts = append(g.opts, o)
	}
	return g, nil
}

// domains sets g's domains of the conjunctions of m and their rows.
func (g *lxGrouped) domains(m *Map) {
	bs := m.Basics()
	g.doms = make([][]*BasicMap, len(bs))
	g.rows = make([][][]sharedRow, len(bs))
	for i, b := range bs {
		g.doms[i], g.rows[i] = lxDomainOf(NewMap(m.space, b).Domain())
	}
}

// lxDomainOf returns the conjunctions of the domain d and their
// sharedRows over their dimensions.
func lxDomainOf(d *Map) ([]*BasicMap, [][]sharedRow) {
	bs := d.Basics()
	rows := make([][]sharedRow, len(bs))
	for k, b := range bs {
		rows[k] = sharedRows(b, dimCols(b), true)
	}
	return bs, rows
}

// lxDisjointCtx returns ctx with its budget's steps bounded by
// lexDisjointSteps, for the tests of lxDomainsMeet.
func lxDisjointCtx(ctx context.Context) context.Context {
	tb := budgetFrom(ctx)
	tb.MaxSteps = min(tb.MaxSteps, lexDisjointSteps)
	return WithBudget(ctx, tb)
}

// lxDomainGroups partitions the conjunctions of a relation (or set) m
// into groups such that the domains of two conjunctions in different
// groups are disjoint: for a relation, no input tuple has an output in
// both; for a set, no parameter value makes both non-empty. The groups
// are the connected components of the conjunctions whose domains may
// meet (a test that fails within lexDisjointSteps counts as meeting), as
// increasing lists of indices, ordered by their first index.
//
// A pair is disjoint without a test when its domains have opposite rows
// with no integer between them (sharedContradiction); two conjunctions
// already in one group are not tested.
func lxDomainGroups(ctx context.Context, m *Map) ([][]int, error) {
	g := &lxGrouped{}
	g.domains(m)
	return g.partition(ctx)
}

// partition returns the groups of lxDomainGroups from g's domains.
func (g *lxGrouped) partition(ctx context.Context) ([][]int, error) {
	n := len(g.doms)
	if n < 2 {
		return lxOneGroup(n), nil
	}
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	tctx := lxDisjointCtx(ctx)
	for j := 1; j < n; j++ {
		for i := 0; i < j; i++ {
			ri, rj := find(i), find(j)
			if ri == rj {
				continue
			}
			meet, err := lxDomainsMeet(tctx, g.doms[i], g.doms[j], g.rows[i], g.rows[j])
			if err != nil {
				return nil, err
			}
			if meet {
				// The smaller index stays the root: a group's root is its
				// first conjunction.
				parent[max(ri, rj)] = min(ri, rj)
			}
		}
	}
	var groups [][]int
	at := map[int]int{}
	for i := range n {
		r := find(i)
		k, ok := at[r]
		if !ok {
			k = len(groups)
			at[r] = k
			groups = append(groups, nil)
		}
		groups[k] = append(groups[k], i)
	}
	return groups, nil
}

// meeting returns the indices of the groups of g with a conjunction
// whose domain may meet d (a domain in the space of g's domains).
func (g *lxGrouped) meeting(ctx context.Context, d *Map) ([]int, error) {
	ds, rows := lxDomainOf(d)
	tctx := lxDisjointCtx(ctx)
	var out []int
	for k, idx := range g.groups {
		for _, i := range idx {
			meet, err := lxDomainsMeet(tctx, ds, g.doms[i], rows, g.rows[i])
			if err != nil {
				return nil, err
			}
			if meet {
				out = append(out, k)
				break
			}
		}
	}
	return out, nil
}

// lxOneGroup returns the single group of the n < 2 conjunctions (none
// for n = 0).
func lxOneGroup(n int) [][]int {
	if n == 0 {
		return nil
	}
	return [][]int{{0}}
}

// lxDomainsMeet reports whether two domains (unions of conjunctions xs
// and ys, with their shared rows xr and yr) may have a common point:
// false only when every pair of their conjunctions is disjoint, by
// opposite rows or by an emptiness test of their intersection. A test
// that exceeds the budget of ctx answers true; an exhausted allowance or
// a cancelled context is returned as an error.
func lxDomainsMeet(ctx context.Context, xs, ys []*BasicMap, xr, yr [][]sharedRow) (bool, error) {
	for a, x := range xs {
		for b, y := range ys {
			if sharedContradiction(xr[a], yr[b]) {
				continue
			}
			empty, err := x.Intersect(y).IsEmpty(ctx)
			switch {
			case errors.Is(err, ErrBudget):
				return true, nil
			case err != nil:
				return false, err
			case !empty:
				return true, nil
			}
		}
	}
	return false, nil
}

// lxLastWrite is the last write of an iterated update (the lexicographic
// maximum of the cells' writing iterations), with the groups it was
// computed by: a conjunction of the heap is substituted with the pieces
// of the groups whose domains meet its cells only.
type lxLastWrite struct {
	g *lxGrouped
	// graphs holds the graph of each group's optimum; graph their union,
	// the graph of the whole maximum.
	graphs []*Map
	graph  *Map
}

// lxLastWriteOf returns the lexicographic maximum of bd (the cells
// written by an iterated update's body, with the iteration bound as their
// output) by groups. Each group's optimum is coalesced as LexMax
// coalesces its result: with one group, graph is LexMaxMap(bd).
//
// It is traced as LexMax (a "map lexmax" of bd).
func lxLastWriteOf(ctx context.Context, bd *Map) (_ *lxLastWrite, err error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trMapLexMax, func(ctx context.Context) (*lxLastWrite, error) { return lxLastWriteOf(ctx, bd) }, bd)
	}
	defer lxRecover("lexicographic optimum", &err)
	g, err := lexOptGrouped(ctx, bd, true)
	if err != nil {
		return nil, err
	}
	lw := &lxLastWrite{g: g}
	var all []*BasicMap
	for k, o := range g.opts {
		if o.NumPieces() > 1 {
			c, err := o.Coalesce(WithBudget(ctx, Budget{MaxSteps: lexCoalesceSteps}))
			switch {
			case err == nil:
				g.opts[k] = c
			case !errors.Is(err, ErrBudget):
				return nil, fmt.Errorf("lexicographic optimum: %w", err)
			}
		}
		gm := g.opts[k].ToMap()
		lw.graphs = append(lw.graphs, gm)
		all = append(all, gm.Basics()...)
	}
	lw.graph = NewMap(bd.Space(), all...)
	return lw, nil
}

// substitute returns Substitute(m, [x], lw.graph) for a map m of the heap
// whose last write lw is, the cells m writes for x within bound being
// among those of the conjunctions whose maximum lw is. Each conjunction
// of m is substituted with the pieces of the groups whose domains may
// meet its cells (at some x within bound) only: the others' pieces are
// defined on other cells, where the substitution has no point.
func (lw *lxLastWrite) substitute(ctx context.Context, m *Map, x string, bound *Map) (*Map, error) {
	if len(lw.g.groups) < 2 {
		return Substitute(ctx, m, []string{x}, lw.graph)
	}
	res, err := Substitute(ctx, NewMap(m.Space()), []string{x}, lw.graph)
	if err != nil {
		return nil, err
	}
	domSp := lw.graph.Space().Domain()
	var out []*BasicMap
	for _, b1 := range m.Basics() {
		one := NewMap(m.Space(), b1)
		d, err := one.Domain().IntersectParams(bound)
		if err != nil {
			return nil, err
		}
		bd1, err := BindParam(d, x)
		if err != nil {
			return nil, err
		}
		cells := bd1.Domain()
		if cs := cells.Space(); cs.Key() != domSp.Key() || !slices.Equal(cs.Params, domSp.Params) {
			// Another shape or other parameters: no grouping.
			return Substitute(ctx, m, []string{x}, lw.graph)
		}
		groups, err := lw.g.meeting(ctx, cells)
		if err != nil {
			return nil, err
		}
		var bs []*BasicMap
		for _, k := range groups {
			bs = append(bs, lw.graphs[k].Basics()...)
		}
		s, err := Substitute(ctx, one, []string{x}, NewMap(lw.graph.Space(), bs...))
		if err != nil {
			return nil, err
		}
		out = append(out, s.Basics()...)
	}
	return NewMap(res.Space(), out...), nil
}
