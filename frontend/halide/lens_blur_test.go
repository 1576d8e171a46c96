package halide

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/internal/testtier"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/validate"
)

// TestLensBlur translates apps/lens_blur.cpp, Halide's app with its CPU
// schedule: the max filter's RDom spans [-m, m], m =
// int32(max(slices - focus_depth, focus_depth) * blur_radius_scale), an
// integer computed from the float blur_radius_scale, twice as Halide
// computes it (each operand order once): two derived parameters of both
// sides. cost_pyramid_pull[1] fuses z (of extent slices) and c (bounded to
// 2) into one parallel loop, split back into the two loops. random_float
// is Halide's integer hash of its seed and coordinates, then a bit cast to
// a float, exact in the formats, and the renderer reads the sample
// locations it gives (data-dependent indices). Built with strict_float
// (without it Halide rewrites argmin's select(v < m, v, m) into min(v, m),
// which the formats give NaN where the filtered cost is 0 / 0), the
// interpreter's run of the kernel agrees with Halide's JIT, cell for cell,
// on two samples (TestLongLensBlur validates it).
func TestLensBlur(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("apps", "lens_blur.cpp"))
	o := Options{Target: SuiteTarget + "-strict_float"}
	pair, err := TranslateResult(ctx, d, o)
	if err != nil {
		t.Fatal(err)
	}
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	want := []DerivedParam{
		{"blur_radius_scale_int", "i32(f32(i32(max(slices - focus_depth, focus_depth))) * blur_radius_scale())"},
		{"blur_radius_scale_int_2", "i32(blur_radius_scale() * f32(i32(max(slices - focus_depth, focus_depth))))"},
	}
	got := pair.Derived
	if len(got) != len(want) {
		t.Fatalf("derived parameters %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("derived parameter %d: %q, want %q", i, got[i], want[i])
		}
	}
	const split = "# Halide's fused loop f26_s0_v2_v18 split back: f26_s0_v2_v18 = f26_s0_v2_v18_q * (slices) + f26_s0_v2_v18_r"
	if !strings.Contains(prog, split) {
		t.Errorf("the kernel lacks %q", split)
	}
	for i, sizes := range []map[string][]int{
		{"final": {16, 12, 3}, "blur_radius_scale": {1}},
		{"final": {13, 9, 3}, "blur_radius_scale": {1}, "slices": {4}, "focus_depth": {1}, "aperture_samples": {5}},
	} {
		seed := uint64(i + 1)
		smp, err := JIT(ctx, d, o, sizes, seed)
		if err != nil {
			t.Fatal(err)
		}
		res, err := smp.Check(ctx, spec, prog, 1e-5)
		if err != nil {
			t.Fatalf("sample of seed %d (%v): %v", seed, sizes, err)
		}
		if res.HalideCells == 0 || res.KernelCells != int64(res.HalideCells) {
			t.Errorf("sample of seed %d: %d cells from Halide, %d checked in the kernel", seed, res.HalideCells, res.KernelCells)
		}
	}
}

// TestLongLensBlur validates lens_blur with strict_float (TestLensBlur).
// Halide's checks of the inputs' required regions, nests of min, max and
// division through the 8 pyramid levels, are assumed (split at their min
// and max, the clamp to the buffer's end decides them). The realized
// region of the pyramid's first level, f3, a nest of the same kind of
// too many pieces, is kept as symbols (symeval's opaque lets), and so
// are the lets of the bounds of f3's own loop, whose range over their
// pieces has too many disjuncts. The evaluation goes on past that loop,
// into f26's loops, where the realized regions of repeat_edge_2, whose
// translation multiplies their cases through the levels, are kept as
// symbols of the iteration once it passes its cap of steps, and the
// range of repeat_edge_2's loop over the levels' bounds has too many
// disjuncts: the evaluation starts again with the chain of those bounds
// kept as symbols. With the whole budget it stops at repeat_edge_3's
// store (docs/halide.md); the work counts against the step budget,
// bounded here at lensBlurSteps to keep the test's CPU within a minute:
// UNKNOWN, in the translation of a let inside f26's loops, at the budget
// or at the let's own cap of steps where it cannot be kept as a symbol.
func TestLongLensBlur(t *testing.T) {
	testtier.Long(t)
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("apps", "lens_blur.cpp"))
	pair, err := TranslateResult(ctx, d, Options{Target: SuiteTarget + "-strict_float"})
	if err != nil {
		t.Fatal(err)
	}
	const lensBlurSteps = 6_000_000
	rep, err := validate.Validate(ctx, pair.SpecSource(), pair.Kernel(frontend.Prog).Source(),
		validate.Options{ValueModel: encode.Real, Jobs: 1, SymbolicSteps: lensBlurSteps})
	if err != nil {
		t.Fatal(err)
	}
	// The first let of repeat_edge_2's bounds inside f26's loops.
	const first = "let repeat_edge_2_s0_v1_max_1_s = "
	text := pair.Kernel(frontend.Prog).Text
	at := strings.Index(text, first)
	if at < 0 {
		t.Fatalf("no %q in the kernel", first)
	}
	firstLine := strings.Count(text[:at], "\n") + 1
	// At this budget the evaluation ends in the translation of
	// repeat_edge_2_s0_v0_min_1, inside f26's loops: the step budget, or
	// the cap of steps of a let inside a loop that cannot be kept as a
	// symbol; any let from the first of the bounds of repeat_edge_2 on
	// will do.
	budget := fmt.Sprintf("the symbolic evaluation's step budget ran out (%d Presburger steps; --symbolic-steps raises it): symbolic evaluation: kernel lens_blur: ", lensBlurSteps)
	const capped = "symbolic evaluation failed: kernel lens_blur: "
	var line, col int
	var let string
	ok := false
	switch {
	case rep.Verdict != validate.Unknown:
	case strings.HasPrefix(rep.Reason, budget):
		fmt.Sscanf(rep.Reason[len(budget):], "%d:%d: let %s", &line, &col, &let)
		ok = strings.Contains(rep.Reason, ": translation of index expressions: ")
	case strings.HasPrefix(rep.Reason, capped):
		fmt.Sscanf(rep.Reason[len(capped):], "%d:%d: let %s", &line, &col, &let)
		ok = strings.HasSuffix(rep.Reason, ": its translation takes more than 100000 steps")
	}
	if !ok || line < firstLine {
		t.Errorf("verdict %s (%s), want unknown (%sL:C: let ...: translation of index expressions: ..., or %sL:C: let ...: its translation takes more than 100000 steps; L from line %d on, inside f26's loops)", rep.Verdict, rep.Reason, budget, capped, firstLine)
	}
	t.Logf("the evaluation stopped at %d:%d, let %s", line, col, strings.TrimSuffix(let, ":"))
}

// TestFuseConstOuter: testdata/fuse/fuse_const_outer.cpp fuses rows, of
// the output's symbolic height, and channels, bounded to 2, into one
// parallel loop of extent height * 2, as lens_blur's cost_pyramid_pull[1]
// does. The loop is split back into par q < 2 { par r < height }, agrees
// with Halide's JIT and is VALID; planted miscompilations of the split
// loops (one row short, one channel short, the row read as the channel)
// are INVALID, their counterexamples replayed.
func TestFuseConstOuter(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("testdata", "fuse", "fuse_const_outer.cpp"))
	o := Options{Target: SuiteTarget}
	pair := translated(ctx, t, d, o)
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	const (
		outer = "par f_s0_y_t_q < 2 {"
		inner = "par f_s0_y_t_r < out_extent_1 {"
		value = "* i32(2) + i32(f_s0_y_t_q)"
	)
	for _, w := range []string{"# Halide's fused loop f_s0_y_t split back: f_s0_y_t = f_s0_y_t_q * (out_extent_1) + f_s0_y_t_r", outer, inner, value} {
		if !strings.Contains(prog, w) {
			t.Fatalf("the kernel lacks %q:\n%s", w, prog)
		}
	}
	jitAgrees(ctx, t, d, o, spec, prog, map[string][]int{"out": {5, 3, 2}}, 1, 0)
	rep, err := validatePair(ctx, pair, encode.Real, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != validate.Valid {
		t.Errorf("verdict %s (%s), want valid", rep.Verdict, rep.Reason)
	}
	for _, c := range []struct{ what, old, new string }{
		{"one row short", inner, "par f_s0_y_t_r < out_extent_1 - 1 {"},
		{"one channel short", outer, "par f_s0_y_t_q < 1 {"},
		{"the row read as the channel", value, "* i32(2) + i32(f_s0_y_t_r)"},
	} {
		wantInvalidReplayed(ctx, t, pair.SpecSource(), strings.Replace(prog, c.old, c.new, 1), c.what)
	}
}
