package encode

import (
	"context"
	"flag"
	"math/rand/v2"
	"testing"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

var diffCases = flag.Int("diff-cases", 3000, "random expressions of the differential test against package value")

// noEnv is an environment without names, tensors or arrays.
type noEnv struct{}

func (noEnv) Index(string) (int64, bool) { return 0, false }
func (noEnv) Tensor(string, []int64) (value.Value, error) {
	return value.Value{}, errNoEnv
}
func (noEnv) Array(string, []int64) (value.Value, error) { return value.Value{}, errNoEnv }

var errNoEnv = &syntax.Error{Msg: "no tensors"}

func newContext(t testing.TB) *smt.Context {
	t.Helper()
	z, err := smt.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { z.Close() })
	return z
}

// newEncoder returns a new context, an encoder in it over no
// specification in the given model, and a solver in it; the context and
// the solver are closed when the test ends.
func newEncoder(t testing.TB, model Model) (*smt.Context, *Encoder, *smt.Solver) {
	t.Helper()
	z := newContext(t)
	s, err := z.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return z, New(z, &sare.Spec{}, expr.NewInfo(), model), s
}

// emptyModel is a model of no assertions, in which closed terms evaluate.
func emptyModel(t testing.TB, z *smt.Context) *smt.Model {
	t.Helper()
	s, err := z.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if r, err := s.Check(context.Background()); r != smt.Sat || err != nil {
		t.Fatalf("empty check: %v %v", r, err)
	}
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDifferentialIEEE encodes random closed expressions of every type, with
// every operator, builtin (but the uninterpreted ones) and cast, in the IEEE
// model, and checks that Z3's value and definedness are value's, bit for bit.
// Every 25th case is also decided by the solver rather than evaluated.
func TestDifferentialIEEE(t *testing.T) {
	z, e, s := newEncoder(t, IEEE)
	m := emptyModel(t, z)
	r := rand.New(rand.NewPCG(1, 2))
	var undefined, failures int
	for i := range *diffCases {
		g := &exprGen{r: r, types: map[syntax.Expr]syntax.Type{}}
		typ := allTypes[i%len(allTypes)]
		x := g.expr(typ, 1+r.IntN(4))
		want, err := expr.EvalValue(x, &expr.Info{Types: g.types}, noEnv{})
		if err != nil {
			t.Fatalf("value of %s: %v", syntax.ExprString(x), err)
		}
		val, def, err := e.Expr(x, g.types, nil, ExprOptions{})
		if err != nil {
			t.Fatalf("encode %s: %v", syntax.ExprString(x), err)
		}
		isDef, err := m.Bool(def)
		if err != nil {
			t.Fatalf("definedness of %s: %v", syntax.ExprString(x), err)
		}
		if isDef == want.IsUndef() {
			t.Errorf("%s: %s: defined %v, value says %#v", typ, syntax.ExprString(x), isDef, want)
			failures++
		} else if isDef {
			got, err := e.Value(m, val, typ)
			if err != nil {
				t.Fatalf("value of %s: %v", syntax.ExprString(x), err)
			}
			if !got.Equal(want) {
				t.Errorf("%s: %s = %#v, value says %#v", typ, syntax.ExprString(x), got, want)
				failures++
			}
		} else {
			undefined++
		}
		if i%25 == 0 {
			solveSame(t, e, s, x, val, def, want)
		}
		if failures > 10 {
			t.Fatal("too many failures")
		}
	}
	t.Logf("%d cases, %d undefined", *diffCases, undefined)
}

// solveSame checks with the solver that val is want (or that def fails).
func solveSame(t *testing.T, e *Encoder, s *smt.Solver, x syntax.Expr, val, def *smt.Term, want value.Value) {
	t.Helper()
	var claim *smt.Term
	if want.IsUndef() {
		claim = def.Not()
	} else {
		k, err := e.constant(want)
		if err != nil {
			t.Fatal(err)
		}
		eq, err := e.Equal(val, k, want.Type())
		if err != nil {
			t.Fatal(err)
		}
		claim = def.And(eq)
	}
	if r := check(t, s, claim.Not()); r != smt.Unsat {
		t.Errorf("solver: %s is not %#v: %v", syntax.ExprString(x), want, r)
	}
}

// check decides the formulas in a scope of s.
func check(t testing.TB, s *smt.Solver, fs ...*smt.Term) smt.Result {
	t.Helper()
	if err := s.Push(); err != nil {
		t.Fatal(err)
	}
	defer s.Pop(1)
	if err := s.Assert(fs...); err != nil {
		t.Fatal(err)
	}
	r, err := s.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return r
}
