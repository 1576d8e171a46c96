package main

import (
	"context"
	"slices"
	"testing"

	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// TestExamplePairs checks the pairs that augur serve --examples submits:
// those of every directory with a specification, at any depth (the
// reductions), and those the ATL and Rink front ends generate from the
// examples that expect a verdict, each of which loads.
func TestExamplePairs(t *testing.T) {
	pairs, err := examplePairs(context.Background(), "../../examples")
	if err != nil {
		t.Fatal(err)
	}
	byProgram := map[string]examplePair{}
	for _, p := range pairs {
		if _, dup := byProgram[p.ProgramName]; dup {
			t.Errorf("%s twice", p.ProgramName)
		}
		byProgram[p.ProgramName] = p
	}
	for prog, spec := range map[string]string{
		"../../examples/blur/broken_wrong_row.sched":          "../../examples/blur/blur.sare",
		"../../examples/reductions/dot/dot_atomic.sched":      "../../examples/reductions/dot/dot.sare",
		"../../examples/reductions/max/broken_identity.sched": "../../examples/reductions/max/max.sare",
		"../../examples/atl/tensor_add.atl.sched":             "../../examples/atl/tensor_add.atl.sare",
		"../../examples/atl/fibonacci_printed.atl.sched":      "../../examples/atl/fibonacci_printed.atl.sare",
		"../../examples/rink/fig5_trace.rink.ref.sched":       "../../examples/rink/fig5_trace.rink.sare",
		"../../examples/rink/fig5_trace.rink.padded.sched":    "../../examples/rink/fig5_trace.rink.sare",
		"../../examples/rink/fig15_input.rink.ref.sched":      "../../examples/rink/fig15_input.rink.sare",
	} {
		p, ok := byProgram[prog]
		if !ok {
			t.Errorf("%s is not among the examples", prog)
			continue
		}
		if p.SpecName != spec {
			t.Errorf("%s: specification %s, want %s", prog, p.SpecName, spec)
		}
	}
	for _, absent := range []string{
		"../../examples/atl/truncl_bug.atl.sched",           // rejected by the pad type system
		"../../examples/rink/fig15_input.rink.padded.sched", // not in its .expected
	} {
		if _, ok := byProgram[absent]; ok {
			t.Errorf("%s is among the examples", absent)
		}
	}
	for _, p := range pairs {
		if _, errs := validate.Load(&syntax.Source{Name: p.SpecName, Text: p.Spec}, &syntax.Source{Name: p.ProgramName, Text: p.Program}); len(errs) > 0 {
			t.Errorf("%s: %v", p.ProgramName, errs)
		}
	}
	names := make([]string, len(pairs))
	for i, p := range pairs {
		names[i] = p.ProgramName
	}
	t.Logf("%d pairs", len(pairs))
	if !slices.Contains(names, "../../examples/matmul/matmul_tiled.sched") {
		t.Errorf("examples/matmul missing")
	}
}
