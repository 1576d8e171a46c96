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

// withKernel is pair with its prog kernel's text replaced by prog.
func withKernel(pair *frontend.Pair, prog string) *frontend.Pair {
	bad := *pair
	bad.Kernels = append([]frontend.Kernel(nil), pair.Kernels...)
	for i := range bad.Kernels {
		if bad.Kernels[i].Name == frontend.Prog {
			bad.Kernels[i].Text = prog
		}
	}
	return &bad
}

// TestTuples translates testdata/tuples: every element of a func of
// several values is a tensor of its own (am_0, am_1), an update's
// elements read each other's previous values (argmin, argmax, a swap),
// computed into 0-d arrays before any element is stored, an undef()
// element keeps its value, and a tuple output is one buffer per element.
// The interpreter agrees with Halide's JIT, the kernel is VALID in both
// value models, and planted miscompilations are INVALID: the swap
// storing one element before the other reads it, argmin keeping the last
// of equal minima, argmax skipping the first row.
func TestTuples(t *testing.T) {
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	d, err := tc.Driver(ctx, filepath.Join("testdata", "tuples", "tuples.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	pair, err := Translate(ctx, d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	for _, want := range []string{
		"am_0_s1(x, r6_x) = select(in_im(x, r6_x) < am_1_s1(x, r6_x - 1), i32(r6_x), am_0_s1(x, r6_x - 1))",
		"sw_1_s2(x) = sw_1_s1(x)", "output arg, extreme_0, extreme_1, swapped"} {
		if !strings.Contains(spec, want) {
			t.Errorf("the specification lacks %q:\n%s", want, spec)
		}
	}
	for _, want := range []string{"alloc sw_0_value : i32[] {", "buf_sw_0[sw_s1_x - sw_x_min_realized] {sw_0_s1(sw_s1_x)} := sw_0_value[]",
		"out buf_extreme_1[d0] : i32[extreme_1_extent_0] = extreme_1(d0 + extreme_1_min_0)"} {
		if !strings.Contains(prog, want) {
			t.Errorf("the kernel lacks %q:\n%s", want, prog)
		}
	}
	for i, sizes := range []map[string][]int{{"in": {21, 7}, "arg": {21}, "extreme": {21}, "swapped": {21}},
		{"in": {5, 2}, "arg": {5}, "extreme": {5}, "swapped": {5}}} {
		s, err := JIT(ctx, d, Options{}, sizes, uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Check(ctx, spec, prog, 0)
		if err != nil {
			t.Fatalf("sample %d (%v): %v", i+1, sizes, err)
		}
		if res.HalideCells == 0 || res.KernelCells != int64(res.HalideCells) {
			t.Errorf("sample %d: %d cells from Halide, %d checked in the kernel", i+1, res.HalideCells, res.KernelCells)
		}
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
	for _, p := range [][2]string{
		{"{sw_1_s1(sw_s1_x)} := sw_1_value[]", "{sw_1_s1(sw_s1_x)} := buf_sw_0[sw_s1_x - sw_x_min_realized] * i32(2)"},
		{"< buf_am_1[am_s1_x_guarded - am_x_min_realized], i32(am_s1_r6_x)", "<= buf_am_1[am_s1_x_guarded - am_x_min_realized], i32(am_s1_r6_x)"},
		{"for argmax_s1_r6_x < in_extent_1 {", "for argmax_s1_r6_x in 1 .. in_extent_1 {"},
	} {
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
				t.Errorf("planted %q, %v: verdict %s (%s), want invalid", p[1], m, rep.Verdict, rep.Reason)
			}
		}
	}
}
