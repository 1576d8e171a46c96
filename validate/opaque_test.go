package validate

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/smt/encode"
)

// TestOpaqueRegion: testdata/opaque/region.sched realizes a temporary
// over a region whose bounds, nests of min, max and division by 2 over
// the parameters (as Halide's through a pyramid's levels), have more
// pieces than a let may: they are kept as symbols with the facts of
// their bounds, and the kernel is VALID. The planted variant reads one
// cell past the region: without testing first, the out-of-bounds read
// is INVALID at the lets' own values, and the interpreter replays it.
func TestOpaqueRegion(t *testing.T) {
	dir := filepath.Join("testdata", "opaque")
	spec := filepath.Join(dir, "region.sare")
	rep := validateFiles(t, spec, filepath.Join(dir, "region.sched"), Options{})
	if rep.Verdict != Valid {
		t.Errorf("region.sched: verdict %s (%s), want valid", rep.Verdict, rep.Reason)
	}
	rep = validateFiles(t, spec, filepath.Join(dir, "region_past_end.sched"), Options{NoQuickTest: true})
	wantReplayed(t, "region_past_end.sched", rep, "out-of-bounds read", "t[5]", "one past t_extent = 5 at N = M = 1")
}

// wantReplayed checks that rep, the report on the planted kernel name,
// is INVALID for reason, its counterexample at cell (where why says)
// and replayed by the interpreter.
func wantReplayed(t *testing.T, name string, rep *Report, reason, cell, why string) {
	t.Helper()
	if rep.Verdict != Invalid || rep.Reason != reason {
		t.Fatalf("%s: verdict %s (%s), want invalid (%s)", name, rep.Verdict, rep.Reason, reason)
	}
	cx := rep.Counterexample
	if cx == nil || !cx.Reproduced {
		t.Fatalf("%s: counterexample %+v not reproduced", name, cx)
	}
	if cx.Cell != cell {
		t.Errorf("%s: cell %s, want %s (%s)", name, cx.Cell, cell, why)
	}
}

// TestOpaqueLoop: testdata/opaque/loop.sched writes a temporary by tiles
// of a loop whose range (x6 - y6 + 3) / 4 reads two lets, clamps nested
// six deep, of few pieces but conditions of many conjunctions, whose
// product passes the limit of disjuncts, as lens_blur's range of its
// pyramid's first level: the evaluation starts again with the two lets
// kept as symbols, and the kernel is VALID. The planted variant is one
// tile short: INVALID at the lets' own values, where the output reads
// cells the loop leaves unwritten, and the interpreter replays it.
func TestOpaqueLoop(t *testing.T) {
	dir := filepath.Join("testdata", "opaque")
	spec := filepath.Join(dir, "loop.sare")
	rep := validateFiles(t, spec, filepath.Join(dir, "loop.sched"), Options{NoQuickTest: true})
	if rep.Verdict != Valid {
		t.Errorf("loop.sched: verdict %s (%s), want valid", rep.Verdict, rep.Reason)
	}
	rep = validateFiles(t, spec, filepath.Join(dir, "loop_short.sched"), Options{NoQuickTest: true})
	wantReplayed(t, "loop_short.sched", rep, "undefined read", "t[0]", "no tile at N = 4, x6 = 4, y6 = 0")
}

// TestOpaqueLoopLet: testdata/opaque/inloop.sched realizes a temporary
// per row of a par loop, over a region whose bounds, nests of min, max
// and division by 2 over the parameters and the row (as Halide's
// realized region of a pyramid's level inside a consumer's loops), have
// more pieces than a let may: the lets inside the loop are kept as
// symbols of the row, with the facts of their bounds, and the kernel is
// VALID in both value models, within a small step budget. Planted: a
// read one cell past the region is INVALID at the lets' values of the
// sampled row, replayed; a read of the input at an offset of t_min
// needs the let's value, and its obligation is undecided, naming the
// let; outputs written under a guard over t_min make the writes of the
// loop's body depend on the let, and the evaluation stops, naming it.
func TestOpaqueLoopLet(t *testing.T) {
	dir := filepath.Join("testdata", "opaque")
	spec := filepath.Join(dir, "inloop.sare")
	const steps = 1_000_000
	for _, vm := range []encode.Model{encode.Real, encode.IEEE} {
		rep := validateFiles(t, spec, filepath.Join(dir, "inloop.sched"), Options{NoQuickTest: true, ValueModel: vm, SymbolicSteps: steps})
		if rep.Verdict != Valid {
			t.Errorf("inloop.sched (%s): verdict %s (%s), want valid", vm, rep.Verdict, rep.Reason)
		}
	}
	rep := validateFiles(t, spec, filepath.Join(dir, "inloop_past_end.sched"), Options{NoQuickTest: true, SymbolicSteps: steps})
	wantReplayed(t, "inloop_past_end.sched", rep, "out-of-bounds read", "t[5]", "one past t_extent = 5 at N = M = 1, row 0")
	rep = validateFiles(t, spec, filepath.Join(dir, "inloop_offset.sched"), Options{NoQuickTest: true, SymbolicSteps: steps})
	const offset = "the value depends on the let t_min, inside a loop, kept as a symbol"
	if rep.Verdict != Unknown || !strings.Contains(rep.Reason, "annotation mismatch") || !strings.Contains(rep.Reason, offset) {
		t.Errorf("inloop_offset.sched: verdict %s (%s), want unknown (an annotation mismatch undecided: %s ...)", rep.Verdict, rep.Reason, offset)
	}
	rep = validateFiles(t, spec, filepath.Join(dir, "inloop_guard.sched"), Options{NoQuickTest: true, SymbolicSteps: steps})
	const guard = "the writes depend on the value of the let t_min, inside a loop, kept as a symbol"
	if rep.Verdict != Unknown || !strings.Contains(rep.Reason, guard) {
		t.Errorf("inloop_guard.sched: verdict %s (%s), want unknown (%s ...)", rep.Verdict, rep.Reason, guard)
	}
}
