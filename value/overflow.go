package value

import (
	"math"
	"math/bits"

	"github.com/augur-verify/augur/syntax"
)

// Overflow is what a specification's signed integer arithmetic gives when
// its exact result leaves the range of its type. It is an option of the
// whole specification (docs/formats.md, "Signed overflow"); kernels always
// wrap.
type Overflow uint8

// Overflows.
const (
	// OverflowWraps wraps every integer operation to its width, the
	// default and the zero Overflow.
	OverflowWraps Overflow = iota
	// OverflowUnconstrained is Halide's meaning: an i32 or i64 addition,
	// subtraction, multiplication, negation or division (of the most
	// negative value by -1) whose exact result leaves the type's range
	// has no defined value, and a kernel may compute any value where the
	// specification's depends on one (Value.IsUnconstrained). Narrower
	// signed types, unsigned types and casts wrap, as in Halide.
	OverflowUnconstrained
)

// String is the spelling of o in a specification's overflow directive.
func (o Overflow) String() string {
	if o == OverflowUnconstrained {
		return "unconstrained"
	}
	return "wraps"
}

// ParseOverflow reads an Overflow as String spells it.
func ParseOverflow(s string) (Overflow, bool) {
	switch s {
	case "wraps":
		return OverflowWraps, true
	case "unconstrained":
		return OverflowUnconstrained, true
	}
	return 0, false
}

// Checked reports whether signed operations of type t are checked for
// overflow under o (i32 and i64 under OverflowUnconstrained).
func (o Overflow) Checked(t syntax.Type) bool {
	return o == OverflowUnconstrained && (t == syntax.I32 || t == syntax.I64)
}

// IsUnconstrained reports whether v is unconstrained: a defined value of a
// specification computed from a signed overflow under
// OverflowUnconstrained, which any value of its type satisfies. The bits
// of an unconstrained value are the wrapped result, and equality (Equal,
// Equality) ignores the mark: comparing a kernel's value with a
// specification's, test IsUnconstrained first (Equality.Accepts).
func (v Value) IsUnconstrained() bool { return v.def && v.unconstrained }

// Unconstrained returns v marked unconstrained; the undefined value stays
// undefined.
func Unconstrained(v Value) Value { return withFree(v, true) }

// withFree returns r marked unconstrained when free is set and r is
// defined.
func withFree(r Value, free bool) Value {
	if free && r.def {
		r.unconstrained = true
	}
	return r
}

// Unary is Unary under o: a negation of the most negative value of a
// checked type is unconstrained.
func (o Overflow) Unary(op syntax.Op, x Value) (Value, error) {
	r, err := Unary(op, x)
	if err != nil || !x.def || op != syntax.OpNeg || !o.Checked(x.typ) {
		return r, err
	}
	return withFree(r, x.bits == minOf(x.typ)), nil
}

// Binary is Binary under o: an addition, subtraction, multiplication or
// division of a checked type whose exact result leaves the type's range
// is unconstrained.
func (o Overflow) Binary(op syntax.Op, x, y Value) (Value, error) {
	r, err := Binary(op, x, y)
	if err != nil || !x.def || !y.def || !o.Checked(x.typ) {
		return r, err
	}
	return withFree(r, overflows(op, x.typ, int64(x.bits), int64(y.bits))), nil
}

// minOf is the bits of the most negative value of the signed type t.
func minOf(t syntax.Type) uint64 {
	if t == syntax.I32 {
		return 0xFFFFFFFF80000000
	}
	return 1 << 63
}

// overflows reports whether a op b leaves the range of the signed type t
// (i32 or i64) in exact integer arithmetic.
func overflows(op syntax.Op, t syntax.Type, a, b int64) bool {
	if t == syntax.I32 {
		var n int64
		switch op {
		case syntax.OpAdd:
			n = a + b
		case syntax.OpSub:
			n = a - b
		case syntax.OpMul:
			n = a * b
		case syntax.OpDiv:
			return a == math.MinInt32 && b == -1
		default:
			return false
		}
		return n < math.MinInt32 || n > math.MaxInt32
	}
	switch op {
	case syntax.OpAdd:
		s := a + b
		return (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0)
	case syntax.OpSub:
		s := a - b
		return (a >= 0) != (b >= 0) && (s >= 0) != (a >= 0)
	case syntax.OpMul:
		if a == 0 || b == 0 {
			return false
		}
		neg := (a < 0) != (b < 0)
		hi, lo := bits.Mul64(absU(a), absU(b))
		if hi != 0 {
			return true
		}
		if neg {
			return lo > 1<<63
		}
		return lo > math.MaxInt64
	case syntax.OpDiv:
		return a == math.MinInt64 && b == -1
	}
	return false
}

// absU is |a| as an unsigned integer (exact for math.MinInt64).
func absU(a int64) uint64 {
	if a < 0 {
		return uint64(-(a + 1)) + 1
	}
	return uint64(a)
}
