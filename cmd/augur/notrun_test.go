package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/frontend/halide"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/validate"
)

// TestHalideNotRun checks the verdict of an INVALID whose counterexample
// cannot be run on Halide's code (the shape of max_filter's: an index
// i32(i + m + 1) near 2^31, inputs of millions of elements): when its
// extents fail Halide's check halide_error_buffer_extents_too_large, which
// the kernel leaves out, UNKNOWN at that check, without running anything;
// when its inputs are too many to confirm and too many for the
// interpreter's replay, which would tell whether it needs a signed
// overflow, UNKNOWN saying both.
func TestHalideNotRun(t *testing.T) {
	t.Parallel()
	// The translation frontend/halide's tests of the same shape read.
	dir := filepath.Join("..", "..", "frontend", "halide", "testdata", "overflow")
	spec, err := os.ReadFile(filepath.Join(dir, "spec.sare"))
	if err != nil {
		t.Fatal(err)
	}
	kernel, err := os.ReadFile(filepath.Join(dir, "prog.sched"))
	if err != nil {
		t.Fatal(err)
	}
	pair := &halide.Result{Pair: frontend.Pair{Spec: string(spec), Kernels: []frontend.Kernel{{Name: frontend.Prog, Text: string(kernel)}}}}
	cases := []struct {
		params         []validate.Binding
		outcome        validate.NativeOutcome
		cause          validate.NativeCause
		reason, native string
	}{
		{[]validate.Binding{{Name: "n", Value: 1}, {Name: "m", Value: 2147483646},
			{Name: "d_min_0", Value: -2147483648}, {Name: "d_extent_0", Value: 256}, {Name: "d_min_1", Value: -2}, {Name: "d_extent_1", Value: 2147483647}},
			validate.NativeNotReproduced, validate.CauseCheckLeftOut,
			halide.DroppedCheckReason("halide_error_buffer_extents_too_large"),
			"Halide's compiled pipeline stops at its check halide_error_buffer_extents_too_large, which the translation leaves out of the kernel: Product of extents for buffer d is 549755813632, which exceeds the maximum size of 2147483647 (Halide's check computed on the counterexample's extents; the pipeline was not run)"},
		{[]validate.Binding{{Name: "n", Value: 5_000_000}, {Name: "m", Value: 2147483647 - 5_000_000}},
			validate.NativeNotRun, "",
			halide.NotRunReason("the counterexample's inputs have more than 4194304 elements",
				"the reference interpreter's replay (wraps) did not finish: array a[5000000] needs 5000000 cells, more than the 4194304 allowed: budget exhausted"),
			"the counterexample's inputs have more than 4194304 elements"},
	}
	for i, c := range cases {
		rep := &validate.Report{Verdict: validate.Invalid, Reason: "out-of-bounds read",
			Counterexample: &validate.Counterexample{Kind: sched.OutOfBoundsRead, Params: c.params, Seed: 1}}
		confirmOnHalide("/nonexistent/driver", halide.Options{Target: "x86-64-linux"}, pair, "real")(context.Background(), rep)
		if rep.Verdict != validate.Unknown || rep.Reason != c.reason {
			t.Errorf("case %d: %s: %s\nwant unknown: %s", i, rep.Verdict, rep.Reason, c.reason)
		}
		if n := rep.Native; n == nil || n.Outcome != c.outcome || n.Cause != c.cause || n.Reason != c.native {
			t.Errorf("case %d: native %+v\nwant %s, %q: %s", i, rep.Native, c.outcome, c.cause, c.native)
		}
	}
}
