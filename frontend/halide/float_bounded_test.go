package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
)

// TestFloatBoundedApps translates apps/bilateral_grid.cpp (s_sigma=2),
// whose grid Halide realizes over int32(min(1.0f / r_sigma, 0.0f)) and
// more, bounds computed from the float input r_sigma: each such integer
// is an integer parameter of both sides, listed with its computation in
// the specification's header. The interpreter, the derived parameters
// computed from the sample's r_sigma, agrees with Halide's JIT on two
// samples.
func TestFloatBoundedApps(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("apps", "bilateral_grid.cpp"))
	o := Options{Target: SuiteTarget, Params: map[string]string{"s_sigma": "2"}}
	pair, err := TranslateResult(ctx, d, o)
	if err != nil {
		t.Fatal(err)
	}
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	want := []DerivedParam{
		{"r_sigma_int", "i32(max(f32(1.0) / r_sigma(), f32(0.0)))"},
		{"r_sigma_int_2", "i32(min(f32(1.0) / r_sigma(), f32(0.0)))"},
		{"r_sigma_int_3", "i32(max(f32(1.0) / r_sigma(), f32(0.0)) + f32(0.5))"},
		{"r_sigma_int_4", "i32(min(f32(1.0) / r_sigma(), f32(0.0)) + f32(0.5))"},
	}
	got := pair.Derived
	if len(got) != len(want) {
		t.Fatalf("derived parameters %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("derived parameter %d: %q, want %q", i, got[i], want[i])
		}
	}
	for _, w := range []string{"let blury_s0_z_max_s = r_sigma_int\n", "let blury_s0_z_min = r_sigma_int_2\n"} {
		if !strings.Contains(prog, w) {
			t.Errorf("the kernel lacks %q:\n%s", w, prog)
		}
	}
	for i, sizes := range []map[string][]int{
		{"input": {12, 10}, "bilateral_grid": {12, 10}, "r_sigma": {1}},
		{"input": {17, 9}, "bilateral_grid": {17, 9}},
	} {
		seed := uint64(i + 1)
		smp, err := JIT(ctx, d, o, sizes, seed)
		if err != nil {
			t.Fatal(err)
		}
		res, err := smp.Check(ctx, spec, prog, 1e-5)
		if err != nil {
			t.Fatalf("sample of seed %d (%v): %v", seed, sizes, err)
		}
		if res.HalideCells == 0 || res.KernelCells != int64(res.HalideCells) {
			t.Errorf("sample of seed %d: %d cells from Halide, %d checked in the kernel", seed, res.HalideCells, res.KernelCells)
		}
	}
}
