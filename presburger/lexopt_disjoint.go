package presburger

import (
	"context"
	"errors"
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
// pieces.

// lexDisjointSteps bounds the emptiness test of the intersection of two
// conjunctions' domains (or the budget of the context, if smaller). A
// test that runs out of it leaves the two in one group: their optima are then combined piece by piece, exactly, as
// without the grouping.
const lexDisjointSteps = 20000

// lxDomainGroups partitions the conjunctions bs of a relation (or set)
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
	bs := m.Basics()
	n := len(bs)
	if n < 2 {
		return lxOneGroup(n), nil
	}
	doms := make([][]*BasicMap, n)
	rows := make([][][]sharedRow, n)
	for i, b := range bs {
		doms[i] = NewMap(m.space, b).Domain().Basics()
		rows[i] = make([][]sharedRow, len(doms[i]))
		for k, d := range doms[i] {
			rows[i][k] = sharedRows(d, dimCols(d), true)
		}
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
	tb := budgetFrom(ctx)
	tb.MaxSteps = min(tb.MaxSteps, lexDisjointSteps)
	tctx := WithBudget(ctx, tb)
	for j := 1; j < n; j++ {
		for i := 0; i < j; i++ {
			ri, rj := find(i), find(j)
			if ri == rj {
				continue
			}
			meet, err := lxDomainsMeet(tctx, doms[i], doms[j], rows[i], rows[j])
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
	for i := range bs {
		r := find(i)
		g, ok := at[r]
		if !ok {
			g = len(groups)
			at[r] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	return groups, nil
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
