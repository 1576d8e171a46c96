package fuzz

import "testing"

// TestDroppedCheck names the storage-folding checks that the translation
// leaves out from Halide's runtime messages (those of Halide 14's
// runtime/errors.cpp), and nothing else: another runtime error, or a
// crash, keeps an invalid verdict unconfirmed.
func TestDroppedCheck(t *testing.T) {
	for _, tc := range []struct {
		cause, msg, want string
	}{
		{"halide-runtime", "The fold factor (2) of dimension y of f2 is too small to store the required region accessed by loop f3.s0.y (11).", "halide_error_fold_factor_too_small"},
		{"halide-runtime", "The folded storage dimension y of f1 was accessed out of order by loop f2.s0.y.yi2.", "halide_error_bad_fold"},
		{"halide-runtime", "Input buffer in0 is accessed at -1, which is before the min (0) in dimension 0", ""},
		{"crash", "The fold factor (2) of dimension y of f2 is too small to store the required region accessed by loop f3.s0.y (11).", ""},
	} {
		if got := droppedCheck(&Answer{Cause: tc.cause, Msg: tc.msg}); got != tc.want {
			t.Errorf("droppedCheck(%s: %s) = %q, want %q", tc.cause, tc.msg, got, tc.want)
		}
	}
}
