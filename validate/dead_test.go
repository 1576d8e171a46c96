package validate

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDeadStores: an annotation false only at stores whose value nothing
// reads (lanes past the data) is undecided, never a failure, whether
// the quick test or the proof meets it; false where the value is read,
// it is a failure.
func TestDeadStores(t *testing.T) {
	dir := filepath.Join("testdata", "dead")
	spec := filepath.Join(dir, "lanes.sare")
	for _, tc := range []struct {
		kernel  string
		quick   bool
		verdict Verdict
		reason  string
	}{
		{kernel: "lanes_dead", quick: true, verdict: Unknown, reason: "dead stores"},
		{kernel: "lanes_dead", verdict: Unknown, reason: "dead stores"},
		{kernel: "lanes_live", quick: true, verdict: Invalid, reason: "annotation mismatch"},
		{kernel: "lanes_live", verdict: Invalid, reason: "annotation mismatch"},
	} {
		name := tc.kernel
		if !tc.quick {
			name += "/no-quick-test"
		}
		t.Run(name, func(t *testing.T) {
			rep := validateFiles(t, spec, filepath.Join(dir, tc.kernel+".sched"), Options{Jobs: 1, NoQuickTest: !tc.quick})
			if rep.Verdict != tc.verdict || !strings.Contains(rep.Reason, tc.reason) {
				t.Fatalf("got %s (%s), want %s (%s)", rep.Verdict, rep.Reason, tc.verdict, tc.reason)
			}
			if tc.verdict == Invalid && (rep.Counterexample == nil || !rep.Counterexample.Reproduced) {
				t.Errorf("counterexample %+v, want one reproduced", rep.Counterexample)
			}
		})
	}
}
