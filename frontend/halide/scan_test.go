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

// scanCases are the generators of testdata/scans: updates that move a
// pure dimension with their RDom (scans), of one value and of tuples,
// and a 0-d func whose stages have no coordinates; the sizes of two JIT samples, what the
// specification and the kernel must contain, and planted
// miscompilations, each a text of the kernel and its replacement.
var scanCases = []struct {
	gen    string
	sizes  [2]map[string][]int
	spec   []string
	kernel []string
	plants [][2]string
	// realOnly: validated in the real model only. tuple_scan's
	// annotation of element 0 at C93 is undecided in ieee (the solver
	// answers sat with uninterpreted specification elements).
	realOnly bool
}{
	{"scan_rows", [2]map[string][]int{{"out": {19, 7}, "in": {19, 7}}, {"out": {8, 2}, "in": {8, 2}}},
		[]string{
			"f_s1(x, y) = f_s1(x, y + -1) * a() + in_im(x, y) where (1 <= y and y < in_extent_1) and (2 <= y and y < in_extent_1 + 1)",
			"f_s2(x, y) = f_s2(x, y + 1) * a() + f_s1(x, y) where",
		},
		[]string{"{f_s1(f_s1_x, f_s1_r_x)} := ", "{f_s2(f_s2_x, in_extent_1 - 1 - f_s2_r_x)} := "},
		[][2]string{
			// The scan down starts one row late.
			{"for f_s1_r_x in 1 .. 1 + (in_extent_1 + -1) {", "for f_s1_r_x in 2 .. 1 + (in_extent_1 + -1) {"},
			// The scan up reads the row above instead of the row below.
			{"in_extent_1 - f_s2_r_x - f_y_min_realized] * buf_a[]", "in_extent_1 - f_s2_r_x + -2 - f_y_min_realized] * buf_a[]"},
		}, false},
	{"tuple_scan", [2]map[string][]int{
		{"out": {19, 7}, "re": {19, 7}, "im": {19, 7}, "dft": {19, 2}},
		{"out": {8, 2}, "re": {8, 2}, "im": {8, 2}, "dft": {8, 2}}},
		[]string{
			// Element 0 reads element 1's own update at the row above.
			"f_0_s1(x, y) = f_0_s1(x, y + -1) * a() - f_1_s1(x, y + -1) * b() + f_0_s0(x, y) where (1 <= y and y < re_extent_1) and (2 <= y and y < re_extent_1 + 1)",
			"f_0_s2(x, y) = f_1_s2(x, y + 1) + f_0_s1(x, y) where",
			// A pure definition undef(), written at constant rows.
			"g_0_s3(x, c) = g_1_s2(x, 0) * a() where (c == -1)",
			"g_0_s4(x, c) = g_0_s3(x, 0) - g_0_s3(x, -1) where (c == 0)",
		},
		[]string{"{f_0_s1(f_s1_x, f_s1_r_x)} := ", "{f_1_s2(f_s2_x, re_extent_1 - 1 - f_s2_r_x)} := ", "{g_1_s3(dft_s0_x, -1)} := "},
		[][2]string{
			// The tuple scan down starts one row late.
			{"for f_s1_r_x in 1 .. 1 + (re_extent_1 + -1) {", "for f_s1_r_x in 2 .. 1 + (re_extent_1 + -1) {"},
			// The scan up reads element 0 of the row below instead of element 1.
			{"{f_0_s2(f_s2_x, re_extent_1 - 1 - f_s2_r_x)} := buf_f_1[", "{f_0_s2(f_s2_x, re_extent_1 - 1 - f_s2_r_x)} := buf_f_0["},
			// The temporary row -1 takes the wrong element of row 0.
			{"{g_0_s3(dft_s0_x, -1)} := buf_g_1[", "{g_0_s3(dft_s0_x, -1)} := buf_g_0["},
			// The elements' stores of row 1 swapped.
			{"buf_g_0[dft_s0_x - g_x_min_realized, 1 - g_c_min_realized] {g_0_s2(dft_s0_x, 1)} := buf_re", "buf_g_0[dft_s0_x - g_x_min_realized, 1 - g_c_min_realized] {g_0_s2(dft_s0_x, 1)} := buf_im"},
		}, true},
	{"sum_twice", [2]map[string][]int{{"result": {}, "in": {37}}, {"result": {}, "in": {1}}},
		[]string{"result_s1() = result_s0() + sum_1()"},
		[]string{"buf_result[] {result_s0()} := buf_sum[]", "buf_result[] {result_s1()} := buf_result[] + buf_sum_1[]"},
		[][2]string{
			// The second definition overwrites the first.
			{"buf_result[] {result_s1()} := buf_result[] + buf_sum_1[]", "buf_result[] {result_s1()} := buf_sum_1[]"},
		}, false},
}

// TestScans translates the scan generators: a scan's tensor is indexed
// by the cell it writes, its reads of its own func see the latest
// earlier write; the stores of a 0-d func's stages without coordinates
// are told apart by their order. The interpreter agrees with Halide's
// JIT, both value models prove the kernels, and the planted
// miscompilations are INVALID in both with a counterexample the
// interpreter reproduces.
func TestScans(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	for _, c := range scanCases {
		t.Run(c.gen, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
			defer cancel()
			d := buildDriver(t, tc, filepath.Join("testdata", "scans", c.gen+".cpp"))
			pair := translated(ctx, t, d, Options{Target: SuiteTarget})
			spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
			for _, want := range c.spec {
				if !strings.Contains(spec, want) {
					t.Errorf("the specification lacks %q:\n%s", want, spec)
				}
			}
			for _, want := range c.kernel {
				if !strings.Contains(prog, want) {
					t.Errorf("the kernel lacks %q:\n%s", want, prog)
				}
			}
			for i, sizes := range c.sizes {
				jitAgrees(ctx, t, d, Options{Target: SuiteTarget}, spec, prog, sizes, uint64(i+1), 1e-5)
			}
			models := []encode.Model{encode.Real, encode.IEEE}
			if c.realOnly {
				models = models[:1]
			}
			for _, m := range models {
				rep, err := validatePair(ctx, pair, m, 2)
				if err != nil {
					t.Fatal(err)
				}
				if rep.Verdict != validate.Valid {
					t.Errorf("%v: verdict %s (%s), want valid", m, rep.Verdict, rep.Reason)
				}
				for _, p := range c.plants {
					checkPlant(ctx, t, pair.Spec, prog, p, m)
				}
			}
		})
	}
}

// checkPlant validates the kernel prog with the text p[0] replaced by
// p[1]: it must be INVALID, with a counterexample the interpreter
// reproduces.
func checkPlant(ctx context.Context, t *testing.T, spec, prog string, p [2]string, m encode.Model) {
	t.Helper()
	if strings.Count(prog, p[0]) != 1 {
		t.Fatalf("the kernel holds %q %d times, want once", p[0], strings.Count(prog, p[0]))
	}
	mutant := &frontend.Pair{Spec: spec, Kernels: []frontend.Kernel{{Name: frontend.Prog, Text: strings.Replace(prog, p[0], p[1], 1)}}}
	rep, err := validatePair(ctx, mutant, m, 2)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != validate.Invalid || rep.Counterexample == nil {
		t.Errorf("%v, %q planted: %s (%s), want invalid with a counterexample", m, p[1], rep.Verdict, rep.Reason)
		return
	}
	if !rep.Counterexample.Reproduced {
		t.Errorf("%v, %q planted: the counterexample is not reproduced by the interpreter: %+v", m, p[1], rep.Counterexample)
	}
}
