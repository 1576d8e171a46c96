package smt

import (
	"context"
	"math/rand/v2"
	"testing"
)

// TestToBVModularMeetsBVArithmetic checks that converting index sums
// modulo 2^w gives one term for integers equal modulo 2^w: int2bv(x + 1)
// and int2bv(x) + 1, int2bv(3*y - x) and 3*int2bv(y) - int2bv(x).
func TestToBVModularMeetsBVArithmetic(t *testing.T) {
	c := newCtx(t)
	x, y := c.IntConst("x"), c.IntConst("y")
	bx, by := x.ToBV(32), y.ToBV(32)
	for _, tc := range []struct {
		name    string
		got, bv *Term
	}{
		{"x + 1", x.Add(c.Int(1)).ToBVModular(32), bx.BVAdd(c.BV(1, 32))},
		{"3y - x", c.Int(3).Mul(y).Sub(x).ToBVModular(32), c.BV(3, 32).BVMul(by).BVSub(bx)},
		{"-(x + 2^32 + 5)", x.Add(c.Int(1<<32 + 5)).Neg().ToBVModular(32), bx.BVAdd(c.BV(5, 32)).BVNeg()},
		{"x * y", x.Mul(y).ToBVModular(32), bx.BVMul(by)},
		{"ite", x.Le(y).Ite(x.Add(c.Int(-1)), y).ToBVModular(32), x.Le(y).Ite(bx.BVSub(c.BV(1, 32)), by)},
	} {
		if g, w := tc.got.SimplifyArith(), tc.bv.SimplifyArith(); !g.Equal(w) {
			t.Errorf("%s: %s and %s are different terms", tc.name, g, w)
		}
	}
}

// TestToBVModularIsToBV checks that ToBVModular has the value of ToBV on
// terms over random numerals (the conversions are folded, not solved),
// with every operator it distributes over and the ones it keeps whole
// (div, mod).
func TestToBVModularIsToBV(t *testing.T) {
	c := newCtx(t)
	rng := rand.New(rand.NewPCG(5, 6))
	num := func() *Term {
		v := rng.Int64N(1<<40) - 1<<39
		if rng.IntN(3) == 0 {
			v = rng.Int64N(20) - 10
		}
		return c.Int(v)
	}
	for range 200 {
		x, y := num(), num()
		for _, e := range []*Term{
			x.Add(y).Mul(c.Int(-7)).Sub(c.Int(3)),
			x.Div(c.Int(4)).Add(y.Mod(c.Int(3))).Neg(),
			x.Ge(c.Int(0)).Ite(x.Mul(y), y.Sub(x)),
		} {
			for _, w := range []uint{8, 32, 64} {
				got, err := e.ToBVModular(w).Simplify().Uint64Value()
				if err != nil {
					t.Fatal(err)
				}
				want, err := e.ToBV(w).Simplify().Uint64Value()
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Fatalf("%s, width %d: ToBVModular gives %d, ToBV %d", e, w, got, want)
				}
			}
		}
	}
}

// TestModularInt checks that ModularInt inverts ToBVModular: the
// conversion of its integer is the term itself (folded on numerals), and
// terms with other leaves have none.
func TestModularInt(t *testing.T) {
	c := newCtx(t)
	x, y := c.IntConst("x"), c.IntConst("y")
	bx, by := x.ToBV(32), y.ToBV(32)
	for _, b := range []*Term{
		bx,
		bx.BVAdd(c.BV(1, 32)).BVMul(by).BVNeg(),
		x.Le(y).Ite(bx.BVSub(by), c.BV(0xffffffff, 32)),
	} {
		m, ok := b.ModularInt()
		if !ok {
			t.Fatalf("%s: no integer", b)
		}
		if g, w := m.ToBVModular(32).SimplifyArith(), b.SimplifyArith(); !g.Equal(w) {
			t.Errorf("%s: integer %s converts to %s", b, m, g)
		}
	}
	// Extensions and low bits: m converts to b, checked at points where
	// the conversions differ from plain integers (negative, past 2^31,
	// wrapping products).
	s, err := c.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	points := [][2]int64{{0, 0}, {-1, 5}, {1 << 31, -7}, {-(1 << 40) + 3, 1<<33 + 1}, {70000, 70000}}
	for _, b := range []*Term{
		bx.BVSub(by).SignExt(32),
		bx.BVAdd(c.BV(7, 32)).ZeroExt(16),
		bx.BVMul(by).Extract(15, 0).SignExt(48),
	} {
		m, ok := b.ModularInt()
		if !ok {
			t.Fatalf("%s: no integer", b)
		}
		for _, p := range points {
			if err := s.Reset(); err != nil {
				t.Fatal(err)
			}
			if err := s.Assert(x.Eq(c.Int(p[0])), y.Eq(c.Int(p[1])), m.ToBV(b.Sort().BVWidth()).Eq(b).Not()); err != nil {
				t.Fatal(err)
			}
			if r, err := s.Check(context.Background()); err != nil || r != Unsat {
				t.Errorf("%s at x=%d, y=%d: integer %s converts to another value (%v, %v)", b, p[0], p[1], m, r, err)
			}
		}
	}
	for _, b := range []*Term{c.BVConst("b", 32), bx.BVAdd(c.BVConst("b", 32)), bx.BVSDiv(c.BV(2, 32)), x, bx.Extract(20, 4)} {
		if m, ok := b.ModularInt(); ok {
			t.Errorf("%s: integer %s, want none", b, m)
		}
	}
}
