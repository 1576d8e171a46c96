package smt

// #include <stdlib.h>
// #include <z3.h>
import "C"

import (
	"math/big"
	"runtime"
)

// maxBoundedWidth bounds the width of the bit-vectors that BoundedToBV
// computes in: arithmetic whose bounds need more is abstracted instead.
const maxBoundedWidth = 256

// BoundedToBV is AbstractArith that keeps the integer and real arithmetic
// it can bound: the terms built from conversions of bit-vectors to
// integers ((_ bv2int), whose values lie in [0, 2^w)), numerals, sums,
// differences, negations, products, if-then-else, to_real, to_int,
// division by a power of two and Euclidean div and mod by a numeral. Every
// such term has an interval computed from its arguments' (interval
// arithmetic), and a real one a power of two as denominator (a binary
// fixed point: a real numeral with another denominator, 1/3, is not
// kept). If every interval fits in a signed bit-vector of at most
// maxBoundedWidth bits, each kept term becomes that bit-vector, exactly:
// comparisons of kept terms become signed bit-vector comparisons, and
// (_ int2bv w) of a kept integer its low w bits. What is left (an
// uninterpreted function applied to indices, an index itself: the
// parameters are unbounded) is abstracted as AbstractArith does.
//
// The result is a formula over booleans, bit-vectors and floats, which
// Z3 bit-blasts, where the mixed query sends Z3's general SMT kernel to
// relate (_ bv2int) and (_ int2bv) by lazy axioms (the truncation of a
// byte halved in the real model: a million resource units against a few
// hundred). Kept is the number of arithmetic terms translated (zero: the
// result is AbstractArith's). As with AbstractArith, the result is
// implied by the formulas, so its unsatisfiability proves theirs, and a
// model of it may be no model of them.
func (c *Context) BoundedToBV(ts ...*Term) (*Abstraction, int, error) {
	z, err := c.enter()
	if err != nil {
		return nil, 0, err
	}
	as, err := astsOf(c, ts)
	if err != nil {
		return nil, 0, err
	}
	b := &bounder{c: c, z: z, info: map[C.uint]*bounds{}, built: map[C.uint]*Term{}}
	// First the bounds of every arithmetic term, which fix the width.
	for _, a := range as {
		b.scan(a, map[C.uint]bool{})
	}
	if b.width > maxBoundedWidth {
		b.width = 0 // nothing kept
	}
	w := abstracter{c: c, z: z, done: map[C.uint]*Term{}, res: &Abstraction{}, bounded: b}
	for i, a := range as {
		if !w.kept(C.Z3_get_sort(z, a)) {
			return nil, 0, errNotAbstractable
		}
		r, err := w.walk(ts[i], a)
		if err != nil {
			return nil, 0, err
		}
		w.res.Terms = append(w.res.Terms, r)
	}
	return w.res, b.kept, nil
}

// bounds is what BoundedToBV knows of an arithmetic term: its value is
// num / 2^scale with num in [lo, hi].
type bounds struct {
	scale  uint
	lo, hi *big.Int
}

// bounder is the arithmetic part of one BoundedToBV pass: the bounds of
// the arithmetic terms met (nil for one not kept), the width of the
// bit-vectors (the widest bound, plus a sign bit), and the translations
// made.
type bounder struct {
	c     *Context
	z     C.Z3_context
	info  map[C.uint]*bounds
	width uint
	built map[C.uint]*Term
	kept  int
}

// arith reports whether s is the integer or real sort.
func arith(z C.Z3_context, s C.Z3_sort) bool {
	k := C.Z3_get_sort_kind(z, s)
	return k == C.Z3_INT_SORT || k == C.Z3_REAL_SORT
}

// need widens the bit-vectors to hold v.
func (b *bounder) need(v *big.Int) {
	n := uint(new(big.Int).Abs(v).BitLen()) + 2
	if n > b.width {
		b.width = n
	}
}

// scan computes the bounds of the arithmetic subterms of a (seen: the
// terms scanned).
func (b *bounder) scan(a C.Z3_ast, seen map[C.uint]bool) {
	z := b.z
	id := C.Z3_get_ast_id(z, a)
	if seen[id] {
		return
	}
	seen[id] = true
	if arith(z, C.Z3_get_sort(z, a)) {
		b.of(a)
	}
	if C.Z3_get_ast_kind(z, a) != C.Z3_APP_AST {
		return
	}
	app := C.Z3_to_app(z, a)
	n := int(C.Z3_get_app_num_args(z, app))
	for i := range n {
		b.scan(C.Z3_get_app_arg(z, app, C.uint(i)), seen)
	}
	// A comparison compares its arguments at their largest scale.
	var s uint
	var xs []*bounds
	for i := range n {
		x := C.Z3_get_app_arg(z, app, C.uint(i))
		if arith(z, C.Z3_get_sort(z, x)) {
			if r := b.info[C.Z3_get_ast_id(z, x)]; r != nil {
				xs = append(xs, r)
				s = max(s, r.scale)
			}
		}
	}
	for _, x := range xs {
		b.align(x, s)
	}
}

// of returns the bounds of the arithmetic term a, nil when it is not
// kept.
func (b *bounder) of(a C.Z3_ast) *bounds {
	z := b.z
	id := C.Z3_get_ast_id(z, a)
	if r, ok := b.info[id]; ok {
		return r
	}
	b.info[id] = nil // against cycles, which terms do not have
	r := b.compute(a)
	if r != nil {
		b.need(r.lo)
		b.need(r.hi)
	}
	b.info[id] = r
	return r
}

// numeral reads the numeral a as a rational.
func numeral(z C.Z3_context, a C.Z3_ast) (*big.Rat, bool) {
	if C.Z3_get_ast_kind(z, a) != C.Z3_NUMERAL_AST {
		return nil, false
	}
	return new(big.Rat).SetString(C.GoString(C.Z3_get_numeral_string(z, a)))
}

// log2 is k with d = 2^k, or false when d is not a power of two.
func log2(d *big.Int) (uint, bool) {
	if d.Sign() <= 0 || new(big.Int).And(d, new(big.Int).Sub(d, big.NewInt(1))).Sign() != 0 {
		return 0, false
	}
	return uint(d.BitLen() - 1), true
}

// align is the bounds x at the larger scale s.
func (b *bounder) align(x *bounds, s uint) *bounds {
	r := &bounds{scale: s, lo: new(big.Int).Lsh(x.lo, s-x.scale), hi: new(big.Int).Lsh(x.hi, s-x.scale)}
	b.need(r.lo)
	b.need(r.hi)
	return r
}

func (b *bounder) compute(a C.Z3_ast) *bounds {
	z := b.z
	if q, ok := numeral(z, a); ok {
		k, ok := log2(q.Denom())
		if !ok {
			return nil
		}
		return &bounds{scale: k, lo: new(big.Int).Set(q.Num()), hi: new(big.Int).Set(q.Num())}
	}
	if C.Z3_get_ast_kind(z, a) != C.Z3_APP_AST {
		return nil
	}
	app := C.Z3_to_app(z, a)
	n := int(C.Z3_get_app_num_args(z, app))
	arg := func(i int) C.Z3_ast { return C.Z3_get_app_arg(z, app, C.uint(i)) }
	args := func() []*bounds {
		out := make([]*bounds, n)
		for i := range out {
			if out[i] = b.of(arg(i)); out[i] == nil {
				return nil
			}
		}
		return out
	}
	switch C.Z3_get_decl_kind(z, C.Z3_get_app_decl(z, app)) {
	case C.Z3_OP_BV2INT:
		w := uint(C.Z3_get_bv_sort_size(z, C.Z3_get_sort(z, arg(0))))
		return &bounds{lo: new(big.Int), hi: new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), w), big.NewInt(1))}
	case C.Z3_OP_TO_REAL:
		return b.of(arg(0))
	case C.Z3_OP_TO_INT:
		x := b.of(arg(0))
		if x == nil {
			return nil
		}
		return &bounds{lo: new(big.Int).Rsh(x.lo, x.scale), hi: new(big.Int).Rsh(x.hi, x.scale)}
	case C.Z3_OP_ADD, C.Z3_OP_SUB:
		return b.sum(args(), C.Z3_get_decl_kind(z, C.Z3_get_app_decl(z, app)) == C.Z3_OP_ADD)
	case C.Z3_OP_UMINUS:
		if x := b.of(arg(0)); x != nil && n == 1 {
			return &bounds{scale: x.scale, lo: new(big.Int).Neg(x.hi), hi: new(big.Int).Neg(x.lo)}
		}
	case C.Z3_OP_MUL:
		return b.product(args())
	case C.Z3_OP_DIV:
		// A real divided by a numeral 2^k (or -2^k): a shift of the
		// scale.
		q, ok := numeral(z, arg(1))
		x := b.of(arg(0))
		if n != 2 || !ok || x == nil || !q.IsInt() {
			return nil
		}
		d := new(big.Int).Abs(q.Num())
		k, ok := log2(d)
		if !ok {
			return nil
		}
		if q.Sign() < 0 {
			x = &bounds{scale: x.scale, lo: new(big.Int).Neg(x.hi), hi: new(big.Int).Neg(x.lo)}
		}
		return &bounds{scale: x.scale + k, lo: x.lo, hi: x.hi}
	case C.Z3_OP_IDIV, C.Z3_OP_MOD:
		q, ok := numeral(z, arg(1))
		x := b.of(arg(0))
		if n != 2 || !ok || x == nil || x.scale != 0 || !q.IsInt() || q.Sign() == 0 {
			return nil
		}
		d := new(big.Int).Abs(q.Num())
		b.need(d)
		if C.Z3_get_decl_kind(z, C.Z3_get_app_decl(z, app)) == C.Z3_OP_MOD {
			return &bounds{lo: new(big.Int), hi: new(big.Int).Sub(d, big.NewInt(1))}
		}
		// The Euclidean quotient: sign(q) * floor(x / |q|).
		lo, hi := floorDiv(x.lo, d), floorDiv(x.hi, d)
		if q.Sign() < 0 {
			lo, hi = hi.Neg(hi), lo.Neg(lo)
		}
		return &bounds{lo: lo, hi: hi}
	case C.Z3_OP_ITE:
		if n != 3 {
			return nil
		}
		x, y := b.of(arg(1)), b.of(arg(2))
		if x == nil || y == nil {
			return nil
		}
		s := max(x.scale, y.scale)
		x, y = b.align(x, s), b.align(y, s)
		lo, hi := x.lo, x.hi
		if y.lo.Cmp(lo) < 0 {
			lo = y.lo
		}
		if y.hi.Cmp(hi) > 0 {
			hi = y.hi
		}
		return &bounds{scale: s, lo: lo, hi: hi}
	}
	return nil
}

// sum is the bounds of the sum (add) or difference of terms of bounds
// bs, nil if bs is (a term is not kept).
func (b *bounder) sum(bs []*bounds, add bool) *bounds {
	if len(bs) == 0 {
		return nil
	}
	var s uint
	for _, x := range bs {
		s = max(s, x.scale)
	}
	r := b.align(bs[0], s)
	for _, x := range bs[1:] {
		x = b.align(x, s)
		if add {
			r = &bounds{scale: s, lo: new(big.Int).Add(r.lo, x.lo), hi: new(big.Int).Add(r.hi, x.hi)}
		} else {
			r = &bounds{scale: s, lo: new(big.Int).Sub(r.lo, x.hi), hi: new(big.Int).Sub(r.hi, x.lo)}
		}
		b.need(r.lo)
		b.need(r.hi)
	}
	return r
}

// product is the bounds of the product of terms of bounds bs, nil if bs
// is (a term is not kept).
func (b *bounder) product(bs []*bounds) *bounds {
	if len(bs) == 0 {
		return nil
	}
	r := bs[0]
	for _, x := range bs[1:] {
		ps := []*big.Int{
			new(big.Int).Mul(r.lo, x.lo), new(big.Int).Mul(r.lo, x.hi),
			new(big.Int).Mul(r.hi, x.lo), new(big.Int).Mul(r.hi, x.hi),
		}
		lo, hi := ps[0], ps[0]
		for _, p := range ps[1:] {
			if p.Cmp(lo) < 0 {
				lo = p
			}
			if p.Cmp(hi) > 0 {
				hi = p
			}
		}
		r = &bounds{scale: r.scale + x.scale, lo: lo, hi: hi}
		b.need(r.lo)
		b.need(r.hi)
	}
	return r
}

// floorDiv is floor(x / d) for d > 0.
func floorDiv(x, d *big.Int) *big.Int {
	q, m := new(big.Int), new(big.Int)
	q.DivMod(x, d, m) // Euclidean: m >= 0, so q is the floor for d > 0
	return q
}

// keeps reports whether the arithmetic term a is translated.
func (b *bounder) keeps(a C.Z3_ast) bool {
	if b == nil || b.width == 0 {
		return false
	}
	return b.info[C.Z3_get_ast_id(b.z, a)] != nil
}

// bv is the translation of the kept arithmetic term a at scale s (at
// least its own): its numerator times 2^(s - scale), a signed bit-vector
// of b.width bits.
func (b *bounder) bv(a C.Z3_ast, s uint, walk func(C.Z3_ast) (*Term, error)) (*Term, error) {
	x := b.info[C.Z3_get_ast_id(b.z, a)]
	r, err := b.num(a, walk)
	if err != nil {
		return nil, err
	}
	if s > x.scale {
		r = r.BVShl(b.c.BV(uint64(s-x.scale), b.width))
	}
	return r, nil
}

// num is the numerator of the kept arithmetic term a, at its own scale.
func (b *bounder) num(a C.Z3_ast, walk func(C.Z3_ast) (*Term, error)) (*Term, error) {
	z := b.z
	id := C.Z3_get_ast_id(z, a)
	if r, ok := b.built[id]; ok {
		return r, nil
	}
	r, err := b.numNew(a, walk)
	if err != nil {
		return nil, err
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	b.kept++
	b.built[id] = r
	return r, nil
}

func (b *bounder) numNew(a C.Z3_ast, walk func(C.Z3_ast) (*Term, error)) (*Term, error) {
	z, c, w := b.z, b.c, b.width
	x := b.info[C.Z3_get_ast_id(z, a)]
	if q, ok := numeral(z, a); ok {
		return c.BigBV(q.Num(), w), nil
	}
	app := C.Z3_to_app(z, a)
	n := int(C.Z3_get_app_num_args(z, app))
	arg := func(i int) C.Z3_ast { return C.Z3_get_app_arg(z, app, C.uint(i)) }
	at := func(i int, s uint) (*Term, error) { return b.bv(arg(i), s, walk) }
	switch kind := C.Z3_get_decl_kind(z, C.Z3_get_app_decl(z, app)); kind {
	case C.Z3_OP_BV2INT:
		v, err := walk(arg(0))
		if err != nil {
			return nil, err
		}
		return v.ZeroExt(w - uint(C.Z3_get_bv_sort_size(z, C.Z3_get_sort(z, arg(0))))), nil
	case C.Z3_OP_TO_REAL:
		return at(0, x.scale)
	case C.Z3_OP_TO_INT:
		y := b.info[C.Z3_get_ast_id(z, arg(0))]
		v, err := at(0, y.scale)
		if err != nil {
			return nil, err
		}
		if y.scale == 0 {
			return v, nil
		}
		return v.BVAShr(c.BV(uint64(y.scale), w)), nil // the floor
	case C.Z3_OP_ADD, C.Z3_OP_SUB, C.Z3_OP_MUL:
		var r *Term
		for i := range n {
			s := x.scale
			if kind == C.Z3_OP_MUL {
				s = b.info[C.Z3_get_ast_id(z, arg(i))].scale
			}
			v, err := at(i, s)
			if err != nil {
				return nil, err
			}
			switch {
			case r == nil:
				r = v
			case kind == C.Z3_OP_ADD:
				r = r.BVAdd(v)
			case kind == C.Z3_OP_SUB:
				r = r.BVSub(v)
			default:
				r = r.BVMul(v)
			}
		}
		return r, nil
	case C.Z3_OP_UMINUS:
		v, err := at(0, x.scale)
		if err != nil {
			return nil, err
		}
		return v.BVNeg(), nil
	case C.Z3_OP_DIV:
		y := b.info[C.Z3_get_ast_id(z, arg(0))]
		v, err := at(0, y.scale)
		if err != nil {
			return nil, err
		}
		if q, _ := numeral(z, arg(1)); q.Sign() < 0 {
			v = v.BVNeg()
		}
		return v, nil
	case C.Z3_OP_IDIV, C.Z3_OP_MOD:
		v, err := at(0, 0)
		if err != nil {
			return nil, err
		}
		q, _ := numeral(z, arg(1))
		d := c.BigBV(new(big.Int).Abs(q.Num()), w)
		m := v.BVSMod(d) // the sign of the (positive) divisor: Euclidean
		if kind == C.Z3_OP_MOD {
			return m, nil
		}
		quo := v.BVSub(m).BVSDiv(d) // exact
		if q.Sign() < 0 {
			quo = quo.BVNeg()
		}
		return quo, nil
	case C.Z3_OP_ITE:
		cond, err := walk(arg(0))
		if err != nil {
			return nil, err
		}
		t, err := at(1, x.scale)
		if err != nil {
			return nil, err
		}
		e, err := at(2, x.scale)
		if err != nil {
			return nil, err
		}
		return cond.Ite(t, e), nil
	}
	return nil, opError("BoundedToBV", "internal error: a kept term of an unexpected kind")
}

// translate is the abstraction of the application a of a kept sort whose
// arguments are arithmetic, when they are all kept: a comparison, an
// equality or (_ int2bv w). ok is false for any other.
func (b *bounder) translate(a C.Z3_ast, walk func(C.Z3_ast) (*Term, error)) (r *Term, ok bool, err error) {
	if b == nil || b.width == 0 {
		return nil, false, nil
	}
	z, c := b.z, b.c
	app := C.Z3_to_app(z, a)
	n := int(C.Z3_get_app_num_args(z, app))
	if n == 0 {
		return nil, false, nil
	}
	var s uint
	for i := range n {
		x := C.Z3_get_app_arg(z, app, C.uint(i))
		if !b.keeps(x) {
			return nil, false, nil
		}
		s = max(s, b.info[C.Z3_get_ast_id(z, x)].scale)
	}
	args := make([]*Term, n)
	for i := range args {
		if args[i], err = b.bv(C.Z3_get_app_arg(z, app, C.uint(i)), s, walk); err != nil {
			return nil, false, err
		}
	}
	pairwise := func(f func(x, y *Term) *Term) *Term {
		var cs []*Term
		for i := 0; i+1 < n; i++ {
			cs = append(cs, f(args[i], args[i+1]))
		}
		return c.And(cs...)
	}
	switch C.Z3_get_decl_kind(z, C.Z3_get_app_decl(z, app)) {
	case C.Z3_OP_LE:
		r = pairwise((*Term).BVSLe)
	case C.Z3_OP_LT:
		r = pairwise((*Term).BVSLt)
	case C.Z3_OP_GE:
		r = pairwise((*Term).BVSGe)
	case C.Z3_OP_GT:
		r = pairwise((*Term).BVSGt)
	case C.Z3_OP_EQ:
		r = pairwise((*Term).Eq)
	case C.Z3_OP_DISTINCT:
		r = c.Distinct(args...)
	case C.Z3_OP_INT2BV:
		if n != 1 {
			return nil, false, nil
		}
		to := uint(C.Z3_get_bv_sort_size(z, C.Z3_get_sort(z, a)))
		switch {
		case to < b.width:
			r = args[0].Extract(to-1, 0)
		case to > b.width:
			r = args[0].SignExt(to - b.width)
		default:
			r = args[0]
		}
	default:
		return nil, false, nil
	}
	runtime.KeepAlive(args)
	if err := r.Err(); err != nil {
		return nil, false, err
	}
	return r, true, nil
}
