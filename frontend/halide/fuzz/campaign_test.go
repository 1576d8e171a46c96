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

// TestSizedRegions: the output sizes a confirmation tries past the
// counterexample's are one and two past the schedule's period, the least
// common multiple of its factors (those a specialize holds too), or its
// largest factor past maxPeriod, at the counterexample's mins with the
// inputs widened.
func TestSizedRegions(t *testing.T) {
	r := Region{Mins: []int{-3, 2}, Extents: []int{5, 1}}
	for _, tc := range []struct {
		sched [][]string
		want  []string
	}{
		{nil, []string{"-3 9 2 9 pad 32", "-3 17 2 17 pad 32"}},
		// s5002-573's factors: 4, 3, 4, 2, 2, 8.
		{[][]string{{"vectorize", "f4", "x", "4"}, {"split", "f3", "x", "xo1", "xi2", "3", "shift_inwards"},
			{"split", "f2", "y", "yo3", "yi4", "4", "guard_with_if"}, {"specialize", "f2", "0", "16"},
			{"vectorize", "f1", "x", "2"}, {"split", "f1.1", "x", "xo5", "xi6", "2", "auto"}, {"vectorize", "b0", "y", "8"},
			{"vectorize", "b0", "x"}}, []string{"-3 25 2 25 pad 32", "-3 49 2 49 pad 32"}},
		{[][]string{{"specialize", "f4", "0", "16", "unroll", "x", "5"}, {"fold", "f1", "y", "4"},
			{"tile", "f1", "x", "y", "xo", "yo", "xi", "yi", "2", "3", "auto"}}, []string{"-3 61 2 61 pad 32", "-3 121 2 121 pad 32"}},
		{[][]string{{"split", "f1", "x", "xo", "xi", "7", "auto"}, {"split", "f1", "y", "yo", "yi", "16", "auto"}}, []string{"-3 17 2 17 pad 32", "-3 33 2 33 pad 32"}},
	} {
		c := &Case{}
		for _, d := range tc.sched {
			c.Sched = append(c.Sched, Directive(d))
		}
		got := sizedRegions(c, r)
		if len(got) != len(tc.want) {
			t.Fatalf("%v: %d regions, want %d", tc.sched, len(got), len(tc.want))
		}
		for i := range got {
			if got[i].String() != tc.want[i] {
				t.Errorf("%v: region %d is %q, want %q", tc.sched, i, got[i], tc.want[i])
			}
		}
	}
}
