package compiler

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// unrollPair is F computed per tile of 4 points of G, which reads F at x
// and x + 1: one computation of F spans min(4 * xo + 4, N) - 4 * xo + 1
// points, at most 5, fewer in the guarded last tile.
const unrollPair = `param N
assume N >= 8
input In(x) : f32
func F(x) : f32 = In(x) * 2
func G(x) : f32 = F(x) + F(x + 1)
output G over x in 0 .. N
schedule {
  G.split(x, xo, xi, 4)
`

func compileAlg(t *testing.T, src string) (*Result, error) {
	t.Helper()
	return compileAlgOpts(t, src, Options{})
}

func compileAlgOpts(t *testing.T, src string, opts Options) (*Result, error) {
	t.Helper()
	p, err := alg.Load(&syntax.Source{Name: "t.alg", Text: src})
	if err != nil {
		t.Fatalf("%s: %v", src, detail(err))
	}
	return Compile(context.Background(), p, "t", opts)
}

// TestBoundedUnroll compiles loops of bounded, non-constant extent
// unrolled and vectorised as Halide does (Reinking 2022, section 2.8.3):
// as many iterations as a constant upper bound of the extent, each guarded
// by the true extent: an unrolled loop is a sequential loop by default
// (one store of F) and as many copies of its body with UnrollCopies. Each
// kernel runs and validates; a guard widened (a read past the input), a
// copy dropped or the loop shortened (a point of F never computed) is
// invalid.
func TestBoundedUnroll(t *testing.T) {
	for _, tc := range []struct {
		name, dirs string
		copies     int // guarded copies of F's store in the kernel (UnrollCopies)
		stores     int // stores of F in the kernel, unrolled loops as loops
		params     []map[string]int64
	}{
		{"unroll at a guarded tile", "  F.compute_at(G, xo).unroll(x)\n}\n", 5, 1, []map[string]int64{{"N": 8}, {"N": 11}}},
		{"vectorize at a guarded tile", "  F.compute_at(G, xo).vectorize(x)\n}\n", 1, 1, []map[string]int64{{"N": 9}}},
		{"unroll under a specialization", "  F.compute_at(G, xo).specialize(N >= 100).unroll(x)\n}\n", 6, 2, []map[string]int64{{"N": 8}, {"N": 101}}},
		{"unroll of a parameter's bounded extent", "}\nassume N <= 12\n", 0, 0, nil},
	} {
		for _, copies := range []bool{false, true} {
			t.Run(strings.ReplaceAll(tc.name, " ", "_")+map[bool]string{true: "_copies"}[copies], func(t *testing.T) {
				want := tc.stores
				if copies {
					want = tc.copies
				}
				boundedUnrollCase(t, unrollPair+tc.dirs, want, tc.params, copies)
			})
		}
	}
	boundedUnrollMutants(t, false)
	boundedUnrollMutants(t, true)
}

// boundedUnrollCase compiles src (or, with want 0, G unrolled under
// assumptions bounding N), checks the number of stores of F, runs the kernel at params and validates it.
func boundedUnrollCase(t *testing.T, src string, want int, params []map[string]int64, copies bool) {
	if want == 0 {
		// G over x in 0 .. N with N <= 12: twelve guarded iterations
		src = strings.Replace(unrollPair, "assume N >= 8", "assume N >= 8 and N <= 12", 1) + "  G.unroll(xo)\n}\n"
	}
	r, err := compileAlgOpts(t, src, Options{UnrollCopies: copies})
	if err != nil {
		t.Fatalf("%s\n%v", src, detail(err))
	}
	k := r.Kernels[0].Text
	if want > 0 {
		if n := strings.Count(k, "{F("); n != want {
			t.Errorf("%d stores of F, want %d\n%s", n, want, k)
		}
	}
	for i, p := range params {
		if err := runKernel(r, p, uint64(i+1)); err != nil {
			t.Fatalf("params %v: %v\n%s", p, err, k)
		}
	}
	if testing.Short() {
		return
	}
	if rep := validatePair(t, r); rep.Verdict != validate.Valid {
		t.Fatalf("verdict %s, want valid\n%s", rep.Verdict, k)
	}
}

// boundedUnrollMutants plants bugs in F unrolled at G's guarded tile, as
// a loop or as copies: each kernel is invalid.
func boundedUnrollMutants(t *testing.T, copies bool) {
	if testing.Short() {
		return
	}
	r, err := compileAlgOpts(t, unrollPair+"  F.compute_at(G, xo).unroll(x)\n}\n", Options{UnrollCopies: copies})
	if err != nil {
		t.Fatal(detail(err))
	}
	k := r.Kernels[0].Text
	guard, wide := "if x < min(4 * xo + 5, N + 1) {", "if x < min(4 * xo + 5, N + 2) {"
	// F(4 * xo + 4) never computed: G's last point of a tile reads garbage
	drop, dropped := "for x in 4 * xo .. 4 * xo + 5 {", "for x in 4 * xo .. 4 * xo + 4 {"
	if copies {
		guard, wide = "if 4 * xo + 4 < min(4 * xo + 5, N + 1) {", "if 4 * xo + 4 < min(4 * xo + 5, N + 2) {"
		drop, dropped = "buf_F[4] {F(4 * xo + 4)} := buf_In[4 * xo + 4] * 2", ""
	}
	if !strings.Contains(k, guard) {
		t.Fatalf("no guard %q in\n%s", guard, k)
	}
	for name, bad := range map[string]string{
		// the last iteration reads In past its end in the last tile
		"guard widened": strings.Replace(k, guard, wide, 1),
		"copy dropped":  strings.Replace(k, drop, dropped, 1),
	} {
		if bad == k {
			t.Fatalf("%s: the planted bug does not apply to\n%s", name, k)
		}
		bug := *r
		bug.Pair.Kernels = append(bug.Pair.Kernels[:0:0], r.Kernels...)
		bug.Kernels[0].Text = bad
		if rep := validatePair(t, &bug); rep.Verdict != validate.Invalid {
			t.Errorf("copies %v, %s: verdict %s, want invalid\n%s", copies, name, rep.Verdict, bad)
		}
	}
}

// TestUnboundedUnroll checks the error of a loop unrolled or vectorised
// whose extent has no constant upper bound: it names the extent and its
// context.
func TestUnboundedUnroll(t *testing.T) {
	// G reads F over a window of N + 1 points
	wide := strings.Replace(unrollPair, "F(x + 1)", "F(x + N)", 1)
	for _, tc := range []struct{ src, want string }{
		{unrollPair + "  G.unroll(xo)\n}\n",
			"t.alg:9:5: unroll of xo in G: the loop's extent (N + 3) / 4 has no constant upper bound over its context (N >= 8, N >= 1): it is unbounded (split it first, or give a factor: unroll(xo, 8))"},
		{wide + "  F.compute_at(G, xo).vectorize(x)\n}\n",
			"t.alg:9:23: vectorize of x in F: the loop's extent min(N + 4 * xo + 3, 2 * N - 1) - 4 * xo + 1 has no constant upper bound over its context (0 <= xo < (N + 3) / 4, N >= 8, N >= 1): it is unbounded (split it first, or give a factor: vectorize(x, 8))"},
	} {
		_, err := compileAlg(t, tc.src)
		el, ok := err.(syntax.ErrorList)
		if !ok || len(el) == 0 || !strings.HasPrefix(el[0].Error(), tc.want) {
			t.Errorf("got  %v\nwant %s", err, tc.want)
			continue
		}
		if el[0].Code != syntax.CodeUnsupported {
			t.Errorf("code %q, want unsupported", el[0].Code)
		}
	}
}

// TestFuzzDrawsBounded checks that the schedule fuzzer draws what this
// file compiles: specializations, unrolled or vectorised loops whose
// extent is not a constant (guarded loops in the kernel), bound_extent
// and fuses of loops whose inner extent is not a constant, among legal
// schedules that run.
func TestFuzzDrawsBounded(t *testing.T) {
	specs, guarded, extents, fuses := 0, 0, 0, 0
	for _, name := range []string{"stencils", "conv1d"} {
		_, err := FuzzSchedules(context.Background(), loadExample(t, name), 60, 36, func(tr Trial) bool {
			if strings.Contains(tr.Text, "specialize(") {
				specs++
			}
			if strings.Contains(tr.Text, "bound_extent(") {
				extents++
			}
			nested := strings.Contains(tr.Text, "fuse(") && !strings.Contains(tr.Text, "fold_storage(") && !strings.Contains(tr.Result.Kernels[0].Text, " % ")
			if nested {
				fuses++ // no fused index divided: two nested loops
			}
			bounded := boundedLoops(tr.Result.Kernels[0].Text)
			if bounded {
				guarded++
			}
			if bounded || nested || strings.Contains(tr.Text, "bound_extent(") {
				for i, params := range exampleParams(name) {
					if err := runKernel(tr.Result, params, uint64(i)); err != nil {
						t.Errorf("schedule %d: %v\n%s", tr.Index, err, tr.Text)
					}
				}
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if specs == 0 || guarded == 0 || extents == 0 || fuses == 0 {
		t.Errorf("%d schedules with a specialization, %d with a bounded unrolled or vectorised loop, %d with bound_extent, %d with nested fused loops: want some of each", specs, guarded, extents, fuses)
	}
}

// boundedLoops reports whether a kernel has a loop of bounded extent
// vectorised or unrolled (a par or for loop whose body opens with a guard
// on its variable) or unrolled as copies (a block opening with a guard).
func boundedLoops(k string) bool {
	lines := strings.Split(k, "\n")
	for i := 0; i+1 < len(lines); i++ {
		cur, next := strings.TrimSpace(lines[i]), strings.TrimSpace(lines[i+1])
		if f := strings.Fields(cur); len(f) > 1 && (f[0] == "par" || f[0] == "for") && strings.HasPrefix(next, "if "+f[1]+" <") {
			return true
		}
		if cur == "{" && strings.HasPrefix(next, "if ") && strings.Contains(next, " < ") {
			return true
		}
	}
	return false
}

// TestBoundExtent fixes the extent of a func's region computed per tile
// of a guarded split with bound_extent, as Halide's bound_extent: the rows
// of the blur's first stage start where bounds inference puts them and
// span 6, the tile and its halo even in the last, partial tile, so the
// unrolled loop over them needs no guard and the input is read over the
// rows of whole tiles. The kernel runs and validates; the same kernel with
// its region one row short is invalid.
func TestBoundExtent(t *testing.T) {
	r, err := compileAlg(t, `param W, H
input In(x, y) : f32
func BH(x, y) : f32 = In(x - 1, y) + In(x, y) + In(x + 1, y)
func Out(x, y) : f32 = (BH(x, y - 1) + BH(x, y) + BH(x, y + 1)) / 9
output Out over x in 0 .. W, y in 0 .. H
schedule {
  Out.split(y, yo, yi, 4)
  BH.compute_at(Out, yo).bound_extent(y, 6).unroll(y)
}
`)
	if err != nil {
		t.Fatal(detail(err))
	}
	k := r.Kernels[0].Text
	for _, want := range []string{
		"in  buf_In[x, y] : f32[W + 2, 4 * ((H + 3) / 4) + 2] = In(x - 1, y - 1)",
		"alloc buf_BH : f32[W, 6] {",
		"for y in 4 * yo - 1 .. 4 * yo + 5 {",
	} {
		if !strings.Contains(k, want) {
			t.Errorf("no %q in\n%s", want, k)
		}
	}
	if err := runKernel(r, map[string]int64{"W": 5, "H": 7}, 1); err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		return
	}
	validAndMutantInvalid(t, r, "4 * yo + 5 {", "4 * yo + 4 {", "the region one row short")
}

// TestFuseNested fuses two loops whose inner extent is not constant: the
// fused loop is the two loops nested, of the fused loop's kind, as the
// Halide front end splits Halide's fused loops back; a func computed at
// the fused loop is computed in the inner one. The kernel runs and
// validates; the same kernel with its inner loop one iteration short is
// invalid.
func TestFuseNested(t *testing.T) {
	r, err := compileAlg(t, errBlur+`
  Out.fuse(x, y, f).parallel(f)
  BH.compute_at(Out, f)
}
`)
	if err != nil {
		t.Fatal(detail(err))
	}
	k := r.Kernels[0].Text
	nest := "  par y < H {\n    par x < W {\n      alloc buf_BH : f32[1, 3] {"
	if !strings.Contains(k, nest) {
		t.Fatalf("no %q in\n%s", nest, k)
	}
	if err := runKernel(r, map[string]int64{"W": 5, "H": 3}, 1); err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		return
	}
	validAndMutantInvalid(t, r, "par x < W {", "par x < W - 1 {", "the inner loop one iteration short")
}

// validAndMutantInvalid checks that r's kernel validates and that the same
// kernel with its first old replaced by new (what names the mutation) is
// invalid.
func validAndMutantInvalid(t *testing.T, r *Result, old, new, what string) {
	t.Helper()
	k := r.Kernels[0].Text
	if rep := validatePair(t, r); rep.Verdict != validate.Valid {
		t.Fatalf("verdict %s, want valid\n%s", rep.Verdict, k)
	}
	mutant := *r
	mutant.Pair.Kernels = append(mutant.Pair.Kernels[:0:0], r.Kernels...)
	mutant.Kernels[0].Text = strings.Replace(k, old, new, 1)
	if mutant.Kernels[0].Text == k {
		t.Fatalf("%s does not apply to\n%s", what, k)
	}
	if rep := validatePair(t, &mutant); rep.Verdict != validate.Invalid {
		t.Fatalf("verdict %s for %s, want invalid", rep.Verdict, what)
	}
}
