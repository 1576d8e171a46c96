package presburger

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"
)

// bset is a set of row indices (Chernikov histories).
type bset []uint64

func (a bset) or(b bset) bset {
	out := make(bset, len(a))
	for i := range a {
		out[i] = a[i] | b[i]
	}
	return out
}

func (a bset) count() int {
	n := 0
	for _, w := range a {
		n += bits.OnesCount64(w)
	}
	return n
}

// This file decides integer emptiness with the Omega test (Pugh 1991):
// equalities are eliminated exactly (unit-coefficient substitution, or the
// "mod-hat" variable that shrinks coefficients), then variables are
// eliminated from the inequalities by Fourier-Motzkin, which is exact when
// one side has unit coefficients; otherwise the real shadow (a necessary
// condition) and the dark shadow (a sufficient one) are tried and, if they
// disagree, the problem splits into splinters, each with an extra
// equality. The dark shadow is a shortcut and never splits itself: where
// it would, it is inconclusive (an empty problem's dark shadow is empty,
// and splitting it cost as much as splitting the problem, at every level
// of the recursion). Variables bounded on one side only are dropped with their
// constraints, so unbounded problems terminate. Before the shadows, the
// rows that a ray of the problem satisfies are dropped and a line is cut
// to one period (lineality.go); the problem is then bounded, and when its
// splinters would be many it splits instead on the hyperplanes of a thin
// direction of a reduced basis (gbr.go), which are often far fewer (a
// few against thousands with floor divisions by thousands).

// omegaFeasible reports whether the system eqs (row·x = 0) and ineqs
// (row·x >= 0) over nv integer variables (rows have nv+1 entries, the last
// one the constant) has an integer solution. The rows are not modified.
func omegaFeasible(m *meter, eqs, ineqs [][]Int, nv int) (bool, error) {
	return newOmegaProblem(eqs, ineqs, nv).solve(m)
}

// omegaOnly decides feasibility with the Omega test alone, without the
// branch-and-bound shortcut, and verifies every use of Chernikov's rule
// (for tests).
func omegaOnly(m *meter, eqs, ineqs [][]Int, nv int) (bool, error) {
	p := newOmegaProblem(eqs, ineqs, nv)
	p.noBB, p.verify = true, true
	return p.solve(m)
}

// newOmegaProblem returns the problem of the rows eqs and ineqs over nv
// variables, on copies of the rows without the columns of the variables
// that no row uses. Constraint systems of the engine have every
// parameter and dimension of a space as a column, and a typical
// emptiness test uses two thirds of them; every step of the Omega test
// reads whole rows, and the variables no row uses are never chosen, so
// dropping them changes nothing but the cost.
func newOmegaProblem(eqs, ineqs [][]Int, nv int) *omegaProblem {
	live := make([]bool, nv)
	n := markLive(eqs, live) + markLive(ineqs, live)
	p := &omegaProblem{nv: nv, bbVars: nv}
	if n == nv {
		p.eqs, p.ineqs = copyRows(eqs), copyRows(ineqs)
		return p
	}
	p.nv = n
	p.eqs, p.ineqs = keepCols(eqs, live, n), keepCols(ineqs, live, n)
	return p
}

// markLive sets live[j] for every variable column j (among len(live))
// that some row of rows uses, and returns how many it set.
func markLive(rows [][]Int, live []bool) int {
	set := 0
	for _, r := range rows {
		for j := range live {
			if !live[j] && (r[j].big != nil || r[j].small != 0) {
				live[j] = true
				set++
			}
		}
	}
	return set
}

// keepCols returns copies of rows (over len(live) variables and the
// constant) with only the n columns live and the constant, in one
// allocation.
func keepCols(rows [][]Int, live []bool, n int) [][]Int {
	out := make([][]Int, len(rows))
	flat := make([]Int, len(rows)*(n+1))
	nv := len(live)
	for i, r := range rows {
		o := flat[: n+1 : n+1]
		flat = flat[n+1:]
		k := 0
		for j, l := range live {
			if l {
				o[k] = r[j]
				k++
			}
		}
		o[n] = r[nv]
		out[i] = o
	}
	return out
}

// dropDeadCols removes the columns of the variables that no row uses any
// more (substituted, eliminated or dropped), in place (a problem owns its
// rows, see substitute); the variables keep their order, so the steps
// after are those that the full rows would have taken.
func (p *omegaProblem) dropDeadCols() {
	live := make([]bool, p.nv)
	n := markLive(p.eqs, live)
	n += markLive(p.ineqs, live)
	if n == p.nv {
		return
	}
	keepColsInPlace(p.eqs, live, n)
	keepColsInPlace(p.ineqs, live, n)
	p.nv = n
	p.gone = 0
}

// keepColsInPlace is keepCols on the rows themselves: each row keeps its
// n live columns and its constant, moved to its front, and is shortened
// to them.
func keepColsInPlace(rows [][]Int, live []bool, n int) {
	nv := len(live)
	for i, r := range rows {
		k := 0
		for j, l := range live {
			if l {
				r[k] = r[j]
				k++
			}
		}
		r[n] = r[nv]
		clear(r[n+1 : nv+1]) // no stale big values kept alive
		rows[i] = r[:n+1]
	}
}

type omegaProblem struct {
	nv int
	// bbVars is the number of variables of the problem as posed, with
	// those the mod-hat steps added: the depth of the branch-and-bound
	// shortcut is bounded by it, whatever columns were dropped since
	// (dropDeadCols).
	bbVars int
	// gone counts the variables that a step left unused (substituted,
	// eliminated, dropped) since the columns were last dropped.
	gone  int
	eqs   [][]Int
	ineqs [][]Int
	// Chernikov's rule: when hist is non-nil, hist[i] is the set of rows
	// (at the last reset) that ineqs[i] was combined from, and elim counts
	// the variables eliminated since. A combination of more than elim+1
	// rows is rationally implied by the others and can be dropped without
	// changing the integer points.
	hist []bset
	base int // number of inequalities at the last reset
	// limit, if positive, bounds the number of inequalities; beyond it
	// solve fails with errCapped (used for the optional shadow shortcuts).
	limit int
	elim  int
	// noBB disables the branch-and-bound shortcut (Omega test alone).
	noBB bool
	// verify checks every row dropped by Chernikov's rule against the
	// rows kept (for tests; see verifyPruned).
	verify bool
}

func (p *omegaProblem) copy() *omegaProblem {
	return &omegaProblem{nv: p.nv, bbVars: p.bbVars, eqs: copyRows(p.eqs), ineqs: copyRows(p.ineqs), noBB: p.noBB, verify: p.verify}
}

// resetHist restarts Chernikov tracking on the current inequalities.
func (p *omegaProblem) resetHist() {
	p.elim = 0
	n := len(p.ineqs)
	p.base = n
	p.hist = make([]bset, n)
	words := (n + 63) / 64
	flat := make(bset, n*words) // one allocation, each set capped at its words
	for i := range p.hist {
		h := flat[i*words : (i+1)*words : (i+1)*words]
		h[i/64] = 1 << uint(i%64)
		p.hist[i] = h
	}
}

// modHat returns a - m*floor(a/m + 1/2), the symmetric residue of a mod m.
func modHat(a, m Int) Int {
	two := NewInt(2)
	return a.Sub(m.Mul(a.Mul(two).Add(m).FloorDiv(m.Mul(two))))
}

// normalizeAll gcd-normalises all rows; false on a contradiction.
func (p *omegaProblem) normalizeAll() bool {
	n := p.nv
	if !p.normalizeEqs() {
		return false
	}
	best := newCoefIndex(n, len(p.ineqs))
	ineqs := make([][]Int, 0, len(p.ineqs))
	var hist []bset
	track := p.hist != nil
	if track {
		hist = make([]bset, 0, len(p.ineqs))
	}
	tightened := false
	for i, r := range p.ineqs {
		r2, ok := normRow(r, false)
		if !ok {
			return false
		}
		if track && !tightened && roundsConstant(r, r2, n) {
			tightened = true
		}
		if isZeroRow(r2, n) {
			continue
		}
		h := coefHash(r2, n)
		if j := best.findHash(ineqs, r2, false, h); j >= 0 {
			if r2[n].Cmp(ineqs[j][n]) < 0 {
				ineqs[j] = r2
				if track {
					hist[j] = p.hist[i]
				}
			}
			continue
		}
		best.addHash(h, len(ineqs))
		ineqs = append(ineqs, r2)
		if track {
			hist = append(hist, p.hist[i])
		}
	}
	// Opposite pairs: r + c1 >= 0 and -r + c2 >= 0 need c1 + c2 >= 0; when
	// c1 + c2 = 0 they form an equality.
	// ineqs[i] was added to best as its i-th entry, with its hash (the
	// negation's too).
	// The rows kept go into p.ineqs's own array (and their histories into
	// p.hist's), read for the last time above: a problem owns them
	// (newOmegaProblem, copy and the eliminations build new ones).
	keep := p.ineqs[:0]
	var keepH []bset
	if track {
		keepH = p.hist[:0]
	}
	drop := make([]bool, len(ineqs))
	for i, r := range ineqs {
		if drop[i] {
			continue
		}
		if j := best.findHash(ineqs, r, true, best.ents[i].h); j > i && !drop[j] {
			s := r[n].Add(ineqs[j][n])
			if s.Sign() < 0 {
				return false
			}
			if s.IsZero() {
				p.eqs = append(p.eqs, r)
				drop[i], drop[j] = true, true
				continue
			}
		}
		keep = append(keep, r)
		if track {
			keepH = append(keepH, hist[i])
		}
	}
	p.ineqs = keep
	if track {
		p.hist = keepH
		if tightened {
			// Chernikov's rule is a statement about rational
			// Fourier-Motzkin combinations of the rows at the last reset:
			// a row whose history has more than elim+1 members is implied
			// by the other combinations over the rationals. Rounding a
			// constant (a x + c >= 0 with g = gcd(a) not dividing c
			// becomes (a/g) x + floor(c/g) >= 0) cuts the rational
			// polyhedron, so the rows derived from it afterwards are
			// stronger than the rational combinations their histories
			// name, and dropping one of them by the rule can lose integer
			// information (a non-empty answer for an empty set). The
			// tightened system has the same integer points, so it becomes
			// the new base of the histories.
			p.resetHist()
		}
	}
	return true
}

// roundsConstant reports whether normalising the inequality r into r2 (n
// variable columns) rounded its constant, i.e. cut off rational points:
// r2 = r/g on the coefficients and r2's constant is floor(c/g) with g not
// dividing c.
func roundsConstant(r, r2 []Int, n int) bool {
	if &r2[0] == &r[0] {
		return false // g = 1: the row is unchanged
	}
	for i := 0; i < n; i++ {
		if !r2[i].IsZero() {
			g := r[i].FloorDiv(r2[i]) // exact: r[i] = g*r2[i]
			return !r2[n].Mul(g).Equal(r[n])
		}
	}
	return false
}

// substitute eliminates variable v using equality e with coefficient ±1 on v.
//
// The rows are updated in place: a problem owns its rows (omegaFeasible and
// copy copy them, and a sub-problem made of some of them copies those).
func (p *omegaProblem) substitute(v int, e []Int) {
	a := e[v]
	sub := func(r []Int) {
		if r[v].IsZero() {
			return
		}
		k := r[v].Mul(a).Neg()
		for i, x := range e {
			if !x.IsZero() {
				r[i] = r[i].Add(k.Mul(x))
			}
		}
	}
	for _, r := range p.eqs {
		sub(r)
	}
	for _, r := range p.ineqs {
		sub(r)
	}
}

// addVar appends a new variable column (before the constant).
func (p *omegaProblem) addVar() int {
	for i := range p.eqs {
		p.eqs[i] = insertCol(p.eqs[i], p.nv)
	}
	for i := range p.ineqs {
		p.ineqs[i] = insertCol(p.ineqs[i], p.nv)
	}
	p.nv++
	p.bbVars++
	return p.nv - 1
}

// normalizeEqs divides every equality by the gcd of its coefficients and
// drops those that became 0 = 0. It returns false on a contradiction (an
// equality whose constant the gcd does not divide). Eliminating the
// equalities one by one needs only this; the inequalities are normalised
// once, after the last one (normalizeAll).
func (p *omegaProblem) normalizeEqs() bool {
	eqs := p.eqs[:0]
	for _, r := range p.eqs {
		r2, ok := normRow(r, true)
		if !ok {
			return false
		}
		if !isZeroRow(r2, p.nv) {
			eqs = append(eqs, r2)
		}
	}
	p.eqs = eqs
	return true
}

// solveEqs eliminates all equalities. It returns false on a contradiction.
func (p *omegaProblem) solveEqs(m *meter) (bool, error) {
	if !p.normalizeEqs() {
		return false, nil
	}
	for len(p.eqs) > 0 {
		if err := m.step(); err != nil {
			return false, err
		}
		e := p.eqs[0]
		// Variable with the smallest absolute coefficient.
		best := -1
		for v := 0; v < p.nv; v++ {
			if e[v].IsZero() {
				continue
			}
			if best < 0 || e[v].Abs().Cmp(e[best].Abs()) < 0 {
				best = v
			}
		}
		if best < 0 {
			return false, fmt.Errorf("presburger: internal error: zero equality after normalisation")
		}
		a := e[best]
		if a.Abs().IsOne() {
			p.eqs = p.eqs[1:]
			touched := p.eqsWith(best)
			p.substitute(best, e)
			p.gone++
			if !p.renormEqs(touched) {
				return false, nil
			}
			continue
		}
		// Mod-hat step: with M = |a|+1, the equality implies
		// M*sigma = sum modhat(e_i, M) x_i + modhat(c, M) for some integer
		// sigma, in which x_best has coefficient ±1.
		mm := a.Abs().Add(NewInt(1))
		s := p.addVar()
		e = p.eqs[0]
		ne := make([]Int, p.nv+1)
		for v := 0; v < p.nv; v++ {
			if v == s {
				continue
			}
			ne[v] = modHat(e[v], mm)
		}
		ne[p.nv] = modHat(e[p.nv], mm)
		ne[s] = mm.Neg()
		touched := p.eqsWith(best)
		p.substitute(best, ne)
		p.gone++
		if !p.renormEqs(touched) {
			return false, nil
		}
	}
	return true, nil
}

// eqsWith returns the positions of the equalities that use variable v
// (those a substitution for v changes).
func (p *omegaProblem) eqsWith(v int) []int {
	var out []int
	for i, r := range p.eqs {
		if !r[v].IsZero() {
			out = append(out, i)
		}
	}
	return out
}

// renormEqs normalises the equalities at the given positions (after a
// substitution changed them; the others are normalised already) and drops
// those that became 0 = 0. It returns false on a contradiction.
func (p *omegaProblem) renormEqs(at []int) bool {
	if len(at) == 0 {
		return true
	}
	zero := false
	for _, i := range at {
		r, ok := normRow(p.eqs[i], true)
		if !ok {
			return false
		}
		p.eqs[i] = r
		zero = zero || isZeroRow(r, p.nv)
	}
	if zero {
		eqs := p.eqs[:0]
		for _, r := range p.eqs {
			if !isZeroRow(r, p.nv) {
				eqs = append(eqs, r)
			}
		}
		p.eqs = eqs
	}
	return true
}

// solve decides feasibility, consuming p. Each round eliminates the
// equalities and normalises the rows, reduces them against the bounds on
// single variables when they have grown, drops the variables bounded on
// one side only, and eliminates one variable from the inequalities:
// exactly by Fourier-Motzkin when possible (eliminateExact), otherwise
// through the shortcuts, the dark shadow and the splinters
// (solveInexact), which decide the problem.
func (p *omegaProblem) solve(m *meter) (bool, error) {
	first := p.hist == nil
	for {
		if err := m.step(); err != nil {
			return false, err
		}
		hadEqs := len(p.eqs) > 0 || first
		first = false
		ok, err := p.solveEqs(m)
		if err != nil || !ok {
			return false, err
		}
		if hadEqs {
			p.resetHist()
		}
		if p.gone > 0 && p.gone*deadColsShare >= p.nv {
			p.dropDeadCols()
		}
		if !p.normalizeAll() {
			return false, nil
		}
		if len(p.eqs) > 0 {
			continue
		}
		if len(p.ineqs) == 0 {
			return true, nil
		}
		if p.hist == nil || len(p.ineqs) > 2*p.base+8 {
			if !p.boxReduce() {
				return false, nil
			}
			p.resetHist()
			if len(p.eqs) > 0 {
				continue
			}
		}
		if p.limit > 0 && len(p.ineqs) > p.limit {
			return false, errCapped
		}
		if err := m.checkConstraints(len(p.ineqs)); err != nil {
			return false, err
		}
		if p.dropOneSidedVars() {
			continue
		}
		v, exact := p.chooseElimVar()
		if v < 0 {
			return true, nil
		}
		if !exact {
			return p.solveInexact(m, v)
		}
		if err := p.eliminateExact(m, v); err != nil {
			return false, err
		}
	}
}

// deadColsShare: solve drops the columns of the variables no row uses
// (dropDeadCols) once they may be one in deadColsShare of them.
const deadColsShare = 8

// dropOneSidedVars drops every variable bounded on one side only (below
// or above, not both), with the inequalities that mention it: they can
// always be satisfied by moving the variable far enough. It reports
// whether it dropped any.
func (p *omegaProblem) dropOneSidedVars() bool {
	dropped := false
	for v := 0; v < p.nv; v++ {
		pos, neg := false, false
		for _, r := range p.ineqs {
			switch r[v].Sign() {
			case 1:
				pos = true
			case -1:
				neg = true
			}
		}
		if pos == neg {
			continue
		}
		var keep [][]Int
		var keepH []bset
		for i, r := range p.ineqs {
			if r[v].IsZero() {
				keep = append(keep, r)
				if p.hist != nil {
					keepH = append(keepH, p.hist[i])
				}
			}
		}
		p.ineqs = keep
		if p.hist != nil {
			p.hist = keepH
			p.elim++
		}
		dropped = true
		p.gone++
	}
	return dropped
}

// chooseElimVar chooses the variable to eliminate from the inequalities
// (all bounded on both sides or unused): exact eliminations first, where
// all lower or all upper bounds have unit coefficients, then the fewest
// new constraints. It returns -1 if no inequality mentions a variable.
func (p *omegaProblem) chooseElimVar() (v int, exact bool) {
	bestV, bestExact, bestCost := -1, false, 0
	for v := 0; v < p.nv; v++ {
		nl, nu := 0, 0
		lowUnit, upUnit := true, true
		for _, r := range p.ineqs {
			switch r[v].Sign() {
			case 1:
				nl++
				if !r[v].IsOne() {
					lowUnit = false
				}
			case -1:
				nu++
				if !r[v].Neg().IsOne() {
					upUnit = false
				}
			}
		}
		if nl == 0 {
			continue
		}
		exact := lowUnit || upUnit
		cost := nl * nu
		if bestV < 0 || (exact && !bestExact) || (exact == bestExact && cost < bestCost) {
			bestV, bestExact, bestCost = v, exact, cost
		}
	}
	return bestV, bestExact
}

// shadow eliminates variable v from the inequalities by Fourier-Motzkin:
// it returns the rows without v followed by the pairwise combinations of
// a lower and an upper bound on v, tightened by (a-1)(b-1) for the dark
// shadow. For the real shadow under Chernikov tracking it also returns
// the rows' histories, leaving out the combinations the rule drops; with
// verify set, each dropped combination's lower and upper bound rows are
// returned in pruned, in pairs.
func (p *omegaProblem) shadow(v int, dark bool) (out [][]Int, hist []bset, pruned [][]Int) {
	nl, nu := 0, 0
	for _, r := range p.ineqs {
		switch r[v].Sign() {
		case 1:
			nl++
		case -1:
			nu++
		}
	}
	lows, ups := make([][]Int, 0, nl), make([][]Int, 0, nu)
	nr := len(p.ineqs) - nl - nu
	rest := make([][]Int, 0, nr)
	var lowsH, upsH, restH []bset
	track := p.hist != nil
	if track {
		lowsH, upsH, restH = make([]bset, 0, nl), make([]bset, 0, nu), make([]bset, 0, nr)
	}
	for i, r := range p.ineqs {
		var h bset
		if track {
			h = p.hist[i]
		}
		switch r[v].Sign() {
		case 1:
			lows = append(lows, r)
			if track {
				lowsH = append(lowsH, h)
			}
		case -1:
			ups = append(ups, r)
			if track {
				upsH = append(upsH, h)
			}
		default:
			rest = append(rest, r)
			if track {
				restH = append(restH, h)
			}
		}
	}
	out = append(make([][]Int, 0, len(rest)+nl*nu), rest...)
	chern := track && !dark
	if chern {
		hist = append(make([]bset, 0, len(rest)+nl*nu), restH...)
	}
	for li, l := range lows {
		for ui, u := range ups {
			var h bset
			if chern {
				h = lowsH[li].or(upsH[ui])
				if h.count() > p.elim+2 {
					if p.verify {
						pruned = append(pruned, l, u)
					}
					continue
				}
			}
			a, b := l[v], u[v].Neg()
			r := make([]Int, p.nv+1)
			for i := range r {
				r[i] = b.Mul(l[i]).Add(a.Mul(u[i]))
			}
			if dark {
				k := len(r) - 1
				r[k] = r[k].Sub(a.Sub(NewInt(1)).Mul(b.Sub(NewInt(1))))
			}
			out = append(out, r)
			if chern {
				hist = append(hist, h)
			}
		}
	}
	return out, hist, pruned
}

// eliminateExact eliminates variable v, whose lower or upper bounds all
// have unit coefficients, by Fourier-Motzkin (the real shadow, then exact).
func (p *omegaProblem) eliminateExact(m *meter, v int) error {
	var pruned [][]Int
	track := p.hist != nil
	p.ineqs, p.hist, pruned = p.shadow(v, false)
	p.gone++
	if track {
		p.elim++
	}
	if p.verify {
		return p.verifyPruned(m, v, pruned)
	}
	return nil
}

// solveInexact decides the problem when variable v cannot be eliminated
// exactly. A ray or a line of the problem is removed first (the problem
// goes back to solve). The rational relaxation with a short
// branch-and-bound search, then the dark shadow (sufficient), are
// shortcuts; if neither decides, the problem splits (splitOnBounds),
// unless it is itself a dark shadow, which is then inconclusive
// (errCapped).
func (p *omegaProblem) solveInexact(m *meter, v int) (bool, error) {
	// The dark shadow runs under a size limit and counts as inconclusive
	// when it exceeds it.
	limit := 4*len(p.ineqs) + 64
	if p.limit > 0 && p.limit < limit {
		limit = p.limit
	}
	// Rays and lines of the problem go first (lineality.go): the
	// splinters would enumerate a period along a line, and a polytope
	// without either is bounded, which splitOnHyperplane needs.
	switch dropped, err := p.dropRay(m); {
	case err != nil:
		return false, err
	case dropped:
		return p.solve(m)
	}
	switch cut, err := p.cutLineality(m); {
	case err != nil:
		return false, err
	case cut:
		return p.solve(m)
	}
	switch r, err := p.shortcut(m); {
	case err != nil:
		return false, err
	case r == bbFeasible:
		return true, nil
	case r == bbInfeasible:
		return false, nil
	}
	dark := &omegaProblem{nv: p.nv, bbVars: p.bbVars, limit: limit, noBB: p.noBB, verify: p.verify}
	// The shadow shares rows with p, and dark.solve updates its rows in
	// place: it gets copies.
	shadow, _, _ := p.shadow(v, true)
	dark.ineqs = copyRows(shadow)
	ok, err := dark.solve(m)
	if err != nil && !errors.Is(err, errCapped) {
		return false, err
	}
	if err == nil && ok {
		return true, nil
	}
	if p.limit > 0 {
		// p is itself a dark shadow, a shortcut: splitting it would
		// repeat, at every level, the work the split of the problem it
		// shadows does anyway when the problem is empty (sc1's
		// emptiness tests at the final stage: 1,530,767 steps with
		// the split shadows, 41,053 without).
		return false, errCapped
	}
	return p.splitOnBounds(m, v)
}

// splitOnBounds decides the problem by an exact split on variable v: if
// there is an integer solution, v can be taken as the largest of its
// lower bounds rounded up (or the smallest upper bound rounded down), so
// some bound row r with coefficient a on v satisfies 0 <= r <= a-1.
// Pinning r to each of these values gives an equality that eliminates v.
// The side with the smaller sum of coefficients is used, unless more
// than hyperplaneMinSplinters splinters would follow and a thin
// direction of the (bounded) problem meets it in fewer hyperplanes
// (splitOnHyperplane).
func (p *omegaProblem) splitOnBounds(m *meter, v int) (bool, error) {
	lowSum, upSum := Int{}, Int{}
	for _, r := range p.ineqs {
		switch r[v].Sign() {
		case 1:
			lowSum = lowSum.Add(r[v].Abs())
		case -1:
			upSum = upSum.Add(r[v].Abs())
		}
	}
	side := 1 // the lower bounds
	if upSum.Cmp(lowSum) < 0 {
		side = -1
	}
	// A bounded problem may have a direction of fewer hyperplanes than
	// there are splinters (gbr.go).
	splinters := lowSum
	if side < 0 {
		splinters = upSum
	}
	if splinters.Cmp(NewInt(hyperplaneMinSplinters)) > 0 {
		dir, lo, hi, ok, err := p.thinDirection(m)
		if err != nil {
			return false, err
		}
		if ok && hi.Sub(lo).Cmp(splinters) < 0 {
			return p.splitOnHyperplane(m, dir, lo, hi)
		}
	}
	for _, r := range p.ineqs {
		if r[v].Sign() != side {
			continue
		}
		a := r[v].Abs()
		for i := NewInt(0); i.Cmp(a) < 0; i = i.Add(NewInt(1)) {
			if err := m.step(); err != nil {
				return false, err
			}
			q := p.copy()
			q.limit = p.limit
			e := copyRow(r)
			k := len(e) - 1
			e[k] = e[k].Sub(i)
			q.eqs = append(q.eqs, e)
			ok, err := q.solve(m)
			if err != nil || ok {
				return ok, err
			}
		}
	}
	return false, nil
}

// hyperplaneMinSplinters is the number of splinters above which
// splitOnBounds looks for a thinner direction (a reduced basis costs a
// few dozen linear programs).
const hyperplaneMinSplinters = 4

// errCapped reports that a shortcut sub-problem exceeded its size limit.
var errCapped = errors.New("presburger: sub-problem size limit")

// flatRows returns b's equalities and all inequalities (with the division
// definitions) over its nVars variables.
func (b *BasicMap) flatRows() (eqs, ineqs [][]Int) {
	return b.eqs, b.allIneqsRef()
}

// emptyWith reports whether the conjunction of b's locals (with their
// division definitions) and the rows eqs and ineqs, over b's columns and
// in place of b's own rows, has no integer point. It saves copying b to
// test a variant of its rows: the rows are only read.
func (b *BasicMap) emptyWith(m *meter, eqs, ineqs [][]Int) (bool, error) {
	all := make([][]Int, 0, len(ineqs)+2*len(b.divs))
	all = append(all, ineqs...)
	for i, d := range b.divs {
		if !d.Den.IsZero() {
			lo, hi := b.divRows(i)
			all = append(all, lo, hi)
		}
	}
	ok, err := omegaFeasible(m, eqs, all, b.nVars())
	if err != nil {
		return false, emptinessErr(len(eqs)+len(all), err)
	}
	return !ok, nil
}

// replaceRow returns a copy of the list rows with row i replaced by r (the
// rows themselves are shared).
func replaceRow(rows [][]Int, i int, r []Int) [][]Int {
	out := append([][]Int(nil), rows...)
	out[i] = r
	return out
}

// withRow returns a copy of the list rows with r appended (the rows
// themselves are shared).
func withRow(rows [][]Int, r ...[]Int) [][]Int {
	return append(append(make([][]Int, 0, len(rows)+len(r)), rows...), r...)
}

// IsEmpty reports whether b has no integer point, for any value of the
// parameters (parameters, dimensions and locals all range over the
// integers). The decision is exact.
func (b *BasicMap) IsEmpty(ctx context.Context) (bool, error) {
	return b.isEmptyTab(newMeter(ctx))
}

// IsEmptyPoint is IsEmpty that also returns, when b is not empty, the
// integer point that showed it, as values of the columns [params | in |
// out] (locals are existentially quantified and not returned), if the
// test found one: the rational tableau's integral vertex or a point of
// its short branch and bound. It returns no point when b is empty, or
// when the Omega test decided that b is not (it finds no point). The
// decision and its cost are IsEmpty's.
func (b *BasicMap) IsEmptyPoint(ctx context.Context) (empty bool, point []Int, err error) {
	if b.empty {
		return true, nil, nil
	}
	if b.isUniverse() {
		return false, make([]Int, b.nDims()), nil
	}
	empty, p, err := newPrefixTab(newMeter(ctx), b).isEmptyPoint(b)
	if err != nil || empty || len(p) < b.nDims() {
		return empty, nil, err
	}
	return empty, p[:b.nDims():b.nDims()], nil
}

// An IneqTester decides, for one inequality after another, whether a
// conjunction b with that inequality added is empty, as IsEmptyPoint
// decides it for b with the inequality (the same exact decision; the
// point may be another), on one rational tableau of b's rows that each
// test extends by its row and takes back after, rather than a tableau
// built afresh for each: after the first test, a test starts from a
// feasible basis of b's rows, a few pivots from one of the extension's
// (for instance to test many pairs of b's columns for a point where they
// differ). Each test counts its steps as an operation of its context. An
// IneqTester is not safe for concurrent use.
type IneqTester struct {
	b  *BasicMap
	pt *prefixTab // nil until the first test, and again once it failed
}

// NewIneqTester returns an IneqTester of b's extensions. The tableau is
// built by the first test.
func (b *BasicMap) NewIneqTester() *IneqTester {
	return &IneqTester{b: b.Copy()}
}

// IsEmptyWith reports whether b with the inequality row >= 0 (a row of b's
// NewRow) is empty and, when it is not, the point that showed it if the
// test found one, as IsEmptyPoint does.
func (it *IneqTester) IsEmptyWith(ctx context.Context, row []Int) (empty bool, point []Int, err error) {
	b := it.b
	b.checkRow(row)
	c := b.with(copyRow(row), false)
	if c.empty {
		return true, nil, nil
	}
	mt := newMeter(ctx)
	if it.pt == nil || it.pt.t == nil {
		it.pt = newPrefixTab(mt, b)
	}
	pt := it.pt
	pt.mt = mt
	if pt.t != nil {
		pt.t.m = mt
	}
	snap := pt.snapshot()
	pt.addRow(c.ineqs[len(c.ineqs)-1])
	empty, p, err := pt.isEmptyPoint(c)
	pt.rollback(snap)
	if err != nil || empty || len(p) < c.nDims() {
		return empty, nil, err
	}
	return false, p[:c.nDims():c.nDims()], nil
}

// isEmptyTab is isEmpty that tries a rational tableau of b first
// (prefixTab): rationally infeasible, an integral vertex or a point of a
// short branch and bound settle most conjunctions for less than the
// Omega test, which decides the others.
func (b *BasicMap) isEmptyTab(m *meter) (bool, error) {
	if b.empty {
		return true, nil
	}
	if b.isUniverse() {
		return false, nil
	}
	return newPrefixTab(m, b).isEmpty(b)
}

// isUniverse reports whether b has no constraint and no local: every
// point of its space.
func (b *BasicMap) isUniverse() bool {
	return !b.empty && len(b.eqs) == 0 && len(b.ineqs) == 0 && len(b.divs) == 0
}

func (b *BasicMap) isEmpty(m *meter) (bool, error) {
	if b.empty {
		return true, nil
	}
	if b.isUniverse() {
		return false, nil
	}
	eqs, ineqs := b.flatRows()
	ok, err := omegaFeasible(m, eqs, ineqs, b.nVars())
	if err != nil {
		return false, emptinessErr(len(eqs)+len(ineqs), err)
	}
	return !ok, nil
}

// emptinessErr wraps an error of the emptiness test of a conjunction of n
// constraints (its division rows included), the same on every path.
func emptinessErr(n int, err error) error {
	return fmt.Errorf("emptiness of a conjunction of %d constraints: %w", n, err)
}

// Sample returns an integer point of b as values of the columns [params |
// in | out] (locals are existentially quantified and not returned), or nil
// if b is empty.
func (b *BasicMap) Sample(ctx context.Context) ([]Int, error) {
	return b.sample(newMeter(ctx))
}

// SampleAny returns an integer point of b as Sample does, or nil if b is
// empty, found by the quickest means rather than near the origin: a short
// branch-and-bound search on the rational relaxation, then Sample's search
// if that does not conclude. Use it where any point will do (to tell two
// expressions apart, say); Sample's points are smaller and stabler, for
// showing to people.
func (b *BasicMap) SampleAny(ctx context.Context) ([]Int, error) {
	if b.empty {
		return nil, nil
	}
	m := newMeter(ctx)
	eqs, ineqs := b.flatRows()
	point, r, err := branchAndBoundPoint(m, eqs, ineqs, b.nVars(), 32)
	switch {
	case err != nil:
		return nil, err
	case r == bbInfeasible:
		return nil, nil
	case r == bbFeasible:
		return point[:b.nDims()], nil
	}
	return b.sample(m)
}

// SampleQuick returns an integer point of b found by a short
// branch-and-bound search on the rational relaxation, which solves at most
// maxNodes of its linear programs, or nil when that search does not
// conclude: nil says nothing about b's emptiness. Use it where a point
// only spares an exact test, which decides without one.
func (b *BasicMap) SampleQuick(ctx context.Context, maxNodes int) ([]Int, error) {
	if b.empty {
		return nil, nil
	}
	eqs, ineqs := b.flatRows()
	point, r, err := branchAndBoundPoint(newMeter(ctx), eqs, ineqs, b.nVars(), maxNodes)
	if err != nil || r != bbFeasible {
		return nil, err
	}
	return point[:b.nDims()], nil
}

func (b *BasicMap) sample(m *meter) ([]Int, error) {
	if b.empty {
		return nil, nil
	}
	eqs, ineqs := b.flatRows()
	eqs, ineqs = copyRows(eqs), copyRows(ineqs)
	nv := b.nVars()
	w := nv + 1
	feasible := func(extra ...[]Int) (bool, error) {
		return omegaFeasible(m, eqs, append(append([][]Int(nil), ineqs...), extra...), nv)
	}
	if ok, err := feasible(); err != nil || !ok {
		return nil, err
	}
	// bound returns the row sign*x_j - c >= 0 (i.e. sign*x_j >= c).
	bound := func(j int, sign int64, c Int) []Int {
		r := make([]Int, w)
		r[j] = NewInt(sign)
		r[w-1] = c.Neg()
		return r
	}
	point := make([]Int, b.nDims())
	for j := 0; j < b.nDims(); j++ {
		// Search x_j >= 0 first, then x_j <= -1 (as -x_j >= 1).
		sign := int64(1)
		ok, err := feasible(bound(j, 1, Int{}))
		if err != nil {
			return nil, err
		}
		if !ok {
			sign = -1
		}
		// y = sign*x_j ranges over y >= y0 (y0 = 0 or 1); find the least y.
		y0 := NewInt(0)
		if sign < 0 {
			y0 = NewInt(1)
		}
		lo := bound(j, sign, y0)
		// y0 itself, most often the answer, costs one test.
		hi := y0
		ok, err = feasible(lo, bound(j, -sign, hi.Neg()))
		if err != nil {
			return nil, err
		}
		if !ok {
			// No integer point has y below the rational minimum of y:
			// the searches start at its ceiling (when the tableau gives
			// it), which is most often y's least integer value.
			start := y0.Add(NewInt(1))
			obj := make([]Int, w)
			obj[j] = NewInt(sign)
			lb, found, err := rationalLowerBound(m, eqs, append(slices.Clip(ineqs), lo), nv, obj)
			if err != nil {
				return nil, err
			}
			if found && lb.Cmp(start) > 0 {
				start = lb
			}
			// Exponential search for hi with {y0 <= y <= hi} feasible.
			hi = start
			step := NewInt(1)
			for {
				ok, err := feasible(lo, bound(j, -sign, hi.Neg()))
				if err != nil {
					return nil, err
				}
				if ok {
					break
				}
				hi = hi.Add(step)
				step = step.Mul(NewInt(2))
			}
			// Binary search for the least feasible hi.
			l := start
			for l.Cmp(hi) < 0 {
				mid := l.Add(hi).FloorDiv(NewInt(2))
				ok, err := feasible(lo, bound(j, -sign, mid.Neg()))
				if err != nil {
					return nil, err
				}
				if ok {
					hi = mid
				} else {
					l = mid.Add(NewInt(1))
				}
			}
		}
		v := hi
		if sign < 0 {
			v = v.Neg()
		}
		point[j] = v
		e := make([]Int, w)
		e[j] = NewInt(1)
		e[w-1] = v.Neg()
		eqs = append(eqs, e)
	}
	return point, nil
}

// rationalLowerBound returns the ceiling of the least rational value of
// obj·x over { x : eqs·x = 0, ineqs·x >= 0 } (nv variables; obj's
// constant is 0), below which no integer point of the system lies; ok is
// false when the tableau does not give it (no rational point, obj
// unbounded below, or the pivot limit reached). The rows are not
// modified.
func rationalLowerBound(m *meter, eqs, ineqs [][]Int, nv int, obj []Int) (lb Int, ok bool, err error) {
	t := newSimplexTab(m, nv)
	for _, e := range eqs {
		t.addRow(e)
		t.addRow(negRow(e))
	}
	for _, r := range ineqs {
		t.addRow(r)
	}
	t.limit = 4 * simplexPivotLimit(t)
	feasible, err := t.restore()
	switch {
	case errors.Is(err, errSimplexLimit):
		return Int{}, false, nil
	case err != nil:
		return Int{}, false, err
	case !feasible:
		return Int{}, false, nil
	}
	u := t.addRow(obj)
	t.restr[u] = false
	t.limit = simplexPivotLimit(t)
	st, err := t.optimize(u, -1, nil)
	if err != nil {
		return Int{}, false, err
	}
	if st != optOptimal {
		return Int{}, false, nil
	}
	num, den := t.value(u)
	return num.CeilDiv(den), true, nil
}

// boxReduce derives integer bounds on single variables from the
// inequalities (two rounds of propagation), adds them as rows, and drops
// every row implied by those bounds. It returns false if some row cannot
// be satisfied within the bounds. The integer points are unchanged: the
// bounds are consequences of the rows, and a dropped row is a consequence
// of the bounds.
func (p *omegaProblem) boxReduce() bool {
	n := p.nv
	lo := make([]*Int, n)
	hi := make([]*Int, n)
	for round := 0; round < 2; round++ {
		for _, r := range p.ineqs {
			tightenBox(r, n, lo, hi)
		}
	}
	for j := 0; j < n; j++ {
		if lo[j] != nil && hi[j] != nil && lo[j].Cmp(*hi[j]) > 0 {
			return false
		}
	}
	var keep [][]Int
	for _, r := range p.ineqs {
		// Single-variable rows are replaced by the bounds below.
		nz := 0
		for i := 0; i < n; i++ {
			if !r[i].IsZero() {
				nz++
			}
		}
		if nz <= 1 {
			continue
		}
		if minv, finite := boxMin(r, n, lo, hi); finite && minv.Sign() >= 0 {
			continue
		}
		keep = append(keep, r)
	}
	p.ineqs = appendBoxRows(keep, n, lo, hi)
	p.hist = nil
	return p.normalizeAll()
}

// tightenBox tightens the bounds lo and hi (nil: none) on the n variables
// with the inequality r: for each variable j, r_j x_j >= -(c + sum over
// i != j of r_i x_i), whose right side is bounded when the other
// variables' bounds are finite.
func tightenBox(r []Int, n int, lo, hi []*Int) {
	for j := 0; j < n; j++ {
		if r[j].IsZero() {
			continue
		}
		// sum = max over the box of sum_{i != j} r_i x_i + c.
		sum := r[n]
		finite := true
		for i := 0; i < n && finite; i++ {
			if i == j || r[i].IsZero() {
				continue
			}
			var b *Int
			if r[i].Sign() > 0 {
				b = hi[i]
			} else {
				b = lo[i]
			}
			if b == nil {
				finite = false
				break
			}
			sum = sum.Add(r[i].Mul(*b))
		}
		if !finite {
			continue
		}
		// r_j x_j + sum >= 0 must be possible: r_j x_j >= -sum.
		if r[j].Sign() > 0 {
			v := sum.Neg().CeilDiv(r[j])
			if lo[j] == nil || v.Cmp(*lo[j]) > 0 {
				lo[j] = &v
			}
		} else {
			v := sum.FloorDiv(r[j].Neg())
			if hi[j] == nil || v.Cmp(*hi[j]) < 0 {
				hi[j] = &v
			}
		}
	}
}

// boxMin returns the minimum of the row r (n variables, then the
// constant) over the box lo..hi, and false if it is not bounded below.
func boxMin(r []Int, n int, lo, hi []*Int) (Int, bool) {
	minv := r[n]
	for i := 0; i < n; i++ {
		if r[i].IsZero() {
			continue
		}
		var b *Int
		if r[i].Sign() > 0 {
			b = lo[i]
		} else {
			b = hi[i]
		}
		if b == nil {
			return Int{}, false
		}
		minv = minv.Add(r[i].Mul(*b))
	}
	return minv, true
}

// appendBoxRows appends to rows the finite bounds of the box as
// inequalities x_j - lo_j >= 0 and hi_j - x_j >= 0.
func appendBoxRows(rows [][]Int, n int, lo, hi []*Int) [][]Int {
	for j := 0; j < n; j++ {
		if lo[j] != nil {
			r := make([]Int, n+1)
			r[j], r[n] = NewInt(1), lo[j].Neg()
			rows = append(rows, r)
		}
		if hi[j] != nil {
			r := make([]Int, n+1)
			r[j], r[n] = NewInt(-1), *hi[j]
			rows = append(rows, r)
		}
	}
	return rows
}

// coefIndex finds rows by their coefficient vector (the first n entries),
// or by its negation, without building string keys. Small indexes (most)
// scan a list of hashes; past coefIndexScan entries a map takes over.
type coefIndex struct {
	n int
	// ents lists the hashes and positions added, in order.
	ents []coefEntry
	// m maps a hash to the last entry added with it, plus one; next
	// chains the earlier ones (next[e] is the previous entry with e's
	// hash, plus one; 0 ends the chain). Built once hs is long.
	m    map[uint64]int
	next []int
}

// coefIndexScan is the size up to which a coefIndex scans its hashes.
const coefIndexScan = 48

// coefEntry is one row of a coefIndex: its hash and position.
type coefEntry struct {
	h uint64
	p int
}

func newCoefIndex(n, size int) *coefIndex {
	return &coefIndex{n: n, ents: make([]coefEntry, 0, size)}
}

// coefHashTerms bounds the nonzero coefficients that coefHash reads: rows
// are long and sparse, and equal hashes are confirmed by comparing rows.
const coefHashTerms = 12

// coefHash hashes the positions and magnitudes of the first nonzero
// entries among the first n of r, with the signs relative to the first
// one's: r and its negation hash alike, so that one hash serves the
// lookups of a row and of its negation (coefIndex.findHash).
func coefHash(r []Int, n int) uint64 {
	h := uint64(14695981039346656037)
	terms := 0
	flip := false // negate the entries, so that the first one is positive
	for i := 0; i < n && terms < coefHashTerms; i++ {
		v := r[i]
		if v.big == nil && v.small == 0 {
			continue
		}
		if terms == 0 {
			flip = v.Sign() < 0
		}
		terms++
		h ^= uint64(i) * 0x9e3779b97f4a7c15
		var x uint64
		if v.big != nil {
			sign := v.big.Sign()
			if flip {
				sign = -sign
			}
			x = uint64(len(v.big.Bits()))*0x9e3779b97f4a7c15 + uint64(sign+2)
		} else {
			s := v.small
			if flip {
				s = -s
			}
			x = uint64(s)
		}
		h ^= x
		h *= 1099511628211
		h ^= h >> 29
	}
	return h
}

// addHash records that rows[pos] has hash h = coefHash(rows[pos], n).
func (ix *coefIndex) addHash(h uint64, pos int) {
	e := len(ix.ents)
	ix.ents = append(ix.ents, coefEntry{h, pos})
	if ix.m == nil && len(ix.ents) > coefIndexScan {
		ix.m = make(map[uint64]int, 2*len(ix.ents))
		ix.next = make([]int, 0, 2*len(ix.ents))
		for k, ek := range ix.ents[:e] {
			ix.next = append(ix.next, ix.m[ek.h])
			ix.m[ek.h] = k + 1
		}
	}
	if ix.m != nil {
		ix.next = append(ix.next, ix.m[h])
		ix.m[h] = e + 1
	}
}

// findHash returns the position of a row of rows whose coefficients
// equal r's (or their negation), or -1, given h = coefHash(r, n).
// Entries are tried from the last added.
func (ix *coefIndex) findHash(rows [][]Int, r []Int, neg bool, h uint64) int {
	if ix.m == nil {
		for e := len(ix.ents) - 1; e >= 0; e-- {
			if ix.ents[e].h == h && ix.sameCoefs(rows[ix.ents[e].p], r, neg) {
				return ix.ents[e].p
			}
		}
		return -1
	}
	for e := ix.m[h]; e != 0; e = ix.next[e-1] {
		if p := ix.ents[e-1].p; ix.sameCoefs(rows[p], r, neg) {
			return p
		}
	}
	return -1
}

// sameCoefs reports whether o's first n entries equal r's (or their
// negation).
func (ix *coefIndex) sameCoefs(o, r []Int, neg bool) bool {
	for i := 0; i < ix.n; i++ {
		if neg {
			if !o[i].isNegOf(r[i]) {
				return false
			}
		} else if !o[i].Equal(r[i]) {
			return false
		}
	}
	return true
}

// shortcut runs the bounded branch-and-bound search on the inequalities
// (bbUnknown when disabled).
func (p *omegaProblem) shortcut(m *meter) (bbResult, error) {
	if p.noBB {
		return bbUnknown, nil
	}
	return branchAndBoundDepth(m, nil, p.ineqs, p.nv, 16, 4*p.bbVars+8)
}

// errPruned reports a row dropped by Chernikov's rule that the kept rows
// do not imply (a soundness bug; only checked when verifying).
var errPruned = errors.New("presburger: internal error: Chernikov's rule dropped a row the others do not imply")

// verifyPruned checks that each combination r of a lower and an upper
// bound on v (the rows of pruned, in pairs) dropped by Chernikov's rule
// while eliminating v loses no integer point:
// the kept rows (p.ineqs) and r <= -1 must have no rational solution. As r
// has integer coefficients, r < 0 at an integer point means r <= -1, so
// this is exactly "every integer point of the kept rows satisfies r >= 0"
// relaxed to the rationals (what the rule claims, and slightly less).
func (p *omegaProblem) verifyPruned(m *meter, v int, pruned [][]Int) error {
	for k := 0; k+1 < len(pruned); k += 2 {
		l, u := pruned[k], pruned[k+1]
		a, b := l[v], u[v].Neg()
		neg := make([]Int, p.nv+1) // -(b*l + a*u) - 1 >= 0
		for i := range neg {
			neg[i] = b.Mul(l[i]).Add(a.Mul(u[i])).Neg()
		}
		neg[p.nv] = neg[p.nv].Sub(NewInt(1))
		res, err := lpSolve(m, nil, append(copyRows(p.ineqs), neg), p.nv)
		if err != nil {
			return err
		}
		if res.feasible {
			return errPruned
		}
	}
	return nil
}
