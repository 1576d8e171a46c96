package halide

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// fastInverseTolerance bounds the distance of Halide's reciprocal
// estimates (rcpps, rsqrtps: a relative error of at most 1.5 * 2^-12)
// from the interpreter's exact reciprocals, for the values computed
// through them, as value.Close measures it.
const fastInverseTolerance = 1.0 / 1024

// TestFastInverseJIT translates testdata/float/fast_inverse.cpp, whose
// output calls Halide's fast_inverse_f32 and fast_inverse_sqrt_f32: both
// sides call the formats' fast_inverse and fast_inverse_sqrt, the
// interpreter agrees with Halide's JIT up to the estimates' error
// (fastInverseTolerance), and the pair is VALID in both value models.
// Planted: the kernel's fast_inverse applied to b * b + 2 instead of
// b * b + 1 is not VALID: UNKNOWN in the real model (its store's
// annotation undecided: the difference depends on the uninterpreted
// function), INVALID in the IEEE model, a
// counterexample the interpreter replays.
func TestFastInverseJIT(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("testdata", "float", "fast_inverse.cpp"))
	o := Options{Target: SuiteTarget}
	res, err := TranslateResult(ctx, d, o)
	if err != nil {
		t.Fatal(err)
	}
	spec, prog := res.Spec, res.Kernel(frontend.Prog).Text
	for _, w := range []string{"fast_inverse(", "fast_inverse_sqrt("} {
		if !strings.Contains(spec, w) || !strings.Contains(prog, w) {
			t.Errorf("a side lacks %q:\n%s\n%s", w, spec, prog)
		}
	}
	for i, n := range []int{16, 29} {
		seed := uint64(i + 1)
		jitAgrees(ctx, t, d, o, spec, prog, map[string][]int{"output": {n}}, seed, fastInverseTolerance)
	}
	for _, m := range []encode.Model{encode.Real, encode.IEEE} {
		wantVerdict(ctx, t, &res.Pair, m, 1, validate.Valid, "fast_inverse")
	}
	const from, to = "+ f32(1.0)) * buf_a", "+ f32(2.0)) * buf_a"
	if strings.Count(prog, from) != 1 {
		t.Fatalf("the kernel has not one %q:\n%s", from, prog)
	}
	wrong := &syntax.Source{Name: "wrong.sched", Text: strings.Replace(prog, from, to, 1)}
	planted := fmt.Sprintf("(annotation mismatch, wrong.sched:%d:", strings.Count(wrong.Text[:strings.Index(wrong.Text, to)], "\n")+1)
	for _, m := range []encode.Model{encode.Real, encode.IEEE} {
		rep, err := validate.Validate(ctx, res.Pair.SpecSource(), wrong, validate.Options{ValueModel: m, Jobs: 1})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case m == encode.Real && (rep.Verdict != validate.Unknown || !strings.Contains(rep.Reason, planted)):
			t.Errorf("planted, model %v: verdict %s (%s), want unknown over the planted store's annotation", m, rep.Verdict, rep.Reason)
		case m == encode.IEEE && (rep.Verdict != validate.Invalid || rep.Counterexample == nil || !rep.Counterexample.Reproduced):
			t.Errorf("planted, model %v: verdict %s (%s), want invalid, replayed", m, rep.Verdict, rep.Reason)
		}
	}
}
