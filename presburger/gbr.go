package presburger

import "errors"

// This file splits an Omega test problem on a thin direction when its
// splinters would be many: the integer points of a bounded polytope P lie
// on the hyperplanes v·x = t, for the integers t between the least and
// the greatest value of v·x over P, whatever the integer direction v, so
// pinning v·x to each of them (an equality, which the Omega test
// eliminates exactly) is a case split that loses no point. Its cost is
// the number of those integers, P's width along v. The splinters of
// splitOnBounds number the coefficients of the bounds on one variable,
// thousands when the rows hold floor divisions by thousands, while some
// direction mixing the variables may be only a few integers wide.
//
// The direction is the first vector of a reduced basis of the integer
// lattice for P's width norm, computed by the generalized basis reduction
// of Lovász and Scarf (Cook, Rutherford, Scarf and Shallcross, "An
// implementation of the generalized basis reduction algorithm for
// integer programming", 1993), which isl's sampling (isl_sample.c,
// basis_reduction_templ.c) and MLIR's Presburger library
// (Simplex::findIntegerSample) also use. Widths are rational linear
// programs over two copies of P (x and y, and v·(x - y) maximised) on
// the incremental tableau of simplex.go, whose pivots count steps.

// widthTab holds the tableau of two copies of a polytope, for the width
// functions F_i(v) = max v·(x - y) over x, y in P with b_j·(x - y) = 0
// for the basis vectors b_j, j < i, added as equalities.
type widthTab struct {
	t *simplexTab
	n int // P's variables; the tableau has 2n (x, then y)
}

// errUnbounded reports a polytope unbounded in a direction whose width
// was asked for.
var errUnbounded = errors.New("presburger: unbounded width")

// newWidthTab returns the width tableau of P = { x : ineqs·x >= 0 } (nv
// variables), and false if P has no rational point.
func newWidthTab(m *meter, ineqs [][]Int, nv int) (*widthTab, bool, error) {
	t := newSimplexTab(m, 2*nv)
	r := make([]Int, 2*nv+1)
	for _, row := range ineqs {
		for off := 0; off <= nv; off += nv {
			clear(r)
			copy(r[off:off+nv], row[:nv])
			r[2*nv] = row[nv]
			t.addRow(r)
		}
	}
	t.limit = 4 * simplexPivotLimit(t)
	ok, err := t.restore()
	if err != nil {
		return nil, false, err
	}
	return &widthTab{t: t, n: nv}, ok, nil
}

// diffRow returns the row v·(x - y) over the tableau's 2n variables.
func (w *widthTab) diffRow(v []Int) []Int {
	r := make([]Int, 2*w.n+1)
	for j := 0; j < w.n; j++ {
		r[j], r[w.n+j] = v[j], v[j].Neg()
	}
	return r
}

// optimum returns the rational maximum (dir = 1) or minimum (dir = -1)
// of the row r over the tableau's rows, as num/den, or errUnbounded.
func (w *widthTab) optimum(r []Int, dir int) (num, den Int, err error) {
	t := w.t
	snap := t.snapshot()
	u := t.addRow(r)
	t.restr[u] = false
	t.limit = simplexPivotLimit(t)
	st, err := t.optimize(u, dir, nil)
	if err == nil {
		switch st {
		case optOptimal:
			num, den = t.value(u)
		case optUnbounded:
			err = errUnbounded
		default:
			err = errSimplexLimit
		}
	}
	if rerr := t.rollback(snap); rerr != nil && err == nil {
		err = rerr
	}
	return num, den, err
}

// width returns F(v) for the equalities added so far.
func (w *widthTab) width(v []Int) (ratio, error) {
	num, den, err := w.optimum(w.diffRow(v), 1)
	return ratio{num, den}, err
}

// addEq adds the equality v·(x - y) = 0 (two rows; x = y satisfies them,
// so the tableau stays feasible after restore).
func (w *widthTab) addEq(v []Int) error {
	r := w.diffRow(v)
	w.t.addRow(r)
	w.t.addRow(negRow(r))
	w.t.limit = 4 * simplexPivotLimit(w.t)
	ok, err := w.t.restore()
	if err == nil && !ok {
		err = errors.New("presburger: internal error: width equalities infeasible")
	}
	return err
}

// ratio is a non-negative rational num/den, den > 0.
type ratio struct{ num, den Int }

// less reports whether a < b.
func (a ratio) less(b ratio) bool { return a.num.Mul(b.den).Cmp(b.num.Mul(a.den)) < 0 }

// reducedBasis returns a basis of Z^n (the rows of the result) reduced
// for P's width norm (generalized basis reduction, with the usual factor
// 3/4): its first vector is one of the directions in which P is thinnest
// up to a factor that depends on n only. It fails with errUnbounded if P
// is unbounded.
func (w *widthTab) reducedBasis(m *meter) ([][]Int, error) {
	n := w.n
	b := make([][]Int, n)
	for i := range b {
		b[i] = make([]Int, n)
		b[i][i] = NewInt(1)
	}
	// snaps[i] is the tableau with the equalities of b_0 .. b_{i-1}.
	snaps := []tabSnapshot{w.t.snapshot()}
	i := 0
	for i+1 < n {
		if err := m.step(); err != nil {
			return nil, err
		}
		fi, err := w.width(b[i])
		if err != nil {
			return nil, err
		}
		mu, fnext, err := w.bestMultiple(m, b[i+1], b[i])
		if err != nil {
			return nil, err
		}
		if !mu.IsZero() {
			b[i+1] = addScaled(b[i+1], mu.Neg(), b[i])
		}
		// Swap when F_i(b_{i+1}) < 3/4 F_i(b_i).
		if (ratio{fnext.num.Mul(NewInt(4)), fnext.den}).less(ratio{fi.num.Mul(NewInt(3)), fi.den}) {
			b[i], b[i+1] = b[i+1], b[i]
			if i > 0 {
				i--
				if err := w.t.rollback(snaps[i]); err != nil {
					return nil, err
				}
				snaps = snaps[:i+1]
			}
			continue
		}
		if err := w.addEq(b[i]); err != nil {
			return nil, err
		}
		i++
		snaps = append(snaps, w.t.snapshot())
	}
	if err := w.t.rollback(snaps[0]); err != nil {
		return nil, err
	}
	return b, nil
}

// bestMultiple returns an integer mu minimising F(v - mu*u) (a convex
// function of mu, for the equalities added so far) and that minimum: a
// galloping search for the side and a bracket, then a binary search on
// the sign of the slope.
func (w *widthTab) bestMultiple(m *meter, v, u []Int) (Int, ratio, error) {
	g := func(mu Int) (ratio, error) {
		if err := m.step(); err != nil {
			return ratio{}, err
		}
		return w.width(addScaled(v, mu.Neg(), u))
	}
	zero, one := NewInt(0), NewInt(1)
	g0, err := g(zero)
	if err != nil {
		return Int{}, ratio{}, err
	}
	for _, dir := range []int64{1, -1} {
		d := NewInt(dir)
		g1, err := g(d)
		if err != nil {
			return Int{}, ratio{}, err
		}
		if !g1.less(g0) {
			continue
		}
		// g decreases from 0 towards d: gallop (in steps of d) until it
		// stops decreasing; by convexity a minimiser lies in (prev, h].
		prev, lo, glo, step := NewInt(0), one, g1, one
		var h Int
		for {
			h = lo.Add(step)
			gh, err := g(h.Mul(d))
			if err != nil {
				return Int{}, ratio{}, err
			}
			if !gh.less(glo) {
				break
			}
			prev, lo, glo, step = lo, h, gh, step.Mul(NewInt(2))
		}
		// Bisection on the slope: a minimiser stays in [a, c].
		a, c := prev.Add(one), h
		for a.Cmp(c) < 0 {
			mid := a.Add(c).FloorDiv(NewInt(2))
			gm, err := g(mid.Mul(d))
			if err != nil {
				return Int{}, ratio{}, err
			}
			gm1, err := g(mid.Add(one).Mul(d))
			if err != nil {
				return Int{}, ratio{}, err
			}
			if gm1.less(gm) {
				a = mid.Add(one)
			} else {
				c = mid
			}
		}
		ga, err := g(a.Mul(d))
		if err != nil {
			return Int{}, ratio{}, err
		}
		return a.Mul(d), ga, nil
	}
	return zero, g0, nil
}

// valueRange returns the least and the greatest integer value of v·x
// over P's rational points (lo > hi: none), or errUnbounded.
func (w *widthTab) valueRange(v []Int) (lo, hi Int, err error) {
	r := make([]Int, 2*w.n+1)
	copy(r, v[:w.n])
	num, den, err := w.optimum(r, -1)
	if err != nil {
		return Int{}, Int{}, err
	}
	lo = num.CeilDiv(den)
	num, den, err = w.optimum(r, 1)
	if err != nil {
		return Int{}, Int{}, err
	}
	return lo, num.FloorDiv(den), nil
}

// thinDirection returns a direction along which few integer hyperplanes
// meet the problem's polytope (its inequalities; no equalities), and the
// least and greatest value of the direction on them: a variable with at
// most one value, or else the one of the variables and of a reduced basis
// with the fewest. ok is false when the polytope is unbounded or
// the tableau gave up; empty is true when it has no rational point.
func (p *omegaProblem) thinDirection(m *meter) (v []Int, lo, hi Int, ok bool, err error) {
	// The variables no row uses (not dropped yet) are left out: P is
	// unbounded along them, and they take no part in its integer points.
	live := make([]bool, p.nv)
	k := markLive(p.ineqs, live)
	rows := p.ineqs
	if k < p.nv {
		rows = keepCols(p.ineqs, live, k)
	}
	w, feasible, err := newWidthTab(m, rows, k)
	switch {
	case errors.Is(err, errSimplexLimit):
		return nil, Int{}, Int{}, false, nil
	case err != nil:
		return nil, Int{}, Int{}, false, err
	case !feasible:
		// No rational point: the empty range.
		return make([]Int, p.nv), NewInt(1), NewInt(0), true, nil
	}
	// The variables' own ranges first (two linear programs each): a
	// variable with at most one integer value needs no reduced basis.
	var units [][]Int
	for j := 0; j < k; j++ {
		e := make([]Int, k)
		e[j] = NewInt(1)
		units = append(units, e)
	}
	var bestN Int // hi - lo of v
	pick := func(cands [][]Int) (bool, error) {
		for _, b := range cands {
			l, h, err := w.valueRange(b)
			if errors.Is(err, errUnbounded) || errors.Is(err, errSimplexLimit) {
				return false, nil
			}
			if err != nil {
				return false, err
			}
			cnt := h.Sub(l)
			if v == nil || cnt.Cmp(bestN) < 0 {
				v, lo, hi, bestN = b, l, h, cnt
			}
		}
		return true, nil
	}
	if ok, err := pick(units); err != nil || !ok {
		return nil, Int{}, Int{}, false, err
	}
	if bestN.Sign() > 0 {
		basis, err := w.reducedBasis(m)
		if errors.Is(err, errUnbounded) || errors.Is(err, errSimplexLimit) {
			return nil, Int{}, Int{}, false, nil
		}
		if err != nil {
			return nil, Int{}, Int{}, false, err
		}
		if ok, err := pick(basis); err != nil || !ok {
			return nil, Int{}, Int{}, false, err
		}
	}
	if k < p.nv {
		full := make([]Int, p.nv)
		a := 0
		for j, l := range live {
			if l {
				full[j] = v[a]
				a++
			}
		}
		v = full
	}
	return v, lo, hi, true, nil
}

// splitOnHyperplane decides the problem by pinning v·x to each integer
// of [lo, hi] (thinDirection's answer), each an equality that the Omega
// test eliminates.
func (p *omegaProblem) splitOnHyperplane(m *meter, v []Int, lo, hi Int) (bool, error) {
	for t := lo; t.Cmp(hi) <= 0; t = t.Add(NewInt(1)) {
		if err := m.step(); err != nil {
			return false, err
		}
		q := p.copy()
		q.limit = p.limit
		e := make([]Int, p.nv+1)
		copy(e, v[:p.nv])
		e[p.nv] = t.Neg()
		q.eqs = append(q.eqs, e)
		ok, err := q.solve(m)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}
