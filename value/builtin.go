package value

import (
	"fmt"
	"math"
	"strings"

	"github.com/augur-verify/augur/syntax"
)

// Builtin describes a built-in function of the value language.
type Builtin struct {
	Name  string
	Arity int
	// FloatOnly functions (sqrt, exp, ...) take and return a float type;
	// the others (min, max, abs, clamp) take any numeric type; select
	// takes a bool and two values of one type.
	FloatOnly bool
}

var builtins = map[string]Builtin{
	"min": {"min", 2, false}, "max": {"max", 2, false}, "abs": {"abs", 1, false},
	"clamp": {"clamp", 3, false}, "select": {"select", 3, false},
	"sqrt": {"sqrt", 1, true}, "exp": {"exp", 1, true}, "log": {"log", 1, true},
	"pow": {"pow", 2, true}, "floor": {"floor", 1, true}, "ceil": {"ceil", 1, true},
	"round": {"round", 1, true}, "sin": {"sin", 1, true}, "cos": {"cos", 1, true},
	"tanh": {"tanh", 1, true}, "fast_inverse": {"fast_inverse", 1, true},
	"fast_inverse_sqrt": {"fast_inverse_sqrt", 1, true},
}

// LookupBuiltin returns the built-in function called name.
func LookupBuiltin(name string) (Builtin, bool) {
	b, ok := builtins[name]
	return b, ok
}

// Call applies a built-in function.
//
//   - min, max: the smaller or larger operand; on floats as Go's math.Min
//     and math.Max (NaN if either is NaN, -0 below +0).
//   - abs: keeps the type; wraps on the most negative signed value.
//   - clamp(x, lo, hi) is min(max(x, lo), hi).
//   - select(c, a, b) is a if c else b; eager: undefined if any of c, a, b
//     is undefined.
//   - sqrt exp log pow floor ceil sin cos tanh on f32 and f64, computed in
//     float64 and rounded to the type; round rounds half to even.
//   - fast_inverse and fast_inverse_sqrt, Halide's reciprocal and
//     reciprocal square root estimates (rcpps and rsqrtps on x86, whose
//     results the hardware defines within a relative error of 1.5 * 2^-12),
//     are computed as 1 / x and 1 / sqrt(x) in float64, rounded to the
//     type: the exact values the estimates approximate.
//
// Every argument but select's condition must have the same type. An
// undefined argument gives an undefined result. Wrong arity or types are
// errors.
func Call(name string, args []Value) (Value, error) {
	b, ok := builtins[name]
	if !ok {
		return Value{}, fmt.Errorf("unknown function %s", name)
	}
	if len(args) != b.Arity {
		return Value{}, fmt.Errorf("%s takes %d arguments, got %d", name, b.Arity, len(args))
	}
	operands := args
	if name == "select" {
		if args[0].typ != syntax.Bool {
			return Value{}, fmt.Errorf("select condition has type %s, want bool", args[0].typ)
		}
		operands = args[1:]
	}
	t := operands[0].typ
	for _, a := range operands[1:] {
		if a.typ != t {
			return Value{}, fmt.Errorf("%s on mismatched types %s and %s", name, t, a.typ)
		}
	}
	switch {
	case name == "select":
		if t == syntax.Invalid {
			return Value{}, fmt.Errorf("select on invalid type")
		}
	case b.FloatOnly && !t.IsFloat():
		return Value{}, fmt.Errorf("%s needs a float argument, got %s", name, t)
	case !t.IsNumeric():
		return Value{}, fmt.Errorf("%s needs a numeric argument, got %s", name, t)
	}
	for _, a := range args {
		if !a.def {
			return Undef(t), nil
		}
	}
	r := call(name, args, t)
	mark := callRounds(name, args, r)
	free := false
	if name == "select" {
		chosen := args[2]
		if args[0].bits != 0 {
			chosen = args[1]
		}
		mark = mark || args[0].inexact || chosen.inexact
		free = args[0].unconstrained || chosen.unconstrained
	} else {
		for _, a := range args {
			mark = mark || a.inexact
			free = free || a.unconstrained
		}
	}
	return withFree(withMark(r, mark), free), nil
}

// call applies the built-in name to defined, well-typed arguments.
func call(name string, args []Value, t syntax.Type) Value {
	switch name {
	case "select":
		if args[0].bits != 0 {
			return args[1]
		}
		return args[2]
	case "min":
		return minMax(args[0], args[1], true)
	case "max":
		return minMax(args[0], args[1], false)
	case "clamp":
		return minMax(minMax(args[0], args[1], false), args[2], true)
	case "abs":
		x := args[0]
		switch {
		case t.IsSigned():
			if int64(x.bits) < 0 {
				return wrap(t, -x.bits)
			}
			return x
		case t.IsUnsigned():
			return x
		}
		return Float(t, math.Abs(x.Float64()))
	}
	x := args[0].Float64()
	var f float64
	switch name {
	case "sqrt":
		f = math.Sqrt(x)
	case "exp":
		f = math.Exp(x)
	case "log":
		f = math.Log(x)
	case "pow":
		f = math.Pow(x, args[1].Float64())
	case "floor":
		f = math.Floor(x)
	case "ceil":
		f = math.Ceil(x)
	case "round":
		f = math.RoundToEven(x)
	case "sin":
		f = math.Sin(x)
	case "cos":
		f = math.Cos(x)
	case "tanh":
		f = math.Tanh(x)
	case "fast_inverse":
		f = 1 / x
	case "fast_inverse_sqrt":
		f = 1 / math.Sqrt(x)
	}
	return Float(t, f)
}

func minMax(x, y Value, isMin bool) Value {
	t := x.typ
	if t.IsFloat() {
		if isMin {
			return Float(t, math.Min(x.Float64(), y.Float64()))
		}
		return Float(t, math.Max(x.Float64(), y.Float64()))
	}
	less := x.bits < y.bits
	if t.IsSigned() {
		less = int64(x.bits) < int64(y.bits)
	}
	if less == isMin {
		return x
	}
	return y
}

// reinterpretPrefix starts the name of a bit cast: reinterpret_f32(x) is
// the f32 whose bits are those of x.
const reinterpretPrefix = "reinterpret_"

// ReinterpretType returns the result type T of the bit cast called name,
// reinterpret_T, for T any integer or float type (not bool); ok is false
// for any other name.
func ReinterpretType(name string) (t syntax.Type, ok bool) {
	rest, found := strings.CutPrefix(name, reinterpretPrefix)
	if !found {
		return syntax.Invalid, false
	}
	t = syntax.TypeByName(rest)
	return t, t.IsNumeric()
}

// ReinterpretName is the name of the bit cast to type t: "reinterpret_f32".
func ReinterpretName(t syntax.Type) string { return reinterpretPrefix + t.String() }

// CanReinterpret reports whether a value of type from can be bit cast to
// type to: both are integer or float types of the same width.
func CanReinterpret(to, from syntax.Type) bool {
	return to.IsNumeric() && from.IsNumeric() && to.Bits() == from.Bits()
}

// Reinterpret is the bit cast reinterpret_T(v): the value of type t whose
// two's complement or IEEE 754 encoding has the bits of v's. t and v's
// type must have the same width (CanReinterpret). Integers reinterpret
// exactly (u32 4294967295 is i32 -1); bits that encode a NaN give a NaN
// (whose payload, like every NaN's, is not modelled); a NaN bit cast to an
// integer type is undefined (to its own type it is itself), since which of the NaN encodings it has is
// not modelled either. An undefined v gives an undefined result.
func Reinterpret(t syntax.Type, v Value) (Value, error) {
	if !CanReinterpret(t, v.typ) {
		return Value{}, fmt.Errorf("cannot reinterpret %s as %s: the widths differ or one is not a number", v.typ, t)
	}
	if !v.def {
		return Undef(t), nil
	}
	if t == v.typ {
		return v, nil
	}
	r, err := reinterpret(t, v)
	// A bit cast has no counterpart over the reals.
	return withFree(withMark(r, true), v.unconstrained), err
}

func reinterpret(t syntax.Type, v Value) (Value, error) {
	var bits uint64
	switch v.typ {
	case syntax.F32:
		f := v.Float64()
		if f != f {
			return Undef(t), nil
		}
		bits = uint64(math.Float32bits(float32(f)))
	case syntax.F64:
		if f := v.Float64(); f != f {
			return Undef(t), nil
		}
		bits = v.bits
	default:
		bits = v.bits
		if w := uint(v.typ.Bits()); w < 64 {
			bits &= 1<<w - 1
		}
	}
	switch t {
	case syntax.F32:
		return Value{typ: t, def: true, bits: math.Float64bits(float64(math.Float32frombits(uint32(bits))))}, nil
	case syntax.F64:
		return Value{typ: t, def: true, bits: bits}, nil
	}
	return wrap(t, bits), nil
}
