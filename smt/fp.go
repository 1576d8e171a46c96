package smt

// #include <z3.h>
import "C"

import (
	"math"
	"math/big"
	"runtime"
)

// IEEE 754 floating point (SMT-LIB's FloatingPoint theory). Operands of one
// operation have the same floating-point sort. Z3 has a single NaN per sort:
// NaN payloads and signs are not represented.

// A RoundingMode is one of IEEE 754's five rounding-direction attributes.
type RoundingMode int

// The rounding modes, with their SMT-LIB names.
const (
	RNE RoundingMode = iota // roundNearestTiesToEven, IEEE's default and Go's
	RNA                     // roundNearestTiesToAway
	RTP                     // roundTowardPositive
	RTN                     // roundTowardNegative
	RTZ                     // roundTowardZero
)

func (rm RoundingMode) String() string {
	switch rm {
	case RNE:
		return "RNE"
	case RNA:
		return "RNA"
	case RTP:
		return "RTP"
	case RTN:
		return "RTN"
	case RTZ:
		return "RTZ"
	}
	return "RoundingMode(?)"
}

func (rm RoundingMode) valid() bool { return rm >= RNE && rm <= RTZ }

// rmAST makes the Z3 term of a valid rounding mode.
func rmAST(z C.Z3_context, rm RoundingMode) C.Z3_ast {
	switch rm {
	case RNA:
		return C.Z3_mk_fpa_rna(z)
	case RTP:
		return C.Z3_mk_fpa_rtp(z)
	case RTN:
		return C.Z3_mk_fpa_rtn(z)
	case RTZ:
		return C.Z3_mk_fpa_rtz(z)
	}
	return C.Z3_mk_fpa_rne(z)
}

// withRM calls f with the rounding mode's term, holding a reference on it
// for the duration of the call.
func withRM(z C.Z3_context, rm RoundingMode, f func(r C.Z3_ast) C.Z3_ast) C.Z3_ast {
	r := rmAST(z, rm)
	if r == nil {
		return nil
	}
	C.Z3_inc_ref(z, r)
	out := f(r)
	C.Z3_dec_ref(z, r)
	return out
}

// RoundingModeTerm is the term of sort RoundingModeSort denoting rm.
func (c *Context) RoundingModeTerm(rm RoundingMode) *Term {
	if !rm.valid() {
		return c.termErr(opError("RoundingModeTerm", "invalid rounding mode"))
	}
	return c.mk0("RoundingModeTerm", func(z C.Z3_context) C.Z3_ast { return rmAST(z, rm) })
}

// FloatBits is the floating-point numeral of sort s whose IEEE interchange
// encoding is bits: sign, then ebits biased exponent bits, then sbits-1
// trailing significand bits (Z3_mk_fpa_fp). Every NaN encoding gives Z3's
// NaN.
func (c *Context) FloatBits(bits *big.Int, s *Sort) *Term {
	if bits == nil {
		return c.termErr(opError("FloatBits", "nil value"))
	}
	if s.Err() != nil {
		return c.termErr(s.Err())
	}
	eb, sb := s.FloatBits()
	if eb == 0 {
		return c.termErr(opError("FloatBits", "not a floating-point sort: "+s.String()))
	}
	if bits.Sign() < 0 || uint(bits.BitLen()) > eb+sb {
		return c.termErr(opError("FloatBits", "encoding does not fit the sort"))
	}
	mask := func(n uint) *big.Int { return new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), n), big.NewInt(1)) }
	frac := new(big.Int).And(bits, mask(sb-1))
	exp := new(big.Int).And(new(big.Int).Rsh(bits, sb-1), mask(eb))
	sign := new(big.Int).Rsh(bits, eb+sb-1)
	sgnT, expT, fracT := c.BigBV(sign, 1), c.BigBV(exp, eb), c.BigBV(frac, sb-1)
	return sgnT.mk3("FloatBits", expT, fracT, func(z C.Z3_context, a, b, d C.Z3_ast) C.Z3_ast {
		return C.Z3_mk_fpa_fp(z, a, b, d)
	})
}

// Float32 is the Float32Sort numeral equal to v, bit for bit (NaNs give
// Z3's NaN).
func (c *Context) Float32(v float32) *Term {
	return c.FloatBits(new(big.Int).SetUint64(uint64(math.Float32bits(v))), c.Float32Sort())
}

// Float64 is the Float64Sort numeral equal to v, bit for bit (NaNs give
// Z3's NaN).
func (c *Context) Float64(v float64) *Term {
	return c.FloatBits(new(big.Int).SetUint64(math.Float64bits(v)), c.Float64Sort())
}

// FPNaN is the NaN of sort s (Z3_mk_fpa_nan).
func (c *Context) FPNaN(s *Sort) *Term {
	return c.mkSorted("FPNaN", s, func(z C.Z3_context, sp C.Z3_sort) C.Z3_ast { return C.Z3_mk_fpa_nan(z, sp) })
}

// FPInf is +∞ or, if negative, -∞ of sort s (Z3_mk_fpa_inf).
func (c *Context) FPInf(s *Sort, negative bool) *Term {
	return c.mkSorted("FPInf", s, func(z C.Z3_context, sp C.Z3_sort) C.Z3_ast { return C.Z3_mk_fpa_inf(z, sp, C.bool(negative)) })
}

// FPZero is +0 or, if negative, -0 of sort s (Z3_mk_fpa_zero).
func (c *Context) FPZero(s *Sort, negative bool) *Term {
	return c.mkSorted("FPZero", s, func(z C.Z3_context, sp C.Z3_sort) C.Z3_ast { return C.Z3_mk_fpa_zero(z, sp, C.bool(negative)) })
}

func (x *Term) rm1(op string, rm RoundingMode, f func(z C.Z3_context, r, a C.Z3_ast) C.Z3_ast) *Term {
	if !rm.valid() {
		return x.withErr(opError(op, "invalid rounding mode"))
	}
	return x.mk1(op, func(z C.Z3_context, a C.Z3_ast) C.Z3_ast {
		return withRM(z, rm, func(r C.Z3_ast) C.Z3_ast { return f(z, r, a) })
	})
}

func (x *Term) rm2(op string, rm RoundingMode, y *Term, f func(z C.Z3_context, r, a, b C.Z3_ast) C.Z3_ast) *Term {
	if !rm.valid() {
		return x.withErr(opError(op, "invalid rounding mode"))
	}
	return x.mk2(op, y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast {
		return withRM(z, rm, func(r C.Z3_ast) C.Z3_ast { return f(z, r, a, b) })
	})
}

// FPAdd is x + y rounded by rm (Z3_mk_fpa_add).
func (x *Term) FPAdd(rm RoundingMode, y *Term) *Term {
	return x.rm2("FPAdd", rm, y, func(z C.Z3_context, r, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_add(z, r, a, b) })
}

// FPSub is x - y rounded by rm (Z3_mk_fpa_sub).
func (x *Term) FPSub(rm RoundingMode, y *Term) *Term {
	return x.rm2("FPSub", rm, y, func(z C.Z3_context, r, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_sub(z, r, a, b) })
}

// FPMul is x · y rounded by rm (Z3_mk_fpa_mul).
func (x *Term) FPMul(rm RoundingMode, y *Term) *Term {
	return x.rm2("FPMul", rm, y, func(z C.Z3_context, r, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_mul(z, r, a, b) })
}

// FPDiv is x / y rounded by rm (Z3_mk_fpa_div).
func (x *Term) FPDiv(rm RoundingMode, y *Term) *Term {
	return x.rm2("FPDiv", rm, y, func(z C.Z3_context, r, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_div(z, r, a, b) })
}

// FPFMA is x · y + w with a single rounding by rm (Z3_mk_fpa_fma).
func (x *Term) FPFMA(rm RoundingMode, y, w *Term) *Term {
	if !rm.valid() {
		return x.withErr(opError("FPFMA", "invalid rounding mode"))
	}
	return x.mk3("FPFMA", y, w, func(z C.Z3_context, a, b, d C.Z3_ast) C.Z3_ast {
		return withRM(z, rm, func(r C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_fma(z, r, a, b, d) })
	})
}

// FPSqrt is √x rounded by rm (Z3_mk_fpa_sqrt).
func (x *Term) FPSqrt(rm RoundingMode) *Term {
	return x.rm1("FPSqrt", rm, func(z C.Z3_context, r, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_sqrt(z, r, a) })
}

// FPRoundToIntegral is x rounded to an integral value by rm
// (Z3_mk_fpa_round_to_integral).
func (x *Term) FPRoundToIntegral(rm RoundingMode) *Term {
	return x.rm1("FPRoundToIntegral", rm, func(z C.Z3_context, r, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_round_to_integral(z, r, a) })
}

// FPRem is IEEE's remainder x - y·n, n the integer nearest x/y, ties to
// even (Z3_mk_fpa_rem). It is not Go's math.Mod.
func (x *Term) FPRem(y *Term) *Term {
	return x.mk2("FPRem", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_rem(z, a, b) })
}

// FPMin is IEEE minimum (Z3_mk_fpa_min): the other operand when one is NaN;
// min(-0, +0) is unspecified (either zero).
func (x *Term) FPMin(y *Term) *Term {
	return x.mk2("FPMin", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_min(z, a, b) })
}

// FPMax is IEEE maximum (Z3_mk_fpa_max), with FPMin's conventions.
func (x *Term) FPMax(y *Term) *Term {
	return x.mk2("FPMax", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_max(z, a, b) })
}

// FPAbs is |x|, clearing the sign (Z3_mk_fpa_abs).
func (x *Term) FPAbs() *Term {
	return x.mk1("FPAbs", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_abs(z, a) })
}

// FPNeg is -x, flipping the sign (Z3_mk_fpa_neg).
func (x *Term) FPNeg() *Term {
	return x.mk1("FPNeg", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_neg(z, a) })
}

// FPEq is IEEE equality (Z3_mk_fpa_eq): false when either operand is NaN,
// true for -0 and +0. Eq is identity of values instead.
func (x *Term) FPEq(y *Term) *Term {
	return x.mk2("FPEq", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_eq(z, a, b) })
}

// FPLt is IEEE x < y (Z3_mk_fpa_lt), false when either is NaN.
func (x *Term) FPLt(y *Term) *Term {
	return x.mk2("FPLt", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_lt(z, a, b) })
}

// FPLe is IEEE x ≤ y (Z3_mk_fpa_leq), false when either is NaN.
func (x *Term) FPLe(y *Term) *Term {
	return x.mk2("FPLe", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_leq(z, a, b) })
}

// FPGt is IEEE x > y (Z3_mk_fpa_gt), false when either is NaN.
func (x *Term) FPGt(y *Term) *Term {
	return x.mk2("FPGt", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_gt(z, a, b) })
}

// FPGe is IEEE x ≥ y (Z3_mk_fpa_geq), false when either is NaN.
func (x *Term) FPGe(y *Term) *Term {
	return x.mk2("FPGe", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_geq(z, a, b) })
}

// FPIsNaN holds when x is NaN (Z3_mk_fpa_is_nan).
func (x *Term) FPIsNaN() *Term {
	return x.mk1("FPIsNaN", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_is_nan(z, a) })
}

// FPIsInf holds when x is ±∞ (Z3_mk_fpa_is_infinite).
func (x *Term) FPIsInf() *Term {
	return x.mk1("FPIsInf", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_is_infinite(z, a) })
}

// FPIsZero holds when x is ±0 (Z3_mk_fpa_is_zero).
func (x *Term) FPIsZero() *Term {
	return x.mk1("FPIsZero", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_is_zero(z, a) })
}

// FPIsNormal holds when x is a normal number (Z3_mk_fpa_is_normal).
func (x *Term) FPIsNormal() *Term {
	return x.mk1("FPIsNormal", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_is_normal(z, a) })
}

// FPIsSubnormal holds when x is subnormal (Z3_mk_fpa_is_subnormal).
func (x *Term) FPIsSubnormal() *Term {
	return x.mk1("FPIsSubnormal", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_is_subnormal(z, a) })
}

// FPIsNegative holds when x is negative, -0 included, NaN excluded
// (Z3_mk_fpa_is_negative).
func (x *Term) FPIsNegative() *Term {
	return x.mk1("FPIsNegative", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_is_negative(z, a) })
}

// FPIsPositive holds when x is positive, +0 included, NaN excluded
// (Z3_mk_fpa_is_positive).
func (x *Term) FPIsPositive() *Term {
	return x.mk1("FPIsPositive", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_is_positive(z, a) })
}

// FPToIEEEBV is x's IEEE interchange encoding as a bit-vector of width
// ebits+sbits (Z3_mk_fpa_to_ieee_bv). The encoding of NaN is unspecified:
// any NaN pattern may be chosen.
func (x *Term) FPToIEEEBV() *Term {
	return x.mk1("FPToIEEEBV", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_to_ieee_bv(z, a) })
}

func (x *Term) toSort(op string, s *Sort, f func(z C.Z3_context, a C.Z3_ast, sp C.Z3_sort) C.Z3_ast) *Term {
	if x.Err() != nil {
		return x.errTerm()
	}
	sp, err := s.use(x.ctx)
	if err != nil {
		return x.ctx.termErr(err)
	}
	t := x.mk1(op, func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return f(z, a, sp) })
	runtime.KeepAlive(s) // sp is used after mk1's enter, which may release unreachable sorts
	return t
}

// BVToFP reinterprets the bit-vector x, of width ebits+sbits, as the IEEE
// encoding of a float of sort s (Z3_mk_fpa_to_fp_bv).
func (x *Term) BVToFP(s *Sort) *Term {
	return x.toSort("BVToFP", s, func(z C.Z3_context, a C.Z3_ast, sp C.Z3_sort) C.Z3_ast { return C.Z3_mk_fpa_to_fp_bv(z, a, sp) })
}

// FPToFP converts the float x to the floating-point sort s, rounding by rm
// when s is narrower (Z3_mk_fpa_to_fp_float).
func (x *Term) FPToFP(rm RoundingMode, s *Sort) *Term {
	return x.rmSort("FPToFP", rm, s, func(z C.Z3_context, r, a C.Z3_ast, sp C.Z3_sort) C.Z3_ast {
		return C.Z3_mk_fpa_to_fp_float(z, r, a, sp)
	})
}

// SBVToFP converts the two's complement bit-vector x to the nearest float
// of sort s under rm (Z3_mk_fpa_to_fp_signed).
func (x *Term) SBVToFP(rm RoundingMode, s *Sort) *Term {
	return x.rmSort("SBVToFP", rm, s, func(z C.Z3_context, r, a C.Z3_ast, sp C.Z3_sort) C.Z3_ast {
		return C.Z3_mk_fpa_to_fp_signed(z, r, a, sp)
	})
}

// UBVToFP converts the unsigned bit-vector x to the nearest float of sort s
// under rm (Z3_mk_fpa_to_fp_unsigned).
func (x *Term) UBVToFP(rm RoundingMode, s *Sort) *Term {
	return x.rmSort("UBVToFP", rm, s, func(z C.Z3_context, r, a C.Z3_ast, sp C.Z3_sort) C.Z3_ast {
		return C.Z3_mk_fpa_to_fp_unsigned(z, r, a, sp)
	})
}

// RealToFP converts the real x to the nearest float of sort s under rm
// (Z3_mk_fpa_to_fp_real).
func (x *Term) RealToFP(rm RoundingMode, s *Sort) *Term {
	return x.rmSort("RealToFP", rm, s, func(z C.Z3_context, r, a C.Z3_ast, sp C.Z3_sort) C.Z3_ast { return C.Z3_mk_fpa_to_fp_real(z, r, a, sp) })
}

func (x *Term) rmSort(op string, rm RoundingMode, s *Sort, f func(z C.Z3_context, r, a C.Z3_ast, sp C.Z3_sort) C.Z3_ast) *Term {
	if !rm.valid() {
		return x.withErr(opError(op, "invalid rounding mode"))
	}
	return x.toSort(op, s, func(z C.Z3_context, a C.Z3_ast, sp C.Z3_sort) C.Z3_ast {
		return withRM(z, rm, func(r C.Z3_ast) C.Z3_ast { return f(z, r, a, sp) })
	})
}

// FPToSBV rounds x by rm to an integer and gives it as a two's complement
// bit-vector of the given width (Z3_mk_fpa_to_sbv). The result is
// unspecified for NaN, infinities and out-of-range values.
func (x *Term) FPToSBV(rm RoundingMode, width uint) *Term {
	if width == 0 {
		return x.withErr(opError("FPToSBV", "bit-vector width must be positive"))
	}
	return x.rm1("FPToSBV", rm, func(z C.Z3_context, r, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_to_sbv(z, r, a, C.uint(width)) })
}

// FPToUBV is FPToSBV's unsigned counterpart (Z3_mk_fpa_to_ubv).
func (x *Term) FPToUBV(rm RoundingMode, width uint) *Term {
	if width == 0 {
		return x.withErr(opError("FPToUBV", "bit-vector width must be positive"))
	}
	return x.rm1("FPToUBV", rm, func(z C.Z3_context, r, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_to_ubv(z, r, a, C.uint(width)) })
}

// FPToReal is the real value of x (Z3_mk_fpa_to_real); unspecified for NaN
// and infinities.
func (x *Term) FPToReal() *Term {
	return x.mk1("FPToReal", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_fpa_to_real(z, a) })
}
