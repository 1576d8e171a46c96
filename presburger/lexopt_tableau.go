package presburger

import (
	"context"
	"errors"
	"fmt"
)

// This file holds the parametric dual simplex tableau behind LexMin and
// LexMax: Feautrier's parametric integer programming (PIP) with Gomory
// cuts that introduce new floor divisions of the parameters.
//
// The problem solved is: given integer variables y (the optimisation
// variables, in lexicographic priority order) and parameters p, and
// constraints A y + B p + c >= 0, find for every integer p the
// lexicographically smallest integer y satisfying them. Every variable is
// shifted by a symbolic, arbitrarily large integer M (y = y' - M) so that
// the shifted variables y' are non-negative and the initial basis (all y'
// non-basic at 0) is lexicographically dual feasible. The caller guarantees
// (by a recession cone test) that the lexicographic minimum is bounded
// wherever the constraints have an integer solution; under that guarantee
// every variable row at a rational optimum has M coefficient exactly one,
// so M never enters a cut or a result.
//
// Parameter vectors ("P layout") are [1, p_1..p_n, q_1..q_k]: the
// constant, the original parameters, then the divisions q_i introduced by
// cuts. A tableau row stores its constant part as [M, P...].

// errLexUnboundedInternal is returned when a variable is still non-basic at
// an optimum, which means its minimum is unbounded; the cone test should
// have caught this first.
var errLexUnboundedInternal = errors.New("lexicographic optimum is unbounded")

// lxDiv is a floor division q = floor(num . P / den) of the parameter
// vector P (num in P layout over the columns that precede q).
type lxDiv struct {
	num []Int
	den Int
}

// lxContext is a conjunction of constraints on the parameters: every row
// (P layout) is >= 0, and divs defines the division parameters.
type lxContext struct {
	nPar  int // original parameters (P has 1 + nPar + len(divs) columns)
	divs  []lxDiv
	ineqs [][]Int
}

func (c *lxContext) width() int { return 1 + c.nPar + len(c.divs) }

func (c *lxContext) copy() *lxContext {
	n := &lxContext{nPar: c.nPar, divs: append([]lxDiv(nil), c.divs...)}
	n.ineqs = make([][]Int, len(c.ineqs))
	for i, r := range c.ineqs {
		n.ineqs[i] = lxPad(r, c.width())
	}
	return n
}

// withIneq returns a copy of c with the constraint row >= 0 added.
func (c *lxContext) withIneq(row []Int) *lxContext {
	w := c.width()
	for _, r := range c.ineqs {
		if intsEqual(lxPad(r, w), lxPad(row, w)) {
			return c.copy()
		}
	}
	n := c.copy()
	n.ineqs = append(n.ineqs, lxPad(row, c.width()))
	return n
}

// lxPad returns a copy of r extended with zeros to length n.
func lxPad(r []Int, n int) []Int {
	out := make([]Int, n)
	copy(out, r)
	return out
}

// lxOracle decides whether a parameter context has an integer point.
type lxOracle func(ctx context.Context, c *lxContext) (bool, error)

// lxRow is a basic variable v with den * v = coef . nonbasic + cst . [M, P].
//
// nonNeg records that the constant is known to be non-negative on the
// context; contexts only grow along a branch, so the fact stays true until
// the row itself changes.
type lxRow struct {
	v      int
	den    Int
	coef   []Int
	cst    []Int
	nonNeg bool
	// mixedGen is the context generation at which the constant was found
	// to take both signs (0: unknown).
	mixedGen int
}

func (r lxRow) copy() lxRow {
	return lxRow{v: r.v, den: r.den, coef: copyRow(r.coef), cst: copyRow(r.cst), nonNeg: r.nonNeg, mixedGen: r.mixedGen}
}

// lxTableau is the state of one branch of the parametric search.
type lxTableau struct {
	nVar   int     // optimisation variables 0..nVar-1, also the number of columns
	nextV  int     // next fresh variable id (slacks, cuts)
	rows   []lxRow // basic variables
	colVar []int   // variable at each column
	ctx    *lxContext
	ctxGen int // generation of ctx, renewed whenever a constraint is added
}

func (t *lxTableau) copy() *lxTableau {
	n := &lxTableau{nVar: t.nVar, nextV: t.nextV, colVar: append([]int(nil), t.colVar...), ctx: t.ctx.copy(), ctxGen: t.ctxGen}
	n.rows = make([]lxRow, len(t.rows))
	for i, r := range t.rows {
		n.rows[i] = r.copy()
	}
	return n
}

// lxPiece is one piece of a parametric solution: on the integer points of
// ctx, variable i equals vals[i] . P / dens[i] (exactly divisible).
type lxPiece struct {
	ctx  *lxContext
	vals [][]Int
	dens []Int
}

// lxSolver runs the parametric search under the budget of its meter.
type lxSolver struct {
	oracle lxOracle
	meter  *meter
	pieces []lxPiece
	gen    int // last context generation handed out
}

// restrict adds the constraint row >= 0 to the context of t.
func (s *lxSolver) restrict(t *lxTableau, row []Int) {
	t.ctx = t.ctx.withIneq(row)
	s.gen++
	t.ctxGen = s.gen
}

// ErrBudget is returned (wrapped) when an operation of this package exceeds
// the Budget carried by its context.
var ErrBudget = errors.New("presburger: budget exhausted")

func (s *lxSolver) tick(ctx context.Context) error {
	if err := s.meter.step(); err != nil {
		return fmt.Errorf("lexicographic optimisation: %w", err)
	}
	return nil
}

// newLxTableau builds the initial tableau: rows are the constraints
// coef . y + par . P >= 0 (par in P layout), expressed in y' = y + M.
func newLxTableau(nVar int, c *lxContext, coefs, pars [][]Int) *lxTableau {
	t := &lxTableau{nVar: nVar, nextV: nVar, ctx: c}
	t.colVar = make([]int, nVar)
	for j := range t.colVar {
		t.colVar[j] = j
	}
	w := c.width()
	for i := range coefs {
		cst := make([]Int, 1+w)
		sum := Int{}
		for _, a := range coefs[i] {
			sum = sum.Add(a)
		}
		cst[0] = sum.Neg()
		copy(cst[1:], pars[i])
		r := lxRow{v: t.nextV, den: NewInt(1), coef: copyRow(coefs[i]), cst: cst}
		t.nextV++
		lxNormalize(&r)
		t.rows = append(t.rows, r)
	}
	return t
}

// lxNormalize divides a row by the gcd of all its entries.
func lxNormalize(r *lxRow) {
	g := r.den
	for _, a := range r.coef {
		if g.IsOne() {
			return
		}
		g = Gcd(g, a)
	}
	for _, a := range r.cst {
		if g.IsOne() {
			return
		}
		g = Gcd(g, a)
	}
	if g.IsZero() || g.IsOne() {
		return
	}
	r.den = r.den.FloorDiv(g)
	for i, a := range r.coef {
		r.coef[i] = a.FloorDiv(g)
	}
	for i, a := range r.cst {
		r.cst[i] = a.FloorDiv(g)
	}
}

// lxSign classifies a row constant over the context.
type lxSign int

const (
	lxNonNeg lxSign = iota
	lxNeg
	lxNonPos // <= 0 everywhere, < 0 somewhere, = 0 somewhere
	lxMixed
)

// rowSign decides the sign of the constant of row r for all integer points
// of the context.
func (s *lxSolver) rowSign(ctx context.Context, t *lxTableau, r *lxRow) (lxSign, error) {
	if r.nonNeg {
		return lxNonNeg, nil
	}
	if r.mixedGen != 0 && r.mixedGen == t.ctxGen {
		return lxMixed, nil
	}
	sg, err := s.rowSignUncached(ctx, t, r)
	switch sg {
	case lxNonNeg:
		r.nonNeg = true
	case lxMixed:
		s.gen++
		if t.ctxGen == 0 {
			t.ctxGen = s.gen
		}
		r.mixedGen = t.ctxGen
	}
	return sg, err
}

func (s *lxSolver) rowSignUncached(ctx context.Context, t *lxTableau, r *lxRow) (lxSign, error) {
	if m := r.cst[0].Sign(); m != 0 {
		if m > 0 {
			return lxNonNeg, nil
		}
		return lxNeg, nil
	}
	par := r.cst[1:]
	if isZeroRow(par[1:], len(par)-1) {
		if par[0].Sign() >= 0 {
			return lxNonNeg, nil
		}
		return lxNeg, nil
	}
	// Can the constant be negative (<= -1)?
	neg := negRow(par)
	neg[0] = neg[0].Sub(NewInt(1))
	empty, err := s.oracle(ctx, t.ctx.withIneq(neg))
	if err != nil {
		return 0, err
	}
	if empty {
		return lxNonNeg, nil
	}
	// Can it be positive (>= 1)? If not, it is <= 0 everywhere.
	pos := copyRow(par)
	pos[0] = pos[0].Sub(NewInt(1))
	empty, err = s.oracle(ctx, t.ctx.withIneq(pos))
	if err != nil {
		return 0, err
	}
	if !empty {
		return lxMixed, nil
	}
	// Is it ever zero?
	empty, err = s.oracle(ctx, t.ctx.withIneq(par))
	if err != nil {
		return 0, err
	}
	if empty {
		return lxNeg, nil
	}
	return lxNonPos, nil
}

// colEntry returns the entry of column j in the lexicographic objective
// row of variable v, as a numerator over the returned denominator.
func (t *lxTableau) colEntry(v, j int, rowOf []int) (Int, Int) {
	if r := rowOf[v]; r >= 0 {
		return t.rows[r].coef[j], t.rows[r].den
	}
	if t.colVar[j] == v {
		return NewInt(1), NewInt(1)
	}
	return Int{}, NewInt(1)
}

func (t *lxTableau) rowIndex() []int {
	rowOf := make([]int, t.nVar)
	for i := range rowOf {
		rowOf[i] = -1
	}
	for i, r := range t.rows {
		if r.v < t.nVar {
			rowOf[r.v] = i
		}
	}
	return rowOf
}

// pivotColumn chooses, for a row with a negative constant, the column with
// a positive coefficient whose objective column divided by that
// coefficient is lexicographically smallest; -1 if there is none.
func (t *lxTableau) pivotColumn(r int) int {
	row := &t.rows[r]
	rowOf := t.rowIndex()
	best := -1
	for j := 0; j < t.nVar; j++ {
		if row.coef[j].Sign() <= 0 {
			continue
		}
		if best < 0 {
			best = j
			continue
		}
		// Compare col_j / a_j with col_best / a_best.
		aj, ab := row.coef[j], row.coef[best]
		for v := 0; v < t.nVar; v++ {
			ej, _ := t.colEntry(v, j, rowOf)
			eb, _ := t.colEntry(v, best, rowOf)
			c := ej.Mul(ab).Cmp(eb.Mul(aj))
			if c < 0 {
				best = j
				break
			}
			if c > 0 {
				break
			}
		}
	}
	return best
}

// pivot exchanges the basic variable of row r with the non-basic variable
// of column j.
func (t *lxTableau) pivot(r, j int) {
	pr := t.rows[r]
	a := pr.coef[j]
	// New row for the entering variable.
	nr := lxRow{v: t.colVar[j], den: a, coef: make([]Int, t.nVar), cst: make([]Int, len(pr.cst))}
	for k := range pr.coef {
		if k == j {
			nr.coef[k] = pr.den
		} else {
			nr.coef[k] = pr.coef[k].Neg()
		}
	}
	for k := range pr.cst {
		nr.cst[k] = pr.cst[k].Neg()
	}
	if a.Sign() < 0 {
		lxNegateRow(&nr)
	}
	lxNormalize(&nr)
	for i := range t.rows {
		if i == r {
			continue
		}
		row := &t.rows[i]
		b := row.coef[j]
		if b.IsZero() {
			continue
		}
		row.nonNeg = false
		row.mixedGen = 0
		row.den = row.den.Mul(a)
		for k := range row.coef {
			if k == j {
				row.coef[k] = b.Mul(pr.den)
			} else {
				row.coef[k] = row.coef[k].Mul(a).Sub(b.Mul(pr.coef[k]))
			}
		}
		for k := range row.cst {
			row.cst[k] = row.cst[k].Mul(a).Sub(b.Mul(pr.cst[k]))
		}
		if a.Sign() < 0 {
			lxNegateRow(row)
		}
		lxNormalize(row)
	}
	t.colVar[j] = pr.v
	t.rows[r] = nr
}

func lxNegateRow(r *lxRow) {
	r.den = r.den.Neg()
	for k := range r.coef {
		r.coef[k] = r.coef[k].Neg()
	}
	for k := range r.cst {
		r.cst[k] = r.cst[k].Neg()
	}
}

// addDiv adds the division floor(num . P / den) to the context (reusing an
// identical one) and returns its column in the P layout.
func (t *lxTableau) addDiv(num []Int, den Int) int {
	w := t.ctx.width()
	for i, d := range t.ctx.divs {
		if d.den.Equal(den) && intsEqual(lxPad(d.num, w), lxPad(num, w)) {
			return 1 + t.ctx.nPar + i
		}
	}
	t.ctx.divs = append(t.ctx.divs, lxDiv{num: lxPad(num, w), den: den})
	for i := range t.ctx.ineqs {
		t.ctx.ineqs[i] = lxPad(t.ctx.ineqs[i], w+1)
	}
	for i := range t.rows {
		t.rows[i].cst = lxPad(t.rows[i].cst, w+2)
	}
	return w
}

// addCut adds the parametric Gomory cut derived from row r, whose constant
// is not integral for some parameter values.
func (t *lxTableau) addCut(r int) error {
	row := t.rows[r]
	d := row.den
	if !row.cst[0].Mod(d).IsZero() {
		return errLexUnboundedInternal
	}
	par := row.cst[1:]
	g := make([]Int, len(par))
	for i, b := range par {
		g[i] = b.Neg().Mod(d)
	}
	cst := make([]Int, len(row.cst))
	if !isZeroRow(g[1:], len(g)-1) {
		q := t.addDiv(g, d)
		cst = make([]Int, 1+t.ctx.width())
		cst[1+q] = d
	}
	for i, v := range g {
		cst[1+i] = cst[1+i].Sub(v)
	}
	row = t.rows[r]
	coef := make([]Int, t.nVar)
	for k, a := range row.coef {
		coef[k] = a.Mod(d)
	}
	nr := lxRow{v: t.nextV, den: d, coef: coef, cst: cst}
	t.nextV++
	lxNormalize(&nr)
	t.rows = append(t.rows, nr)
	return nil
}

// nonIntegralRow returns the row of the first variable, in lexicographic
// priority, whose value is not an integer for some integer point of the
// context, or -1.
//
// The choice is the rule under which Gomory's argument proves that the
// lexicographic dual simplex with cuts terminates (the cut comes from the
// first fractional component of the solution), and it does not depend on
// the order of the tableau's rows. Cutting instead on the first
// fractional row in tableau order (which follows the order of the input
// constraints and the pivots) can take a long series of weak cuts, each
// adding a division of the previous one: one conjunction of the
// compiler's tile bounds took fifteen cuts and nested divisions with its
// rows in one order, two in another.
func (s *lxSolver) nonIntegralRow(ctx context.Context, t *lxTableau) (int, error) {
	for _, i := range t.rowIndex() {
		if i < 0 {
			continue // non-basic: at zero, an integer
		}
		r := t.rows[i]
		if r.den.IsOne() {
			continue
		}
		frac := false
		for _, c := range r.cst[1:] {
			if !c.Mod(r.den).IsZero() {
				frac = true
				break
			}
		}
		if !frac {
			continue
		}
		// Is num mod den >= 1 possible in the context?
		c := t.ctx.copy()
		w := c.width()
		num := lxPad(r.cst[1:], w)
		c.divs = append(c.divs, lxDiv{num: num, den: r.den})
		row := lxPad(num, w+1)
		row[w] = r.den.Neg()
		row[0] = row[0].Sub(NewInt(1))
		for k := range c.ineqs {
			c.ineqs[k] = lxPad(c.ineqs[k], w+1)
		}
		c.ineqs = append(c.ineqs, row)
		empty, err := s.oracle(ctx, c)
		if err != nil {
			return -1, err
		}
		if !empty {
			return i, nil
		}
	}
	return -1, nil
}

// solve explores the branch t, appending its pieces to s.pieces.
func (s *lxSolver) solve(ctx context.Context, t *lxTableau) error {
	for {
		if err := s.tick(ctx); err != nil {
			return err
		}
		mixed := -1
		pivoted := false
		for i := range t.rows {
			sg, err := s.rowSign(ctx, t, &t.rows[i])
			if err != nil {
				return err
			}
			if sg == lxNeg || sg == lxNonPos {
				// A pivot on a row whose constant is zero for some
				// parameters is degenerate there: the solution does not
				// change. This avoids splitting on cuts.
				j := t.pivotColumn(i)
				if j < 0 {
					if sg == lxNeg {
						return nil // no integer point in this context
					}
					// Feasible only where the constant is zero.
					s.restrict(t, t.rows[i].cst[1:])
					t.rows[i].nonNeg = true
					pivoted = true
					break
				}
				t.pivot(i, j)
				pivoted = true
				break
			}
			if sg == lxMixed && mixed < 0 {
				mixed = i
			}
		}
		if pivoted {
			continue
		}
		if mixed >= 0 {
			par := t.rows[mixed].cst[1:]
			pos := t.copy()
			s.restrict(pos, par)
			pos.rows[mixed].nonNeg = true
			if err := s.solve(ctx, pos); err != nil {
				return err
			}
			neg := negRow(par)
			neg[0] = neg[0].Sub(NewInt(1))
			s.restrict(t, neg)
			// The row is now negative on the whole context.
			j := t.pivotColumn(mixed)
			if j < 0 {
				return nil
			}
			t.pivot(mixed, j)
			continue
		}
		r, err := s.nonIntegralRow(ctx, t)
		if err != nil {
			return err
		}
		if r >= 0 {
			if err := t.addCut(r); err != nil {
				return err
			}
			continue
		}
		return s.record(ctx, t)
	}
}

// record stores the optimum of a feasible, integral branch.
func (s *lxSolver) record(ctx context.Context, t *lxTableau) error {
	empty, err := s.oracle(ctx, t.ctx)
	if err != nil || empty {
		return err
	}
	rowOf := t.rowIndex()
	p := lxPiece{ctx: t.ctx.copy(), vals: make([][]Int, t.nVar), dens: make([]Int, t.nVar)}
	for v := 0; v < t.nVar; v++ {
		r := rowOf[v]
		if r < 0 {
			return errLexUnboundedInternal
		}
		row := t.rows[r]
		if !row.cst[0].Equal(row.den) {
			return errLexUnboundedInternal
		}
		p.vals[v] = copyRow(row.cst[1:])
		p.dens[v] = row.den
	}
	s.pieces = append(s.pieces, p)
	return nil
}
