package symeval

import (
	"context"
	"fmt"
	"slices"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// This file shares the reads that a value expression repeats: Halide's
// stencils read a cell several times in one expression (local_laplacian
// reads one cell of its gray pyramid twelve times in an output's value,
// interpolate the alpha channel of a pixel four times). An expression
// reads the heap as it is before the assignment, so two reads of the
// same cell in one expression read one content: the reads of one
// expression are evaluated once (valueEval.sharedRead), and the product
// of their alternatives (valueEval.eval) pairs only an alternative with
// itself, its holes one set of holes.
//
// Soundness: the symbolic value of a read r is the union of its
// alternatives' sets, one context T_k with hole tuples S_k(p) at each
// point p of the scope: whatever the cell read holds at p is T_k(h) for
// some k and some h in S_k(p). Two occurrences of r at p read that one
// content, so the execution's value of the expression is the template's
// value at the point where both occurrences take that k and that h,
// which the shared product keeps. The product of all the pairs has more
// points (r's content taken as two different contents at once), which
// only made obligations stronger than the program's.

// readUse records where an alternative holds the value of one read of
// its expression: alt is the index of the read's alternative taken, and
// holes the alternative's holes (0-based) that hold that alternative's
// holes, in order.
type readUse struct {
	alt   int
	holes []int
}

// sharedRead is the value of a read of an expression, evaluated once:
// id names it in the alternatives' uses (alternative.uses).
type sharedRead struct {
	id   int
	alts []alternative
}

// sharedRead returns the alternatives of the read x, evaluated at its
// first occurrence in the expression and kept for the next ones (by its
// text: reads of one text in one scope read one cell), each recording
// that it is that read's alternative (alternative.uses).
func (ev *valueEval) sharedRead(x *syntax.Index) ([]alternative, error) {
	key := syntax.ExprString(x)
	if r, ok := ev.shared[key]; ok {
		return slices.Clone(r.alts), nil
	}
	alts, err := ev.read(x)
	if err != nil {
		return nil, err
	}
	if ev.shared == nil {
		ev.shared = map[string]sharedRead{}
	}
	id := len(ev.shared)
	for k := range alts {
		holes := make([]int, alts[k].holes)
		for h := range holes {
			holes[h] = h
		}
		alts[k].uses = map[int]readUse{id: {alt: k, holes: holes}}
	}
	ev.shared[key] = sharedRead{id: id, alts: alts}
	return slices.Clone(alts), nil
}

// joinUses returns the uses of the product of an alternative with uses
// x and holes 0 to off-1 and one with uses y (whose holes follow, from
// off), and the pairs of holes that hold the same read's holes in both.
// ok is false when both hold one read with different alternatives: that
// product has no point that an execution takes (see the file's comment).
func joinUses(x map[int]readUse, off int, y map[int]readUse) (uses map[int]readUse, same [][2]int, ok bool) {
	if len(x) == 0 && len(y) == 0 {
		return nil, nil, true
	}
	uses = make(map[int]readUse, len(x)+len(y))
	for id, u := range x {
		uses[id] = u
	}
	for id, u := range y {
		if v, ok := x[id]; ok {
			if v.alt != u.alt || len(v.holes) != len(u.holes) {
				return nil, nil, false
			}
			for t, h := range u.holes {
				same = append(same, [2]int{v.holes[t], h + off})
			}
			continue
		}
		holes := make([]int, len(u.holes))
		for t, h := range u.holes {
			holes[t] = h + off
		}
		uses[id] = readUse{alt: u.alt, holes: holes}
	}
	return uses, same, true
}

// identifyHoles returns a with the holes of each pair of same made one:
// the equality of the two holes added to every piece of its set, the
// later hole projected out (exactly, determined by the equality) and
// renamed to the earlier in the template and the uses. Pairs may chain
// (a hole paired with two others): each class of holes keeps its first.
func identifyHoles(ctx context.Context, a alternative, same [][2]int) (alternative, error) {
	if len(same) == 0 {
		return a, nil
	}
	// Union-find over the holes: each class's representative its least.
	rep := make([]int, a.holes)
	for i := range rep {
		rep[i] = i
	}
	find := func(i int) int {
		for rep[i] != i {
			rep[i] = rep[rep[i]]
			i = rep[i]
		}
		return i
	}
	for _, p := range same {
		x, y := find(p[0]), find(p[1])
		if x == y {
			continue
		}
		if y < x {
			x, y = y, x
		}
		rep[y] = x
	}
	// The equalities, on every piece.
	sp := a.set.Space()
	var dups []int
	pieces := a.set.Basics()
	for h := range rep {
		r := find(h)
		if r == h {
			continue
		}
		dups = append(dups, h)
		for _, b := range pieces {
			row := b.NewRow()
			row[b.Col(presburger.DimOut, r)] = presburger.NewInt(1)
			row[b.Col(presburger.DimOut, h)] = presburger.NewInt(-1)
			b.AddEq(row)
		}
	}
	set := presburger.NewMap(sp, pieces...)
	for i := len(dups) - 1; i >= 0; i-- {
		var err error
		if set, err = set.ProjectOut(presburger.DimOut, dups[i], 1); err != nil {
			return a, fmt.Errorf("shared reads: %w", err)
		}
	}
	if err := chargeBuilt(ctx, len(pieces)*len(dups), set); err != nil {
		return a, fmt.Errorf("shared reads: %w", err)
	}
	// The new index of every old hole: its class representative's rank
	// among the holes kept.
	rank := make([]int, a.holes)
	n := 0
	for h := range rep {
		if find(h) == h {
			rank[h] = n
			n++
		}
	}
	index := make([]int, a.holes)
	for h := range rep {
		index[h] = rank[find(h)]
	}
	types := map[syntax.Expr]syntax.Type{}
	tmpl := rebuild(a.tmpl, func(x syntax.Expr) (syntax.Expr, bool) {
		if id, ok := x.(*syntax.Ident); ok {
			if k, ok := holeIndex(id.Name); ok && k <= len(index) {
				return &syntax.Ident{Name: HoleName(index[k-1] + 1)}, true
			}
		}
		return nil, false
	}, func(orig, cp syntax.Expr) {
		if t, ok := a.types[orig]; ok {
			types[cp] = t
		}
	})
	// The equalities may shrink the pieces' parameter domains: they are
	// computed again when needed.
	return alternative{tmpl: tmpl, types: types, holes: n, set: set, uses: renumberUses(a.uses, index)}, nil
}

// renumberUses returns uses with every hole h renamed index[h].
func renumberUses(uses map[int]readUse, index []int) map[int]readUse {
	if uses == nil {
		return nil
	}
	out := make(map[int]readUse, len(uses))
	for id, u := range uses {
		holes := make([]int, len(u.holes))
		for t, h := range u.holes {
			holes[t] = index[h]
		}
		out[id] = readUse{alt: u.alt, holes: holes}
	}
	return out
}

// fusedIndex returns the new index of every one of n holes when hole j
// is fused into hole i < j (fuseWith): j becomes i, the later ones move
// down by one.
func fusedIndex(n, i, j int) []int {
	index := make([]int, n)
	for h := range index {
		switch {
		case h == j:
			index[h] = i
		case h > j:
			index[h] = h - 1
		default:
			index[h] = h
		}
	}
	return index
}
