package encode

import (
	"math"
	"math/big"
	"testing"
)

// TestLogBoundsHold: the real model's bounds of log (logBounds) hold of
// the natural logarithm at arguments from 2^-4 to 2^40, with their slack
// to spare (ln x + 2^-13 satisfies them too), and at the small integers
// n <= 8 they bound it from above within 2^-12 + 10^-9 (ln n + 2^-11
// violates them) and at 9 within 2^-7, so that 2^floor(log(n) / log(2))
// <= n is provable for n <= 9; lnAbove is above ln n by at most 10^-9.
func TestLogBoundsHold(t *testing.T) {
	for n := 2; n < len(lnAbove); n++ {
		c, ok := new(big.Rat).SetString(lnAbove[n])
		if !ok {
			t.Fatalf("lnAbove[%d] = %q", n, lnAbove[n])
		}
		f, _ := c.Float64()
		if d := f - math.Log(float64(n)); d <= 1e-12 || d > 1e-9 {
			t.Errorf("lnAbove[%d] = %s is ln %d + %g", n, lnAbove[n], n, d)
		}
	}
	z, e, _ := newEncoder(t, Real)
	holds := func(x, r float64) bool {
		b := e.logBounds(z.Rat(new(big.Rat).SetFloat64(x)), z.Rat(new(big.Rat).SetFloat64(r))).Simplify()
		v, err := b.BoolValue()
		if err != nil {
			t.Fatalf("the bounds at %g, %g are not ground: %s", x, r, b)
		}
		return v
	}
	var xs []float64
	for x := 1.0 / 16; x <= 1<<40; x *= 1.37 {
		xs = append(xs, x)
	}
	for n := 1; n <= 20; n++ {
		xs = append(xs, float64(n))
	}
	for _, x := range xs {
		if ln := math.Log(x); !holds(x, ln) || !holds(x, ln+1.0/(1<<13)) || x >= 1 && !holds(x, ln-1.0/(1<<13)) {
			t.Errorf("the bounds of log fail at %g near ln %g = %g", x, x, ln)
		}
	}
	for n := 2; n <= 9; n++ {
		slack := 1.0 / (1 << 11)
		if n == 9 {
			slack = 1.0 / (1 << 7)
		}
		if holds(float64(n), math.Log(float64(n))+slack) {
			t.Errorf("the bounds of log at %d allow ln %d + %g", n, n, slack)
		}
		// floor(log(n) / log(2)) at its largest is floor(log2(n)).
		if k := math.Floor((math.Log(float64(n)) + slack) / 0.693147182464599609375); math.Exp2(k) > float64(n) {
			t.Errorf("at %d the bounds allow floor(log(n) / log(2)) = %g", n, k)
		}
	}
}
