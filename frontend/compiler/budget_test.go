package compiler

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// TestBoundsFallback compiles scheduled examples with a bounds budget too
// small for any exact extremum: every region comes from interval
// arithmetic, a box at least as large. The kernels run and validate; the
// same kernel with a producer's region cut by one row is invalid.
func TestBoundsFallback(t *testing.T) {
	tiny := Options{BoundsBudget: presburger.Budget{MaxSteps: 1}}
	for _, ex := range []struct {
		name   string
		params map[string]int64
	}{
		{"blur_at", map[string]int64{"W": 5, "H": 7}},
		{"blur_shift", map[string]int64{"W": 9, "H": 6}},
		{"stencils_at", map[string]int64{"N": 11}},
		{"matmul_tiled", map[string]int64{"N": 10, "M": 17, "K": 3}},
	} {
		t.Run(ex.name, func(t *testing.T) {
			r, err := Compile(context.Background(), loadExample(t, ex.name), ex.name, tiny)
			if err != nil {
				t.Fatal(detail(err))
			}
			if err := runKernel(r, ex.params, 1); err != nil {
				t.Fatalf("%v\n%s", err, r.Kernels[0].Text)
			}
			if testing.Short() {
				return
			}
			if rep := validatePair(t, r); rep.Verdict != validate.Valid {
				t.Fatalf("verdict %s, want valid\n%s", rep.Verdict, r.Kernels[0].Text)
			}
		})
	}
	if testing.Short() {
		return
	}
	r, err := Compile(context.Background(), loadExample(t, "blur_at"), "blur_at", tiny)
	if err != nil {
		t.Fatal(detail(err))
	}
	k := r.Kernels[0].Text
	const rows = "for y2 in 4 * yo + yi - 1 .. 4 * yo + yi + 2 {"
	if !strings.Contains(k, rows) {
		t.Fatalf("no %q in\n%s", rows, k)
	}
	bug := *r
	bug.Pair.Kernels = append(bug.Pair.Kernels[:0:0], r.Kernels...)
	bug.Kernels[0].Text = strings.Replace(k, rows, "for y2 in 4 * yo + yi - 1 .. 4 * yo + yi + 1 {", 1)
	if rep := validatePair(t, &bug); rep.Verdict != validate.Invalid {
		t.Errorf("a row short: verdict %s, want invalid\n%s", rep.Verdict, bug.Kernels[0].Text)
	}
}

// TestSmallBudgetCoarse compiles a schedule of the fuzzer whose exact
// input region is beyond a bounds budget of 10,000 steps: the region
// then comes from interval arithmetic, 12 reads whose bounds, min and max
// of min, would make a value of millions of pieces once combined. Each
// read's bounds are put in canonical form first, within the same budget,
// so the fallback stays fast and coarse: the input is read over about
// 2 N cells instead of the N + 3 of the exact region, in 15,060 steps,
// the budget of the exact extrema and the construction of the sets
// included. The kernel runs.
func TestSmallBudgetCoarse(t *testing.T) {
	p := loadExample(t, "stencils")
	src := &syntax.Source{Name: "fuzz-schedule", Text: `S1.split(x, o_1x, i_1h, 2, shift).vectorize(i_1h)
S2.split(x, o_2j, i_2i, 5, guard).unroll(i_2i).specialize(N >= 7)
S1.compute_at(S2, o_2j)
`}
	s, errs := alg.ParseSchedule(src)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	steps := presburger.NewAllowance(0)
	r, err := Compile(presburger.WithAllowance(context.Background(), steps), p, "stencils", Options{Schedule: s, ScheduleSrc: src, BoundsBudget: presburger.Budget{MaxSteps: 10_000}})
	if err != nil {
		t.Fatal(detail(err))
	}
	if n := steps.Used(); n > 16_000 {
		t.Errorf("%d steps of the engine, want at most %d", n, 16_000)
	}
	const region = "in  buf_In[x] : f32[N + 5 * ((N + 3) / 5) - 4 - min(-1, -5 * ((N + 3) / 5) + 9) + 1] = In(x + min(-1, -5 * ((N + 3) / 5) + 9))"
	if k := r.Kernels[0].Text; !strings.Contains(k, region) {
		t.Errorf("no %q in\n%s", region, k)
	}
	for _, n := range []int64{2, 6, 7, 13} {
		if err := runKernel(r, map[string]int64{"N": n}, 1); err != nil {
			t.Errorf("N = %d: %v", n, err)
		}
	}
}

// TestIntervalBoundsTooLarge compiles a schedule whose interval bounds,
// with a budget of 100 steps, cannot be rewritten in canonical form and
// stay large (tens of divisions, nested min and max): beyond the budget,
// an error, as every later step would build sets of them.
func TestIntervalBoundsTooLarge(t *testing.T) {
	p := loadExample(t, "stencils")
	src := &syntax.Source{Name: "fuzz-schedule", Text: `S1.split(x, o_1w, i_1u, 4, shift).vectorize(i_1u).split(i_1u, o_3g, i_3n, 3, guard).specialize(N >= 2)
S1.compute_root().align_bounds(x, 3)
`}
	s, errs := alg.ParseSchedule(src)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	_, err := Compile(context.Background(), p, "stencils", Options{Schedule: s, ScheduleSrc: src, BoundsBudget: presburger.Budget{MaxSteps: 100}})
	const want = "bounds of In in dimension 1: interval bounds of more than 100 operations or 64 pieces, not simplified within the budget"
	if err == nil || !strings.Contains(err.Error(), want+": "+presburger.ErrBudget.Error()) {
		t.Fatalf("error %v, want %s", err, want)
	}
	if _, err := Compile(context.Background(), p, "stencils", Options{Schedule: s, ScheduleSrc: src}); err != nil {
		t.Errorf("default budget: %v", detail(err))
	}
}

// TestBoundedExtentWithinBudget compiles, with a budget of 100 steps, a
// schedule whose vectorised loop has an extent written by interval
// arithmetic: its constant upper bound is sought within the budget too
// (the set of so large an expression would otherwise grow without end,
// its integer divisions by the thousand), and the compilation fails with
// the budget exhausted, in a bounded number of the engine's steps. With
// the default budget it compiles.
func TestBoundedExtentWithinBudget(t *testing.T) {
	p := loadExample(t, "stencils")
	src := &syntax.Source{Name: "fuzz-schedule", Text: `S1.split(x, o_1n, i_1p, 2, round).specialize(N >= 3).parallel(i_1p).vectorize(o_1n)
S2.split(x, o_1y, i_1w, 5, shift).split(i_1w, o_2n, i_2l, 2, shift)
S1.compute_at(S2, i_2l).store_root().fold_storage(x, 6)
`}
	s, errs := alg.ParseSchedule(src)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	steps := presburger.NewAllowance(0)
	_, err := Compile(presburger.WithAllowance(context.Background(), steps), p, "stencils", Options{Schedule: s, ScheduleSrc: src, BoundsBudget: presburger.Budget{MaxSteps: 100}})
	if err == nil || !strings.Contains(err.Error(), presburger.ErrBudget.Error()) {
		t.Fatalf("error %v, want the budget exhausted", err)
	}
	if n := steps.Used(); n > 2_000 {
		t.Errorf("%d steps of the engine, want at most 2,000", n)
	}
	if _, err := Compile(context.Background(), p, "stencils", Options{Schedule: s, ScheduleSrc: src}); err != nil {
		t.Errorf("default budget: %v", detail(err))
	}
}
