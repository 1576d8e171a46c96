package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// TestLookupLevels translates testdata/lut/levels.cpp: a table of 4
// entries per level read at clamp(int32(float32(levels - 1) * 4.0f) +
// in(x) / 64, 0, levels * 4 - 1), which Halide bounds by interval
// arithmetic in float32. The kernel reads those bounds as the integers
// they compute (4 * (levels + -1)) and assumes them exact; the
// interpreter agrees with Halide's JIT on two samples. Planted
// miscompilations of the bounds are INVALID with a counterexample the
// interpreter replays: the table one entry short, and the table realized
// and computed up to a bound read one level short (4 * (levels + -2) + 4,
// as if the float had been misread). The kernel's own verdict is not
// asserted: in the real model the value condition of the read (the
// conversions of float32(levels - 1) * 4.0f) is not decided within ten
// minutes on a loaded machine.
func TestLookupLevels(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("testdata", "lut", "levels.cpp"))
	o := Options{}
	pair := translated(ctx, t, d, o)
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	for _, want := range []string{
		"#   -4194303 <= levels and levels <= 4194305\n",
		"assume -4194303 <= levels and levels <= 4194305\n",
		"let lut_s0_v_max_s = min(4 * levels, 4 * (levels + -1) + 4)\n",
		"buf_lut[max(min(i32(4 * (levels + -1)) + i32(buf_in[",
	} {
		if !strings.Contains(prog, want) {
			t.Errorf("the kernel lacks %q:\n%s", want, prog)
		}
	}
	for i, sizes := range []map[string][]int{{"in": {37}, "out": {37}, "levels": {3}}, {"in": {8}, "out": {8}, "levels": {1}}} {
		jitAgrees(ctx, t, d, o, spec, prog, sizes, uint64(i+1), 0)
	}
	for _, c := range []struct {
		name   string
		r      *strings.Replacer
		reason string
	}{
		{"one entry short", strings.NewReplacer("let lut_v_extent_realized = ", "let lut_v_extent_realized = -1 + ",
			"max(lut_s0_v_min_s, 0) + lut_s0_v_loop_extent {", "max(lut_s0_v_min_s, 0) + lut_s0_v_loop_extent + -1 {"), sched.OutOfBoundsRead.String()},
		{"a level short", strings.NewReplacer("4 * (levels + -1) + 4)", "4 * (levels + -2) + 4)"), sched.OutOfBoundsRead.String()},
	} {
		bad := c.r.Replace(prog)
		if bad == prog {
			t.Fatalf("%s: nothing planted in:\n%s", c.name, prog)
		}
		rep, err := validate.Validate(ctx, pair.SpecSource(), &syntax.Source{Name: "bad.sched", Text: bad},
			validate.Options{ValueModel: encode.Real, Jobs: 1})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != validate.Invalid || rep.Reason != c.reason || rep.Counterexample == nil || !rep.Counterexample.Reproduced {
			t.Errorf("%s: verdict %s (%s), want invalid (%s), replayed", c.name, rep.Verdict, rep.Reason, c.reason)
		}
	}
}
