package halide

import (
	"context"
	"testing"

	"github.com/augur-verify/augur/value"
)

// TestDroppedCheck checks which of Halide's run-time errors name a check
// the translation leaves out, and the confirmation each gives: a stop at
// storage folding's checks is CheckLeftOut (the verdict is then UNKNOWN),
// any other error of Halide's on the counterexample's parameters stays a
// suspect translation.
func TestDroppedCheck(t *testing.T) {
	t.Parallel()
	cases := []struct {
		msg, check string
		cause      Cause
	}{
		{"Error: The fold factor (2) of dimension y of f2 is too small to store the required region accessed by loop f3.s0.x (8).",
			"halide_error_fold_factor_too_small", CheckLeftOut},
		{"Error: The folded storage dimension y of f2 was accessed out of order by loop f3.s0.y.",
			"halide_error_bad_fold", CheckLeftOut},
		{"Error: Input buffer in0 is accessed at -1, which is before the min (0) in dimension 0",
			"", Translation},
		{"Error: Bounds given for f3 in x (from 0 to 3) do not cover required region (from 0 to 7)",
			"", Translation},
	}
	for _, c := range cases {
		if got := DroppedCheck(c.msg); got != c.check {
			t.Errorf("DroppedCheck(%q) = %q, want %q", c.msg, got, c.check)
		}
		conf := stopped(c.msg)
		if conf.Outcome != NotReproduced || conf.Cause != c.cause || conf.Check != c.check {
			t.Errorf("stopped(%q) = %v, %v, check %q; want not reproduced, %v, check %q", c.msg, conf.Outcome, conf.Cause, conf.Check, c.cause, c.check)
		}
	}
	want := "the counterexample stops Halide's code at its check halide_error_bad_fold, which the translation leaves out; Augur's invalid verdict on the kernel shows no wrong output of Halide's"
	if got := DroppedCheckReason("halide_error_bad_fold"); got != want {
		t.Errorf("DroppedCheckReason = %q, want %q", got, want)
	}
}

// TestNeedsOverflow checks NeedsOverflow on a kernel whose i32 product
// overflows where its specification's value is defined (a / 2 computed
// as (a * 2) / 4, as Halide's simplifier rewrites min(a, b) - b to
// min(a - b, 0)): its counterexample needs the overflow. Wrong kernels
// that fail where nothing overflows too (a / 4, and (a * 2) / 8, of the
// same shape) do not; a right kernel's replay passes, which needs
// nothing.
func TestNeedsOverflow(t *testing.T) {
	const spec = `overflow unconstrained
param N
assume N >= 1
input A(i) : i32
tensor D(i) : i32
D(i) = A(i) / 2
output D
`
	kernel := func(value string) string {
		return `kernel k(N)
assume N >= 1
in  a[i] : i32[N] = A(i)
out d[i] : i32[N] = D(i)
{
  par i < N {
    d[i] {D(i)} := ` + value + `
  }
}
`
	}
	w := Witness{Params: map[string]int64{"N": 16}, Seed: 1}
	cases := []struct {
		value string
		want  bool
	}{
		{"(a[i] * 2) / 4", true},
		{"a[i] / 4", false},
		{"(a[i] * 2) / 8", false},
		{"a[i] / 2", false},
	}
	for _, c := range cases {
		got, err := NeedsOverflow(context.Background(), spec, kernel(c.value), w, value.RealEqual, 0)
		if err != nil || got != c.want {
			t.Errorf("NeedsOverflow(%s) = %v, %v; want %v", c.value, got, err, c.want)
		}
	}
}
