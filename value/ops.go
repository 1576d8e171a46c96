package value

import (
	"fmt"
	"math"

	"github.com/augur-verify/augur/syntax"
)

// Unary applies -x, ~x or not x. Negation wraps on integers (the negation
// of the most negative value is itself); ~ is defined on integers and not
// on booleans. An undefined operand gives the undefined value of the
// result type. An operator that does not apply to the operand's type is an
// error (the checkers rule these out).
func Unary(op syntax.Op, x Value) (Value, error) {
	r, err := unary(op, x)
	return withFree(withMark(r, x.inexact || !finite(r)), x.unconstrained), err
}

func unary(op syntax.Op, x Value) (Value, error) {
	t := x.typ
	switch {
	case op == syntax.OpNeg && t.IsInteger():
		if !x.def {
			return Undef(t), nil
		}
		return wrap(t, -x.bits), nil
	case op == syntax.OpNeg && t.IsFloat():
		if !x.def {
			return Undef(t), nil
		}
		return Float(t, -x.Float64()), nil
	case op == syntax.OpBitNot && t.IsInteger():
		if !x.def {
			return Undef(t), nil
		}
		return wrap(t, ^x.bits), nil
	case op == syntax.OpNot && t == syntax.Bool:
		if !x.def {
			return Undef(t), nil
		}
		return Bool(x.bits == 0), nil
	}
	return Value{}, fmt.Errorf("operator %s does not apply to %s", op, t)
}

// ResultType is the type of x op y for operands of type t: bool for
// comparisons, t otherwise.
func ResultType(op syntax.Op, t syntax.Type) syntax.Type {
	if op.IsComparison() {
		return syntax.Bool
	}
	return t
}

// Applies reports whether the binary operator op is defined on two
// operands of type t.
func Applies(op syntax.Op, t syntax.Type) bool {
	switch op {
	case syntax.OpAnd, syntax.OpOr:
		return t == syntax.Bool
	case syntax.OpEq, syntax.OpNe:
		return t != syntax.Invalid
	case syntax.OpLt, syntax.OpLe, syntax.OpGt, syntax.OpGe, syntax.OpAdd, syntax.OpSub,
		syntax.OpMul, syntax.OpDiv, syntax.OpRem:
		return t.IsNumeric()
	case syntax.OpBitAnd, syntax.OpBitOr, syntax.OpBitXor, syntax.OpShl, syntax.OpShr:
		return t.IsInteger()
	}
	return false
}

// Binary applies a binary operator to two operands of the same type.
//
// Integers: + - * wrap; / and % are Euclidean on signed types (a % b is in
// [0, |b|) and a == (a/b)*b + a%b) and plain on unsigned ones, and
// x / 0 == x % 0 == 0; & | ^ are bitwise; << and >> by an amount outside
// [0, width) give 0, or -1 for >> of a negative signed value; >> is
// arithmetic on signed types and logical on unsigned ones.
//
// Floats: IEEE 754 at the type's precision; a % b is a - b * floor(a / b)
// (the sign of b, as in Halide), computed with rounding after each step.
//
// Comparisons give bool (false when a NaN is involved, except !=); and/or
// apply to bools. If either operand is undefined, so is the result, of the
// result type. Operands of different types, or an operator that does not
// apply to their type, are an error.
func Binary(op syntax.Op, x, y Value) (Value, error) {
	t := x.typ
	if y.typ != t {
		return Value{}, fmt.Errorf("operator %s on mismatched types %s and %s", op, x.typ, y.typ)
	}
	if !Applies(op, t) {
		return Value{}, fmt.Errorf("operator %s does not apply to %s", op, t)
	}
	rt := ResultType(op, t)
	if !x.def || !y.def {
		return Undef(rt), nil
	}
	r, err := binary(op, t, x, y)
	mark := x.inexact || y.inexact
	switch {
	case t.IsFloat():
		mark = mark || floatRounds(op, t, x.Float64(), y.Float64(), r)
	case t.IsInteger() && (op == syntax.OpDiv || op == syntax.OpRem):
		mark = mark || y.bits == 0
	}
	return withFree(withMark(r, mark), x.unconstrained || y.unconstrained), err
}

// binary applies op to defined operands of type t.
func binary(op syntax.Op, t syntax.Type, x, y Value) (Value, error) {
	switch {
	case t == syntax.Bool:
		a, b := x.bits != 0, y.bits != 0
		switch op {
		case syntax.OpAnd:
			return Bool(a && b), nil
		case syntax.OpOr:
			return Bool(a || b), nil
		case syntax.OpEq:
			return Bool(a == b), nil
		case syntax.OpNe:
			return Bool(a != b), nil
		}
	case t.IsInteger():
		return intBinary(op, x, y), nil
	case t.IsFloat():
		return floatBinary(op, t, x.Float64(), y.Float64()), nil
	}
	return Value{}, fmt.Errorf("operator %s does not apply to %s", op, t)
}

func intBinary(op syntax.Op, x, y Value) Value {
	t := x.typ
	a, b := x.bits, y.bits
	signed := t.IsSigned()
	less := func(a, b uint64) bool {
		if signed {
			return int64(a) < int64(b)
		}
		return a < b
	}
	switch op {
	case syntax.OpEq:
		return Bool(a == b)
	case syntax.OpNe:
		return Bool(a != b)
	case syntax.OpLt:
		return Bool(less(a, b))
	case syntax.OpLe:
		return Bool(!less(b, a))
	case syntax.OpGt:
		return Bool(less(b, a))
	case syntax.OpGe:
		return Bool(!less(a, b))
	case syntax.OpAdd:
		return wrap(t, a+b)
	case syntax.OpSub:
		return wrap(t, a-b)
	case syntax.OpMul:
		return wrap(t, a*b)
	case syntax.OpDiv, syntax.OpRem:
		if b == 0 {
			return wrap(t, 0)
		}
		if !signed {
			if op == syntax.OpDiv {
				return wrap(t, a/b)
			}
			return wrap(t, a%b)
		}
		q, r := EuclidDiv(int64(a), int64(b))
		if op == syntax.OpDiv {
			return wrap(t, uint64(q))
		}
		return wrap(t, uint64(r))
	case syntax.OpBitAnd:
		return wrap(t, a&b)
	case syntax.OpBitOr:
		return wrap(t, a|b)
	case syntax.OpBitXor:
		return wrap(t, a^b)
	case syntax.OpShl, syntax.OpShr:
		w := uint64(t.Bits())
		inRange := b < w
		if signed && int64(b) < 0 {
			inRange = false
		}
		neg := signed && int64(a) < 0
		if !inRange {
			if op == syntax.OpShr && neg {
				return wrap(t, ^uint64(0))
			}
			return wrap(t, 0)
		}
		if op == syntax.OpShl {
			return wrap(t, a<<b)
		}
		if signed {
			return wrap(t, uint64(int64(a)>>b))
		}
		return wrap(t, a>>b)
	}
	return Undef(t)
}

// EuclidDiv returns the Euclidean quotient and remainder of a by b != 0:
// 0 <= r < |b| and a == q*b + r (computed with wrapping, so
// math.MinInt64 / -1 is math.MinInt64).
func EuclidDiv(a, b int64) (q, r int64) {
	if b == -1 {
		return -a, 0 // -MinInt64 wraps to MinInt64
	}
	q, r = a/b, a%b
	if r < 0 {
		if b > 0 {
			q--
			r += b
		} else {
			q++
			r -= b
		}
	}
	return q, r
}

// floatBinary applies op to a and b of the float type t, in binary32
// arithmetic for f32 and in binary64 otherwise.
func floatBinary(op syntax.Op, t syntax.Type, a, b float64) Value {
	if t == syntax.F32 {
		return floatOp(op, t, float32(a), float32(b))
	}
	return floatOp(op, t, a, b)
}

// floatOp computes op in F, so that every step rounds to F's precision,
// and gives the result the type t.
func floatOp[F float32 | float64](op syntax.Op, t syntax.Type, a, b F) Value {
	f := func(x F) Value { return Float(t, float64(x)) }
	switch op {
	case syntax.OpEq:
		return Bool(a == b)
	case syntax.OpNe:
		return Bool(a != b)
	case syntax.OpLt:
		return Bool(a < b)
	case syntax.OpLe:
		return Bool(a <= b)
	case syntax.OpGt:
		return Bool(a > b)
	case syntax.OpGe:
		return Bool(a >= b)
	case syntax.OpAdd:
		return f(a + b)
	case syntax.OpSub:
		return f(a - b)
	case syntax.OpMul:
		return f(a * b)
	case syntax.OpDiv:
		return f(a / b)
	case syntax.OpRem:
		q := F(a / b)
		q = F(math.Floor(float64(q)))
		p := F(b * q) // the conversion forbids fusing into an FMA
		return f(a - p)
	}
	return Undef(t)
}

// Cast converts v to type t, as the cast t(v) does. Integer to integer
// wraps; integer to float rounds to nearest; float to float rounds; float
// to integer truncates toward zero and is undefined if the result is out
// of t's range or v is NaN or infinite; bool converts to 0 or 1; any value
// converts to bool as v != 0. Undefined stays undefined.
func Cast(t syntax.Type, v Value) (Value, error) {
	r, err := cast(t, v)
	if err != nil || !v.def {
		return r, err
	}
	return withFree(withMark(r, v.inexact || castRounds(t, v, r)), v.unconstrained), nil
}

func cast(t syntax.Type, v Value) (Value, error) {
	if t == syntax.Invalid || v.typ == syntax.Invalid {
		return Value{}, fmt.Errorf("cannot convert %s to %s", v.typ, t)
	}
	if !v.def {
		return Undef(t), nil
	}
	if t == syntax.Bool {
		return Bool(v.Bool()), nil
	}
	if !v.typ.IsFloat() {
		// bool, signed and unsigned integers
		if t.IsInteger() {
			return wrap(t, v.bits), nil
		}
		var f float64
		if t == syntax.F32 {
			if v.typ.IsSigned() {
				f = float64(float32(int64(v.bits)))
			} else {
				f = float64(float32(v.bits))
			}
		} else if v.typ.IsSigned() {
			f = float64(int64(v.bits))
		} else {
			f = float64(v.bits)
		}
		return Float(t, f), nil
	}
	f := v.Float64()
	if t.IsFloat() {
		return Float(t, f), nil
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Undef(t), nil
	}
	f = math.Trunc(f)
	w := t.Bits()
	if t.IsSigned() {
		lim := math.Ldexp(1, w-1)
		if f < -lim || f >= lim {
			return Undef(t), nil
		}
		return wrap(t, uint64(int64(f))), nil
	}
	if f < 0 || f >= math.Ldexp(1, w) {
		return Undef(t), nil
	}
	return wrap(t, uint64(f)), nil
}

// FromIndex converts the exact integer n (an index variable, a parameter
// or an integer literal with no other context) to type t, as a cast such
// as f32(i) does: integer types wrap, float types round to nearest, bool
// is n != 0.
func FromIndex(t syntax.Type, n int64) (Value, error) {
	return Cast(t, Int(syntax.I64, n))
}
