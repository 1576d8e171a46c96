package presburger

// This file holds an exact rational simplex (phase one only: feasibility
// and a feasible vertex) on an integer tableau with a common denominator
// (Edmonds/Bareiss integer pivoting: every division is exact), and a
// bounded branch-and-bound search for integer points built on it. Both are
// accelerators for the Omega test in empty.go: a rationally infeasible
// system has no integer point, a branch-and-bound search that finds an
// integer point proves feasibility, and one that closes every branch proves
// infeasibility. When the search exceeds its node limit the caller falls
// back to the Omega test, so termination never depends on boundedness.

// lpResult is the outcome of a rational feasibility test.
type lpResult struct {
	feasible bool
	// x[i]/dens[i] is a rational feasible point (when feasible).
	x    []Int
	dens []Int
}

// lpSolve decides whether { x rational : eqs·x = 0, ineqs·x >= 0 } is
// nonempty (rows have nv+1 entries, the last the constant) and returns a
// vertex-like point. It counts one meter step per pivot.
func lpSolve(m *meter, eqs, ineqs [][]Int, nv int) (lpResult, error) {
	nr := len(eqs) + len(ineqs)
	needArt := make([]bool, nr)
	na := lpMarkArtificials(eqs, ineqs, nv, needArt)
	ncol := 2*nv + len(ineqs) + na + 1 // last column: rhs
	t := lpTableau{
		nv: nv, nr: nr, nx: 2 * nv, ns: len(ineqs),
		ncol: ncol, rhs: ncol - 1,
		rows:  make([][]Int, nr+1),
		basis: make([]int, nr),
	}
	t.fillRows(eqs, ineqs, needArt)
	t.fillObjective(needArt)
	for {
		if err := m.step(); err != nil {
			return lpResult{}, err
		}
		enter := t.enteringColumn()
		if enter < 0 {
			break
		}
		leave := t.leavingRow(enter)
		if leave < 0 {
			// The phase-one objective is bounded below by 0, so this cannot
			// happen; stop defensively.
			break
		}
		t.pivot(leave, enter)
	}
	// Phase-one optimum: w must be 0.
	if t.rows[nr][t.rhs].Sign() != 0 {
		return lpResult{feasible: false}, nil
	}
	return t.vertex(), nil
}

// lpTableau is the phase-one simplex tableau of lpSolve. Variables: x+
// (nv), x- (nv), slacks (one per inequality), and artificials for the
// rows not satisfied at x = 0. Row i is coef·(x+ - x-) - s_i = -c_i (an
// inequality) or coef·(x+ - x-) = -c_i (an equality), sign-normalised so
// that rhs >= 0. An inequality with c_i >= 0 starts with its slack basic
// and needs no artificial.
type lpTableau struct {
	nv     int // original variables
	nr     int // constraint rows
	nx, ns int // columns of x+ and x- (2nv), of slacks
	ncol   int // columns, the rhs last
	rhs    int // the rhs column
	// rows holds the nr constraint rows, then the phase-one objective.
	// Each row keeps its basic variable's coefficient positive; rows are
	// scaled independently (no common denominator), so a pivot only
	// touches rows with a nonzero entry in the entering column.
	rows  [][]Int
	basis []int // basic variable of each row, or -1 for 0 = 0
}

// lpMarkArtificials sets needArt[i] for the rows (the equalities, then the
// inequalities) that need an artificial variable: a nontrivial equality,
// or an inequality not satisfied at x = 0. It returns their number.
func lpMarkArtificials(eqs, ineqs [][]Int, nv int, needArt []bool) int {
	na := 0
	for i := range needArt {
		if i < len(eqs) {
			needArt[i] = !isZeroRow(eqs[i], nv) || !eqs[i][nv].IsZero()
		} else {
			needArt[i] = ineqs[i-len(eqs)][nv].Sign() < 0
		}
		if needArt[i] {
			na++
		}
	}
	return na
}

// fillRows builds the constraint rows and their initial basis: the
// artificial variable where one is needed, otherwise the slack.
func (t *lpTableau) fillRows(eqs, ineqs [][]Int, needArt []bool) {
	nv, rhs := t.nv, t.rhs
	art := t.nx + t.ns
	for i := 0; i < t.nr; i++ {
		var src []Int
		slack := -1
		if i < len(eqs) {
			src = eqs[i]
		} else {
			src = ineqs[i-len(eqs)]
			slack = t.nx + (i - len(eqs))
		}
		r := make([]Int, t.ncol)
		for j := 0; j < nv; j++ {
			r[j] = src[j]
			r[nv+j] = src[j].Neg()
		}
		if slack >= 0 {
			r[slack] = NewInt(-1)
		}
		r[rhs] = src[nv].Neg()
		if r[rhs].Sign() < 0 || (slack >= 0 && !needArt[i]) {
			for j := range r {
				r[j] = r[j].Neg()
			}
		}
		if needArt[i] {
			r[art] = NewInt(1)
			t.basis[i] = art
			art++
		} else if slack >= 0 {
			t.basis[i] = slack // coefficient +1 after the negation above
		} else {
			t.basis[i] = -1 // 0 = 0: a redundant equality
		}
		t.rows[i] = r
	}
}

// fillObjective builds the phase-one objective w = sum of artificials,
// written as obj·y with obj[j] = -sum_i rows[i][j] over rows with an
// artificial (non-artificial j), and obj[rhs] = -sum of their rhs, so that
// w = -obj[rhs] at the current basis.
func (t *lpTableau) fillObjective(needArt []bool) {
	obj := make([]Int, t.ncol)
	for i := 0; i < t.nr; i++ {
		if !needArt[i] {
			continue
		}
		for j := 0; j < t.nx+t.ns; j++ {
			obj[j] = obj[j].Sub(t.rows[i][j])
		}
		obj[t.rhs] = obj[t.rhs].Sub(t.rows[i][t.rhs])
	}
	t.rows[t.nr] = obj
}

// enteringColumn returns the column that enters the basis: the smallest
// index with a negative reduced cost (Bland's rule), or -1 at the
// optimum. Artificials never re-enter.
func (t *lpTableau) enteringColumn() int {
	obj := t.rows[t.nr]
	for j := 0; j < t.nx+t.ns; j++ {
		if obj[j].Sign() < 0 {
			return j
		}
	}
	return -1
}

// leavingRow returns the row whose basic variable leaves when column
// enter enters, by the ratio test: the minimum of rhs_r / a_r over a_r > 0,
// ties broken by the smallest basic variable. It returns -1 if no row
// qualifies.
func (t *lpTableau) leavingRow(enter int) int {
	rows, rhs := t.rows, t.rhs
	leave := -1
	for r := 0; r < t.nr; r++ {
		a := rows[r][enter]
		if a.Sign() <= 0 || t.basis[r] < 0 {
			continue
		}
		if leave < 0 {
			leave = r
			continue
		}
		c := rows[r][rhs].Mul(rows[leave][enter]).Cmp(rows[leave][rhs].Mul(a))
		if c < 0 || (c == 0 && t.basis[r] < t.basis[leave]) {
			leave = r
		}
	}
	return leave
}

// pivot makes column enter basic in row leave, by integer (fraction-free)
// elimination of the column from every other row, objective included.
func (t *lpTableau) pivot(leave, enter int) {
	a := t.rows[leave][enter]
	p := t.rows[leave]
	for r := 0; r <= t.nr; r++ {
		if r == leave {
			continue
		}
		row := t.rows[r]
		f := row[enter]
		if f.IsZero() {
			continue
		}
		for j := 0; j < t.ncol; j++ {
			v := row[j]
			if !v.IsZero() {
				v = v.Mul(a)
			}
			if !p[j].IsZero() {
				v = v.Sub(f.Mul(p[j]))
			}
			row[j] = v
		}
		reduceRow(row)
	}
	t.basis[leave] = enter
}

// vertex returns the feasible point of the current basis, x = x+ - x-.
func (t *lpTableau) vertex() lpResult {
	nv := t.nv
	x := make([]Int, nv)
	dens := make([]Int, nv)
	for j := range dens {
		dens[j] = NewInt(1)
	}
	for r := 0; r < t.nr; r++ {
		b := t.basis[r]
		if b < 0 || b >= t.nx {
			continue
		}
		num, den := t.rows[r][t.rhs], t.rows[r][b]
		g := Gcd(num, den)
		if !g.IsZero() && !g.IsOne() {
			num, den = num.FloorDiv(g), den.FloorDiv(g)
		}
		j := b
		if b >= nv {
			j = b - nv
			num = num.Neg()
		}
		// x_j = x+_j - x-_j; at a vertex at most one of them is basic
		// and nonzero, but add to be safe.
		x[j] = x[j].Mul(den).Add(num.Mul(dens[j]))
		dens[j] = dens[j].Mul(den)
	}
	return lpResult{feasible: true, x: x, dens: dens}
}

// reduceRow divides a row by the gcd of its entries when they grow large.
func reduceRow(row []Int) {
	large := false
	for _, v := range row {
		if v.big != nil || v.small > 1<<20 || v.small < -(1<<20) {
			large = true
			break
		}
	}
	if !large {
		return
	}
	g := rowGcd(row, len(row))
	if g.IsZero() || g.IsOne() {
		return
	}
	for j := range row {
		row[j] = row[j].FloorDiv(g)
	}
}

// bbResult is the outcome of the bounded branch-and-bound search.
type bbResult int

const (
	bbFeasible bbResult = iota
	bbInfeasible
	bbUnknown // node limit reached
)

// branchAndBound searches for an integer point of { eqs·x = 0, ineqs·x >= 0 }
// exploring at most maxNodes LP relaxations.
func branchAndBound(m *meter, eqs, ineqs [][]Int, nv int, maxNodes int) (bbResult, error) {
	_, r, err := branchAndBoundPoint(m, eqs, ineqs, nv, maxNodes)
	return r, err
}

// branchAndBoundPoint is branchAndBound that also returns the integer point
// it found (the nv variables), when the result is bbFeasible.
func branchAndBoundPoint(m *meter, eqs, ineqs [][]Int, nv int, maxNodes int) ([]Int, bbResult, error) {
	return branchAndBoundPointDepth(m, eqs, ineqs, nv, maxNodes, 4*nv+8)
}

// branchAndBoundDepth is branchAndBound with the depth of the search
// bounded by maxDepth.
func branchAndBoundDepth(m *meter, eqs, ineqs [][]Int, nv, maxNodes, maxDepth int) (bbResult, error) {
	_, r, err := branchAndBoundPointDepth(m, eqs, ineqs, nv, maxNodes, maxDepth)
	return r, err
}

// branchAndBoundPointDepth is branchAndBoundPoint with the depth of the
// search bounded by maxDepth.
func branchAndBoundPointDepth(m *meter, eqs, ineqs [][]Int, nv, maxNodes, maxDepth int) ([]Int, bbResult, error) {
	nodes := 0
	var point []Int
	var rec func(extra [][]Int, depth int) (bbResult, error)
	rec = func(extra [][]Int, depth int) (bbResult, error) {
		nodes++
		if nodes > maxNodes || depth > maxDepth {
			return bbUnknown, nil
		}
		all := append(append([][]Int(nil), ineqs...), extra...)
		res, err := lpSolve(m, eqs, all, nv)
		if err != nil {
			return bbUnknown, err
		}
		if !res.feasible {
			return bbInfeasible, nil
		}
		// Branch on the first fractional coordinate.
		for j := 0; j < nv; j++ {
			if res.x[j].Mod(res.dens[j]).IsZero() {
				continue
			}
			fl := res.x[j].FloorDiv(res.dens[j])
			lo := make([]Int, nv+1) // fl - x_j >= 0
			lo[j], lo[nv] = NewInt(-1), fl
			hi := make([]Int, nv+1) // x_j - fl - 1 >= 0
			hi[j], hi[nv] = NewInt(1), fl.Add(NewInt(1)).Neg()
			unknown := false
			for _, b := range [][]Int{lo, hi} {
				r, err := rec(append(append([][]Int(nil), extra...), b), depth+1)
				if err != nil {
					return bbUnknown, err
				}
				switch r {
				case bbFeasible:
					return bbFeasible, nil
				case bbUnknown:
					unknown = true
				}
			}
			if unknown {
				return bbUnknown, nil
			}
			return bbInfeasible, nil
		}
		point = make([]Int, nv)
		for j := range point {
			point[j] = res.x[j].FloorDiv(res.dens[j])
		}
		return bbFeasible, nil
	}
	r, err := rec(nil, 0)
	if r != bbFeasible {
		point = nil
	}
	return point, r, err
}
