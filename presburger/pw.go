package presburger

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// PwPiece is one piece of a piecewise function: Func applies on the
// integer points of Domain (a conjunction in the function's domain space).
type PwPiece struct {
	Domain *BasicMap
	Func   *MultiAff
}

// PwMultiAff is a piecewise quasi-affine function (isl's pw_multi_aff): a
// finite list of pieces (D_i, f_i) with pairwise disjoint domains, denoting
// the partial function x -> f_i(x) for x in D_i, undefined outside the
// union of the D_i. Its space is the space of its graph: a relation space
// in -> out (the domain space is the set space of in), or a set space
// whose functions depend on the parameters only (the domain space is the
// parameter space).
type PwMultiAff struct {
	space  Space
	pieces []PwPiece
}

// NewPwMultiAff returns the piecewise function with the given pieces in
// function space sp. The domains must be pairwise disjoint; this is the
// caller's obligation and is not checked.
func NewPwMultiAff(sp Space, pieces ...PwPiece) (*PwMultiAff, error) {
	dom := sp.Domain()
	p := &PwMultiAff{space: sp.Copy()}
	for i, pc := range pieces {
		if pc.Domain.Space().Key() != dom.Key() || pc.Func.space.Key() != dom.Key() {
			return nil, fmt.Errorf("presburger: piece %d does not live on the domain %v", i, dom)
		}
		if pc.Func.out.Dim() != sp.NumOut() {
			return nil, fmt.Errorf("presburger: piece %d has %d outputs, want %d", i, pc.Func.out.Dim(), sp.NumOut())
		}
		p.pieces = append(p.pieces, PwPiece{Domain: pc.Domain.Copy(), Func: pc.Func})
	}
	return p, nil
}

// Space returns the space of the graph of p.
func (p *PwMultiAff) Space() Space { return p.space.Copy() }

// Pieces returns the pieces of p (domains are copies).
func (p *PwMultiAff) Pieces() []PwPiece {
	out := make([]PwPiece, len(p.pieces))
	for i, pc := range p.pieces {
		out[i] = PwPiece{Domain: pc.Domain.Copy(), Func: pc.Func}
	}
	return out
}

// NumPieces returns the number of pieces of p.
func (p *PwMultiAff) NumPieces() int { return len(p.pieces) }

// Domain returns the set of points where p is defined: the union of the
// piece domains (in the domain space, a parameter space for a function of
// the parameters).
func (p *PwMultiAff) Domain() *Map {
	bs := make([]*BasicMap, len(p.pieces))
	for i, pc := range p.pieces {
		bs[i] = pc.Domain
	}
	return NewMap(p.space.Domain(), bs...)
}

// Eval returns p(x) at the integer point x = [params | domain dims] and
// whether p is defined there. Membership in a domain with plain existential
// locals is decided exactly with an emptiness test.
func (p *PwMultiAff) Eval(ctx context.Context, x []Int) ([]Int, bool, error) {
	for _, pc := range p.pieces {
		in, err := pwContains(ctx, pc.Domain, x)
		if err != nil {
			return nil, false, err
		}
		if in {
			v, err := pc.Func.Eval(x)
			return v, err == nil, err
		}
	}
	return nil, false, nil
}

// pwContains reports whether the point x (values of the parameter and
// dimension columns) belongs to b.
func pwContains(ctx context.Context, b *BasicMap, x []Int) (bool, error) {
	nd := b.NumParams() + b.NumIn() + b.NumOut()
	if len(x) != nd {
		return false, fmt.Errorf("presburger: point has %d coordinates, want %d", len(x), nd)
	}
	if b.KnownEmpty() {
		return false, nil
	}
	nl := b.NumLocals()
	v := make([]Int, nd+nl+1)
	copy(v, x)
	v[len(v)-1] = NewInt(1)
	for i := 0; i < nl; i++ {
		num, den := b.Local(i)
		if den.IsZero() {
			// A plain existential: decide by emptiness with the point fixed.
			c := b.Copy()
			for j := 0; j < nd; j++ {
				e := make([]Int, c.NumCols())
				e[j] = NewInt(1)
				e[len(e)-1] = x[j].Neg()
				c.AddEq(e)
			}
			empty, err := c.IsEmpty(ctx)
			return !empty, err
		}
		v[nd+i] = affDot(num, v).FloorDiv(den)
	}
	for _, e := range b.Eqs() {
		if !affDot(e, v).IsZero() {
			return false, nil
		}
	}
	for _, r := range b.Ineqs() {
		if affDot(r, v).Sign() < 0 {
			return false, nil
		}
	}
	return true, nil
}

// ToMap returns the graph of p: { x -> p(x) : x in dom(p) } (for a
// function of the parameters, the set { p() }).
func (p *PwMultiAff) ToMap() *Map {
	var bs []*BasicMap
	for _, pc := range p.pieces {
		bs = append(bs, pwPieceGraph(p.space, pc))
	}
	return NewMap(p.space, bs...)
}

// pwPieceGraph returns the conjunction { x -> f(x) : x in D } in space sp.
func pwPieceGraph(sp Space, pc PwPiece) *BasicMap {
	nP, nI := sp.NumParams(), sp.NumIn()
	g := NewBasicMap(sp)
	d := pc.Domain
	nd := nP + nI
	// Domain column i maps to graph column i (params, in); locals follow.
	dcols := make([]int, 0, d.NumCols())
	for i := 0; i < nd; i++ {
		dcols = append(dcols, i)
	}
	conv := func(r []Int) []Int {
		out := make([]Int, g.NumCols())
		for i, c := range r[:len(r)-1] {
			if !c.IsZero() {
				out[dcols[i]] = c
			}
		}
		out[len(out)-1] = r[len(r)-1]
		return out
	}
	for i := 0; i < d.NumLocals(); i++ {
		num, den := d.Local(i)
		var idx int
		if den.IsZero() {
			idx = g.AddExistential()
		} else {
			idx = g.AddLocalDiv(conv(num), den)
		}
		dcols = append(dcols, g.NumCols()-1-g.NumLocals()+idx)
	}
	for _, e := range d.Eqs() {
		g.AddEq(conv(e))
	}
	for _, r := range d.Ineqs() {
		g.AddIneq(conv(r))
	}
	dimCols := make([]int, nd)
	for i := range dimCols {
		dimCols[i] = i
	}
	for i, a := range pc.Func.affs {
		// The row has g's current width, constant last.
		e := affExprIntoBasic(g, a, dimCols)
		e[nd+i] = e[nd+i].Sub(NewInt(1))
		g.AddEq(e)
	}
	return g
}

// String returns p in isl notation, e.g.
// "[N] -> { A[i] -> [(i + 1)] : i >= 0; A[i] -> [(floor((i)/2))] : i < 0 }".
func (p *PwMultiAff) String() string {
	dom := p.space.Domain()
	names := affNames(dom)
	var b strings.Builder
	if len(dom.Params) > 0 {
		b.WriteString("[" + strings.Join(dom.Params, ", ") + "] -> ")
	}
	b.WriteString("{ ")
	if len(p.pieces) == 0 {
		// The empty function, in its space: "{ A[i] -> B[(0)] : false }".
		zeros := make([]string, p.space.Out.Dim())
		for i := range zeros {
			zeros[i] = "(0)"
		}
		b.WriteString(affPieceString(dom, names, p.space.Out, zeros, "false") + " }")
		return b.String()
	}
	for i, pc := range p.pieces {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(affPieceString(dom, names, p.space.Out, pc.Func.exprsString(names), pwCondString(pc.Domain, names)))
	}
	b.WriteString(" }")
	return b.String()
}

// pwCondString prints the constraints of a domain conjunction over the
// given names ("" when it has none). Existential locals are printed as
// "exists (e0, ...: ...)".
func pwCondString(d *BasicMap, names []string) string {
	cols := append([]string(nil), names...)
	var ex []string
	for i := 0; i < d.NumLocals(); i++ {
		num, den := d.Local(i)
		if den.IsZero() {
			n := fmt.Sprintf("e%d", len(ex))
			ex = append(ex, n)
			cols = append(cols, n)
			continue
		}
		nc := make([]string, len(num))
		copy(nc, cols)
		cols = append(cols, fmt.Sprintf("floor((%s)/%s)", affTermString(num, nc), den))
	}
	cols = append(cols, "")
	var parts []string
	for _, e := range d.Eqs() {
		parts = append(parts, pwRelString(e, cols, " = "))
	}
	for _, r := range d.Ineqs() {
		parts = append(parts, pwRelString(r, cols, " >= "))
	}
	s := strings.Join(parts, " and ")
	if len(ex) > 0 {
		if s == "" {
			s = "true"
		}
		return "exists (" + strings.Join(ex, ", ") + " : " + s + ")"
	}
	return s
}

// pwRelString prints row op 0 as "positive terms op negated negative terms".
func pwRelString(r []Int, cols []string, op string) string {
	pos, neg := make([]Int, len(r)), make([]Int, len(r))
	for i, c := range r {
		if c.Sign() > 0 {
			pos[i] = c
		} else if c.Sign() < 0 {
			neg[i] = c.Neg()
		}
	}
	return affTermString(pos, cols) + op + affTermString(neg, cols)
}

// pwLexCombine returns the piecewise lexicographic minimum (maximum if
// max) of a and b: on the intersection of their domains the smaller
// (larger) value, elsewhere the one that is defined.
//
// The intersections of the pieces' domains are tested first: a piece of
// a keeps, outside b's domain, what subtracting the pieces of b that meet
// it leaves (the others remove nothing, and subtracting them gave the
// same pieces after an emptiness test each); likewise for b.
func pwLexCombine(ctx context.Context, a, b *PwMultiAff, max bool) (*PwMultiAff, error) {
	res := &PwMultiAff{space: a.space.Copy()}
	// meet[i][j] is the intersection of the domains of a's piece i and
	// b's piece j, nil when it is empty.
	meet := make([][]*BasicMap, len(a.pieces))
	// A pair with opposite rows over the dimensions, no integer between
	// them, is disjoint without a test (sharedContradiction): the
	// parametric search splits its domains by a row and its negation.
	var cols []int
	if len(a.pieces) > 0 {
		cols = dimCols(a.pieces[0].Domain)
	}
	bRows := make([][]sharedRow, len(b.pieces))
	for j, pb := range b.pieces {
		bRows[j] = sharedRows(pb.Domain, cols, true)
	}
	for i, pa := range a.pieces {
		meet[i] = make([]*BasicMap, len(b.pieces))
		aRows := sharedRows(pa.Domain, cols, true)
		for j, pb := range b.pieces {
			if sharedContradiction(aRows, bRows[j]) {
				continue
			}
			d := pa.Domain.Intersect(pb.Domain)
			if empty, err := d.IsEmpty(ctx); err != nil {
				return nil, err
			} else if !empty {
				meet[i][j] = d
			}
		}
	}
	only := func(x, y *PwMultiAff, meets func(i, j int) bool) error {
		sp := y.Domain().Space()
		for i, pc := range x.pieces {
			var sub []*BasicMap
			for j, pd := range y.pieces {
				if meets(i, j) {
					sub = append(sub, pd.Domain)
				}
			}
			rest, err := NewMap(sp, pc.Domain).Subtract(ctx, NewMap(sp, sub...))
			if err != nil {
				return err
			}
			for _, d := range rest.Basics() {
				res.pieces = append(res.pieces, PwPiece{Domain: d, Func: pc.Func})
			}
		}
		return nil
	}
	if err := only(a, b, func(i, j int) bool { return meet[i][j] != nil }); err != nil {
		return nil, err
	}
	if err := only(b, a, func(i, j int) bool { return meet[j][i] != nil }); err != nil {
		return nil, err
	}
	for i, pa := range a.pieces {
		for j, pb := range b.pieces {
			d := meet[i][j]
			if d == nil {
				continue
			}
			n := pa.Func.out.Dim()
			// Where the first k0 expressions are the same, neither function
			// is strictly better at any k < k0: those regions are empty
			// (their inequality has no variables) and are not built.
			k0 := 0
			for k0 < n && affEqual(pa.Func.affs[k0], pb.Func.affs[k0]) {
				k0++
			}
			// Regions where a wins: a strictly better at k (k < n) or all equal.
			for k := k0; k <= n; k++ {
				for _, aWins := range []bool{true, false} {
					if k == n && !aWins {
						continue
					}
					// strictly better for the winner at k: winner < loser (min) or > (max).
					lt := aWins != max
					r, err := pwLexRegion(d, pa.Func, pb.Func, k, lt)
					if err != nil {
						return nil, err
					}
					if empty, err := r.IsEmpty(ctx); err != nil {
						return nil, err
					} else if empty {
						continue
					}
					f := pa.Func
					if !aWins {
						f = pb.Func
					}
					res.pieces = append(res.pieces, PwPiece{Domain: r, Func: f})
				}
			}
		}
	}
	return res, nil
}

// pwLexRegion returns the part of d where f_j = g_j for j < k and, if k <
// len(f), f_k < g_k (when lt) or f_k > g_k (otherwise).
func pwLexRegion(d *BasicMap, f, g *MultiAff, k int, lt bool) (*BasicMap, error) {
	r := d.Copy()
	nd := affDims(f.space)
	dimCols := make([]int, nd)
	for i := range dimCols {
		dimCols[i] = i
	}
	diff := func(j int) []Int {
		x := affExprIntoBasic(r, f.affs[j], dimCols)
		y := affExprIntoBasic(r, g.affs[j], dimCols)
		x = pad(x, r.NumCols())
		out := make([]Int, len(x))
		for i := range x {
			out[i] = x[i].Sub(y[i])
		}
		return out
	}
	for j := 0; j < k; j++ {
		r.AddEq(diff(j))
	}
	if k < len(f.affs) {
		e := diff(k) // f_k - g_k
		if lt {
			e = negRow(e)
		}
		e[len(e)-1] = e[len(e)-1].Sub(NewInt(1))
		r.AddIneq(e)
	}
	return r, nil
}

// ErrNotSingleValued is returned (wrapped) by PwMultiAffFromMap when the
// relation has two outputs for some input.
var ErrNotSingleValued = errors.New("presburger: relation is not single-valued")

// PwMultiAffFromMap returns the piecewise quasi-affine function whose
// graph is the single-valued relation m (for a set: the function of the
// parameters whose value is the set's only point). It computes the
// lexicographic minimum of m and fails with an error wrapping
// ErrNotSingleValued unless its graph equals m.
func PwMultiAffFromMap(ctx context.Context, m *Map) (_ *PwMultiAff, err error) {
	defer lxRecover("function from relation", &err)
	p, err := LexMin(ctx, m)
	if err != nil {
		return nil, fmt.Errorf("function from relation: %w", err)
	}
	eq, err := p.ToMap().IsEqual(ctx, m)
	if err != nil {
		return nil, fmt.Errorf("function from relation: %w", err)
	}
	if !eq {
		return nil, fmt.Errorf("function from %s: %w", m.Space(), ErrNotSingleValued)
	}
	return p, nil
}

// PwAff is a piecewise quasi-affine function with one output (isl's
// pw_aff): a PwMultiAff whose output tuple has a single dimension.
type PwAff struct {
	pw *PwMultiAff
}

// NewPwAff returns p as a PwAff; it fails unless p has exactly one output.
func NewPwAff(p *PwMultiAff) (*PwAff, error) {
	if p.space.NumOut() != 1 {
		return nil, fmt.Errorf("presburger: piecewise function with %d outputs is not a PwAff", p.space.NumOut())
	}
	return &PwAff{pw: p}, nil
}

// Component returns output i of p as a PwAff on the same pieces.
func (p *PwMultiAff) Component(i int) (*PwAff, error) {
	if i < 0 || i >= p.space.NumOut() {
		return nil, fmt.Errorf("presburger: component %d of a function with %d outputs", i, p.space.NumOut())
	}
	sp := p.space.Copy()
	sp.Out = FlatTuple(p.space.Out.Name, "")
	if !p.space.Out.IsNested() && len(p.space.Out.Dims) > i {
		sp.Out = FlatTuple(p.space.Out.Name, p.space.Out.Dims[i])
	}
	q := &PwMultiAff{space: sp}
	for _, pc := range p.pieces {
		f := &MultiAff{space: pc.Func.space, out: sp.Out.Copy(), affs: []*Aff{pc.Func.affs[i]}}
		q.pieces = append(q.pieces, PwPiece{Domain: pc.Domain, Func: f})
	}
	return &PwAff{pw: q}, nil
}

// MultiAff returns p as a PwMultiAff with one output.
func (p *PwAff) MultiAff() *PwMultiAff { return p.pw }

// Space returns the space of the graph of p.
func (p *PwAff) Space() Space { return p.pw.Space() }

// Domain returns the set where p is defined.
func (p *PwAff) Domain() *Map { return p.pw.Domain() }

// Eval returns p(x) and whether p is defined at x = [params | domain dims].
func (p *PwAff) Eval(ctx context.Context, x []Int) (Int, bool, error) {
	v, ok, err := p.pw.Eval(ctx, x)
	if err != nil || !ok {
		return Int{}, ok, err
	}
	return v[0], true, nil
}

// ToMap returns the graph of p.
func (p *PwAff) ToMap() *Map { return p.pw.ToMap() }

// String returns p in isl notation.
func (p *PwAff) String() string { return p.pw.String() }

// affEqual reports whether a and b are the same expression (same
// divisions, numerator and denominator); equal functions with different
// expressions are not detected.
func affEqual(a, b *Aff) bool {
	if a.space.Key() != b.space.Key() || !a.den.Equal(b.den) || !intsEqual(a.num, b.num) || len(a.divs) != len(b.divs) {
		return false
	}
	for i := range a.divs {
		if !a.divs[i].Den.Equal(b.divs[i].Den) || !intsEqual(a.divs[i].Num, b.divs[i].Num) {
			return false
		}
	}
	return true
}

func multiAffEqual(a, b *MultiAff) bool {
	if len(a.affs) != len(b.affs) {
		return false
	}
	for i := range a.affs {
		if !affEqual(a.affs[i], b.affs[i]) {
			return false
		}
	}
	return true
}

// Coalesce returns p with the pieces that carry the same expression
// merged: two such pieces become one when the union of their domains is a
// single conjunction (as in Coalesce), and repeated divisions and
// constraints are dropped. The function is
// unchanged and the domains stay pairwise disjoint.
func (p *PwMultiAff) Coalesce(ctx context.Context) (_ *PwMultiAff, err error) {
	defer lxRecover("coalesce a piecewise function", &err)
	res := &PwMultiAff{space: p.space.Copy()}
	done := make([]bool, len(p.pieces))
	dom := p.space.Domain()
	for i, pc := range p.pieces {
		if done[i] {
			continue
		}
		group := []*BasicMap{pwDedupDivs(pc.Domain)}
		for j := i + 1; j < len(p.pieces); j++ {
			if !done[j] && multiAffEqual(pc.Func, p.pieces[j].Func) {
				group = append(group, pwDedupDivs(p.pieces[j].Domain))
				done[j] = true
			}
		}
		// The domains are disjoint: only pairwise merges can apply.
		if len(group) > 1 {
			if group, err = coalesceDomains(ctx, dom, group); err != nil {
				return nil, err
			}
		}
		for _, b := range group {
			res.pieces = append(res.pieces, PwPiece{Domain: pwDedupDivs(b), Func: pc.Func})
		}
	}
	return res, nil
}

// coalesceDomains merges pairs of the domains bs whose union is one
// conjunction (coalesceMergeTab). The empty domains are dropped first, and
// the tests of the others run on their rational tableaux where that is
// exact, which the emptiness tests leave feasible: without them, every
// row's validity on a partner was decided by the Omega test.
func coalesceDomains(ctx context.Context, sp Space, bs []*BasicMap) ([]*BasicMap, error) {
	tabs := make(map[*BasicMap]*simplifier, len(bs))
	live := make([]*BasicMap, 0, len(bs))
	for _, b := range bs {
		if decided, e := quickIsEmpty(b); decided && e {
			continue
		}
		s := newSimplifier(newMeter(ctx), b)
		e, err := s.isEmpty()
		if err != nil {
			return nil, err
		}
		if e {
			continue
		}
		s.known = true
		tabs[b] = s
		live = append(live, b)
	}
	return coalesceMergeTab(ctx, sp, live, tabs)
}

// pwDedupDivs returns b with division locals that repeat an earlier
// division (same numerator and denominator) merged into it, and
// duplicate constraint rows dropped.
func pwDedupDivs(b *BasicMap) *BasicMap {
	nd := b.NumParams() + b.NumIn() + b.NumOut()
	nl := b.NumLocals()
	n := NewBasicMap(b.Space())
	// to maps b's columns (dims, locals) to n's columns, built as locals are kept.
	to := make([]int, 0, nd+nl)
	for i := 0; i < nd; i++ {
		to = append(to, i)
	}
	// A division with a constant numerator is a constant: its column maps
	// to the constant column, scaled by its value (cval).
	cval := map[int]Int{}
	conv := func(r []Int, width int) []Int {
		out := make([]Int, width)
		out[width-1] = r[len(r)-1]
		for i, c := range r[:len(r)-1] {
			if c.IsZero() {
				continue
			}
			if v, ok := cval[i]; ok {
				out[width-1] = out[width-1].Add(c.Mul(v))
				continue
			}
			out[to[i]] = out[to[i]].Add(c)
		}
		return out
	}
	for i := 0; i < nl; i++ {
		num, den := b.Local(i)
		if den.IsZero() {
			idx := n.AddExistential()
			to = append(to, nd+idx)
			continue
		}
		// num only refers to columns before local i, all mapped already.
		src := append(copyRow(num[:nd+i]), num[len(num)-1])
		cn := conv(src, n.NumCols())
		if isZeroRow(cn, len(cn)-1) {
			cval[nd+i] = cn[len(cn)-1].FloorDiv(den)
			to = append(to, -1)
			continue
		}
		idx := affLocalDiv(n, cn, den)
		to = append(to, nd+idx)
	}
	seen := map[string]bool{}
	key := func(kind string, r []Int) string {
		var k strings.Builder
		k.WriteString(kind)
		for _, v := range r {
			k.WriteByte(',')
			k.WriteString(v.String())
		}
		return k.String()
	}
	for _, e := range b.Eqs() {
		r := conv(e, n.NumCols())
		if k := key("e", r); !seen[k] {
			seen[k] = true
			n.AddEq(r)
		}
	}
	for _, q := range b.Ineqs() {
		r := conv(q, n.NumCols())
		if k := key("i", r); !seen[k] {
			seen[k] = true
			n.AddIneq(r)
		}
	}
	return n
}

// dimCols returns the columns of b's dimensions (parameters and tuples,
// not its locals): 0 to their number less one.
func dimCols(b *BasicMap) []int {
	cols := make([]int, b.nDims())
	for i := range cols {
		cols[i] = i
	}
	return cols
}
