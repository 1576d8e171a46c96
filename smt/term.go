package smt

// #include <stdlib.h>
// #include <z3.h>
import "C"

import (
	"errors"
	"math/big"
	"unsafe"
	"weak"
)

// A Term is a Z3 expression (Z3_ast) of some sort, owned by a Context.
//
// Constructors never return nil and never fail loudly: if Z3 rejects a
// construction (a sort mismatch, say), or if an operand already carries an
// error, the result carries the error (Err) and every term built from it
// carries it too. Solver.Assert and the other operations that return errors
// report it. A nil *Term is treated as a term carrying an error.
type Term struct {
	ctx *Context
	a   C.Z3_ast
	err error
}

var (
	errNilTerm = errors.New("smt: nil term")
	errForeign = errors.New("smt: operands belong to different contexts")
)

// Err is the error the term carries, nil for a valid term.
func (t *Term) Err() error {
	if t == nil {
		return errNilTerm
	}
	return t.err
}

// Context is the context that owns the term.
func (t *Term) Context() *Context {
	if t == nil {
		return nil
	}
	return t.ctx
}

// term wraps the result of a Z3 call, checking Z3's error code.
func (c *Context) term(z C.Z3_context, a C.Z3_ast, op string) *Term {
	if err := check(z, op); err != nil {
		return &Term{ctx: c, err: err}
	}
	if a == nil {
		return &Term{ctx: c, err: opError(op, "Z3 returned no term")}
	}
	t := &Term{ctx: c, a: a}
	incRef(c, t, z, a)
	return t
}

func (c *Context) termErr(err error) *Term { return &Term{ctx: c, err: err} }

// use checks that t is a valid term of c.
func (t *Term) use(c *Context) (C.Z3_ast, error) {
	if t == nil {
		return nil, errNilTerm
	}
	if t.err != nil {
		return nil, t.err
	}
	if t.ctx != c {
		return nil, errForeign
	}
	return t.a, nil
}

// astsOf checks terms and returns their Z3 pointers.
func astsOf(c *Context, ts []*Term) ([]C.Z3_ast, error) {
	out := make([]C.Z3_ast, len(ts))
	for i, t := range ts {
		a, err := t.use(c)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

func firstAST(as []C.Z3_ast) *C.Z3_ast {
	if len(as) == 0 {
		return nil
	}
	return (*C.Z3_ast)(unsafe.Pointer(&as[0]))
}

// The helpers below build a term from operands; every operator of the
// package goes through one of them.

func (c *Context) mk0(op string, f func(z C.Z3_context) C.Z3_ast) *Term {
	z, err := c.enter()
	if err != nil {
		return c.termErr(err)
	}
	return c.term(z, f(z), op)
}

// mkSorted builds the term f makes of the sort s.
func (c *Context) mkSorted(op string, s *Sort, f func(z C.Z3_context, sp C.Z3_sort) C.Z3_ast) *Term {
	z, err := c.enter()
	if err != nil {
		return c.termErr(err)
	}
	sp, err := s.use(c)
	if err != nil {
		return c.termErr(err)
	}
	return c.term(z, f(z, sp), op)
}

func (x *Term) mk1(op string, f func(z C.Z3_context, a C.Z3_ast) C.Z3_ast) *Term {
	z, bad := x.enter()
	if bad != nil {
		return bad
	}
	return x.ctx.term(z, f(z, x.a), op)
}

func (x *Term) mk2(op string, y *Term, f func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast) *Term {
	z, bad := x.enter()
	if bad != nil {
		return bad
	}
	c := x.ctx
	b, err := y.use(c)
	if err != nil {
		return c.termErr(err)
	}
	return c.term(z, f(z, x.a, b), op)
}

func (x *Term) mk3(op string, y, w *Term, f func(z C.Z3_context, a, b, d C.Z3_ast) C.Z3_ast) *Term {
	z, bad := x.enter()
	if bad != nil {
		return bad
	}
	c := x.ctx
	b, err := y.use(c)
	if err != nil {
		return c.termErr(err)
	}
	d, err := w.use(c)
	if err != nil {
		return c.termErr(err)
	}
	return c.term(z, f(z, x.a, b, d), op)
}

// mkN builds an n-ary term; Z3 receives the operands as an array.
func (c *Context) mkN(op string, ts []*Term, min int, f func(z C.Z3_context, n C.uint, p *C.Z3_ast) C.Z3_ast) *Term {
	z, err := c.enter()
	if err != nil {
		return c.termErr(err)
	}
	if len(ts) < min {
		return c.termErr(opError(op, "too few operands"))
	}
	as, err := astsOf(c, ts)
	if err != nil {
		return c.termErr(err)
	}
	return c.term(z, f(z, C.uint(len(as)), firstAST(as)), op)
}

// errTerm returns a term carrying x's error (x itself when it is non-nil).
func (x *Term) errTerm() *Term {
	if x == nil {
		return &Term{err: errNilTerm}
	}
	return x
}

// Const is the constant (nullary uninterpreted function) called name of
// sort s (Z3_mk_const). Two calls with the same name and sort give the same
// constant. Constants serve as the free variables of formulas and, with
// Forall and Exists, as bound variables.
func (c *Context) Const(name string, s *Sort) *Term {
	return c.mkSorted("Const", s, func(z C.Z3_context, sp C.Z3_sort) C.Z3_ast { return C.Z3_mk_const(z, symbol(z, name), sp) })
}

// FreshConst is a constant of sort s whose name starts with prefix and
// differs from every other constant's (Z3_mk_fresh_const).
func (c *Context) FreshConst(prefix string, s *Sort) *Term {
	return c.mkSorted("FreshConst", s, func(z C.Z3_context, sp C.Z3_sort) C.Z3_ast {
		cs := C.CString(prefix)
		defer C.free(unsafe.Pointer(cs))
		return C.Z3_mk_fresh_const(z, cs, sp)
	})
}

// BoolConst is Const(name, BoolSort()).
func (c *Context) BoolConst(name string) *Term { return c.Const(name, c.BoolSort()) }

// IntConst is Const(name, IntSort()).
func (c *Context) IntConst(name string) *Term { return c.Const(name, c.IntSort()) }

// RealConst is Const(name, RealSort()).
func (c *Context) RealConst(name string) *Term { return c.Const(name, c.RealSort()) }

// BVConst is Const(name, BVSort(width)).
func (c *Context) BVConst(name string, width uint) *Term { return c.Const(name, c.BVSort(width)) }

// True is the boolean true (Z3_mk_true).
func (c *Context) True() *Term {
	return c.mk0("True", func(z C.Z3_context) C.Z3_ast { return C.Z3_mk_true(z) })
}

// False is the boolean false (Z3_mk_false).
func (c *Context) False() *Term {
	return c.mk0("False", func(z C.Z3_context) C.Z3_ast { return C.Z3_mk_false(z) })
}

// Bool is True() or False().
func (c *Context) Bool(b bool) *Term {
	if b {
		return c.True()
	}
	return c.False()
}

// Int is the integer numeral v (Z3_mk_int64).
func (c *Context) Int(v int64) *Term {
	return c.mk0("Int", func(z C.Z3_context) C.Z3_ast { return C.Z3_mk_int64(z, C.int64_t(v), C.Z3_mk_int_sort(z)) })
}

// numeral makes a numeral of sort s from its decimal spelling
// (Z3_mk_numeral).
func (c *Context) numeral(op, text string, sortOf func(z C.Z3_context) C.Z3_sort) *Term {
	return c.mk0(op, func(z C.Z3_context) C.Z3_ast {
		cs := C.CString(text)
		defer C.free(unsafe.Pointer(cs))
		return C.Z3_mk_numeral(z, cs, sortOf(z))
	})
}

// BigInt is the integer numeral v.
func (c *Context) BigInt(v *big.Int) *Term {
	if v == nil {
		return c.termErr(opError("BigInt", "nil value"))
	}
	return c.numeral("BigInt", v.String(), func(z C.Z3_context) C.Z3_sort { return C.Z3_mk_int_sort(z) })
}

// Real is the real numeral num/den (Z3_mk_real); den must not be zero.
func (c *Context) Real(num, den int64) *Term {
	if den == 0 {
		return c.termErr(opError("Real", "zero denominator"))
	}
	return c.Rat(big.NewRat(num, den))
}

// Rat is the real numeral v.
func (c *Context) Rat(v *big.Rat) *Term {
	if v == nil {
		return c.termErr(opError("Rat", "nil value"))
	}
	return c.numeral("Rat", v.RatString(), func(z C.Z3_context) C.Z3_sort { return C.Z3_mk_real_sort(z) })
}

// BV is the bit-vector numeral of the given width whose bits are v's low
// width bits (Z3_mk_unsigned_int64); higher bits of v are dropped.
func (c *Context) BV(v uint64, width uint) *Term {
	if width == 0 {
		return c.termErr(opError("BV", "bit-vector width must be positive"))
	}
	if width < 64 {
		v &= 1<<width - 1
	}
	s := c.BVSort(width)
	if s.err != nil {
		return c.termErr(s.err)
	}
	return c.mk0("BV", func(z C.Z3_context) C.Z3_ast { return C.Z3_mk_unsigned_int64(z, C.uint64_t(v), s.s) })
}

// BigBV is the bit-vector numeral of the given width whose bits are those
// of v modulo 2^width (so a negative v gives its two's complement).
func (c *Context) BigBV(v *big.Int, width uint) *Term {
	if v == nil {
		return c.termErr(opError("BigBV", "nil value"))
	}
	if width == 0 || width > 1<<30 {
		return c.termErr(opError("BigBV", "bit-vector width must be positive"))
	}
	m := new(big.Int).Lsh(big.NewInt(1), width)
	r := new(big.Int).Mod(v, m)
	s := c.BVSort(width)
	if s.err != nil {
		return c.termErr(s.err)
	}
	return c.numeral("BigBV", r.String(), func(C.Z3_context) C.Z3_sort { return s.s })
}

// Not is ¬x (Z3_mk_not).
func (x *Term) Not() *Term {
	return x.mk1("Not", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_not(z, a) })
}

// And is the conjunction of ts (Z3_mk_and); true when ts is empty.
func (c *Context) And(ts ...*Term) *Term {
	if len(ts) == 0 {
		return c.True()
	}
	return c.mkN("And", ts, 1, func(z C.Z3_context, n C.uint, p *C.Z3_ast) C.Z3_ast { return C.Z3_mk_and(z, n, p) })
}

// Or is the disjunction of ts (Z3_mk_or); false when ts is empty.
func (c *Context) Or(ts ...*Term) *Term {
	if len(ts) == 0 {
		return c.False()
	}
	return c.mkN("Or", ts, 1, func(z C.Z3_context, n C.uint, p *C.Z3_ast) C.Z3_ast { return C.Z3_mk_or(z, n, p) })
}

// And is x ∧ y.
func (x *Term) And(y *Term) *Term {
	return x.mk2("And", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast {
		args := [2]C.Z3_ast{a, b}
		return C.Z3_mk_and(z, 2, &args[0])
	})
}

// Or is x ∨ y.
func (x *Term) Or(y *Term) *Term {
	return x.mk2("Or", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast {
		args := [2]C.Z3_ast{a, b}
		return C.Z3_mk_or(z, 2, &args[0])
	})
}

// Xor is x ⊕ y on booleans (Z3_mk_xor).
func (x *Term) Xor(y *Term) *Term {
	return x.mk2("Xor", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_xor(z, a, b) })
}

// Implies is x ⇒ y (Z3_mk_implies).
func (x *Term) Implies(y *Term) *Term {
	return x.mk2("Implies", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_implies(z, a, b) })
}

// Iff is x ⇔ y (Z3_mk_iff).
func (x *Term) Iff(y *Term) *Term {
	return x.mk2("Iff", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_iff(z, a, b) })
}

// Eq is the equality x = y of two terms of one sort (Z3_mk_eq). On
// floating-point terms it is SMT-LIB's =, identity of values: NaN = NaN
// holds and -0 = +0 does not. FPEq is IEEE equality.
func (x *Term) Eq(y *Term) *Term {
	return x.mk2("Eq", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_eq(z, a, b) })
}

// Ne is ¬(x = y).
func (x *Term) Ne(y *Term) *Term { return x.Eq(y).Not() }

// Distinct holds when the terms, all of one sort, are pairwise different
// (Z3_mk_distinct). It needs at least one term.
func (c *Context) Distinct(ts ...*Term) *Term {
	return c.mkN("Distinct", ts, 1, func(z C.Z3_context, n C.uint, p *C.Z3_ast) C.Z3_ast { return C.Z3_mk_distinct(z, n, p) })
}

// Ite is "if cond then x else y" (Z3_mk_ite); cond is boolean, x and y have
// one sort.
func (cond *Term) Ite(x, y *Term) *Term {
	return cond.mk3("Ite", x, y, func(z C.Z3_context, a, b, d C.Z3_ast) C.Z3_ast { return C.Z3_mk_ite(z, a, b, d) })
}

// Sort is the term's sort (Z3_get_sort).
func (t *Term) Sort() *Sort {
	if err := t.Err(); err != nil {
		var c *Context
		if t != nil {
			c = t.ctx
		}
		return &Sort{ctx: c, err: err}
	}
	c := t.ctx
	z, err := c.enter()
	if err != nil {
		return c.sortErr(err)
	}
	return c.sort(z, C.Z3_get_sort(z, t.a), "Sort")
}

// Simplify rewrites the term with Z3's simplifier (Z3_simplify); numerals
// fold to numerals.
func (t *Term) Simplify() *Term {
	if t == nil || t.err != nil || t.ctx == nil {
		return t.mk1("Simplify", simplify)
	}
	c := t.ctx
	if m, ok := c.simplified[t.a]; ok && c.h != nil && c.h.z != nil {
		// The term simplified before is alive, so it holds its Z3
		// reference: t.a is the same term, not a new one at a freed
		// one's address.
		if in, out := m.in.Value(), m.out.Value(); in != nil && out != nil && in.a == t.a {
			return out
		}
	}
	out := t.mk1("Simplify", simplify)
	if out.err == nil {
		if c.simplified == nil {
			c.simplified = map[C.Z3_ast]simplifyMemo{}
		}
		m := simplifyMemo{in: weak.Make(t), out: weak.Make(out)}
		if c.manual {
			m.held = [2]*Term{t, out}
		}
		c.simplified[t.a] = m
	}
	return out
}

func simplify(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_simplify(z, a) }

// A simplifyMemo is a term that Simplify simplified and its
// simplification, held weakly: the memo keeps neither alive, and an
// entry whose term is gone is not used. In a context made
// WithManualRelease the memo holds both too (held), until ReleaseUnused
// or Close: whether a simplification is done again must not depend on
// when the collector ran, since each one makes Z3 terms, which change
// the identifiers of the terms made after them and so the work, and the
// resource units, of later checks (two checks of one condition of the
// blur's broken_wrong_row example counted 11,388 and 11,568 units).
type simplifyMemo struct {
	in, out weak.Pointer[Term]
	held    [2]*Term
}

// SimplifyArith simplifies t with Z3's rewriter putting arithmetic (on
// integers, reals and bit-vectors) into sum-of-monomials normal form
// (parameters "som" and "sort_sums"), so that equal polynomials written
// differently, such as (h*31 + a)*31 and 961*h + 31*a, become the same
// term; the operands of floating-point additions and multiplications then
// go into structural order (OrderOperands).
func (t *Term) SimplifyArith() *Term {
	return t.mk1("SimplifyArith", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast {
		p := C.Z3_mk_params(z)
		C.Z3_params_inc_ref(z, p)
		defer C.Z3_params_dec_ref(z, p)
		for _, opt := range []string{"som", "sort_sums"} {
			name := C.CString(opt)
			C.Z3_params_set_bool(z, p, C.Z3_mk_string_symbol(z, name), true)
			C.free(unsafe.Pointer(name))
		}
		return C.Z3_simplify_ex(z, a, p)
	}).OrderOperands()
}

// ID returns Z3's identifier of the term: equal (hash-consed) terms of a
// context have equal identifiers. An identifier names one term only while
// that term is alive: Z3 gives a freed term's identifier to a later term,
// and when terms are freed depends on the collector. So identifiers serve
// as keys only together with the terms they name, and must never order
// anything a result depends on (Before orders terms by structure).
func (t *Term) ID() uint {
	return inspect(t, 0, func(z C.Z3_context, a C.Z3_ast) uint { return uint(C.Z3_get_ast_id(z, a)) })
}

// Hash returns Z3's structural hash of the term. Unlike ID it depends on
// the term's structure only, not on which terms the context created and
// freed before, so it orders terms the same way in every run.
func (t *Term) Hash() uint {
	return inspect(t, 0, func(z C.Z3_context, a C.Z3_ast) uint { return uint(C.Z3_get_ast_hash(z, a)) })
}

// IsFalse reports whether the term is the constant false (without
// simplifying it: simplify first to decide more).
func (t *Term) IsFalse() bool {
	return inspect(t, false, func(z C.Z3_context, a C.Z3_ast) bool { return C.Z3_get_bool_value(z, a) == C.Z3_L_FALSE })
}

// IsIte reports whether the term is an if-then-else application.
func (t *Term) IsIte() bool {
	return inspect(t, false, func(z C.Z3_context, a C.Z3_ast) bool {
		if C.Z3_get_ast_kind(z, a) != C.Z3_APP_AST {
			return false
		}
		return C.Z3_get_decl_kind(z, C.Z3_get_app_decl(z, C.Z3_to_app(z, a))) == C.Z3_OP_ITE
	})
}

// inspect is f applied to t's context and term, or zero when t holds an
// error or its context is closed.
func inspect[T any](t *Term, zero T, f func(z C.Z3_context, a C.Z3_ast) T) T {
	if t.Err() != nil {
		return zero
	}
	z, err := t.ctx.enter()
	if err != nil {
		return zero
	}
	return f(z, t.a)
}

// enter enters x's context for building a term from x: it returns the
// context, or a term holding the error, x's own or the context's.
func (x *Term) enter() (C.Z3_context, *Term) {
	if x.Err() != nil {
		return nil, x.errTerm()
	}
	z, err := x.ctx.enter()
	if err != nil {
		return nil, x.ctx.termErr(err)
	}
	return z, nil
}

// IteParts returns the condition and the two branches of an
// if-then-else term; ok is false for any other term.
func (t *Term) IteParts() (cond, then, els *Term, ok bool) {
	if !t.IsIte() {
		return nil, nil, nil, false
	}
	c := t.ctx
	z, err := c.enter()
	if err != nil {
		return nil, nil, nil, false
	}
	app := C.Z3_to_app(z, t.a)
	arg := func(i C.uint) *Term { return c.term(z, C.Z3_get_app_arg(z, app, i), "IteParts") }
	cond, then, els = arg(0), arg(1), arg(2)
	if cond.Err() != nil || then.Err() != nil || els.Err() != nil {
		return nil, nil, nil, false
	}
	return cond, then, els, true
}

// String is the term in SMT-LIB2 notation (Z3_ast_to_string).
func (t *Term) String() string {
	if err := t.Err(); err != nil {
		return "<error: " + err.Error() + ">"
	}
	z, err := t.ctx.enter()
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return C.GoString(C.Z3_ast_to_string(z, t.a))
}

// Equal reports whether x and y are the same term (Z3_is_eq_ast); Z3 shares
// structurally equal terms, so this is structural equality, not validity.
func (x *Term) Equal(y *Term) bool {
	if x.Err() != nil || y.Err() != nil || x.ctx != y.ctx {
		return false
	}
	z, err := x.ctx.enter()
	if err != nil {
		return false
	}
	return bool(C.Z3_is_eq_ast(z, x.a, y.a))
}

// Substitute replaces in t every occurrence of each term of from by the
// term of to at the same index, all at once (Z3_substitute); each pair
// has one sort. Occurrences are structural: a term equal to from[i] only
// in value is left as it is.
func (t *Term) Substitute(from, to []*Term) *Term {
	z, bad := t.enter()
	if bad != nil {
		return bad
	}
	c := t.ctx
	if len(from) != len(to) {
		return c.termErr(opError("Substitute", "as many terms to replace as replacements needed"))
	}
	if len(from) == 0 {
		return t
	}
	fs, err := astsOf(c, from)
	if err != nil {
		return c.termErr(err)
	}
	ts, err := astsOf(c, to)
	if err != nil {
		return c.termErr(err)
	}
	return c.term(z, C.Z3_substitute(z, t.a, C.uint(len(fs)), firstAST(fs), firstAST(ts)), "Substitute")
}

// Disjuncts returns the operands of t when t is a disjunction (an
// application of or), else t alone.
func (t *Term) Disjuncts() []*Term {
	if t.Err() != nil {
		return []*Term{t}
	}
	c := t.ctx
	z, err := c.enter()
	if err != nil {
		return []*Term{t}
	}
	if C.Z3_get_ast_kind(z, t.a) != C.Z3_APP_AST {
		return []*Term{t}
	}
	app := C.Z3_to_app(z, t.a)
	if C.Z3_get_decl_kind(z, C.Z3_get_app_decl(z, app)) != C.Z3_OP_OR {
		return []*Term{t}
	}
	n := int(C.Z3_get_app_num_args(z, app))
	out := make([]*Term, n)
	for i := range n {
		out[i] = c.term(z, C.Z3_get_app_arg(z, app, C.uint(i)), "Disjuncts")
	}
	return out
}
