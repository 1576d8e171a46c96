package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend/halide/fuzz"
)

// TestFuzzHalideNoFalseInvalid runs the cases of
// frontend/halide/fuzz/testdata/nowrong, drawn by augur fuzz-halide and
// once reported INVALID although Halide's JIT computes the algorithm:
// Halide computes there values that fail their annotation or the
// bookkeeping of a reduction (a stale row of a folded sliding window,
// merges of rfactor partial sums never initialised, an empty output)
// into cells no output uses (or read an rfactor'd sum where it was never
// merged, into rounded-up cells no output uses), or a max update
// recomputed over cells it
// already updated (storing the value the cell holds), or a counterexample
// at which Halide's code stops at a storage-folding check that the
// translation leaves out (its fold factor too small, or its folded rows
// accessed out of order; Halide's JIT fails there), or a counterexample
// that needs the kernel's int32 arithmetic to overflow, undefined in
// Halide (a subtraction Halide's simplifier moved into a min), or an
// empty output whose schedule stops Halide's code at a storage-folding
// check over every non-empty output region tried. Each is
// UNKNOWN now, for that reason (the failed values reach no output, the
// check stops Halide's code, or the replay with the kernel's overflow
// unconstrained passes), never INVALID and never VALID; the real miscompilations of
// TestFuzzHalideKnownBugs stay INVALID. A case's line "# expect: R"
// names another reason R it must give, "# expect: valid" the verdict
// VALID: the cases that were INVALID while specifications wrapped on
// int32 overflow, which Halide leaves without a value (its simplifier
// assumes it does not happen).
func TestFuzzHalideNoFalseInvalid(t *testing.T) {
	halideAvailable(t)
	if testing.Short() {
		t.Skip("builds the fuzz driver")
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "frontend", "halide", "fuzz", "testdata", "nowrong", "*.case"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	d := fuzzDriver(t)
	v := fuzzValidator(fuzzHalideFlags{resources: 5_000_000, timeout: 5 * time.Minute, childEnv: []string{"AUGUR_TEST_RUN_MAIN=1"}})
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			c, text := readCase(t, f)
			want := "no evidence of a wrong output"
			for _, line := range strings.Split(text, "\n") {
				if r, ok := strings.CutPrefix(line, "# expect: "); ok {
					want = r
				}
			}
			o, err := fuzz.RunCase(context.Background(), d, v, c)
			if err != nil {
				t.Fatal(err)
			}
			if want == "valid" {
				if o.Verdict != "valid" {
					t.Errorf("got %s (%s), want valid", o.Verdict, o.Reason)
				}
				return
			}
			if o.Verdict != "unknown" || !strings.Contains(o.Reason, want) {
				t.Errorf("got %s (%s), want unknown: %s", o.Verdict, o.Reason, want)
			}
		})
	}
}
