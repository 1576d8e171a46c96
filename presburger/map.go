package presburger

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Map is a finite union of BasicMaps living in one space: the relation
// (or, in a set space, the set) containing the points of any of its
// pieces. The pieces need not be disjoint. A Map is immutable once built:
// operations return new Maps.
type Map struct {
	space  Space
	basics []*BasicMap
}

// NewMap returns the union of basics, which must all live in space: same
// tuple shapes (numbers of input and output dimensions); parameters are
// aligned by name to space's parameter list, which is extended with any
// parameter a piece has and space lacks. It panics if a piece has a
// different number of input or output dimensions (a programming error).
func NewMap(space Space, basics ...*BasicMap) *Map {
	m := &Map{space: space.Copy()}
	for _, b := range basics {
		m.space.Params = alignParamNames(m.space.Params, b.space.Params)
	}
	for _, b := range basics {
		if b.nI != space.NumIn() || b.nO != space.NumOut() {
			panic(fmt.Sprintf("presburger: NewMap: piece in %s does not fit space %s", b.space, space))
		}
		if b.empty {
			continue
		}
		c := b.alignParams(m.space.Params)
		if c == b {
			c = b.Copy()
		}
		c.space = m.space.Copy()
		m.basics = append(m.basics, c)
	}
	return m
}

// Empty returns the empty relation (or set) of space.
func Empty(space Space) *Map { return &Map{space: space.Copy()} }

// Universe returns the relation (or set) of space containing every point.
func Universe(space Space) *Map {
	return &Map{space: space.Copy(), basics: []*BasicMap{NewBasicMap(space)}}
}

// Space returns the space of m.
func (m *Map) Space() Space { return m.space.Copy() }

// Basics returns the pieces of m (copies).
func (m *Map) Basics() []*BasicMap {
	out := make([]*BasicMap, len(m.basics))
	for i, b := range m.basics {
		out[i] = b.Copy()
	}
	return out
}

// NumBasics returns the number of pieces of m.
func (m *Map) NumBasics() int { return len(m.basics) }

// NumConstraints returns the number of constraints of m's pieces
// together (their equalities and inequalities, as BasicMap.NumConstraints
// counts them), without copying the pieces as Basics does.
func (m *Map) NumConstraints() int {
	n := 0
	for _, b := range m.basics {
		n += b.NumConstraints()
	}
	return n
}

// NumEntries returns the matrix entries of m's conjunctions: their
// constraints' and divisions' coefficients (what building them writes,
// BuildSteps).
func (m *Map) NumEntries() int {
	n := 0
	for _, b := range m.basics {
		n += b.numEntries()
	}
	return n
}

// Pieces returns the pieces of m, each as a map of m's space: the union
// of the result is m. Maps are immutable, so the pieces share m's
// conjunctions, where Basics copies them.
func (m *Map) Pieces() []*Map {
	out := make([]*Map, len(m.basics))
	for i, b := range m.basics {
		out[i] = &Map{space: m.space, basics: []*BasicMap{b}}
	}
	return out
}

// DimKind selects a group of dimension columns.
type DimKind int

// The dimension groups of a space, in column order.
const (
	DimParam DimKind = iota
	DimIn
	DimOut
)

// String returns "param", "in" or "out".
func (k DimKind) String() string {
	switch k {
	case DimParam:
		return "param"
	case DimIn:
		return "in"
	}
	return "out"
}

// withParams returns m with its parameter list re-ordered/extended to ps.
func (m *Map) withParams(ps []string) *Map {
	sp := m.space.Copy()
	sp.Params = append([]string(nil), ps...)
	out := &Map{space: sp}
	for _, b := range m.basics {
		c := b.alignParams(ps)
		if c != b {
			c.space = sp.Copy()
		}
		out.basics = append(out.basics, c)
	}
	return out
}

// alignMaps returns a and b over a common parameter list (isl's
// align_params): a's parameters followed by b's others.
func alignMaps(a, b *Map) (*Map, *Map) {
	if sameStrings(a.space.Params, b.space.Params) {
		return a, b
	}
	ps := alignParamNames(a.space.Params, b.space.Params)
	return a.withParams(ps), b.withParams(ps)
}

func spaceMismatch(op string, a, b Space) error {
	return fmt.Errorf("presburger: %s: incompatible spaces %s and %s", op, a, b)
}

func (m *Map) sameShape(o *Map) bool { return m.space.Key() == o.space.Key() }

// normalized returns a normalised copy of b, or nil if b is trivially empty.
func normalized(b *BasicMap) *BasicMap {
	c := b.Copy()
	if !c.normalize() {
		return nil
	}
	return c
}

func (m *Map) withBasics(bs []*BasicMap) *Map {
	out := &Map{space: m.space}
	for _, b := range bs {
		if b == nil || b.empty {
			continue
		}
		if !sameSpaceValue(b.space, out.space) {
			b.space = out.space // shared: see BasicMap.Copy
		}
		out.basics = append(out.basics, b)
	}
	return out
}

// Intersect returns m ∩ o: the points in both. Both must have the same
// tuples; parameters are aligned by name. If o is a parameter domain (and
// m is not), this is IntersectParams.
func (m *Map) Intersect(o *Map) (*Map, error) {
	if o.space.ParamOnly && !m.space.ParamOnly {
		return m.IntersectParams(o)
	}
	if !m.sameShape(o) {
		return nil, spaceMismatch("intersect", m.space, o.space)
	}
	a, b := alignMaps(m, o)
	var bs []*BasicMap
	// A pair whose inequalities over the dimensions contradict is what
	// normalize drops first: in a product of unions, where most pairs
	// do, it is skipped before its copy (a piece intersected with one
	// other rarely contradicts it, and the test would cost about what it
	// saves).
	var xs []sharedRow
	var ys [][]sharedRow
	var cols []int
	prefilter := len(a.basics) > 1 && len(b.basics) > 1
	if prefilter {
		cols = dimCols(a.basics[0])
		ys = make([][]sharedRow, len(b.basics))
		for j, y := range b.basics {
			ys[j] = sharedIneqs(y, cols)
		}
	}
	for _, x := range a.basics {
		if prefilter {
			xs = sharedIneqs(x, cols)
		}
		for j, y := range b.basics {
			if prefilter && sharedContradiction(xs, ys[j]) {
				continue
			}
			// x.Intersect(y) is fresh: normalized in place.
			if c := x.Intersect(y); c.normalize() {
				bs = append(bs, c)
			}
		}
	}
	return a.withBasics(bs), nil
}

// Union returns m ∪ o: the points in either. Both must have the same
// tuples; parameters are aligned by name.
func (m *Map) Union(o *Map) (*Map, error) {
	if !m.sameShape(o) {
		return nil, spaceMismatch("union", m.space, o.space)
	}
	a, b := alignMaps(m, o)
	// The pieces are shared, not copied (maps are immutable): a heap
	// updated statement by statement is a union of the pieces of the
	// heap before and of the statement's writes, and each heap kept
	// along the way then holds its pieces once.
	bs := make([]*BasicMap, 0, len(a.basics)+len(b.basics))
	for _, x := range a.basics {
		bs = append(bs, a.sharedPiece(x))
	}
	for _, y := range b.basics {
		bs = append(bs, a.sharedPiece(y))
	}
	return a.withBasics(bs), nil
}

// sharedPiece returns b to be a piece of a map of m's space: b itself
// when its space is m's (withBasics then leaves it as it is), otherwise
// a new BasicMap sharing b's rows (BasicMap.share), whose space
// withBasics sets.
func (m *Map) sharedPiece(b *BasicMap) *BasicMap {
	if sameSpaceValue(b.space, m.space) {
		return b
	}
	return b.share()
}

// sameSpaceValue reports whether a and b are the same value: the same
// slices and tuples, not merely equal ones (a cheap test, which misses
// equal spaces built apart).
func sameSpaceValue(a, b Space) bool {
	return a.ParamOnly == b.ParamOnly && a.In == b.In && sameSlice(a.Params, b.Params) &&
		a.Out.Name == b.Out.Name && sameSlice(a.Out.Dims, b.Out.Dims) && a.Out.Left == b.Out.Left && a.Out.Right == b.Out.Right
}

// sameSlice reports whether a and b are the same slice (same elements
// in the same memory).
func sameSlice(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// UnionPieces returns the union of ms, maps of the shape of sp (the empty
// map of sp when there are none), their pieces shared as Union shares
// them: one map built from many, where folding Union would handle the
// pieces gathered so far once per map.
func UnionPieces(sp Space, ms ...*Map) (*Map, error) {
	if len(ms) == 0 {
		return Empty(sp), nil
	}
	out := &Map{space: ms[0].space}
	var bs []*BasicMap
	for _, m := range ms {
		if !out.sameShape(m) || out.space.Key() != sp.Key() {
			return nil, spaceMismatch("union", sp, m.space)
		}
		if sameStrings(out.space.Params, m.space.Params) {
			for _, b := range m.basics {
				bs = append(bs, out.sharedPiece(b))
			}
			continue
		}
		// Parameters to align: the general union.
		u, err := out.withBasics(bs).Union(m)
		if err != nil {
			return nil, err
		}
		out, bs = u, slices.Clone(u.basics)
	}
	return out.withBasics(bs), nil
}

// Subtract returns m \ o: the points of m not in o. Both must have the same
// tuples. The existentials of o are first rewritten exactly as divisions
// (ExplicitDivs); the result is a union of conjunctions of m's pieces with
// the negation of one constraint of an o piece. Empty pieces are dropped.
func (m *Map) Subtract(ctx context.Context, o *Map) (*Map, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trMapSubtract, func(ctx context.Context) (*Map, error) { return m.Subtract(ctx, o) }, m, o)
	}
	if !m.sameShape(o) {
		return nil, spaceMismatch("subtract", m.space, o.space)
	}
	a, b := alignMaps(m, o)
	mt := newMeter(ctx)
	// orig maps the normalised copy of a piece of m to the piece, for
	// as long as no piece of o has split it: the result then keeps m's
	// own piece, shared, instead of the copy (a heap's update subtracts
	// the cells of a few writes from a heap of many pieces, most of which
	// they do not touch).
	orig := map[*BasicMap]*BasicMap{}
	cur := make([]*BasicMap, 0, len(a.basics))
	for _, x := range a.basics {
		if c := normalized(x); c != nil {
			orig[c] = x
			cur = append(cur, c)
		}
	}
	var ds []*BasicMap
	for _, ob := range b.basics {
		ps, err := ob.explicitDivs(mt)
		if err != nil {
			return nil, fmt.Errorf("subtract: %w", err)
		}
		ds = append(ds, ps...)
	}
	cur, err := subtractPieces(mt, cur, ds)
	if err != nil {
		return nil, fmt.Errorf("subtract: %w", err)
	}
	for i, c := range cur {
		if x, ok := orig[c]; ok {
			cur[i] = a.sharedPiece(x)
		}
	}
	return a.withBasics(cur), nil
}

// subtractPieces returns the pieces of cur minus those of ds, each piece
// of cur minus the pieces of ds in their order, the pieces of the
// differences in cur's order. The pieces of ds that a piece of cur may
// meet are found by their index (subtrahendIndex); each is tested
// against every piece left of that piece, a step per pair, tested or
// not: the syntactic test (validityIndexes.contradicts) costs no step of
// its own, and a subtraction from a heap of thousands of pieces is mostly
// such tests. A piece of ds that the index looks at and leaves out costs
// a step too, one it does not look at none, and a piece of cur that meets
// none at least one: never more steps than testing every pair, and a
// step per piece of cur at least.
func subtractPieces(mt *meter, cur, ds []*BasicMap) ([]*BasicMap, error) {
	if len(ds) == 0 {
		return cur, nil
	}
	plain := make([][]subCons, len(ds))
	for i, d := range ds {
		plain[i] = plainRows(d)
	}
	nd := ds[0].nDims()
	x := newSubtrahendIndex(ds, nd)
	vis := validityIndexes{}
	var out []*BasicMap
	for _, c := range cur {
		cand, looked := x.candidates(c)
		n := looked - len(cand)
		if len(cand) == 0 {
			n = max(n, 1)
		}
		if err := mt.stepN(n); err != nil {
			return nil, err
		}
		left := []*BasicMap{c}
		for _, i := range cand {
			var next []*BasicMap
			for _, f := range left {
				if err := mt.step(); err != nil {
					return nil, err
				}
				if plain[i] != nil && vis.contradicts(f, plain[i]) {
					// What subtractBasic finds first, without its copy
					// of f with the divisions of ds[i].
					next = append(next, f)
					continue
				}
				ps, err := subtractBasic(mt, f, ds[i])
				if err != nil {
					return nil, err
				}
				next = append(next, ps...)
			}
			left = next
			if err := mt.checkDisjuncts(len(out) + len(left)); err != nil {
				return nil, err
			}
		}
		out = append(out, left...)
	}
	return out, nil
}

// plainRows returns the constraints of d that do not involve its locals,
// over the dimensions and the constant only (the constant last), or nil
// when there are none.
func plainRows(d *BasicMap) []subCons {
	nd, nc := d.nDims(), d.NumCols()
	var out []subCons
	add := func(r []Int, eq bool) {
		for _, v := range r[nd : nc-1] {
			if !v.IsZero() {
				return
			}
		}
		row := make([]Int, nd+1)
		copy(row, r[:nd])
		row[nd] = r[nc-1]
		out = append(out, subCons{row, eq})
	}
	for _, e := range d.eqs {
		add(e, true)
	}
	for _, e := range d.ineqs {
		add(e, false)
	}
	return out
}

// validityIndexes holds the validity index of each piece of a
// subtraction, built once for all the pieces subtracted from it.
type validityIndexes map[*BasicMap]*validityIndex

// contradicts reports whether c's rows contradict one of the rows (in
// plainRows' form) by syntacticValidity: then c and the piece the rows
// come from have no common point, as subtractBasic's dropImpliedRows
// finds for the same rows (c's rows with d's divisions appended as zero
// columns give the same answers).
func (vis validityIndexes) contradicts(c *BasicMap, rows []subCons) bool {
	vi, ok := vis[c]
	if !ok {
		vi = newValidityIndex(c)
		vis[c] = vi
	}
	nd, nc := c.nDims(), c.NumCols()
	row := make([]Int, nc)
	for _, k := range rows {
		clear(row)
		copy(row, k.row[:nd])
		row[nc-1] = k.row[nd]
		if vi.validity(row) == validityFails {
			return true
		}
		if k.eq && vi.validity(negRow(row)) == validityFails {
			return true
		}
	}
	return false
}

// subtractBasic returns c \ d as nonempty pieces; every local of d is a
// division. The constraints of d, moved into the columns of c ∧ (d's
// divisions), are negated one at a time: piece i is c, d's first i-1
// constraints, and the negation of constraint i.
func subtractBasic(mt *meter, c, d *BasicMap) ([]*BasicMap, error) {
	base, cs, divsOnly := subtrahendRows(c, d)
	// The constraints of d that c's own rows imply: c's points satisfy
	// them, so they split nothing off. When all are (and d's locals are
	// divisions, functions of the dimensions), c ⊆ d and c \ d is empty.
	// Update subtracts c ∩ D from c, whose constraints are mostly c's own.
	// A constraint of d that c's rows contradict makes them disjoint.
	cs, disjoint := dropImpliedRows(base, cs)
	if disjoint {
		return []*BasicMap{c}, nil
	}
	if len(cs) == 0 && divsOnly {
		return nil, nil
	}
	// If c and d are disjoint, c \ d = c.
	all := base.Copy()
	for _, k := range cs {
		if k.eq {
			all.eqs = append(all.eqs, k.row)
		} else {
			all.ineqs = append(all.ineqs, k.row)
		}
	}
	pt := newPrefixTab(mt, base)
	snap := pt.snapshot()
	for _, k := range cs {
		pt.add(k)
	}
	if empty, err := pt.isEmpty(all); err != nil {
		return nil, err
	} else if empty {
		return []*BasicMap{c}, nil
	}
	pt.rollback(snap)
	return negationPieces(mt, base, cs, pt)
}

// prefixTab decides the emptiness of a conjunction that grows by rows on a
// rational tableau of its rows, incrementally: rationally infeasible is
// empty, an integral sample or a point of a short branch and bound is not;
// the Omega test decides the rest. Subtraction tests base with every
// prefix of the subtrahend's constraints and the negation of the next,
// which an Omega test each redid from scratch.
type prefixTab struct {
	mt *meter
	t  *simplexTab // nil once it failed (pivot limit): the Omega test only
}

// newPrefixTab returns a prefixTab over b's rows and division bounds.
func newPrefixTab(mt *meter, b *BasicMap) *prefixTab {
	if b.empty {
		return &prefixTab{mt: mt}
	}
	return &prefixTab{mt: mt, t: newSimplifier(mt, b).t}
}

// snapshot returns the point to which rollback takes the tableau back.
func (p *prefixTab) snapshot() tabSnapshot {
	if p.t == nil {
		return tabSnapshot{}
	}
	return p.t.snapshot()
}

// rollback removes the rows added since snap; a tableau that cannot is
// dropped.
func (p *prefixTab) rollback(snap tabSnapshot) {
	if p.t != nil && p.t.rollback(snap) != nil {
		p.t = nil
	}
}

// add adds the constraint k (over the tableau's columns).
func (p *prefixTab) add(k subCons) {
	if p.t == nil {
		return
	}
	p.t.addRow(k.row)
	if k.eq {
		p.t.addRow(negRow(k.row))
	}
}

// addRow adds the inequality r >= 0.
func (p *prefixTab) addRow(r []Int) {
	if p.t != nil {
		p.t.addRow(r)
	}
}

// isEmpty decides whether the tableau's rows, which are those of b, have
// no integer point.
func (p *prefixTab) isEmpty(b *BasicMap) (bool, error) {
	empty, _, err := p.isEmptyPoint(b)
	return empty, err
}

// isEmptyPoint is isEmpty that also returns the integer point of the
// tableau's variables (b's dimensions and locals) that showed b
// non-empty, when the tableau found one: nil when b is empty or the Omega
// test decided.
func (p *prefixTab) isEmptyPoint(b *BasicMap) (bool, []Int, error) {
	if b.empty {
		return true, nil, nil
	}
	if t := p.t; t != nil {
		t.limit = 4 * simplexPivotLimit(t)
		feasible, err := t.restore()
		switch {
		case errors.Is(err, errSimplexLimit):
			p.t = nil
		case err != nil:
			return false, nil, p.emptinessErr(b, err)
		case !feasible:
			return true, nil, nil
		case t.integral():
			return false, t.sample(), nil
		default:
			// Each node first tries its sample rounded, a point of b if
			// it satisfies b's rows (when the columns are b's).
			var probe func() []Int
			if t.nvar == b.nVars() {
				s := &simplifier{t: t, c: b}
				probe = func() []Int { return s.roundedPoint(-1, nil) }
			}
			nodes := searchNodes
			point, res, err := t.searchInteger(nil, &nodes, probe)
			switch {
			case err != nil:
				return false, nil, p.emptinessErr(b, err)
			case res == searchFound:
				return false, point, nil
			case res == searchNone:
				return true, nil, nil
			}
		}
	}
	empty, err := b.isEmpty(p.mt)
	return empty, nil, err
}

// emptinessErr wraps an error of the tableau's emptiness test of b as the
// Omega test's are (BasicMap.isEmpty), so that a budget exhausted on
// either path reads the same.
func (p *prefixTab) emptinessErr(b *BasicMap, err error) error {
	eqs, ineqs := b.flatRows()
	return emptinessErr(len(eqs)+len(ineqs), err)
}

// subCons is a constraint row of a subtrahend: an equality or an
// inequality.
type subCons struct {
	row []Int
	eq  bool
}

// subtrahendRows returns base, c with d's divisions added (without d's
// constraints; a division c has already is not added again), and d's
// constraints moved into base's columns. divsOnly reports that d's locals
// are all divisions.
func subtrahendRows(c, d *BasicMap) (base *BasicMap, cs []subCons, divsOnly bool) {
	if b, mapRow, ok := withDivsOf(c, d); ok {
		for _, e := range d.eqs {
			cs = append(cs, subCons{mapRow(e), true})
		}
		for _, e := range d.ineqs {
			cs = append(cs, subCons{mapRow(e), false})
		}
		return b, cs, true
	}
	base = c.Copy()
	n0 := len(base.divs)
	dd := d.Copy()
	dd.eqs, dd.ineqs = nil, nil
	base.conjoin(dd)
	nd := base.nDims()
	w := base.NumCols()
	mapRow := func(r []Int) []Int {
		out := make([]Int, w)
		copy(out, r[:nd])
		for i := range d.divs {
			out[nd+n0+i] = r[nd+i]
		}
		out[w-1] = r[len(r)-1]
		return out
	}
	for _, e := range d.eqs {
		cs = append(cs, subCons{mapRow(e), true})
	}
	for _, e := range d.ineqs {
		cs = append(cs, subCons{mapRow(e), false})
	}
	return base, cs, false
}

// dropImpliedRows returns the constraints of cs that base's rows do not
// imply (syntacticValidity), and whether base's rows contradict one of
// them, so that base and cs have no common point.
func dropImpliedRows(base *BasicMap, cs []subCons) (rest []subCons, disjoint bool) {
	vi := newValidityIndex(base)
	for _, k := range cs {
		up := vi.validity(k.row)
		down := validityHolds
		if k.eq {
			down = vi.validity(negRow(k.row))
		}
		switch {
		case up == validityFails || down == validityFails:
			return nil, true
		case up == validityHolds && down == validityHolds:
			continue
		}
		rest = append(rest, k)
	}
	return rest, false
}

// negationPieces returns the nonempty pieces of base \ cs: for each
// constraint, base with the constraints before it and its negation
// (not(r >= 0) is -r - 1 >= 0; not(r = 0) is r - 1 >= 0 or -r - 1 >= 0).
//
// pt holds base's rows (nil: none yet); it is left with those of base and
// cs.
func negationPieces(mt *meter, base *BasicMap, cs []subCons, pt *prefixTab) ([]*BasicMap, error) {
	w := base.NumCols()
	var out []*BasicMap
	prefix := base
	if pt == nil {
		pt = newPrefixTab(mt, base)
	}
	one := NewInt(1)
	var err error
	for _, k := range cs {
		if err := mt.step(); err != nil {
			return nil, err
		}
		neg := negRow(k.row)
		neg[w-1] = neg[w-1].Sub(one)
		if out, err = appendNonEmpty(pt, out, prefix, neg); err != nil {
			return nil, err
		}
		if k.eq {
			pos := copyRow(k.row)
			pos[w-1] = pos[w-1].Sub(one)
			if out, err = appendNonEmpty(pt, out, prefix, pos); err != nil {
				return nil, err
			}
			prefix = prefix.with(k.row, true)
		} else {
			prefix = prefix.with(k.row, false)
		}
		pt.add(k)
	}
	return out, nil
}

// with returns b with the constraint row added (an equality if eq), over
// b's divisions and rows: negationPieces never changes its prefixes in
// place (appendNonEmpty normalises a copy), so they need not copy the rows
// they share.
func (b *BasicMap) with(row []Int, eq bool) *BasicMap {
	c := &BasicMap{space: b.space, nP: b.nP, nI: b.nI, nO: b.nO, empty: b.empty, divs: b.divs, eqs: b.eqs, ineqs: b.ineqs}
	if eq {
		c.eqs = append(slices.Clip(b.eqs), row)
	} else {
		c.ineqs = append(slices.Clip(b.ineqs), row)
	}
	return c
}

// appendNonEmpty appends to out a copy of prefix with the inequality
// extra >= 0, unless it is empty; pt holds prefix's rows.
func appendNonEmpty(pt *prefixTab, out []*BasicMap, prefix *BasicMap, extra []Int) ([]*BasicMap, error) {
	p := prefix.Copy()
	p.ineqs = append(p.ineqs, extra)
	if !p.normalize() {
		return out, nil
	}
	snap := pt.snapshot()
	pt.addRow(extra)
	empty, err := pt.isEmpty(p)
	pt.rollback(snap)
	if err != nil {
		return nil, err
	}
	if !empty {
		out = append(out, p)
	}
	return out, nil
}

// Complement returns the points of m's space not in m.
func (m *Map) Complement(ctx context.Context) (*Map, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trMapComplement, m.Complement, Universe(m.space), m)
	}
	r, err := Universe(m.space).Subtract(ctx, m)
	if err != nil {
		return nil, fmt.Errorf("complement: %w", err)
	}
	return r, nil
}

// DropEmpty returns m without its empty basic maps (the same set, in as
// many pieces as are not empty).
func (m *Map) DropEmpty(ctx context.Context) (*Map, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trMapDropEmpty, m.DropEmpty, m)
	}
	mt := newMeter(ctx)
	var keep []*BasicMap
	for _, b := range m.basics {
		e, err := b.isEmpty(mt)
		if err != nil {
			return nil, fmt.Errorf("drop empty pieces: %w", err)
		}
		if !e {
			keep = append(keep, b)
		}
	}
	if len(keep) == len(m.basics) {
		return m, nil
	}
	return &Map{space: m.space, basics: keep}, nil
}

// IsEmpty reports whether m has no point for any parameter value.
func (m *Map) IsEmpty(ctx context.Context) (bool, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trMapIsEmpty, m.IsEmpty, m)
	}
	mt := newMeter(ctx)
	for _, b := range m.basics {
		e, err := b.isEmptyTab(mt)
		if err != nil || !e {
			return false, err
		}
	}
	return true, nil
}

// IsSubset reports whether m ⊆ o, i.e. m \ o is empty (for all parameter
// values).
func (m *Map) IsSubset(ctx context.Context, o *Map) (bool, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trMapIsSubset, func(ctx context.Context) (bool, error) { return m.IsSubset(ctx, o) }, m, o)
	}
	if !m.sameShape(o) {
		return false, fmt.Errorf("subset test: %w", spaceMismatch("subtract", m.space, o.space))
	}
	return m.isSubset(ctx, o, false)
}

// isSubset is IsSubset; nonEmpty tells that every piece of m is known to
// have a point, which spares their emptiness tests.
func (m *Map) isSubset(ctx context.Context, o *Map, nonEmpty bool) (bool, error) {
	for _, b := range o.basics {
		if b.isUniverse() {
			return true, nil
		}
	}
	// m \ o, piece by piece, stopping at the first non-empty piece of the
	// last round (subtractBasic's pieces are non-empty, but for a piece
	// it returns unchanged: a piece of m, whose emptiness is not known
	// unless nonEmpty says so, or a non-empty piece of an earlier round).
	a, b := alignMaps(m, o)
	mt := newMeter(ctx)
	cur := normalizedPieces(a.basics)
	orig := slices.Clone(cur)
	checked := false // the last round has tested every piece
	for k, ob := range b.basics {
		ds, err := ob.explicitDivs(mt)
		if err != nil {
			return false, fmt.Errorf("subset test: subtract: %w", err)
		}
		for i, d := range ds {
			last := k == len(b.basics)-1 && i == len(ds)-1
			var next []*BasicMap
			for _, c := range cur {
				ps, err := subtractBasic(mt, c, d)
				if err != nil {
					return false, fmt.Errorf("subset test: subtract: %w", err)
				}
				if last {
					for _, p := range ps {
						if p != c || nonEmpty || !slices.Contains(orig, p) {
							return false, nil
						}
						if e, err := p.IsEmpty(ctx); err != nil || !e {
							return false, err
						}
					}
					continue
				}
				next = append(next, ps...)
				if err := mt.checkDisjuncts(len(next)); err != nil {
					return false, fmt.Errorf("subset test: subtract: %w", err)
				}
			}
			checked = last
			cur = next
		}
	}
	if checked {
		return true, nil
	}
	return a.withBasics(cur).IsEmpty(ctx)
}

// IsEqual reports whether m and o contain the same points (for all
// parameter values).
func (m *Map) IsEqual(ctx context.Context, o *Map) (bool, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trMapIsEqual, func(ctx context.Context) (bool, error) { return m.IsEqual(ctx, o) }, m, o)
	}
	if ok, err := m.IsSubset(ctx, o); err != nil || !ok {
		return false, err
	}
	return o.IsSubset(ctx, m)
}

// Sample returns a point of m as values of the columns [params | in | out],
// or nil if m is empty.
func (m *Map) Sample(ctx context.Context) ([]Int, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trMapSample, m.Sample, m)
	}
	mt := newMeter(ctx)
	for _, b := range m.basics {
		p, err := b.sample(mt)
		if err != nil || p != nil {
			return p, err
		}
	}
	return nil, nil
}

// ContainsPoint reports whether the point with column values [params | in |
// out] is in m.
func (m *Map) ContainsPoint(ctx context.Context, point []Int) (bool, error) {
	if len(point) != m.space.NumDims() {
		return false, fmt.Errorf("presburger: point has %d values, space %s has %d dimensions", len(point), m.space, m.space.NumDims())
	}
	mt := newMeter(ctx)
	for _, b := range m.basics {
		ok, err := b.containsPoint(mt, point)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// containsPoint substitutes the dimension values into b's rows and decides
// whether some value of the locals satisfies them.
func (b *BasicMap) containsPoint(mt *meter, point []Int) (bool, error) {
	if b.empty {
		return false, nil
	}
	nd, nl := b.nDims(), len(b.divs)
	sub := func(r []Int) []Int {
		out := make([]Int, nl+1)
		copy(out, r[nd:nd+nl])
		c := r[len(r)-1]
		for i := 0; i < nd; i++ {
			if !r[i].IsZero() {
				c = c.Add(r[i].Mul(point[i]))
			}
		}
		out[nl] = c
		return out
	}
	eqs := make([][]Int, 0, len(b.eqs))
	for _, r := range b.eqs {
		eqs = append(eqs, sub(r))
	}
	all := b.allIneqsRef()
	ineqs := make([][]Int, 0, len(all))
	for _, r := range all {
		ineqs = append(ineqs, sub(r))
	}
	return omegaFeasible(mt, eqs, ineqs, nl)
}

// reshapeAll applies BasicMap.reshape to every piece.
func (m *Map) reshapeAll(sp Space, dimMap []int) *Map {
	out := &Map{space: sp.Copy()}
	for _, b := range m.basics {
		r := b.reshape(sp, dimMap)
		if r.normalize() {
			out.basics = append(out.basics, r)
		}
	}
	return out
}

// identityPerm returns [0, 1, ..., n-1].
func identityPerm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

// Reverse returns the inverse relation: (b, a) is in the result iff (a, b)
// is in m. For a set it returns m.
func (m *Map) Reverse() *Map {
	if m.space.In == nil {
		return m.withBasics(m.Basics())
	}
	np, ni, no := m.space.NumParams(), m.space.NumIn(), m.space.NumOut()
	perm := make([]int, np+ni+no)
	for i := 0; i < np; i++ {
		perm[i] = i
	}
	for i := 0; i < ni; i++ {
		perm[np+i] = np + no + i
	}
	for i := 0; i < no; i++ {
		perm[np+ni+i] = np + i
	}
	return m.reshapeAll(m.space.Reverse(), perm)
}

// Domain returns { a : exists b : (a, b) in m } for a relation; for a set
// it returns Params().
func (m *Map) Domain() *Map {
	if m.space.In == nil {
		return m.Params()
	}
	np, ni, no := m.space.NumParams(), m.space.NumIn(), m.space.NumOut()
	perm := identityPerm(np + ni + no)
	for i := 0; i < no; i++ {
		perm[np+ni+i] = -1
	}
	return m.reshapeAll(m.space.Domain(), perm)
}

// Range returns { b : exists a : (a, b) in m } for a relation; for a set it
// returns m.
func (m *Map) Range() *Map {
	if m.space.In == nil {
		return m.withBasics(m.Basics())
	}
	np, ni, no := m.space.NumParams(), m.space.NumIn(), m.space.NumOut()
	perm := make([]int, np+ni+no)
	for i := 0; i < np; i++ {
		perm[i] = i
	}
	for i := 0; i < ni; i++ {
		perm[np+i] = -1
	}
	for i := 0; i < no; i++ {
		perm[np+ni+i] = np + i
	}
	return m.reshapeAll(m.space.Range(), perm)
}

// Params returns the parameter domain { : exists in, out : (in, out) in m },
// the parameter values for which m is nonempty.
func (m *Map) Params() *Map {
	np := m.space.NumParams()
	perm := identityPerm(m.space.NumDims())
	for i := np; i < len(perm); i++ {
		perm[i] = -1
	}
	return m.reshapeAll(ParamSpace(m.space.Params), perm)
}

// ProjectOut existentially quantifies n dimensions of kind starting at
// first: the result contains the points of m with those coordinates
// removed, for which some value of the removed coordinates gives a point of
// m. Projecting parameters removes them from the space. Input and output
// tuples must be flat unless all their dimensions are projected (a nested
// tuple then becomes an empty flat tuple with the same name).
func (m *Map) ProjectOut(kind DimKind, first, n int) (*Map, error) {
	if kind < DimParam || kind > DimOut {
		return nil, fmt.Errorf("presburger: project out: bad dimension kind %d", kind)
	}
	np, ni, no := m.space.NumParams(), m.space.NumIn(), m.space.NumOut()
	size := []int{np, ni, no}[kind]
	if first < 0 || n < 0 || first+n > size {
		return nil, fmt.Errorf("presburger: project out %s dimensions [%d, %d) of %s: out of range", kind, first, first+n, m.space)
	}
	sp := m.space.Copy()
	cut := func(t *Tuple) error {
		if t.IsNested() {
			if n != t.Dim() {
				return fmt.Errorf("presburger: project out part of the nested tuple of %s", m.space)
			}
			*t = Tuple{Name: t.Name, Dims: []string{}}
			return nil
		}
		t.Dims = append(t.Dims[:first:first], t.Dims[first+n:]...)
		return nil
	}
	offset := 0
	switch kind {
	case DimParam:
		sp.Params = append(sp.Params[:first:first], sp.Params[first+n:]...)
	case DimIn:
		if sp.In == nil {
			return nil, fmt.Errorf("presburger: project out input dimensions of set %s", m.space)
		}
		offset = np
		if err := cut(sp.In); err != nil {
			return nil, err
		}
	case DimOut:
		offset = np + ni
		if err := cut(&sp.Out); err != nil {
			return nil, err
		}
	}
	perm := make([]int, np+ni+no)
	j := 0
	for i := range perm {
		if i >= offset+first && i < offset+first+n {
			perm[i] = -1
			continue
		}
		perm[i] = j
		j++
	}
	return m.reshapeAll(sp, perm), nil
}

// composeBasic returns { a -> c : exists b : (a, b) in r and (b, c) in s }
// for r: P|A|B and s: P|B|C (same parameters), in space sp.
func composeBasic(r, s *BasicMap, sp Space) *BasicMap {
	if hasPlainLocal(r) || hasPlainLocal(s) {
		return composeBasicReshape(r, s, sp)
	}
	np, nA, nB, nC := r.nP, r.nI, r.nO, s.nO
	c := NewBasicMap(sp)
	nd := c.nDims() // np + nA + nC
	nl := nB + len(r.divs) + len(s.divs)
	w := nd + nl + 1
	// The columns of r (P, A, B, its divisions, constant) and of s (P, B,
	// C, its divisions, constant) in c: B's dimensions are c's first
	// locals, r's divisions and then s's follow.
	rmap := make([]int, r.NumCols())
	for i := range np + nA {
		rmap[i] = i
	}
	for i := range nB {
		rmap[np+nA+i] = nd + i
	}
	for l := range r.divs {
		rmap[np+nA+nB+l] = nd + nB + l
	}
	rmap[len(rmap)-1] = w - 1
	smap := make([]int, s.NumCols())
	for i := range np {
		smap[i] = i
	}
	for i := range nB {
		smap[np+i] = nd + i
	}
	for i := range nC {
		smap[np+nB+i] = np + nA + i
	}
	for l := range s.divs {
		smap[np+nB+nC+l] = nd + nB + len(r.divs) + l
	}
	smap[len(smap)-1] = w - 1
	nrows := len(r.eqs) + len(s.eqs) + len(r.ineqs) + len(s.ineqs) + len(r.divs) + len(s.divs)
	slab := newRowSlab(nrows, w)
	mapRow := func(row []Int, cols []int) []Int {
		out := slab.next()
		for i, v := range row {
			if !v.IsZero() {
				out[cols[i]] = v
			}
		}
		return out
	}
	c.divs = make([]Div, nl)
	for l, d := range r.divs {
		c.divs[nB+l] = Div{Num: mapRow(d.Num, rmap), Den: d.Den}
	}
	for l, d := range s.divs {
		c.divs[nB+len(r.divs)+l] = Div{Num: mapRow(d.Num, smap), Den: d.Den}
	}
	c.eqs = make([][]Int, 0, len(r.eqs)+len(s.eqs))
	for _, e := range r.eqs {
		c.eqs = append(c.eqs, mapRow(e, rmap))
	}
	for _, e := range s.eqs {
		c.eqs = append(c.eqs, mapRow(e, smap))
	}
	c.ineqs = make([][]Int, 0, len(r.ineqs)+len(s.ineqs))
	for _, e := range r.ineqs {
		c.ineqs = append(c.ineqs, mapRow(e, rmap))
	}
	for _, e := range s.ineqs {
		c.ineqs = append(c.ineqs, mapRow(e, smap))
	}
	c.empty = r.empty || s.empty
	// B's dimensions are plain existentials: the divisions over them
	// become existentials too, as reshape's demotion makes them.
	c.demoteDivs()
	return c
}

// hasPlainLocal reports whether b has a plain existential among its
// locals.
func hasPlainLocal(b *BasicMap) bool {
	for _, d := range b.divs {
		if d.Den.IsZero() {
			return true
		}
	}
	return false
}

// composeBasicReshape is composeBasic through reshape and conjoin: the
// join of r and s over P, A, B, C, with B then made existential.
func composeBasicReshape(r, s *BasicMap, sp Space) *BasicMap {
	np, nA, nB, nC := r.nP, r.nI, r.nO, s.nO
	mid := SetSpace(r.space.Params, FlatTuple("", make([]string, nA+nB+nC)...))
	rm := identityPerm(np + nA + nB)
	sm := make([]int, np+nB+nC)
	for i := 0; i < np; i++ {
		sm[i] = i
	}
	for i := 0; i < nB+nC; i++ {
		sm[np+i] = np + nA + i
	}
	// reshape returns fresh rows: the join is built in place, without
	// Intersect's copy.
	j := r.reshape(mid, rm)
	j.conjoin(s.reshape(mid, sm))
	fm := identityPerm(np + nA + nB + nC)
	for i := 0; i < nB; i++ {
		fm[np+nA+i] = -1
	}
	for i := 0; i < nC; i++ {
		fm[np+nA+nB+i] = np + nA + i
	}
	return j.reshape(sp, fm)
}

// ApplyRange composes relations: if m: A -> B and o: B -> C, the result
// A -> C contains (a, c) iff there is b with (a, b) in m and (b, c) in o.
// If m is a set in B, the result is the image set { c : exists b in m :
// (b, c) in o }.
func (m *Map) ApplyRange(o *Map) (*Map, error) {
	if o.space.In == nil || m.space.ParamOnly || o.space.In.shapeKeyString() != m.space.Out.shapeKeyString() {
		return nil, spaceMismatch("apply range", m.space, o.space)
	}
	a, b := alignMaps(m, o)
	var sp Space
	if a.space.In == nil {
		sp = SetSpace(a.space.Params, b.space.Out)
	} else {
		sp = MapSpace(a.space.Params, *a.space.In, b.space.Out)
	}
	// The columns of the parameters and of B, in x's (P, A, B) and in
	// y's (P, B, C).
	np, nA, nB := a.space.NumParams(), a.space.NumIn(), a.space.NumOut()
	xcols, ycols := make([]int, np+nB), make([]int, np+nB)
	for i := range np {
		xcols[i], ycols[i] = i, i
	}
	for i := range nB {
		xcols[np+i], ycols[np+i] = np+nA+i, np+i
	}
	ys := make([][]sharedRow, len(b.basics))
	for j, y := range b.basics {
		ys[j] = sharedIneqs(y, ycols)
	}
	var bs []*BasicMap
	for _, x := range a.basics {
		xs := sharedIneqs(x, xcols)
		for j, y := range b.basics {
			if sharedContradiction(xs, ys[j]) {
				// What normalize finds first in the composition.
				continue
			}
			// composeBasic's result is fresh: normalized in place.
			if c := composeBasic(x, y, sp); c.normalize() {
				bs = append(bs, c)
			}
		}
	}
	return (&Map{space: sp}).withBasics(bs), nil
}

// sharedRow is an inequality of a conjunction over the columns it shares
// with another conjunction, with the hash of its coefficients there.
type sharedRow struct {
	row  []Int
	cols []int // the columns of row read, in the shared order
	h    uint64
}

// sharedIneqs returns the inequalities of b whose coefficients are zero
// outside the columns cols (increasing; the constant aside), as
// sharedRows over cols. Rows without any coefficient are left out.
func sharedIneqs(b *BasicMap, cols []int) []sharedRow {
	return sharedRows(b, cols, false)
}

// sharedRows is sharedIneqs, with b's equalities too when eqs is set,
// each as two opposite inequalities.
func sharedRows(b *BasicMap, cols []int, eqs bool) []sharedRow {
	if b.empty {
		return nil
	}
	nc := b.NumCols()
	var out []sharedRow
	// shared reports whether r's coefficients are zero outside cols and
	// not all zero. cols is increasing: a nonzero coefficient between two
	// of its columns, or after the last, is not shared.
	shared := func(r []Int) bool {
		any := false
		k := 0
		for c, v := range r[:nc-1] {
			if v.IsZero() {
				continue
			}
			for k < len(cols) && cols[k] < c {
				k++
			}
			if k == len(cols) || cols[k] != c {
				return false
			}
			any = true
		}
		return any
	}
	add := func(r []Int) {
		out = append(out, sharedRow{row: r, cols: cols, h: sharedHash(r, cols)})
	}
	if eqs {
		for _, e := range b.eqs {
			if shared(e) {
				add(e)
				add(negRow(e))
			}
		}
	}
	for _, r := range b.ineqs {
		if shared(r) {
			add(r)
		}
	}
	return out
}

// sharedHash is coefHash over the columns cols of r, in their order: a
// row and its negation hash alike.
func sharedHash(r []Int, cols []int) uint64 {
	h := uint64(14695981039346656037)
	flip := false
	first := true
	for k, c := range cols {
		v := r[c]
		if v.IsZero() {
			continue
		}
		if first {
			flip, first = v.Sign() < 0, false
		}
		if flip {
			v = v.Neg()
		}
		var x uint64
		if v.big != nil {
			x = uint64(len(v.big.Bits()))*0x9e3779b97f4a7c15 + uint64(v.big.Sign()+2)
		} else {
			x = uint64(v.small)
		}
		h ^= uint64(k) * 0x9e3779b97f4a7c15
		h ^= x
		h *= 1099511628211
		h ^= h >> 29
	}
	return h
}

// sharedContradiction reports whether an inequality of xs and one of ys
// are opposite with constants summing below zero (r >= -c1 and r <= c2
// with c1 + c2 < 0): then the conjunctions they come from have no common
// point, and normRows finds the same pair in their join (it keeps the
// tightest constant of each coefficient vector, which only lowers the
// sum).
func sharedContradiction(xs, ys []sharedRow) bool {
	for _, r := range xs {
		for _, o := range ys {
			if r.h != o.h {
				continue
			}
			opposite := true
			for k, c := range r.cols {
				if !o.row[o.cols[k]].isNegOf(r.row[c]) {
					opposite = false
					break
				}
			}
			if opposite && r.row[len(r.row)-1].Add(o.row[len(o.row)-1]).Sign() < 0 {
				return true
			}
		}
	}
	return false
}

// Apply is ApplyRange: the image of a set m under relation o, or the
// composition of relations m then o.
func (m *Map) Apply(o *Map) (*Map, error) { return m.ApplyRange(o) }

// ApplyDomain applies o to the domain of m: if m: A -> B and o: A -> C, the
// result C -> B contains (c, b) iff there is a with (a, b) in m and (a, c)
// in o.
func (m *Map) ApplyDomain(o *Map) (*Map, error) {
	if m.space.In == nil {
		return nil, spaceMismatch("apply domain", m.space, o.space)
	}
	return o.Reverse().ApplyRange(m)
}

// Preimage returns the preimage of m by relation r: if r: A -> B and m is
// a set in B, the result is { a : exists b : (a, b) in r and b in m }. If m
// is a relation B -> C, it is the relation A -> C with (a, c) in it iff
// there is b with (a, b) in r and (b, c) in m (PreimageDomain).
func (m *Map) Preimage(r *Map) (*Map, error) {
	if m.space.In == nil {
		rr, err := r.IntersectRange(m)
		if err != nil {
			return nil, err
		}
		return rr.Domain(), nil
	}
	return r.ApplyRange(m)
}

// PreimageDomain is Preimage for relations: m: B -> C, r: A -> B gives A -> C.
func (m *Map) PreimageDomain(r *Map) (*Map, error) { return r.ApplyRange(m) }

// PreimageRange pulls back the range of m: if m: A -> B and r: C -> B, the
// result A -> C contains (a, c) iff there is b with (a, b) in m and
// (c, b) in r.
func (m *Map) PreimageRange(r *Map) (*Map, error) { return m.ApplyRange(r.Reverse()) }

func (t Tuple) shapeKeyString() string {
	var b strings.Builder
	t.shapeKey(&b)
	return b.String()
}

// combine builds the basic maps obtained by placing the dimension columns
// of x and y at the given positions of space sp and intersecting.
func combine(a, b *Map, sp Space, pa, pb []int) *Map {
	ys := make([]*BasicMap, len(b.basics))
	for j, y := range b.basics {
		ys[j] = y.reshape(sp, pb)
	}
	var bs []*BasicMap
	for _, x := range a.basics {
		rx := x.reshape(sp, pa)
		for _, y := range ys {
			r := rx.Copy()
			r.conjoin(y)
			if r.normalize() {
				bs = append(bs, r)
			}
		}
	}
	return (&Map{space: sp}).withBasics(bs)
}

// placement returns a column map for an object with np params followed by
// groups of sizes, placing group k at offset dst[k] (parameters stay).
func placement(np int, sizes, dst []int) []int {
	p := identityPerm(np)
	for k, n := range sizes {
		for i := 0; i < n; i++ {
			p = append(p, dst[k]+i)
		}
	}
	return p
}

// Product returns the cartesian product. For sets S and T it is the set
// of pairs [s -> t] with s in S and t in T. For relations A -> B and
// C -> D it is [A -> C] -> [B -> D] containing ([a -> c], [b -> d]) iff
// (a, b) in m and (c, d) in o.
func (m *Map) Product(o *Map) (*Map, error) {
	if m.space.ParamOnly || o.space.ParamOnly || (m.space.In == nil) != (o.space.In == nil) {
		return nil, spaceMismatch("product", m.space, o.space)
	}
	a, b := alignMaps(m, o)
	np := a.space.NumParams()
	if a.space.In == nil {
		sp := SetSpace(a.space.Params, NestedTuple("", a.space.Out, b.space.Out))
		na, nb := a.space.NumOut(), b.space.NumOut()
		return combine(a, b, sp, placement(np, []int{na}, []int{np}), placement(np, []int{nb}, []int{np + na})), nil
	}
	sp := MapSpace(a.space.Params, NestedTuple("", *a.space.In, *b.space.In), NestedTuple("", a.space.Out, b.space.Out))
	nA, nB, nC, nD := a.space.NumIn(), a.space.NumOut(), b.space.NumIn(), b.space.NumOut()
	pa := placement(np, []int{nA, nB}, []int{np, np + nA + nC})
	pb := placement(np, []int{nC, nD}, []int{np + nA, np + nA + nC + nB})
	return combine(a, b, sp, pa, pb), nil
}

// RangeProduct returns, for m: A -> B and o: A -> C, the relation
// A -> [B -> C] containing (a, [b -> c]) iff (a, b) in m and (a, c) in o.
func (m *Map) RangeProduct(o *Map) (*Map, error) {
	if m.space.In == nil || o.space.In == nil || m.space.In.shapeKeyString() != o.space.In.shapeKeyString() {
		return nil, spaceMismatch("range product", m.space, o.space)
	}
	a, b := alignMaps(m, o)
	np := a.space.NumParams()
	nA, nB, nC := a.space.NumIn(), a.space.NumOut(), b.space.NumOut()
	sp := MapSpace(a.space.Params, *a.space.In, NestedTuple("", a.space.Out, b.space.Out))
	pa := placement(np, []int{nA, nB}, []int{np, np + nA})
	pb := placement(np, []int{nA, nC}, []int{np, np + nA + nB})
	return combine(a, b, sp, pa, pb), nil
}

// DomainProduct returns, for m: A -> B and o: C -> B, the relation
// [A -> C] -> B containing ([a -> c], b) iff (a, b) in m and (c, b) in o.
func (m *Map) DomainProduct(o *Map) (*Map, error) {
	if m.space.In == nil || o.space.In == nil || m.space.Out.shapeKeyString() != o.space.Out.shapeKeyString() {
		return nil, spaceMismatch("domain product", m.space, o.space)
	}
	a, b := alignMaps(m, o)
	np := a.space.NumParams()
	nA, nB, nC := a.space.NumIn(), a.space.NumOut(), b.space.NumIn()
	sp := MapSpace(a.space.Params, NestedTuple("", *a.space.In, *b.space.In), a.space.Out)
	pa := placement(np, []int{nA, nB}, []int{np, np + nA + nC})
	pb := placement(np, []int{nC, nB}, []int{np + nA, np + nA + nC})
	return combine(a, b, sp, pa, pb), nil
}

func (m *Map) relabel(sp Space) *Map {
	out := &Map{space: sp.Copy()}
	for _, b := range m.basics {
		out.basics = append(out.basics, b.withSpace(out.space))
	}
	return out
}

// Wrap turns a relation A -> B into the set of pairs [A -> B]: [a -> b] is
// in the result iff (a, b) is in m.
func (m *Map) Wrap() (*Map, error) {
	if m.space.In == nil {
		return nil, fmt.Errorf("presburger: wrap of set %s", m.space)
	}
	return m.relabel(m.space.Wrap()), nil
}

// Unwrap turns a set of pairs [A -> B] into the relation A -> B.
func (m *Map) Unwrap() (*Map, error) {
	sp, ok := m.space.Unwrap()
	if !ok {
		return nil, fmt.Errorf("presburger: unwrap of %s, which is not a set of pairs", m.space)
	}
	return m.relabel(sp), nil
}

// Curry turns [A -> B] -> C into A -> [B -> C], relating a to [b -> c]
// iff m relates [a -> b] to c.
func (m *Map) Curry() (*Map, error) {
	if m.space.In == nil || !m.space.In.IsNested() {
		return nil, fmt.Errorf("presburger: curry of %s, whose domain is not a pair", m.space)
	}
	sp := MapSpace(m.space.Params, *m.space.In.Left, NestedTuple("", *m.space.In.Right, m.space.Out))
	return m.relabel(sp), nil
}

// Uncurry turns A -> [B -> C] into [A -> B] -> C, relating [a -> b] to c
// iff m relates a to [b -> c].
func (m *Map) Uncurry() (*Map, error) {
	if m.space.In == nil || !m.space.Out.IsNested() {
		return nil, fmt.Errorf("presburger: uncurry of %s, whose range is not a pair", m.space)
	}
	sp := MapSpace(m.space.Params, NestedTuple("", *m.space.In, *m.space.Out.Left), *m.space.Out.Right)
	return m.relabel(sp), nil
}

// Zip turns [A -> B] -> [C -> D] into [A -> C] -> [B -> D], relating
// [a -> c] to [b -> d] iff m relates [a -> b] to [c -> d].
func (m *Map) Zip() (*Map, error) {
	if m.space.In == nil || !m.space.In.IsNested() || !m.space.Out.IsNested() {
		return nil, fmt.Errorf("presburger: zip of %s, which is not a relation between pairs", m.space)
	}
	in, out := m.space.In, m.space.Out
	sp := MapSpace(m.space.Params, NestedTuple("", *in.Left, *out.Left), NestedTuple("", *in.Right, *out.Right))
	np := m.space.NumParams()
	nA, nB, nC, nD := in.Left.Dim(), in.Right.Dim(), out.Left.Dim(), out.Right.Dim()
	perm := placement(np, []int{nA, nB, nC, nD}, []int{np, np + nA + nC, np + nA, np + nA + nC + nB})
	return m.reshapeAll(sp, perm), nil
}

// addEqAll returns m with the equality row (over dimension columns and the
// constant; locals zero) added to every piece.
func (m *Map) addEqAll(dimRow []Int) *Map {
	out := &Map{space: m.space.Copy()}
	nd := m.space.NumDims()
	for _, b := range m.basics {
		c := b.Copy()
		r := make([]Int, c.NumCols())
		copy(r, dimRow[:nd])
		r[len(r)-1] = dimRow[nd]
		c.eqs = append(c.eqs, r)
		if c.normalize() {
			out.basics = append(out.basics, c)
		}
	}
	return out
}

// FixParam returns the points of m where parameter name equals v. The
// parameter stays in the space (see BindParams to remove it).
func (m *Map) FixParam(name string, v Int) (*Map, error) {
	i := m.space.paramIndex(name)
	if i < 0 {
		return nil, fmt.Errorf("presburger: fix parameter %q: not a parameter of %s", name, m.space)
	}
	row := make([]Int, m.space.NumDims()+1)
	row[i] = NewInt(1)
	row[len(row)-1] = v.Neg()
	return m.addEqAll(row), nil
}

// FixDim returns the points of m whose dimension pos of kind equals v.
func (m *Map) FixDim(kind DimKind, pos int, v Int) (*Map, error) {
	if kind < DimParam || kind > DimOut {
		return nil, fmt.Errorf("presburger: fix dimension: bad dimension kind %d", kind)
	}
	np, ni, no := m.space.NumParams(), m.space.NumIn(), m.space.NumOut()
	size := []int{np, ni, no}[kind]
	if pos < 0 || pos >= size {
		return nil, fmt.Errorf("presburger: fix %s dimension %d of %s: out of range", kind, pos, m.space)
	}
	col := []int{0, np, np + ni}[kind] + pos
	row := make([]Int, m.space.NumDims()+1)
	row[col] = NewInt(1)
	row[len(row)-1] = v.Neg()
	return m.addEqAll(row), nil
}

// BindParams fixes the named parameters to the given values and removes
// them from the space: the result, over the remaining parameters, contains
// exactly the points of m at those parameter values.
func (m *Map) BindParams(vals map[string]Int) (*Map, error) {
	r := m
	names := make([]string, 0, len(vals))
	for k := range vals {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		var err error
		if r, err = r.FixParam(k, vals[k]); err != nil {
			return nil, fmt.Errorf("bind parameters: %w", err)
		}
	}
	for _, k := range names {
		i := r.space.paramIndex(k)
		var err error
		if r, err = r.ProjectOut(DimParam, i, 1); err != nil {
			return nil, err
		}
	}
	// The bound parameters were equal to constants: simplify them away.
	out := &Map{space: r.space}
	for _, b := range r.basics {
		if c := normalized(b); c != nil {
			out.basics = append(out.basics, c)
		}
	}
	return out, nil
}

// BoundParams returns m restricted to the points where every parameter
// named in names lies within [-bound, bound]; names that are not
// parameters of m are ignored. Searching for small counterexamples
// starts there.
func (m *Map) BoundParams(names []string, bound int64) (*Map, error) {
	sp := m.Space()
	b := NewBasicMap(sp)
	for _, name := range names {
		i := sp.ParamCol(name)
		if i < 0 {
			continue
		}
		for _, sign := range []int64{1, -1} {
			row := b.NewRow()
			row[i] = NewInt(-sign)
			row[b.ConstCol()] = NewInt(bound)
			b.AddIneq(row) // bound - sign*p >= 0
		}
	}
	return m.Intersect(NewMap(sp, b))
}

// IntersectParams restricts m to the parameter values in the parameter
// domain p.
func (m *Map) IntersectParams(p *Map) (*Map, error) {
	if !p.space.ParamOnly {
		return nil, fmt.Errorf("presburger: intersect params with %s, which is not a parameter domain", p.space)
	}
	a, b := alignMaps(m, p)
	np := a.space.NumParams()
	lifted := b.reshapeAll(a.space, identityPerm(np))
	return a.Intersect(lifted)
}

// IntersectDomain restricts relation m: A -> B to the pairs whose domain
// element is in the set s (a set in A).
func (m *Map) IntersectDomain(s *Map) (*Map, error) {
	if m.space.In == nil || s.space.In != nil || s.space.Out.shapeKeyString() != m.space.In.shapeKeyString() {
		return nil, spaceMismatch("intersect domain", m.space, s.space)
	}
	a, b := alignMaps(m, s)
	np := a.space.NumParams()
	lifted := b.reshapeAll(a.space, identityPerm(np+a.space.NumIn()))
	return a.Intersect(lifted)
}

// SubtractDomain removes from relation m: A -> B the pairs whose domain
// element is in the set s (a set in A).
func (m *Map) SubtractDomain(ctx context.Context, s *Map) (*Map, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trMapSubtractDomain, func(ctx context.Context) (*Map, error) { return m.SubtractDomain(ctx, s) }, m, s)
	}
	if m.space.In == nil || s.space.In != nil || s.space.Out.shapeKeyString() != m.space.In.shapeKeyString() {
		return nil, spaceMismatch("subtract domain", m.space, s.space)
	}
	a, b := alignMaps(m, s)
	np := a.space.NumParams()
	return a.Subtract(ctx, b.reshapeAll(a.space, identityPerm(np+a.space.NumIn())))
}

// IntersectRange restricts relation m: A -> B to the pairs whose range
// element is in the set s (a set in B).
func (m *Map) IntersectRange(s *Map) (*Map, error) {
	if m.space.In == nil || s.space.In != nil || s.space.Out.shapeKeyString() != m.space.Out.shapeKeyString() {
		return nil, spaceMismatch("intersect range", m.space, s.space)
	}
	a, b := alignMaps(m, s)
	np, ni, no := a.space.NumParams(), a.space.NumIn(), a.space.NumOut()
	lifted := b.reshapeAll(a.space, placement(np, []int{no}, []int{np + ni}))
	return a.Intersect(lifted)
}

// Identity returns the identity relation { x -> x } on the tuples of the
// set space sp; for a relation space A -> B with as many dimensions on
// both sides, the relation { a -> b : a = b }.
func Identity(sp Space) (*Map, error) {
	var ms Space
	if sp.In == nil {
		if sp.ParamOnly {
			return nil, fmt.Errorf("presburger: identity on parameter space")
		}
		ms = MapSpace(sp.Params, sp.Out, sp.Out)
	} else {
		ms = sp.Copy()
	}
	if ms.NumIn() != ms.NumOut() {
		return nil, fmt.Errorf("presburger: identity on %s: sides differ in size", sp)
	}
	b := NewBasicMap(ms)
	np, n := ms.NumParams(), ms.NumIn()
	for i := 0; i < n; i++ {
		r := make([]Int, b.NumCols())
		r[np+i] = NewInt(1)
		r[np+n+i] = NewInt(-1)
		b.AddEq(r)
	}
	return NewMap(ms, b), nil
}

func lexRel(sp Space, strict bool, greater bool) (*Map, error) {
	if sp.In != nil || sp.ParamOnly {
		return nil, fmt.Errorf("presburger: lexicographic order on %s, which is not a set space", sp)
	}
	ms := MapSpace(sp.Params, sp.Out, sp.Out)
	np, n := ms.NumParams(), ms.NumIn()
	var bs []*BasicMap
	for k := 0; k <= n; k++ {
		if k == n && strict {
			break
		}
		b := NewBasicMap(ms)
		w := b.NumCols()
		for i := 0; i < k; i++ {
			r := make([]Int, w)
			r[np+i], r[np+n+i] = NewInt(1), NewInt(-1)
			b.AddEq(r)
		}
		if k < n {
			// x_k < y_k: y_k - x_k - 1 >= 0 (or the reverse for greater).
			r := make([]Int, w)
			r[np+k], r[np+n+k], r[w-1] = NewInt(-1), NewInt(1), NewInt(-1)
			if greater {
				r[np+k], r[np+n+k] = NewInt(1), NewInt(-1)
			}
			b.AddIneq(r)
		}
		bs = append(bs, b)
	}
	return NewMap(ms, bs...), nil
}

// LexLT returns { x -> y : x <lex y } on the set space sp (x strictly
// before y in lexicographic order of coordinates).
func LexLT(sp Space) (*Map, error) { return lexRel(sp, true, false) }

// LexLE returns { x -> y : x <=lex y } on the set space sp.
func LexLE(sp Space) (*Map, error) { return lexRel(sp, false, false) }

// LexGT returns { x -> y : x >lex y } on the set space sp.
func LexGT(sp Space) (*Map, error) { return lexRel(sp, true, true) }

// LexGE returns { x -> y : x >=lex y } on the set space sp.
func LexGE(sp Space) (*Map, error) { return lexRel(sp, false, true) }

// IsSingleValued reports whether m relates every domain element to at most
// one range element, for all parameter values (for a set: whether it has
// at most one point for each parameter value).
func (m *Map) IsSingleValued(ctx context.Context) (bool, error) {
	var t *Map
	var err error
	if m.space.In == nil {
		if t, err = m.Product(m); err != nil {
			return false, err
		}
		if t, err = t.Unwrap(); err != nil {
			return false, err
		}
	} else if t, err = m.Reverse().ApplyRange(m); err != nil {
		return false, err
	}
	id, err := Identity(t.space)
	if err != nil {
		return false, err
	}
	return t.IsSubset(ctx, id)
}

// IsInjective reports whether m relates every range element to at most
// one domain element, for all parameter values.
func (m *Map) IsInjective(ctx context.Context) (bool, error) {
	if m.space.In == nil {
		return false, fmt.Errorf("presburger: injectivity of set %s", m.space)
	}
	return m.Reverse().IsSingleValued(ctx)
}

// normalizedPieces returns the normalized forms of the pieces, leaving out
// those that normalization finds empty.
func normalizedPieces(basics []*BasicMap) []*BasicMap {
	cur := make([]*BasicMap, 0, len(basics))
	for _, x := range basics {
		if c := normalized(x); c != nil {
			cur = append(cur, c)
		}
	}
	return cur
}
