package halide

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/validate"
)

// intrinsicSizes are the sizes of the JIT samples of
// testdata/intrinsics, which fixes them: 16 values of every operand type
// (the first six its edge values), every pair of them, and the
// intrinsics each output stacks.
var intrinsicSizes = map[string][]int{
	"in_u8": {16}, "in_i8": {16}, "in_i16": {16}, "in_i32": {16}, "in_u32": {16}, "in_f32": {16},
	"out_u8": {16, 16, 13}, "out_i8": {16, 16, 9}, "out_u16": {16, 16, 4}, "out_i16": {16, 16, 8},
	"out_i32": {16, 16, 7}, "out_u32": {16, 16, 5}, "out_f32": {16, 16, 2}}

// validatedIntrinsics are the result types whose intrinsics
// TestIntrinsics validates.
var validatedIntrinsics = []string{"u8", "i8", "u16", "i16"}

// TestIntrinsics translates testdata/intrinsics: Halide's absd, lerp,
// popcount, counts of leading and trailing zeros, widening, saturating,
// halving and rounding operations and mul_shift_right, each written
// exactly with the formats' operations. The specification and the
// kernel agree with Halide's JIT cell for cell on every pair of edge and
// random values; the kernels of validatedIntrinsics are VALID in both
// value models, and planted miscompilations of the lowered intrinsics
// INVALID.
func TestIntrinsics(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("testdata", "intrinsics", "intrinsics.cpp"))
	o := Options{Target: "x86-64-linux-avx-avx2-f16c-fma-sse41"}
	pair := translated(ctx, t, d, o)
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	for seed := uint64(1); seed <= 2; seed++ {
		jitAgrees(ctx, t, d, o, spec, prog, intrinsicSizes, seed, 1e-6)
	}
	if testing.Short() {
		return
	}
	// Validation, one result type at a time (the others 0): the 32-bit
	// mul_shift_right's 64-bit products are beyond the solver in the
	// time a test has.
	groups := map[string]*frontend.Pair{}
	for _, g := range validatedIntrinsics {
		o := o
		o.Params = map[string]string{"only": g}
		p, err := Translate(ctx, d, o)
		if err != nil {
			t.Fatal(err)
		}
		groups[g] = p
		for _, m := range []encode.Model{encode.Real, encode.IEEE} {
			wantVerdict(ctx, t, p, m, 1, validate.Valid, g)
		}
	}
	// Planted: widening_shift_left by 3 instead of 4; the rounding
	// constant of rounding_mul_shift_right one too large.
	for _, p := range []struct{ group, from, to string }{{"u16", " << u16(4)", " << u16(3)"}, {"u8", "u16(127)", "u16(128)"}} {
		prog := groups[p.group].Kernel(frontend.Prog).Text
		if !strings.Contains(prog, p.from) {
			t.Fatalf("the kernel of %s lacks %q", p.group, p.from)
		}
		bad := withKernel(groups[p.group], strings.Replace(prog, p.from, p.to, 1))
		for _, m := range []encode.Model{encode.Real, encode.IEEE} {
			wantVerdict(ctx, t, bad, m, 1, validate.Invalid, fmt.Sprintf("planted %q -> %q", p.from, p.to))
		}
	}
}
