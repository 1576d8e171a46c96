package symeval

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/augur-verify/augur/presburger"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
)

// This file evaluates value expressions in a symbolic heap (Clément
// 2022, Fig. 5.1) and computes their read sets (Fig. 5.2), for the
// symbolic evaluation of Fig. 5.4: valueObligations (obligation.go) and
// the read checks (symbolic.go, race.go) build on them. Nothing here is
// used by Prophesy.
//
// Holes that are equal wherever the symbolic value is defined are fused
// after lifting. Nested array reads (a[b[i]]) are rejected, as the index
// language forbids them.

// alternative is one component of a symbolic value under construction:
// a template with holes □1 ... □n (types of its value nodes in types) and
// the set of hole tuples, a set over the scope's parameters whose tuple
// has n dimensions.
type alternative struct {
	tmpl  syntax.Expr
	types map[syntax.Expr]syntax.Type
	holes int
	set   *presburger.Map
	// doms, when not nil, holds the parameter domain of every piece of set
	// (as pieceDomains computes them), in the order of set.Basics().
	doms []*pieceDomain
	// uses records, by read (valueEval.sharedRead), the holes that hold
	// the value of a read of the expression, for the products above to
	// share them (symvalue_shared.go); nil: none recorded.
	uses map[int]readUse
}

// holeSpace returns the set space of n anonymous hole dimensions.
func holeSpace(params []string, name string, n int) presburger.Space {
	dims := make([]string, n)
	for i := range dims {
		dims[i] = fmt.Sprintf("h%d", i+1)
	}
	return presburger.SetSpace(params, presburger.FlatTuple(name, dims...))
}

// respace returns the points of m in the space sp, which must have as
// many dimensions in all: the constraints are copied column for column
// (for instance to flatten a product [s -> t] into one tuple, to split a
// set's tuple into a relation's input and output, or to rename a tuple).
func respace(m *presburger.Map, sp presburger.Space) (*presburger.Map, error) {
	if m.Space().NumOut()+m.Space().NumIn() != sp.NumOut()+sp.NumIn() {
		return nil, fmt.Errorf("respace %s as %s: different dimensions", m.Space(), sp)
	}
	sp.Params = append([]string(nil), m.Space().Params...)
	return m.Relabel(sp)
}

// valueEval evaluates value expressions in a symbolic heap.
type valueEval struct {
	ctx  context.Context
	cs   *Contexts
	info *expr.Info
	s    *Scope
	h    *Heap
	// fns caches, by heap component, the function giving the content of
	// its cells (functionalRead).
	fns map[*presburger.Map]cellFn
	// within is the scope's facts and assumptions, once needed.
	within *presburger.Map
	// copies are the specification's copy equations, by the tensor they
	// define (dataread_copies.go); nil: none used.
	copies map[string][]specCopy
	// shared holds the reads evaluated so far, by their text, for the
	// next occurrences of each (sharedRead).
	shared map[string]sharedRead
	// size counts the coefficients of the products of pieces the
	// evaluation builds (productSize); nil: unbounded.
	size *productSize
}

// knownDomain returns the parameter domain where the scope's facts and
// the kernel's assumptions hold (the universe when there are none).
func (ev *valueEval) knownDomain() (*presburger.Map, error) {
	d := presburger.Universe(presburger.ParamSpace(ev.s.Params()))
	for _, k := range []*presburger.Map{ev.s.Facts(), ev.s.assumed} {
		if k == nil {
			continue
		}
		var err error
		if d, err = d.Intersect(k); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// evalInHeap returns ⟦e⟧_h (Clément 2022, Fig. 5.1): the symbolic value of
// the checked value expression e (info holds its types) in scope s when
// memory is h, as a union of sets whose tuples are named after contexts
// interned in cs. It is empty where e reads a cell absent from h, but
// for the reads of an array whose cells all hold one affine function of
// the cell: those are read through the function (functionalRead), which
// is exact wherever the cell read is in h, as S-ASSIGN's premise
// reads(e) ⊆ dom(h) requires.
func evalInHeap(ctx context.Context, cs *Contexts, info *expr.Info, s *Scope, h *Heap, e syntax.Expr) (_ *presburger.UnionMap, err error) {
	defer guard(&err, "evaluate in symbolic heap")
	if _, ok := info.Types[e]; !ok {
		return nil, fmt.Errorf("%s: %s was not type-checked", e.Pos(), syntax.ExprString(e))
	}
	ev := &valueEval{ctx: ctx, cs: cs, info: info, s: s, h: h, size: newProductSize(ctx)}
	alts, err := ev.eval(e)
	if err != nil {
		return nil, err
	}
	var sets []*presburger.Map
	for _, a := range alts {
		if a, err = fuseHoles(ctx, a); err != nil {
			return nil, err
		}
		c := cs.intern(a.tmpl, a.types, a.holes)
		m, err := respace(a.set, holeSpace(nil, c.Name, a.holes))
		if err != nil {
			return nil, err
		}
		sets = append(sets, m)
	}
	return presburger.NewUnionMap(sets...), nil
}

func (ev *valueEval) eval(e syntax.Expr) ([]alternative, error) {
	_, typed := ev.info.Types[e]
	if !typed && !isConstraintNode(e) {
		a, err := ev.indexValue(e)
		if err != nil {
			return nil, err
		}
		return []alternative{a}, nil
	}
	if x, ok := e.(*syntax.Index); ok {
		return ev.sharedRead(x)
	}
	// A node of the template: evaluate the children, then lift.
	var kids []syntax.Expr
	switch x := e.(type) {
	case *syntax.Unary:
		kids = []syntax.Expr{x.X}
	case *syntax.Binary:
		kids = []syntax.Expr{x.X, x.Y}
	case *syntax.Chain:
		kids = x.Operands
	case *syntax.Call:
		kids = x.Args
	case *syntax.Lit, *syntax.Ident:
	default:
		return nil, fmt.Errorf("%s: unexpected expression %s", e.Pos(), syntax.ExprString(e))
	}
	kidAlts := make([][]alternative, len(kids))
	for i, k := range kids {
		a, err := ev.eval(k)
		if err != nil {
			return nil, err
		}
		kidAlts[i] = a
	}
	// The cartesian product of the children's alternatives.
	empty, err := lowerDNF(holeSpace(ev.s.Params(), "", 0), dnfTrue(), nil)
	if err != nil {
		return nil, err
	}
	type combo struct {
		parts []alternative
		set   *presburger.Map
		doms  []*pieceDomain // the parameter domain of every piece of set
		holes int
		uses  map[int]readUse
		same  [][2]int // holes that hold one read's holes twice
	}
	combos := []combo{{set: empty, doms: pieceDomains(empty)}}
	for _, alts := range kidAlts {
		doms := make([][]*pieceDomain, len(alts))
		for k, a := range alts {
			if doms[k] = a.doms; doms[k] == nil {
				doms[k] = pieceDomains(a.set)
			}
		}
		var next []combo
		for _, c := range combos {
			for k, a := range alts {
				uses, same, ok := joinUses(c.uses, c.holes, a.uses)
				if !ok {
					continue // one read taken as two of its alternatives
				}
				set, sd, err := productPieces(ev.ctx, c.set, c.doms, a.set, doms[k], ev.size)
				if err != nil {
					return nil, err
				}
				if set.NumBasics() == 0 {
					// No point: an alternative that holds nowhere, and
					// whose products above would not either.
					continue
				}
				parts := append(append([]alternative(nil), c.parts...), a)
				next = append(next, combo{parts, set, sd, c.holes + a.holes, uses, append(slices.Clip(c.same), same...)})
			}
		}
		if len(next) > maxPieces {
			return nil, fmt.Errorf("%s: more than %d alternatives", e.Pos(), maxPieces)
		}
		combos = next
	}
	var out []alternative
	for _, c := range combos {
		types := map[syntax.Expr]syntax.Type{}
		node := withKids(e, shiftedParts(c.parts, types))
		if t, ok := ev.info.Types[e]; ok {
			types[node] = t
		}
		a := alternative{tmpl: node, types: types, holes: c.holes, set: c.set, doms: c.doms, uses: c.uses}
		if a, err = identifyHoles(ev.ctx, a, c.same); err != nil {
			return nil, err
		}
		if len(kids) > 1 {
			// Holes equal on this node's set are equal on the set of any
			// expression containing it, whose points restrict this set's:
			// fused here, they do not widen every product above.
			if a, err = fuseHoles(ev.ctx, a); err != nil {
				return nil, err
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// shiftedParts returns the templates of parts, the children's
// alternatives of one product, with their holes numbered after those of
// the parts before them, and records their nodes' types in types.
func shiftedParts(parts []alternative, types map[syntax.Expr]syntax.Type) []syntax.Expr {
	shifted := make([]syntax.Expr, len(parts))
	offset := 0
	for i, p := range parts {
		off := offset
		shifted[i] = rebuild(p.tmpl, func(x syntax.Expr) (syntax.Expr, bool) {
			if id, ok := x.(*syntax.Ident); ok {
				if k, ok := holeIndex(id.Name); ok {
					return &syntax.Ident{Name: HoleName(k + off)}, true
				}
			}
			return nil, false
		}, func(orig, cp syntax.Expr) {
			if t, ok := p.types[orig]; ok {
				types[cp] = t
			}
		})
		offset += p.holes
	}
	return shifted
}

// indexValue returns the value of the index-language integer e: one
// hole, the template □1.
func (ev *valueEval) indexValue(e syntax.Expr) (alternative, error) {
	v, err := ev.s.translator().index(e)
	if err != nil {
		return alternative{}, err
	}
	d, err := ev.s.w.equalities([]presburger.Var{presburger.OutVar(0)}, []pwExpr{v})
	if err != nil {
		return alternative{}, err
	}
	set, err := lowerDNF(holeSpace(ev.s.Params(), "", 1), d, nil)
	if err != nil {
		return alternative{}, err
	}
	return alternative{tmpl: &syntax.Ident{Name: HoleName(1)}, types: map[syntax.Expr]syntax.Type{}, holes: 1, set: set}, nil
}

// withKids returns a copy of e with its children replaced.
func withKids(e syntax.Expr, kids []syntax.Expr) syntax.Expr {
	switch x := e.(type) {
	case *syntax.Unary:
		return &syntax.Unary{OpPos: x.OpPos, Op: x.Op, X: kids[0]}
	case *syntax.Binary:
		return &syntax.Binary{X: kids[0], Op: x.Op, Y: kids[1]}
	case *syntax.Chain:
		return &syntax.Chain{Operands: kids, Ops: append([]syntax.Op(nil), x.Ops...)}
	case *syntax.Call:
		f := *x.Fun
		return &syntax.Call{Fun: &f, Args: kids}
	case *syntax.Lit:
		c := *x
		return &c
	case *syntax.Ident:
		c := *x
		return &c
	}
	return e
}

// flatProduct returns { [s, t] : s in a, t in b } as one flat tuple.
func flatProduct(a, b *presburger.Map) (*presburger.Map, error) {
	p, err := a.Product(b)
	if err != nil {
		return nil, err
	}
	n := a.Space().NumOut() + b.Space().NumOut()
	return respace(p, holeSpace(nil, "", n))
}

// pieceDomain is the parameter domain of a piece of a set: the
// parameter values for which the piece has a point, with an index of its
// constraints on parameters and on integer divisions of them (no other
// local variable) for a quick test that two domains contradict each
// other.
type pieceDomain struct {
	m *presburger.Map
	// bounds maps the coefficients of an inequality c·t + k >= 0 (by
	// term, see boundKey; a term is a parameter by name or a division of
	// terms by its definition, divTerms) to the least k among the
	// domain's inequalities with those coefficients (an equality gives
	// two).
	bounds map[string]presburger.Int
	// neg holds, for every key of bounds, the key of the opposite
	// coefficients.
	neg map[string]string
}

// newPieceDomain indexes the parameter domain m.
func newPieceDomain(m *presburger.Map) *pieceDomain {
	d := &pieceDomain{m: m, bounds: map[string]presburger.Int{}, neg: map[string]string{}}
	if m.NumBasics() != 1 {
		return d
	}
	b := m.Basics()[0]
	terms := divTerms(b, m.Space().Params)
	add := func(row []presburger.Int, sign int64) {
		for l := 0; l < b.NumLocals(); l++ {
			if !row[b.LocalCol(l)].IsZero() && terms[b.LocalCol(l)] == "" {
				return
			}
		}
		key, neg := boundKey(terms, row[:b.ConstCol()], sign)
		k := row[b.ConstCol()]
		if sign < 0 {
			k = k.Neg()
		}
		if old, ok := d.bounds[key]; !ok || k.Cmp(old) < 0 {
			d.bounds[key] = k
			d.neg[key] = neg
		}
	}
	for _, e := range b.Ineqs() {
		add(e, 1)
	}
	for _, e := range b.Eqs() {
		add(e, 1)
		add(e, -1)
	}
	return d
}

// divTerms names the columns of b but its constant, for boundKey: a
// parameter by its name, a local that is an integer division by its
// definition, floor((num)/den) with num keyed as a row of terms and its
// constant. A tuple dimension, a plain existential and a division whose
// numerator involves either are named "": rows over them are not
// indexed.
//
// Soundness: a division local takes the value floor(num/den) at every
// point of the set (presburger.Div), so two locals of two sets with the
// same definition over the same parameters are the same function of the
// parameters, and the same term: c·t + k >= 0 in one set and
// -c·t + k' >= 0 in another, k + k' < 0, still have no parameter value
// in common.
func divTerms(b *presburger.BasicMap, params []string) []string {
	terms := make([]string, b.ConstCol())
	first := b.Col(presburger.DimParam, 0)
	for i, p := range params {
		terms[first+i] = p
	}
	for l := 0; l < b.NumLocals(); l++ {
		num, den := b.Local(l)
		if num == nil {
			continue
		}
		ok := true
		for c, v := range num[:b.ConstCol()] {
			if !v.IsZero() && terms[c] == "" {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		key, _ := boundKey(terms, num[:b.ConstCol()], 1)
		terms[b.LocalCol(l)] = "floor((" + key + num[b.ConstCol()].String() + ")/" + den.String() + ")"
	}
	return terms
}

// boundKey returns the key of the coefficients sign*coefs of the named
// terms, and that of their opposite: the nonzero coefficients in the
// order of the terms' names, so that the key does not depend on the
// order of the parameters in a space or of the locals in a set. Every
// term with a nonzero coefficient must have a name.
func boundKey(terms []string, coefs []presburger.Int, sign int64) (key, neg string) {
	idx := make([]int, 0, len(coefs))
	for i, c := range coefs {
		if !c.IsZero() {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int { return strings.Compare(terms[a], terms[b]) })
	var kb, nb strings.Builder
	for _, i := range idx {
		c := coefs[i]
		if sign < 0 {
			c = c.Neg()
		}
		kb.WriteString(terms[i])
		kb.WriteByte('*')
		kb.WriteString(c.String())
		kb.WriteByte(',')
		nb.WriteString(terms[i])
		nb.WriteByte('*')
		nb.WriteString(c.Neg().String())
		nb.WriteByte(',')
	}
	return kb.String(), nb.String()
}

// contradicts reports whether d has an inequality c·p + k >= 0 and o one
// -c·p + k' >= 0 with k + k' < 0: then no parameter value satisfies both.
// False says nothing.
func (d *pieceDomain) contradicts(o *pieceDomain) bool {
	if len(o.bounds) < len(d.bounds) {
		d, o = o, d
	}
	for key, k := range d.bounds {
		if k2, ok := o.bounds[d.neg[key]]; ok && k.Add(k2).Sign() < 0 {
			return true
		}
	}
	return false
}

// meet returns the domain d ∩ o, whose points are m.
func (d *pieceDomain) meet(o *pieceDomain, m *presburger.Map) *pieceDomain {
	r := &pieceDomain{m: m, bounds: make(map[string]presburger.Int, len(d.bounds)+len(o.bounds)), neg: make(map[string]string, len(d.bounds)+len(o.bounds))}
	for _, x := range []*pieceDomain{d, o} {
		for key, k := range x.bounds {
			if old, ok := r.bounds[key]; !ok || k.Cmp(old) < 0 {
				r.bounds[key] = k
				r.neg[key] = x.neg[key]
			}
		}
	}
	return r
}

// pieceDomains returns the parameter domain of every piece of m.
func pieceDomains(m *presburger.Map) []*pieceDomain {
	ps := m.Pieces()
	out := make([]*pieceDomain, len(ps))
	for i, p := range ps {
		out[i] = newPieceDomain(p.Params())
	}
	return out
}

// productPieces returns flatProduct(x, y) without its empty pieces, and
// the parameter domain of each of its pieces, given those of x's (xd)
// and y's (yd). The holes of x and y are distinct dimensions over the
// same parameters, so the product of two pieces has a point exactly when
// their parameter domains meet. The pieces of the children of an
// expression are over the same parameters and loop variables, and most of
// their pairs contradict each other (a tile is the last one or it is
// not): the test on the parameters alone finds them without building the
// product of all the holes, most of them by two opposite inequalities.
//
// size, when not nil, counts the coefficients of the pieces built
// against its bound (productSize): a product past it fails with an error
// wrapping presburger.ErrBudget before it holds more.
func productPieces(ctx context.Context, x *presburger.Map, xd []*pieceDomain, y *presburger.Map, yd []*pieceDomain, size *productSize) (*presburger.Map, []*pieceDomain, error) {
	xs, ys := x.Space(), y.Space()
	shape, err := flatProduct(presburger.Empty(xs), presburger.Empty(ys))
	if err != nil {
		return nil, nil, err
	}
	xp, yp := x.Pieces(), y.Pieces()
	var pieces []*presburger.Map
	var doms []*pieceDomain
	for i := range xp {
		// One step per pair of pieces, against the evaluation's step
		// budget (AnalyzeOptions.Steps): the pairs are most of the
		// work of a value's product, and their intersections take no
		// steps of their own.
		if err := presburger.Charge(ctx, len(yp)); err != nil {
			return nil, nil, fmt.Errorf("product of values: %w", err)
		}
		for j := range yp {
			if xd[i].contradicts(yd[j]) {
				continue
			}
			dm, err := xd[i].m.Intersect(yd[j].m)
			if err != nil {
				return nil, nil, err
			}
			empty, err := dm.IsEmpty(ctx)
			if err != nil {
				return nil, nil, err
			}
			if empty {
				continue
			}
			p, err := flatProduct(xp[i], yp[j])
			if err != nil {
				return nil, nil, err
			}
			// The product and the intersection of the domains, which
			// count no steps of their own, cost about a step per
			// constraint of what they build (normalising it).
			if err := presburger.Charge(ctx, constraintRows(p)+constraintRows(dm)); err != nil {
				return nil, nil, fmt.Errorf("product of values: %w", err)
			}
			if err := size.add(p); err != nil {
				return nil, nil, err
			}
			d := xd[i].meet(yd[j], dm)
			for _, b := range p.Pieces() {
				pieces = append(pieces, b)
				doms = append(doms, d)
			}
		}
	}
	// The product's pieces are shared, not copied (maps are immutable).
	m, err := presburger.UnionPieces(shape.Space(), pieces...)
	if err != nil {
		return nil, nil, err
	}
	return m, doms, nil
}

// productSize counts the coefficients of the pieces built by the
// products of one value's evaluation (a statement's value, or the value
// of a check over its data-dependent reads) against max: the products of
// a value's pieces grow as the product of its reads' pieces, and the
// pieces of the intermediate products are held until the value is
// decomposed into its obligations. Once past max, the value is left
// undecided (presburger.ErrBudget) rather than built. A nil *productSize
// counts nothing.
type productSize struct {
	max, used int
}

// newProductSize returns the count of one value's products against the
// bound that ctx carries (withProductBound), DefaultProductCoefficients
// when it carries none. The step budget does not bound memory: a step
// is charged per constraint built, and a piece of a value over many
// holes has a column per hole, so that 20,000,000 steps of products can
// hold several gigabytes.
func newProductSize(ctx context.Context) *productSize {
	bound := DefaultProductCoefficients
	if n, ok := ctx.Value(productBoundKey{}).(int); ok && n > 0 {
		bound = n
	}
	return &productSize{max: bound}
}

// productBoundKey is the context key of the bound on the coefficients of
// one value's products (AnalyzeOptions.ProductCoefficients).
type productBoundKey struct{}

// withProductBound returns ctx carrying n as the bound on the
// coefficients of one value's products (newProductSize).
func withProductBound(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, productBoundKey{}, n)
}

// add counts the coefficients of m's pieces, and returns an error
// wrapping presburger.ErrBudget once the total exceeds the bound. A
// constraint counts a coefficient per parameter and per dimension and
// its constant (not its local variables: m's pieces are not copied to
// count them).
func (z *productSize) add(m *presburger.Map) error {
	if z == nil {
		return nil
	}
	sp := m.Space()
	return z.charge(m.NumConstraints() * (sp.NumParams() + sp.TupleDims() + 1))
}

// addEntries is add for pieces that are held, not copied to count them:
// it counts their matrix entries (presburger.Map.NumEntries), the
// columns of their local variables and their divisions' definitions
// included.
func (z *productSize) addEntries(m *presburger.Map) error {
	if z == nil {
		return nil
	}
	return z.charge(m.NumEntries())
}

// charge counts n coefficients, and returns an error wrapping
// presburger.ErrBudget once the total exceeds the bound.
func (z *productSize) charge(n int) error {
	z.used += n
	if z.used > z.max {
		return fmt.Errorf("%w: the products of the value's pieces hold more than %d coefficients of constraints", presburger.ErrBudget, z.max)
	}
	return nil
}

// chargeBuilt counts against the step budget of ctx (AnalyzeOptions.Steps)
// the work of operations that count no steps of their own: intersections,
// products, unions and images of sets, which combine pairs of pieces and
// normalise what they build. It counts a step per pair of pieces
// combined (pairs) and per constraint of the pieces built (built), so
// that the budget, not the machine's time, bounds a value's evaluation
// however many pieces its sets take.
func chargeBuilt(ctx context.Context, pairs int, built ...*presburger.Map) error {
	n := pairs
	for _, m := range built {
		if m != nil {
			n += constraintRows(m)
		}
	}
	return presburger.Charge(ctx, n)
}

// chargeBuiltUnion is chargeBuilt for the maps of a union u.
func chargeBuiltUnion(ctx context.Context, pairs int, u *presburger.UnionMap) error {
	if u == nil {
		return chargeBuilt(ctx, pairs)
	}
	return chargeBuilt(ctx, pairs, u.Maps()...)
}

// heapPieces returns the number of pieces of the maps of the heap h
// from the cells of the array name.
func heapPieces(h *presburger.UnionMap, name string) int {
	n := 0
	for _, m := range h.Maps() {
		if in := m.Space().In; in != nil && in.Name == name {
			n += m.NumBasics()
		}
	}
	return n
}

// constraintRows returns the number of constraints of m's pieces.
func constraintRows(m *presburger.Map) int { return m.NumConstraints() }

// location returns the symbolic location { a[t1, ..., tn] } of an array
// access in scope s.
func location(s *Scope, x *syntax.Index) (*presburger.Map, error) {
	tr := s.translator()
	vs := make([]presburger.Var, len(x.Indices))
	es := make([]pwExpr, len(x.Indices))
	dims := make([]string, len(x.Indices))
	for i, ix := range x.Indices {
		v, err := tr.index(ix)
		if err != nil {
			return nil, err
		}
		vs[i], es[i], dims[i] = presburger.OutVar(i), v, fmt.Sprintf("i%d", i)
	}
	d, err := s.w.equalities(vs, es)
	if err != nil {
		return nil, err
	}
	return lowerDNF(presburger.SetSpace(s.Params(), presburger.FlatTuple(x.Array.Name, dims...)), d, nil)
}

// read returns h({a[t]}): the contents of the cell read, one alternative
// per context.
func (ev *valueEval) read(x *syntax.Index) ([]alternative, error) {
	if isDataRead(x) {
		return ev.dataRead(x)
	}
	alts, err := ev.clampedRead(x)
	switch {
	case err != nil && ev.ctx.Err() != nil:
		return nil, fmt.Errorf("%s: read %s: %w", x.Pos(), syntax.ExprString(x), err)
	case err == nil && alts != nil:
		return alts, nil
	}
	// No clamp, or one the shortcut does not handle (or an error of its
	// own, over budget say): the read as its location splits it.
	loc, err := readLocation(ev.ctx, ev.s, x)
	if err != nil {
		return nil, err
	}
	// The image of each piece of the location, kept apart for
	// readByLocation, and their union.
	var parts []*presburger.UnionMap
	img := presburger.NewUnionMap()
	if loc.NumBasics() == 0 {
		if img, err = presburger.NewUnionMap(loc).Apply(ev.h.u); err != nil {
			return nil, fmt.Errorf("%s: read %s: %w", x.Pos(), syntax.ExprString(x), err)
		}
	}
	// Each image pairs a piece of the location with every piece of the
	// array's contents in the heap.
	stored := heapPieces(ev.h.u, loc.Space().Out.Name)
	for _, lp := range loc.Pieces() {
		part, err := presburger.NewUnionMap(lp).Apply(ev.h.u)
		if err == nil {
			err = chargeBuiltUnion(ev.ctx, stored, part)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: read %s: %w", x.Pos(), syntax.ExprString(x), err)
		}
		parts = append(parts, part)
	}
	if len(parts) > 0 {
		if img, err = unionAll(parts); err == nil {
			err = chargeBuiltUnion(ev.ctx, 0, img)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: read %s: %w", x.Pos(), syntax.ExprString(x), err)
		}
	}
	if ms := img.Maps(); len(ms) == 1 && ms[0].NumBasics() > loc.NumBasics() {
		// The heap's pieces split the read further than its location
		// does: when the content is a function of the cell, read it
		// through that function (cellfn.go).
		if ev.fns == nil {
			ev.fns = map[*presburger.Map]cellFn{}
		}
		f, err := functionalRead(ev.ctx, ev.h, loc, ev.s.assumed, ev.fns)
		if err != nil {
			return nil, fmt.Errorf("%s: read %s: %w", x.Pos(), syntax.ExprString(x), err)
		}
		if f != nil && len(f.Maps()) == 1 {
			img = f
		}
	}
	if ms := img.Maps(); len(ms) == 1 && ms[0].NumBasics() > loc.NumBasics() {
		if ev.within == nil {
			if ev.within, err = ev.knownDomain(); err != nil {
				return nil, fmt.Errorf("%s: read %s: %w", x.Pos(), syntax.ExprString(x), err)
			}
		}
		m, err := readByLocation(ev.ctx, loc, parts, ms[0], ev.within)
		if err != nil {
			return nil, fmt.Errorf("%s: read %s: %w", x.Pos(), syntax.ExprString(x), err)
		}
		img = presburger.NewUnionMap(m)
	}
	if ms := img.Maps(); len(ms) == 1 && ms[0].NumBasics() > loc.NumBasics() && ev.fns != nil {
		// Still split by the heap's pieces: through a function of the
		// cell piecewise in the parameters (the last row tile's content
		// and the others'), when that gives fewer pieces. Both images
		// are exact wherever the read is defined.
		f, err := piecewiseRead(ev.ctx, ev.h, loc, ev.s.assumed, ev.fns)
		if err != nil {
			return nil, fmt.Errorf("%s: read %s: %w", x.Pos(), syntax.ExprString(x), err)
		}
		if f != nil && len(f.Maps()) == 1 && f.Maps()[0].NumBasics() < ms[0].NumBasics() {
			img = f
		}
	}
	var out []alternative
	for _, m := range img.Maps() {
		c := ev.cs.Lookup(m.Space().Out.Name)
		if c == nil {
			return nil, fmt.Errorf("%s: read %s: unknown context %s", x.Pos(), syntax.ExprString(x), m.Space().Out.Name)
		}
		set, err := respace(m, holeSpace(nil, "", c.Holes))
		if err != nil {
			return nil, err
		}
		if set.NumBasics() > loc.NumBasics() {
			// More pieces than the location has: the heap's pieces
			// split the read (the location's own pieces are its lets',
			// which seldom coalesce).
			if set, err = compactRead(ev.ctx, set); err != nil {
				return nil, fmt.Errorf("%s: read %s: %w", x.Pos(), syntax.ExprString(x), err)
			}
		}
		types := map[syntax.Expr]syntax.Type{}
		tmpl := rebuild(c.Expr, func(syntax.Expr) (syntax.Expr, bool) { return nil, false }, func(orig, cp syntax.Expr) {
			if t, ok := c.info.Types[orig]; ok {
				types[cp] = t
			}
		})
		out = append(out, alternative{tmpl: tmpl, types: types, holes: c.Holes, set: set})
	}
	return out, nil
}

// compactRead returns the points of one context's set of a read in fewer
// pieces when coalescing finds them: the same set, so the same value. A
// heap filled by overlapping tiles (each writing the cells it shares with
// its neighbour again) gives a read one piece per tile that can have
// written the cell, and the product of an expression's reads multiplies
// those pieces (productPieces). Coalescing is best effort: past
// coalesceSteps steps the set is coalesced a form at a time
// (coalesceFormsOf, heapform.go), or kept as it is.
func compactRead(ctx context.Context, set *presburger.Map) (*presburger.Map, error) {
	if set.NumBasics() < 2 {
		return set, nil
	}
	c, err := presburger.Coalesce(presburger.WithBudget(ctx, presburger.Budget{MaxSteps: coalesceSteps}), set)
	switch {
	case errors.Is(err, presburger.ErrBudget):
		// Too many pieces to coalesce at once: a form at a time.
		return coalesceFormsOf(ctx, set, false)
	case err != nil:
		return nil, err
	}
	return c, nil
}

// reads returns reads(e) (Clément 2022, Fig. 5.2): the union of the symbolic
// locations of the array accesses of e in scope s (but for those at
// data-dependent indices, whose conditions are dataread_conds.go's), each in the pieces
// that can occur under the scope's facts and assumptions (readLocation):
// every condition built from them is decided under both.
func reads(ctx context.Context, s *Scope, e syntax.Expr) (_ *presburger.UnionMap, err error) {
	return readsOf(ctx, s, e, nil)
}

// readsOf returns reads(e) restricted to the arrays named in arrays (all
// of them when arrays is nil), as reads computes it.
func readsOf(ctx context.Context, s *Scope, e syntax.Expr, arrays map[string]bool) (_ *presburger.UnionMap, err error) {
	defer guard(&err, "reads")
	var locs []*presburger.Map
	var walkErr error
	syntax.Inspect(e, func(x syntax.Expr) bool {
		if ix, ok := x.(*syntax.Index); ok && walkErr == nil && (arrays == nil || arrays[ix.Array.Name]) && !isDataRead(ix) {
			l, err := readLocation(ctx, s, ix)
			if err != nil {
				walkErr = err
				return false
			}
			locs = append(locs, l)
		}
		return walkErr == nil
	})
	if walkErr != nil {
		return nil, walkErr
	}
	return presburger.NewUnionMap(locs...), nil
}

// maxHoleSamples bounds the pieces of a set that a holeSampler samples.
const maxHoleSamples = 4

// holeSampleNodes bounds the linear programs of the search for each
// point of a holeSampler.
const holeSampleNodes = 4

// holeSampler holds points of a set, one from each of its first pieces,
// to rule out cheaply the pairs of holes that are not always equal (most
// of them: the 25 reads of a 5x5 stencil give 1,225 pairs, each an
// inclusion test over the whole set otherwise). A piece is sampled only
// once the points so far do not separate a pair (one point separates most
// of them). A piece that cannot be sampled within the budget gives no
// point: the inclusion test then decides.
type holeSampler struct {
	ctx    context.Context
	set    *presburger.Map
	basics []*presburger.BasicMap // set's pieces, once needed
	next   int                    // the next piece of set to sample
	points [][]presburger.Int
	tests  int // the exact tests that the points did not spare
	// testers hold, by piece of set, the tableau of its exact tests, once
	// needed (holesEqual).
	testers []*presburger.IneqTester
}

// differ reports whether columns i and k differ at one of the points,
// sampling more pieces as long as they do not.
func (hs *holeSampler) differ(i, k int) bool {
	if differAt(hs.points, i, k) {
		return true
	}
	for hs.next < hs.set.NumBasics() && hs.next < maxHoleSamples {
		if hs.basics == nil {
			hs.basics = hs.set.Basics()
		}
		b := hs.basics[hs.next]
		hs.next++
		p, err := b.SampleQuick(hs.ctx, holeSampleNodes)
		if err != nil || p == nil {
			continue
		}
		hs.points = append(hs.points, p)
		if differAt([][]presburger.Int{p}, i, k) {
			return true
		}
	}
	return false
}

// add adds the point p of the set (nil: none) to the points.
func (hs *holeSampler) add(p []presburger.Int) {
	if p != nil {
		hs.points = append(hs.points, p)
	}
}

// project records that column col of the set was projected out, leaving
// set: the points stay points without that column.
func (hs *holeSampler) project(col int, set *presburger.Map) {
	hs.points = dropColumn(hs.points, col)
	hs.set, hs.basics, hs.testers = set, nil, nil
}

// differAt reports whether columns i and k differ at one of the points.
func differAt(points [][]presburger.Int, i, k int) bool {
	for _, p := range points {
		if i < len(p) && k < len(p) && p[i].Cmp(p[k]) != 0 {
			return true
		}
	}
	return false
}

// dropColumn returns the points without column col.
func dropColumn(points [][]presburger.Int, col int) [][]presburger.Int {
	out := make([][]presburger.Int, 0, len(points))
	for _, p := range points {
		if col >= len(p) {
			continue
		}
		q := make([]presburger.Int, 0, len(p)-1)
		q = append(q, p[:col]...)
		out = append(out, append(q, p[col+1:]...))
	}
	return out
}

// holeDefinitions returns, for each piece of set (whose output
// dimensions are holes of a value), the holes that one of the piece's
// equalities defines as an affine function of the other columns: the
// function, as a key, by hole. An equality defines hole k when k is the
// only hole it mentions, with coefficient 1 or -1. Two holes with the same
// definition in a piece are equal on all of it.
func holeDefinitions(set *presburger.Map, holes int) []map[int]string {
	out := make([]map[int]string, 0, set.NumBasics())
	for _, b := range set.Basics() {
		defs := map[int]string{}
		first := b.Col(presburger.DimOut, 0)
		for _, e := range b.Eqs() {
			k := -1
			for h := 0; h < holes; h++ {
				if !e[first+h].IsZero() {
					if k >= 0 {
						k = -2
						break
					}
					k = h
				}
			}
			if k < 0 {
				continue
			}
			c := e[first+k]
			if !c.IsOne() && !c.Equal(presburger.NewInt(-1)) {
				continue
			}
			if _, ok := defs[k]; ok {
				continue
			}
			// hole k = -c * (the rest of the row), with c = ±1; the other
			// holes' columns are zero and left out, so that the key stays
			// the same when another hole is projected out.
			var sb strings.Builder
			for col, v := range e {
				if col >= first && col < first+holes {
					continue
				}
				if c.IsOne() {
					v = v.Neg()
				}
				sb.WriteString(v.String())
				sb.WriteByte(',')
			}
			defs[k] = sb.String()
		}
		out = append(out, defs)
	}
	return out
}

// dropHole returns the hole definitions of set, whose hole j was just
// projected out of the set defs describe. Projecting out a hole keeps
// every equality that does not mention it, so the other holes keep their
// definitions (renumbered past j), as long as the projection kept every
// piece; otherwise they are computed again.
func dropHole(defs []map[int]string, j int, set *presburger.Map, holes int) []map[int]string {
	if set.NumBasics() != len(defs) {
		return holeDefinitions(set, holes)
	}
	out := make([]map[int]string, len(defs))
	for p, d := range defs {
		nd := make(map[int]string, len(d))
		for k, key := range d {
			switch {
			case k < j:
				nd[k] = key
			case k > j:
				nd[k-1] = key
			}
		}
		out[p] = nd
	}
	return out
}

// defsAgree reports whether holes i and k have the same definition in
// every piece (see holeDefinitions): then they are equal on all of the
// set, without a test.
func defsAgree(defs []map[int]string, i, k int) bool {
	for _, d := range defs {
		di, iok := d[i]
		dk, kok := d[k]
		if !iok || !kok || di != dk {
			return false
		}
	}
	return true
}

// holesEqual reports whether holes i and k are equal on all of the
// sampler's set. The pieces where their definitions agree need no test;
// the others are tested for a point where the holes differ, those where
// the definitions differ first (the likeliest to have one), each on the
// piece's tester (one tableau per piece for all the pairs). When they
// differ, it returns the point of the set where they do that the test
// found, if it found one (nil otherwise): a point where many other pairs
// of holes differ too.
func (hs *holeSampler) holesEqual(defs []map[int]string, i, k int) (bool, []presburger.Int, error) {
	if hs.basics == nil {
		hs.basics = hs.set.Basics()
	}
	if hs.testers == nil {
		hs.testers = make([]*presburger.IneqTester, len(hs.basics))
	}
	var order []int
	for p := range hs.basics {
		di, iok := defs[p][i]
		dk, kok := defs[p][k]
		switch {
		case iok && kok && di == dk:
			// Equal by the piece's equalities.
		case iok && kok:
			order = append([]int{p}, order...)
		default:
			order = append(order, p)
		}
	}
	for _, p := range order {
		b := hs.basics[p]
		if hs.testers[p] == nil {
			hs.testers[p] = b.NewIneqTester()
		}
		for _, sign := range []int64{1, -1} {
			// sign*(hole i - hole k) >= 1: a point where they differ.
			row := b.NewRow()
			row[b.Col(presburger.DimOut, i)] = presburger.NewInt(sign)
			row[b.Col(presburger.DimOut, k)] = presburger.NewInt(-sign)
			row[b.ConstCol()] = presburger.NewInt(-1)
			empty, point, err := hs.testers[p].IsEmptyWith(hs.ctx, row)
			if err != nil || !empty {
				return false, point, err
			}
		}
	}
	return true, nil, nil
}

// fuseHoles fuses the holes of a that are equal at every point of its
// set: the later hole is renamed to the earlier one and its dimension
// projected out (exactly, since it is determined by the equality). Holes
// that the pieces' equalities define alike are equal without a test;
// holes that differ at a sample point are not; the others take an
// inclusion test.
func fuseHoles(ctx context.Context, a alternative) (alternative, error) {
	return fuseWith(ctx, a, &holeSampler{ctx: ctx, set: a.set})
}

// fuseWith is fuseHoles with the sampler of a's set, which counts the
// exact tests.
func fuseWith(ctx context.Context, a alternative, samples *holeSampler) (alternative, error) {
	// The holes' definitions: a look at every hole of every piece.
	if err := chargeBuilt(ctx, a.set.NumBasics()*a.holes); err != nil {
		return a, fmt.Errorf("fuse holes: %w", err)
	}
	defs := holeDefinitions(a.set, a.holes)
	for j := a.holes - 1; j >= 1; j-- {
		if err := ctx.Err(); err != nil {
			return a, fmt.Errorf("fuse holes: %w", err)
		}
		for i := 0; i < j; i++ {
			sp := a.set.Space()
			if !defsAgree(defs, i, j) {
				if samples.differ(sp.Col(presburger.DimOut, i), sp.Col(presburger.DimOut, j)) {
					continue // a point where the two holes differ: no inclusion test needed
				}
				samples.tests++
				eq, witness, err := samples.holesEqual(defs, i, j)
				if err != nil {
					return a, fmt.Errorf("fuse holes: %w", err)
				}
				if !eq {
					samples.add(witness)
					continue
				}
			}
			set, err := a.set.ProjectOut(presburger.DimOut, j, 1)
			if err == nil {
				err = chargeBuilt(ctx, 0, set)
			}
			if err != nil {
				return a, fmt.Errorf("fuse holes: %w", err)
			}
			types := map[syntax.Expr]syntax.Type{}
			tmpl := rebuild(a.tmpl, func(x syntax.Expr) (syntax.Expr, bool) {
				if id, ok := x.(*syntax.Ident); ok {
					if k, ok := holeIndex(id.Name); ok {
						switch {
						case k == j+1:
							k = i + 1
						case k > j+1:
							k--
						}
						return &syntax.Ident{Name: HoleName(k)}, true
					}
				}
				return nil, false
			}, func(orig, cp syntax.Expr) {
				if t, ok := a.types[orig]; ok {
					types[cp] = t
				}
			})
			col := sp.Col(presburger.DimOut, j)
			doms := a.doms
			if set.NumBasics() != a.set.NumBasics() {
				// Projecting out a hole maps the pieces one to one, in
				// order, but for those found empty: the domains no longer
				// correspond.
				doms = nil
			}
			uses := renumberUses(a.uses, fusedIndex(a.holes, i, j))
			a = alternative{tmpl: tmpl, types: types, holes: a.holes - 1, set: set, doms: doms, uses: uses}
			// A point of the set projects to a point of the projection:
			// the samples stay samples without hole j's column.
			samples.project(col, set)
			defs = dropHole(defs, j, a.set, a.holes)
			break
		}
	}
	return a, nil
}
