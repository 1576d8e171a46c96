package validate

import (
	"path/filepath"
	"testing"
)

// TestRebasedFold: a store whose cell adds two many-piece terms (a
// window's first row, as Halide's delinearised stores at the final stage
// leave it) and subtracts them again is VALID, the equal operands
// cancelling before their pieces are expanded (without that, the
// symbolic evaluation met more than 4,096 disjuncts and was UNKNOWN);
// the rebasing off by one is INVALID, whether the proof or the quick
// test finds it, with a counterexample the interpreter reproduces.
func TestRebasedFold(t *testing.T) {
	dir := filepath.Join("testdata", "rebase")
	spec := filepath.Join(dir, "rebase.sare")
	for _, tc := range []struct {
		kernel  string
		quick   bool
		verdict Verdict
		reason  string
	}{
		{kernel: "fold", verdict: Valid},
		{kernel: "fold_off_by_one", verdict: Invalid, reason: "out-of-bounds write"},
		{kernel: "fold_off_by_one", quick: true, verdict: Invalid, reason: "out-of-bounds write"},
	} {
		name := tc.kernel
		if !tc.quick {
			name += "/no-quick-test"
		}
		t.Run(name, func(t *testing.T) {
			rep := validateFiles(t, spec, filepath.Join(dir, tc.kernel+".sched"), Options{Jobs: 1, NoQuickTest: !tc.quick})
			if rep.Verdict != tc.verdict || rep.Reason != tc.reason {
				t.Fatalf("got %s (%s), want %s (%s)\n%s", rep.Verdict, rep.Reason, tc.verdict, tc.reason, reportText(rep))
			}
			if tc.verdict == Invalid && (rep.Counterexample == nil || !rep.Counterexample.Reproduced) {
				t.Errorf("counterexample %+v, want one reproduced", rep.Counterexample)
			}
		})
	}
}
