package presburger

import (
	"errors"
	"slices"
)

// This file holds an incremental rational simplex tableau in the style of
// isl's isl_tab (isl_tab.c; Verdoolaege, "isl: An Integer Set Library for
// the Polyhedral Model", ICMS 2010) and of the Simplex class of MLIR's
// Presburger library: one tableau per conjunction, on which the
// simplification of redundant.go optimises one constraint after the
// other, each optimisation starting from the vertex the previous one left.
//
// Unknowns are the conjunction's variables (free: any sign) and one
// slack per constraint row (restricted: >= 0 while the constraint is
// active). Every unknown is either basic, in a row that expresses it as an
// affine function of the non-basic ones, or non-basic, in a column. Row
// i stores [den, c, a_0 .. a_{n-1}]: den * u = c + sum_j a_j * col_j, with
// den > 0 and the entries' gcd reduced to 1. The sample point sets every
// column to 0, so a row's value is c/den; the tableau is feasible when
// every active restricted row has c >= 0. Pivots follow Bland's rule
// (smallest unknown first), so an optimisation cannot cycle.

// simplexTab is the tableau.
type simplexTab struct {
	nvar  int     // the conjunction's variables: unknowns 0 .. nvar-1
	ncol  int     // columns (always nvar: no column is ever removed)
	rows  [][]Int // [den, c, a_0 .. a_{ncol-1}]
	rowU  []int   // the unknown basic in each row
	colU  []int   // the unknown non-basic in each column
	isRow []bool  // per unknown: basic (in a row) or non-basic
	pos   []int   // per unknown: its row or column
	restr []bool  // per unknown: restricted to >= 0
	m     *meter  // one step per pivot
	limit int     // pivots left before an optimisation gives up
	nz    []int   // pivot's scratch: the columns of the pivot row's entries
	pool  []Int   // zeroed storage for the rows addRow adds (reserve)
}

// newSimplexTab returns a tableau over nvar free variables without
// constraints.
func newSimplexTab(m *meter, nvar int) *simplexTab {
	t := &simplexTab{nvar: nvar, ncol: nvar, m: m}
	t.colU = make([]int, nvar)
	t.isRow = make([]bool, nvar)
	t.pos = make([]int, nvar)
	t.restr = make([]bool, nvar)
	for j := 0; j < nvar; j++ {
		t.colU[j] = j
		t.pos[j] = j
	}
	return t
}

// reserve makes room for n more rows: the storage of their entries in
// one allocation, which addRow takes from, and the tableau's per-unknown
// slices grown once (a tableau built from a conjunction knows how many
// rows it adds).
func (t *simplexTab) reserve(n int) {
	t.pool = make([]Int, n*(2+t.ncol))
	t.rows = slices.Grow(t.rows, n)
	t.rowU = slices.Grow(t.rowU, n)
	t.isRow = slices.Grow(t.isRow, n)
	t.pos = slices.Grow(t.pos, n)
	t.restr = slices.Grow(t.restr, n)
}

// addRow adds the restricted unknown r·x + c (r over the nvar variables,
// the constant last) and returns its index. The tableau may become
// infeasible; restore makes it feasible again.
func (t *simplexTab) addRow(r []Int) int {
	u := len(t.isRow)
	var row []Int
	if w := 2 + t.ncol; len(t.pool) >= w {
		row = t.pool[:w:w]
		t.pool = t.pool[w:]
	} else {
		row = make([]Int, w)
	}
	row[0] = NewInt(1)
	// Express r over the current columns: a variable in a column adds
	// its coefficient there; one in a row adds its row, scaled.
	for v := 0; v < t.nvar; v++ {
		a := r[v]
		if a.IsZero() {
			continue
		}
		if !t.isRow[v] {
			j := t.pos[v]
			row[2+j] = row[2+j].Add(a.Mul(row[0]))
			continue
		}
		// row/d + a*vr/dv = (dv*row + d*a*vr) / (d*dv).
		vr := t.rows[t.pos[v]]
		dv := vr[0]
		f := a.Mul(row[0])
		if !dv.IsOne() {
			for k := range row {
				if !row[k].IsZero() {
					row[k] = row[k].Mul(dv)
				}
			}
		}
		for k := 1; k < len(row); k++ {
			if !vr[k].IsZero() {
				row[k] = row[k].Add(f.Mul(vr[k]))
			}
		}
	}
	row[1] = row[1].Add(r[t.nvar].Mul(row[0]))
	reduceTabRow(row)
	t.rows = append(t.rows, row)
	t.rowU = append(t.rowU, u)
	t.isRow = append(t.isRow, true)
	t.pos = append(t.pos, len(t.rows)-1)
	t.restr = append(t.restr, true)
	return u
}

// reduceTabRow divides a row by the gcd of its entries (den included).
func reduceTabRow(row []Int) {
	if row[0].IsOne() {
		return
	}
	g := rowGcd(row, len(row))
	if g.IsZero() || g.IsOne() {
		return
	}
	for k := range row {
		if !row[k].IsZero() {
			row[k] = row[k].FloorDiv(g)
		}
	}
}

// value returns the sample value of unknown u as num/den (den > 0).
func (t *simplexTab) value(u int) (num, den Int) {
	if !t.isRow[u] {
		return Int{}, NewInt(1)
	}
	r := t.rows[t.pos[u]]
	return r[1], r[0]
}

// integral reports whether the sample point gives every variable an
// integer value.
func (t *simplexTab) integral() bool {
	for v := 0; v < t.nvar; v++ {
		if !t.isRow[v] {
			continue
		}
		r := t.rows[t.pos[v]]
		if !r[0].IsOne() && !r[1].Mod(r[0]).IsZero() {
			return false
		}
	}
	return true
}

// sample returns the sample point's variables (integral() must hold).
func (t *simplexTab) sample() []Int {
	p := make([]Int, t.nvar)
	for v := 0; v < t.nvar; v++ {
		if t.isRow[v] {
			r := t.rows[t.pos[v]]
			p[v] = r[1].FloorDiv(r[0])
		}
	}
	return p
}

// active reports whether row i constrains the sample: a restricted
// unknown whose value is non-negative (a restricted row still negative
// is being restored, or has not been yet).
func (t *simplexTab) active(i int) bool {
	return t.restr[t.rowU[i]] && t.rows[i][1].Sign() >= 0
}

// pivot exchanges the basic unknown of row r and the non-basic unknown
// of column j (the entry must be nonzero).
func (t *simplexTab) pivot(r, j int) {
	// den*u = c + a*x + rest  =>  a*x = den*u - c - rest. The pivot row
	// is rewritten in place: the tableau owns its rows (clone copies
	// them).
	nr := t.rows[r]
	a, den := nr[2+j], nr[0]
	for k := 1; k < len(nr); k++ {
		nr[k] = nr[k].Neg()
	}
	nr[0] = a
	nr[2+j] = den
	if a.Sign() < 0 {
		for k := range nr {
			nr[k] = nr[k].Neg()
		}
	}
	reduceTabRow(nr)
	d := nr[0]
	// With d = 1 a row changes only where nr has an entry: the rows are
	// sparse, and the dense update spent most of its time on zeros.
	sparse := d.IsOne()
	nz := t.nz[:0]
	if sparse {
		for k := 1; k < len(nr); k++ {
			if k != 2+j && !nr[k].IsZero() {
				nz = append(nz, k)
			}
		}
	}
	for i, M := range t.rows {
		if i == r {
			continue
		}
		f := M[2+j]
		if f.IsZero() {
			continue
		}
		if sparse {
			M[2+j] = f.Mul(nr[2+j])
			for _, k := range nz {
				M[k] = M[k].Add(f.Mul(nr[k]))
			}
			reduceTabRow(M)
			continue
		}
		// den_m*u_m = c_m + f*x + rest_m, x = (nr_c + nr·cols)/d.
		for k := range M {
			if k == 2+j {
				M[k] = f.Mul(nr[k])
				continue
			}
			v := M[k]
			if !v.IsZero() && !d.IsOne() {
				v = v.Mul(d)
			}
			if k > 0 && !nr[k].IsZero() {
				v = v.Add(f.Mul(nr[k]))
			}
			M[k] = v
		}
		reduceTabRow(M)
	}
	t.nz = nz
	ur, uc := t.rowU[r], t.colU[j]
	t.rowU[r], t.colU[j] = uc, ur
	t.isRow[uc], t.pos[uc] = true, r
	t.isRow[ur], t.pos[ur] = false, j
}

// ratioTest returns the row that first blocks moving column j in
// direction s (+1: up, -1: down), skipping row skip: among the active
// rows whose value decreases, the one reaching 0 first, ties broken by
// the smallest unknown. It returns -1 if nothing blocks.
func (t *simplexTab) ratioTest(j, s, skip int) int {
	best := -1
	var bc, ba Int
	for i, M := range t.rows {
		if i == skip {
			continue
		}
		a := M[2+j]
		if a.IsZero() || (a.Sign() > 0) == (s > 0) || !t.active(i) {
			continue
		}
		a = a.Abs()
		if best < 0 {
			best, bc, ba = i, M[1], a
			continue
		}
		// c_i/a_i < c_best/a_best
		c := M[1].Mul(ba).Cmp(bc.Mul(a))
		if c < 0 || (c == 0 && t.rowU[i] < t.rowU[best]) {
			best, bc, ba = i, M[1], a
		}
	}
	return best
}

// optStatus is the outcome of optimize.
type optStatus int

const (
	optOptimal   optStatus = iota // no pivot improves the unknown
	optUnbounded                  // the unknown grows without bound
	optStopped                    // stop returned true
	optGaveUp                     // the pivot limit was reached
)

// optimize increases (dir = 1) or decreases (dir = -1) unknown u over the
// active rows, pivot by pivot, until it is optimal, unbounded or stop
// (called at every vertex) returns true. A restricted u is only
// increased. Feasibility of the active rows is kept.
func (t *simplexTab) optimize(u, dir int, stop func() bool) (optStatus, error) {
	for {
		if stop != nil && stop() {
			return optStopped, nil
		}
		if t.limit <= 0 {
			return optGaveUp, nil
		}
		if !t.isRow[u] {
			// u itself is non-basic (at 0): move its column.
			j := t.pos[u]
			if dir < 0 && t.restr[u] {
				return optOptimal, nil
			}
			r := t.ratioTest(j, dir, -1)
			if r < 0 {
				return optUnbounded, nil
			}
			if err := t.step(); err != nil {
				return 0, err
			}
			t.pivot(r, j)
			continue
		}
		ur := t.pos[u]
		enter, s := t.entering(ur, dir)
		if enter < 0 {
			return optOptimal, nil
		}
		r := t.ratioTest(enter, s, ur)
		if r < 0 {
			return optUnbounded, nil
		}
		if err := t.step(); err != nil {
			return 0, err
		}
		t.pivot(r, enter)
	}
}

// entering returns the column that enters the basis to move the unknown
// of row ur in direction dir, and the direction the column's unknown
// moves: the smallest unknown whose move improves it (Bland's rule), or
// -1 if there is none.
func (t *simplexTab) entering(ur, dir int) (enter, s int) {
	R := t.rows[ur]
	enter = -1
	for j := 0; j < t.ncol; j++ {
		a := R[2+j]
		if a.IsZero() {
			continue
		}
		sj := a.Sign() * dir // direction of column j that improves u
		if sj < 0 && t.restr[t.colU[j]] {
			continue // a restricted non-basic unknown is at its minimum 0
		}
		if enter < 0 || t.colU[j] < t.colU[enter] {
			enter, s = j, sj
		}
	}
	return enter, s
}

func (t *simplexTab) step() error {
	t.limit--
	return t.m.step()
}

// restore makes every restricted unknown non-negative, one negative row
// after the other. It returns false if the active rows have no rational
// solution, and an error if the budget or the pivot limit runs out.
func (t *simplexTab) restore() (feasible bool, err error) {
	for {
		neg := -1
		for i, M := range t.rows {
			if t.restr[t.rowU[i]] && M[1].Sign() < 0 {
				neg = i
				break
			}
		}
		if neg < 0 {
			return true, nil
		}
		u := t.rowU[neg]
		st, err := t.optimize(u, 1, func() bool { return !t.isRow[u] || t.rows[t.pos[u]][1].Sign() >= 0 })
		if err != nil {
			return false, err
		}
		switch st {
		case optOptimal:
			return false, nil
		case optGaveUp:
			return false, errSimplexLimit
		case optUnbounded:
			// Nothing blocks u on its way up: u leaves the basis at 0.
			if t.isRow[u] {
				ur := t.pos[u]
				enter, _ := t.entering(ur, 1)
				if err := t.step(); err != nil {
					return false, err
				}
				t.pivot(ur, enter)
			}
		}
	}
}

// errSimplexLimit reports that an optimisation ran out of pivots (the
// callers fall back to the exact tests).
var errSimplexLimit = errors.New("presburger: simplex pivot limit")

// clone returns a deep copy of t (same meter).
func (t *simplexTab) clone() *simplexTab {
	c := *t
	c.nz = nil
	c.pool = nil // t's, to add t's rows
	c.rows = make([][]Int, len(t.rows), len(t.rows)+4)
	flat := make([]Int, len(t.rows)*(2+t.ncol))
	for i, r := range t.rows {
		c.rows[i] = flat[:len(r):len(r)]
		flat = flat[len(r):]
		copy(c.rows[i], r)
	}
	c.rowU = append([]int(nil), t.rowU...)
	c.colU = append([]int(nil), t.colU...)
	c.isRow = append([]bool(nil), t.isRow...)
	c.pos = append([]int(nil), t.pos...)
	c.restr = append([]bool(nil), t.restr...)
	return &c
}

// searchResult is the outcome of searchInteger.
type searchResult int

const (
	searchFound searchResult = iota
	searchNone
	searchUnknown
)

// searchInteger looks for an integer point of the active rows of t and
// the extra rows (over the variables, the constant last) by branch and
// bound, exploring at most *nodes tableaux. Each node adds its rows to t
// and takes them out again (snapshot, rollback) instead of working on a
// copy of t, so t has the same rows and is as feasible afterwards, on a
// basis that may differ (its sample point may move). A point found is
// returned; searchNone means there is none (every branch is rationally
// infeasible).
//
// probe, if not nil, is asked at every node whose sample is not integral
// for an integer point near it (rounded), which it has checked against
// every row: a point it returns ends the search, found. A search that
// would find a point otherwise dives one branch per fractional variable,
// a restore of the whole tableau each.
func (t *simplexTab) searchInteger(extra [][]Int, nodes *int, probe func() []Int) (_ []Int, _ searchResult, err error) {
	if *nodes <= 0 {
		return nil, searchUnknown, nil
	}
	*nodes--
	snap := t.snapshot()
	defer func() {
		if rerr := t.rollback(snap); rerr != nil && err == nil {
			err = rerr
		}
	}()
	for _, r := range extra {
		t.addRow(r)
	}
	t.limit = 4 * (64 + 4*(len(t.rows)+t.ncol))
	feasible, err := t.restore()
	switch {
	case errors.Is(err, errSimplexLimit):
		return nil, searchUnknown, nil
	case err != nil:
		return nil, searchUnknown, err
	case !feasible:
		return nil, searchNone, nil
	}
	probed := probe == nil
	for v := 0; v < t.nvar; v++ {
		num, den := t.value(v)
		if den.IsOne() || num.Mod(den).IsZero() {
			continue
		}
		if !probed {
			probed = true
			if p := probe(); p != nil {
				return p, searchFound, nil
			}
		}
		fl := num.FloorDiv(den)
		lo := make([]Int, t.nvar+1) // fl - x_v >= 0
		lo[v], lo[t.nvar] = NewInt(-1), fl
		hi := make([]Int, t.nvar+1) // x_v - fl - 1 >= 0
		hi[v], hi[t.nvar] = NewInt(1), fl.Add(NewInt(1)).Neg()
		unknown := false
		for _, b := range [][]Int{lo, hi} {
			p, r, err := t.searchInteger([][]Int{b}, nodes, probe)
			if err != nil || r == searchFound {
				return p, r, err
			}
			if r == searchUnknown {
				unknown = true
			}
		}
		if unknown {
			return nil, searchUnknown, nil
		}
		return nil, searchNone, nil
	}
	return t.sample(), searchFound, nil
}

// tabSnapshot records the size of a tableau, to which rollback returns.
type tabSnapshot struct {
	unknowns int
	limit    int
}

// snapshot returns the point to which rollback takes t back: the
// unknowns (rows) added after it are removed. Only addRow and pivots may
// happen in between (isl's isl_tab_snap and isl_tab_rollback, isl_tab.c,
// undo more kinds of change).
func (t *simplexTab) snapshot() tabSnapshot {
	return tabSnapshot{unknowns: len(t.isRow), limit: t.limit}
}

// rollback removes the unknowns added since snap, the last first: one in
// a column is first pivoted into a row (some row has a nonzero entry in
// its column, as the variables are independent) chosen by the ratio test,
// then its row goes. The other rows are unchanged as constraints, and
// the active ones stay non-negative; the basis and the sample may differ.
func (t *simplexTab) rollback(snap tabSnapshot) error {
	for u := len(t.isRow) - 1; u >= snap.unknowns; u-- {
		if !t.isRow[u] {
			// Move u's column up or down to the first active row that
			// blocks it, so that the sample stays feasible; if none
			// does, any row depending on the column will do, as moving
			// the column changes no active row.
			j := t.pos[u]
			r := t.ratioTest(j, 1, -1)
			if r < 0 {
				r = t.ratioTest(j, -1, -1)
			}
			for i, M := range t.rows {
				if r >= 0 {
					break
				}
				if !M[2+j].IsZero() {
					r = i
				}
			}
			if r < 0 {
				return errors.New("presburger: internal error: simplex rollback: a column no row depends on")
			}
			t.pivot(r, j)
		}
		i, last := t.pos[u], len(t.rows)-1
		if i != last {
			t.rows[i], t.rowU[i] = t.rows[last], t.rowU[last]
			t.pos[t.rowU[i]] = i
		}
		t.rows[last] = nil
		t.rows, t.rowU = t.rows[:last], t.rowU[:last]
		t.isRow, t.pos, t.restr = t.isRow[:u], t.pos[:u], t.restr[:u]
	}
	t.limit = snap.limit
	return nil
}
