package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
)

// TestCameraPipe translates apps/camera_pipe.cpp, Halide's camera_pipe
// app with its CPU schedule: the tone curve read at a data-dependent
// index (the colour-corrected value, clamped), the raw image prefetched
// (a hint, translated as its body) and the deinterleaved channels folded
// by 4 rows with Halide's dynamic fold checks (dropped: checks only).
// The interpreter's run of the kernel agrees, cell for cell, with Halide's
// JIT on a sample at the app's own parameter estimates (colour temperature
// 3700, gamma 2, contrast 50, sharpening 1, black and white levels 25 and
// 1023; the colour matrices and the raw image random): a sample's default
// floats, drawn in [-1, 1], put the colour temperature near 0, where the
// colour matrix's cast to int16 overflows, undefined.
func TestCameraPipe(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("apps", "camera_pipe.cpp"))
	o := Options{Target: SuiteTarget}
	pair := translated(ctx, t, d, o)
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	for _, want := range []string{
		"tensor curve(v0) : u8",
		"= curve(i32(max(min(",
	} {
		if !strings.Contains(spec, want) {
			t.Errorf("the specification lacks %q:\n%s", want, spec)
		}
	}
	if !strings.Contains(prog, "buf_curve[i32(max(min(buf_") {
		t.Errorf("the kernel lacks the tone curve's lookup:\n%s", prog)
	}
	if strings.Contains(prog, "head") || strings.Contains(prog, "halide_error_bad_fold") {
		t.Errorf("the kernel keeps the fold's counters or checks:\n%s", prog)
	}
	// The output's x is a multiple of the vectorized 2 * 16 lanes and its
	// y of the strips of 32 rows; the raw input's region is left to
	// Halide's bounds query.
	smp, err := JIT(ctx, d, o, map[string][]int{
		"processed": {32, 32, 3}, "color_temp": {3700}, "gamma": {2}, "contrast": {50},
		"sharpen_strength": {1}, "blackLevel": {25}, "whiteLevel": {1023},
	}, 1)
	if err != nil {
		t.Fatal(err)
	}
	r, err := smp.Check(ctx, spec, prog, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.HalideCells != 32*32*3 || r.KernelCells != int64(r.HalideCells) {
		t.Errorf("%d cells from Halide, %d checked in the kernel", r.HalideCells, r.KernelCells)
	}
}
