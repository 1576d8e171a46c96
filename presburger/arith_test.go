package presburger

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
)

func bigFloorDiv(a, b *big.Int) *big.Int {
	q, m := new(big.Int), new(big.Int)
	q.DivMod(a, b, m)
	if b.Sign() < 0 && m.Sign() != 0 {
		q.Sub(q, big.NewInt(1))
	}
	return q
}

func TestIntAgainstBig(t *testing.T) {
	edge := []int64{0, 1, -1, 2, -2, 3, 7, -7, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1,
		math.MinInt64 + 1, math.MaxInt32, math.MinInt32, 1 << 32, -(1 << 32), 3037000499, 3037000500, -3037000500}
	r := rand.New(rand.NewSource(2))
	vals := []Int{}
	for _, e := range edge {
		vals = append(vals, NewInt(e))
	}
	huge := new(big.Int).Lsh(big.NewInt(1), 70)
	vals = append(vals, NewIntFromBig(huge), NewIntFromBig(new(big.Int).Neg(huge)))
	for i := 0; i < 200; i++ {
		vals = append(vals, NewInt(r.Int63()-r.Int63()), NewInt(int64(r.Intn(100)-50)))
	}
	check := func(op string, got Int, want *big.Int) {
		t.Helper()
		if got.Big().Cmp(want) != 0 {
			t.Fatalf("%s = %v, want %v", op, got, want)
		}
		if _, ok := got.Int64(); ok != want.IsInt64() {
			t.Fatalf("%s: Int64 fit = %v, want %v", op, ok, want.IsInt64())
		}
	}
	for _, x := range vals {
		xb := x.Big()
		check("neg", x.Neg(), new(big.Int).Neg(xb))
		check("abs", x.Abs(), new(big.Int).Abs(xb))
		for _, y := range vals {
			yb := y.Big()
			check("add", x.Add(y), new(big.Int).Add(xb, yb))
			check("sub", x.Sub(y), new(big.Int).Sub(xb, yb))
			check("mul", x.Mul(y), new(big.Int).Mul(xb, yb))
			if x.Cmp(y) != xb.Cmp(yb) {
				t.Fatalf("cmp %v %v", x, y)
			}
			check("gcd", Gcd(x, y), new(big.Int).GCD(nil, nil, new(big.Int).Abs(xb), new(big.Int).Abs(yb)))
			if y.IsZero() {
				continue
			}
			fd := bigFloorDiv(xb, yb)
			check("floordiv", x.FloorDiv(y), fd)
			cd := new(big.Int).Neg(bigFloorDiv(new(big.Int).Neg(xb), yb))
			check("ceildiv", x.CeilDiv(y), cd)
			m := new(big.Int).Mod(xb, new(big.Int).Abs(yb))
			check("mod", x.Mod(y), m)
		}
	}
	if got := Lcm(NewInt(4), NewInt(-6)); !got.Equal(NewInt(12)) {
		t.Fatalf("lcm = %v", got)
	}
	if s := NewInt(math.MinInt64).Neg().String(); s != "9223372036854775808" {
		t.Fatalf("neg minint = %s", s)
	}
}
