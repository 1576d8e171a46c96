package halide

import "testing"

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
