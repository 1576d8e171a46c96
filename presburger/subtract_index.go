package presburger

import (
	"context"
	"fmt"
	"slices"
)

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
// Every row without locals of a subtrahend piece is a linear form over
// the dimensions (its coefficients, signed so that the first is
// positive) and a bound on it; the piece's rows give each of its forms an
// interval of values. A piece is filed under each form it fixes to one
// value. A minuend piece bounds the same forms by its own rows without
// locals; for the filed form whose pieces it looks at are fewest, it
// looks at those filed under the values its interval allows and those
// not filed under that form, and keeps those none of whose intervals
// misses its own.
// The pieces it does not keep bound a form to values it does not allow:
// they have no common point with it, and subtracting them leaves it as it
// is.

// formInterval is the interval of values a conjunction allows a linear
// form: lo <= form <= hi, each side present or not.
type formInterval struct {
	lo, hi       Int
	hasLo, hasHi bool
}

// meets reports whether f and g have a common value.
func (f formInterval) meets(g formInterval) bool {
	return (!f.hasLo || !g.hasHi || f.lo.Cmp(g.hi) <= 0) &&
		(!g.hasLo || !f.hasHi || g.lo.Cmp(f.hi) <= 0)
}

// point returns the value f allows, when it allows one only.
func (f formInterval) point() (Int, bool) {
	if f.hasLo && f.hasHi && f.lo.Equal(f.hi) {
		return f.lo, true
	}
	return Int{}, false
}

// bound tightens f by the row a·x + k >= 0 (= 0 when eq), whose
// coefficients are sign times the form's.
func (f formInterval) bound(sign int, k Int, eq bool) formInterval {
	// a·x + k >= 0 is form·x >= -k when sign > 0, form·x <= k when
	// sign < 0; an equality gives both.
	lo, hi := k.Neg(), k
	if sign < 0 {
		lo, hi = k, k
	} else {
		hi = lo
	}
	if (eq || sign > 0) && (!f.hasLo || lo.Cmp(f.lo) > 0) {
		f.lo, f.hasLo = lo, true
	}
	if (eq || sign < 0) && (!f.hasHi || hi.Cmp(f.hi) < 0) {
		f.hi, f.hasHi = hi, true
	}
	return f
}

// formBound is a piece's interval of one form (its position in the
// index's table).
type formBound struct {
	form int
	iv   formInterval
}

// filedPieces are the positions of the pieces filed under one value of a
// form.
type filedPieces struct {
	v   Int
	pos []int
}

// subtrahendIndex files the pieces of a subtrahend, by their position in
// the order they are subtracted, under the forms they fix to a constant.
type subtrahendIndex struct {
	nd     int
	n      int              // the number of pieces
	coefs  [][]Int          // the forms: coefficients, first nonzero positive
	byHash map[uint64][]int // coefHash of a form: positions in coefs
	bounds [][]formBound    // each piece's intervals
	filed  map[int]*filedForm
	order  []int // the forms of filed, in the order first filed
}

// filedForm holds the pieces filed under one form: by value (in
// increasing order, upTo[j] the pieces filed under the first j), and the
// others (those that do not fix it), in increasing order.
type filedForm struct {
	vals   []filedPieces
	upTo   []int
	others []int
}

// within returns the range [lo, hi) of f.vals in the interval iv.
func (f *filedForm) within(iv formInterval) (lo, hi int) {
	lo, hi = 0, len(f.vals)
	if iv.hasLo {
		lo, _ = slices.BinarySearchFunc(f.vals, iv.lo, func(p filedPieces, v Int) int { return p.v.Cmp(v) })
	}
	if iv.hasHi {
		hi, _ = slices.BinarySearchFunc(f.vals, iv.hi, func(p filedPieces, v Int) int { return p.v.Cmp(v) })
		if hi < len(f.vals) && f.vals[hi].v.Equal(iv.hi) {
			hi++
		}
	}
	return lo, max(lo, hi)
}

// newSubtrahendIndex indexes the pieces ds, whose first nd columns are
// the dimensions shared with the minuend.
func newSubtrahendIndex(ds []*BasicMap, nd int) *subtrahendIndex {
	x := &subtrahendIndex{nd: nd, n: len(ds), byHash: map[uint64][]int{}, filed: map[int]*filedForm{}}
	for i, d := range ds {
		var bs []formBound
		x.eachBound(d, true, func(fi int, sign int, k Int, eq bool) {
			j := slices.IndexFunc(bs, func(b formBound) bool { return b.form == fi })
			if j < 0 {
				bs = append(bs, formBound{form: fi})
				j = len(bs) - 1
			}
			bs[j].iv = bs[j].iv.bound(sign, k, eq)
		})
		x.bounds = append(x.bounds, bs)
		x.file(i, bs)
	}
	x.finish()
	return x
}

// file files the piece at position i, of intervals bs, under each form
// it fixes to one value.
func (x *subtrahendIndex) file(i int, bs []formBound) {
	for _, b := range bs {
		v, ok := b.iv.point()
		if !ok {
			continue
		}
		f := x.filed[b.form]
		if f == nil {
			f = &filedForm{}
			x.filed[b.form] = f
			x.order = append(x.order, b.form)
		}
		j := slices.IndexFunc(f.vals, func(p filedPieces) bool { return p.v.Equal(v) })
		if j < 0 {
			f.vals = append(f.vals, filedPieces{v: v})
			j = len(f.vals) - 1
		}
		f.vals[j].pos = append(f.vals[j].pos, i)
	}
}

// finish sorts each filed form's values and lists the pieces not filed
// under it.
func (x *subtrahendIndex) finish() {
	in := make([]bool, x.n)
	for _, fi := range x.order {
		f := x.filed[fi]
		slices.SortFunc(f.vals, func(a, b filedPieces) int { return a.v.Cmp(b.v) })
		f.upTo = make([]int, len(f.vals)+1)
		for j, p := range f.vals {
			f.upTo[j+1] = f.upTo[j] + len(p.pos)
		}
		clear(in)
		for _, p := range f.vals {
			for _, i := range p.pos {
				in[i] = true
			}
		}
		for i, ok := range in {
			if !ok {
				f.others = append(f.others, i)
			}
		}
	}
}

// eachBound calls f for each row without locals of b whose form is in
// the table (added to it when add is set): the form's position, the
// sign of the row's coefficients relative to the form's, the row's
// constant and whether it is an equality.
func (x *subtrahendIndex) eachBound(b *BasicMap, add bool, f func(fi, sign int, k Int, eq bool)) {
	do := func(r []Int, eq bool) {
		if !x.plainForm(r) {
			return
		}
		fi, sign := x.formOf(r)
		if fi < 0 {
			if !add {
				return
			}
			fi = x.addForm(r, sign)
		}
		f(fi, sign, r[len(r)-1], eq)
	}
	for _, e := range b.eqs {
		do(e, true)
	}
	for _, e := range b.ineqs {
		do(e, false)
	}
}

// addForm adds the form of the row r, whose first nonzero coefficient
// has the sign sign, to the table and returns its position.
func (x *subtrahendIndex) addForm(r []Int, sign int) int {
	coefs := make([]Int, x.nd)
	for j, v := range r[:x.nd] {
		if sign < 0 {
			v = v.Neg()
		}
		coefs[j] = v
	}
	h := coefHash(r, x.nd)
	fi := len(x.coefs)
	x.coefs = append(x.coefs, coefs)
	x.byHash[h] = append(x.byHash[h], fi)
	return fi
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

// formOf returns the position in the table of the form of the row r
// (which plainForm accepts) and the sign s with r's coefficients s·form,
// or -1 (and the sign of r's first nonzero coefficient) when it is not
// in the table.
func (x *subtrahendIndex) formOf(r []Int) (int, int) {
	sign := 0
	for _, v := range r[:x.nd] {
		if !v.IsZero() {
			sign = v.Sign()
			break
		}
	}
	for _, fi := range x.byHash[coefHash(r, x.nd)] {
		c := x.coefs[fi]
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
// that c's intervals of the forms do not separate from c, and the number
// of pieces looked at to find them.
func (x *subtrahendIndex) candidates(c *BasicMap) (out []int, looked int) {
	ivs := make([]formInterval, len(x.coefs))
	var bounded []int // the filed forms c bounds
	x.eachBound(c, false, func(fi, sign int, k Int, eq bool) {
		if x.filed[fi] != nil && !slices.Contains(bounded, fi) {
			bounded = append(bounded, fi)
		}
		ivs[fi] = ivs[fi].bound(sign, k, eq)
	})
	keep := func(i int) {
		looked++
		for _, b := range x.bounds[i] {
			if !ivs[b.form].meets(b.iv) {
				return
			}
		}
		out = append(out, i)
	}
	// The filed form whose pieces to look at are fewest.
	var best *filedForm
	fewest, blo, bhi := x.n, 0, 0
	for _, fi := range bounded {
		f := x.filed[fi]
		lo, hi := f.within(ivs[fi])
		if n := len(f.others) + f.upTo[hi] - f.upTo[lo]; n < fewest {
			best, fewest, blo, bhi = f, n, lo, hi
		}
	}
	if best == nil {
		for i := range x.n {
			keep(i)
		}
		return out, looked
	}
	for _, p := range best.vals[blo:bhi] {
		for _, i := range p.pos {
			keep(i)
		}
	}
	for _, i := range best.others {
		keep(i)
	}
	slices.Sort(out)
	return out, looked
}

// Meeting returns the pieces of m that have a point in common with o, as
// m's own pieces. Both must have the same tuples. The pieces of m that
// a piece of o may meet are found by the index of Subtract; each is
// intersected with it and tested for emptiness, a step each besides the
// test's, and a piece of m the index looks at and leaves out costs a
// step. A heap's cells of many pieces mostly lie far from the cells a
// statement reads: the undefined reads subtract only those it meets.
func (m *Map) Meeting(ctx context.Context, o *Map) (*Map, error) {
	if !m.sameShape(o) {
		return nil, spaceMismatch("meeting", m.space, o.space)
	}
	a, b := alignMaps(m, o)
	if len(a.basics) == 0 || len(b.basics) == 0 {
		return a.withBasics(nil), nil
	}
	mt := newMeter(ctx)
	x := newSubtrahendIndex(a.basics, a.basics[0].nDims())
	meets := make([]bool, len(a.basics))
	for _, c := range b.basics {
		cand, looked := x.candidates(c)
		if err := mt.stepN(looked - len(cand)); err != nil {
			return nil, fmt.Errorf("meeting: %w", err)
		}
		for _, i := range cand {
			if meets[i] {
				continue
			}
			if err := mt.step(); err != nil {
				return nil, fmt.Errorf("meeting: %w", err)
			}
			p, err := NewMap(a.space, a.basics[i]).Intersect(NewMap(b.space, c))
			if err != nil {
				return nil, fmt.Errorf("meeting: %w", err)
			}
			empty, err := p.IsEmpty(ctx)
			if err != nil {
				return nil, fmt.Errorf("meeting: %w", err)
			}
			meets[i] = !empty
		}
	}
	var keep []*BasicMap
	for i, ok := range meets {
		if ok {
			keep = append(keep, a.sharedPiece(a.basics[i]))
		}
	}
	return a.withBasics(keep), nil
}
