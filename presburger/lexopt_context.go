package presburger

import "context"

// This file decides the emptiness of parameter contexts for the
// parametric search of lexopt_tableau.go. A context is a conjunction of
// constraints on the parameters and on divisions of them; most contexts
// are small, so cheap exact tests come first: enumeration when the
// parameters are confined to a small box, a rational infeasibility proof
// by Fourier-Motzkin elimination, a search for a point near the origin;
// only then BasicMap.IsEmpty.

// lxToBasic converts a parameter context into a set with one dimension per
// original parameter and one division local per division parameter.
func lxToBasic(c *lxContext) *BasicMap {
	b := NewBasicMap(SetSpace(nil, FlatTuple("", make([]string, c.nPar)...)))
	for i, d := range c.divs {
		b.AddLocalDiv(lxFromP(d.num, c.nPar, i), d.den)
	}
	for _, r := range c.ineqs {
		b.AddIneq(lxFromP(r, c.nPar, len(c.divs)))
	}
	return b
}

// lxFromP converts a row in P layout [1, p, q] to the column layout
// [p | q_0..q_{nq-1} | 1].
func lxFromP(r []Int, nPar, nq int) []Int {
	out := make([]Int, nPar+nq+1)
	for i := 1; i < len(r) && i <= nPar+nq; i++ {
		out[i-1] = r[i]
	}
	out[nPar+nq] = r[0]
	return out
}

// lxMaxEnum bounds the number of parameter points lxExactOracle
// enumerates instead of calling the general emptiness test.
const lxMaxEnum = 4096

// lxExactOracle decides context emptiness exactly. When the original
// parameters are confined to a small box by the context's constraints (the
// division parameters are functions of them), it enumerates the box;
// otherwise it calls BasicMap.IsEmpty.
func lxExactOracle(ctx context.Context, c *lxContext) (bool, error) {
	if lo, hi, ok := lxParamBox(c); ok {
		return lxEnumEmpty(c, lo, hi), nil
	}
	// Cheap certificates first: rational infeasibility proves emptiness, a
	// point near the origin proves non-emptiness.
	if lxRationallyEmpty(c) {
		return true, nil
	}
	if lxNearOrigin(c) {
		return false, nil
	}
	// A rational tableau next: an integral vertex or a short branch and
	// bound settles most contexts before the Omega test.
	b := lxToBasic(c)
	return newPrefixTab(newMeter(ctx), b).isEmpty(b)
}

// lxNearOrigin looks for a point of the context near the origin, within
// lxMaxEnum candidates whatever the number of parameters: the box
// [-r, r]^n (r at most 6 for up to two parameters, 2 beyond) with the
// largest r that keeps it that small, and when not even
// r = 1 does (many parameters, such as the variables of deeply nested
// loops), the origin and the points one unit away from it along each
// parameter. A box of fixed radius would cost 5^n points, exponential in
// the loop depth.
func lxNearOrigin(c *lxContext) bool {
	n := c.nPar
	lo, hi := make([]int64, n), make([]int64, n)
	rmax := int64(2)
	if n <= 2 {
		rmax = 6
	}
	for r := rmax; r >= 1; r-- {
		size := int64(1)
		for k := 0; k < n && size <= lxMaxEnum; k++ {
			size *= 2*r + 1
		}
		if size > lxMaxEnum {
			continue
		}
		for k := range lo {
			lo[k], hi[k] = -r, r
		}
		return !lxEnumEmpty(c, lo, hi)
	}
	if !lxEnumEmpty(c, lo, hi) { // the origin
		return true
	}
	for k := 0; k < n; k++ {
		for _, d := range []int64{-1, 1} {
			lo[k], hi[k] = d, d
			if !lxEnumEmpty(c, lo, hi) {
				return true
			}
		}
		lo[k], hi[k] = 0, 0
	}
	return false
}

// lxRationallyEmpty reports whether the context, read over the rationals
// (divisions as variables bounded by their defining inequalities), is
// proved infeasible by Fourier-Motzkin elimination. false means "not
// proved" (also when the elimination grows too large).
func lxRationallyEmpty(c *lxContext) bool {
	w := c.width()
	var rows [][]Int
	for _, r := range c.ineqs {
		rows = append(rows, lxPad(r, w))
	}
	for i, d := range c.divs {
		q := 1 + c.nPar + i
		lo := lxPad(d.num, w) // num - den*q >= 0
		lo[q] = lo[q].Sub(d.den)
		hi := negRow(lxPad(d.num, w)) // den*q - num + den - 1 >= 0
		hi[q] = hi[q].Add(d.den)
		hi[0] = hi[0].Add(d.den).Sub(NewInt(1))
		rows = append(rows, lo, hi)
	}
	for j := w - 1; j >= 1; j-- {
		rows = lxFMEliminate(rows, j)
		if rows == nil {
			return false
		}
		for _, r := range rows {
			if isZeroRow(r[1:], w-1) && r[0].Sign() < 0 {
				return true
			}
		}
	}
	return false
}

// lxParamBox derives bounds lo <= p <= hi on the original parameters from
// the context rows that do not involve divisions (the rational projection
// on each parameter, by Fourier-Motzkin elimination of the others); ok is
// false unless every parameter gets a finite bound and the box has at most
// lxMaxEnum points.
func lxParamBox(c *lxContext) (lo, hi []int64, ok bool) {
	n := c.nPar
	var rows [][]Int
	for _, r := range c.ineqs {
		if isZeroRow(lxPad(r, c.width())[1+n:], c.width()-1-n) {
			rows = append(rows, lxPad(r, 1+n))
		}
	}
	lo, hi = make([]int64, n), make([]int64, n)
	size := int64(1)
	for k := 0; k < n; k++ {
		proj := rows
		for j := 0; j < n; j++ {
			if j == k {
				continue
			}
			proj = lxFMEliminate(proj, 1+j)
			if proj == nil {
				return nil, nil, false
			}
		}
		hasLo, hasHi := false, false
		var l, h Int
		for _, r := range proj {
			a, c0 := r[1+k], r[0]
			switch a.Sign() {
			case 0:
				if c0.Sign() < 0 {
					return lo, []int64{}, true // infeasible: empty box
				}
			case 1: // p >= ceil(-c0/a)
				b := c0.Neg().CeilDiv(a)
				if !hasLo || b.Cmp(l) > 0 {
					l, hasLo = b, true
				}
			default: // p <= floor(c0/-a)
				b := c0.FloorDiv(a.Neg())
				if !hasHi || b.Cmp(h) < 0 {
					h, hasHi = b, true
				}
			}
		}
		if !hasLo || !hasHi {
			return nil, nil, false
		}
		lv, ok1 := l.Int64()
		hv, ok2 := h.Int64()
		if !ok1 || !ok2 {
			return nil, nil, false
		}
		if hv < lv {
			return lo, []int64{}, true
		}
		lo[k], hi[k] = lv, hv
		if hv-lv+1 > lxMaxEnum {
			return nil, nil, false
		}
		size *= hv - lv + 1
		if size > lxMaxEnum {
			return nil, nil, false
		}
	}
	return lo, hi, true
}

// lxFMEliminate eliminates column j from the rows (each >= 0) by
// Fourier-Motzkin, giving the rational projection; nil when the result
// would have too many rows.
func lxFMEliminate(rows [][]Int, j int) [][]Int {
	var pos, neg, out [][]Int
	for _, r := range rows {
		switch r[j].Sign() {
		case 0:
			out = append(out, r)
		case 1:
			pos = append(pos, r)
		default:
			neg = append(neg, r)
		}
	}
	if len(out)+len(pos)*len(neg) > 400 {
		return nil
	}
	for _, p := range pos {
		for _, q := range neg {
			a, b := p[j], q[j].Neg()
			r := make([]Int, len(p))
			for i := range p {
				r[i] = p[i].Mul(b).Add(q[i].Mul(a))
			}
			out = append(out, r)
		}
	}
	if out == nil {
		out = [][]Int{}
	}
	return out
}

// lxEnumEmpty reports whether no point of the box lo..hi satisfies the
// context (divisions evaluated exactly at each point).
func lxEnumEmpty(c *lxContext, lo, hi []int64) bool {
	n := c.nPar
	if len(hi) != n {
		return true
	}
	for k := 0; k < n; k++ {
		if hi[k] < lo[k] {
			return true
		}
	}
	w := c.width()
	v := make([]Int, w)
	v[0] = NewInt(1)
	p := append([]int64(nil), lo...)
	for {
		for k := 0; k < n; k++ {
			v[1+k] = NewInt(p[k])
		}
		for i, d := range c.divs {
			v[1+n+i] = affDot(d.num, v[:len(d.num)]).FloorDiv(d.den)
		}
		ok := true
		for _, r := range c.ineqs {
			if affDot(r, v[:len(r)]).Sign() < 0 {
				ok = false
				break
			}
		}
		if ok {
			return false
		}
		k := 0
		for ; k < n; k++ {
			if p[k] < hi[k] {
				p[k]++
				break
			}
			p[k] = lo[k]
		}
		if k == n {
			return true
		}
	}
}
