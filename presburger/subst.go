package presburger

import (
	"context"
	"errors"
	"fmt"
)

// This file implements the substitution of parameters by relations and the
// iterated update of symbolic heaps (Clément 2022, Definitions 5.2.3
// and 5.2.4). A symbolic heap is a relation (a Map, or a UnionMap over
// several spaces) from array cells a[i] to expression contexts E[j]: the
// range tuple's name is the expression context and its dimensions fill the
// context's holes. Free variables of the heap, such as a loop counter x, are
// parameters.

// Substitute returns r1[xs := r2], the substitution of the parameters xs
// of r1 by the relation r2 (Clément 2022, Definition 5.2.3): with d the
// domain tuple of r1,
//
//	i -> j in r1[xs := r2]  iff  exists k : i -> k in r2 and i -> j in r1 with xs = k.
//
// r2 relates the domain of r1 to tuples of len(xs) values (its output
// tuple's name is ignored); when r2 is a set, its points are substituted
// for every domain element (a singleton set substitutes a constant). The
// parameters of the result are those of r1 without xs, followed by those
// of r2 that r1 lacks; r2 must not have a parameter in xs. When r2 is
// single-valued this is the substitution of xs by the function r2.
func Substitute(ctx context.Context, r1 *Map, xs []string, r2 *Map) (_ *Map, err error) {
	defer lxRecover("substitute", &err)
	s1, s2 := r1.Space(), r2.Space()
	if s2.NumOut() != len(xs) {
		return nil, fmt.Errorf("substitute %d parameters by %s: wrong number of outputs", len(xs), s2)
	}
	if !s2.IsSet() && (s1.IsSet() || s1.In.Dim() != s2.In.Dim() || s1.Domain().Key() != s2.Domain().Key()) {
		return nil, fmt.Errorf("substitute in %s: relation %s has another domain", s1, s2)
	}
	xpos := map[string]int{}
	for i, x := range xs {
		if _, dup := xpos[x]; dup {
			return nil, fmt.Errorf("substitute: parameter %s listed twice", x)
		}
		xpos[x] = i
	}
	for _, p := range s2.Params {
		if _, ok := xpos[p]; ok {
			return nil, fmt.Errorf("substitute %s: the substituted relation has %s as a parameter", p, p)
		}
	}
	var params []string
	for _, p := range s1.Params {
		if _, ok := xpos[p]; !ok {
			params = append(params, p)
		}
	}
	params = alignParamNames(params, s2.Params)
	sp := s1.Copy()
	sp.Params = params
	var out []*BasicMap
	bs1, bs2 := r1.Basics(), r2.Basics()
	if len(bs1) == 0 || len(bs2) == 0 {
		return NewMap(sp, out...), nil
	}
	// A pair whose rows over the result's dimensions (neither the
	// substituted parameters nor the locals) include opposite ones with
	// no integer between them has no point: it is not built.
	rows2 := make([][]sharedRow, len(bs2))
	for j, b2 := range bs2 {
		_, map2 := substColumnMaps(sp, bs1[0], xpos, b2)
		rows2[j] = substDimRows(b2, map2, sp.NumDims())
	}
	for _, b1 := range bs1 {
		map1, _ := substColumnMaps(sp, b1, xpos, bs2[0])
		rows1 := substDimRows(b1, map1, sp.NumDims())
		for j, b2 := range bs2 {
			if sharedContradiction(rows1, rows2[j]) {
				continue
			}
			b, err := substBasic(sp, b1, xpos, b2)
			if err != nil {
				return nil, err
			}
			if e, err := b.IsEmpty(ctx); err != nil {
				return nil, fmt.Errorf("substitute: %w", err)
			} else if !e {
				out = append(out, b)
			}
		}
	}
	return NewMap(sp, out...), nil
}

// substBasic builds the conjunction of b1 (with parameter xs[i] read as the
// new local k_i) and b2 (with its outputs read as k), in space sp. The
// final columns are sp's dimensions, then the locals k, b1's locals and
// b2's locals, then the constant.
func substBasic(sp Space, b1 *BasicMap, xpos map[string]int, b2 *BasicMap) (*BasicMap, error) {
	nk := len(xpos)
	nDim := sp.NumParams() + sp.NumIn() + sp.NumOut()
	width := nDim + nk + b1.NumLocals() + b2.NumLocals() + 1
	map1, map2 := substColumnMaps(sp, b1, xpos, b2)
	sb := substBuilder{b: NewBasicMap(sp), width: width, exist: make([]bool, width)}
	for i := 0; i < nk; i++ {
		sb.b.AddExistential()
		sb.exist[nDim+i] = true
	}
	sb.addLocals(b1, map1)
	sb.addLocals(b2, map2)
	b := sb.b
	if b.NumCols() != width {
		return nil, fmt.Errorf("substitute: internal width mismatch")
	}
	for _, e := range b1.Eqs() {
		b.AddEq(substRow(e, map1, width))
	}
	for _, r := range b1.Ineqs() {
		b.AddIneq(substRow(r, map1, width))
	}
	for _, e := range b2.Eqs() {
		b.AddEq(substRow(e, map2, width))
	}
	for _, r := range b2.Ineqs() {
		b.AddIneq(substRow(r, map2, width))
	}
	for _, r := range sb.extra {
		b.AddIneq(r)
	}
	return b, nil
}

// substColumnMaps returns the final column of every column of b1 and of
// b2 (constant excluded) in substBasic's layout: b1's parameters named in
// xpos become the locals k, b2's outputs are k.
func substColumnMaps(sp Space, b1 *BasicMap, xpos map[string]int, b2 *BasicMap) (map1, map2 []int) {
	nk := len(xpos)
	np, nI, nO := sp.NumParams(), sp.NumIn(), sp.NumOut()
	nDim := np + nI + nO
	nL1, nL2 := b1.NumLocals(), b2.NumLocals()
	pidx := map[string]int{}
	for i, p := range sp.Params {
		pidx[p] = i
	}
	s1, s2 := b1.Space(), b2.Space()
	map1 = make([]int, 0, b1.NumCols()-1)
	for _, p := range s1.Params {
		if k, ok := xpos[p]; ok {
			map1 = append(map1, nDim+k)
		} else {
			map1 = append(map1, pidx[p])
		}
	}
	for i := 0; i < nI+nO; i++ {
		map1 = append(map1, np+i)
	}
	for i := 0; i < nL1; i++ {
		map1 = append(map1, nDim+nk+i)
	}
	map2 = make([]int, 0, b2.NumCols()-1)
	for _, p := range s2.Params {
		map2 = append(map2, pidx[p])
	}
	for i := 0; i < s2.NumIn(); i++ {
		map2 = append(map2, np+i)
	}
	for i := 0; i < nk; i++ {
		map2 = append(map2, nDim+i)
	}
	for i := 0; i < nL2; i++ {
		map2 = append(map2, nDim+nk+nL1+i)
	}
	return map1, map2
}

// substDimRows returns the rows of b (an equality as two opposite
// inequalities) that substBasic moves, by the column map cols, to the
// first nDim columns of its layout only (the result's dimensions), as
// sharedRows over those columns, for sharedContradiction. Rows without
// any coefficient are left out.
func substDimRows(b *BasicMap, cols []int, nDim int) []sharedRow {
	dims := make([]int, nDim)
	for i := range dims {
		dims[i] = i
	}
	var out []sharedRow
	add := func(r []Int) {
		row := make([]Int, nDim+1)
		any := false
		for i, c := range r[:len(r)-1] {
			if c.IsZero() {
				continue
			}
			if cols[i] >= nDim {
				return
			}
			row[cols[i]] = row[cols[i]].Add(c)
			any = true
		}
		if !any {
			return
		}
		row[nDim] = r[len(r)-1]
		out = append(out, sharedRow{row: row, cols: dims, h: sharedHash(row, dims)})
	}
	if b.empty {
		return nil
	}
	for _, e := range b.eqs {
		add(e)
		add(negRow(e))
	}
	for _, r := range b.ineqs {
		add(r)
	}
	return out
}

// substRow returns the row r of a source conjunction moved to the final
// layout of the given width, by its column map cols.
func substRow(r []Int, cols []int, width int) []Int {
	out := make([]Int, width)
	for i, c := range r[:len(r)-1] {
		if !c.IsZero() {
			out[cols[i]] = out[cols[i]].Add(c)
		}
	}
	out[width-1] = r[len(r)-1]
	return out
}

// substBuilder is the conjunction substBasic builds, while the locals of
// its sources are added.
type substBuilder struct {
	b     *BasicMap
	width int
	exist []bool  // final columns that hold plain existentials
	extra [][]Int // defining inequalities of divisions kept as existentials
}

// addLocals adds the locals of src, whose final columns end cols: a plain
// existential stays one; a division stays a division unless its numerator
// uses a plain existential, in which case it becomes an existential with
// its two defining inequalities (in extra).
func (sb *substBuilder) addLocals(src *BasicMap, cols []int) {
	width := sb.width
	for i := 0; i < src.NumLocals(); i++ {
		num, den := src.Local(i)
		if den.IsZero() {
			sb.b.AddExistential()
			sb.exist[cols[len(cols)-src.NumLocals()+i]] = true
			continue
		}
		full := substRow(num, cols, width)
		usesEx := false
		for c, v := range full[:width-1] {
			if sb.exist[c] && !v.IsZero() {
				usesEx = true
			}
		}
		col := cols[len(cols)-src.NumLocals()+i]
		if !usesEx {
			cur := sb.b.NumCols()
			row := make([]Int, cur)
			copy(row, full[:cur-1])
			row[cur-1] = full[width-1]
			sb.b.AddLocalDiv(row, den)
			continue
		}
		// Keep the division as an existential with its two defining
		// inequalities: num - den*q >= 0 and den*q - num + den - 1 >= 0.
		sb.b.AddExistential()
		sb.exist[col] = true
		lo := copyRow(full)
		lo[col] = lo[col].Sub(den)
		hi := negRow(full)
		hi[col] = hi[col].Add(den)
		hi[width-1] = hi[width-1].Add(den).Sub(NewInt(1))
		sb.extra = append(sb.extra, lo, hi)
	}
}

// SubstitutePw returns r1[xs := f], the substitution of the parameters xs
// of r1 by the piecewise function f (see Substitute, applied to the graph
// of f).
func SubstitutePw(ctx context.Context, r1 *Map, xs []string, f *PwMultiAff) (*Map, error) {
	return Substitute(ctx, r1, xs, f.ToMap())
}

// BindParam returns bind_x(s) (Clément 2022, Definition 3.5.5, inverted): for
// a set s with parameter x, the relation { t -> [x] : t in s }, in which x is
// no longer a parameter. The output tuple is anonymous with one dimension
// named x.
func BindParam(s *Map, x string) (_ *Map, err error) {
	defer lxRecover("bind parameter", &err)
	sp := s.Space()
	if !sp.IsSet() || sp.IsParams() {
		return nil, fmt.Errorf("bind %s in %s: not a set of tuples", x, sp)
	}
	xi := sp.paramIndex(x)
	if xi < 0 {
		return nil, fmt.Errorf("bind %s in %s: no such parameter", x, sp)
	}
	var params []string
	for _, p := range sp.Params {
		if p != x {
			params = append(params, p)
		}
	}
	nsp := MapSpace(params, sp.Out, FlatTuple("", x))
	np, nd := len(params), sp.NumOut()
	cols := make([]int, 0, sp.NumDims())
	for i := range sp.Params {
		switch {
		case i < xi:
			cols = append(cols, i)
		case i == xi:
			cols = append(cols, np+nd)
		default:
			cols = append(cols, i-1)
		}
	}
	for i := 0; i < nd; i++ {
		cols = append(cols, np+i)
	}
	var out []*BasicMap
	for _, b := range s.Basics() {
		out = append(out, substRemap(b, nsp, cols))
	}
	return NewMap(nsp, out...), nil
}

// substRemap returns b in space sp, with b's dimension column i moved to
// column cols[i] of sp (new columns unconstrained) and its locals kept in
// order.
func substRemap(b *BasicMap, sp Space, cols []int) *BasicMap {
	n := NewBasicMap(sp)
	nd := sp.NumDims()
	all := append([]int(nil), cols...)
	for i := 0; i < b.NumLocals(); i++ {
		all = append(all, nd+i)
	}
	conv := func(r []Int, width int) []Int {
		out := make([]Int, width)
		for i, c := range r[:len(r)-1] {
			if !c.IsZero() {
				out[all[i]] = c
			}
		}
		out[width-1] = r[len(r)-1]
		return out
	}
	for i := 0; i < b.NumLocals(); i++ {
		num, den := b.Local(i)
		if den.IsZero() {
			n.AddExistential()
		} else {
			n.AddLocalDiv(conv(num, n.NumCols()), den)
		}
	}
	for _, e := range b.Eqs() {
		n.AddEq(conv(e, n.NumCols()))
	}
	for _, r := range b.Ineqs() {
		n.AddIneq(conv(r, n.NumCols()))
	}
	return n
}

// IteratedUpdate returns the iterated update of the symbolic heap h over
// the parameter x within bound (Clément 2022, Definition 5.2.4):
//
//	▶_{x in bound} h = h[x := lexmax(bind_x(dom(h) ∩ bound))]
//
// bound is a parameter domain constraining x (for the thesis' 0 <= x < ι,
// "[x, N] -> { : 0 <= x < N }"). For every array cell, x is replaced by
// its largest value within bound for which h writes the cell, so that the
// result maps each cell to the expression of its last write; cells never
// written are absent. Every map of h must relate array cells (domain) to
// expression contexts (range); the maxima are computed per array, over
// the union of all contexts.
func IteratedUpdate(ctx context.Context, h *UnionMap, x string, bound *Map) (*UnionMap, error) {
	u, _, err := IteratedUpdateCells(ctx, h, x, bound)
	return u, err
}

// IteratedUpdateCells is IteratedUpdate that also returns the cells that
// h writes, by array (the name of the cells' tuple), for the arrays that
// several maps of h write: the union of those maps' domains in the order
// of h's maps, over h's parameters (x among them), coalesced by
// CompactUnion as the iterated update needs it. A caller that needs the
// same union (the cells that some value of x writes) takes it from here
// instead of computing it again.
func IteratedUpdateCells(ctx context.Context, h *UnionMap, x string, bound *Map) (_ *UnionMap, cells map[string]*Map, err error) {
	return IteratedUpdateCellsFrom(ctx, h, x, bound, nil)
}

// IteratedUpdateCellsFrom is IteratedUpdateCells with the cells of some
// arrays known already: known[name], when given, must be the set of
// cells that IteratedUpdateCells returns for that array, as a call on
// the same maps returned it, or that set with parameters renamed as they
// are renamed in h. It is then taken instead of being computed again
// (the union of the domains and its CompactUnion), and returned in
// cells. The sets are equal, and so is the result, whose pieces are
// those of a call without known when known holds the very
// representation such a call computes (CompactUnion depends on the
// columns of its operand, not on the names of its parameters). A known
// set whose tuple shape is not that of the array's cells in h is
// ignored.
func IteratedUpdateCellsFrom(ctx context.Context, h *UnionMap, x string, bound *Map, known map[string]*Map) (_ *UnionMap, cells map[string]*Map, err error) {
	defer lxRecover("iterated update", &err)
	doms := map[string]*Map{}
	shared := map[string]bool{}
	var order []string
	for _, m := range h.Maps() {
		d := m.Domain()
		k := d.Space().Key()
		if old, ok := doms[k]; ok {
			u, err := old.Union(d)
			if err != nil {
				return nil, nil, fmt.Errorf("iterated update over %s: %w", x, err)
			}
			doms[k] = u
			shared[k] = true
		} else {
			doms[k] = d
			order = append(order, k)
		}
	}
	// The tuple names held by a single key: the union of a name's maps is
	// then the union of its key's.
	keysOf := map[string]int{}
	for _, k := range order {
		keysOf[doms[k].space.Out.Name]++
	}
	last := map[string]*lxLastWrite{}
	cells = map[string]*Map{}
	for _, k := range order {
		if shared[k] {
			name := doms[k].space.Out.Name
			if c, ok := known[name]; ok && keysOf[name] == 1 && c.space.Key() == k {
				doms[k] = c
			} else if doms[k], err = CompactUnion(ctx, doms[k]); err != nil {
				return nil, nil, fmt.Errorf("iterated update over %s: %w", x, err)
			}
			if keysOf[name] == 1 {
				cells[name] = doms[k]
			}
		}
		d, err := doms[k].IntersectParams(bound)
		if err != nil {
			return nil, nil, fmt.Errorf("iterated update over %s: %w", x, err)
		}
		if d.Space().paramIndex(x) < 0 {
			return nil, nil, fmt.Errorf("iterated update: %s is not a parameter of the heap", x)
		}
		bd, err := BindParam(d, x)
		if err != nil {
			return nil, nil, fmt.Errorf("iterated update over %s: %w", x, err)
		}
		lw, err := lxLastWriteOf(ctx, bd)
		if err != nil {
			return nil, nil, fmt.Errorf("iterated update over %s: last write: %w", x, err)
		}
		last[k] = lw
	}
	var res []*Map
	for _, m := range h.Maps() {
		r2 := last[m.Domain().Space().Key()]
		if m.Space().paramIndex(x) < 0 {
			// A piece that does not depend on x is kept where some
			// iteration writes it.
			dm, err := m.IntersectDomain(r2.graph.Domain())
			if err != nil {
				return nil, nil, err
			}
			res = append(res, dm)
			continue
		}
		s, err := r2.substitute(ctx, m, x, bound)
		if err != nil {
			return nil, nil, fmt.Errorf("iterated update over %s: %w", x, err)
		}
		res = append(res, s)
	}
	return NewUnionMap(res...), cells, nil
}

// Update returns the update h1 ▷ h2 of symbolic heap h1 by h2
// (Clément 2022, Definition 5.2.2):
//
//	h1 ▷ h2 = h2 ∪ (h1 − dom(h2))
//
// every cell h2 writes takes h2's contents; the other cells keep h1's.
// Cells are compared within one array space, whatever the expression
// contexts of their contents.
func Update(ctx context.Context, h1, h2 *UnionMap) (_ *UnionMap, err error) {
	defer lxRecover("update", &err)
	doms := map[string]*Map{}
	for _, m := range h2.Maps() {
		d := m.Domain()
		k := d.Space().Key()
		if old, ok := doms[k]; ok {
			if d, err = old.Union(d); err != nil {
				return nil, fmt.Errorf("update: %w", err)
			}
		}
		doms[k] = d
	}
	res := h2.Maps()
	for _, m := range h1.Maps() {
		d, ok := doms[m.Domain().Space().Key()]
		if !ok {
			res = append(res, m)
			continue
		}
		// m \ (d × anything): only d's constraints split m's pieces.
		kept, err := m.SubtractDomain(ctx, d)
		if err != nil {
			return nil, fmt.Errorf("update: %w", err)
		}
		res = append(res, kept)
	}
	return NewUnionMap(res...), nil
}

// compactSteps bounds the steps of the coalescing and the hull's tests
// of CompactUnion.
const compactSteps = 50_000

// CompactUnion returns the relation d in fewer conjunctions where it can:
// simplified, coalesced, and replaced by its simple hull (SimpleHull) when
// that is exact, contained in d. It serves the union of the domains of
// several components of a heap that write one array: they often split its
// cells between them (a value, and an undefined value at some
// iterations), and their union is then the cells of one write, which
// coalescing two conjunctions at a time need not find when the split made
// three or more. The result is the same set as d; coalescing or the hull
// past compactSteps steps is given up, keeping what was found before.
// Every test is exact; plain existentials keep conjunctions apart (see
// Coalesce), so d is best compacted before a projection.
func CompactUnion(ctx context.Context, d *Map) (*Map, error) {
	if d.NumBasics() < 2 {
		return d, nil
	}
	d, err := d.Simplify(ctx)
	if err != nil || d.NumBasics() < 2 {
		return d, err
	}
	bctx := WithBudget(ctx, Budget{MaxSteps: compactSteps})
	c, err := CoalesceSimplified(bctx, d)
	switch {
	case errors.Is(err, ErrBudget):
		return d, nil
	case err != nil:
		return nil, err
	}
	if c.NumBasics() < 2 {
		return c, nil
	}
	h, err := SimpleHull(bctx, c)
	if err == nil {
		var in bool
		if in, err = h.IsSubset(bctx, c); err == nil && in {
			return h, nil
		}
	}
	if err != nil && !errors.Is(err, ErrBudget) {
		return nil, err
	}
	return c, nil
}
