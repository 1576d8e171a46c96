package encode

import (
	"fmt"
	"math"
	"math/big"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
)

// This file encodes float operations in both models. IEEE terms follow
// value's float64 and float32 computations step by step, rounding to nearest
// even after each; Real terms are exact.

// floatConst is the term of the float f of type t (f32 values are exact in
// float64). The Real model has no NaN or infinity.
func (e *Encoder) floatConst(t syntax.Type, f float64) (*smt.Term, error) {
	if e.model == Real {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%v has no value in the real model", f)
		}
		return e.z.Rat(new(big.Rat).SetFloat64(f)), nil
	}
	if t == syntax.F32 {
		return e.z.Float32(float32(f)), nil
	}
	return e.z.Float64(f), nil
}

func (e *Encoder) floatNeg(a *smt.Term) *smt.Term {
	if e.model == Real {
		return a.Neg()
	}
	return a.FPNeg()
}

// isFloat reports whether the IEEE term x is the numeral v of type t
// (terms are hash-consed: the numeral's term is x itself, or its
// simplified form).
func (e *Encoder) isFloat(t syntax.Type, x *smt.Term, v float64) bool {
	k, err := e.floatConst(t, v)
	if err != nil || x.ID() == 0 {
		return false
	}
	// Operands may have gone through Simplify, which gives a numeral
	// another representation.
	return k.ID() == x.ID() || k.Simplify().ID() == x.ID()
}

// floatBinary applies op to two floats of type t.
func (e *Encoder) floatBinary(op syntax.Op, t syntax.Type, a, b *smt.Term) (*smt.Term, error) {
	if e.model == Real {
		return e.realBinary(op, t, a, b)
	}
	switch op {
	case syntax.OpEq:
		return a.FPEq(b), nil
	case syntax.OpNe:
		return a.FPEq(b).Not(), nil
	case syntax.OpLt:
		return a.FPLt(b), nil
	case syntax.OpLe:
		return a.FPLe(b), nil
	case syntax.OpGt:
		return a.FPGt(b), nil
	case syntax.OpGe:
		return a.FPGe(b), nil
	case syntax.OpAdd:
		// x + -0 is x for every x, -0 and NaN included.
		if e.isFloat(t, b, math.Copysign(0, -1)) {
			return a, nil
		}
		if e.isFloat(t, a, math.Copysign(0, -1)) {
			return b, nil
		}
		return a.FPAdd(smt.RNE, b), nil
	case syntax.OpSub:
		if e.isFloat(t, b, 0) { // x - +0 is x
			return a, nil
		}
		return a.FPSub(smt.RNE, b), nil
	case syntax.OpMul:
		// Exact identities of IEEE arithmetic that would otherwise cost
		// the solver a bit-blasted multiplier: x * 1 is x, and x * 2 is
		// x + x (both the rounding of 2x).
		switch {
		case e.isFloat(t, b, 1):
			return a, nil
		case e.isFloat(t, a, 1):
			return b, nil
		case e.isFloat(t, b, 2):
			return a.FPAdd(smt.RNE, a), nil
		case e.isFloat(t, a, 2):
			return b.FPAdd(smt.RNE, b), nil
		}
		return a.FPMul(smt.RNE, b), nil
	case syntax.OpDiv:
		if e.isFloat(t, b, 1) {
			return a, nil
		}
		return a.FPDiv(smt.RNE, b), nil
	case syntax.OpRem:
		// value: a - b*floor(a/b), rounding after each step (not IEEE's
		// remainder, nor an FMA).
		q := a.FPDiv(smt.RNE, b).FPRoundToIntegral(smt.RTN)
		return a.FPSub(smt.RNE, b.FPMul(smt.RNE, q)), nil
	}
	return nil, fmt.Errorf("operator %s does not apply to %s", op, t)
}

func (e *Encoder) realBinary(op syntax.Op, t syntax.Type, a, b *smt.Term) (*smt.Term, error) {
	switch op {
	case syntax.OpEq, syntax.OpNe, syntax.OpLt, syntax.OpLe, syntax.OpGt, syntax.OpGe:
		return compareInt(op, a, b), nil
	case syntax.OpAdd:
		return a.Add(b), nil
	case syntax.OpSub:
		return a.Sub(b), nil
	case syntax.OpMul:
		return a.Mul(b), nil
	case syntax.OpDiv:
		// Z3's a/0 is unspecified: a function of a, nothing more.
		return a.Div(b), nil
	case syntax.OpRem:
		return a.Sub(b.Mul(realFloor(a.Div(b)))), nil
	}
	return nil, fmt.Errorf("operator %s does not apply to %s", op, t)
}

// realFloor is ⌊a⌋ as a real.
func realFloor(a *smt.Term) *smt.Term { return a.ToInt().ToReal() }

// realRoundEven rounds the real a to the nearest integer, ties to even, as
// math.RoundToEven does.
func (e *Encoder) realRoundEven(a *smt.Term) *smt.Term {
	fi := a.ToInt()
	f := fi.ToReal()
	d := a.Sub(f)
	half := e.z.Real(1, 2)
	up := f.Add(e.z.Real(1, 1))
	even := fi.Mod(e.z.Int(2)).Eq(e.z.Int(0))
	return d.Lt(half).Ite(f, d.Gt(half).Ite(up, even.Ite(f, up)))
}

// floatMinMax is value's min or max of floats: Go's math.Min and math.Max,
// whose special cases come first: an infinity in the direction of the
// result wins even over NaN, then NaN wins, then -0 is below +0.
func (e *Encoder) floatMinMax(t syntax.Type, a, b *smt.Term, isMin bool) *smt.Term {
	if e.model == Real {
		if isMin {
			return a.Le(b).Ite(a, b)
		}
		return a.Ge(b).Ite(a, b)
	}
	s, _ := e.Sort(t)
	inf := e.z.FPInf(s, isMin) // -inf for min, +inf for max
	eitherInf := e.z.Or(a.Eq(inf), b.Eq(inf))
	eitherNaN := e.z.Or(a.FPIsNaN(), b.FPIsNaN())
	zeros := a.FPIsZero().And(b.FPIsZero())
	var zero, other *smt.Term
	if isMin {
		zero = a.FPIsNegative().Ite(a, b)
		other = a.FPLt(b).Ite(a, b)
	} else {
		zero = a.FPIsNegative().Ite(b, a)
		other = a.FPGt(b).Ite(a, b)
	}
	return eitherInf.Ite(inf, eitherNaN.Ite(e.z.FPNaN(s), zeros.Ite(zero, other)))
}

func (e *Encoder) floatAbs(a *smt.Term) *smt.Term {
	if e.model == Real {
		return a.Lt(e.z.Real(0, 1)).Ite(a.Neg(), a)
	}
	return a.FPAbs()
}

// floatRound is floor, ceil or round (half to even) of a.
func (e *Encoder) floatRound(name string, a *smt.Term) *smt.Term {
	if e.model == Real {
		switch name {
		case "floor":
			return realFloor(a)
		case "ceil":
			return realFloor(a.Neg()).Neg()
		}
		return e.realRoundEven(a)
	}
	switch name {
	case "floor":
		return a.FPRoundToIntegral(smt.RTN)
	case "ceil":
		return a.FPRoundToIntegral(smt.RTP)
	}
	return a.FPRoundToIntegral(smt.RNE)
}
