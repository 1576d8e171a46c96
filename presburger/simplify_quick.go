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
//   - An equality over one variable fixes it (normRow made its
//     coefficient ±1); an inequality over that variable alone is then
//     either violated (c is empty) or implied by the equality
//     (redundant).
//   - A row in which some variable occurs that occurs in no other row
//     can be given any value of the right sign by that variable alone
//     (an inequality: far enough either way; an equality: any value,
//     when the coefficient is ±1). Such a row is neither redundant nor an
//     implicit equality, and whatever the other rows allow, it can be
//     satisfied. It is peeled off, and the peeling repeats on the rest.
//   - What remains must be inequalities over one variable each: after
//     normRows, at most one lower and one upper bound per variable, the
//     lower below the upper (equal bounds became an equality, crossed
//     ones emptiness). Such a box is not empty and none of its rows is
//     redundant or an implicit equality, and by the previous point the
//     same holds in c.
//
// So simplify's answer is c without the inequalities of the first point:
// no implicit equality and no other redundant row. TestQuickSimplify
// checks this against the all-Omega algorithm.
func quickSimplify(c *BasicMap) (done, empty bool) {
	if len(c.divs) > 0 {
		return false, false
	}
	n := c.NumCols() - 1
	count := make([]int, n)       // rows in which each variable occurs
	single := func(r []Int) int { // the only variable of r, or -1
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
	// Variables fixed by an equality over them alone.
	var fixed map[int]Int
	for _, e := range c.eqs {
		if v := single(e); v >= 0 && e[v].Abs().IsOne() {
			if fixed == nil {
				fixed = make(map[int]Int)
			}
			if _, dup := fixed[v]; dup {
				return false, false // two values: let the general path decide
			}
			// e[v]*x + k = 0 with e[v] = ±1: x = -k*e[v].
			fixed[v] = e[n].Mul(e[v]).Neg()
		}
	}
	var drop []bool
	for i, r := range c.ineqs {
		v := single(r)
		if v < 0 {
			continue
		}
		x, ok := fixed[v]
		if !ok {
			continue
		}
		if r[v].Mul(x).Add(r[n]).Sign() < 0 {
			return true, true
		}
		if drop == nil {
			drop = make([]bool, len(c.ineqs))
		}
		drop[i] = true
	}
	if !quickPeel(c, n, count, drop, single) {
		return false, false
	}
	if drop != nil {
		kept := c.ineqs[:0:0]
		for i, r := range c.ineqs {
			if !drop[i] {
				kept = append(kept, r)
			}
		}
		c.ineqs = kept
	}
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

// quickPeel peels off the rows of c (but the inequalities marked in
// drop) that have a variable of their own, as quickSimplify describes,
// and reports whether what remains is inequalities over one variable
// each. count is scratch space of n zeros.
func quickPeel(c *BasicMap, n int, count []int, drop []bool, single func([]Int) int) bool {
	type row struct {
		r  []Int
		eq bool
	}
	rows := make([]row, 0, len(c.eqs)+len(c.ineqs))
	for _, e := range c.eqs {
		rows = append(rows, row{e, true})
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
	for _, x := range rows {
		if x.eq || single(x.r) < 0 {
			return false
		}
	}
	return true
}
