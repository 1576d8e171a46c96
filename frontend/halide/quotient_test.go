package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/validate"
)

// TestQuotient translates testdata/quotient/quotient.cpp, a table read at
// clamp(int32(floor(float32(x) / float32(2 * factor))), 0, w - 1), factor
// an integer computed in float from two extents, as apps/bgu slices its
// grid: the coordinate is a data-dependent index on both sides, computed
// as Halide computes it. The interpreter agrees with Halide's JIT, and
// the kernel is VALID in both value models. Planted: the kernel dividing
// by 2 * factor + 1, and its quotient off by one, are INVALID, each a
// counterexample the interpreter replays.
func TestQuotient(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("testdata", "quotient", "quotient.cpp"))
	res, err := TranslateResult(ctx, d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	spec, prog := res.Spec, res.Kernel(frontend.Prog).Text
	if !strings.Contains(prog, quotientIndex) {
		t.Fatalf("no %q in the kernel:\n%s", quotientIndex, prog)
	}
	for i, sizes := range []map[string][]int{{"output": {23}, "table": {5}}, {"output": {40}, "table": {3}}} {
		jitAgrees(ctx, t, d, Options{}, spec, prog, sizes, uint64(i+1), 1e-5)
	}
	for _, model := range []encode.Model{encode.Real, encode.IEEE} {
		rep, err := validatePair(ctx, &res.Pair, model, 1)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != validate.Valid {
			t.Fatalf("%s model: verdict %s (%s), want valid", model, rep.Verdict, rep.Reason)
		}
	}
	for _, plant := range []struct{ name, from, to string }{
		{"divided by 2 * factor + 1", quotientDivisor, quotientDivisorPlus1},
		{"quotient one more", quotientIndex, quotientOffByOne},
	} {
		wrong := strings.Replace(prog, plant.from, plant.to, 1)
		if wrong == prog {
			t.Fatalf("%s: no %q in the kernel:\n%s", plant.name, plant.from, prog)
		}
		wantInvalidReplayed(ctx, t, res.SpecSource(), wrong, plant.name)
	}
}

// The kernel's quotient and its divisor, and each planted wrong.
const (
	quotientIndex        = "i32(floor(f32(i32(output_s0_x)) / "
	quotientOffByOne     = "i32(1) + i32(floor(f32(i32(output_s0_x)) / "
	quotientDivisor      = "/ f32(i32(table_extent_0)))) * i32(2))"
	quotientDivisorPlus1 = "/ f32(i32(table_extent_0)))) * i32(2) + i32(1))"
)
