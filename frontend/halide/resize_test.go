package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// resizeOptions builds apps/resize.cpp as docs/halide.md's app table
// does: linear interpolation, uint8 in and out.
var resizeOptions = Options{Target: SuiteTarget, Params: map[string]string{
	"interpolation_type": "linear", "input.type": "uint8", "output.type": "uint8"}}

// TestResizeStrides: apps/resize.cpp (linear, uint8) translates past its
// schedule's specializations on strides (planar, packed RGB, packed
// RGBA): each stride their conditions read is a parameter of both sides
// that the kernel alone reads, the kernel's header lists them, and the
// interpreter's run of the kernel agrees, cell for cell and exactly, with
// Halide's JIT on a planar sample and a packed RGB one (input and output
// laid out channels innermost), scale_factor=2 and the nine derived
// parameters computed from it, each sample running its own branch.
func TestResizeStrides(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("apps", "resize.cpp"))
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
	if len(res.Derived) != 9 {
		t.Errorf("%d derived parameters, want 9: %q", len(res.Derived), res.Derived)
	}
	packed := []int{2, 0, 1}
	for i, c := range []struct {
		sizes  map[string][]int
		stride int64
	}{
		{map[string][]int{"output": {32, 8, 3}, "input": resizeInput, "scale_factor": {2}}, 1},
		{map[string][]int{"output": {32, 8, 3}, "input": resizeInput, "output.order": packed, "input.order": packed, "scale_factor": {2}}, 3},
	} {
		seed := uint64(i + 1)
		smp, err := JIT(ctx, d, resizeOptions, c.sizes, seed)
		if err != nil {
			t.Fatal(err)
		}
		if got := smp.Params["input_stride_0"]; got != c.stride {
			t.Errorf("sample %d: input_stride_0 = %d, want %d", i, got, c.stride)
		}
		r, err := smp.Check(ctx, spec, prog, 0)
		if err != nil {
			t.Fatalf("sample %d (%v): %v", i, c.sizes, err)
		}
		if r.HalideCells != 32*8*3 || r.KernelCells != int64(r.HalideCells) {
			t.Errorf("sample %d: %d cells from Halide, %d checked in the kernel", i, r.HalideCells, r.KernelCells)
		}
	}
}

// resizeInput is the input of resize's JIT samples: the region an output
// of 32 x 8 reads at scale_factor=2, given rather than left to Halide's
// bounds query (TestResizeBoundsQuery).
var resizeInput = []int{16, 4, 3}

// TestResizeBoundsQuery: resize clamps its taps to its input's own bounds
// (beginx = clamp(..., input.dim(0).min(), input.dim(0).max() + 1 -
// kernel_taps)), so Halide's bounds query, run on an input of no bounds,
// sizes the input [-7, 0] x [0, 0] (one column, rounded to a vector of 8
// inwards) for an output of 32 x 8 at scale_factor=2. On that input every
// tap clamps to the input's last column, where the linear kernel's weight
// is 0 for most outputs: kernel_x(2, 0) = 0 / 0, NaN, and the output's
// uint8 conversion of it has no value. The interpreter's run of the kernel
// stops there, at the first output it stores, because the specification
// itself has no value there: a property of the pipeline on that input,
// not of the translation (Halide's code stores whatever its conversion of
// a NaN gives).
func TestResizeBoundsQuery(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("apps", "resize.cpp"))
	res, err := TranslateResult(ctx, d, resizeOptions)
	if err != nil {
		t.Fatal(err)
	}
	spec, prog := res.Spec, res.Kernel(frontend.Prog).Text
	smp, err := JIT(ctx, d, resizeOptions, map[string][]int{"output": {32, 8, 3}, "scale_factor": {2}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range map[string]int64{"input_min_0": -7, "input_extent_0": 8, "input_min_1": 0, "input_extent_1": 1} {
		if got := smp.Params[n]; got != want {
			t.Errorf("the bounds query's %s = %d, want %d", n, got, want)
		}
	}
	const stop = "undefined value stored: the value stored into buf_output[2, 0, 0] is undefined"
	if _, err := smp.Check(ctx, spec, prog, 0); err == nil || !strings.Contains(err.Error(), stop) {
		t.Errorf("error %v, want one containing %q", err, stop)
	}
	for _, c := range []struct {
		tensor string
		idx    []int64
		want   string
	}{
		{"f3", []int64{2, 0}, "0"}, {"f7", []int64{2}, "0"}, {"output_", []int64{1, 0, 0}, ""}, {"output_", []int64{2, 0, 0}, "undef"}, {"f5", []int64{2, 0}, "NaN"},
	} {
		v, err := specValue(ctx, smp, spec, c.tensor, c.idx)
		if err != nil {
			t.Fatal(err)
		}
		if c.want == "" {
			if v.IsUndef() {
				t.Errorf("the specification's %s%v has no value", c.tensor, c.idx)
			}
		} else if v.String() != c.want {
			t.Errorf("the specification's %s%v = %s, want %s", c.tensor, c.idx, v, c.want)
		}
	}
}

// specValue evaluates the specification's tensor at idx on the sample's
// inputs and parameters, its derived parameters computed.
func specValue(ctx context.Context, smp *Sample, specText, tensor string, idx []int64) (value.Value, error) {
	spec, errs := sare.Parse(&syntax.Source{Name: "spec.sare", Text: specText})
	if len(errs) > 0 {
		return value.Value{}, errs
	}
	info, errs := sare.Check(spec)
	if len(errs) > 0 {
		return value.Value{}, errs
	}
	inputs := sare.InputFunc(func(t *sare.Tensor, i []int64) (value.Value, error) {
		return value.Parse(t.Type, smp.Inputs[key(t.Name.Name, i)])
	})
	params, err := smp.derive(ctx, specText, inputs)
	if err != nil {
		return value.Value{}, err
	}
	ev, err := sare.NewEvaluator(spec, info, params, inputs)
	if err != nil {
		return value.Value{}, err
	}
	return ev.Eval(ctx, tensor, idx)
}

// resizeStrides are the stride parameters of resize's translation.
var resizeStrides = []string{"input_stride_0", "input_stride_2", "output_stride_0", "output_stride_2"}
