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

// reductionCases are the generators of testdata/reductions: reductions
// whose order the schedule changes, with atomic() or rfactor(), the
// sizes of two JIT samples, and what a kernel statement must contain.
var reductionCases = []struct {
	gen   string
	sizes [2]map[string][]int
	// the verdicts in the real and ieee value models; a float reduction
	// re-ordered is never VALID in ieee
	real, ieee validate.Verdict
	kernel     []string
}{
	{"sum_atomic", [2]map[string][]int{{"total": {}, "in": {37}}, {"total": {}, "in": {1}}}, validate.Valid, validate.Valid,
		[]string{"par total_s1_r_x < in_extent_0 {", "buf_total[] {total() @ (total_s1_r_x)} += buf_in[total_s1_r_x - in_min_0]"}},
	{"fsum_atomic", [2]map[string][]int{{"total": {}, "in": {37}}, {"total": {}, "in": {2}}}, validate.Valid, validate.Invalid,
		[]string{"buf_total[] {total() @ (total_s1_r_x)} += buf_in[total_s1_r_x - in_min_0]"}},
	{"sdot_rfactor", [2]map[string][]int{{"result": {}, "x": {37}}, {"result": {}, "x": {3}}}, validate.Valid, validate.Invalid,
		[]string{"par result_intm_s1_u < 8 {",
			"{result() @ (8 * result_intm_s1_k_x_ko + 0 + result_intm_s1_u)} += buf_x[",
			"buf_result[] {result() @ ()} := f32(0.0)",
			"buf_result[] {result()} += buf_result_intm[result_s1_k_x_ki - result_intm_u_min_realized]"}},
}

// TestReductions translates the reduction generators: the specification
// is the user's algorithm, a reduce(...) over the whole RDom (rfactor's
// intermediate has no tensor), the kernel annotates the intermediate's
// accumulations with their positions and the merges; the interpreter
// agrees with Halide's JIT, and the verdicts are the expected ones in both
// value models.
func TestReductions(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	for _, c := range reductionCases {
		t.Run(c.gen, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			d := buildDriver(t, tc, filepath.Join("testdata", "reductions", c.gen+".cpp"))
			pair := translated(ctx, t, d, Options{})
			spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
			if !strings.Contains(spec, "= reduce(") || strings.Contains(spec, "_intm") {
				t.Errorf("the specification is not the user's reduction:\n%s", spec)
			}
			for _, want := range c.kernel {
				if !strings.Contains(prog, want) {
					t.Errorf("the kernel lacks %q:\n%s", want, prog)
				}
			}
			for i, sizes := range c.sizes {
				s, err := JIT(ctx, d, Options{}, sizes, uint64(i+1))
				if err != nil {
					t.Fatal(err)
				}
				res, err := s.Check(ctx, spec, prog, 1e-5)
				if i == 0 && c.ieee != validate.Valid {
					// The interpreter runs IEEE arithmetic in the kernel's
					// order: on Halide's 37 random inputs the re-ordered
					// float sum rounds differently from the
					// specification's, as the ieee verdict says. (The
					// second sample is too small for the orders to differ.)
					if err == nil || !strings.Contains(err.Error(), "output wrong value") {
						t.Errorf("sample 1 (%v): got %v, want the interpreter to fail with a wrong output value", sizes, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("sample %d (%v): %v", i+1, sizes, err)
				}
				if res.HalideCells == 0 || res.KernelCells != int64(res.HalideCells) {
					t.Errorf("sample %d: %d cells from Halide, %d checked in the kernel", i+1, res.HalideCells, res.KernelCells)
				}
			}
			for _, m := range []struct {
				model encode.Model
				want  validate.Verdict
			}{{encode.Real, c.real}, {encode.IEEE, c.ieee}} {
				rep, err := validatePair(ctx, pair, m.model, 2)
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case m.want == validate.Valid && rep.Verdict != validate.Valid:
					t.Errorf("%v: verdict %s (%s), want valid", m.model, rep.Verdict, rep.Reason)
				case m.want != validate.Valid && rep.Verdict == validate.Valid:
					t.Errorf("%v: VALID for a re-ordered float reduction", m.model)
				case m.want != validate.Valid && rep.Verdict == validate.Invalid && rep.Reason != "re-ordered float reduction":
					t.Errorf("%v: invalid (%s), want invalid (re-ordered float reduction)", m.model, rep.Reason)
				case m.want != validate.Valid && rep.Verdict != validate.Invalid:
					t.Errorf("%v: %s (%s), want invalid (re-ordered float reduction)", m.model, rep.Verdict, rep.Reason)
				}
			}
		})
	}
}
