package symeval

import (
	"fmt"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// This file reads an array at clamped indices without case-splitting the
// clamps. A boundary condition (Halide's repeat_edge) reads its input at
// max(min(x, hi), lo) - off in every dimension: as a Presburger location,
// two cases per min or max, and the products of an expression's reads
// multiply them (a copy stage reading three channels through a clamp had
// 594 pieces in its value obligation, each a query of its own). When the
// array's content is an affine function of the cell (cellfn.go) whose
// hole k is cell_i + b_k, the content read at a cell whose index i is
// M + r, M a min or max, is that function with hole k written
// M + (r + b_k): the template keeps M as an index expression over holes
// (its leaves: x, hi, lo), each an affine function of the parameters, and
// the read's set has only the pieces of those functions. The min and max
// are then the solver's to reason about, as those of the specification's
// boundary condition are (both sides clamp the same way, so the matcher
// usually finds the same terms).
//
// The value is exact wherever the cell read lies in the array's cells,
// as functionalRead's is: where it does not, the read is undefined, which
// the assignment's undefined-read condition decides over the location of
// the read as before (reads, readLocation): the bounds and definedness of
// a clamped read are checked exactly as those of any other.

// splitMinMax returns the min or max call that is a summand of the index
// expression e with coefficient +1 (e itself, or an operand of a chain of
// + and - that is added), and e with that call replaced by 0; nil when
// there is none.
func splitMinMax(e syntax.Expr) (syntax.Expr, syntax.Expr) {
	switch x := e.(type) {
	case *syntax.Call:
		if (x.Fun.Name == "min" || x.Fun.Name == "max") && len(x.Args) == 2 {
			return x, &syntax.Lit{Kind: syntax.IntLiteral, Text: "0"}
		}
	case *syntax.Binary:
		switch x.Op {
		case syntax.OpAdd:
			if m, r := splitMinMax(x.X); m != nil {
				return m, &syntax.Binary{X: r, Op: x.Op, Y: x.Y}
			}
			if m, r := splitMinMax(x.Y); m != nil {
				return m, &syntax.Binary{X: x.X, Op: x.Op, Y: r}
			}
		case syntax.OpSub:
			if m, r := splitMinMax(x.X); m != nil {
				return m, &syntax.Binary{X: r, Op: x.Op, Y: x.Y}
			}
		}
	}
	return nil, nil
}

// minMaxLeaves appends to out the maximal subexpressions of the min or
// max expression m that are no min or max call, left to right.
func minMaxLeaves(m syntax.Expr, out []syntax.Expr) []syntax.Expr {
	if c, ok := m.(*syntax.Call); ok && (c.Fun.Name == "min" || c.Fun.Name == "max") && len(c.Args) == 2 {
		for _, a := range c.Args {
			out = minMaxLeaves(a, out)
		}
		return out
	}
	return append(out, m)
}

// clampedRead returns the contents of the cells that x reads with the
// clamps of its indices kept in the template (see the top of this file),
// or nil when x has no clamped index or the array's content is not an
// affine function of the cell with each hole depending on at most one
// clamped index, with coefficient 1.
func (ev *valueEval) clampedRead(x *syntax.Index) ([]alternative, error) {
	ms := make([]syntax.Expr, len(x.Indices))
	rest := make([]syntax.Expr, len(x.Indices))
	clamped := false
	for i, ix := range x.Indices {
		if ms[i], rest[i] = splitMinMax(ix); ms[i] != nil {
			clamped = true
		} else {
			rest[i] = ix
		}
	}
	if !clamped {
		return nil, nil
	}
	graph, c, err := ev.cellGraph(x.Array.Name, len(x.Indices))
	if err != nil || graph == nil {
		return nil, err
	}
	clampOf, ok := clampedHoles(graph, c.Holes, ms)
	if !ok {
		return nil, nil
	}
	// The contents at the cells with the clamps replaced by 0: hole k is
	// r + b_k there.
	set, zero, err := ev.shiftedContents(&syntax.Index{Array: x.Array, Indices: rest}, graph, c.Holes, clampOf)
	if err != nil {
		return nil, err
	}
	// The holes left of the content: their new numbers.
	renum := make([]int, c.Holes)
	holes := 0
	for k := range renum {
		if !zero[k] {
			holes++
			renum[k] = holes
		}
	}
	// The leaves of each clamp that a hole uses, one hole each after the
	// content's.
	parts := []alternative{{holes: holes, set: set}}
	clamps := make([]syntax.Expr, len(ms))
	for i, m := range ms {
		if m == nil || !used(clampOf, i) {
			continue
		}
		if clamps[i], parts, holes, err = ev.clampLeaves(m, parts, holes); err != nil {
			return nil, err
		}
	}
	prod := parts[0].set
	doms := pieceDomains(prod)
	for _, p := range parts[1:] {
		if prod, doms, err = productPieces(ev.ctx, prod, doms, p.set, pieceDomains(p.set), ev.size); err != nil {
			return nil, err
		}
	}
	if prod.Space().NumOut() != holes {
		return nil, fmt.Errorf("read %s: %d holes, %d dimensions", syntax.ExprString(x), holes, prod.Space().NumOut())
	}
	tmpl, types := clampedTemplate(c, clampOf, clamps, zero, renum)
	return []alternative{{tmpl: tmpl, types: types, holes: holes, set: prod, doms: doms}}, nil
}

// clampedHoles returns, for each of the holes of the array's content graph,
// the clamped index it depends on (-1 if none), and false when the content
// is not of the form clampedRead handles: every hole defined by one
// equality with coefficient ±1, depending on at most one clamped index
// (ms[i] non-nil), with coefficient 1.
func clampedHoles(graph *presburger.Map, nholes int, ms []syntax.Expr) ([]int, bool) {
	clampOf := make([]int, nholes)
	g := graph.Basics()[0]
	for k := range clampOf {
		clampOf[k] = -1
	}
	defined := make([]bool, nholes)
	for _, row := range g.Eqs() {
		// The row must define one hole k, with coefficient ±1: c*h_k +
		// f = 0, h_k = -c*f.
		k := -1
		for h := 0; h < nholes; h++ {
			if row[g.Col(presburger.DimOut, h)].IsZero() {
				continue
			}
			if k >= 0 {
				return nil, false
			}
			k = h
		}
		if k < 0 || defined[k] {
			return nil, false
		}
		defined[k] = true
		coef := row[g.Col(presburger.DimOut, k)]
		if !coef.IsOne() && !coef.Equal(presburger.NewInt(-1)) {
			return nil, false
		}
		for i, m := range ms {
			a := row[g.Col(presburger.DimIn, i)].Mul(coef).Neg() // the coefficient of cell i in h_k
			switch {
			case m == nil || a.IsZero():
			case a.IsOne() && clampOf[k] < 0:
				clampOf[k] = i
			default:
				return nil, false
			}
		}
	}
	for _, ok := range defined {
		if !ok {
			return nil, false
		}
	}
	return clampOf, true
}

// shiftedContents returns the values of the holes of the array's content
// at the cells that shifted reads (the clamped indices replaced by 0), with
// the clamped holes that are 0 at every point projected out; zero[k]
// reports which were.
func (ev *valueEval) shiftedContents(shifted *syntax.Index, graph *presburger.Map, nholes int, clampOf []int) (*presburger.Map, []bool, error) {
	loc, err := readLocation(ev.ctx, ev.s, shifted)
	if err != nil {
		return nil, nil, err
	}
	img, err := loc.Apply(graph)
	if err != nil {
		return nil, nil, err
	}
	set, err := respace(img, holeSpace(nil, "", nholes))
	if err != nil {
		return nil, nil, err
	}
	// Holes that are 0 at every point are left out: M alone, not M + 0.
	zero := make([]bool, nholes)
	for k := nholes - 1; k >= 0; k-- {
		if clampOf[k] < 0 {
			continue
		}
		if zero[k], err = alwaysZero(ev, set, k); err != nil {
			return nil, nil, err
		}
		if zero[k] {
			if set, err = set.ProjectOut(presburger.DimOut, k, 1); err != nil {
				return nil, nil, err
			}
		}
	}
	return set, zero, nil
}

// clampLeaves appends to parts the values of the leaves of the clamp m,
// one hole each numbered after holes, and returns m with its leaves
// replaced by those holes.
func (ev *valueEval) clampLeaves(m syntax.Expr, parts []alternative, holes int) (syntax.Expr, []alternative, int, error) {
	leafHole := map[syntax.Expr]int{}
	for _, l := range minMaxLeaves(m, nil) {
		a, err := ev.indexValue(l)
		if err != nil {
			return nil, nil, 0, err
		}
		holes++
		leafHole[l] = holes
		parts = append(parts, a)
	}
	clamp := rebuild(m, func(e syntax.Expr) (syntax.Expr, bool) {
		if k, ok := leafHole[e]; ok {
			return &syntax.Ident{Name: HoleName(k)}, true
		}
		return nil, false
	}, nil)
	return clamp, parts, holes, nil
}

// clampedTemplate is the content's template with each clamped hole k
// replaced by its clamp plus the hole's renumbered value (the clamp alone
// when the hole is always 0), and the types of the copied subexpressions.
func clampedTemplate(c *Context, clampOf []int, clamps []syntax.Expr, zero []bool, renum []int) (syntax.Expr, map[syntax.Expr]syntax.Type) {
	types := map[syntax.Expr]syntax.Type{}
	tmpl := rebuild(c.Expr, func(e syntax.Expr) (syntax.Expr, bool) {
		id, ok := e.(*syntax.Ident)
		if !ok {
			return nil, false
		}
		k, ok := holeIndex(id.Name)
		if !ok {
			return nil, false
		}
		k--
		if clampOf[k] < 0 {
			return &syntax.Ident{Name: HoleName(renum[k])}, true
		}
		m := rebuild(clamps[clampOf[k]], func(syntax.Expr) (syntax.Expr, bool) { return nil, false }, nil)
		if zero[k] {
			return m, true
		}
		return &syntax.Binary{X: m, Op: syntax.OpAdd, Y: &syntax.Ident{Name: HoleName(renum[k])}}, true
	}, func(orig, cp syntax.Expr) {
		if t, ok := c.info.Types[orig]; ok {
			types[cp] = t
		}
	})
	return tmpl, types
}

// used reports whether some hole depends on clamped index i.
func used(clampOf []int, i int) bool {
	for _, c := range clampOf {
		if c == i {
			return true
		}
	}
	return false
}

// alwaysZero reports whether hole k of set is 0 at every point.
func alwaysZero(ev *valueEval, set *presburger.Map, k int) (bool, error) {
	for _, sign := range []int64{1, -1} {
		for _, b := range set.Basics() {
			t := b.Copy()
			row := t.NewRow()
			row[t.Col(presburger.DimOut, k)] = presburger.NewInt(sign)
			row[t.ConstCol()] = presburger.NewInt(-1)
			t.AddIneq(row) // sign*h_k >= 1
			empty, err := t.IsEmpty(ev.ctx)
			if err != nil || !empty {
				return false, err
			}
		}
	}
	return true, nil
}

// cellGraph returns the graph of the affine function that gives the
// content of every cell of array a in the heap (cellFunction), as one
// piece, and the content's context; nil when a has several components
// in the heap, or no such function.
func (ev *valueEval) cellGraph(a string, dims int) (*presburger.Map, *Context, error) {
	var comp *presburger.Map
	for _, m := range ev.h.u.Maps() {
		in := m.Space().In
		if in == nil || in.Name != a {
			continue
		}
		if comp != nil || m.Space().NumIn() != dims {
			return nil, nil, nil
		}
		comp = m
	}
	if comp == nil {
		return nil, nil, nil
	}
	if ev.fns == nil {
		ev.fns = map[*presburger.Map]cellFn{}
	}
	fn, ok := ev.fns[comp]
	if !ok {
		g, err := cellFunction(ev.ctx, comp, ev.s.assumed)
		if err != nil {
			return nil, nil, err
		}
		fn = cellFn{graph: g}
		ev.fns[comp] = fn
	}
	if fn.graph == nil || fn.graph.NumBasics() != 1 {
		return nil, nil, nil
	}
	c := ev.cs.Lookup(comp.Space().Out.Name)
	if c == nil {
		return nil, nil, fmt.Errorf("unknown context %s", comp.Space().Out.Name)
	}
	return fn.graph, c, nil
}

// clampRange returns the bounds lo and hi of the clamp m,
// max(min(x, hi), lo) or min(max(x, lo), hi), and which of them the clamp
// takes when lo > hi (true: lo); ok is false for any other expression.
func clampRange(m syntax.Expr) (lo, hi syntax.Expr, loWins, ok bool) {
	outer, isCall := m.(*syntax.Call)
	if !isCall || len(outer.Args) != 2 {
		return nil, nil, false, false
	}
	inner, isCall := outer.Args[0].(*syntax.Call)
	if !isCall || len(inner.Args) != 2 {
		return nil, nil, false, false
	}
	switch {
	case outer.Fun.Name == "max" && inner.Fun.Name == "min":
		return outer.Args[1], inner.Args[1], true, true
	case outer.Fun.Name == "min" && inner.Fun.Name == "max":
		return inner.Args[1], outer.Args[1], false, true
	}
	return nil, nil, false, false
}

// coarseLocation returns a superset of the location of the array access
// x in scope s in which every clamped index (clampRange) may be any value
// of its range, whatever the clamped expression: the cells from lo to hi,
// and the bound the clamp takes when the range is empty. It has the pieces
// of the bounds only, where the location has those of the clamped
// expressions times three cases per clamp. It is nil when x has no such
// index.
func coarseLocation(s *Scope, x *syntax.Index) (*presburger.Map, error) {
	tr := s.translator()
	d := dnfTrue()
	clamped := false
	one := presburger.NewInt(1)
	for i, ix := range x.Indices {
		o := varLinear(presburger.OutVar(i))
		m, rest := splitMinMax(ix)
		lo, hi, loWins, ok := clampRange(m)
		if m == nil || !ok {
			v, err := tr.index(ix)
			if err != nil {
				return nil, err
			}
			eqs, err := tr.w.equalities([]presburger.Var{presburger.OutVar(i)}, []pwExpr{v})
			if err != nil {
				return nil, err
			}
			if d, err = d.and(tr.w, eqs); err != nil {
				return nil, err
			}
			continue
		}
		clamped = true
		var vs [3]pwExpr // rest, lo, hi
		for k, e := range []syntax.Expr{rest, lo, hi} {
			var err error
			if vs[k], err = tr.index(e); err != nil {
				return nil, err
			}
		}
		var alts dnf
		for _, r := range vs[0] {
			// v = o - r is the clamp's value.
			v := o.add(r.e, one.Neg())
			for _, l := range vs[1] {
				for _, h := range vs[2] {
					cond, err := r.cond.and(tr.w, l.cond)
					if err != nil {
						return nil, err
					}
					if cond, err = cond.and(tr.w, h.cond); err != nil {
						return nil, err
					}
					bound := l.e // the value when the range is empty
					if !loWins {
						bound = h.e
					}
					inRange := conj{{e: v.add(l.e, one.Neg())}, {e: h.e.add(v, one.Neg())}} // lo <= v <= hi
					empty := conj{{e: v.add(bound, one.Neg()), eq: true}}                   // v = bound
					c, err := cond.and(tr.w, dnf{inRange, empty})
					if err != nil {
						return nil, err
					}
					alts = append(alts, c...)
				}
			}
		}
		var err error
		if d, err = d.and(tr.w, alts); err != nil {
			return nil, err
		}
	}
	if !clamped {
		return nil, nil
	}
	dims := make([]string, len(x.Indices))
	for i := range dims {
		dims[i] = fmt.Sprintf("i%d", i)
	}
	return lowerDNF(presburger.SetSpace(s.Params(), presburger.FlatTuple(x.Array.Name, dims...)), d, nil)
}

// coarseReads returns a superset of reads(e) in scope s, with the clamped
// indices of its array accesses any value of their ranges
// (coarseLocation), and whether some access has one (otherwise it is
// nil). Accesses with the same coarse location are listed once.
func coarseReads(s *Scope, e syntax.Expr) (*presburger.UnionMap, bool, error) {
	var locs []*presburger.Map
	seen := map[string]bool{}
	clamped := false
	var walkErr error
	syntax.Inspect(e, func(x syntax.Expr) bool {
		ix, ok := x.(*syntax.Index)
		if !ok || walkErr != nil || isDataRead(ix) {
			return walkErr == nil
		}
		l, err := coarseLocation(s, ix)
		if err == nil && l == nil {
			l, err = location(s, ix)
		} else if err == nil {
			clamped = true
		}
		if err != nil {
			walkErr = err
			return false
		}
		if k := l.String(); !seen[k] {
			seen[k] = true
			locs = append(locs, l)
		}
		return true
	})
	if walkErr != nil || !clamped {
		return nil, false, walkErr
	}
	return presburger.NewUnionMap(locs...), true, nil
}
