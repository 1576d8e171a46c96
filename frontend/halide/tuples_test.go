package halide

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
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
// element keeps its value, a tuple output is one buffer per element, and
// argmin over floats starts from infinity, a bit cast.
// The interpreter agrees with Halide's JIT, the kernel is VALID in both
// value models, and planted miscompilations are INVALID: the swap
// storing one element before the other reads it, argmin keeping the last
// of equal minima, argmax skipping the first row.
func TestTuples(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	d := buildDriver(t, tc, filepath.Join("testdata", "tuples", "tuples.cpp"))
	// strict_float: otherwise Halide's simplifier rewrites the float
	// argmin's select(v < m, v, m) into min(m, v), which differs from it
	// on NaN, and the ieee model refutes it with a NaN input.
	o := Options{Target: "host-strict_float"}
	pair := translated(ctx, t, d, o)
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	// The RDom's variable, as Halide numbered it.
	r := regexp.MustCompile(`tensor am_0_s1\(x, (r[0-9]+_x)\)`).FindStringSubmatch(spec)
	if r == nil {
		t.Fatalf("no update of am_0 in the specification:\n%s", spec)
	}
	rx := r[1]
	for _, want := range []string{
		fmt.Sprintf("am_0_s1(x, %[1]s) = select(in_im(x, %[1]s) < am_1_s1(x, %[1]s - 1), i32(%[1]s), am_0_s1(x, %[1]s - 1))", rx),
		"sw_1_s2(x) = sw_1_s1(x)", "output arg, extreme_0, extreme_1, swapped, fargmin",
		"argmin_1_s0(x) = reinterpret_f32(2139095040)"} {
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
	for i, sizes := range []map[string][]int{
		{"in": {21, 7}, "fin": {21, 6}, "arg": {21}, "extreme": {21}, "swapped": {21}, "fargmin": {21}},
		{"in": {5, 2}, "fin": {5, 1}, "arg": {5}, "extreme": {5}, "swapped": {5}, "fargmin": {5}}} {
		jitAgrees(ctx, t, d, o, spec, prog, sizes, uint64(i+1), 0)
	}
	for _, m := range []encode.Model{encode.Real, encode.IEEE} {
		wantVerdict(ctx, t, pair, m, 1, validate.Valid, "tuples")
	}
	for _, p := range [][2]string{
		{"{sw_1_s1(sw_s1_x)} := sw_1_value[]", "{sw_1_s1(sw_s1_x)} := buf_sw_0[sw_s1_x - sw_x_min_realized] * i32(2)"},
		{"< buf_am_1[am_s1_x_guarded - am_x_min_realized], i32(am_s1_" + rx + ")", "<= buf_am_1[am_s1_x_guarded - am_x_min_realized], i32(am_s1_" + rx + ")"},
		{"for argmax_s1_" + rx + " < in_extent_1 {", "for argmax_s1_" + rx + " in 1 .. in_extent_1 {"},
	} {
		if !strings.Contains(prog, p[0]) {
			t.Fatalf("the kernel lacks %q", p[0])
		}
		bad := withKernel(pair, strings.Replace(prog, p[0], p[1], 1))
		for _, m := range []encode.Model{encode.Real, encode.IEEE} {
			wantVerdict(ctx, t, bad, m, 1, validate.Invalid, fmt.Sprintf("planted %q", p[1]))
		}
	}
}

// TestInPlace translates apps/sger.cpp, whose output's pure definition is
// undef(): the updates start from the buffer's contents, an input of the
// specification (result_initial) bound to the output array as well. The
// kernel is VALID in both value models; with the guard of the last
// columns' strip tightened by one (a column left as it was), INVALID.
func TestInPlace(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	d := driver(t, tc, "sger")
	pair := translated(ctx, t, d, Options{Target: SuiteTarget})
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	for _, want := range []string{"input result_initial(d0, d1) : f32", "result_s0(i, j) = result_initial(i, j)"} {
		if !strings.Contains(spec, want) {
			t.Errorf("the specification lacks %q:\n%s", want, spec)
		}
	}
	if want := "in  buf_result[d0, d1] : f32[result_extent_0, result_extent_1] = result_initial("; !strings.Contains(prog, want) {
		t.Errorf("the kernel lacks %q:\n%s", want, prog)
	}
	s, err := JIT(ctx, d, Options{Target: SuiteTarget}, map[string][]int{"x": {17}, "y": {9}, "result": {17, 9}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := s.Check(ctx, spec, prog, 1e-5); err != nil || res.HalideCells != 17*9 {
		t.Fatalf("JIT sample: %v (%+v)", err, res)
	}
	guard := "if 8 * result_s1_j_j + result_s1_j_v1 + 1 <= y_extent_0 {"
	if !strings.Contains(prog, guard) {
		t.Fatalf("the kernel lacks %q", guard)
	}
	planted := withKernel(pair, strings.Replace(prog, guard, "if 8 * result_s1_j_j + result_s1_j_v1 + 2 <= y_extent_0 {", 1))
	for _, m := range []encode.Model{encode.Real, encode.IEEE} {
		for _, c := range []struct {
			pair *frontend.Pair
			want validate.Verdict
		}{{pair, validate.Valid}, {planted, validate.Invalid}} {
			rep, err := validatePair(ctx, c.pair, m, 1)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != c.want {
				t.Errorf("%v: verdict %s (%s), want %s", m, rep.Verdict, rep.Reason, c.want)
			}
		}
	}
}
