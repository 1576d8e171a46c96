package value

import (
	"math"
	"math/big"

	"github.com/augur-verify/augur/syntax"
)

// Interval is a closed interval [Lo, Hi] of rationals: the range of a float
// value that is finite (neither NaN nor infinite) and lies between the two
// bounds. Intervals bound the values of a specification's float tensors
// (interval arithmetic over their equations), so that the verifier may
// assume them of the tensors' elements.
//
// Each operation takes a Rounding: nil for the real model's exact
// arithmetic, RoundTo(t) for IEEE 754 arithmetic in the float type t.
// An IEEE operation's result is the rounding to nearest-even of the exact
// result, and that rounding is monotone (x ≤ y implies round(x) ≤
// round(y)); so the roundings of the exact bounds of an operation over
// intervals bound the rounded results. An operation whose result may leave
// the finite floats (an overflow, and then NaN from ∞ - ∞ or 0 × ∞), or
// whose exact range is unbounded (a division by an interval holding 0),
// reports false: nothing is known of its value.
type Interval struct{ Lo, Hi *big.Rat }

// Rounding maps an operation's exact result to the value the float
// arithmetic gives it; false when that value is not finite. A nil Rounding
// is exact.
type Rounding func(*big.Rat) (*big.Rat, bool)

// maxBoundBits bounds the size of the bounds' numerators and denominators
// in the exact arithmetic: beyond it an interval is given up, as unknown.
const maxBoundBits = 4096

// RoundTo is the rounding to nearest-even of the float type t (f32 or f64),
// false for a result beyond its largest finite value.
func RoundTo(t syntax.Type) Rounding {
	return func(x *big.Rat) (*big.Rat, bool) {
		var f float64
		if t == syntax.F32 {
			g, _ := x.Float32()
			f = float64(g)
		} else {
			f, _ = x.Float64()
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, false
		}
		return new(big.Rat).SetFloat64(f), true
	}
}

// Point is the interval holding x alone.
func Point(x *big.Rat) Interval { return Interval{x, x} }

// IntervalOf returns the interval [lo, hi] after rounding both bounds with
// r, false when either is not finite or lo > hi.
func IntervalOf(lo, hi *big.Rat, r Rounding) (Interval, bool) {
	if r != nil {
		var ok1, ok2 bool
		lo, ok1 = r(lo)
		hi, ok2 = r(hi)
		if !ok1 || !ok2 {
			return Interval{}, false
		}
	}
	if lo.Cmp(hi) > 0 || tooBig(lo) || tooBig(hi) {
		return Interval{}, false
	}
	return Interval{lo, hi}, true
}

func tooBig(x *big.Rat) bool {
	return x.Num().BitLen() > maxBoundBits || x.Denom().BitLen() > maxBoundBits
}

// Contains reports whether x lies in a.
func (a Interval) Contains(x *big.Rat) bool { return a.Lo.Cmp(x) <= 0 && x.Cmp(a.Hi) <= 0 }

// hull is the smallest interval holding the points xs, rounded with r.
func hull(r Rounding, xs ...*big.Rat) (Interval, bool) {
	lo, hi := xs[0], xs[0]
	for _, x := range xs[1:] {
		if x.Cmp(lo) < 0 {
			lo = x
		}
		if x.Cmp(hi) > 0 {
			hi = x
		}
	}
	return IntervalOf(lo, hi, r)
}

// Add is the range of x + y for x in a and y in b.
func (a Interval) Add(b Interval, r Rounding) (Interval, bool) {
	return IntervalOf(new(big.Rat).Add(a.Lo, b.Lo), new(big.Rat).Add(a.Hi, b.Hi), r)
}

// Sub is the range of x - y for x in a and y in b.
func (a Interval) Sub(b Interval, r Rounding) (Interval, bool) {
	return IntervalOf(new(big.Rat).Sub(a.Lo, b.Hi), new(big.Rat).Sub(a.Hi, b.Lo), r)
}

// Neg is the range of -x for x in a (exact in every model).
func (a Interval) Neg() Interval {
	return Interval{new(big.Rat).Neg(a.Hi), new(big.Rat).Neg(a.Lo)}
}

// Mul is the range of x × y for x in a and y in b: the product is
// bilinear, so its extremes are among the corners' products.
func (a Interval) Mul(b Interval, r Rounding) (Interval, bool) {
	m := func(x, y *big.Rat) *big.Rat { return new(big.Rat).Mul(x, y) }
	return hull(r, m(a.Lo, b.Lo), m(a.Lo, b.Hi), m(a.Hi, b.Lo), m(a.Hi, b.Hi))
}

// Square is the range of x × x for x in a: never negative, unlike the
// product of two independent values of a.
func (a Interval) Square(r Rounding) (Interval, bool) {
	lo2 := new(big.Rat).Mul(a.Lo, a.Lo)
	hi2 := new(big.Rat).Mul(a.Hi, a.Hi)
	hi := lo2
	if hi2.Cmp(hi) > 0 {
		hi = hi2
	}
	lo := lo2
	if hi2.Cmp(lo) < 0 {
		lo = hi2
	}
	if a.Lo.Sign() <= 0 && a.Hi.Sign() >= 0 {
		lo = new(big.Rat)
	}
	return IntervalOf(lo, hi, r)
}

// Div is the range of x / y for x in a and y in b, false when b holds 0.
func (a Interval) Div(b Interval, r Rounding) (Interval, bool) {
	if b.Lo.Sign() <= 0 && b.Hi.Sign() >= 0 {
		return Interval{}, false
	}
	q := func(x, y *big.Rat) *big.Rat { return new(big.Rat).Quo(x, y) }
	return hull(r, q(a.Lo, b.Lo), q(a.Lo, b.Hi), q(a.Hi, b.Lo), q(a.Hi, b.Hi))
}

// MinMax is the range of min(x, y) (isMin) or max(x, y) for x in a and y
// in b (exact: the result is one of the operands).
func (a Interval) MinMax(b Interval, isMin bool) Interval {
	pick := func(x, y *big.Rat) *big.Rat {
		if (x.Cmp(y) < 0) == isMin {
			return x
		}
		return y
	}
	return Interval{pick(a.Lo, b.Lo), pick(a.Hi, b.Hi)}
}

// Union is the smallest interval holding a and b.
func (a Interval) Union(b Interval) Interval {
	return Interval{a.MinMax(b, true).Lo, a.MinMax(b, false).Hi}
}

// Abs is the range of |x| for x in a (exact).
func (a Interval) Abs() Interval {
	switch {
	case a.Lo.Sign() >= 0:
		return a
	case a.Hi.Sign() <= 0:
		return a.Neg()
	}
	hi := new(big.Rat).Neg(a.Lo)
	if a.Hi.Cmp(hi) > 0 {
		hi = a.Hi
	}
	return Interval{new(big.Rat), hi}
}
