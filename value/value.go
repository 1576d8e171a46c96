package value

import (
	"fmt"
	"math"
	"strconv"

	"github.com/augur-verify/augur/syntax"
)

// Value is a typed scalar or the undefined value of a type. The zero Value
// is the undefined value of syntax.Invalid. Values are small and compared
// with Equal or Close, never with ==.
type Value struct {
	typ syntax.Type
	def bool
	// bits holds integers in two's complement, sign-extended to 64 bits
	// for signed types and zero-extended for unsigned ones; booleans as 0
	// or 1; floats as math.Float64bits of the value (an f32 value is held
	// as the float64 it converts to exactly).
	bits uint64
	// inexact marks a value that may differ from the real model's
	// (Inexact).
	inexact bool
	// unconstrained marks a specification's value computed from a signed
	// overflow that its Overflow leaves without a value (IsUnconstrained).
	unconstrained bool
}

// Int returns n wrapped to the integer type t. For a type that is not an
// integer type it returns the undefined value of t.
func Int(t syntax.Type, n int64) Value { return wrap(t, uint64(n)) }

// Uint returns n wrapped to the integer type t. For a type that is not an
// integer type it returns the undefined value of t.
func Uint(t syntax.Type, n uint64) Value { return wrap(t, n) }

// Float returns f rounded to the float type t (f32 or f64). For a type
// that is not a float type it returns the undefined value of t.
func Float(t syntax.Type, f float64) Value {
	switch t {
	case syntax.F32:
		return Value{typ: t, def: true, bits: math.Float64bits(float64(float32(f)))}
	case syntax.F64:
		return Value{typ: t, def: true, bits: math.Float64bits(f)}
	}
	return Undef(t)
}

// Bool returns the bool value b.
func Bool(b bool) Value {
	v := Value{typ: syntax.Bool, def: true}
	if b {
		v.bits = 1
	}
	return v
}

// Undef returns the undefined value of type t.
func Undef(t syntax.Type) Value { return Value{typ: t} }

// wrap reduces the 64-bit pattern x to the width of the integer type t.
func wrap(t syntax.Type, x uint64) Value {
	if !t.IsInteger() {
		return Undef(t)
	}
	w := uint(t.Bits())
	if w < 64 {
		if t.IsSigned() {
			x = uint64(int64(x<<(64-w)) >> (64 - w))
		} else {
			x &= 1<<w - 1
		}
	}
	return Value{typ: t, def: true, bits: x}
}

// Type is the value's type.
func (v Value) Type() syntax.Type { return v.typ }

// IsUndef reports whether v is undefined.
func (v Value) IsUndef() bool { return !v.def }

// Int64 is the value of an integer as an int64 (unsigned values above
// math.MaxInt64 wrap), a bool as 0 or 1, a float truncated toward zero
// (saturating); 0 when undefined.
func (v Value) Int64() int64 {
	if !v.def {
		return 0
	}
	if v.typ.IsFloat() {
		f := math.Trunc(v.Float64())
		switch {
		case f != f:
			return 0
		case f >= 0x1p63:
			return math.MaxInt64
		case f < -0x1p63:
			return math.MinInt64
		}
		return int64(f)
	}
	return int64(v.bits)
}

// Uint64 is the bit pattern of an integer, zero-extended for unsigned
// types and sign-extended for signed ones; 0 or 1 for a bool; 0 for
// floats and undefined values.
func (v Value) Uint64() uint64 {
	if !v.def || v.typ.IsFloat() {
		return 0
	}
	return v.bits
}

// Float64 is the value as a float64 (exact for f32 and f64, rounded for
// large integers); NaN when undefined.
func (v Value) Float64() float64 {
	switch {
	case !v.def:
		return math.NaN()
	case v.typ.IsFloat():
		return math.Float64frombits(v.bits)
	case v.typ.IsSigned():
		return float64(int64(v.bits))
	}
	return float64(v.bits)
}

// Bool reports whether v is a defined, non-zero value (true for a bool).
func (v Value) Bool() bool {
	if !v.def {
		return false
	}
	if v.typ.IsFloat() {
		return v.Float64() != 0
	}
	return v.bits != 0
}

// String renders v as a literal of its type: "42", "-1.5", "true", or
// "undef" for the undefined value. Floats use the shortest spelling that
// reads back to the same value at the type's precision.
func (v Value) String() string {
	switch {
	case !v.def:
		return "undef"
	case v.typ == syntax.Bool:
		return strconv.FormatBool(v.bits != 0)
	case v.typ.IsSigned():
		return strconv.FormatInt(int64(v.bits), 10)
	case v.typ.IsUnsigned():
		return strconv.FormatUint(v.bits, 10)
	case v.typ == syntax.F32:
		return strconv.FormatFloat(v.Float64(), 'g', -1, 32)
	case v.typ == syntax.F64:
		return strconv.FormatFloat(v.Float64(), 'g', -1, 64)
	}
	return "invalid"
}

// GoString renders v with its type, such as "i8(-3)" or "undef(f32)".
func (v Value) GoString() string {
	if !v.def {
		return "undef(" + v.typ.String() + ")"
	}
	return v.typ.String() + "(" + v.String() + ")"
}

// Equal reports whether v and w are the same value: the same type, and
// either both undefined or both defined with the same bits. Floats compare
// bit-exactly (so +0 and -0 differ), except that every NaN equals every
// other NaN of its type: NaN payloads are not modelled.
func (v Value) Equal(w Value) bool {
	if v.typ != w.typ || v.def != w.def {
		return false
	}
	if !v.def {
		return true
	}
	if v.typ.IsFloat() {
		a, b := v.Float64(), w.Float64()
		if a != a && b != b {
			return true
		}
	}
	return v.bits == w.bits
}

// Close reports whether v and w agree up to the tolerance tol: they are
// Equal, or both are finite floats of the same type with
// |v - w| <= tol * (1 + max(|v|, |w|)) (an absolute and a relative
// tolerance of tol). Integers, booleans, infinities, NaNs and undefined
// values must be Equal. A tolerance of 0 is Equal.
func (v Value) Close(w Value, tol float64) bool {
	if v.Equal(w) {
		return true
	}
	if tol <= 0 || v.typ != w.typ || !v.typ.IsFloat() || !v.def || !w.def {
		return false
	}
	a, b := v.Float64(), w.Float64()
	if math.IsInf(a, 0) || math.IsInf(b, 0) || a != a || b != b {
		return false
	}
	return math.Abs(a-b) <= tol*(1+math.Max(math.Abs(a), math.Abs(b)))
}

// Parse reads a defined value of type t as String prints it: "true",
// "-3", "2.5", "+Inf", "NaN". It is String's inverse, for values that
// travel as text (command-line inputs, samples of other tools).
func Parse(t syntax.Type, s string) (Value, error) {
	switch {
	case t == syntax.Bool:
		b, err := strconv.ParseBool(s)
		return Bool(b), err
	case t.IsSigned():
		n, err := strconv.ParseInt(s, 10, 64)
		return Int(t, n), err
	case t.IsUnsigned():
		n, err := strconv.ParseUint(s, 10, 64)
		return Uint(t, n), err
	case t == syntax.F32 || t == syntax.F64:
		bits := 64
		if t == syntax.F32 {
			bits = 32
		}
		x, err := strconv.ParseFloat(s, bits)
		if err != nil && !math.IsInf(x, 0) {
			return Value{}, err
		}
		return Float(t, x), nil
	}
	return Value{}, fmt.Errorf("no values of type %s", t)
}
