package presburger

import (
	"context"
	"errors"
	"fmt"
)

// This file is the entry point of the lexicographic optimisation layer:
// LexMin and LexMax (and their Map and UnionMap forms) prepare one
// parametric integer program per conjunction (lexOptBasic: divisions of
// the parameters become context parameters, outputs fixed by equalities
// are eliminated, variables are oriented by a recession cone test), solve
// it with the tableau of lexopt_tableau.go, and combine the conjunctions'
// optima piecewise (pwLexCombine in pw.go) within the groups of
// conjunctions whose domains meet (lexopt_disjoint.go). Results are
// PwMultiAff values (aff.go, pw.go); subst.go builds substitution and the
// iterated update of symbolic heaps on top; gist.go and coalesce.go
// simplify representations.

// ErrUnbounded is returned (wrapped) by LexMin when the output of a
// relation is not bounded below in the lexicographic order (by LexMax:
// not bounded above), so that no lexicographic optimum exists.
//
// The integer points of one conjunction {y : A y + B p + c >= 0}, where y
// collects the output dimensions and the local variables and p the
// parameters and input dimensions, share one recession cone {r : A r >= 0}
// for every p where they are not empty (Meyer: the integer hull of a
// rational polyhedron has the polyhedron's recession cone). Boundedness
// of the lexicographic optimum of one conjunction therefore does not
// depend on p: either the optimum exists for every p where the
// conjunction is non-empty, or for none. In the second case (for a union:
// if any of its non-empty conjunctions is in that case) LexMin and LexMax
// fail with ErrUnbounded instead of returning a partial answer.
var ErrUnbounded = errors.New("presburger: lexicographic optimum is unbounded")

// ErrUnsupportedExistential is returned (wrapped) when a plain existential
// variable of a conjunction can move in both directions along a line of
// its solution set while the outputs stay fixed; the optimiser does not
// eliminate such lines. Divisions never cause it.
var ErrUnsupportedExistential = errors.New("presburger: existential variable unbounded in both directions")

// LexMin returns the lexicographic minimum of the relation m (of the set m)
// as a piecewise quasi-affine function: for every value of the parameters
// and every input tuple x in the domain of m, the function maps x to the
// lexicographically smallest y with x -> y in m; it is undefined exactly
// where m has no output for x. For a set the function is one of the
// parameters only (its domain space is a parameter space). The pieces of
// the result have pairwise disjoint domains.
//
// The computation is exact over the integers: Feautrier's parametric
// integer programming with a lexicographic dual simplex and Gomory cuts,
// which introduce floor divisions of the parameters and input dimensions.
// It fails with an error wrapping ErrUnbounded if the minimum does not
// exist (see ErrUnbounded), ErrBudget if the context's Budget is
// exceeded, or the context's error.
func LexMin(ctx context.Context, m *Map) (*PwMultiAff, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trMapLexMin, func(ctx context.Context) (*PwMultiAff, error) { return LexMin(ctx, m) }, m)
	}
	return lexOpt(ctx, m, false)
}

// LexMax returns the lexicographic maximum of the relation (or set) m as a
// piecewise quasi-affine function; see LexMin, with "smallest" replaced
// by "largest" and "below" by "above".
func LexMax(ctx context.Context, m *Map) (*PwMultiAff, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trMapLexMax, func(ctx context.Context) (*PwMultiAff, error) { return LexMax(ctx, m) }, m)
	}
	return lexOpt(ctx, m, true)
}

// LexMinMap returns the graph of LexMin(m): the subset of m relating every
// input tuple to its lexicographically smallest output only.
func LexMinMap(ctx context.Context, m *Map) (*Map, error) {
	p, err := LexMin(ctx, m)
	if err != nil {
		return nil, err
	}
	return p.ToMap(), nil
}

// LexMaxMap returns the graph of LexMax(m): the subset of m relating every
// input tuple to its lexicographically largest output only.
func LexMaxMap(ctx context.Context, m *Map) (*Map, error) {
	p, err := LexMax(ctx, m)
	if err != nil {
		return nil, err
	}
	return p.ToMap(), nil
}

// lexOpt computes the optimum of every conjunction of m and combines them.
func lexOpt(ctx context.Context, m *Map, max bool) (_ *PwMultiAff, err error) {
	defer lxRecover("lexicographic optimum", &err)
	if ctx == nil {
		ctx = context.Background()
	}
	g, err := lexOptGrouped(ctx, m, max)
	if err != nil {
		return nil, err
	}
	res := &PwMultiAff{space: pwFuncSpace(m.Space())}
	for _, o := range g.opts {
		res.pieces = append(res.pieces, o.pieces...)
	}
	if res.NumPieces() > 1 {
		// Merging pieces only simplifies the representation: it runs with
		// a small budget, and when that runs out the unmerged pieces are
		// kept.
		c, err := res.Coalesce(WithBudget(ctx, Budget{MaxSteps: lexCoalesceSteps}))
		switch {
		case err == nil:
			res = c
		case !errors.Is(err, ErrBudget):
			return nil, fmt.Errorf("lexicographic optimum: %w", err)
		}
	}
	return res, nil
}

// pwFuncSpace returns the space of functions whose graph lives in sp: sp
// itself (a relation in -> out, or for a set, a function of the
// parameters with values in the set's tuple).
func pwFuncSpace(sp Space) Space { return sp.Copy() }

// lexCoalesceSteps is the step budget of one emptiness test while the
// pieces of a lexicographic optimum are merged (an optional
// simplification).
const lexCoalesceSteps = 20000

// lxRecover turns a panic raised inside the package (a broken invariant)
// into an error, so that no panic escapes to the caller.
func lxRecover(op string, err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("presburger: %s: internal error: %v", op, r)
	}
}

// lexOptBasic computes the lexicographic optimum of one conjunction: it
// prepares the conjunction's parametric integer program (lxProblem, in
// lexopt_problem.go), solves it with the tableau and converts the
// solver's pieces.
//
// With echelon set, the variable locals are first brought to column
// echelon form over all constraints by unimodular transformations, so
// that the directions in which they move without touching any constraint
// become locals that no constraint mentions, and are dropped.
func lexOptBasic(ctx context.Context, mt *meter, b *BasicMap, max, echelon bool) (*PwMultiAff, error) {
	sp := b.Space()
	res := &PwMultiAff{space: pwFuncSpace(sp)}
	empty, err := b.IsEmpty(ctx)
	if err != nil {
		return nil, err
	}
	if empty {
		return res, nil
	}
	var q lxProblem
	q.init(b)
	q.projectEqualityLocals()
	if echelon {
		q.echelonLocals()
	}
	q.eliminateFixedOutputs()
	q.orderVariables(max)
	if err := q.orientVariables(ctx); err != nil {
		return nil, err
	}
	coefs, pars := q.tableauRows()
	s := &lxSolver{oracle: lxExactOracle, meter: mt}
	if err := s.solve(ctx, newLxTableau(len(q.vars), q.pctx, coefs, pars)); err != nil {
		return nil, err
	}
	dom := sp.Domain()
	for _, p := range s.pieces {
		piece, err := lxPieceToPw(dom, sp, p, q.outputs(p))
		if err != nil {
			return nil, err
		}
		res.pieces = append(res.pieces, piece)
	}
	return res, nil
}

// lxRat is the P-layout affine expression num / den.
type lxRat struct {
	num []Int
	den Int
}

// addScaled returns r + a*x.
func (r lxRat) addScaled(a Int, x lxRat) lxRat {
	l := Lcm(r.den, x.den)
	fr, fx := l.FloorDiv(r.den), l.FloorDiv(x.den).Mul(a)
	n := make([]Int, len(r.num))
	for i := range n {
		n[i] = r.num[i].Mul(fr).Add(x.num[i].Mul(fx))
	}
	g := l
	for _, v := range n {
		g = Gcd(g, v)
	}
	if !g.IsOne() && !g.IsZero() {
		for i := range n {
			n[i] = n[i].FloorDiv(g)
		}
		l = l.FloorDiv(g)
	}
	return lxRat{num: n, den: l}
}

// lxConeDecreases reports whether the cone {r : row . r >= 0 for all
// rows} has a point with r_0 = ... = r_{k-1} = 0 and r_k < 0.
func lxConeDecreases(ctx context.Context, rows [][]Int, k int) (bool, error) {
	if len(rows) == 0 {
		return true, nil
	}
	n := len(rows[0])
	b := NewBasicMap(SetSpace(nil, FlatTuple("", make([]string, n)...)))
	for _, r := range rows {
		b.AddIneq(append(copyRow(r), Int{}))
	}
	for i := 0; i < k; i++ {
		e := make([]Int, n+1)
		e[i] = NewInt(1)
		b.AddEq(e)
	}
	d := make([]Int, n+1)
	d[k] = NewInt(-1)
	d[n] = NewInt(-1)
	b.AddIneq(d)
	empty, err := b.IsEmpty(ctx)
	return !empty, err
}

// lxPieceToPw converts a solver piece into a piece of a PwMultiAff on the
// domain space dom of the relation space sp; output i is outs[i] (exact
// on the piece).
func lxPieceToPw(dom, sp Space, p lxPiece, outs []lxRat) (PwPiece, error) {
	nPar, nq := p.ctx.nPar, len(p.ctx.divs)
	db := NewBasicMap(dom)
	for i, d := range p.ctx.divs {
		db.AddLocalDiv(lxFromP(d.num, nPar, i), d.den)
	}
	for _, r := range p.ctx.ineqs {
		db.AddIneq(lxFromP(r, nPar, nq))
	}
	divs := make([]Div, nq)
	for i, d := range p.ctx.divs {
		divs[i] = Div{Num: lxFromP(d.num, nPar, nq), Den: d.den}
	}
	affs := make([]*Aff, len(outs))
	for i, o := range outs {
		num := lxFromP(o.num, nPar, nq)
		den := o.den
		// The value is an integer on the piece: reduce the fraction.
		g := den
		for _, v := range num {
			g = Gcd(g, v)
		}
		if !g.IsOne() && !g.IsZero() {
			for j := range num {
				num[j] = num[j].FloorDiv(g)
			}
			den = den.FloorDiv(g)
		}
		a, err := NewAff(dom, divs, num, den)
		if err != nil {
			return PwPiece{}, err
		}
		affs[i] = a.foldConstDivs().pruneDivs()
	}
	ma, err := NewMultiAff(dom, sp.Out, affs)
	if err != nil {
		return PwPiece{}, err
	}
	return PwPiece{Domain: pwDedupDivs(db), Func: ma}, nil
}

// foldConstDivs returns a with every division whose numerator is a
// constant replaced by its value.
func (a *Aff) foldConstDivs() *Aff {
	nd := affDims(a.space)
	w := nd + len(a.divs) + 1
	n := &Aff{space: a.space, num: copyRow(a.num), den: a.den}
	for _, d := range a.divs {
		n.divs = append(n.divs, Div{Num: copyRow(d.Num), Den: d.Den})
	}
	for i := range n.divs {
		d := n.divs[i]
		if !isZeroRow(d.Num, w-1) {
			continue
		}
		v := d.Num[w-1].FloorDiv(d.Den)
		col := nd + i
		fold := func(r []Int) {
			if !r[col].IsZero() {
				r[w-1] = r[w-1].Add(r[col].Mul(v))
				r[col] = Int{}
			}
		}
		fold(n.num)
		for j := i + 1; j < len(n.divs); j++ {
			fold(n.divs[j].Num)
		}
	}
	return n
}

// pruneDivs returns a without the divisions its value does not depend on.
func (a *Aff) pruneDivs() *Aff {
	nd := affDims(a.space)
	nq := len(a.divs)
	used := make([]bool, nq)
	for i := 0; i < nq; i++ {
		used[i] = !a.num[nd+i].IsZero()
	}
	for i := nq - 1; i >= 0; i-- {
		if !used[i] {
			continue
		}
		for j := 0; j < i; j++ {
			if !a.divs[i].Num[nd+j].IsZero() {
				used[j] = true
			}
		}
	}
	keep := []int{}
	for i, u := range used {
		if u {
			keep = append(keep, i)
		}
	}
	if len(keep) == nq {
		return a
	}
	cols := make([]int, 0, nd+len(keep)+1)
	for i := 0; i < nd; i++ {
		cols = append(cols, i)
	}
	for _, k := range keep {
		cols = append(cols, nd+k)
	}
	cols = append(cols, nd+nq)
	pick := func(r []Int) []Int {
		out := make([]Int, len(cols))
		for i, c := range cols {
			out[i] = r[c]
		}
		return out
	}
	n := &Aff{space: a.space, num: pick(a.num), den: a.den}
	for _, k := range keep {
		n.divs = append(n.divs, Div{Num: pick(a.divs[k].Num), Den: a.divs[k].Den})
	}
	return n
}

// LexMinUnion returns the union, over the maps of u, of the graphs of
// their lexicographic minima (LexMinMap of each map). Tuples of different
// spaces are not compared: as in the thesis' default order on named
// tuples, distinct names are unordered.
func LexMinUnion(ctx context.Context, u *UnionMap) (*UnionMap, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trUnionLexMin, func(ctx context.Context) (*UnionMap, error) { return LexMinUnion(ctx, u) }, u)
	}
	return lexOptUnion(ctx, u, false)
}

// LexMaxUnion is LexMinUnion with the lexicographic maximum.
func LexMaxUnion(ctx context.Context, u *UnionMap) (*UnionMap, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trUnionLexMax, func(ctx context.Context) (*UnionMap, error) { return LexMaxUnion(ctx, u) }, u)
	}
	return lexOptUnion(ctx, u, true)
}

func lexOptUnion(ctx context.Context, u *UnionMap, max bool) (*UnionMap, error) {
	var out []*Map
	for _, m := range u.Maps() {
		p, err := lexOpt(ctx, m, max)
		if err != nil {
			return nil, fmt.Errorf("in %s: %w", m.Space(), err)
		}
		out = append(out, p.ToMap())
	}
	return NewUnionMap(out...), nil
}

// lxExtGcd returns g = gcd(x, y) > 0 and s, t with s*x + t*y = g, for x
// and y not both zero.
func lxExtGcd(x, y Int) (g, s, t Int) {
	// Invariants: r0 = s0*x + t0*y, r1 = s1*x + t1*y.
	r0, r1 := x, y
	s0, s1 := NewInt(1), Int{}
	t0, t1 := Int{}, NewInt(1)
	for !r1.IsZero() {
		q := r0.FloorDiv(r1)
		r0, r1 = r1, r0.Sub(q.Mul(r1))
		s0, s1 = s1, s0.Sub(q.Mul(s1))
		t0, t1 = t1, t0.Sub(q.Mul(t1))
	}
	if r0.Sign() < 0 {
		return r0.Neg(), s0.Neg(), t0.Neg()
	}
	return r0, s0, t0
}

// lxCombineColumns changes the variables of columns p and q of every row
// of rows by a unimodular transformation such that, in row piv (one of
// rows), column q becomes zero and column p holds the gcd of the two
// former entries (p's entry must be nonzero or q's). With x, y the
// entries of piv, g = s x + t y their gcd, the old variables a, b are
// a = s u - (y/g) v and b = t u + (x/g) v, with u in column p and v in q.
func lxCombineColumns(piv []Int, p, q int, rows [][]Int) {
	x, y := piv[p], piv[q]
	g, sx, ty := lxExtGcd(x, y)
	yg, xg := y.FloorDiv(g), x.FloorDiv(g)
	for _, r := range rows {
		ra, rb := r[p], r[q]
		if ra.IsZero() && rb.IsZero() {
			continue
		}
		r[p] = ra.Mul(sx).Add(rb.Mul(ty))
		r[q] = rb.Mul(xg).Sub(ra.Mul(yg))
	}
}
