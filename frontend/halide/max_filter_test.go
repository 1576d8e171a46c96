package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMaxFilter translates apps/max_filter.cpp, Halide's max_filter app
// with its CPU schedule, at radius 3 (3 slices). The translation stops,
// naming the construct: the update of vert_log reads the previous slice
// at x + clamp(1 << (t - 1), 0, 2 * radius), a shift by the RVar t,
// which is not a quasi-affine index (the formats' shifts in values are
// by constant amounts).
func TestMaxFilter(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("apps", "max_filter.cpp"))
	_, err := Translate(ctx, d, Options{Target: SuiteTarget, Params: map[string]string{"radius": "3"}})
	const want = "the index expression shift_left(1, t + -1) is not quasi-affine"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one containing %q", err, want)
	}
}
