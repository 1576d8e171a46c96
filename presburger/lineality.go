package presburger

import "errors"

// This file finds the lines of an Omega test problem: the directions d
// with r·d = 0 for every inequality r (the lineality space of the
// rational polyhedron, when the problem has no equalities). Along such a
// direction the problem repeats: an integer point x is a solution exactly
// when x + t*d is, for every integer t. A problem whose rows involve
// large divisors (floor divisions by a few thousands) is often periodic
// in this way; the Omega test, which knows nothing of the period, then
// splits on bounds whose coefficients are the divisors, and the
// splinters multiply. Cutting the line to one period (cutLineality)
// bounds the direction exactly, and the problem becomes one the
// eliminations decide quickly (isl, likewise, separates the lineality
// space from the bounded directions before sampling).

// linealityDirection returns a primitive integer direction d (nv
// entries) with r·d = 0 for every row r of rows (each of nv coefficients
// and a constant), nonzero only on the variables some row uses, and the
// position j of d's entry of least absolute value among its nonzero
// ones; nil if the rows' coefficients have full column rank on the
// variables they use. Each pivot of the elimination counts one step.
func linealityDirection(m *meter, rows [][]Int, nv int) (d []Int, j int, err error) {
	live := make([]bool, nv)
	k := markLive(rows, live)
	if k == 0 {
		return nil, -1, nil
	}
	cols := make([]int, 0, k)
	for c, l := range live {
		if l {
			cols = append(cols, c)
		}
	}
	// The rows restricted to the live columns, brought to reduced row
	// echelon form by fraction-free row operations (each row kept
	// primitive).
	mat := make([][]Int, len(rows))
	for i, r := range rows {
		row := make([]Int, k)
		for a, c := range cols {
			row[a] = r[c]
		}
		mat[i] = row
	}
	pivCol := make([]int, 0, k) // pivCol[r]: the pivot column of row r
	isPiv := make([]bool, k)
	rank := 0
	for c := 0; c < k && rank < len(mat); c++ {
		best := -1
		for i := rank; i < len(mat); i++ {
			if !mat[i][c].IsZero() && (best < 0 || mat[i][c].Abs().Cmp(mat[best][c].Abs()) < 0) {
				best = i
			}
		}
		if best < 0 {
			continue
		}
		if err := m.step(); err != nil {
			return nil, -1, err
		}
		mat[rank], mat[best] = mat[best], mat[rank]
		pr := mat[rank]
		for i := range mat {
			if i == rank || mat[i][c].IsZero() {
				continue
			}
			a, b := pr[c], mat[i][c]
			g := Gcd(a, b)
			a, b = a.FloorDiv(g), b.FloorDiv(g)
			row := mat[i]
			for x := range row {
				row[x] = a.Mul(row[x]).Sub(b.Mul(pr[x]))
			}
			primitive(row)
		}
		pivCol = append(pivCol, c)
		isPiv[c] = true
		rank++
	}
	if rank == k {
		return nil, -1, nil
	}
	// One direction per free column f: d_f = L and, for the pivot row r
	// of column c, d_c = -L * mat[r][f] / mat[r][c], with L the least
	// multiple making every entry integral. The one whose least nonzero
	// entry is smallest is kept (an entry ±1 makes the cut an equality).
	var bestD []Int
	bestJ := -1
	for f := 0; f < k; f++ {
		if isPiv[f] {
			continue
		}
		l := NewInt(1)
		for r, c := range pivCol {
			if x := mat[r][f]; !x.IsZero() {
				p := mat[r][c]
				l = Lcm(l, p.FloorDiv(Gcd(p, x)).Abs())
			}
		}
		v := make([]Int, k)
		v[f] = l
		for r, c := range pivCol {
			if x := mat[r][f]; !x.IsZero() {
				v[c] = l.Mul(x).FloorDiv(mat[r][c]).Neg()
			}
		}
		primitive(v)
		jv := -1
		for a, x := range v {
			if !x.IsZero() && (jv < 0 || x.Abs().Cmp(v[jv].Abs()) < 0) {
				jv = a
			}
		}
		if bestD == nil || v[jv].Abs().Cmp(bestD[bestJ].Abs()) < 0 {
			bestD, bestJ = v, jv
		}
	}
	d = make([]Int, nv)
	for a, c := range cols {
		d[c] = bestD[a]
	}
	return d, cols[bestJ], nil
}

// primitive divides the entries of v by their gcd, in place.
func primitive(v []Int) {
	g := rowGcd(v, len(v))
	if g.IsZero() || g.IsOne() {
		return
	}
	for i := range v {
		v[i] = v[i].FloorDiv(g)
	}
}

// cutLineality bounds one line of the problem (which has no equalities)
// to one period, exactly: with d a primitive integer direction along
// which every inequality is constant and d_j its entry of least absolute
// value, every integer solution x has the integer solution x - t*d, t =
// floor(x_j/d_j), whose j-th entry lies in [0, |d_j|-1]; these bounds are
// added, as the equality x_j = 0 when |d_j| = 1. It reports whether it
// found a line. The Chernikov histories restart from the rows as they
// are (the added bounds are no combination of them).
func (p *omegaProblem) cutLineality(m *meter) (bool, error) {
	if len(p.eqs) > 0 {
		return false, nil
	}
	d, j, err := linealityDirection(m, p.ineqs, p.nv)
	if err != nil || d == nil {
		return false, err
	}
	n := p.nv
	a := d[j].Abs()
	if a.IsOne() {
		e := make([]Int, n+1)
		e[j] = NewInt(1)
		p.eqs = append(p.eqs, e)
		return true, nil
	}
	lo, hi := make([]Int, n+1), make([]Int, n+1)
	lo[j] = NewInt(1) // x_j >= 0
	hi[j], hi[n] = NewInt(-1), a.Sub(NewInt(1))
	p.ineqs = append(p.ineqs, lo, hi)
	if p.hist != nil {
		p.resetHist()
	}
	return true, nil
}

// dropRay looks for a ray of the problem (which has no equalities): an
// integer direction r with row·r >= 0 for every inequality and > 0 for
// some, found by one rational feasibility test. It drops the inequalities
// with row·r > 0 and reports whether it found one. This is exact: a point
// of the inequalities kept, moved far enough along r, satisfies the
// dropped ones too and stays integral, and the kept rows change by
// nothing along r. dropOneSidedVars is the case of r a unit vector.
func (p *omegaProblem) dropRay(m *meter) (bool, error) {
	n := p.nv
	rows := make([][]Int, 0, len(p.ineqs)+1)
	sum := make([]Int, n+1)
	for _, r := range p.ineqs {
		h := make([]Int, n+1)
		copy(h, r[:n])
		rows = append(rows, h)
		for j := 0; j < n; j++ {
			sum[j] = sum[j].Add(r[j])
		}
	}
	sum[n] = NewInt(-1) // the sum of row·r is at least 1
	rows = append(rows, sum)
	res, err := lpSolve(m, nil, rows, n)
	if err != nil || !res.feasible {
		return false, err
	}
	l := NewInt(1)
	for j := 0; j < n; j++ {
		l = Lcm(l, res.dens[j])
	}
	d := make([]Int, n)
	for j := 0; j < n; j++ {
		d[j] = res.x[j].Mul(l.FloorDiv(res.dens[j]))
	}
	var keep [][]Int
	for _, r := range p.ineqs {
		s := Int{}
		for j := 0; j < n; j++ {
			if !r[j].IsZero() && !d[j].IsZero() {
				s = s.Add(r[j].Mul(d[j]))
			}
		}
		if s.Sign() < 0 {
			return false, errors.New("presburger: internal error: a ray decreasing a row")
		}
		if s.IsZero() {
			keep = append(keep, r)
		}
	}
	if len(keep) == len(p.ineqs) {
		return false, errors.New("presburger: internal error: a ray along every row's level set")
	}
	p.ineqs = keep
	if p.hist != nil {
		// The rows dropped took part in the combinations that Chernikov's
		// rule counts on: the histories restart from the rows kept.
		p.resetHist()
	}
	p.gone++
	return true, nil
}
