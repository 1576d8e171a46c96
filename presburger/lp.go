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
	// Variables: x+ (nv), x- (nv), slacks (one per inequality), and
	// artificials for the rows not satisfied at x = 0. Row i:
	// coef·(x+ - x-) - s_i = -c_i (inequality) or coef·(x+ - x-) = -c_i
	// (equality), sign-normalised so that rhs >= 0. An inequality with
	// c_i >= 0 starts with its slack basic and needs no artificial.
	nr := len(eqs) + len(ineqs)
	ns := len(ineqs)
	nx := 2 * nv
	needArt := make([]bool, nr)
	na := 0
	for i := 0; i < nr; i++ {
		if i < len(eqs) {
			needArt[i] = !isZeroRow(eqs[i], nv) || !eqs[i][nv].IsZero()
		} else {
			needArt[i] = ineqs[i-len(eqs)][nv].Sign() < 0
		}
		if needArt[i] {
			na++
		}
	}
	ncol := nx + ns + na + 1 // last column: rhs
	rhs := ncol - 1
	rows := make([][]Int, nr+1) // last row: phase-one objective
	basis := make([]int, nr)
	art := nx + ns
	for i := 0; i < nr; i++ {
		var src []Int
		slack := -1
		if i < len(eqs) {
			src = eqs[i]
		} else {
			src = ineqs[i-len(eqs)]
			slack = nx + (i - len(eqs))
		}
		r := make([]Int, ncol)
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
			basis[i] = art
			art++
		} else if slack >= 0 {
			basis[i] = slack // coefficient +1 after the negation above
		} else {
			basis[i] = -1 // 0 = 0: a redundant equality
		}
		rows[i] = r
	}
	// Objective w = sum of artificials, written as obj·y with obj[j] =
	// -sum_i rows[i][j] over rows with an artificial (non-artificial j),
	// and obj[rhs] = -sum of their rhs, so that w = -obj[rhs] at the
	// current basis.
	obj := make([]Int, ncol)
	for i := 0; i < nr; i++ {
		if !needArt[i] {
			continue
		}
		for j := 0; j < nx+ns; j++ {
			obj[j] = obj[j].Sub(rows[i][j])
		}
		obj[rhs] = obj[rhs].Sub(rows[i][rhs])
	}
	rows[nr] = obj
	// Each row r keeps its basic variable's coefficient positive; rows are
	// scaled independently (no common denominator), so a pivot only
	// touches rows with a nonzero entry in the entering column.
	for {
		if err := m.step(); err != nil {
			return lpResult{}, err
		}
		// Entering column: smallest index with negative reduced cost
		// (Bland's rule). Artificials never re-enter.
		enter := -1
		for j := 0; j < nx+ns; j++ {
			if obj[j].Sign() < 0 {
				enter = j
				break
			}
		}
		if enter < 0 {
			break
		}
		// Ratio test: min rhs_r / a_r over a_r > 0; ties by smallest basis index.
		leave := -1
		for r := 0; r < nr; r++ {
			a := rows[r][enter]
			if a.Sign() <= 0 || basis[r] < 0 {
				continue
			}
			if leave < 0 {
				leave = r
				continue
			}
			c := rows[r][rhs].Mul(rows[leave][enter]).Cmp(rows[leave][rhs].Mul(a))
			if c < 0 || (c == 0 && basis[r] < basis[leave]) {
				leave = r
			}
		}
		if leave < 0 {
			// The phase-one objective is bounded below by 0, so this cannot
			// happen; stop defensively.
			break
		}
		a := rows[leave][enter]
		p := rows[leave]
		for r := 0; r <= nr; r++ {
			if r == leave {
				continue
			}
			row := rows[r]
			f := row[enter]
			if f.IsZero() {
				continue
			}
			for j := 0; j < ncol; j++ {
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
		basis[leave] = enter
		obj = rows[nr]
	}
	// Phase-one optimum: w must be 0.
	if obj[rhs].Sign() != 0 {
		return lpResult{feasible: false}, nil
	}
	x := make([]Int, nv)
	dens := make([]Int, nv)
	for j := range dens {
		dens[j] = NewInt(1)
	}
	for r := 0; r < nr; r++ {
		b := basis[r]
		if b < 0 || b >= nx {
			continue
		}
		num, den := rows[r][rhs], rows[r][b]
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
	return lpResult{feasible: true, x: x, dens: dens}, nil
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
	nodes := 0
	var rec func(extra [][]Int, depth int) (bbResult, error)
	rec = func(extra [][]Int, depth int) (bbResult, error) {
		nodes++
		if nodes > maxNodes || depth > 4*nv+8 {
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
		return bbFeasible, nil
	}
	return rec(nil, 0)
}
