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

// TestLookupTable translates testdata/lut: reads of a func computed at
// root at coordinates that read images (a widened uint8, a clamped
// int32) become data-dependent indices, in the specification and in the
// kernel; the interpreter agrees with Halide's JIT on two samples, the
// kernel is VALID in both value models, and with its table one entry
// short it is INVALID, an out-of-bounds read that the interpreter
// replays.
func TestLookupTable(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("testdata", "lut", "lut.cpp"))
	o := Options{}
	pair := translated(ctx, t, d, o)
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	for _, want := range []string{"lut(i32(in_im(x)))", "lut(max(min(k_im(x), i32(255)), i32(0)))"} {
		if !strings.Contains(spec, want) {
			t.Errorf("the specification lacks %q:\n%s", want, spec)
		}
	}
	if !strings.Contains(prog, "buf_lut[i32(buf_in[") {
		t.Errorf("the kernel lacks the read of buf_lut at a data-dependent index:\n%s", prog)
	}
	for i, sizes := range []map[string][]int{{"in": {37}, "k": {37}, "out": {37}}, {"in": {8}, "k": {8}, "out": {8}}} {
		jitAgrees(ctx, t, d, o, spec, prog, sizes, uint64(i+1), 1e-6)
	}
	for _, model := range []encode.Model{encode.Real, encode.IEEE} {
		wantVerdict(ctx, t, pair, model, 1, validate.Valid, "lut")
	}
	short := strings.NewReplacer("lut_v_extent_realized = 256", "lut_v_extent_realized = 255",
		"lut_s0_v < 256", "lut_s0_v < 255").Replace(prog)
	if short == prog {
		t.Fatalf("no table to shorten in:\n%s", prog)
	}
	rep, err := validate.Validate(ctx, pair.SpecSource(), &syntax.Source{Name: "short.sched", Text: short},
		validate.Options{ValueModel: encode.Real, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != validate.Invalid || rep.Reason != sched.OutOfBoundsRead.String() || !rep.Counterexample.Reproduced {
		t.Errorf("a table one entry short: verdict %s (%s), want invalid (out-of-bounds read), replayed", rep.Verdict, rep.Reason)
	}
}
