package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/internal/testtier"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// TestQuotient translates testdata/quotient/quotient.cpp, a table read at
// clamp(int32(floor(float32(x) / float32(2 * factor))), 0, w - 1), factor
// an integer computed in float from two extents, as apps/bgu slices its
// grid: the coordinate is a data-dependent index on both sides, computed
// as Halide computes it, and the interpreter's run of the kernel agrees
// with Halide's JIT on two samples.
func TestQuotient(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	d, res := quotientTranslated(ctx, t)
	spec, prog := res.Spec, res.Kernel(frontend.Prog).Text
	for i, sizes := range []map[string][]int{{"output": {23}, "table": {5}}, {"output": {40}, "table": {3}}} {
		jitAgrees(ctx, t, d, Options{}, spec, prog, sizes, uint64(i+1), 1e-5)
	}
}

// TestLongQuotient validates quotient.cpp's kernel, whose data-dependent
// read's bounds Z3 decides over the quotient, a product of unknowns
// (nonlinear), within a bounded budget: the kernel is not INVALID (it is
// UNKNOWN, 8 of its 9 conditions proved, its read's bounds undecided;
// without the kernel's assumption that its parameters are int32, Z3
// finds the read out of bounds where i32(fine_extent_0) wraps), and
// the kernel planted dividing by 2 * factor + 1, or with its quotient one
// more, is INVALID (an annotation mismatch).
func TestLongQuotient(t *testing.T) {
	testtier.Long(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Minute)
	defer cancel()
	_, res := quotientTranslated(ctx, t)
	prog := res.Kernel(frontend.Prog).Text
	// Z3 may spend minutes on the quotient whatever the resource limit:
	// a short wall-clock guard leaves such a query undecided, which
	// neither assertion below depends on.
	opts := validate.Options{ValueModel: encode.Real, Jobs: 1, Resources: 2_000_000, Timeout: 30 * time.Second}
	rep, err := validate.Validate(ctx, res.SpecSource(), res.Kernel(frontend.Prog).Source(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("verdict %s (%s)", rep.Verdict, rep.Reason)
	if rep.Verdict == validate.Invalid {
		t.Fatalf("verdict invalid (%s), want valid or unknown", rep.Reason)
	}
	for _, plant := range []struct{ name, from, to string }{
		{"divided by 2 * factor + 1", quotientDivisor, quotientDivisorPlus1},
		{"quotient one more", quotientIndex, quotientOffByOne},
	} {
		wrong := strings.Replace(prog, plant.from, plant.to, 1)
		if wrong == prog {
			t.Fatalf("%s: no %q in the kernel:\n%s", plant.name, plant.from, prog)
		}
		rep, err := validate.Validate(ctx, res.SpecSource(), &syntax.Source{Name: "wrong.sched", Text: wrong}, opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: verdict %s (%s)", plant.name, rep.Verdict, rep.Reason)
		if rep.Verdict != validate.Invalid {
			t.Errorf("%s: verdict %s, want invalid", plant.name, rep.Verdict)
		}
	}
}

// quotientTranslated builds quotient.cpp's driver and translates it; the
// kernel reads the table at quotientIndex.
func quotientTranslated(ctx context.Context, t *testing.T) (string, *Result) {
	t.Helper()
	d := buildDriver(t, toolchain(t), filepath.Join("testdata", "quotient", "quotient.cpp"))
	res, err := TranslateResult(ctx, d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if prog := res.Kernel(frontend.Prog).Text; !strings.Contains(prog, quotientIndex) {
		t.Fatalf("no %q in the kernel:\n%s", quotientIndex, prog)
	}
	return d, res
}

// The kernel's quotient and its divisor, and each planted wrong.
const (
	quotientIndex        = "i32(floor(f32(i32(output_s0_x)) / "
	quotientOffByOne     = "i32(1) + i32(floor(f32(i32(output_s0_x)) / "
	quotientDivisor      = "/ f32(i32(table_extent_0)))) * i32(2))"
	quotientDivisorPlus1 = "/ f32(i32(table_extent_0)))) * i32(2) + i32(1))"
)
