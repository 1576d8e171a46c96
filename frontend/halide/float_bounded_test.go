package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFloatBoundedApps translates two of Halide's apps whose bounds are
// computed from a float input, which the kernel model cannot bound:
// apps/resize.cpp (linear interpolation, uint8), whose RDom of taps has
// the extent int32(ceil(2 / scale_factor)), and apps/bilateral_grid.cpp
// (s_sigma=2), whose grid Halide realizes over int32(min(1.0f / r_sigma,
// 0.0f)) and more. Each translation stops, naming the bound.
func TestFloatBoundedApps(t *testing.T) {
	tc := toolchain(t)
	for _, c := range []struct {
		app    string
		params map[string]string
		want   string
	}{
		{"resize", map[string]string{"interpolation_type": "linear", "input.type": "uint8", "output.type": "uint8"},
			"ceil_f32((float32)strict_float((float32)strict_float(1.000000f)/(float32)strict_float((float32)scale_factor))*2.000000f)) is not quasi-affine"},
		{"bilateral_grid", map[string]string{"s_sigma": "2"},
			"the index expression int32(min(1.000000f/(float32)r_sigma, 0.000000f)) is not quasi-affine"},
	} {
		t.Run(c.app, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			d, err := tc.Driver(ctx, filepath.Join("apps", c.app+".cpp"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = Translate(ctx, d, Options{Target: SuiteTarget, Params: c.params})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}
