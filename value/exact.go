package value

import (
	"math"
	"math/big"

	"github.com/augur-verify/augur/syntax"
)

// Inexact reports whether v may differ from what the same computation
// gives over the real numbers, the verifier's default value model
// (docs/validate.md, "Value models"). A value is marked inexact when a
// float operation on its way rounded or left the finite numbers, when a
// function other than the exactly known ones was applied (exp, log, pow,
// sin, cos, tanh, fast_inverse, fast_inverse_sqrt; sqrt, floor, ceil and round unless their result is
// exact), when a bit cast was, when a float literal does not denote its
// decimal number exactly, or when an integer was divided by zero. Integer
// and boolean operations are exact (they wrap alike in both models) but
// inherit the mark of their operands, and so do comparisons: a select
// whose condition compared rounded floats is inexact too.
//
// The mark lets a concrete run count as evidence in the real model: two
// values that differ and are both exact differ over the reals as well.
func (v Value) Inexact() bool { return v.inexact }

// withMark returns r marked inexact when mark is set.
func withMark(r Value, mark bool) Value {
	if mark {
		r.inexact = true
	}
	return r
}

// finite reports whether a defined float value is neither infinite nor
// NaN; other values are finite.
func finite(v Value) bool {
	if !v.def || !v.typ.IsFloat() {
		return true
	}
	f := v.Float64()
	return !math.IsInf(f, 0) && !math.IsNaN(f)
}

// floatRounds reports whether r, the result of a op b on floats of type t,
// differs from the exact real result (or either is not finite). It uses
// error-free transformations: a sum's rounding error computed exactly in
// float64, and fused multiply-adds for products and quotients.
func floatRounds(op syntax.Op, t syntax.Type, a, b float64, r Value) bool {
	if math.IsInf(a, 0) || math.IsNaN(a) || math.IsInf(b, 0) || math.IsNaN(b) || !finite(r) {
		return true
	}
	if op.IsComparison() {
		return false
	}
	rf := r.Float64()
	if tiny(a) || tiny(b) || tiny(rf) {
		// Near the subnormals the error-free transformations below
		// may lose their residual.
		return true
	}
	switch op {
	case syntax.OpAdd, syntax.OpSub:
		if op == syntax.OpSub {
			b = -b
		}
		// The sum s = a + b in float64 and its exact error e (TwoSum):
		// the real sum is s + e.
		s := a + b
		bb := s - a
		e := (a - (s - bb)) + (b - bb)
		return e != 0 || rf != s
	case syntax.OpMul:
		p := a * b
		return math.FMA(a, b, -p) != 0 || rf != p
	case syntax.OpDiv:
		if b == 0 {
			return true
		}
		// rf is the exact quotient iff rf * b == a exactly.
		return math.FMA(rf, b, -a) != 0
	}
	// %: its real counterpart is not pinned down; never evidence.
	return true
}

// tiny reports whether f is non-zero and within a factor 2^100 of the
// smallest normal float64.
func tiny(f float64) bool { return f != 0 && math.Abs(f) < 0x1p-922 }

// castRounds reports whether converting the defined value v to type t
// with result r lost information the real model keeps.
func castRounds(t syntax.Type, v, r Value) bool {
	if !r.def || !finite(v) || !finite(r) {
		return true
	}
	switch {
	case t == syntax.Bool || v.typ == syntax.Bool:
		return false
	case t.IsInteger() && v.typ.IsInteger():
		return false // wraps alike in both models
	case t.IsFloat() && v.typ.IsInteger():
		lim := int64(1) << 24
		if t == syntax.F64 {
			lim = 1 << 53
		}
		if v.typ.IsSigned() {
			n := int64(v.bits)
			return n < -lim || n > lim
		}
		return v.bits > uint64(lim)
	case t.IsFloat() && v.typ.IsFloat():
		return r.Float64() != v.Float64()
	}
	// Float to integer truncates: exact only for an integral value.
	f := v.Float64()
	return f != math.Trunc(f)
}

// callRounds reports whether r, the result of the built-in name on the
// defined args, may differ from the real model's value.
func callRounds(name string, args []Value, r Value) bool {
	if !finite(r) {
		return true
	}
	for _, a := range args {
		if !finite(a) {
			return true
		}
	}
	switch name {
	case "select", "min", "max", "clamp", "abs":
		return false
	case "sqrt":
		x, s := args[0].Float64(), r.Float64()
		if x < 0 || s < 0 {
			return true
		}
		if r.typ == syntax.F32 {
			return s*s != x // exact in float64: 24-bit operands
		}
		return math.FMA(s, s, -x) != 0
	case "floor", "ceil", "round":
		x := args[0].Float64()
		return x != math.Trunc(x)
	}
	// exp, log, pow, sin, cos, tanh, fast_inverse and fast_inverse_sqrt
	// are uninterpreted in the real model.
	return true
}

// literalRounds reports whether the float value r of the literal spelled
// text is not the decimal number the spelling denotes.
func literalRounds(text string, r Value) bool {
	if !finite(r) {
		return true
	}
	want, ok := new(big.Rat).SetString(text)
	if !ok {
		return true
	}
	got := new(big.Rat)
	if got.SetFloat64(r.Float64()) == nil {
		return true
	}
	return want.Cmp(got) != 0
}
