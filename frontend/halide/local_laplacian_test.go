package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
)

// TestLocalLaplacian translates apps/local_laplacian.cpp, Halide's
// local_laplacian app with its CPU schedule, at pyramid_levels=2 with
// strict_float: the remapping table read at the input's intensity (a
// data-dependent index), the processed pyramids read at a data-dependent
// level. Halide bounds those reads by interval arithmetic in float32
// (int32(max(float32(levels + -1), 0.0f))), which the kernel reads as the
// integers computed, assuming them exact (|levels| within 2^16). The
// interpreter agrees with Halide's JIT on two samples, exactly but for
// outputs one apart (CheckTruncated: the output converts a float to
// uint16, and Halide's code may round a fused multiply-add once).
func TestLocalLaplacian(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("apps", "local_laplacian.cpp"))
	o := Options{Target: SuiteTarget + "-strict_float", Params: map[string]string{"pyramid_levels": "2"}}
	pair := translated(ctx, t, d, o)
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	for _, want := range []string{
		"assume -16777215 <= levels and levels <= 16777217\n",
		"let f4_s0_v3_max_s = min(levels + -2, max(levels + -1, 0))\n",
	} {
		if !strings.Contains(prog, want) {
			t.Errorf("the kernel lacks %q:\n%s", want, prog)
		}
	}
	for i, sizes := range []map[string][]int{
		{"input": {16, 64, 3}, "output": {16, 64, 3}, "levels": {3}},
		{"input": {19, 70, 3}, "output": {11, 66, 3}, "levels": {2}},
	} {
		seed := uint64(i + 1)
		smp, err := JIT(ctx, d, o, sizes, seed)
		if err != nil {
			t.Fatal(err)
		}
		res, err := smp.CheckTruncated(ctx, spec, prog, 1e-5)
		if err != nil {
			t.Fatalf("sample of seed %d (%v): %v", seed, sizes, err)
		}
		if res.HalideCells == 0 || res.KernelCells != int64(res.HalideCells) {
			t.Errorf("sample of seed %d: %d cells from Halide, %d checked in the kernel", seed, res.HalideCells, res.KernelCells)
		}
	}
}
