package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// TestDivisor translates testdata/divisor/divisor.cpp, a func read at x /
// p and an input at x % p, p an input's extent, the func computed per
// tile of 8: the specification reads at the data-dependent indices
// i32(x) / i32(p) and i32(x) % i32(p), the kernel's loop bounds, realized
// region and reads are the quotients' cases over p in [0, 4], which it
// assumes, with every buffer's coordinates int32; the interpreter's runs
// of both agree with Halide's JIT on samples with p = 3 and p = 2. The
// kernel is VALID, and planted with its func's loop one cell short (an
// undefined read, decided over Presburger sets) or reading at (x + 1) / 3
// where p is 3 (an annotation mismatch) INVALID, replayed.
func TestDivisor(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	d := buildDriver(t, toolchain(t), filepath.Join("testdata", "divisor", "divisor.cpp"))
	res := translated(ctx, t, d, Options{})
	spec, prog := res.Spec, res.Kernel(frontend.Prog).Text
	for _, want := range []string{
		"scaled(i32(x) / i32(group_extent_0)) + group_im(i32(x) % i32(group_extent_0))",
	} {
		if !strings.Contains(spec, want) {
			t.Errorf("no %q in the specification:\n%s", want, spec)
		}
	}
	for _, want := range []string{
		"assume 0 <= group_extent_0 and group_extent_0 <= 4\n",
		"assume output_min_0 + output_extent_0 <= 2147483648\n",
		divisorRead,
		"select(group_extent_0 <= 2, output_s0_x_guarded % 2, ",
	} {
		if !strings.Contains(prog, want) {
			t.Errorf("no %q in the kernel:\n%s", want, prog)
		}
	}
	for i, sizes := range []map[string][]int{{"output": {21}, "group": {3}}, {"output": {16}, "group": {2}}} {
		jitAgrees(ctx, t, d, Options{}, spec, prog, sizes, uint64(i+1), 0)
	}
	// The kernel is valid (its output's annotation, a quotient and a
	// remainder per divisor case, within 5,000,000 units of Z3 all told),
	// and a planted one fails within a small budget.
	opts := validate.Options{ValueModel: encode.Real, Jobs: 1, Resources: 5_000_000, Timeout: time.Minute}
	rep, err := validate.Validate(ctx, res.SpecSource(), res.Kernel(frontend.Prog).Source(), validate.Options{ValueModel: encode.Real, Jobs: 1, Resources: 5_000_000, ConditionResources: 10_000_000, Timeout: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != validate.Valid {
		t.Errorf("verdict %s (%s), want valid", rep.Verdict, rep.Reason)
	}
	for _, plant := range []struct{ name, from, to string }{
		{"loop one short", divisorLoop, divisorLoopShort},
		{"read at (x + 1) / 3", "output_s0_x_guarded / 3, output_s0_x_guarded / 4)))) - scaled_x_min_realized",
			"(output_s0_x_guarded + 1) / 3, output_s0_x_guarded / 4)))) - scaled_x_min_realized"},
	} {
		wrong := strings.Replace(prog, plant.from, plant.to, 1)
		if wrong == prog {
			t.Fatalf("%s: no %q in the kernel:\n%s", plant.name, plant.from, prog)
		}
		rep, err := validate.Validate(ctx, res.SpecSource(), &syntax.Source{Name: "wrong.sched", Text: wrong}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != validate.Invalid || rep.Counterexample == nil || !rep.Counterexample.Reproduced {
			t.Errorf("%s: verdict %s (%s), want invalid, replayed", plant.name, rep.Verdict, rep.Reason)
		}
	}
}

// The kernel's loop over scaled's cells, and planted one short.
const (
	divisorLoop      = "for scaled_s0_x in scaled_s0_x_min_1 .. scaled_s0_x_min_1 + (scaled_s0_x_max_1 - scaled_s0_x_min_1 + 1) {"
	divisorLoopShort = "for scaled_s0_x in scaled_s0_x_min_1 .. scaled_s0_x_min_1 + (scaled_s0_x_max_1 - scaled_s0_x_min_1) {"
)

// The kernel's read of scaled at x / p, as its cases over p.
const divisorRead = "buf_scaled[select(group_extent_0 <= 0, 0, select(group_extent_0 <= 1, output_s0_x_guarded, " +
	"select(group_extent_0 <= 2, output_s0_x_guarded / 2, select(group_extent_0 <= 3, output_s0_x_guarded / 3, " +
	"output_s0_x_guarded / 4)))) - scaled_x_min_realized]"

// TestDSCDivisor translates apps/depthwise_separable_conv.cpp with
// channel_multiplier=0, the app's own run-time multiplier, the depthwise
// filter's extent: its reads at d / depthwise_filter.extent.0 and
// Halide's realized regions and loops of input_bounded over (16 * ro) /
// depthwise_filter.extent.0 translate, the kernel assuming the divisor
// within [0, 4], and the interpreter's runs agree with Halide's JIT on a
// sample with multiplier 2 (with 3, at the suite's sizes, too: about 3 s
// more of CPU).
func TestDSCDivisor(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	d := buildDriver(t, toolchain(t), filepath.Join("apps", "depthwise_separable_conv.cpp"))
	o := Options{Params: map[string]string{"channel_multiplier": "0"}}
	spec, prog := translatePair(t, ctx, d, o)
	if want := "input_bounded(i32(d) / i32(depthwise_filter_extent_0), "; !strings.Contains(spec, want) {
		t.Errorf("no %q in the specification", want)
	}
	if want := "assume 0 <= depthwise_filter_extent_0 and depthwise_filter_extent_0 <= 4\n"; !strings.Contains(prog, want) {
		t.Errorf("no %q in the kernel", want)
	}
	for i, sizes := range []map[string][]int{
		{"input": {32, 9, 6, 1}, "depthwise_filter": {2, 32, 3, 3}, "pointwise_filter": {16, 32}, "bias": {16}, "output": {16, 9, 6, 1}},
	} {
		jitAgrees(ctx, t, d, o, spec, prog, sizes, uint64(i+1), 1e-5)
	}
}
