package smt

import (
	"math"
	"math/rand/v2"
	"testing"
)

// valid checks that f holds in every model (its negation is unsat).
func valid(t *testing.T, c *Context, f *Term) {
	t.Helper()
	if r, s := solve(t, c, f.Not()); r != Unsat {
		t.Errorf("%v is not valid: %v (%s)", f, r, s.ReasonUnknown())
	}
}

func TestFloat32Sum(t *testing.T) {
	c := newCtx(t)
	// Go's float32 arithmetic is IEEE binary32 with round-to-nearest-even:
	// Z3's answer must be Go's. In binary32, 0.1 + 0.2 rounds to exactly
	// the binary32 nearest 0.3 (0x3e99999a); in binary64 it does not.
	a, b, want := float32(0.1), float32(0.2), float32(0.3)
	goSum := a + b
	sum := c.Float32(a).FPAdd(RNE, c.Float32(b))
	eq := sum.FPEq(c.Float32(want))
	if goSum == want {
		valid(t, c, eq)
	} else {
		valid(t, c, eq.Not())
	}
	// The sum's value, read back from a model, is Go's bit for bit.
	r := c.Const("r", c.Float32Sort())
	s := wantResult(t, c, Sat, r.Eq(sum))
	m, _ := s.Model()
	if v, err := m.Float32(r); err != nil || math.Float32bits(v) != math.Float32bits(goSum) {
		t.Errorf("0.1f+0.2f = %v (%#x), %v; want %v (%#x)", v, math.Float32bits(v), err, goSum, math.Float32bits(goSum))
	}

	// In binary64 the classic inequality holds.
	x, y := 0.1, 0.2
	if x+y == 0.3 {
		t.Fatal("binary64 0.1 + 0.2 == 0.3 in Go")
	}
	valid(t, c, c.Float64(x).FPAdd(RNE, c.Float64(y)).FPEq(c.Float64(0.3)).Not())

	// And the rounding mode matters: 1/3 rounded up and down differ by
	// one unit in the last place.
	one, three := c.Float32(1), c.Float32(3)
	up, down := one.FPDiv(RTP, three), one.FPDiv(RTN, three)
	valid(t, c, up.FPGt(down))
	valid(t, c, up.FPToIEEEBV().BVSub(down.FPToIEEEBV()).Eq(c.BV(1, 32)))
}

func TestSignedZeroAndNaN(t *testing.T) {
	c := newCtx(t)
	f32 := c.Float32Sort()
	pz, nz := c.FPZero(f32, false), c.FPZero(f32, true)
	nan := c.FPNaN(f32)
	valid(t, c, pz.FPEq(nz))         // IEEE: -0 == +0
	valid(t, c, pz.Eq(nz).Not())     // but they are different values
	valid(t, c, nan.FPEq(nan).Not()) // IEEE: NaN != NaN
	valid(t, c, nan.Eq(nan))         // but NaN is one value
	valid(t, c, c.Float32(float32(math.NaN())).Eq(nan))
	valid(t, c, c.Float32(-1).FPSqrt(RNE).FPIsNaN())
	valid(t, c, nz.FPIsNegative().And(nz.FPIsZero()))
	valid(t, c, c.Float32(1).FPDiv(RNE, nz).Eq(c.FPInf(f32, true)))

	// For every x: NaN is the only float not fp.eq to itself.
	x := c.Const("x", f32)
	valid(t, c, x.FPEq(x).Not().Iff(x.FPIsNaN()))
	// = and fp.eq differ exactly on zeros and NaN.
	y := c.Const("y", f32)
	valid(t, c, x.FPEq(y).Xor(x.Eq(y)).Iff(
		c.Or(x.FPIsZero().And(y.FPIsZero()).And(x.FPIsNegative().Xor(y.FPIsNegative())), x.FPIsNaN().And(y.FPIsNaN()))))

	// Read back: -0 keeps its sign, NaN reads as NaN.
	r, q := c.Const("r", f32), c.Const("q", c.Float64Sort())
	s := wantResult(t, c, Sat, r.Eq(nz), q.FPIsNaN())
	m, _ := s.Model()
	if v, err := m.Float32(r); err != nil || v != 0 || !math.Signbit(float64(v)) {
		t.Errorf("r = %v, %v; want -0", v, err)
	}
	if v, err := m.Float64(q); err != nil || !math.IsNaN(v) {
		t.Errorf("q = %v, %v; want NaN", v, err)
	}
}

func TestFloatOpsMatchGo(t *testing.T) {
	c := newCtx(t)
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() float32 {
		switch rng.IntN(8) {
		case 0:
			return math.Float32frombits(rng.Uint32()) // anything, NaN and subnormals included
		case 1:
			return float32(rng.IntN(7) - 3)
		}
		return float32(rng.NormFloat64() * 100)
	}
	same := func(a, b float32) bool {
		return math.Float32bits(a) == math.Float32bits(b) || (a != a && b != b)
	}
	for range 300 {
		a, b := pick(), pick()
		x, y := c.Float32(a), c.Float32(b)
		cases := []struct {
			name string
			t    *Term
			want float32
		}{
			{"add", x.FPAdd(RNE, y), a + b},
			{"sub", x.FPSub(RNE, y), a - b},
			{"mul", x.FPMul(RNE, y), a * b},
			{"div", x.FPDiv(RNE, y), a / b},
			{"sqrt", x.FPSqrt(RNE), float32(math.Sqrt(float64(a)))}, // exact: double rounding is innocuous for sqrt
			{"neg", x.FPNeg(), -a},
			{"abs", x.FPAbs(), float32(math.Abs(float64(a)))},
			{"widen-narrow", x.FPToFP(RNE, c.Float64Sort()).FPToFP(RNE, c.Float32Sort()), a},
		}
		for _, tc := range cases {
			got, err := tc.t.Simplify().Float32Value()
			if err != nil {
				t.Fatalf("%s(%v, %v): %v", tc.name, a, b, err)
			}
			if !same(got, tc.want) {
				t.Errorf("%s(%v, %v) = %v (%#x), Go says %v (%#x)", tc.name, a, b, got, math.Float32bits(got), tc.want, math.Float32bits(tc.want))
			}
		}
		// Comparisons agree with Go's.
		for _, cmp := range []struct {
			name string
			t    *Term
			want bool
		}{{"lt", x.FPLt(y), a < b}, {"le", x.FPLe(y), a <= b}, {"gt", x.FPGt(y), a > b}, {"ge", x.FPGe(y), a >= b}, {"eq", x.FPEq(y), a == b}} {
			got, err := cmp.t.Simplify().BoolValue()
			if err != nil || got != cmp.want {
				t.Errorf("%s(%v, %v) = %v, %v; Go says %v", cmp.name, a, b, got, err, cmp.want)
			}
		}
	}
}

func TestFloatConversions(t *testing.T) {
	c := newCtx(t)
	f32, f64 := c.Float32Sort(), c.Float64Sort()
	// Narrowing 0.1 rounds as Go's conversion does.
	n, err := c.Float64(0.1).FPToFP(RNE, f32).Simplify().Float32Value()
	if err != nil || n != float32(0.1) {
		t.Errorf("narrow(0.1) = %v, %v; want %v", n, err, float32(0.1))
	}
	// Reinterpreting bits both ways.
	bits := math.Float32bits(-2.75)
	valid(t, c, c.BV(uint64(bits), 32).BVToFP(f32).Eq(c.Float32(-2.75)))
	valid(t, c, c.Float32(-2.75).FPToIEEEBV().Eq(c.BV(uint64(bits), 32)))
	// Float to integer, rounding toward zero, as Go's conversion.
	valid(t, c, c.Float32(-2.75).FPToSBV(RTZ, 32).Eq(c.BV(0xfffffffe, 32)))
	valid(t, c, c.Float32(2.5).FPToUBV(RNE, 8).Eq(c.BV(2, 8)))
	// Integers to floats: 2^24+1 is not a binary32 value.
	big := c.BV(1<<24+1, 32)
	if v, err := big.SBVToFP(RNE, f32).Simplify().Float32Value(); err != nil || v != float32(1<<24) {
		t.Errorf("float32(2^24+1) = %v, %v", v, err)
	}
	if v, err := c.BV(math.MaxUint64, 64).UBVToFP(RTZ, f64).Simplify().Float64Value(); err != nil || v != math.Nextafter(1<<64, 0) {
		t.Errorf("float64 of 2^64-1 toward zero = %v, %v", v, err)
	}
	// Reals.
	valid(t, c, c.Real(1, 4).RealToFP(RNE, f32).Eq(c.Float32(0.25)))
	valid(t, c, c.Float64(0.5).FPToReal().Eq(c.Real(1, 2)))
	// FMA rounds once: for a = 1+2^-12, a*a - (a*a rounded) is visible.
	a := float32(1 + 1.0/4096)
	p := a * a
	fma := c.Float32(a).FPFMA(RNE, c.Float32(a), c.Float32(-p))
	if v, err := fma.Simplify().Float32Value(); err != nil || v != float32(math.FMA(float64(a), float64(a), float64(-p))) {
		t.Errorf("fma = %v, %v", v, err)
	}
	valid(t, c, c.Float32(2.5).FPRoundToIntegral(RNE).Eq(c.Float32(2)))
	valid(t, c, c.Float32(2.5).FPRoundToIntegral(RNA).Eq(c.Float32(3)))
	valid(t, c, c.Float32(3).FPMin(c.FPNaN(f32)).Eq(c.Float32(3)))
	valid(t, c, c.Float32(3).FPMax(c.Float32(-1)).Eq(c.Float32(3)))
	valid(t, c, c.Float32(5).FPRem(c.Float32(3)).Eq(c.Float32(-1)))
	// Sort inspection.
	if e, s := f64.FloatBits(); e != 11 || s != 53 || f64.Kind() != KindFloat {
		t.Errorf("Float64Sort = (%d, %d), kind %v", e, s, f64.Kind())
	}
}
