package presburger

// This file holds the cheap path of simplify: most conjunctions the
// verifier simplifies are a few bounds on parameters, for which building
// a simplex tableau (redundant.go) costs more than the answer needs.
// quickSimplify settles a normalised conjunction without locals when its
// rows are, after peeling, single-variable bounds; it declines otherwise.

// quickSimplify simplifies c (normalised, not known empty, without
// locals) in place when it can decide every test of simplify by direct
// reasoning, and reports whether it did; empty reports that c has no
// integer point. When it declines, c is unchanged.
//
// The reasoning is exact over the integers:
//
//   - An equality over one variable with coefficient ±1 fixes it; a
//     variable fixed twice is left to the general path. A row (equality
//     or inequality, but a fixing equality) all of whose variables are
//     fixed is then either violated (c is empty) or implied by the
//     fixing equalities (redundant: dropped).
//   - A row in which some variable occurs that occurs in no other row
//     can be given any value of the right sign by that variable alone
//     (an inequality: far enough either way; an equality: any value,
//     when the coefficient is ±1). Such a row is neither redundant nor an
//     implicit equality, and whatever the other rows allow, it can be
//     satisfied. It is peeled off, and the peeling repeats on the rest.
//   - What remains must be fixing equalities and inequalities over one
//     variable each once the fixed variables are replaced by their
//     values: at most one lower and one upper bound per variable, the
//     lower below the upper. Such a box is not empty and none of its
//     rows is redundant or an implicit equality, and by the previous
//     point the same holds in c.
//
// So simplify's answer is c without the rows of the first point: no
// implicit equality and no other redundant row. TestQuickSimplify
// checks this against the all-Omega algorithm.
func quickSimplify(c *BasicMap) (done, empty bool) {
	if len(c.divs) > 0 {
		return false, false
	}
	n := c.NumCols() - 1
	var buf [32]int
	var count []int // rows in which each variable occurs
	if n <= len(buf) {
		count = buf[:n]
	} else {
		count = make([]int, n)
	}
	// Variables fixed by an equality over them alone, and those
	// equalities.
	var fixed map[int]Int
	var fixing []bool
	for i, e := range c.eqs {
		if v := singleVar(e, n); v >= 0 && e[v].Abs().IsOne() {
			if fixed == nil {
				fixed = make(map[int]Int)
				fixing = make([]bool, len(c.eqs))
			}
			if _, dup := fixed[v]; dup {
				return false, false // two values: let the general path decide
			}
			// e[v]*x + k = 0 with e[v] = ±1: x = -k*e[v].
			fixed[v] = e[n].Mul(e[v]).Neg()
			fixing[i] = true
		}
	}
	var dropEq, drop []bool
	if fixed != nil {
		for i, e := range c.eqs {
			if v, ok := valueIfFixed(e, n, fixed); !fixing[i] && ok {
				if !v.IsZero() {
					return true, true
				}
				if dropEq == nil {
					dropEq = make([]bool, len(c.eqs))
				}
				dropEq[i] = true
			}
		}
		for i, r := range c.ineqs {
			if v, ok := valueIfFixed(r, n, fixed); ok {
				if v.Sign() < 0 {
					return true, true
				}
				if drop == nil {
					drop = make([]bool, len(c.ineqs))
				}
				drop[i] = true
			}
		}
	}
	if !quickPeel(c, n, count, dropEq, drop, fixed) {
		return false, false
	}
	c.eqs = keepRows(c.eqs, dropEq)
	c.ineqs = keepRows(c.ineqs, drop)
	// normRows leaves the equalities it makes of two opposite
	// inequalities in the sign of the first; simplify's closing
	// normalisation gives every equality its canonical sign (first
	// nonzero coefficient positive), and so does this.
	for i, e := range c.eqs {
		for j := 0; j < n; j++ {
			if !e[j].IsZero() {
				if e[j].Sign() < 0 {
					c.eqs[i] = negRow(e)
				}
				break
			}
		}
	}
	return true, false
}

// quickIsEmpty decides whether b, a conjunction without locals, is
// empty when normalisation or quickSimplify settles it (on a shallow
// copy: b does not change); decided is false otherwise.
func quickIsEmpty(b *BasicMap) (decided, empty bool) {
	if b.empty {
		return true, true
	}
	if len(b.divs) > 0 {
		return false, false
	}
	if b.isUniverse() {
		return true, false
	}
	c := &BasicMap{space: b.space, nP: b.nP, nI: b.nI, nO: b.nO,
		eqs: b.eqs[:len(b.eqs):len(b.eqs)], ineqs: b.ineqs[:len(b.ineqs):len(b.ineqs)]}
	if !c.normalize() {
		return true, true
	}
	return quickSimplify(c)
}

// singleVar returns the only variable among the first n entries of r,
// or -1 if there are none or several.
func singleVar(r []Int, n int) int {
	v := -1
	for j := 0; j < n; j++ {
		if !r[j].IsZero() {
			if v >= 0 {
				return -1
			}
			v = j
		}
	}
	return v
}

// valueIfFixed returns the value of row r (n variables, then the
// constant) when every variable in it is fixed, and whether they all are.
func valueIfFixed(r []Int, n int, fixed map[int]Int) (Int, bool) {
	v := r[n]
	for j := 0; j < n; j++ {
		if r[j].IsZero() {
			continue
		}
		x, ok := fixed[j]
		if !ok {
			return Int{}, false
		}
		v = v.Add(r[j].Mul(x))
	}
	return v, true
}

// keepRows returns the rows not marked in drop (all of them if drop is
// nil).
func keepRows(rows [][]Int, drop []bool) [][]Int {
	if drop == nil {
		return rows
	}
	kept := rows[:0:0]
	for i, r := range rows {
		if !drop[i] {
			kept = append(kept, r)
		}
	}
	return kept
}

// quickPeel peels off the rows of c (but those marked in dropEq and
// drop) that have a variable of their own, as quickSimplify describes,
// and reports whether what remains is fixing equalities and bounds on
// one unfixed variable each, at most one of each side per variable, the
// lower below the upper. count is scratch space of n zeros.
func quickPeel(c *BasicMap, n int, count []int, dropEq, drop []bool, fixed map[int]Int) bool {
	type row = peelRow
	var buf [16]row
	rows := buf[:0]
	if k := len(c.eqs) + len(c.ineqs); k > len(buf) {
		rows = make([]row, 0, k)
	}
	for i, e := range c.eqs {
		if dropEq == nil || !dropEq[i] {
			rows = append(rows, row{e, true})
		}
	}
	for i, r := range c.ineqs {
		if drop == nil || !drop[i] {
			rows = append(rows, row{r, false})
		}
	}
	for _, x := range rows {
		for j := 0; j < n; j++ {
			if !x.r[j].IsZero() {
				count[j]++
			}
		}
	}
	for peeled := true; peeled; {
		peeled = false
		for i := 0; i < len(rows); i++ {
			x := rows[i]
			own := false
			for j := 0; j < n && !own; j++ {
				own = count[j] == 1 && !x.r[j].IsZero() && (!x.eq || x.r[j].Abs().IsOne())
			}
			if !own {
				continue
			}
			for j := 0; j < n; j++ {
				if !x.r[j].IsZero() {
					count[j]--
				}
			}
			rows[i] = rows[len(rows)-1]
			rows = rows[:len(rows)-1]
			i--
			peeled = true
		}
	}
	if fixed == nil {
		// No substitution: normRows left at most one lower and one
		// upper bound per variable, the lower below the upper.
		for _, x := range rows {
			if x.eq || singleVar(x.r, n) < 0 {
				return false
			}
		}
		return true
	}
	return quickBox(rows, n, fixed)
}

// peelRow is a row of quickPeel: an equality or an inequality.
type peelRow struct {
	r  []Int
	eq bool
}

// quickBox reports whether rows, what quickPeel left, are fixing
// equalities and bounds on one unfixed variable each once the fixed
// variables are replaced by their values, at most one of each side per
// variable, the lower below the upper.
func quickBox(rows []peelRow, n int, fixed map[int]Int) bool {
	type bounds struct {
		lo, hi       Int
		hasLo, hasHi bool
	}
	box := make(map[int]*bounds)
	for _, x := range rows {
		if x.eq {
			if v := singleVar(x.r, n); v < 0 || !x.r[v].Abs().IsOne() {
				return false // not a fixing equality
			}
			continue
		}
		// a*x + k >= 0 once the fixed variables are replaced.
		v, k := -1, x.r[n]
		for j := 0; j < n; j++ {
			if x.r[j].IsZero() {
				continue
			}
			if f, ok := fixed[j]; ok {
				k = k.Add(x.r[j].Mul(f))
				continue
			}
			if v >= 0 {
				return false // two unfixed variables
			}
			v = j
		}
		if v < 0 {
			return false // decided before peeling; not reached
		}
		bd := box[v]
		if bd == nil {
			bd = &bounds{}
			box[v] = bd
		}
		if a := x.r[v]; a.Sign() > 0 {
			if bd.hasLo {
				return false
			}
			bd.lo, bd.hasLo = k.Neg().CeilDiv(a), true // x >= ceil(-k/a)
		} else {
			if bd.hasHi {
				return false
			}
			bd.hi, bd.hasHi = k.FloorDiv(a.Neg()), true // x <= floor(k/-a)
		}
	}
	for _, bd := range box {
		if bd.hasLo && bd.hasHi && bd.lo.Cmp(bd.hi) >= 0 {
			return false // one point or none: the general path decides
		}
	}
	return true
}
