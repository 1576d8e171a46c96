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

// TestComputeWithAlign translates testdata/fuse/compute_with_align.cpp:
// g compute_with f, their loops aligned at their starts, so that Halide
// runs g two behind the fused loop's variable. g's store is annotated at
// its own coordinate, the fused variable minus 2; the interpreter agrees
// with Halide's JIT, the kernel is VALID, and annotated at the fused
// variable itself (the alignment's shift left out) it is INVALID, replayed.
func TestComputeWithAlign(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("testdata", "fuse", "compute_with_align.cpp"))
	o := Options{Target: SuiteTarget}
	pair := translated(ctx, t, d, o)
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	const shifted = "{g(f_s0_fused_x + -2)}"
	if !strings.Contains(prog, shifted) {
		t.Fatalf("g's store is not annotated at %s:\n%s", shifted, prog)
	}
	for i, sizes := range []map[string][]int{{"out": {8}}, {"out": {3}}} {
		jitAgrees(ctx, t, d, o, spec, prog, sizes, uint64(i+1), 0)
	}
	for _, m := range []encode.Model{encode.Real, encode.IEEE} {
		wantVerdict(ctx, t, pair, m, 2, validate.Valid, "compute_with_align")
		checkPlant(ctx, t, spec, prog, [2]string{shifted, "{g(f_s0_fused_x)}"}, m)
	}
}
