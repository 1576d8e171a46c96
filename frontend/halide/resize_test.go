package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
)

// resizeOptions builds apps/resize.cpp as docs/halide.md's app table
// does: linear interpolation, uint8 in and out.
var resizeOptions = Options{Target: SuiteTarget, Params: map[string]string{
	"interpolation_type": "linear", "input.type": "uint8", "output.type": "uint8"}}

// TestResizeStrides: apps/resize.cpp (linear, uint8) translates past its
// schedule's specializations on strides (planar, packed RGB, packed
// RGBA): each stride their conditions read is a parameter of both sides
// that the kernel alone reads, the kernel's header lists them, and the
// interpreter agrees with Halide's JIT on a planar sample and on a packed
// RGB one (input and output laid out channels innermost), each running
// its own branch of the kernel.
func TestResizeStrides(t *testing.T) {
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	d, err := tc.Driver(ctx, filepath.Join("apps", "resize.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := TranslateResult(ctx, d, resizeOptions)
	if err != nil {
		t.Fatal(err)
	}
	spec, prog := res.Spec, res.Kernel(frontend.Prog).Text
	if !strings.Contains(prog, "# Strides, read only by conditions") {
		t.Errorf("the kernel's header lists no strides:\n%s", prog)
	}
	for _, s := range resizeStrides {
		if !strings.Contains(prog, "#   "+s+" = ") || !strings.Contains(spec, s) {
			t.Errorf("the stride parameter %s is not declared on both sides", s)
		}
	}
	packed := []int{2, 0, 1}
	for i, c := range []struct {
		sizes  map[string][]int
		stride int64
	}{
		{map[string][]int{"output": {8, 6, 3}, "scale_factor": {2}}, 1},
		{map[string][]int{"output": {8, 6, 3}, "output.order": packed, "input.order": packed, "scale_factor": {2}}, 3},
	} {
		seed := uint64(i + 1)
		smp, err := JIT(ctx, d, resizeOptions, c.sizes, seed)
		if err != nil {
			t.Fatal(err)
		}
		if got := smp.Params["input_stride_0"]; got != c.stride {
			t.Errorf("sample %d: input_stride_0 = %d, want %d", i, got, c.stride)
		}
		if _, err := smp.Check(ctx, spec, prog, 0); err != nil {
			t.Errorf("sample %d (%v): %v", i, c.sizes, err)
		}
	}
}

// resizeStrides are the stride parameters of resize's translation.
var resizeStrides = []string{"input_stride_0", "input_stride_2", "output_stride_0", "output_stride_2"}
