package encode

import (
	"errors"
	"maps"
	"os"
	"slices"
	"testing"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
)

// loadMatmul loads examples/matmul/matmul.sare with extra tensor
// declarations appended, whose equations carry the test's expressions
// (typed by the checker).
func loadMatmul(t *testing.T, extra string) (*sare.Spec, *expr.Info) {
	t.Helper()
	text, err := os.ReadFile("../../examples/matmul/matmul.sare")
	if err != nil {
		t.Fatal(err)
	}
	spec, info, err := sare.Load(&syntax.Source{Name: "matmul.sare", Text: string(text) + "\n" + extra})
	if err != nil {
		t.Fatal(err)
	}
	return spec, info
}

// rhs is the right-hand side of the first equation of the tensor called name.
func rhs(t *testing.T, spec *sare.Spec, name string) syntax.Expr {
	t.Helper()
	tensor := spec.Tensor(name)
	if tensor == nil || len(tensor.Eqs) == 0 {
		t.Fatalf("no equation of %s", name)
	}
	return tensor.Eqs[0].RHS
}

// names resolves every index name to an Int constant of that name.
func names(z *smt.Context) Index {
	return func(name string) (*smt.Term, bool) { return z.IntConst(name), true }
}

// proves reports whether Z3 shows that, under the constraint where (over
// i, j, k and the parameters, with the specification's assumptions),
// tensor a's equation equals tensor b's, both defined.
func proves(t *testing.T, e *Encoder, spec *sare.Spec, info *expr.Info, where string, a, b string, opts ExprOptions) smt.Result {
	t.Helper()
	z := e.z
	idx := names(z)
	var facts []*smt.Term
	for _, as := range spec.Assumes {
		k, err := e.Constraint(as.Cond, idx)
		if err != nil {
			t.Fatal(err)
		}
		facts = append(facts, k)
	}
	w, err := syntax.ParseExprString(where)
	if err != nil {
		t.Fatal(err)
	}
	k, err := e.Constraint(w, idx)
	if err != nil {
		t.Fatal(err)
	}
	facts = append(facts, k)
	av, ad, err := e.Expr(rhs(t, spec, a), info.Types, idx, opts)
	if err != nil {
		t.Fatal(err)
	}
	bv, bd, err := e.Expr(rhs(t, spec, b), info.Types, idx, opts)
	if err != nil {
		t.Fatal(err)
	}
	eq, err := e.Equal(av, bv, spec.Tensor(a).Type)
	if err != nil {
		t.Fatal(err)
	}
	// Not NewSolverForLogic("QF_FP"): it is fast, but reads Int and its
	// arithmetic as uninterpreted, and finds bogus models.
	s, err := z.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SetResourceLimit(ieeeSatResources); err != nil {
		t.Fatal(err)
	}
	return check(t, s, append(facts, z.And(ad, bd, eq).Not())...)
}

const matmulStep = `
tensor Impl(i, j, k) : f32
Impl(i, j, k) = R(i, j, k - 1) + A(i, k) * B(k, j)
tensor Wrong(i, j, k) : f32
Wrong(i, j, k) = R(i, j, k - 1) - A(i, k) * B(k, j)
tensor Spec(i, j, k) : f32
Spec(i, j, k) = R(i, j, k)
tensor Two(i, j) : f32
Two(i, j) = (0 + A(i, 0) * B(0, j)) + A(i, 1) * B(1, j)
tensor Spec2(i, j) : f32
Spec2(i, j) = R(i, j, 1)
`

func onlyR(name string) bool { return name == "R" }

// ieeeSatResources bounds every query, in Z3's resource units (not time,
// so that the answers do not depend on the machine's load). Satisfiable
// IEEE queries over unfolded tensors bit-blast several f32 products and
// sums and take Z3 far more; the tests accept Unknown for them (not proved
// is what matters), and check satisfiability itself in the Real model.
const ieeeSatResources = 2_000_000

// notProved reports that r does not prove a query that must not be
// proved: sat, or in IEEE unknown (a satisfiable IEEE query may need more
// than ieeeSatResources).
func notProved(m Model, r smt.Result) bool { return r == smt.Sat || m == IEEE && r == smt.Unknown }

// TestUnfoldMatmul: the recurrence of matmul is proved when R may be
// unfolded, in either order of encoding the two sides, and not otherwise;
// a wrong step is never proved.
func TestUnfoldMatmul(t *testing.T) {
	spec, info := loadMatmul(t, matmulStep)
	for _, model := range []Model{IEEE, Real} {
		for _, order := range [][2]string{{"Impl", "Spec"}, {"Spec", "Impl"}} {
			e := New(newContext(t), spec, info, model)
			if r := proves(t, e, spec, info, "0 <= k < P", order[0], order[1], ExprOptions{Unfold: onlyR}); r != smt.Unsat {
				t.Errorf("%v, %s then %s: not proved (%v)", model, order[0], order[1], r)
			}
		}
		e := New(newContext(t), spec, info, model)
		if r := proves(t, e, spec, info, "0 <= k < P", "Impl", "Spec", ExprOptions{}); !notProved(model, r) {
			t.Errorf("%v: proved (or %v) without unfolding", model, r)
		}
		if r := proves(t, e, spec, info, "0 <= k < P", "Wrong", "Spec", ExprOptions{}); !notProved(model, r) {
			t.Errorf("%v: R(k-1) - A*B = R(k) is %v without unfolding", model, r)
		}
		for _, opts := range []ExprOptions{{Unfold: onlyR}, {Unfold: onlyR, Depth: 4}} {
			e.ResetUnfoldings()
			if r := proves(t, e, spec, info, "0 <= k < P", "Wrong", "Spec", opts); !notProved(model, r) {
				t.Errorf("%v: R(k-1) - A*B = R(k) is %v with depth %d", model, r, opts.Depth)
			}
		}
		// The step at k = P is outside R's second equation: not proved.
		if r := proves(t, e, spec, info, "k == P", "Impl", "Spec", ExprOptions{Unfold: onlyR}); !notProved(model, r) {
			t.Errorf("%v: the step outside the domain is %v", model, r)
		}
	}
}

// TestUnfoldDepth: R(i, j, 1) unfolds to 0 + A*B + A*B only three levels
// deep (R(1), R(0), R(-1)).
func TestUnfoldDepth(t *testing.T) {
	spec, info := loadMatmul(t, matmulStep)
	for _, model := range []Model{Real, IEEE} {
		for _, depth := range []int{0, 1, 2, 3, 5} {
			if model == IEEE && depth < 3 {
				continue // slow to refute (see ieeeSatResources)
			}
			e := New(newContext(t), spec, info, model)
			r := proves(t, e, spec, info, "P >= 2", "Two", "Spec2", ExprOptions{Unfold: onlyR, Depth: depth})
			if want := depth >= 3; want && r != smt.Unsat || !want && r != smt.Sat {
				t.Errorf("%v, depth %d: %v", model, depth, r)
			}
		}
	}
}

// TestUnfoldings: R(i, j, 1) needs three accesses unfolded (R(1),
// R(0), R(-1)); with fewer allowed (ExprOptions.Unfoldings), the rest are
// cut off and the equation is not proved, whatever the depth.
func TestUnfoldings(t *testing.T) {
	spec, info := loadMatmul(t, matmulStep)
	for _, n := range []int{1, 2, 3, 0} {
		e := New(newContext(t), spec, info, Real)
		r := proves(t, e, spec, info, "P >= 2", "Two", "Spec2", ExprOptions{Unfold: onlyR, Depth: 8, Unfoldings: n})
		want, cut := smt.Sat, 1
		if n == 0 || n >= 3 {
			want, cut = smt.Unsat, 0
		}
		if r != want || (e.CutOffs() > 0) != (cut > 0) {
			t.Errorf("at most %d unfoldings: %v with %d cut off, want %v", n, r, e.CutOffs(), want)
		}
	}
}

func TestDependencies(t *testing.T) {
	spec, info := loadMatmul(t, "")
	e := New(newContext(t), spec, info, IEEE)
	for name, want := range map[string][]string{"R": {"A", "B"}, "C": {"A", "B", "R"}, "A": nil} {
		got := slices.Sorted(maps.Keys(e.Dependencies(name)))
		if !slices.Equal(got, want) {
			t.Errorf("Dependencies(%s) = %v, want %v", name, got, want)
		}
	}
	// Mutual recursion: X depends on Y, and Y on X and A; X itself is
	// left out.
	spec, info = loadMatmul(t, "tensor X(i) : f32\nX(i) = Y(i - 1) where i > 0\ntensor Y(i) : f32\nY(i) = X(i) + A(i, i)\n")
	e = New(newContext(t), spec, info, IEEE)
	if got := slices.Sorted(maps.Keys(e.Dependencies("X"))); !slices.Equal(got, []string{"A", "Y"}) {
		t.Errorf("Dependencies(X) = %v", got)
	}
}

// TestSetDone: an encoding that unfolds stops with ErrInterrupted once
// the channel of SetDone is closed, and encodes as before while it is
// open.
func TestSetDone(t *testing.T) {
	spec, info := loadMatmul(t, matmulStep)
	e := New(newContext(t), spec, info, Real)
	done := make(chan struct{})
	e.SetDone(done)
	idx := names(e.z)
	opts := ExprOptions{Unfold: onlyR, Depth: 8}
	if _, _, err := e.Expr(rhs(t, spec, "Spec2"), info.Types, idx, opts); err != nil {
		t.Fatalf("open: %v", err)
	}
	close(done)
	e.ResetUnfoldings()
	if _, _, err := e.Expr(rhs(t, spec, "Spec2"), info.Types, idx, opts); !errors.Is(err, ErrInterrupted) {
		t.Errorf("closed: error %v, want %v", err, ErrInterrupted)
	}
}
