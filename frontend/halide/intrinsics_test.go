package halide

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/validate"
)

// intrinsicSizes are the JIT samples of testdata/intrinsics: 16 and 11
// values of every operand type (the first six its edge values), every
// pair of them, and the intrinsics each output stacks.
var intrinsicSizes = []map[string][]int{
	{"in_u8": {16}, "in_i8": {16}, "in_i16": {16}, "in_i32": {16}, "in_u32": {16}, "in_f32": {16},
		"out_u8": {16, 16, 13}, "out_i8": {16, 16, 9}, "out_u16": {16, 16, 4}, "out_i16": {16, 16, 8},
		"out_i32": {16, 16, 7}, "out_u32": {16, 16, 5}, "out_f32": {16, 16, 2}},
	{"in_u8": {11}, "in_i8": {11}, "in_i16": {11}, "in_i32": {11}, "in_u32": {11}, "in_f32": {11},
		"out_u8": {11, 11, 13}, "out_i8": {11, 11, 9}, "out_u16": {11, 11, 4}, "out_i16": {11, 11, 8},
		"out_i32": {11, 11, 7}, "out_u32": {11, 11, 5}, "out_f32": {11, 11, 2}},
}

// TestIntrinsics translates testdata/intrinsics: Halide's absd, lerp,
// popcount, counts of leading and trailing zeros, widening, saturating,
// halving and rounding operations and mul_shift_right, each written
// exactly with the formats' operations. The specification and the
// kernel agree with Halide's JIT cell for cell on every pair of edge and
// random values, the kernel is VALID in both value models, and planted
// miscompilations of the lowered intrinsics are INVALID.
func TestIntrinsics(t *testing.T) {
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	d, err := tc.Driver(ctx, filepath.Join("testdata", "intrinsics", "intrinsics.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Target: "x86-64-linux-avx-avx2-f16c-fma-sse41"}
	pair, err := Translate(ctx, d, o)
	if err != nil {
		t.Fatal(err)
	}
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	for i, sizes := range intrinsicSizes {
		s, err := JIT(ctx, d, o, sizes, uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Check(ctx, spec, prog, 1e-6)
		if err != nil {
			t.Fatalf("sample %d: %v", i+1, err)
		}
		if res.HalideCells == 0 || res.KernelCells != int64(res.HalideCells) {
			t.Errorf("sample %d: %d cells from Halide, %d checked in the kernel", i+1, res.HalideCells, res.KernelCells)
		}
	}
	if testing.Short() {
		return
	}
	for _, m := range []encode.Model{encode.Real, encode.IEEE} {
		rep, err := validatePair(ctx, pair, m, 1)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != validate.Valid {
			t.Errorf("%v: verdict %s (%s), want valid", m, rep.Verdict, rep.Reason)
		}
	}
	// Planted: widening_shift_left by 3 instead of 4; the rounding
	// constant of rounding_mul_shift_right one too large.
	for _, p := range [][2]string{{" << u16(4)", " << u16(3)"}, {"u16(127)", "u16(128)"}} {
		if !strings.Contains(prog, p[0]) {
			t.Fatalf("the kernel lacks %q", p[0])
		}
		bad := withKernel(pair, strings.Replace(prog, p[0], p[1], 1))
		for _, m := range []encode.Model{encode.Real, encode.IEEE} {
			rep, err := validatePair(ctx, bad, m, 1)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != validate.Invalid {
				t.Errorf("planted %q -> %q, %v: verdict %s (%s), want invalid", p[0], p[1], m, rep.Verdict, rep.Reason)
			}
		}
	}
}
