package validate

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/internal/testtier"
)

// TestGarbageWrites validates the round-up tails of testdata/garbage
// (Clément 2022, section 9.9): garbage that never reaches an output is
// valid; garbage that reaches one, or conflicts with a value, is invalid
// where it starts, an undefined read whose detail says where it ends;
// without garbage writes the tails are undefined reads.
func TestGarbageWrites(t *testing.T) {
	dir := filepath.Join("testdata", "garbage")
	spec := filepath.Join(dir, "tail.sare")
	for _, tc := range []struct {
		kernel    string
		noGarbage bool
		verdict   Verdict
		reason    string
		detail    string
	}{
		{kernel: "tail_valid", verdict: Valid},
		{kernel: "tail_chain", verdict: Valid},
		{kernel: "tail_widen", verdict: Valid},
		{kernel: "tail_chain_grow", verdict: Valid},
		{kernel: "tail_chain_grow_leak", verdict: Invalid, reason: "undefined read", detail: "would reach out cells"},
		{kernel: "tail_leak", verdict: Invalid, reason: "undefined read", detail: "would reach out cells"},
		{kernel: "tail_widen_leak", verdict: Invalid, reason: "undefined read", detail: "may reach out cells"},
		{kernel: "tail_conflict", verdict: Invalid, reason: "undefined read", detail: "another iteration of the par loop"},
		{kernel: "tail_valid", noGarbage: true, verdict: Invalid, reason: "undefined read"},
	} {
		name := tc.kernel
		if tc.noGarbage {
			name += "/no-garbage-writes"
		}
		t.Run(name, func(t *testing.T) {
			rep := validateFiles(t, spec, filepath.Join(dir, tc.kernel+".sched"), Options{Jobs: 1, NoGarbageWrites: tc.noGarbage})
			if rep.Verdict != tc.verdict || (tc.reason != "" && rep.Reason != tc.reason) {
				t.Fatalf("got %s (%s), want %s (%s)", rep.Verdict, rep.Reason, tc.verdict, tc.reason)
			}
			if tc.detail != "" && (rep.Counterexample == nil || !strings.Contains(rep.Counterexample.Detail, tc.detail)) {
				t.Errorf("counterexample %+v, want its detail to mention %q", rep.Counterexample, tc.detail)
			}
		})
	}
}

// TestGarbageCounterexamplePath: when the undefined value of a garbage
// write reaches an output, the counterexample points at the read where
// that garbage starts, not at the first undefined read in program order,
// whose garbage may be harmless (testdata/corpus/pipeline_round_up_*).
// The replay runs with garbage writes and shows the path.
func TestGarbageCounterexamplePath(t *testing.T) {
	dir := filepath.Join("..", "testdata", "corpus")
	for _, tc := range []struct {
		kernel string
		line   int
		cell   string
	}{
		// The producer's tile reads s[N + 2], never written.
		{"pipeline_round_up_leak", 21, "s[3]"},
		// The producer's tile reads unwritten cells of s first, but
		// harmlessly; the consumer reads d[N + 1], never written.
		{"pipeline_round_up_short_copy", 31, "d[2]"},
	} {
		t.Run(tc.kernel, func(t *testing.T) {
			rep := validateFiles(t, filepath.Join(dir, "pipeline.sare"), filepath.Join(dir, tc.kernel+".sched"), Options{Jobs: 1})
			if rep.Verdict != Invalid || rep.Reason != "undefined read" {
				t.Fatalf("got %s (%s), want invalid (undefined read)", rep.Verdict, rep.Reason)
			}
			cx := rep.Counterexample
			if cx.Line != tc.line || cx.Cell != tc.cell || !cx.Reproduced {
				t.Errorf("counterexample at line %d, cell %s (reproduced %v), want line %d, cell %s, reproduced", cx.Line, cx.Cell, cx.Reproduced, tc.line, tc.cell)
			}
			if !strings.HasPrefix(cx.Command, "augur run --garbage-writes ") || !strings.Contains(cx.Replay, "holds the undefined value ⊥ of garbage writes") {
				t.Errorf("replay %q, command %q: want a run with garbage writes that shows ⊥ in an output", cx.Replay, cx.Command)
			}
		})
	}
}

// TestSymbolicSteps checks the step budget of the symbolic evaluation
// (Options.SymbolicSteps): the report gives the steps the evaluation took,
// and with fewer the verdict is UNKNOWN, the reason naming the budget
// that ran out, never a verdict on an evaluation cut short.
func TestSymbolicSteps(t *testing.T) {
	dir := filepath.Join("testdata", "garbage")
	spec := filepath.Join(dir, "tail.sare")
	for _, kernel := range []string{"tail_chain", "tail_leak"} {
		t.Run(kernel, func(t *testing.T) {
			prog := filepath.Join(dir, kernel+".sched")
			full := validateFiles(t, spec, prog, Options{Jobs: 1, NoQuickTest: true})
			if full.Verdict == Unknown || full.SymbolicSteps == 0 {
				t.Fatalf("unbounded: %s (%s), %d steps", full.Verdict, full.Reason, full.SymbolicSteps)
			}
			rep := validateFiles(t, spec, prog, Options{Jobs: 1, NoQuickTest: true, SymbolicSteps: full.SymbolicSteps / 2})
			if rep.Verdict != Unknown || !strings.Contains(rep.Reason, "step budget ran out") || !strings.Contains(rep.Reason, "--symbolic-steps") {
				t.Fatalf("within half its %d steps: %s (%s), want unknown for the step budget", full.SymbolicSteps, rep.Verdict, rep.Reason)
			}
		})
	}
}

// TestInterpolateStepBudget validates Halide's interpolate with 3 levels
// (the suite's interpolate3, as augur halide translates it: the pyramid
// whose levels compute garbage from garbage) within a step budget far
// below what its symbolic evaluation takes: the verdict is UNKNOWN, its
// reason naming the budget, and the evaluation stops at the step that
// exceeds it, wherever that step falls (the garbage writes' fixpoint, the
// undefined reads of its rounds, the prophetic evaluation of its heaps).
func TestInterpolateStepBudget(t *testing.T) {
	dir := filepath.Join("..", "symeval", "testdata", "halide")
	const steps = 300_000
	rep := validateFiles(t, filepath.Join(dir, "interpolate3.sare"), filepath.Join(dir, "interpolate3.sched"), Options{Jobs: 1, NoQuickTest: true, SymbolicSteps: steps})
	want := fmt.Sprintf("the symbolic evaluation's step budget ran out (%d Presburger steps; --symbolic-steps raises it): ", steps)
	if rep.Verdict != Unknown || !strings.HasPrefix(rep.Reason, want) || !strings.Contains(rep.Reason, fmt.Sprintf("(%d used)", steps+1)) {
		t.Fatalf("interpolate3 within %d steps: %s (%s), want unknown: %s... (%d used)", steps, rep.Verdict, rep.Reason, want, steps+1)
	}
}

// TestLongSgemvGarbageWrites validates Halide's sgemv (the suite's
// pipeline, as augur halide translates it before flattening), whose lane
// sums run past the rows in a main loop, a reduction unrolled into four
// statements a step, and a tail loop: the garbage writes reach their
// fixpoint in round 10 (the main loop's statements widened along the
// reduction as their cycle grows, the tail's along its own loop, not
// across its lanes), and the kernel is VALID, as Halide's JIT agrees.
func TestLongSgemvGarbageWrites(t *testing.T) {
	testtier.Long(t)
	dir := filepath.Join("..", "symeval", "testdata", "halide")
	rep := validateFiles(t, filepath.Join(dir, "sgemv.sare"), filepath.Join(dir, "sgemv.sched"), Options{Jobs: 1, NoQuickTest: true})
	if rep.Verdict != Valid {
		t.Fatalf("sgemv: %s (%s), want valid", rep.Verdict, rep.Reason)
	}
}
