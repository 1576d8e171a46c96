package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/internal/testtier"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/validate"
)

// TestHistogram translates testdata/hist: a histogram's update writes
// at a data-dependent index (Clément 2022, section 9.6.3), its tensor
// selects between the update's value and the previous one at each bin.
// The interpreter agrees with Halide's JIT on two samples, the kernel is
// VALID in both value models, and planted miscompilations are INVALID
// with a counterexample the interpreter replays: the histogram one bin
// short, its bins' clamp one short.
func TestHistogram(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("testdata", "hist", "hist.cpp"))
	o := Options{}
	pair := translated(ctx, t, d, o)
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	for _, want := range []string{
		"hist_s1(x, r_x) = select(i32(x) == max(min(i32(in_im(r_x)) / i32(8), i32(15)), i32(0)), hist_s1(x, r_x - 1) + i32(1), hist_s1(x, r_x - 1)) where 0 <= r_x < in_extent_0",
	} {
		if !strings.Contains(spec, want) {
			t.Errorf("the specification lacks %q:\n%s", want, spec)
		}
	}
	if !strings.Contains(prog, "buf_hist[max(min(i32(buf_in[hist_s1_r_x - in_min_0]) / i32(8), i32(15)), i32(0)) - i32(hist_x_min_realized)] {hist_s1(max(min(i32(in_im(hist_s1_r_x)) / i32(8), i32(15)), i32(0)), hist_s1_r_x)} := ") {
		t.Errorf("the kernel lacks the histogram's write at a data-dependent index:\n%s", prog)
	}
	for i, sizes := range []map[string][]int{{"in": {97}, "out": {20}}, {"in": {5}, "out": {16}}} {
		jitAgrees(ctx, t, d, o, spec, prog, sizes, uint64(i+1), 0)
	}
	for _, model := range []encode.Model{encode.Real, encode.IEEE} {
		wantVerdict(ctx, t, pair, model, 1, validate.Valid, "hist")
	}
	for _, c := range []struct {
		name string
		r    *strings.Replacer
	}{
		{"one bin short", strings.NewReplacer("hist_x_extent_realized = 16", "hist_x_extent_realized = 15", "hist_s0_x < 16", "hist_s0_x < 15")},
		{"clamp one short", strings.NewReplacer("i32(8), i32(15)), i32(0)) - i32(hist_x_min_realized)]", "i32(8), i32(14)), i32(0)) - i32(hist_x_min_realized)]")},
	} {
		bad := c.r.Replace(prog)
		if bad == prog {
			t.Fatalf("%s: nothing planted in:\n%s", c.name, prog)
		}
		rep := wantInvalidReplayed(ctx, t, pair.SpecSource(), bad, c.name)
		t.Logf("%s: %s (%s)", c.name, rep.Verdict, rep.Reason)
	}
}

// TestHistApp translates apps/hist, Halide's hist app with its CPU
// schedule: the histogram of each row written at the luma's bin, their
// sum, its cumulative sum read at each pixel's luma. The interpreter
// agrees with Halide's JIT on two samples.
func TestHistApp(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("apps", "hist.cpp"))
	o := Options{Target: SuiteTarget}
	pair := translated(ctx, t, d, o)
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	if !strings.Contains(prog, "{hist_rows_s1(i32(max(min(luma_clone_in_hist_rows_0(hist_rows_s1_rx_x, hist_rows_s1_y), f32(255.0)), f32(0.0))), hist_rows_s1_y, hist_rows_s1_rx_x)} := ") {
		t.Errorf("the kernel lacks the histogram's write at a data-dependent index:\n%s", prog)
	}
	for i, sizes := range []map[string][]int{{"input": {19, 9, 3}, "output": {19, 9, 3}}, {"input": {16, 8, 3}, "output": {16, 8, 3}}} {
		jitAgrees(ctx, t, d, o, spec, prog, sizes, uint64(i+1), 0)
	}
}

// TestLongHistApp validates apps/hist in the real value model. First,
// one query per value condition: not INVALID, and the bounds of the
// data-dependent reads of the per-row histograms proved (they come from
// the luma's float clamp: an integer conversion of max(min(luma, 255),
// 0) is in [0, 255]); the rows of a slab, updated one after the other in
// each column, are read in their own row, where one form holds; and the
// cumulative sum's first entry, the pure definition's, is the scan's too
// by the specification's equation cdf_s1(x) = cdf_s0(x). Then with the
// default budgets: VALID, the row histograms' update proved once the
// bin's test, i64(d) == i64(i32(bin)) in the kernel against i32(d) ==
// i32(bin) in the specification, is linear integer arithmetic, and the
// output's value by matching, after a quick look at a model that unfolds
// at most a few thousand accesses (the cumulative sum at a pixel's bin
// unfolded to the inputs took 25 s of CPU in its two looks).
func TestLongHistApp(t *testing.T) {
	testtier.Long(t)
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("apps", "hist.cpp"))
	pair := translated(ctx, t, d, Options{Target: SuiteTarget})
	rep, err := validateBounded(ctx, pair, appTestResources)
	if err != nil {
		t.Fatal(err)
	}
	appVerdict(t, rep, "several forms")
	for _, c := range rep.Conditions {
		if c.Kind == sched.OutOfBoundsRead && c.Status != validate.Proved {
			t.Errorf("C%d, the bounds of a read, is %s: %s", c.ID, c.Status, c.Reason)
		}
	}

	rep, err = validate.Validate(ctx, pair.SpecSource(), pair.Kernel(frontend.Prog).Source(),
		validate.Options{ValueModel: encode.Real, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	appVerdict(t, rep)
	if rep.Verdict != validate.Valid || rep.TimeBound {
		t.Errorf("verdict %s (time bound: %v), want VALID: %s", rep.Verdict, rep.TimeBound, rep.Reason)
	}
}

// appTestResources bounds each solver query of the apps' long tests
// (hist, max_filter), and appConditionResources all the queries of one
// condition together (validate.Options.ConditionResources): one unit, so
// that each value condition makes one query, cut off at once. Z3 does not
// decide their value conditions within the default bounds either, and
// the strategies that unfold both sides, and the looks at their models,
// cost minutes and gigabytes on max_filter's scan read at data-dependent
// indices. The tests check what the symbolic evaluation and the
// Presburger sets decide, and that no condition fails.
const (
	appTestResources      = 500_000
	appConditionResources = 1
)

// validateBounded validates the kernel of pair in the real value model,
// one condition at a time, each solver query within resources units and
// each condition's within appConditionResources.
func validateBounded(ctx context.Context, pair *frontend.Pair, resources uint64) (*validate.Report, error) {
	return validate.Validate(ctx, pair.SpecSource(), pair.Kernel(frontend.Prog).Source(),
		validate.Options{ValueModel: encode.Real, Jobs: 1, Resources: resources, ConditionResources: appConditionResources})
}

// appVerdict fails the test when rep's verdict is INVALID (Halide's
// apps are taken to be compiled right), and when a condition is left
// unproved for a reason containing one of the texts gone (reasons that
// the validation no longer gives); it logs the verdict and the
// conditions not proved.
func appVerdict(t *testing.T, rep *validate.Report, gone ...string) {
	t.Helper()
	for _, c := range rep.Conditions {
		if c.Status == validate.Proved {
			continue
		}
		t.Logf("C%d %s %s:%d: %s: %s", c.ID, c.Kind, c.File, c.Line, c.Status, c.Reason)
		for _, g := range gone {
			if strings.Contains(c.Reason, g) {
				t.Errorf("C%d is %s for %q: %s", c.ID, c.Status, g, c.Reason)
			}
		}
	}
	t.Logf("verdict %s (%s)", rep.Verdict, rep.Reason)
	if rep.Verdict == validate.Invalid {
		t.Errorf("verdict %s (%s), want valid or unknown", rep.Verdict, rep.Reason)
	}
}
