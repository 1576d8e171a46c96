package encode

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// indexEnv binds index names to integers.
type indexEnv map[string]int64

func (env indexEnv) Index(name string) (int64, bool) { n, ok := env[name]; return n, ok }
func (indexEnv) Tensor(string, []int64) (value.Value, error) {
	return value.Value{}, errNoEnv
}
func (indexEnv) Array(string, []int64) (value.Value, error) { return value.Value{}, errNoEnv }

func randomIndex(r *rand.Rand, d int) string {
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	if d <= 0 || r.IntN(3) == 0 {
		return pick("i", "j", "N", "0", "1", "-2", "7", "0x10")
	}
	a, b := randomIndex(r, d-1), randomIndex(r, d-1)
	switch r.IntN(8) {
	case 0:
		return a + " + " + b
	case 1:
		return a + " - (" + b + ")"
	case 2:
		return pick("2", "3", "-1") + " * (" + a + ")"
	case 3:
		return "(" + a + ") / " + pick("1", "2", "4", "(1 + 2)")
	case 4:
		return "(" + a + ") % " + pick("1", "3", "8")
	case 5:
		return "min(" + a + ", " + b + ")"
	case 6:
		return "max(" + a + ", " + b + ")"
	}
	return "select(" + randomCond(r, d-1) + ", " + a + ", " + b + ")"
}

func randomCond(r *rand.Rand, d int) string {
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	switch r.IntN(6) {
	case 0:
		if d > 0 {
			return "(" + randomCond(r, d-1) + " " + pick("and", "or", "&&", "||") + " " + randomCond(r, d-1) + ")"
		}
	case 1:
		if d > 0 {
			return "not (" + randomCond(r, d-1) + ")"
		}
	case 2:
		return randomIndex(r, d) + " <= " + randomIndex(r, d) + " < " + randomIndex(r, d)
	case 3:
		return pick("true", "false")
	}
	return randomIndex(r, d) + " " + pick("==", "!=", "<", "<=", ">", ">=") + " " + randomIndex(r, d)
}

// TestIndexDifferential compares IndexExpr and Constraint with
// expr.EvalIndex and expr.EvalCond on random expressions and points.
func TestIndexDifferential(t *testing.T) {
	z := newContext(t)
	e := New(z, &sare.Spec{}, expr.NewInfo(), IEEE)
	m := emptyModel(t, z)
	r := rand.New(rand.NewPCG(7, 8))
	for n := range 400 {
		env := indexEnv{"i": r.Int64N(21) - 10, "j": r.Int64N(21) - 10, "N": r.Int64N(9)}
		idx := func(name string) (*smt.Term, bool) {
			v, ok := env[name]
			return z.Int(v), ok
		}
		text := randomIndex(r, 3)
		if n%2 == 1 {
			text = randomCond(r, 3)
		}
		x, err := syntax.ParseExprString(text)
		if err != nil {
			t.Fatal(err)
		}
		var got, want string
		if n%2 == 0 {
			w, err := expr.EvalIndex(x, env)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			k, err := e.IndexExpr(x, idx)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			v, err := m.Int64(k)
			got, want = fmt.Sprint(v, err), fmt.Sprint(w, nil)
		} else {
			w, err := expr.EvalCond(x, env)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			k, err := e.Constraint(x, idx)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			v, err := m.Bool(k)
			got, want = fmt.Sprint(v, err), fmt.Sprint(w, nil)
		}
		if got != want {
			t.Errorf("%s at %v: %s, want %s", text, env, got, want)
		}
	}
}

func TestIndexErrors(t *testing.T) {
	z := newContext(t)
	e := New(z, &sare.Spec{}, expr.NewInfo(), IEEE)
	idx := names(z)
	for _, text := range []string{"i / 0", "i % -2", "i / j", "i < j", "1.5", "i & 1", "A(i)"} {
		x, err := syntax.ParseExprString(text)
		if err != nil {
			t.Fatal(err)
		}
		if k, err := e.IndexExpr(x, idx); err == nil {
			t.Errorf("IndexExpr(%s) = %v, no error", text, k)
		}
	}
	for _, text := range []string{"i", "i + 1", "select(true, 1 < 2, 3 < 4)"} {
		x, _ := syntax.ParseExprString(text)
		if k, err := e.Constraint(x, idx); err == nil {
			t.Errorf("Constraint(%s) = %v, no error", text, k)
		}
	}
	x, _ := syntax.ParseExprString("i + undefinedName")
	none := func(name string) (*smt.Term, bool) { return z.IntConst(name), name == "i" }
	if _, err := e.IndexExpr(x, none); err == nil {
		t.Error("unknown name: no error")
	}
}
