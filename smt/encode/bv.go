package encode

import (
	"fmt"
	"math/big"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
)

// This file encodes integer operations on bit-vectors of the type's width,
// following value.Binary and value.Call exactly.

// bvBinary applies op to two integers of type t.
func bvBinary(z *smt.Context, op syntax.Op, t syntax.Type, a, b *smt.Term) (*smt.Term, error) {
	w := uint(t.Bits())
	signed := t.IsSigned()
	zero := z.BV(0, w)
	switch op {
	case syntax.OpEq:
		return a.Eq(b), nil
	case syntax.OpNe:
		return a.Ne(b), nil
	case syntax.OpLt:
		return bvLess(a, b, signed), nil
	case syntax.OpLe:
		return bvLess(b, a, signed).Not(), nil
	case syntax.OpGt:
		return bvLess(b, a, signed), nil
	case syntax.OpGe:
		return bvLess(a, b, signed).Not(), nil
	case syntax.OpAdd:
		return a.BVAdd(b), nil
	case syntax.OpSub:
		return a.BVSub(b), nil
	case syntax.OpMul:
		return a.BVMul(b), nil
	case syntax.OpDiv, syntax.OpRem:
		var r *smt.Term
		switch {
		case !signed && op == syntax.OpDiv:
			r = a.BVUDiv(b)
		case !signed:
			r = a.BVURem(b)
		default:
			q, m := euclid(z, a, b, w)
			r = q
			if op == syntax.OpRem {
				r = m
			}
		}
		// Z3 gives x/0 a value of its own (all ones, or x for the remainder):
		// the language's is 0.
		return b.Eq(zero).Ite(zero, r), nil
	case syntax.OpBitAnd:
		return a.BVAnd(b), nil
	case syntax.OpBitOr:
		return a.BVOr(b), nil
	case syntax.OpBitXor:
		return a.BVXor(b), nil
	case syntax.OpShl, syntax.OpShr:
		// An amount in [0, width) as the type reads it: as an unsigned
		// number, a negative signed amount is at least 2^(w-1) >= w.
		inRange := b.BVULt(z.BV(uint64(w), w))
		var in, out *smt.Term
		switch {
		case op == syntax.OpShl:
			in, out = a.BVShl(b), zero
		case signed:
			in = a.BVAShr(b)
			out = a.BVSLt(zero).Ite(z.BV(^uint64(0), w), zero)
		default:
			in, out = a.BVLShr(b), zero
		}
		return inRange.Ite(in, out), nil
	}
	return nil, fmt.Errorf("operator %s does not apply to %s", op, t)
}

// euclid is the Euclidean quotient and remainder of a by b ≠ 0 on signed
// bit-vectors, as value.EuclidDiv computes them with wrapping: from the
// truncating quotient and remainder, step the quotient away from the
// remainder's sign when the remainder is negative.
func euclid(z *smt.Context, a, b *smt.Term, w uint) (q, r *smt.Term) {
	zero, one := z.BV(0, w), z.BV(1, w)
	q0, r0 := a.BVSDiv(b), a.BVSRem(b)
	neg := r0.BVSLt(zero)
	pos := b.BVSGt(zero)
	q = neg.Ite(pos.Ite(q0.BVSub(one), q0.BVAdd(one)), q0)
	r = neg.Ite(pos.Ite(r0.BVAdd(b), r0.BVSub(b)), r0)
	return q, r
}

func bvLess(a, b *smt.Term, signed bool) *smt.Term {
	if signed {
		return a.BVSLt(b)
	}
	return a.BVULt(b)
}

// bvMinMax is value's integer min or max: the first operand when it is
// strictly less (min) or not less (max) than the second.
func bvMinMax(a, b *smt.Term, signed, isMin bool) *smt.Term {
	less := bvLess(a, b, signed)
	if isMin {
		return less.Ite(a, b)
	}
	return less.Ite(b, a)
}

// bvAbs is |a|, wrapping on the most negative signed value.
func bvAbs(z *smt.Context, a *smt.Term, t syntax.Type) *smt.Term {
	if !t.IsSigned() {
		return a
	}
	w := uint(t.Bits())
	return a.BVSLt(z.BV(0, w)).Ite(a.BVNeg(), a)
}

// bvResize converts an integer of type from to the integer type to, as
// value.Cast does: sign- or zero-extend (by from's signedness) or truncate.
func bvResize(a *smt.Term, from, to syntax.Type) *smt.Term {
	fw, tw := uint(from.Bits()), uint(to.Bits())
	switch {
	case tw == fw:
		return a
	case tw < fw:
		return a.Extract(tw-1, 0)
	case from.IsSigned():
		return a.SignExt(tw - fw)
	}
	return a.ZeroExt(tw - fw)
}

// minBits is the bits of the most negative value of the signed type t.
func minBits(t syntax.Type) uint64 { return 1 << (t.Bits() - 1) }

// signedOverflow is the Bool term that holds when a op b, of the signed
// type t, leaves t's range in exact integer arithmetic (value.Overflow):
// for + - *, and / of the most negative value by -1; false for the other
// operators. When a and b are conversions of integers
// (smt.Term.ModularInt), as a specification's products of parameters
// are, the sum, difference or product of + - * is that of their integers
// read in t's range (intOverflow), which Z3 relates to the rest of a
// query's integer arithmetic without bit-blasting: the bit-level test of
// a product's overflow cost Z3's SMT kernel eight times the units of the
// query it guarded (hist's output, whose equalisation divides by i32
// extents' product).
func (e *Encoder) signedOverflow(op syntax.Op, t syntax.Type, a, b *smt.Term) *smt.Term {
	if r, ok := e.intOverflow(op, t, a, b); ok {
		return r
	}
	return signedOverflow(e.z, op, t, a, b)
}

// intOverflow is signedOverflow of a op b in the integers, for + - * of
// a and b that are conversions of integers: the exact result of their
// integers read in t's range lies outside that range. ok is false
// otherwise.
func (e *Encoder) intOverflow(op syntax.Op, t syntax.Type, a, b *smt.Term) (r *smt.Term, ok bool) {
	if op != syntax.OpAdd && op != syntax.OpSub && op != syntax.OpMul {
		return nil, false
	}
	x, y, ok := modularPair(a, b)
	if !ok {
		return nil, false
	}
	w := uint(t.Bits())
	x, y = e.inRange(x, w, true), e.inRange(y, w, true)
	var exact *smt.Term
	switch op {
	case syntax.OpAdd:
		exact = x.Add(y)
	case syntax.OpSub:
		exact = x.Sub(y)
	default:
		exact = x.Mul(y)
	}
	half := new(big.Int).Lsh(big.NewInt(1), w-1)
	lo, hi := e.z.BigInt(new(big.Int).Neg(half)), e.z.BigInt(half)
	return exact.Lt(lo).Or(exact.Ge(hi)), true
}

// signedOverflow is Encoder.signedOverflow on the bit-vectors alone.
func signedOverflow(z *smt.Context, op syntax.Op, t syntax.Type, a, b *smt.Term) *smt.Term {
	w := uint(t.Bits())
	zero := z.BV(0, w)
	neg := func(x *smt.Term) *smt.Term { return x.BVSLt(zero) }
	switch op {
	case syntax.OpAdd:
		r := a.BVAdd(b)
		return neg(a).Iff(neg(b)).And(neg(r).Xor(neg(a)))
	case syntax.OpSub:
		r := a.BVSub(b)
		return neg(a).Xor(neg(b)).And(neg(r).Xor(neg(a)))
	case syntax.OpMul:
		p := a.SignExt(w).BVMul(b.SignExt(w))
		return p.Extract(w-1, 0).SignExt(w).Eq(p).Not()
	case syntax.OpDiv:
		return a.Eq(z.BV(minBits(t), w)).And(b.Eq(z.BV(^uint64(0)>>(64-w), w)))
	}
	return z.Bool(false)
}
