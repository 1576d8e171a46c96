package symeval

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// This file evaluates the reads of a kernel at data-dependent indices
// (Clément 2022, section 9.6.1, "Non-Affine Reads"): t[J] where the index
// J is an integer value computed from other reads, such as
// t[clamp(a[x], 0, 255)]. The cell read is an arbitrary cell j of t
// constrained to equal J's value: its content is the array's summarised
// symbolic value at j, which the heap gives when every cell of t holds
// one affine function of the cell (cellFunction) whose holes are either
// the cell's coordinate or independent of it: the template with those
// holes replaced by J, such as L(clamp(A(□1), 0, 255)). Whether J lies
// within t's bounds and among the cells the heap holds is a verification
// condition of its own (dataread_conds.go). Anything else is left
// undecided with the reason (unsupportedError), never approximated.

// unsupportedError is a data-dependent read that the symbolic evaluation
// cannot represent: its condition is undecided, with the error's text as
// the reason.
type unsupportedError struct{ msg string }

func (e *unsupportedError) Error() string { return e.msg }

func unsupported(format string, args ...any) error {
	return &unsupportedError{msg: fmt.Sprintf(format, args...)}
}

// isUnsupported reports whether err is an unsupportedError.
func isUnsupported(err error) bool {
	var u *unsupportedError
	return errors.As(err, &u)
}

// isDataRead reports whether the array read x has a data-dependent index
// (dataIndex).
func isDataRead(x *syntax.Index) bool {
	for _, i := range x.Indices {
		if dataIndex(i) {
			return true
		}
	}
	return false
}

// dataIndex reports whether the index e of an array read is
// data-dependent: it reads an array or converts a value (a coordinate
// computed in float, i32(floor(f32(i32(y)) / f32(P)))), the
// data-dependent indices that the checker lets a kernel's value have
// (expr.Checker.AllowDataIndex).
func dataIndex(e syntax.Expr) bool {
	found := false
	syntax.Inspect(e, func(x syntax.Expr) bool {
		switch x := x.(type) {
		case *syntax.Index:
			found = true
		case *syntax.Call:
			found = syntax.TypeByName(x.Fun.Name) != syntax.Invalid
		}
		return !found
	})
	return found
}

// dataReadsOf returns the reads of e at data-dependent indices, in
// source order (a read nested in another's index included).
func dataReadsOf(e syntax.Expr) []*syntax.Index {
	var out []*syntax.Index
	syntax.Inspect(e, func(x syntax.Expr) bool {
		if ix, ok := x.(*syntax.Index); ok && isDataRead(ix) {
			out = append(out, ix)
		}
		return true
	})
	return out
}

// cellHole says how one hole of an array's content depends on the cell:
// dim is the data-dependent index dimension the hole equals, or -1 when
// the hole does not depend on the data-dependent dimensions; with offset,
// the hole is that coordinate plus an affine function of the parameters
// and the affine coordinates (an array holding a func from a nonzero
// min), and the function is a hole of its own.
type cellHole struct {
	dim    int
	offset bool
}

// free reports whether the hole keeps a value of its own in the read's
// alternatives: one independent of the data-dependent coordinates, or the
// offset added to one.
func (h cellHole) free() bool { return h.dim < 0 || h.offset }

// dataRead returns h({a[J]}) for the read x with data-dependent indices:
// one alternative per combination of the alternatives of its
// data-dependent indices, the content's template with the holes equal
// to the cell's data-dependent coordinates replaced by those indices'
// templates. It has no alternative when the heap holds no cell of the
// array (the read is undefined wherever it runs, which its definedness
// condition reports).
func (ev *valueEval) dataRead(x *syntax.Index) ([]alternative, error) {
	name := x.Array.Name
	var all []*presburger.Map
	for _, m := range ev.h.u.Maps() {
		if in := m.Space().In; in != nil && in.Name == name {
			all = append(all, m)
		}
	}
	if len(all) == 0 {
		return nil, nil
	}
	// The read runs where the scope's facts (the ranges of the
	// enclosing loops) hold: the content elsewhere, such as a heap's
	// after its loop, does not matter.
	known, err := ev.knownDomain()
	if err != nil {
		return nil, fmt.Errorf("%s: read %s: %w", x.Pos(), syntax.ExprString(x), err)
	}
	// Nor do the cells off the read's affine coordinates: a row of a
	// slab read at a data-dependent column holds one form where the
	// other rows may hold others (a histogram per row, updated row after
	// row within one iteration of its reduction).
	comps, err := ev.atAffineCoordinates(x, all, known)
	if err != nil {
		return nil, fmt.Errorf("%s: read %s: %w", x.Pos(), syntax.ExprString(x), err)
	}
	if len(comps) == 0 {
		return nil, nil
	}
	if comps, err = ev.mergeCopies(comps, known); err != nil {
		return nil, fmt.Errorf("%s: read %s: %w", x.Pos(), syntax.ExprString(x), err)
	}
	if len(comps) == 1 {
		return ev.dataReadFrom(x, comps[0], known)
	}
	// Cells holding values of several forms (a histogram's bins hold
	// their initial element before its first update, the update's
	// after): one form at a time is supported, where the parameters
	// (the enclosing loops' variables among them) at which the
	// components hold cells are disjoint. There every cell holds the
	// one component's form, and the read is that component's.
	doms := make([]*presburger.Map, len(comps))
	for i, m := range comps {
		if doms[i], err = m.Params().Intersect(known); err != nil {
			return nil, fmt.Errorf("%s: read %s: %w", x.Pos(), syntax.ExprString(x), err)
		}
		for j := 0; j < i; j++ {
			both, err := doms[i].Intersect(doms[j])
			if err != nil {
				return nil, fmt.Errorf("%s: read %s: %w", x.Pos(), syntax.ExprString(x), err)
			}
			if empty, err := both.IsEmpty(ev.ctx); err != nil || !empty {
				return nil, unsupported("%s: data-dependent read %s: the cells of %s hold values of several forms", x.Pos(), syntax.ExprString(x), name)
			}
		}
	}
	var out []alternative
	for i, m := range comps {
		alts, err := ev.dataReadFrom(x, m, doms[i])
		if err != nil {
			return nil, err
		}
		for _, a := range alts {
			if a.set, err = a.set.IntersectParams(doms[i]); err != nil {
				return nil, fmt.Errorf("%s: read %s: %w", x.Pos(), syntax.ExprString(x), err)
			}
			out = append(out, a)
		}
	}
	return out, nil
}

// atAffineCoordinates returns the heap components comps of the array
// that x reads restricted to the cells x can touch, those whose
// coordinates at x's affine indices are those indices' values (the
// others any), less the components that hold no such cell where the
// parameter domain known holds. The read's value is the content of one
// of those cells, so that the rest of the heap does not matter to it.
func (ev *valueEval) atAffineCoordinates(x *syntax.Index, comps []*presburger.Map, known *presburger.Map) ([]*presburger.Map, error) {
	data := dataFlags(x)
	affine := false
	for _, d := range data {
		affine = affine || !d
	}
	if !affine {
		return comps, nil
	}
	loc, err := affineLocation(ev.s, x, data)
	if err != nil {
		return nil, err
	}
	var out []*presburger.Map
	for _, m := range comps {
		r, err := m.IntersectDomain(loc)
		if err != nil {
			return nil, err
		}
		k, err := r.IntersectParams(known)
		if err != nil {
			return nil, err
		}
		empty, err := k.IsEmpty(ev.ctx)
		if err != nil {
			return nil, err
		}
		if !empty {
			out = append(out, r)
		}
	}
	return out, nil
}

// dataReadFrom is dataRead from the heap component comp, the only one of
// the array's cells where the parameter domain known holds.
func (ev *valueEval) dataReadFrom(x *syntax.Index, comp *presburger.Map, known *presburger.Map) ([]alternative, error) {
	name := x.Array.Name
	if comp.Space().NumIn() != len(x.Indices) {
		return nil, fmt.Errorf("%s: read %s: %d indices for a heap of rank %d", x.Pos(), syntax.ExprString(x), len(x.Indices), comp.Space().NumIn())
	}
	graph, err := cellFunction(ev.ctx, comp, known)
	if err == nil && graph == nil {
		graph, err = piecewiseCellFunction(ev.ctx, comp, known)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: read %s: %w", x.Pos(), syntax.ExprString(x), err)
	}
	if graph == nil || graph.NumBasics() == 0 {
		return nil, unsupported("%s: data-dependent read %s: the content of %s is not an affine function of the cell, nor one on each of a few parameter domains", x.Pos(), syntax.ExprString(x), name)
	}
	if graph.NumBasics() == 1 {
		return ev.dataReadPiece(x, comp, graph)
	}
	return ev.dataReadPieces(x, comp, graph)
}

// dataReadPieces is dataReadFrom through a content function affine in
// the cell on each of several parameter domains (piecewiseCellFunction:
// a table whose realized min is a piecewise function of the parameters,
// max(4 * levels - 4, 0)): each piece is read on its own, its
// alternatives restricted to the parameters of that piece less those of
// the pieces before it, so that they partition the parameters where the
// function is defined and, the function being single-valued under the
// scope's facts, each gives the content there.
func (ev *valueEval) dataReadPieces(x *syntax.Index, comp, graph *presburger.Map) ([]alternative, error) {
	if graph.NumBasics() > maxPieces {
		return nil, unsupported("%s: data-dependent read %s: the content of %s has more than %d pieces", x.Pos(), syntax.ExprString(x), x.Array.Name, maxPieces)
	}
	fail := func(err error) ([]alternative, error) {
		return nil, fmt.Errorf("%s: read %s: %w", x.Pos(), syntax.ExprString(x), err)
	}
	seen := presburger.Empty(graph.Params().Space())
	var out []alternative
	for _, b := range graph.Basics() {
		// The piece's function, without the local variables of its
		// parameter domain.
		g, _ := pieceFunction(graph.Space(), b)
		if g == nil {
			return nil, unsupported("%s: data-dependent read %s: a piece of the content of %s is not an affine function of the cell", x.Pos(), syntax.ExprString(x), x.Array.Name)
		}
		params := presburger.NewMap(graph.Space(), b).Params()
		dom, err := params.Subtract(ev.ctx, seen)
		if err != nil {
			return fail(err)
		}
		if seen, err = seen.Union(params); err != nil {
			return fail(err)
		}
		alts, err := ev.dataReadPiece(x, comp, presburger.NewMap(graph.Space(), g))
		if err != nil {
			return nil, err
		}
		for _, a := range alts {
			if a.set, err = a.set.IntersectParams(dom); err != nil {
				return fail(err)
			}
			out = append(out, a)
		}
	}
	return out, nil
}

// dataReadPiece is dataReadFrom through graph, the content of comp as
// one affine function of the cell.
func (ev *valueEval) dataReadPiece(x *syntax.Index, comp, graph *presburger.Map) ([]alternative, error) {
	c := ev.cs.Lookup(comp.Space().Out.Name)
	if c == nil {
		return nil, fmt.Errorf("%s: read %s: unknown context %s", x.Pos(), syntax.ExprString(x), comp.Space().Out.Name)
	}
	data := make([]bool, len(x.Indices))
	for d, i := range x.Indices {
		data[d] = dataIndex(i)
	}
	holes, offsets, err := contentHoles(graph.Basics()[0], data, c.Holes)
	if err != nil {
		return nil, fmt.Errorf("%s: data-dependent read %s: %w", x.Pos(), syntax.ExprString(x), err)
	}
	graph = presburger.NewMap(graph.Space(), offsets)
	if err := checkHoleUses(c, holes); err != nil {
		return nil, fmt.Errorf("%s: data-dependent read %s: %w", x.Pos(), syntax.ExprString(x), err)
	}
	content, free, err := ev.contentSet(x, data, graph, c, holes)
	if err != nil {
		return nil, err
	}
	// The alternatives of every data-dependent index.
	idxAlts := make([][]alternative, len(x.Indices))
	for d, i := range x.Indices {
		if !data[d] {
			continue
		}
		if idxAlts[d], err = ev.eval(i); err != nil {
			return nil, err
		}
	}
	combos, err := combineIndices(x, data, idxAlts, content, free)
	if err != nil {
		return nil, err
	}
	var out []alternative
	for _, cb := range combos {
		types := map[syntax.Expr]syntax.Type{}
		renum := make([]int, len(holes)) // the new number of each free hole
		n := 0
		for k, h := range holes {
			if h.free() {
				n++
				renum[k] = n
			}
		}
		tmpl := rebuild(c.Expr, func(e syntax.Expr) (syntax.Expr, bool) {
			id, ok := e.(*syntax.Ident)
			if !ok {
				return nil, false
			}
			k, ok := holeIndex(id.Name)
			if !ok {
				return nil, false
			}
			h := &syntax.Ident{Name: HoleName(renum[k-1])}
			d := holes[k-1].dim
			switch {
			case d < 0:
				return h, true
			case holes[k-1].offset:
				return offsetIndex(shiftHoles(cb.parts[d], cb.off[d], types), h, types), true
			}
			return shiftHoles(cb.parts[d], cb.off[d], types), true
		}, func(orig, cp syntax.Expr) {
			if t, ok := c.info.Types[orig]; ok {
				types[cp] = t
			}
		})
		a := alternative{tmpl: tmpl, types: types, holes: cb.holes, set: cb.set}
		if a, err = fuseHoles(ev.ctx, a); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// combo is one combination of the alternatives of a read's
// data-dependent indices with its content's free holes: the product of
// their sets, its holes, and by dimension the index's alternative and
// the number of holes before its own.
type combo struct {
	set   *presburger.Map
	holes int
	parts map[int]alternative
	off   map[int]int
}

// combineIndices returns the combinations of the alternatives idxAlts of
// the data-dependent indices of x (data) with the content's set of free
// holes.
func combineIndices(x *syntax.Index, data []bool, idxAlts [][]alternative, content *presburger.Map, free int) ([]combo, error) {
	combos := []combo{{set: content, holes: free, parts: map[int]alternative{}, off: map[int]int{}}}
	for d, alts := range idxAlts {
		if !data[d] {
			continue
		}
		var next []combo
		for _, cb := range combos {
			for _, a := range alts {
				set, err := flatProduct(cb.set, a.set)
				if err != nil {
					return nil, err
				}
				parts, off := map[int]alternative{d: a}, map[int]int{d: cb.holes}
				for k, v := range cb.parts {
					parts[k], off[k] = v, cb.off[k]
				}
				next = append(next, combo{set: set, holes: cb.holes + a.holes, parts: parts, off: off})
			}
		}
		if len(next) > maxPieces {
			return nil, unsupported("%s: data-dependent read %s: more than %d alternatives", x.Pos(), syntax.ExprString(x), maxPieces)
		}
		combos = next
	}
	return combos, nil
}

// shiftHoles returns a copy of a's template with its holes renumbered
// from off+1, recording the copy's types in types.
func shiftHoles(a alternative, off int, types map[syntax.Expr]syntax.Type) syntax.Expr {
	return rebuild(a.tmpl, func(x syntax.Expr) (syntax.Expr, bool) {
		if id, ok := x.(*syntax.Ident); ok {
			if k, ok := holeIndex(id.Name); ok {
				return &syntax.Ident{Name: HoleName(k + off)}, true
			}
		}
		return nil, false
	}, func(orig, cp syntax.Expr) {
		if t, ok := a.types[orig]; ok {
			types[cp] = t
		}
	})
}

// offsetIndex returns i64(j) + i64(h), the index j of a data-dependent
// read plus the offset hole h, recording its types in types. It is the
// exact sum wherever the offset fits in i64 less j's range, that is for
// every parameter value at which the kernel's int64 index arithmetic
// does not overflow (an error of the interpreter): the obligations hold
// there if they hold for every value.
func offsetIndex(j, h syntax.Expr, types map[syntax.Expr]syntax.Type) syntax.Expr {
	i64 := func(e syntax.Expr) syntax.Expr {
		c := &syntax.Call{Fun: &syntax.Ident{Name: syntax.I64.String()}, Args: []syntax.Expr{e}}
		types[c] = syntax.I64
		return c
	}
	sum := &syntax.Binary{X: i64(j), Op: syntax.OpAdd, Y: i64(h)}
	types[sum] = syntax.I64
	return sum
}

// contentHoles classifies the holes of a content function g, a piece of
// equalities -h + f(cell, params) = 0 (pieceFunction), one per hole: a
// hole equals one data-dependent coordinate of the cell, exactly or plus
// an offset independent of the data-dependent coordinates, or does not
// depend on any. Any other dependence is unsupported. It also returns g
// with the coordinate taken out of each offset hole's equality: there the
// hole is its offset.
func contentHoles(g *presburger.BasicMap, data []bool, n int) ([]cellHole, *presburger.BasicMap, error) {
	holes := make([]cellHole, n)
	found := make([]bool, n)
	offsets := presburger.NewBasicMap(g.Space())
	firstIn, firstOut := g.Col(presburger.DimIn, 0), g.Col(presburger.DimOut, 0)
	for _, row := range g.Eqs() {
		keep := row
		k := -1
		for h := 0; h < n; h++ {
			if !row[firstOut+h].IsZero() {
				k = h
			}
		}
		if k < 0 || found[k] {
			if !usesLocals(g, row) {
				offsets.AddEq(withoutLocals(g, offsets, keep))
			}
			continue
		}
		if usesLocals(g, row) {
			return nil, nil, unsupported("hole %d of the content is defined through a local variable", k+1)
		}
		found[k] = true
		// Normalise to h = f: coefficients of f are those of the row
		// divided by minus the hole's coefficient (±1).
		sign := int64(1)
		if row[firstOut+k].IsOne() {
			sign = -1
		}
		dim := -1
		for d, isData := range data {
			cf := row[firstIn+d]
			if !isData || cf.IsZero() {
				continue
			}
			if dim >= 0 || !cf.Equal(presburger.NewInt(sign)) {
				return nil, nil, unsupported("hole %d of the content is not one coordinate of the cell", k+1)
			}
			dim = d
		}
		offset := false
		if dim >= 0 {
			// h = c_dim + f': the offset f' is the hole's value with
			// the coordinate taken out.
			for col := range row {
				if col != firstIn+dim && col != firstOut+k && !row[col].IsZero() {
					offset = true
				}
			}
			if offset {
				keep = append([]presburger.Int(nil), row...)
				keep[firstIn+dim] = presburger.NewInt(0)
			}
		}
		offsets.AddEq(withoutLocals(g, offsets, keep))
		holes[k] = cellHole{dim: dim, offset: offset}
	}
	for k, ok := range found {
		if !ok {
			return nil, nil, fmt.Errorf("hole %d of the content has no definition", k+1)
		}
	}
	return holes, offsets, nil
}

// usesLocals reports whether the row of the basic map g reads one of its
// local variables.
func usesLocals(g *presburger.BasicMap, row []presburger.Int) bool {
	for l := 0; l < g.NumLocals(); l++ {
		if !row[g.LocalCol(l)].IsZero() {
			return true
		}
	}
	return false
}

// withoutLocals returns the row of g, which reads none of g's local
// variables, as a row of to, a basic map of g's space without them.
func withoutLocals(g, to *presburger.BasicMap, row []presburger.Int) []presburger.Int {
	if g.NumLocals() == 0 {
		return row
	}
	out := to.NewRow()
	copy(out, row[:g.LocalOffset()])
	out[to.ConstCol()] = row[g.ConstCol()]
	return out
}

// checkHoleUses checks that every hole of c's template that a
// data-dependent index replaces is a whole argument of a tensor access
// or of a conversion: the places where a typed integer may stand for
// an exact one, with the same value (the index lies within the array's
// bounds, which its condition checks).
func checkHoleUses(c *Context, holes []cellHole) error {
	dep := func(e syntax.Expr) bool {
		id, ok := e.(*syntax.Ident)
		if !ok {
			return false
		}
		k, ok := holeIndex(id.Name)
		return ok && k <= len(holes) && holes[k-1].dim >= 0
	}
	allowed, total := 0, 0
	syntax.Inspect(c.Expr, func(e syntax.Expr) bool {
		if dep(e) {
			total++
		}
		call, ok := e.(*syntax.Call)
		if !ok {
			return true
		}
		if _, typed := c.info.Types[call]; !typed {
			return true
		}
		name := call.Fun.Name
		if _, ok := value.LookupBuiltin(name); ok {
			return true
		}
		if _, ok := value.ReinterpretType(name); ok {
			return true
		}
		for _, a := range call.Args {
			if dep(a) {
				allowed++
			}
		}
		return true
	})
	if allowed != total {
		return unsupported("the cell's coordinate is used in index arithmetic in the content %s", c)
	}
	return nil
}

// contentSet returns the set of values of the content's holes that do not
// depend on the data-dependent coordinates (free of them), over the
// scope's parameters, at the cells of x whose affine coordinates are x's
// indices there, and how many holes it has.
func (ev *valueEval) contentSet(x *syntax.Index, data []bool, graph *presburger.Map, c *Context, holes []cellHole) (*presburger.Map, int, error) {
	loc, err := affineLocation(ev.s, x, data)
	if err != nil {
		return nil, 0, err
	}
	img, err := presburger.NewUnionMap(loc).Apply(presburger.NewUnionMap(graph))
	if err != nil {
		return nil, 0, fmt.Errorf("%s: read %s: %w", x.Pos(), syntax.ExprString(x), err)
	}
	ms := img.Maps()
	if len(ms) != 1 {
		return nil, 0, unsupported("%s: data-dependent read %s: no content at its affine coordinates", x.Pos(), syntax.ExprString(x))
	}
	set, err := respace(ms[0], holeSpace(nil, "", c.Holes))
	if err != nil {
		return nil, 0, err
	}
	free := 0
	for k := len(holes) - 1; k >= 0; k-- {
		if holes[k].free() {
			free++
			continue
		}
		if set, err = set.ProjectOut(presburger.DimOut, k, 1); err != nil {
			return nil, 0, err
		}
	}
	if set, err = respace(set, holeSpace(nil, "", free)); err != nil {
		return nil, 0, err
	}
	return set, free, nil
}

// affineLocation returns the cells { a[c] } of the read x whose
// coordinates at the affine indices (data[d] false) are those indices'
// values, the others any integer, over the parameters of s.
func affineLocation(s *Scope, x *syntax.Index, data []bool) (*presburger.Map, error) {
	tr := s.translator()
	var vs []presburger.Var
	var es []pwExpr
	dims := make([]string, len(x.Indices))
	for d, ix := range x.Indices {
		dims[d] = fmt.Sprintf("i%d", d)
		if data[d] {
			continue
		}
		v, err := tr.index(ix)
		if err != nil {
			return nil, err
		}
		vs, es = append(vs, presburger.OutVar(d)), append(es, v)
	}
	d := dnfTrue()
	if len(vs) > 0 {
		var err error
		if d, err = s.w.equalities(vs, es); err != nil {
			return nil, err
		}
	}
	return lowerDNF(presburger.SetSpace(s.Params(), presburger.FlatTuple(x.Array.Name, dims...)), d, nil)
}

// rangeLocation returns affineLocation's cells with each data-dependent
// coordinate within the range of its index's values (valueRange): a
// superset of the cells the read can touch.
func rangeLocation(s *Scope, x *syntax.Index, data []bool, types map[syntax.Expr]syntax.Type) (*presburger.Map, error) {
	loc, err := affineLocation(s, x, data)
	if err != nil {
		return nil, err
	}
	konst := scopeConstant(s.translator(), types)
	b := presburger.NewBasicMap(loc.Space())
	for d, ix := range x.Indices {
		if !data[d] {
			continue
		}
		lo, hi, ok := valueRangeWith(ix, types, konst)
		if !ok {
			return nil, unsupported("%s: the values of the index %s have no known range", ix.Pos(), syntax.ExprString(ix))
		}
		col := b.Col(presburger.DimOut, d)
		row := b.NewRow()
		row[col], row[b.ConstCol()] = presburger.NewInt(1), presburger.NewInt(lo).Neg()
		b.AddIneq(row)
		row = b.NewRow()
		row[col], row[b.ConstCol()] = presburger.NewInt(-1), presburger.NewInt(hi)
		b.AddIneq(row)
	}
	return loc.Intersect(presburger.NewMap(loc.Space(), b))
}

// valueRange returns bounds lo <= v <= hi of every defined value v of the
// checked integer expression e (types holds its types): its type's range,
// narrowed by clamp, min and max, by a constant added or subtracted
// without wrapping, and by a conversion of a value already in the
// target's range. It fails for a type whose values exceed int64
// (u64) and for an expression that is not an integer.
func valueRange(e syntax.Expr, types map[syntax.Expr]syntax.Type) (lo, hi int64, ok bool) {
	return valueRangeWith(e, types, nil)
}

// valueRangeWith is valueRange where konst, when not nil, gives the
// value of an expression that is a constant without being a literal (a
// let bound to one, converted to its own type's range), for the
// constants added or subtracted.
func valueRangeWith(e syntax.Expr, types map[syntax.Expr]syntax.Type, konst func(syntax.Expr) (int64, bool)) (lo, hi int64, ok bool) {
	t, typed := types[e]
	if !typed || !t.IsInteger() {
		return 0, 0, false
	}
	lo, hi, ok = typeRange(t)
	if !ok {
		return 0, 0, false
	}
	if n, isConst := constInt(e); isConst {
		if n < lo || n > hi {
			return lo, hi, true // a literal out of its type's range: no narrowing
		}
		return n, n, true
	}
	if b, isBin := e.(*syntax.Binary); isBin && (b.Op == syntax.OpAdd || b.Op == syntax.OpSub) {
		// A constant added or subtracted, where nothing wraps.
		l, h, ok := valueRangeWith(b.X, types, konst)
		k, isConst := constInt(b.Y)
		if !isConst && konst != nil {
			k, isConst = konst(b.Y)
		}
		if ok && isConst && k > math.MinInt32 && k < math.MaxInt32 && l > math.MinInt64/2 && h < math.MaxInt64/2 {
			if b.Op == syntax.OpSub {
				k = -k
			}
			if l+k >= lo && h+k <= hi {
				return l + k, h + k, true
			}
		}
		return lo, hi, true
	}
	call, isCall := e.(*syntax.Call)
	if !isCall {
		return lo, hi, true
	}
	args := call.Args
	switch name := call.Fun.Name; {
	case name == "clamp" && len(args) == 3:
		l, lok := constInt(args[1])
		h, hok := constInt(args[2])
		if lok && hok && lo <= l && l <= h && h <= hi {
			return l, h, true
		}
	case (name == "min" || name == "max") && len(args) == 2:
		l1, h1, ok1 := valueRangeWith(args[0], types, konst)
		l2, h2, ok2 := valueRangeWith(args[1], types, konst)
		if ok1 && ok2 {
			if name == "min" {
				return min(l1, l2), min(h1, h2), true
			}
			return max(l1, l2), max(h1, h2), true
		}
	case syntax.TypeByName(name) != syntax.Invalid && len(args) == 1:
		if l, h, ok := valueRangeWith(args[0], types, konst); ok && l >= lo && h <= hi {
			return l, h, true
		}
		if at, ok := types[args[0]]; ok && at.IsFloat() {
			// Truncation toward zero is monotone; a conversion out of
			// the type's range (NaN included) is undefined.
			fl, fh := floatRange(args[0], types)
			l, h := math.Trunc(math.Nextafter(fl, math.Inf(-1))), math.Trunc(math.Nextafter(fh, math.Inf(1)))
			if float64(lo) <= l && h <= float64(hi) {
				return int64(l), int64(h), true
			}
		}
	}
	return lo, hi, true
}

// typeRange returns the range of the integer type t, when it fits int64.
func typeRange(t syntax.Type) (lo, hi int64, ok bool) {
	bits := t.Bits()
	switch {
	case t.IsSigned():
		if bits == 64 {
			return math.MinInt64, math.MaxInt64, true
		}
		return -(int64(1) << (bits - 1)), int64(1)<<(bits-1) - 1, true
	case t.IsUnsigned() && bits < 64:
		return 0, int64(1)<<bits - 1, true
	}
	return 0, 0, false
}

// constInt returns the value of an integer literal, negated or not.
func constInt(e syntax.Expr) (int64, bool) {
	neg := false
	if u, ok := e.(*syntax.Unary); ok && u.Op == syntax.OpNeg {
		neg, e = true, u.X
	}
	lit, ok := e.(*syntax.Lit)
	if !ok || lit.Kind != syntax.IntLiteral {
		return 0, false
	}
	text, base := lit.Text, 10
	if rest, ok := strings.CutPrefix(text, "0x"); ok {
		text, base = rest, 16
	}
	n, err := strconv.ParseInt(text, base, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

// floatRange returns bounds lo <= v <= hi (infinite when unknown) of
// every value v of the float expression e that is not NaN: a float
// literal's, narrowed by min, max and clamp, as both value models
// compute them (a NaN operand aside). A literal counts with its value
// and its value rounded to its type, whichever the model takes.
func floatRange(e syntax.Expr, types map[syntax.Expr]syntax.Type) (lo, hi float64) {
	lo, hi = math.Inf(-1), math.Inf(1)
	switch x := e.(type) {
	case *syntax.Lit:
		if x.Kind != syntax.FloatLiteral && x.Kind != syntax.IntLiteral {
			return lo, hi
		}
		f, err := strconv.ParseFloat(strings.TrimSuffix(x.Text, "f"), 64)
		if err != nil || math.IsNaN(f) {
			return lo, hi
		}
		r := f
		if t, ok := types[e]; ok && t == syntax.F32 {
			r = float64(float32(f))
		}
		return min(f, r), max(f, r)
	case *syntax.Unary:
		if x.Op == syntax.OpNeg {
			l, h := floatRange(x.X, types)
			return -h, -l
		}
	case *syntax.Call:
		args := x.Args
		switch name := x.Fun.Name; {
		case name == "clamp" && len(args) == 3:
			// min(max(x, a), b)
			l, h := floatRange(args[0], types)
			la, ha := floatRange(args[1], types)
			lb, hb := floatRange(args[2], types)
			return min(max(l, la), lb), min(max(h, ha), hb)
		case (name == "min" || name == "max") && len(args) == 2:
			l1, h1 := floatRange(args[0], types)
			l2, h2 := floatRange(args[1], types)
			if name == "min" {
				return min(l1, l2), min(h1, h2)
			}
			return max(l1, l2), max(h1, h2)
		case syntax.TypeByName(name).IsFloat() && len(args) == 1:
			// A conversion to a float type: its operand's bounds,
			// rounded to it or not (rounding is monotone).
			l, h := floatRange(args[0], types)
			if syntax.TypeByName(name) == syntax.F32 {
				return min(l, float64(float32(l))), max(h, float64(float32(h)))
			}
			return l, h
		}
	}
	return lo, hi
}

// scopeConstant returns the value of an integer expression that the
// translator tr resolves to a constant (a let bound to one), converted
// to an integer type whose range holds it, or false.
func scopeConstant(tr *translator, types map[syntax.Expr]syntax.Type) func(syntax.Expr) (int64, bool) {
	var konst func(e syntax.Expr) (int64, bool)
	konst = func(e syntax.Expr) (int64, bool) {
		if call, ok := e.(*syntax.Call); ok && len(call.Args) == 1 {
			t := syntax.TypeByName(call.Fun.Name)
			if t == syntax.Invalid || !t.IsInteger() {
				return 0, false
			}
			v, ok := konst(call.Args[0])
			lo, hi, rok := typeRange(t)
			if !ok || !rok || v < lo || v > hi {
				return 0, false
			}
			return v, true
		}
		if _, ok := e.(*syntax.Ident); !ok {
			return constInt(e)
		}
		pw, err := tr.index(e)
		if err != nil || len(pw) != 1 || len(pw[0].cond) != 1 || len(pw[0].cond[0]) != 0 || !pw[0].e.isConst() || len(pw[0].e.divs) != 0 {
			return 0, false
		}
		return pw[0].e.c.Int64()
	}
	return konst
}
