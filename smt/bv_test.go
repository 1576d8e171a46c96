package smt

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestBVOpsMatchGo compares every bit-vector operation on 8-bit numerals,
// folded by Z3, with Go's uint8 and int8 arithmetic.
func TestBVOpsMatchGo(t *testing.T) {
	c := newCtx(t)
	rng := rand.New(rand.NewPCG(3, 4))
	val := func(tm *Term) uint64 {
		t.Helper()
		v, err := tm.Simplify().Uint64Value()
		if err != nil {
			t.Fatalf("%v: %v", tm, err)
		}
		return v
	}
	truth := func(tm *Term) bool {
		t.Helper()
		v, err := tm.Simplify().BoolValue()
		if err != nil {
			t.Fatalf("%v: %v", tm, err)
		}
		return v
	}
	for n := range 400 {
		a, b := uint8(rng.Uint32()), uint8(rng.Uint32())
		if n < 4 {
			b = 0 // division by zero: SMT-LIB's total definitions
		}
		sa, sb := int8(a), int8(b)
		x, y := c.BV(uint64(a), 8), c.BV(uint64(b), 8)
		udiv, urem := uint8(0xff), a
		sdiv, srem, smod := int8(-1), sa, sa
		if b != 0 {
			udiv, urem = a/b, a%b
			sdiv, srem = sa/sb, sa%sb // Go's / and % truncate, like bvsdiv and bvsrem
			smod = srem
			if smod != 0 && (smod < 0) != (sb < 0) {
				smod += sb
			}
		} else if sa < 0 {
			sdiv = 1 // bvsdiv x 0 = -(bvudiv (-x) 0) = 1 for negative x
		}
		sh := b % 10 // shifts by 8 or more clear the value
		shl, lshr, ashr := a<<sh, a>>sh, uint8(sa>>sh)
		for _, tc := range []struct {
			name string
			got  *Term
			want uint8
		}{
			{"add", x.BVAdd(y), a + b},
			{"sub", x.BVSub(y), a - b},
			{"mul", x.BVMul(y), a * b},
			{"neg", x.BVNeg(), -a},
			{"udiv", x.BVUDiv(y), udiv},
			{"urem", x.BVURem(y), urem},
			{"sdiv", x.BVSDiv(y), uint8(sdiv)},
			{"srem", x.BVSRem(y), uint8(srem)},
			{"smod", x.BVSMod(y), uint8(smod)},
			{"shl", x.BVShl(c.BV(uint64(sh), 8)), shl},
			{"lshr", x.BVLShr(c.BV(uint64(sh), 8)), lshr},
			{"ashr", x.BVAShr(c.BV(uint64(sh), 8)), ashr},
			{"and", x.BVAnd(y), a & b},
			{"or", x.BVOr(y), a | b},
			{"xor", x.BVXor(y), a ^ b},
			{"not", x.BVNot(), ^a},
			{"extract", x.Concat(y).Extract(11, 4), uint8((uint16(a)<<8 | uint16(b)) >> 4)},
			{"int roundtrip", x.BVToInt(true).ToBV(8), a},
		} {
			if got := val(tc.got); got != uint64(tc.want) {
				t.Errorf("%s(%d, %d) = %d, Go says %d", tc.name, a, b, got, tc.want)
			}
		}
		if got := val(x.ZeroExt(8)); got != uint64(a) {
			t.Errorf("zext(%d) = %d", a, got)
		}
		if got := val(x.SignExt(8)); got != uint64(uint16(int16(sa))) {
			t.Errorf("sext(%d) = %d", a, got)
		}
		if v, _ := x.BVToInt(true).Simplify().Int64Value(); v != int64(sa) {
			t.Errorf("signed bv2int(%d) = %d", a, v)
		}
		if v, _ := x.BVToInt(false).Simplify().Int64Value(); v != int64(a) {
			t.Errorf("unsigned bv2int(%d) = %d", a, v)
		}
		for _, tc := range []struct {
			name string
			got  *Term
			want bool
		}{
			{"ult", x.BVULt(y), a < b}, {"ule", x.BVULe(y), a <= b},
			{"ugt", x.BVUGt(y), a > b}, {"uge", x.BVUGe(y), a >= b},
			{"slt", x.BVSLt(y), sa < sb}, {"sle", x.BVSLe(y), sa <= sb},
			{"sgt", x.BVSGt(y), sa > sb}, {"sge", x.BVSGe(y), sa >= sb},
		} {
			if got := truth(tc.got); got != tc.want {
				t.Errorf("%s(%d, %d) = %v, Go says %v", tc.name, a, b, got, tc.want)
			}
		}
	}
	// BigBV takes a negative value modulo 2^width.
	if v, err := c.BigBV(big.NewInt(-1), 70).IntValue(); err != nil || v.Cmp(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 70), big.NewInt(1))) != 0 {
		t.Errorf("BigBV(-1, 70) = %v, %v", v, err)
	}
	// The solver agrees with the folding: x*3 = 1 in bv8 has the inverse.
	x := c.BVConst("x", 8)
	s := wantResult(t, c, Sat, x.BVMul(c.BV(3, 8)).Eq(c.BV(1, 8)))
	m, _ := s.Model()
	if v, err := m.Uint64(x); err != nil || uint8(v)*3 != 1 {
		t.Errorf("x*3 = 1: x = %d, %v", v, err)
	}
}

// TestIntRealArithmetic checks SMT-LIB's Euclidean division and the
// conversions between integers and reals.
func TestIntRealArithmetic(t *testing.T) {
	c := newCtx(t)
	for _, tc := range []struct{ a, b, div, mod, rem int64 }{
		{7, 2, 3, 1, 1}, {-7, 2, -4, 1, 1}, {7, -2, -3, 1, -1}, {-7, -2, 4, 1, -1},
	} {
		a, b := c.Int(tc.a), c.Int(tc.b)
		for _, r := range []struct {
			name string
			t    *Term
			want int64
		}{{"div", a.Div(b), tc.div}, {"mod", a.Mod(b), tc.mod}, {"rem", a.Rem(b), tc.rem}} {
			if v, err := r.t.Simplify().Int64Value(); err != nil || v != r.want {
				t.Errorf("%d %s %d = %d, %v; want %d", tc.a, r.name, tc.b, v, err, r.want)
			}
		}
	}
	x := c.IntConst("x")
	valid(t, c, x.Div(c.Int(3)).Mul(c.Int(3)).Add(x.Mod(c.Int(3))).Eq(x))
	valid(t, c, c.Real(-7, 2).ToInt().Eq(c.Int(-4))) // floor
	valid(t, c, c.Real(7, 2).IsInt().Not())
	valid(t, c, x.ToReal().IsInt())
	valid(t, c, c.Real(1, 3).Mul(c.Real(3, 1)).Eq(c.Real(1, 1)))
	valid(t, c, c.Real(1, 2).Div(c.Real(1, 4)).Eq(c.Real(2, 1)))
	valid(t, c, c.Int(2).Power(c.Int(10)).Eq(c.Int(1024)))
	valid(t, c, x.Neg().Neg().Eq(x))
	valid(t, c, c.Add(x, x, x).Eq(c.Mul(c.Int(3), x)))
	valid(t, c, x.Ge(c.Int(0)).Implies(x.ToBV(8).BVToInt(false).Eq(x.Mod(c.Int(256)))))
	r := c.RealConst("r")
	s := wantResult(t, c, Sat, r.Mul(r).Eq(c.Real(2, 1)), r.Gt(c.Real(0, 1)))
	m, _ := s.Model()
	if v, err := m.Rat(r); err == nil {
		t.Errorf("sqrt 2 read as the rational %v", v)
	}
	// Distinct and ite.
	wantResult(t, c, Unsat, c.Distinct(x, c.IntConst("y"), c.IntConst("z")),
		x.Ge(c.Int(0)), x.Le(c.Int(1)),
		c.IntConst("y").Ge(c.Int(0)), c.IntConst("y").Le(c.Int(1)),
		c.IntConst("z").Ge(c.Int(0)), c.IntConst("z").Le(c.Int(1)))
	valid(t, c, x.Gt(c.Int(0)).Ite(x, x.Neg()).Ge(c.Int(0)))
}
