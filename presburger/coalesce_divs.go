package presburger

// This file lets coalescing merge conjunctions whose local variables
// differ only in form. The symbolic heaps of tiled kernels hold pieces
// such as
//
//	exists (e0 = floor(x/16): 2*r = e0 and ...)
//
// beside pieces without locals: the division is fixed by an equality, so
// it is a function of the other variables twice over, and the piece is
// the conjunction without it (16*(2r) <= x <= 16*(2r) + 15). isl's
// simplification removes such divisions (isl_basic_map_simplify, which
// eliminates divisions with equalities; Verdoolaege, isl: An Integer Set
// Library for the Polyhedral Model, 2010, section 2); coalesceMergeTab
// does the same, on the pairs that do not have the same locals, before it
// gives up on them.

// elimEqDivs returns a conjunction equal to b without the divisions that
// an equality with a unit coefficient on them fixes, and with the plain
// existentials that two opposite inequalities pin down made divisions
// (existentialAsDiv), or b itself when there is nothing to do (or when
// the result would not be normalised: then nothing is gained).
//
// A division q = floor(num/den) is the integer with
// den*q <= num <= den*q + den - 1; if an equality says q = expr (expr
// affine over the other columns), the conjunction is the same with q
// replaced by expr everywhere and those two inequalities added, so q
// goes. expr must not bring a later local into the numerator of a
// division that uses q (numerators use earlier columns only): such a q
// is left.
func elimEqDivs(b *BasicMap) *BasicMap {
	c := b
	for changed := true; changed; {
		changed = false
		for i := range c.divs {
			if !c.divs[i].Den.IsZero() {
				continue
			}
			if num, den := existentialAsDiv(c, i); num != nil {
				if c == b {
					c = b.Copy()
				}
				c.divs[i] = Div{Num: num, Den: den}
			}
		}
		for i := len(c.divs) - 1; i >= 0 && !changed; i-- {
			if c.divs[i].Den.IsZero() {
				continue
			}
			ei, expr := divFixedByEq(c, i)
			if ei < 0 {
				continue
			}
			if c == b {
				c = b.Copy()
			}
			lo, hi := c.divRows(i)
			c.eqs = append(c.eqs[:ei:ei], c.eqs[ei+1:]...)
			c.ineqs = append(c.ineqs, lo, hi)
			c.replaceLocalByExpr(i, expr)
			changed = true
		}
	}
	if c == b {
		return b
	}
	if !c.normalize() {
		return b
	}
	return c
}

// divFixedByEq returns an equality of c with coefficient ±1 on division
// i, and the expression of the division it gives (a row over c's columns,
// zero on the division), or -1 if there is none that can replace it.
func divFixedByEq(c *BasicMap, i int) (int, []Int) {
	col := c.locCol(i)
	nd := c.nDims()
	used := false // some division's numerator uses division i
	for _, d := range c.divs {
		if d.Num != nil && !d.Num[col].IsZero() {
			used = true
		}
	}
	for ei, e := range c.eqs {
		a := e[col]
		if !a.Abs().IsOne() {
			continue
		}
		// a*q + rest = 0 with a = ±1: q = -a*rest.
		expr := make([]Int, len(e))
		local := false
		for j, v := range e {
			if j == col || v.IsZero() {
				continue
			}
			expr[j] = v.Mul(a).Neg()
			if j >= nd && j < len(e)-1 {
				local = true
			}
		}
		if local && used {
			continue
		}
		return ei, expr
	}
	return -1, nil
}

// existentialAsDiv returns the definition floor(num/den) of plain
// existential i of c when two inequalities pin it down:
//
//	f + k1 - m*e >= 0   and   -f + k2 + m*e >= 0,   k1 + k2 < m
//
// (m > 0, f affine over the other columns) give 0 <= f + k1 - m*e <= k1 +
// k2 < m, so e = floor((f + k1)/m), the only integer there (isl's
// simplification finds divisions the same way). f may use dimensions and
// earlier divisions only, as a numerator must. num is nil when no pair of
// rows qualifies.
func existentialAsDiv(c *BasicMap, i int) ([]Int, Int) {
	col := c.locCol(i)
	nd := c.nDims()
	n := c.NumCols() - 1
	for _, lo := range c.ineqs {
		m := lo[col].Neg()
		if m.Sign() <= 0 {
			continue
		}
		ok := true
		for j := nd; j < n && ok; j++ {
			if j != col && !lo[j].IsZero() {
				l := j - nd
				ok = l < i && !c.divs[l].Den.IsZero()
			}
		}
		if !ok {
			continue
		}
		for _, hi := range c.ineqs {
			if !hi[col].Equal(m) {
				continue
			}
			opposite := true
			for j := 0; j < n && opposite; j++ {
				opposite = j == col || hi[j].isNegOf(lo[j])
			}
			if !opposite || lo[n].Add(hi[n]).Cmp(m) >= 0 {
				continue
			}
			num := copyRow(lo)
			num[col] = Int{}
			return num, m
		}
	}
	return nil, Int{}
}
