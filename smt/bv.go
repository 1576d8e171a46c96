package smt

// #include <z3.h>
import "C"

// Bit-vector operations (SMT-LIB's FixedSizeBitVectors theory). Operands
// of one operation have the same width. Arithmetic wraps modulo 2^width.
// Division and remainder by zero are defined as in SMT-LIB: x udiv 0 is all
// ones, x urem 0 is x; the signed forms follow from those.

// BVAdd is x + y modulo 2^width (Z3_mk_bvadd).
func (x *Term) BVAdd(y *Term) *Term {
	return x.mk2("BVAdd", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvadd(z, a, b) })
}

// BVSub is x - y modulo 2^width (Z3_mk_bvsub).
func (x *Term) BVSub(y *Term) *Term {
	return x.mk2("BVSub", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvsub(z, a, b) })
}

// BVMul is x · y modulo 2^width (Z3_mk_bvmul).
func (x *Term) BVMul(y *Term) *Term {
	return x.mk2("BVMul", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvmul(z, a, b) })
}

// BVNeg is -x modulo 2^width, two's complement negation (Z3_mk_bvneg).
func (x *Term) BVNeg() *Term {
	return x.mk1("BVNeg", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvneg(z, a) })
}

// BVUDiv is unsigned division, rounding toward zero (Z3_mk_bvudiv).
func (x *Term) BVUDiv(y *Term) *Term {
	return x.mk2("BVUDiv", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvudiv(z, a, b) })
}

// BVSDiv is two's complement signed division, rounding toward zero
// (Z3_mk_bvsdiv).
func (x *Term) BVSDiv(y *Term) *Term {
	return x.mk2("BVSDiv", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvsdiv(z, a, b) })
}

// BVURem is the unsigned remainder (Z3_mk_bvurem).
func (x *Term) BVURem(y *Term) *Term {
	return x.mk2("BVURem", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvurem(z, a, b) })
}

// BVSRem is the signed remainder of BVSDiv, with the sign of x
// (Z3_mk_bvsrem), like Go's %.
func (x *Term) BVSRem(y *Term) *Term {
	return x.mk2("BVSRem", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvsrem(z, a, b) })
}

// BVSMod is the signed remainder with the sign of y (Z3_mk_bvsmod).
func (x *Term) BVSMod(y *Term) *Term {
	return x.mk2("BVSMod", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvsmod(z, a, b) })
}

// BVShl shifts x left by y bits, filling with zeros (Z3_mk_bvshl); a shift
// of width or more gives zero.
func (x *Term) BVShl(y *Term) *Term {
	return x.mk2("BVShl", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvshl(z, a, b) })
}

// BVLShr shifts x right by y bits, filling with zeros (Z3_mk_bvlshr).
func (x *Term) BVLShr(y *Term) *Term {
	return x.mk2("BVLShr", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvlshr(z, a, b) })
}

// BVAShr shifts x right by y bits, copying the sign bit (Z3_mk_bvashr).
func (x *Term) BVAShr(y *Term) *Term {
	return x.mk2("BVAShr", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvashr(z, a, b) })
}

// BVAnd is bitwise and (Z3_mk_bvand).
func (x *Term) BVAnd(y *Term) *Term {
	return x.mk2("BVAnd", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvand(z, a, b) })
}

// BVOr is bitwise or (Z3_mk_bvor).
func (x *Term) BVOr(y *Term) *Term {
	return x.mk2("BVOr", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvor(z, a, b) })
}

// BVXor is bitwise exclusive or (Z3_mk_bvxor).
func (x *Term) BVXor(y *Term) *Term {
	return x.mk2("BVXor", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvxor(z, a, b) })
}

// BVNot is bitwise complement (Z3_mk_bvnot).
func (x *Term) BVNot() *Term {
	return x.mk1("BVNot", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvnot(z, a) })
}

// BVULt is unsigned x < y (Z3_mk_bvult).
func (x *Term) BVULt(y *Term) *Term {
	return x.mk2("BVULt", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvult(z, a, b) })
}

// BVULe is unsigned x ≤ y (Z3_mk_bvule).
func (x *Term) BVULe(y *Term) *Term {
	return x.mk2("BVULe", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvule(z, a, b) })
}

// BVUGt is unsigned x > y (Z3_mk_bvugt).
func (x *Term) BVUGt(y *Term) *Term {
	return x.mk2("BVUGt", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvugt(z, a, b) })
}

// BVUGe is unsigned x ≥ y (Z3_mk_bvuge).
func (x *Term) BVUGe(y *Term) *Term {
	return x.mk2("BVUGe", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvuge(z, a, b) })
}

// BVSLt is two's complement x < y (Z3_mk_bvslt).
func (x *Term) BVSLt(y *Term) *Term {
	return x.mk2("BVSLt", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvslt(z, a, b) })
}

// BVSLe is two's complement x ≤ y (Z3_mk_bvsle).
func (x *Term) BVSLe(y *Term) *Term {
	return x.mk2("BVSLe", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvsle(z, a, b) })
}

// BVSGt is two's complement x > y (Z3_mk_bvsgt).
func (x *Term) BVSGt(y *Term) *Term {
	return x.mk2("BVSGt", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvsgt(z, a, b) })
}

// BVSGe is two's complement x ≥ y (Z3_mk_bvsge).
func (x *Term) BVSGe(y *Term) *Term {
	return x.mk2("BVSGe", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvsge(z, a, b) })
}

// Extract is bits hi down to lo of x, a bit-vector of width hi-lo+1
// (Z3_mk_extract); it needs lo ≤ hi < width.
func (x *Term) Extract(hi, lo uint) *Term {
	if lo > hi || hi >= 1<<31 {
		return x.withErr(opError("Extract", "needs lo <= hi"))
	}
	return x.mk1("Extract", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_extract(z, C.uint(hi), C.uint(lo), a) })
}

// Concat is x followed by y: x supplies the high bits (Z3_mk_concat).
func (x *Term) Concat(y *Term) *Term {
	return x.mk2("Concat", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_concat(z, a, b) })
}

// ZeroExt widens x by n zero bits on the left (Z3_mk_zero_ext).
func (x *Term) ZeroExt(n uint) *Term {
	if n >= 1<<31 {
		return x.withErr(opError("ZeroExt", "extension too wide"))
	}
	return x.mk1("ZeroExt", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_zero_ext(z, C.uint(n), a) })
}

// SignExt widens x by n copies of its sign bit (Z3_mk_sign_ext).
func (x *Term) SignExt(n uint) *Term {
	if n >= 1<<31 {
		return x.withErr(opError("SignExt", "extension too wide"))
	}
	return x.mk1("SignExt", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_sign_ext(z, C.uint(n), a) })
}

// BVToInt is the integer that x denotes, as an unsigned number or, when
// signed, in two's complement (Z3_mk_bv2int).
func (x *Term) BVToInt(signed bool) *Term {
	return x.mk1("BVToInt", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_bv2int(z, a, C.bool(signed)) })
}
