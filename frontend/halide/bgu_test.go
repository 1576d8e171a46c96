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

// TestBGU: apps/bgu.cpp (Halide's apps/bgu, s_sigma a GeneratorParam, 2
// here) translates: its solve's fast_inverse, its per-tile histograms
// (updates at a data-dependent bin of a func packed by channel), and its
// slicing of the fitted grid at int32(floor(float32(y) / float32(2 *
// upsample_factor))), a coordinate computed in float from a variable, a
// data-dependent index of both sides (docs/halide.md, "Quotients computed
// in float"); upsample_factor is computed in float from extents, and
// Halide's bounds of the slices are integers computed from it, derived
// parameters.
func TestBGU(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("apps", "bgu.cpp"))
	res, err := TranslateResult(ctx, d, bguOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Spec, bguSlice) {
		t.Errorf("no %q in the specification", bguSlice)
	}
	var names []string
	for _, p := range res.Derived {
		names = append(names, p.Name)
	}
	if got := strings.Join(names, " "); got != bguDerived {
		t.Errorf("derived parameters %s, want %s", got, bguDerived)
	}
}

// TestLongBGU: the interpreter's run of bgu's kernel agrees with Halide's
// JIT on a sample (upsample_factor 2, one intensity bin), up to a
// relative 1e-3, in the kernel's annotations too: Halide's simplifier
// reassociates the solve's regularization (A(0, 0) + 1e-6 * (N + 1)
// becomes A(0, 0) + N * 1e-6 + 1e-6), exact in reals only, and the 4 x 4
// solve amplifies the roundings (4e-4 at slice(6, 0, 0)).
func TestLongBGU(t *testing.T) {
	testtier.Long(t)
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("apps", "bgu.cpp"))
	res, err := TranslateResult(ctx, d, bguOptions())
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string][]int{"slice": {8, 8, 3}, "slice_loc": {8, 8, 3}, "splat_loc": {4, 4, 3}, "values": {4, 4, 3}, "r_sigma": {1}}
	smp, err := JIT(ctx, d, bguOptions(), sizes, 1)
	if err != nil {
		t.Fatal(err)
	}
	cr, err := smp.CheckRounded(ctx, res.Spec, res.Kernel(frontend.Prog).Text, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	if cr.HalideCells == 0 || cr.KernelCells != int64(cr.HalideCells) {
		t.Errorf("%d cells from Halide, %d checked in the kernel", cr.HalideCells, cr.KernelCells)
	}
}

// bguOptions translates bgu at the suite's target, s_sigma 2.
func bguOptions() Options {
	return Options{Target: SuiteTarget, Params: map[string]string{"s_sigma": "2"}}
}

// bguSlice is the specification's read of the fitted grid at the slice
// y / big_sigma, computed in float; bguDerived the derived parameters.
const (
	bguSlice   = "line(x, i32(floor(f32(i32(y)) / f32(max(i32(ceil(f32(i32(slice_loc_extent_0)) / f32(i32(splat_loc_extent_0)))), i32(ceil(f32(i32(slice_loc_extent_1)) / f32(i32(splat_loc_extent_1))))) * i32(2)))), z, c)"
	bguDerived = "r_sigma_int slice_loc_extent_0_int slice_loc_extent_0_int_2 slice_loc_extent_0_int_3 slice_loc_extent_0_int_4 r_sigma_int_2 r_sigma_int_3 slice_loc_extent_0_int_5 slice_loc_extent_0_int_6"
)
