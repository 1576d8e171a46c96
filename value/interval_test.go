package value

import (
	"math/big"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

func rat(a, b int64) *big.Rat { return big.NewRat(a, b) }

// TestIntervalArithmetic: exact bounds in the real model, the roundings of
// the exact bounds in f32, and no interval where a bound overflows or a
// divisor may be zero.
func TestIntervalArithmetic(t *testing.T) {
	a := Interval{rat(-1, 1), rat(2, 1)}
	b := Interval{rat(3, 1), rat(4, 1)}
	check := func(name string, got Interval, ok bool, lo, hi *big.Rat) {
		t.Helper()
		if !ok || got.Lo.Cmp(lo) != 0 || got.Hi.Cmp(hi) != 0 {
			t.Errorf("%s = [%v, %v] %v, want [%v, %v]", name, got.Lo, got.Hi, ok, lo, hi)
		}
	}
	got, ok := a.Mul(b, nil)
	check("[-1, 2] * [3, 4]", got, ok, rat(-4, 1), rat(8, 1))
	got, ok = a.Square(nil)
	check("[-1, 2]²", got, ok, rat(0, 1), rat(4, 1))
	got, ok = a.Sub(b, nil)
	check("[-1, 2] - [3, 4]", got, ok, rat(-5, 1), rat(-1, 1))
	got, ok = a.Div(b, nil)
	check("[-1, 2] / [3, 4]", got, ok, rat(-1, 3), rat(2, 3))
	check("clamp([-1, 2], 0, 1)", a.MinMax(Point(rat(0, 1)), false).MinMax(Point(rat(1, 1)), true), true, rat(0, 1), rat(1, 1))
	check("|[-1, 2]|", a.Abs(), true, rat(0, 1), rat(2, 1))
	// In f32, 1/3 rounds to 11184811/33554432 (up) at both ends.
	third := new(big.Rat).SetFloat64(float64(float32(1.0 / 3)))
	got, ok = Point(rat(1, 1)).Div(Point(rat(3, 1)), RoundTo(syntax.F32))
	check("1 / 3 in f32", got, ok, third, third)
	if _, ok := b.Div(a, nil); ok {
		t.Error("[3, 4] / [-1, 2]: an interval, want none (the divisor may be 0)")
	}
	huge := Point(new(big.Rat).SetFloat64(3e38))
	if _, ok := huge.Add(huge, RoundTo(syntax.F32)); ok {
		t.Error("3e38 + 3e38 in f32: an interval, want none (it overflows)")
	}
	if _, ok := huge.Add(huge, nil); !ok {
		t.Error("3e38 + 3e38 in the reals: none, want an interval")
	}
}
