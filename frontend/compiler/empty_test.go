package compiler

import (
	"strings"
	"testing"

	"github.com/augur-verify/augur/validate"
)

// emptyAlg specialises G's tiles on a size the assumptions exclude:
// under the specialization, F (computed per tile) has an empty region.
const emptyAlg = `param N
assume N >= 8 and N <= 100
input In(x) : f32
func F(x) : f32 = In(x) * 2
func G(x) : f32 = F(x) + F(x + 1)
output G over x in 0 .. N
schedule {
  G.split(x, xo, xi, 8).specialize(N >= 200).vectorize(xi)
  F.compute_at(G, xo)
}
`

// TestEmptyRegion checks that a func whose region is empty where it is
// computed gets an empty loop and buffer, as Halide gives it, instead of
// an error; the kernel runs and validates. The same empty loop in the
// branch that runs is invalid.
func TestEmptyRegion(t *testing.T) {
	r, err := compileAlg(t, emptyAlg)
	if err != nil {
		t.Fatal(detail(err))
	}
	k := r.Kernels[0].Text
	for _, want := range []string{"alloc buf_F : f32[0] {", "for x < 0 {", "alloc buf_F : f32[9] {"} {
		if !strings.Contains(k, want) {
			t.Errorf("no %q in\n%s", want, k)
		}
	}
	for i, n := range []int64{8, 13, 100} {
		if err := runKernel(r, map[string]int64{"N": n}, uint64(i+1)); err != nil {
			t.Fatalf("N = %d: %v\n%s", n, err, k)
		}
	}
	if testing.Short() {
		return
	}
	if rep := validatePair(t, r); rep.Verdict != validate.Valid {
		t.Fatalf("verdict %s, want valid\n%s", rep.Verdict, k)
	}
	// the empty loop in the generic branch: G reads F's cells never written
	bad := strings.Replace(k, "for x in 8 * xo .. min(8 * xo + 9, N + 1) {", "for x in 8 * xo .. 8 * xo {", 1)
	if bad == k {
		t.Fatalf("the planted bug does not apply to\n%s", k)
	}
	bug := *r
	bug.Pair.Kernels = append(bug.Pair.Kernels[:0:0], r.Kernels...)
	bug.Kernels[0].Text = bad
	if rep := validatePair(t, &bug); rep.Verdict != validate.Invalid {
		t.Errorf("verdict %s, want invalid\n%s", rep.Verdict, bad)
	}
}

// TestPossiblyEmptyRDom checks the dot product of linear_algebra's CPU
// schedule, whose reduction domains (N / 8 vectors, a tail of N % 8
// points) are declared possibly empty: the kernel assumes only N >= 0,
// runs at sizes where either domain is empty, and validates; a kernel
// that skips a vector, or the tail's first point, is invalid (where the
// domain is not empty).
func TestPossiblyEmptyRDom(t *testing.T) {
	r := compileBench(t, "sdot_vec_app")
	k := r.Kernels[0].Text
	if !strings.Contains(k, "\nassume N >= 0\n") {
		t.Fatalf("the kernel assumes more than N >= 0:\n%s", k)
	}
	for _, n := range []int64{0, 5, 8, 21} {
		if err := runKernel(r, map[string]int64{"N": n}, uint64(n)); err != nil {
			t.Fatalf("N = %d: %v", n, err)
		}
	}
	validAndMutantInvalid(t, r, "for k_v < N / 8 {", "for k_v < N / 8 - 1 {", "the last vector skipped")
	validAndMutantInvalid(t, r, "for tail_j in 8 * (N / 8) .. N {", "for tail_j in 8 * (N / 8) + 1 .. N {", "the tail's first point skipped")
}
