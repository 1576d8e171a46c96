package presburger

import "slices"

// This file implements the index by which Map.Subtract finds, for a piece
// of the minuend, the pieces of the subtrahend that may meet it, without
// visiting the others.
//
// A heap's update subtracts the cells of a store (tens of pieces) from a
// heap of thousands, and an undefined read subtracts a heap of thousands
// of pieces from a read: most pairs are disjoint, and a syntactic test
// tells them so (validityIndexes.contradicts). Halide's unrolled copies
// into a tile write one lane each, `buf_As[5, ...]`, so each piece of the
// heap holds the cells of one lane (the first coordinate equals a
// constant) and meets the pieces of one store in sixteen. Tested pair by
// pair, the updates of sgemmTA's unrolled copies at the final stage went
// through the symbolic evaluation's whole allowance of steps.
//
// Each subtrahend piece is filed under the first of its equalities that
// involves no local variable, by its linear form over the dimensions
// (the coefficients, signed so that the first is positive) and the
// constant the piece fixes that form to; a piece without such an
// equality is unfiled. A minuend piece bounds some of the filed forms by
// its own rows without locals (an interval of values); it visits the
// pieces filed under the constants in those intervals, every piece filed
// under a form it does not bound, and the unfiled ones. The pieces it
// does not visit fix a form to a value outside what it allows: they have
// no common point with it, and subtracting them leaves it as it is.

// formInterval is the interval of values a conjunction allows a linear
// form: lo <= form <= hi, each side present or not.
type formInterval struct {
	lo, hi       Int
	hasLo, hasHi bool
}

// contains reports whether v is in f.
func (f formInterval) contains(v Int) bool {
	return (!f.hasLo || f.lo.Cmp(v) <= 0) && (!f.hasHi || v.Cmp(f.hi) <= 0)
}

// filedForm is a linear form the subtrahend's pieces are filed under:
// its coefficients over the shared dimensions, the first nonzero one
// positive, and the pieces filed under each of its values.
type filedForm struct {
	coefs []Int
	vals  []filedPieces
}

// filedPieces are the positions of the pieces filed under one value of a
// form.
type filedPieces struct {
	v   Int
	pos []int
}

// subtrahendIndex files the pieces of a subtrahend, by their position in
// the order they are subtracted, under a form each fixes to a constant.
type subtrahendIndex struct {
	nd      int
	forms   []filedForm
	byHash  map[uint64][]int // coefHash of a form: positions in forms
	unfiled []int
}

// newSubtrahendIndex indexes the pieces ds, whose first nd columns are
// the dimensions shared with the minuend.
func newSubtrahendIndex(ds []*BasicMap, nd int) *subtrahendIndex {
	x := &subtrahendIndex{nd: nd, byHash: map[uint64][]int{}}
	for i, d := range ds {
		fi, v, ok := x.fileUnder(d)
		if !ok {
			x.unfiled = append(x.unfiled, i)
			continue
		}
		f := &x.forms[fi]
		j := slices.IndexFunc(f.vals, func(p filedPieces) bool { return p.v.Equal(v) })
		if j < 0 {
			f.vals = append(f.vals, filedPieces{v: v})
			j = len(f.vals) - 1
		}
		f.vals[j].pos = append(f.vals[j].pos, i)
	}
	return x
}

// fileUnder returns the form (its position in x.forms, added if new) of
// d's first equality without locals, and the value d fixes it to.
func (x *subtrahendIndex) fileUnder(d *BasicMap) (int, Int, bool) {
	for _, e := range d.eqs {
		if !x.plainForm(e) {
			continue
		}
		fi, sign := x.formOf(e)
		if fi < 0 {
			coefs := make([]Int, x.nd)
			for j, v := range e[:x.nd] {
				if sign < 0 {
					v = v.Neg()
				}
				coefs[j] = v
			}
			h := coefHash(e, x.nd)
			fi = len(x.forms)
			x.forms = append(x.forms, filedForm{coefs: coefs})
			x.byHash[h] = append(x.byHash[h], fi)
		}
		// e: a·x + k = 0 with a = sign·form, so form·x = -sign·k.
		v := e[len(e)-1]
		if sign > 0 {
			v = v.Neg()
		}
		return fi, v, true
	}
	return 0, Int{}, false
}

// plainForm reports whether the row r involves no local and some
// dimension among the first x.nd columns.
func (x *subtrahendIndex) plainForm(r []Int) bool {
	for _, v := range r[x.nd : len(r)-1] {
		if !v.IsZero() {
			return false
		}
	}
	for _, v := range r[:x.nd] {
		if !v.IsZero() {
			return true
		}
	}
	return false
}

// formOf returns the position in x.forms of the form of the row r (which
// plainForm accepts) and the sign s with r's coefficients s·form, or -1
// (and the sign of r's first nonzero coefficient) when it is not filed.
func (x *subtrahendIndex) formOf(r []Int) (int, int) {
	sign := 0
	for _, v := range r[:x.nd] {
		if !v.IsZero() {
			sign = v.Sign()
			break
		}
	}
	for _, fi := range x.byHash[coefHash(r, x.nd)] {
		c := x.forms[fi].coefs
		same := true
		for j := range c {
			if sign > 0 && !c[j].Equal(r[j]) || sign < 0 && !c[j].isNegOf(r[j]) {
				same = false
				break
			}
		}
		if same {
			return fi, sign
		}
	}
	return -1, sign
}

// candidates returns, in increasing order, the positions of the pieces
// that c's bounds on the filed forms do not separate from c.
func (x *subtrahendIndex) candidates(c *BasicMap) []int {
	ivs := make([]formInterval, len(x.forms))
	bound := func(r []Int, eq bool) {
		if len(x.forms) == 0 || !x.plainForm(r) {
			return
		}
		fi, sign := x.formOf(r)
		if fi < 0 {
			return
		}
		k := r[len(r)-1]
		if eq || sign > 0 {
			ivs[fi] = ivs[fi].withLo(sign, k)
		}
		if eq || sign < 0 {
			ivs[fi] = ivs[fi].withHi(sign, k)
		}
	}
	for _, e := range c.eqs {
		bound(e, true)
	}
	for _, e := range c.ineqs {
		bound(e, false)
	}
	var out []int
	for fi, f := range x.forms {
		for _, p := range f.vals {
			if ivs[fi].contains(p.v) {
				out = append(out, p.pos...)
			}
		}
	}
	out = append(out, x.unfiled...)
	slices.Sort(out)
	return out
}

// withLo tightens f by the lower bound of a row a·x + k, a = sign·form:
// form·x >= -k when sign > 0 (an equality with sign < 0 gives k).
func (f formInterval) withLo(sign int, k Int) formInterval {
	v := k.Neg()
	if sign < 0 {
		v = k
	}
	if !f.hasLo || v.Cmp(f.lo) > 0 {
		f.lo, f.hasLo = v, true
	}
	return f
}

// withHi tightens f by the upper bound of a row a·x + k, a = sign·form:
// form·x <= k when sign < 0 (an equality with sign > 0 gives -k).
func (f formInterval) withHi(sign int, k Int) formInterval {
	v := k
	if sign > 0 {
		v = k.Neg()
	}
	if !f.hasHi || v.Cmp(f.hi) < 0 {
		f.hi, f.hasHi = v, true
	}
	return f
}
