package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/internal/testtier"
)

// TestMaxFilter translates apps/max_filter.cpp, Halide's max_filter app
// with its CPU schedule, at radius 3 (3 slices), and checks the
// translation against Halide's JIT. vert_log's update reads the previous
// slice at r.x + clamp(1 << (r.y - 1), 0, 2 * radius), a shift by the
// RVar r.y of constant bounds [1, 2]: a select over its values. vert
// shifts by a clamped lookup, clamp(slice_for_radius(t), 0, slices), a
// data-dependent index. (`augur halide --validate` answers UNKNOWN,
// docs/halide.md; too slow for a test.)
func TestMaxFilter(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("apps", "max_filter.cpp"))
	o := Options{Target: SuiteTarget, Params: map[string]string{"radius": "3"}}
	pair := translated(ctx, t, d, o)
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	for _, w := range []string{
		"vert_log_s0(x, max(min(select(t + -1 == 0, 1, 2), 6), 0) + y, c, t + -1)",
		"select(max(min(slice_for_radius(t), i32(3)), i32(0)) == i32(0), i32(1) << i32(0),",
	} {
		if !strings.Contains(spec, w) {
			t.Errorf("the specification lacks %q:\n%s", w, spec)
		}
	}
	for i, sizes := range []map[string][]int{
		{"input": {256, 3, 1}, "output": {256, 3, 1}},
		{"input": {259, 2, 2}, "output": {259, 2, 2}},
	} {
		seed := uint64(i + 1)
		smp, err := JIT(ctx, d, o, sizes, seed)
		if err != nil {
			t.Fatal(err)
		}
		res, err := smp.Check(ctx, spec, prog, 0)
		if err != nil {
			t.Fatalf("sample of seed %d (%v): %v", seed, sizes, err)
		}
		if res.HalideCells == 0 || res.KernelCells != int64(res.HalideCells) {
			t.Errorf("sample of seed %d: %d cells from Halide, %d checked in the kernel", seed, res.HalideCells, res.KernelCells)
		}
	}
}

// TestLongMaxFilter validates apps/max_filter at radius 3 in the real
// value model, not INVALID (UNKNOWN: slice_for_radius's floor(log(2t +
// 1) / logf(2)), which Halide computes as a product by the reciprocal,
// differs from the specification's for some values of the uninterpreted
// log): vert_log's slices, the pure definition's and the scan's,
// are one form for its data-dependent reads by the specification's
// equation vert_log_s1(x, y, c, t) = vert_log_s0(x, y, c, t) outside the
// scan.
func TestLongMaxFilter(t *testing.T) {
	testtier.Long(t)
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("apps", "max_filter.cpp"))
	pair := translated(ctx, t, d, Options{Target: SuiteTarget, Params: map[string]string{"radius": "3"}})
	rep, err := validateBounded(ctx, pair, appTestResources)
	if err != nil {
		t.Fatal(err)
	}
	appVerdict(t, rep, "several forms")
}
