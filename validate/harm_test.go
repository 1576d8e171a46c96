package validate

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/smt/encode"
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

// TestHarmRunSharedEvaluator: the run that decides whether a failed
// value reaches an output (harmRun) on the evaluator of the replay that
// found the failure, whose elements it does not compute again, ends as
// on a fresh evaluator, failing or passing the same way in as many steps.
func TestHarmRunSharedEvaluator(t *testing.T) {
	dir := filepath.Join("testdata", "dead")
	for _, tc := range [][2]string{{"lanes", "stale_read"}, {"rows", "rows_merge_read"}, {"empty", "empty_output_read"}, {"halide_partial", "halide_partial_read"}} {
		specPath, progPath := filepath.Join(dir, tc[0]+".sare"), filepath.Join(dir, tc[1]+".sched")
		rep := validateFiles(t, specPath, progPath, Options{Jobs: 1, NoQuickTest: true, AllConditions: true})
		var cx *Counterexample
		for _, r := range rep.Conditions {
			if r.Counterexample != nil && r.Counterexample.Reproduced {
				cx = r.Counterexample
			}
		}
		if cx == nil {
			t.Fatalf("%s: no counterexample replayed\n%s", tc[1], reportText(rep))
		}
		in, errs := loadInput(source(t, specPath), source(t, progPath))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		params := map[string]int64{}
		for _, p := range cx.Params {
			params[p.Name] = p.Value
		}
		inputs := sare.RandomInputs(cx.Seed)
		ev, err := sare.NewEvaluator(in.spec, in.sinfo, params, inputs)
		if err != nil {
			t.Fatal(err)
		}
		_, err = sched.Run(context.Background(), in.kernel, in.kinfo, ev, sched.Options{MaxSteps: replaySteps, GarbageWrites: true})
		if _, ok := errors.AsType[*sched.Failure](err); !ok {
			t.Fatalf("%s: the replay at %v does not fail: %v", tc[1], params, err)
		}
		eq := encode.Real.Equality()
		fresh, freshSteps, freshErr := harmRun(context.Background(), in, params, inputs, nil, replaySteps, eq, confirmMaxPoints)
		shared, sharedSteps, sharedErr := harmRun(context.Background(), in, params, inputs, ev, replaySteps, eq, confirmMaxPoints)
		if fmt.Sprint(fresh, freshErr) != fmt.Sprint(shared, sharedErr) || freshSteps != sharedSteps {
			t.Errorf("%s: on the replay's evaluator %v (%v, %d steps), on a fresh one %v (%v, %d steps)",
				tc[1], shared, sharedErr, sharedSteps, fresh, freshErr, freshSteps)
		}
	}
}
