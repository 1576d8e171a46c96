package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBGU: apps/bgu.cpp (Halide's apps/bgu, s_sigma a GeneratorParam, 2
// here) stops at the next construct the translator lacks, named in the
// error (docs/halide.md, "Halide's apps, app by app").
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

// bguStop is where bgu's translation stops.
const bguStop = "cannot translate bgu: the call (float32)fast_inverse_f32((float32)f2(x, y, z, 0, 0)) (fast_inverse_f32)"
