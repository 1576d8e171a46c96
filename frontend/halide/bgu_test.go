package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBGU: apps/bgu.cpp (Halide's apps/bgu, s_sigma a GeneratorParam, 2
// here) translates past its solve's fast_inverse and stops at the next
// construct the translator lacks, named in the error (docs/halide.md,
// "Halide's apps, app by app").
func TestBGU(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("apps", "bgu.cpp"))
	_, err := Translate(ctx, d, Options{Target: SuiteTarget, Params: map[string]string{"s_sigma": "2"}})
	if err == nil || !strings.Contains(err.Error(), bguStop) {
		t.Fatalf("error %v, want one containing %q", err, bguStop)
	}
}

// bguStop is where bgu's translation stops: its slicing reads the grid at
// int32(floor(float32(y) / float32(2 * upsample_factor))), an integer
// computed in float from a loop variable and an integer computed in float
// from extents alone.
const bguStop = "cannot translate bgu: the index expression int32((float32)floor_f32(float32(y)/float32((max(int32((float32)ceil_f32(float32(slice_loc.extent.0)/float32(splat_loc.extent.0))), int32((float32)ceil_f32(float32(slice_loc.extent.1)/float32(splat_loc.extent.1))))*2)))) is not quasi-affine (an integer computed from a float, but it reads y, not a parameter)"
