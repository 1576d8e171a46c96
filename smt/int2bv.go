package smt

// #include <stdlib.h>
// #include <z3.h>
import "C"

import (
	"math/big"
)

// ToBVModular is ToBV(width) pushed through the integer term's sums,
// differences, negations, products and if-then-else down to the terms that
// are none of these (constants, applications, div, mod), whose conversions
// the arithmetic of bit-vectors combines: (_ int2bv w) is a ring
// homomorphism from the integers onto the integers modulo 2^w, so
// int2bv(x + 3*y - 1) is int2bv(x) + 3*int2bv(y) - 1 in every model, and
// the result equals x.ToBV(width) in every model. Numerals become
// bit-vector numerals (modulo 2^width).
//
// Two index expressions that agree modulo 2^width, such as i32(x + 1) and
// i32(x) + 1, then convert to terms that the simplifier makes equal,
// where Z3 would have to relate the two conversions of different integers
// (it handles int2bv poorly: such a query may run out of any resource
// limit).
func (x *Term) ToBVModular(width uint) *Term {
	if width == 0 {
		return x.withErr(opError("ToBVModular", "bit-vector width must be positive"))
	}
	z, bad := x.enter()
	if bad != nil {
		return bad
	}
	c := x.ctx
	m := modular{c: c, z: z, width: width, mod: new(big.Int).Lsh(big.NewInt(1), width), done: map[uint]*Term{}}
	return m.conv(x)
}

// modular is one ToBVModular pass; done holds the conversions made, by
// identifier of the integer term (alive, being a subterm of the argument).
type modular struct {
	c     *Context
	z     C.Z3_context
	width uint
	mod   *big.Int
	done  map[uint]*Term
}

// conv converts the integer term t.
func (m *modular) conv(t *Term) *Term { return memoized(m.done, t, m.convNew) }

// memoized returns the conversion of t that done holds, or makes it with
// convNew and records it: a term shared by several subterms is converted
// once.
func memoized(done map[uint]*Term, t *Term, convNew func(*Term) *Term) *Term {
	id := t.ID()
	if r, ok := done[id]; ok {
		return r
	}
	r := convNew(t)
	done[id] = r
	return r
}

// foldTerms combines ts from the left with f; nil for no terms.
func foldTerms(ts []*Term, f func(a, b *Term) *Term) *Term {
	if len(ts) == 0 {
		return nil
	}
	r := ts[0]
	for _, u := range ts[1:] {
		r = f(r, u)
	}
	return r
}

func (m *modular) convNew(t *Term) *Term {
	z := m.z
	if C.Z3_get_ast_kind(z, t.a) == C.Z3_NUMERAL_AST {
		v, ok := new(big.Int).SetString(C.GoString(C.Z3_get_numeral_string(z, t.a)), 10)
		if ok {
			return m.c.BigBV(v.Mod(v, m.mod), m.width)
		}
		return t.ToBV(m.width)
	}
	if C.Z3_get_ast_kind(z, t.a) != C.Z3_APP_AST {
		return t.ToBV(m.width)
	}
	app := C.Z3_to_app(z, t.a)
	n := int(C.Z3_get_app_num_args(z, app))
	args := func() []*Term {
		out := make([]*Term, n)
		for i := range out {
			out[i] = m.conv(m.c.term(z, C.Z3_get_app_arg(z, app, C.uint(i)), "ToBVModular"))
		}
		return out
	}
	switch C.Z3_get_decl_kind(z, C.Z3_get_app_decl(z, app)) {
	case C.Z3_OP_ADD:
		if n > 0 {
			return foldTerms(args(), (*Term).BVAdd)
		}
	case C.Z3_OP_SUB:
		if n > 0 {
			return foldTerms(args(), (*Term).BVSub)
		}
	case C.Z3_OP_MUL:
		if n > 0 {
			return foldTerms(args(), (*Term).BVMul)
		}
	case C.Z3_OP_UMINUS:
		if n == 1 {
			return args()[0].BVNeg()
		}
	case C.Z3_OP_ITE:
		if n == 3 {
			cond := m.c.term(z, C.Z3_get_app_arg(z, app, 0), "ToBVModular")
			a := m.conv(m.c.term(z, C.Z3_get_app_arg(z, app, 1), "ToBVModular"))
			b := m.conv(m.c.term(z, C.Z3_get_app_arg(z, app, 2), "ToBVModular"))
			return cond.Ite(a, b)
		}
	}
	return t.ToBV(m.width)
}

// ModularInt is the inverse of ToBVModular: for a bit-vector term built
// from conversions of integers (_ int2bv w) n and numerals by bvadd,
// bvsub, bvmul, bvneg, if-then-else, sign and zero extensions and the
// extraction of low bits, it returns an integer term m with
// t = (_ int2bv w) m in every model (numerals as their unsigned values;
// the sums and products of the integers, which int2bv maps onto those of
// the bit-vectors modulo 2^w). ok is false when some leaf is anything
// else (a constant, a division, a shift).
//
// Two such terms are equal exactly when their integers are congruent
// modulo 2^w, which linear integer arithmetic decides without the
// bit-level reasoning that int2bv costs Z3.
func (t *Term) ModularInt() (m *Term, ok bool) {
	if t.Err() != nil {
		return nil, false
	}
	c := t.ctx
	z, err := c.enter()
	if err != nil {
		return nil, false
	}
	if C.Z3_get_sort_kind(z, C.Z3_get_sort(z, t.a)) != C.Z3_BV_SORT {
		return nil, false
	}
	u := unmodular{c: c, z: z, done: map[uint]*Term{}}
	m = u.conv(t)
	return m, m != nil && m.Err() == nil
}

// unmodular is one ModularInt pass; done holds the conversions made, by
// identifier of the bit-vector term (alive, being a subterm of the
// argument), nil for a term that has none.
type unmodular struct {
	c    *Context
	z    C.Z3_context
	done map[uint]*Term
}

func (u *unmodular) conv(t *Term) *Term { return memoized(u.done, t, u.convNew) }

func (u *unmodular) convNew(t *Term) *Term {
	z := u.z
	if C.Z3_get_ast_kind(z, t.a) == C.Z3_NUMERAL_AST {
		v, ok := new(big.Int).SetString(C.GoString(C.Z3_get_numeral_string(z, t.a)), 10)
		if !ok {
			return nil
		}
		return u.c.BigInt(v)
	}
	if C.Z3_get_ast_kind(z, t.a) != C.Z3_APP_AST {
		return nil
	}
	app := C.Z3_to_app(z, t.a)
	n := int(C.Z3_get_app_num_args(z, app))
	arg := func(i int) *Term { return u.c.term(z, C.Z3_get_app_arg(z, app, C.uint(i)), "ModularInt") }
	args := func() []*Term {
		out := make([]*Term, n)
		for i := range out {
			if out[i] = u.conv(arg(i)); out[i] == nil {
				return nil
			}
		}
		return out
	}
	fold := func(f func(a, b *Term) *Term) *Term { return foldTerms(args(), f) }
	switch C.Z3_get_decl_kind(z, C.Z3_get_app_decl(z, app)) {
	case C.Z3_OP_INT2BV:
		if n == 1 {
			return arg(0)
		}
	case C.Z3_OP_BADD:
		return fold((*Term).Add)
	case C.Z3_OP_BSUB:
		return fold((*Term).Sub)
	case C.Z3_OP_BMUL:
		return fold((*Term).Mul)
	case C.Z3_OP_BNEG:
		if n == 1 {
			if a := u.conv(arg(0)); a != nil {
				return a.Neg()
			}
		}
	case C.Z3_OP_ITE:
		if n == 3 {
			a, b := u.conv(arg(1)), u.conv(arg(2))
			if a != nil && b != nil {
				return arg(0).Ite(a, b)
			}
		}
	case C.Z3_OP_SIGN_EXT, C.Z3_OP_ZERO_EXT:
		// The extension of a w-bit conversion of m converts the integer
		// that the w bits denote: m modulo 2^w, shifted into
		// [-2^(w-1), 2^(w-1)) when signed.
		if n == 1 {
			if a := u.conv(arg(0)); a != nil {
				w := uint(C.Z3_get_bv_sort_size(z, C.Z3_get_sort(z, arg(0).a)))
				signed := C.Z3_get_decl_kind(z, C.Z3_get_app_decl(z, app)) == C.Z3_OP_SIGN_EXT
				return u.inRange(a, w, signed)
			}
		}
	case C.Z3_OP_EXTRACT:
		// The low bits of a conversion of m are the conversion of m to
		// fewer bits.
		decl := C.Z3_get_app_decl(z, app)
		if n == 1 && C.Z3_get_decl_int_parameter(z, decl, 1) == 0 {
			return u.conv(arg(0))
		}
	}
	return nil
}

// inRange is the integer that the w-bit conversion of m denotes: m modulo
// 2^w, shifted into [-2^(w-1), 2^(w-1)) when signed.
func (u *unmodular) inRange(m *Term, w uint, signed bool) *Term {
	mod := u.c.BigInt(new(big.Int).Lsh(big.NewInt(1), w))
	if !signed {
		return m.Mod(mod)
	}
	half := u.c.BigInt(new(big.Int).Lsh(big.NewInt(1), w-1))
	return m.Add(half).Mod(mod).Sub(half)
}
