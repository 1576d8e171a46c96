package encode

import (
	"math/big"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
)

// This file keeps integer values that come from integers in the integers.
// A float-to-integer conversion of the Real model is the conversion to a
// bit-vector (_ int2bv w) of the truncated real, and an index converted to
// an integer type is one of the index (fromIndex); Z3 relates such terms
// poorly: it reasons about int2bv bit by bit, against the integer it
// converts. So, exactly in every model:
//
//   - a division, remainder or right shift by a constant of a value that
//     is the conversion of an integer (through sums, products and
//     if-then-else, extensions and low bits: smt.Term.ModularInt) is the conversion of the integer
//     division or remainder (SMT-LIB's div and mod, Euclidean, as the
//     language's / and % are) of that integer read in the type's range;
//   - two such values are equal when their integers are congruent modulo
//     2^w (Equal, and the operators == and != of the language), and
//     ordered as their integers read in the type's range (<, <=, >, >=);
//   - the integer such a value denotes, as an index or a real, is its
//     integer read in the type's range (bvInt).
//
// The queries over truncations then stay in linear integer arithmetic.

// modulus is 2^w.
func modulus(w uint) *big.Int { return new(big.Int).Lsh(big.NewInt(1), w) }

// inRange is the integer that the w-bit conversion of n denotes as a value
// of a type of that width: n modulo 2^w, shifted into [-2^(w-1), 2^(w-1))
// when signed.
func (e *Encoder) inRange(n *smt.Term, w uint, signed bool) *smt.Term {
	m := e.z.BigInt(modulus(w))
	if !signed {
		return n.Mod(m)
	}
	half := e.z.BigInt(new(big.Int).Lsh(big.NewInt(1), w-1))
	return n.Add(half).Mod(m).Sub(half)
}

// bvInt is the integer that the value a of the integer type t denotes
// (smt.Term.BVToInt): when a is the conversion of an integer n
// (smt.Term.ModularInt), n read in t's range, in linear integer
// arithmetic, rather than a conversion of a's bits back, which Z3 relates
// to n only bit by bit.
func (e *Encoder) bvInt(a *smt.Term, t syntax.Type) *smt.Term {
	if n, ok := a.ModularInt(); ok {
		return e.inRange(n, uint(t.Bits()), t.IsSigned())
	}
	return a.BVToInt(t.IsSigned())
}

// intDivision encodes a / b, a % b or a >> b for integers of type t when a
// is the conversion of an integer and b a constant the operation is
// defined by arithmetic for (non-zero, or a shift amount below the width);
// ok is false otherwise, and the operation stays on bit-vectors.
func (e *Encoder) intDivision(op syntax.Op, t syntax.Type, a, b *smt.Term) (r *smt.Term, ok bool) {
	if op != syntax.OpDiv && op != syntax.OpRem && op != syntax.OpShr {
		return nil, false
	}
	bv, err := b.Simplify().IntValue() // unsigned
	if err != nil {
		return nil, false
	}
	n, ok := a.ModularInt()
	if !ok {
		return nil, false
	}
	w := uint(t.Bits())
	d := new(big.Int).Set(bv)
	if t.IsSigned() && d.Bit(int(w)-1) == 1 {
		d.Sub(d, modulus(w))
	}
	switch {
	case op == syntax.OpShr && bv.Cmp(big.NewInt(int64(w))) >= 0:
		// Out-of-range amounts (negative ones included) fill with the
		// sign: left to bvBinary.
		return nil, false
	case op == syntax.OpShr:
		d = new(big.Int).Lsh(big.NewInt(1), uint(bv.Uint64()))
	case d.Sign() == 0:
		return nil, false
	}
	x := e.inRange(n, w, t.IsSigned())
	k := e.z.BigInt(d)
	if op == syntax.OpRem {
		if remKeepsInteger(d, w, t.IsSigned()) {
			// x is n + j·2^(w-1) for some integer j (signed; n + j·2^w
			// unsigned), a multiple of d apart: the same remainder.
			return n.Mod(k).ToBV(w), true
		}
		return x.Mod(k).ToBV(w), true
	}
	return x.Div(k).ToBV(w), true
}

// remKeepsInteger reports whether the remainder by d of an integer read
// in the range of a type of width w is the remainder of the integer
// itself: when |d| divides the shift of that reading (2^(w-1) signed, 2^w
// unsigned), a power of two. Z3 then meets i32(x) % i32(4) as x mod 4,
// not as ((x + 2^31) mod 2^32) mod 4, which it relates to x mod 4 (a
// kernel's remainder by a constant) only by a search it often does not
// finish.
func remKeepsInteger(d *big.Int, w uint, signed bool) bool {
	shift := modulus(w)
	if signed {
		shift = modulus(w - 1)
	}
	a := new(big.Int).Abs(d)
	return a.Sign() > 0 && new(big.Int).Mod(shift, a).Sign() == 0
}

// modularPair returns the integers of a and b when both are conversions
// of integers (smt.Term.ModularInt); ok is false otherwise.
func modularPair(a, b *smt.Term) (x, y *smt.Term, ok bool) {
	if x, ok = a.ModularInt(); !ok {
		return nil, nil, false
	}
	if y, ok = b.ModularInt(); !ok {
		return nil, nil, false
	}
	return x, y, true
}

// intEqual is a = b for integers of width w when both are conversions of
// integers: their congruence modulo 2^w. ok is false otherwise.
func (e *Encoder) intEqual(a, b *smt.Term, w uint) (r *smt.Term, ok bool) {
	x, y, ok := modularPair(a, b)
	if !ok {
		return nil, false
	}
	return x.Sub(y).Mod(e.z.BigInt(modulus(w))).Eq(e.z.Int(0)), true
}

// intOrder is a op b, an ordered comparison of integers of type t, when
// both are conversions of integers: the comparison of their integers read
// in t's range, which the bit-vectors' signed or unsigned comparison is.
// ok is false otherwise.
func (e *Encoder) intOrder(op syntax.Op, t syntax.Type, a, b *smt.Term) (r *smt.Term, ok bool) {
	var cmp func(x, y *smt.Term) *smt.Term
	switch op {
	case syntax.OpLt:
		cmp = (*smt.Term).Lt
	case syntax.OpLe:
		cmp = (*smt.Term).Le
	case syntax.OpGt:
		cmp = (*smt.Term).Gt
	case syntax.OpGe:
		cmp = (*smt.Term).Ge
	default:
		return nil, false
	}
	x, y, ok := modularPair(a, b)
	if !ok {
		return nil, false
	}
	w := uint(t.Bits())
	return cmp(e.inRange(x, w, t.IsSigned()), e.inRange(y, w, t.IsSigned())), true
}
