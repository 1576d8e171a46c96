package presburger

import (
	"context"
	"fmt"
)

// This file prepares the parametric integer program of one conjunction for
// the tableau of lexopt_tableau.go (the steps of lexOptBasic, in order):
// the locals are classified into division parameters of the context and
// variables, variable locals fixed by an equality are substituted away,
// outputs fixed by an equality are eliminated, the remaining variables are
// put in lexicographic priority and oriented by a recession cone test, and
// the rows are split between the tableau and the context. Once the
// tableau is solved, the outputs are read back from each piece.

// lxProblem is the parametric integer program of one conjunction while
// lexOptBasic prepares it. Columns are those of the conjunction:
// parameters and inputs (np), outputs (nO), locals (nL), the constant.
type lxProblem struct {
	np, nO, nL int
	nD         int // dimension columns before the locals: np + nO

	// pctx is the context: the parameter divisions, and the rows that
	// mention no variable.
	pctx *lxContext
	pcol []int // P column of a parameter division local, or -1
	vcol []int // variable index of a variable local, or -1

	eqs, ineqs [][]Int

	gone    []bool  // variable locals substituted away by an equality
	elim    [][]Int // y_k = elim[k] . columns for an eliminated output, or nil
	slot    []int   // column of the variable in output slot k, or -1
	claimed []bool  // locals standing for an eliminated output

	vars []int   // columns of the variables, in lexicographic priority
	sign []int64 // orientation of each variable
	nObj int     // the first nObj variables stand for outputs
	rows [][]Int // the constraints, each equality as two inequalities
}

// init reads the rows of the non-empty conjunction b into q and
// classifies its locals: divisions of the parameters and inputs only
// become division parameters of the context; the other locals are
// variables, and the divisions among them get their two defining
// inequalities.
func (q *lxProblem) init(b *BasicMap) {
	np := b.NumParams() + b.NumIn()
	nO, nL := b.NumOut(), b.NumLocals()
	*q = lxProblem{
		np: np, nO: nO, nL: nL, nD: np + nO,
		pctx: &lxContext{nPar: np},
		pcol: make([]int, nL),
		vcol: make([]int, nL),
	}
	q.classifyLocals(b)
	q.eqs, q.ineqs = b.Eqs(), b.Ineqs()
	q.addDivisionBounds(b)
}

// classifyLocals sets pcol and vcol: a local is a division parameter if it
// is a division whose numerator mentions no output and no variable local;
// such a division is added to the context in P layout.
func (q *lxProblem) classifyLocals(b *BasicMap) {
	np, nD := q.np, q.nD
	c := q.pctx
	nVar := q.nO
	for i := 0; i < q.nL; i++ {
		q.pcol[i], q.vcol[i] = -1, -1
		num, den := b.Local(i)
		isPar := !den.IsZero() && isZeroRow(num[np:nD], q.nO)
		for j := 0; j < i && isPar; j++ {
			if q.pcol[j] < 0 && !num[nD+j].IsZero() {
				isPar = false
			}
		}
		if !isPar {
			q.vcol[i] = nVar
			nVar++
			continue
		}
		pnum := make([]Int, 1+np+len(c.divs))
		pnum[0] = num[len(num)-1]
		copy(pnum[1:], num[:np])
		for j := 0; j < i; j++ {
			if q.pcol[j] >= 0 {
				pnum[q.pcol[j]] = num[nD+j]
			}
		}
		q.pcol[i] = 1 + np + len(c.divs)
		c.divs = append(c.divs, lxDiv{num: pnum, den: den})
	}
}

// addDivisionBounds adds to the inequalities the two defining rows of
// every division local that is a variable: num - den*q >= 0 and
// den*q - num + den - 1 >= 0.
func (q *lxProblem) addDivisionBounds(b *BasicMap) {
	nD := q.nD
	for i := 0; i < q.nL; i++ {
		num, den := b.Local(i)
		if q.vcol[i] < 0 || den.IsZero() {
			continue
		}
		lo := copyRow(num) // num - den*q >= 0
		lo[nD+i] = lo[nD+i].Sub(den)
		hi := negRow(num) // den*q - num + den - 1 >= 0
		hi[nD+i] = hi[nD+i].Add(den)
		hi[len(hi)-1] = hi[len(hi)-1].Add(den).Sub(NewInt(1))
		q.ineqs = append(q.ineqs, lo, hi)
	}
}

// parPart returns the P-layout part of a row: its constant, parameters
// and inputs, and parameter divisions.
func (q *lxProblem) parPart(r []Int) []Int {
	par := make([]Int, 1+q.np+len(q.pctx.divs))
	par[0] = r[len(r)-1]
	copy(par[1:], r[:q.np])
	for i := 0; i < q.nL; i++ {
		if q.pcol[i] >= 0 {
			par[q.pcol[i]] = r[q.nD+i]
		}
	}
	return par
}

// varPart returns the coefficients of a row on the variables, in priority
// order and with their orientation.
func (q *lxProblem) varPart(r []Int) []Int {
	out := make([]Int, len(q.vars))
	for v, col := range q.vars {
		out[v] = r[col].Mul(NewInt(q.sign[v]))
	}
	return out
}

// lxSubstitute returns r with column col eliminated by the equality e,
// whose coefficient a on col is 1 or -1 (r itself if r does not mention
// col).
func lxSubstitute(r []Int, col int, a Int, e []Int) []Int {
	if r[col].IsZero() {
		return r
	}
	return addScaled(r, r[col].Mul(a).Neg(), e)
}

// substitute eliminates column col from every equality and inequality
// with the equality e, whose coefficient a on col is 1 or -1.
func (q *lxProblem) substitute(col int, a Int, e []Int) {
	for k := range q.eqs {
		q.eqs[k] = lxSubstitute(q.eqs[k], col, a, e)
	}
	for k := range q.ineqs {
		q.ineqs[k] = lxSubstitute(q.ineqs[k], col, a, e)
	}
}

// projectEqualityLocals projects out the variable locals fixed by an
// equality. They are existential, so any unimodular change of variables
// among them, and the substitution of one with a unit coefficient,
// preserve the relation. In each equality the variable locals are first
// combined (extended Euclid) into a single one whose coefficient is their
// gcd; if that is one, the local is substituted away and marked gone.
func (q *lxProblem) projectEqualityLocals() {
	q.gone = make([]bool, q.nL)
	for ei := 0; ei < len(q.eqs); ei++ {
		var cols []int
		for i := 0; i < q.nL; i++ {
			if q.vcol[i] >= 0 && !q.gone[i] && !q.eqs[ei][q.nD+i].IsZero() {
				cols = append(cols, q.nD+i)
			}
		}
		if len(cols) == 0 {
			continue
		}
		for len(cols) > 1 {
			lxCombineColumns(q.eqs[ei], cols[0], cols[1], append(append([][]Int(nil), q.eqs...), q.ineqs...))
			cols = append(cols[:1], cols[2:]...)
		}
		col := cols[0]
		e := q.eqs[ei]
		a := e[col]
		if !a.Abs().IsOne() {
			continue
		}
		q.eqs = append(q.eqs[:ei:ei], q.eqs[ei+1:]...)
		q.substitute(col, a, e)
		q.gone[col-q.nD] = true
		ei = -1 // rescan: substitutions may expose new unit coefficients
	}
}

// echelonLocals brings the remaining variable locals to column echelon
// form over all constraints by unimodular transformations, so that the
// directions in which they move without touching any constraint become
// locals that no constraint mentions (which orderVariables then drops).
func (q *lxProblem) echelonLocals() {
	free := map[int]bool{}
	for i := 0; i < q.nL; i++ {
		if q.vcol[i] >= 0 && !q.gone[i] {
			free[q.nD+i] = true
		}
	}
	all := append(append([][]Int(nil), q.eqs...), q.ineqs...)
	for _, r := range all {
		var cols []int
		for i := 0; i < q.nL; i++ {
			if free[q.nD+i] && !r[q.nD+i].IsZero() {
				cols = append(cols, q.nD+i)
			}
		}
		for len(cols) > 1 {
			lxCombineColumns(r, cols[0], cols[1], all)
			cols = append(cols[:1], cols[2:]...)
		}
		if len(cols) == 1 {
			delete(free, cols[0])
		}
	}
}

// eliminateFixedOutputs eliminates the outputs fixed by an equality in
// terms of earlier variables and at most one fresh local, which then
// takes the output's place in the lexicographic order (the output is
// strictly monotone in it). It sets elim, slot and claimed.
func (q *lxProblem) eliminateFixedOutputs() {
	np, nD := q.np, q.nD
	q.elim = make([][]Int, q.nO)
	q.slot = make([]int, q.nO)
	q.claimed = make([]bool, q.nL)
	for k := 0; k < q.nO; k++ {
		q.slot[k] = np + k
		for ei, e := range q.eqs {
			a := e[np+k]
			if !a.Abs().IsOne() || !isZeroRow(e[np+k+1:nD], nD-np-k-1) {
				continue
			}
			fresh, ok := q.freshLocalOf(e)
			if !ok {
				continue
			}
			// y_k = -a * (e without y_k).
			ex := scaleRow(e, a.Neg())
			ex[np+k] = Int{}
			q.elim[k] = ex
			q.eqs = append(q.eqs[:ei:ei], q.eqs[ei+1:]...)
			q.substitute(np+k, a, e)
			q.slot[k] = -1
			if fresh >= 0 {
				q.claimed[fresh] = true
				q.slot[k] = nD + fresh
			}
			break
		}
	}
}

// freshLocalOf returns the one variable local, neither gone nor claimed,
// that the equality e mentions (-1 if none); ok is false if e mentions
// more than one.
func (q *lxProblem) freshLocalOf(e []Int) (fresh int, ok bool) {
	fresh = -1
	for i := 0; i < q.nL; i++ {
		if q.vcol[i] < 0 || q.gone[i] || q.claimed[i] || e[q.nD+i].IsZero() {
			continue
		}
		if fresh >= 0 {
			return fresh, false
		}
		fresh = i
	}
	return fresh, true
}

// used reports whether some equality or inequality mentions column col.
func (q *lxProblem) used(col int) bool {
	for _, r := range q.eqs {
		if !r[col].IsZero() {
			return true
		}
	}
	for _, r := range q.ineqs {
		if !r[col].IsZero() {
			return true
		}
	}
	return false
}

// orderVariables lists the variables in lexicographic priority: the
// outputs (or the locals standing for them), oriented for a minimum (for
// a maximum with max), then the other variable locals that some
// constraint mentions (a local no constraint mentions is a true
// existential and is dropped). It then builds rows.
func (q *lxProblem) orderVariables(max bool) {
	objSign := int64(1)
	if max {
		objSign = -1
	}
	for k := 0; k < q.nO; k++ {
		switch {
		case q.elim[k] == nil:
			q.vars = append(q.vars, q.np+k)
			q.sign = append(q.sign, objSign)
		case q.slot[k] >= 0:
			q.vars = append(q.vars, q.slot[k])
			q.sign = append(q.sign, objSign*int64(q.elim[k][q.slot[k]].Sign()))
		default:
			continue
		}
		q.nObj++
	}
	for i := 0; i < q.nL; i++ {
		if q.vcol[i] >= 0 && !q.claimed[i] && !q.gone[i] && q.used(q.nD+i) {
			q.vars = append(q.vars, q.nD+i)
			q.sign = append(q.sign, 1)
		}
	}
	for _, e := range q.eqs {
		q.rows = append(q.rows, e, negRow(e))
	}
	q.rows = append(q.rows, q.ineqs...)
}

// orientVariables orients the variables so that each is bounded below
// once the earlier ones are fixed. It fails with ErrUnbounded if an
// objective variable cannot be, and with ErrUnsupportedExistential if a
// local variable is unbounded in both directions.
func (q *lxProblem) orientVariables(ctx context.Context) error {
	for k := 0; k < len(q.vars); k++ {
		for attempt := 0; ; attempt++ {
			cone := make([][]Int, len(q.rows))
			for i, r := range q.rows {
				cone[i] = q.varPart(r)
			}
			dec, err := lxConeDecreases(ctx, cone, k)
			if err != nil {
				return err
			}
			if !dec {
				break
			}
			if k < q.nObj {
				return fmt.Errorf("output dimension %d: %w", k, ErrUnbounded)
			}
			if attempt > 0 {
				return fmt.Errorf("local variable: %w", ErrUnsupportedExistential)
			}
			q.sign[k] = -q.sign[k]
		}
	}
	return nil
}

// tableauRows splits the rows: a row that mentions a variable becomes a
// tableau row (its variable part in coefs, its P-layout part in pars); a
// row on the parameters only is added to the context, unless it is
// trivially true.
func (q *lxProblem) tableauRows() (coefs, pars [][]Int) {
	nVar := len(q.vars)
	for _, r := range q.rows {
		vp := q.varPart(r)
		par := q.parPart(r)
		if isZeroRow(vp, nVar) {
			if isZeroRow(par[1:], len(par)-1) && par[0].Sign() >= 0 {
				continue // trivially true
			}
			q.pctx.ineqs = append(q.pctx.ineqs, par)
			continue
		}
		coefs = append(coefs, vp)
		pars = append(pars, par)
	}
	return coefs, pars
}

// varIndex returns the index of the variable in column col, or -1.
func (q *lxProblem) varIndex(col int) int {
	for v, c := range q.vars {
		if c == col {
			return v
		}
	}
	return -1
}

// outputs returns the value of every output on the solver piece p, as a
// P-layout fraction: an output that stayed a variable is read from p, an
// eliminated one is evaluated from its equality.
func (q *lxProblem) outputs(p lxPiece) []lxRat {
	w := p.ctx.width()
	outs := make([]lxRat, q.nO)
	for k := 0; k < q.nO; k++ {
		if q.elim[k] == nil {
			outs[k] = q.value(p, w, outs, q.np+k)
			continue
		}
		ex := q.elim[k]
		acc := lxRat{num: make([]Int, w), den: NewInt(1)}
		acc.num[0] = ex[len(ex)-1]
		for col, a := range ex[:len(ex)-1] {
			if !a.IsZero() {
				acc = acc.addScaled(a, q.value(p, w, outs, col))
			}
		}
		outs[k] = acc
	}
	return outs
}

// value returns the value of column col on the solver piece p (of width
// w) as a P-layout fraction: a variable's value, a parameter division, a
// parameter or input, or an output already computed in outs.
func (q *lxProblem) value(p lxPiece, w int, outs []lxRat, col int) lxRat {
	if v := q.varIndex(col); v >= 0 {
		return lxRat{num: scaleRow(lxPad(p.vals[v], w), NewInt(q.sign[v])), den: p.dens[v]}
	}
	if col >= q.nD && q.pcol[col-q.nD] >= 0 {
		n := make([]Int, w)
		n[q.pcol[col-q.nD]] = NewInt(1)
		return lxRat{num: n, den: NewInt(1)}
	}
	if col < q.np {
		n := make([]Int, w)
		n[1+col] = NewInt(1)
		return lxRat{num: n, den: NewInt(1)}
	}
	return outs[col-q.np]
}
