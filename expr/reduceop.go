package expr

import (
	"fmt"
	"math"

	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// This file is the operators of reductions (Clément 2022, Section 7.4),
// which both languages write: a specification's
// reduce(OP, k in LO .. HI, ..., BODY) and a kernel's accumulation
// {T(x) @ (k)} OP= e.

// ReduceOp is the operator of a reduction.
type ReduceOp int

// Reduction operators. Every one is associative and commutative on
// integers (wrapping); on floats, only over the reals (see Exact).
const (
	NoReduce ReduceOp = iota
	Sum               // +
	Prod              // *
	Min               // min
	Max               // max
	BitAnd            // &
	BitOr             // |
	BitXor            // ^
)

var reduceOpText = [...]string{NoReduce: "", Sum: "+", Prod: "*", Min: "min", Max: "max", BitAnd: "&", BitOr: "|", BitXor: "^"}

// String is the operator as written: "+", "min", ...
func (o ReduceOp) String() string {
	if o >= 0 && int(o) < len(reduceOpText) {
		return reduceOpText[o]
	}
	return fmt.Sprintf("ReduceOp(%d)", int(o))
}

// ReduceOpByName returns the operator written s ("+", "min", ...).
func ReduceOpByName(s string) (ReduceOp, bool) {
	for i, t := range reduceOpText {
		if i > 0 && t == s {
			return ReduceOp(i), true
		}
	}
	return NoReduce, false
}

// reduceOpOfToken returns the operator a token spells, if any.
func reduceOpOfToken(t syntax.Token[syntax.Kind]) (ReduceOp, bool) {
	switch t.Kind {
	case syntax.Plus, syntax.Star, syntax.Amp, syntax.Pipe, syntax.Caret:
		return ReduceOpByName(t.Kind.String())
	case syntax.Name:
		if t.Text == "min" || t.Text == "max" {
			return ReduceOpByName(t.Text)
		}
	}
	return NoReduce, false
}

// ReduceOpAt reports whether tokens t0 t1 spell an operator followed by
// the given kind: the parsers use it to recognise `+=`, `min=` and
// `reduce(+,`.
func ReduceOpAt(t0, t1 syntax.Token[syntax.Kind], follow syntax.Kind) (ReduceOp, bool) {
	if t1.Kind != follow {
		return NoReduce, false
	}
	return reduceOpOfToken(t0)
}

// AppliesTo reports whether the operator is defined on values of type t.
func (o ReduceOp) AppliesTo(t syntax.Type) bool {
	switch o {
	case Sum, Prod, Min, Max:
		return t.IsNumeric()
	case BitAnd, BitOr, BitXor:
		return t.IsInteger()
	}
	return false
}

// Exact reports whether folding the operator over values of type t gives
// the same result in every order and grouping, bit for bit: on integers
// always; on IEEE floats never (+ and * round; min and max of a NaN, or of
// 0 and -0, depend on the order of their operands).
func (o ReduceOp) Exact(t syntax.Type) bool {
	return !t.IsFloat()
}

// Identity returns the operator's identity on type t: 0 for + | ^, 1 for
// *, all ones for &, the largest value (+Inf for floats) for min and the
// smallest (-Inf) for max.
func (o ReduceOp) Identity(t syntax.Type) value.Value {
	switch o {
	case Sum, BitOr, BitXor:
		if t.IsFloat() {
			return value.Float(t, 0)
		}
		return value.Int(t, 0)
	case Prod:
		if t.IsFloat() {
			return value.Float(t, 1)
		}
		return value.Int(t, 1)
	case BitAnd:
		return value.Int(t, -1)
	case Min:
		switch {
		case t.IsFloat():
			return value.Float(t, math.Inf(1))
		case t.IsUnsigned():
			return value.Uint(t, math.MaxUint64)
		default:
			return value.Int(t, int64(uint64(1)<<(t.Bits()-1)-1))
		}
	case Max:
		switch {
		case t.IsFloat():
			return value.Float(t, math.Inf(-1))
		case t.IsUnsigned():
			return value.Uint(t, 0)
		default:
			return value.Int(t, -int64(uint64(1)<<(t.Bits()-1)))
		}
	}
	return value.Undef(t)
}

// IdentityText is the identity as a literal of the value language, for
// messages and for the verifier's obligations.
func (o ReduceOp) IdentityText(t syntax.Type) string {
	v := o.Identity(t)
	if t.IsFloat() {
		f := v.Float64()
		switch {
		case math.IsInf(f, 1):
			return "inf"
		case math.IsInf(f, -1):
			return "-inf"
		}
	}
	return v.String()
}

// Apply combines two values with the operator.
func (o ReduceOp) Apply(x, y value.Value) (value.Value, error) {
	switch o {
	case Sum:
		return value.Binary(syntax.OpAdd, x, y)
	case Prod:
		return value.Binary(syntax.OpMul, x, y)
	case BitAnd:
		return value.Binary(syntax.OpBitAnd, x, y)
	case BitOr:
		return value.Binary(syntax.OpBitOr, x, y)
	case BitXor:
		return value.Binary(syntax.OpBitXor, x, y)
	case Min:
		return value.Call("min", []value.Value{x, y})
	case Max:
		return value.Call("max", []value.Value{x, y})
	}
	return value.Value{}, fmt.Errorf("no reduction operator %d", int(o))
}
