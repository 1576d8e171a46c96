package compiler

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// reductionAlgs lists examples/reductions/alg/, the algorithms scheduled
// with atomic() and rfactor, with the parameters of their '# augur run:'
// line (their verdicts are checked through augur compile --validate, in
// cmd/augur).
func reductionAlgs(t *testing.T) map[string]map[string]int64 {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "reductions", "alg", "*.alg"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]int64{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		params := map[string]int64{}
		for _, line := range strings.Split(string(data), "\n") {
			rest, ok := strings.CutPrefix(line, "# augur run:")
			if !ok {
				continue
			}
			fields := strings.Fields(rest)
			for i := 0; i+1 < len(fields); i += 2 {
				k, v, _ := strings.Cut(fields[i+1], "=")
				n, err := strconv.ParseInt(v, 10, 64)
				if fields[i] != "--param" || err != nil {
					t.Fatalf("%s: bad '# augur run:' line %q", f, line)
				}
				params[k] = n
			}
		}
		if len(params) == 0 {
			t.Fatalf("%s: no '# augur run:' line", f)
		}
		out["reductions/alg/"+strings.TrimSuffix(filepath.Base(f), ".alg")] = params
	}
	if len(out) < 9 {
		t.Fatalf("found only %d reduction algorithms", len(out))
	}
	return out
}

// TestReductionAlgsRun compiles every reduction algorithm and runs its
// kernel with the interpreter at its run parameters and with every
// parameter 1 (empty partial results, tails longer than the loop): every
// annotation, accumulation and merge must be accepted.
func TestReductionAlgsRun(t *testing.T) {
	for name, params := range reductionAlgs(t) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			r := compileFile(t, name)
			ones := map[string]int64{}
			for k := range params {
				ones[k] = 1
			}
			for i, ps := range []map[string]int64{params, ones} {
				if err := runKernel(r, ps, uint64(i+1)); err != nil {
					t.Fatalf("params %v: %v\n%s\n%s", ps, err, r.Spec, r.Kernels[0].Text)
				}
			}
		})
	}
}

// TestRFactorKernel: the dot product's specification is the user's
// reduction over the whole RDom, and its kernel the intermediate's four
// partial results, accumulated at their positions in a parallel loop, then
// merged.
func TestRFactorKernel(t *testing.T) {
	r := compileFile(t, "reductions/alg/dot_rfactor_par")
	const spec = `tensor D() : f32
D() = reduce(+, r_k in 0 .. N, A(r_k) * B(r_k))
`
	if !strings.Contains(r.Spec, spec) || strings.Contains(r.Spec, "D_intm") {
		t.Errorf("specification\n%s\nwant it to contain\n%s", r.Spec, spec)
	}
	const kernel = `{
  alloc buf_D_intm : f32[4] {
    for u < 4 {
      buf_D_intm[u] {D() @ ()} := 0
    }
    par u < 4 {
      for r_ko < (N + 3) / 4 {
        if 4 * r_ko + u < N {
          buf_D_intm[u] {D() @ (4 * r_ko + u)} += buf_A[4 * r_ko + u] * buf_B[4 * r_ko + u]
        }
      }
    }
    buf_D[] {D() @ ()} := 0
    for r_ki < 4 {
      buf_D[] {D()} += buf_D_intm[r_ki]
    }
  }
}
`
	if got := r.Kernels[0].Text[strings.Index(r.Kernels[0].Text, "\n{")+1:]; got != kernel {
		t.Errorf("kernel\n%s\nwant\n%s", got, kernel)
	}
}

// Small algorithms for TestReductionScheduleErrors; the directive of a
// case is on line 8.
const (
	// a float sum into a scalar
	redDot = `param N
input A(k) : f32
input B(k) : f32
func D() : f32 = 0
rdom r(k in 0 .. N)
D() += A(r.k) * B(r.k)
output D
schedule {`
	// row sums
	redRows = `param W, H
input A(x, y) : f32
func R(y) : f32 = 0
rdom r(x in 0 .. W)
R(y) += A(r.x, y)
output R over y in 0 .. H
schedule {
`
)

// TestReductionScheduleErrors: a schedule that atomic() or rfactor cannot
// apply to is rejected with an error positioned at the directive, naming
// the rule, of code schedule (undeclared for a func that does not exist
// yet).
func TestReductionScheduleErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"atomic on the pure definition", redDot + "\n  D.atomic()",
			"t.alg:9:5: D.atomic(): atomic applies to an update stage: D.update(0).atomic(...)"},
		{"subtraction", strings.Replace(redDot, "D() +=", "D() -=", 1) + "\n  D.update(0).atomic()",
			"t.alg:9:15: D.update(0).atomic(): atomic needs an associative and commutative update: F(x) += e, F(x) *= e, or F(x) = OP(F(x), e) with min, max, +, *, &, | or ^ (this update is D() -= A(r.k) * B(r.k))"},
		{"not the identity", strings.Replace(redDot, "f32 = 0", "f32 = 1", 1) + "\n  D.update(0).atomic()",
			"t.alg:9:15: D.update(0).atomic(): atomic needs the pure definition of D to be the identity of +, 0; it is 1"},
		{"accumulator read in the value", strings.Replace(redDot, "D() += A(r.k) * B(r.k)", "D() = D() + D() * A(r.k)", 1) + "\n  D.update(0).atomic()",
			"t.alg:9:15: D.update(0).atomic(): atomic needs an update that reads D only as its accumulator D()"},
		{"float max", strings.Replace(strings.Replace(redDot, "D() += A(r.k) * B(r.k)", "D() = max(D(), A(r.k))", 1), "f32 = 0", "f32 = -1", 1) + "\n  D.update(0).atomic()",
			"t.alg:9:15: D.update(0).atomic(): a max reduction of floats starts from an infinite identity"},
		{"parallel reduction without atomic", redDot + "\n  D.update(0).parallel(r.k)",
			"t.alg:9:15: D.update(0).parallel(r.k): r.k is a reduction loop: only pure loops may run in parallel"},
		{"rfactor of a pure loop", redRows + "  R.update(0).rfactor(y, u)",
			"t.alg:8:15: R.update(0).rfactor(y, u): y is not a reduction loop of R.update(0) (its reduction loops, innermost first: r.x)"},
		{"rfactor after a pure directive", redRows + "  R.update(0).parallel(y).rfactor(r.x, u)",
			"t.alg:8:27: R.update(0).rfactor(r.x, u): rfactor must come before the other directives of R.update(0) (the pure loop y is already scheduled)"},
		{"rfactor to a taken name", redRows + "  R.update(0).rfactor(r.x, y)",
			"t.alg:8:15: R.update(0).rfactor(r.x, y): y is already a name of the algorithm: the new pure variable needs a new name"},
		{"rfactor chained", redDot + "\n  D.update(0).split(r.k, ko, ki, 4).rfactor(ki, u).parallel(u)",
			"t.alg:9:37: D.update(0).rfactor(ki, u): rfactor ends its chain: schedule the intermediate D_intm, and D.update(0), on lines of their own"},
		{"rfactor twice to one name", redDot + "\n  D.update(0).split(r.k, ko, ki, 4).rfactor(ki, u)\n  D.update(0).rfactor(r.ki, v)",
			"t.alg:10:15: D.update(0).rfactor(r.ki, v): D_intm cannot name the intermediate func: it must be a new name"},
		{"rfactor of the pure definition", redDot + "\n  D.rfactor(r.k, u)",
			"t.alg:9:5: D.rfactor(r.k, u): rfactor applies to the update of a func: D.update(0).rfactor(r.k, u)"},
		{"intermediate scheduled before it exists", redDot + "\n  D_intm.parallel(u)\n  D.update(0).rfactor(r.k, u)",
			"t.alg:9:3: schedule of D_intm, which is not a func"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.src + "\n}\n"
			p, err := alg.Load(&syntax.Source{Name: "t.alg", Text: src})
			if err == nil {
				_, err = Compile(context.Background(), p, "t", Options{})
			}
			if err == nil {
				t.Fatalf("no error for\n%s", src)
			}
			el, ok := err.(syntax.ErrorList)
			if !ok || len(el) == 0 || !strings.HasPrefix(el[0].Error(), tc.want) {
				t.Fatalf("for\n%s\ngot  %v\nwant %s", src, err, tc.want)
			}
			code := syntax.CodeSchedule
			if strings.Contains(tc.want, "which is not a func") {
				code = syntax.CodeUndeclared
			}
			if el[0].Code != code {
				t.Errorf("code %q, want %q", el[0].Code, code)
			}
		})
	}
}

// TestReductionInjectionsNotApplicable: the reduction injections need a
// reduction (and, but for the identity, an rfactor).
func TestReductionInjectionsNotApplicable(t *testing.T) {
	for _, tc := range []struct{ example, inject string }{
		{"conv1d_split", InjectReductionIdentity},
		{"reductions/alg/dot_atomic", InjectMergeOperator},
		{"reductions/alg/dot_atomic", InjectReductionSkipTail},
	} {
		_, err := Compile(context.Background(), loadExample(t, tc.example), "k", Options{Inject: tc.inject})
		if !errors.Is(err, ErrNotApplicable) {
			t.Errorf("%s on %s: %v, want ErrNotApplicable", tc.inject, tc.example, err)
		}
	}
}

// TestRFactorShapes compiles rfactor and atomic() schedules of other
// shapes: an RDom of two variables with a predicate reading a pure
// variable, rfactor of the outer loop of a split (contiguous chunks),
// a fused pair of reduction loops with xor, and a product with its pure
// loop parallel and its reduction loop vectorised. Each kernel runs at two
// parameter sets and, but with -short, validates.
func TestRFactorShapes(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		params    [2]map[string]int64
	}{
		{"two variables", `param W, H
input A(x, y) : i32
func T(x) : i32 = 0
rdom r(i in 0 .. W, j in 0 .. H)
T(x) += A(r.i + x, r.j) where r.i != x % 3
output T over x in 0 .. 5
schedule {
  T.update(0).rfactor(r.j, v)
  T_intm.update(0).parallel(v)
}
`, [2]map[string]int64{{"W": 1, "H": 1}, {"W": 4, "H": 3}}},
		{"outer loop", `param N
input A(k) : f32
func D() : f32 = 0
rdom r(k in 0 .. N)
D() += A(r.k)
output D
schedule {
  D.update(0).split(r.k, ko, ki, 16).rfactor(ko, c)
  D_intm.update(0).vectorize(r.ki)
  D.update(0).parallel(r.ko)
}
`, [2]map[string]int64{{"N": 1}, {"N": 37}}},
		{"fused xor", `param N
input A(k, j) : i32
func D() : i32 = 0
rdom r(j in 0 .. 3, k in 0 .. N)
D() = D() ^ A(r.k, r.j)
output D
schedule {
  D.update(0).fuse(r.j, r.k, f).split(f, fo, fi, 4).rfactor(fi, u)
  D_intm.update(0).parallel(u)
}
`, [2]map[string]int64{{"N": 1}, {"N": 7}}},
		{"atomic product", `param N
input A(k) : i32
func D(x) : i32 = 1
rdom r(k in 0 .. N)
D(x) *= A(r.k + x)
output D over x in 0 .. 4
schedule {
  D.update(0).atomic().parallel(x).vectorize(r.k, 4)
}
`, [2]map[string]int64{{"N": 1}, {"N": 11}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := alg.Load(&syntax.Source{Name: "t.alg", Text: tc.src})
			if err != nil {
				t.Fatal(detail(err))
			}
			r, err := Compile(context.Background(), p, "t", Options{})
			if err != nil {
				t.Fatal(detail(err))
			}
			for i, ps := range tc.params {
				if err := runKernel(r, ps, uint64(i+1)); err != nil {
					t.Fatalf("params %v: %v\n%s\n%s", ps, err, r.Spec, r.Kernels[0].Text)
				}
			}
			if testing.Short() {
				return
			}
			if rep := validatePair(t, r); rep.Verdict != validate.Valid {
				t.Errorf("verdict %s (%s), want valid\n%s\n%s", rep.Verdict, rep.Reason, r.Spec, r.Kernels[0].Text)
			}
		})
	}
}
