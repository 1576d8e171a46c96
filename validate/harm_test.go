package validate

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestValuesReachingNoOutput: a stored value that fails its check (an
// annotation, the bookkeeping of a reduction) is evidence only when,
// written as ⊥, it reaches an output (harm.go); otherwise the verdict
// is UNKNOWN with the reason, never INVALID and never VALID. The cases
// reduce false INVALID verdicts of augur fuzz-halide: a sliding window
// recomputing a row over a stale stage before overwriting it, an empty
// output region whose producer still merges partial sums never
// initialised, rounded-up cells computed from a partial sum never
// merged. Their planted neighbours, where the consumer reads the
// wrong value, stay INVALID with a counterexample whose detail gives the
// path of the value to the output.
func TestValuesReachingNoOutput(t *testing.T) {
	dir := filepath.Join("testdata", "dead")
	const noHarm = "counterexample not confirmed: no evidence of a wrong output: "
	for _, tc := range []struct {
		spec, kernel string
		quick        bool
		verdict      Verdict
		reason       string // the verdict's reason starts with it (UNKNOWN: contains it)
		detail       string // the counterexample's detail contains it
	}{
		{spec: "lanes", kernel: "stale_killed", quick: true, verdict: Unknown, reason: "stale_killed.sched:14:7) is undecided: " + noHarm},
		{spec: "lanes", kernel: "stale_killed", verdict: Unknown, reason: "stale_killed.sched:14:7) is undecided: " + noHarm},
		{spec: "lanes", kernel: "stale_read", quick: true, verdict: Invalid, reason: "annotation mismatch", detail: "annotation mismatch: t[0] := "},
		{spec: "lanes", kernel: "stale_read", verdict: Invalid, reason: "annotation mismatch", detail: "annotation mismatch: t[0] := "},
		{spec: "rows", kernel: "rows_empty_merge", verdict: Unknown, reason: "rows_empty_merge.sched:25:9) is undecided: " + noHarm},
		// The smallest point of the undefined read, W = 0, has no output
		// cell: the next one, W = 1, shows the wrong output.
		{spec: "rows", kernel: "rows_merge_read", verdict: Invalid, reason: "undefined read", detail: "p[0] (never written) read at 21:9 (at x=0), ⊥ written into r[0]; r[0] read at 24:9 (at x=0), ⊥ written into g[0]"},
		// The dead-store analysis (dead.go) sets W = 0 apart already.
		{spec: "empty", kernel: "empty_output", verdict: Unknown, reason: "the annotation is not proved at dead stores"},
		{spec: "empty", kernel: "empty_output_read", verdict: Invalid, reason: "annotation mismatch", detail: "the value reaches g[0]"},
		// An undefined read that garbage writes do not take (the value
		// also reads an incomplete partial result): ⊥ in its place
		// reaches no output, or, in the neighbour, the output.
		{spec: "halide_partial", kernel: "halide_partial_unused", verdict: Unknown, reason: "halide_partial_unused.sched:89:21) is undecided: " + noHarm},
		{spec: "halide_partial", kernel: "halide_partial_read", verdict: Invalid, reason: "undefined read", detail: "the value reaches buf_f3[0]: buf_f1[122] (never written) read at 83:21"},
	} {
		name := tc.kernel
		if !tc.quick {
			name += "/no-quick-test"
		}
		t.Run(name, func(t *testing.T) {
			rep := validateFiles(t, filepath.Join(dir, tc.spec+".sare"), filepath.Join(dir, tc.kernel+".sched"), Options{Jobs: 1, NoQuickTest: !tc.quick})
			if rep.Verdict != tc.verdict || !strings.Contains(rep.Reason, tc.reason) {
				t.Fatalf("got %s (%s), want %s (%s)", rep.Verdict, rep.Reason, tc.verdict, tc.reason)
			}
			if tc.verdict != Invalid {
				return
			}
			cx := rep.Counterexample
			if cx == nil || !cx.Reproduced {
				t.Fatalf("counterexample %+v, want one reproduced", cx)
			}
			if !strings.Contains(cx.Detail, tc.detail) {
				t.Errorf("detail %q, want it to contain %q", cx.Detail, tc.detail)
			}
		})
	}
}
