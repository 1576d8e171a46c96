package symeval

import (
	"context"
	"testing"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

const contextSpec = `
param N
assume N >= 1
input A(i, k) : f32
input B(k, j) : f32
input D(i) : f64
tensor R(i, j, k) : f32
R(i, j, k) = 0 where k == -1
R(i, j, k) = R(i, j, k - 1) + A(i, k) * B(k, j) where 0 <= k < N
tensor C(i, j) : f32
C(i, j) = R(i, j, N - 1)
output C
`

const contextKernel = `
kernel contexts(N)
assume N >= 1
in  a[i, k] : f32[N, N] = A(i, k)
in  b[k, j] : f32[N, N] = B(k, j)
out c[i, j] : f32[N, N] = C(i, j)
{
  alloc d : f64[N] {
    for i < N {
      for j < N {
        for k < N {
          c[i, j] {A(i, k) * B(k, j)} := a[i, k] * b[k, j]
          c[i, j] {A(i, k + 1) * B(k + 1, j)} := a[i, k] * b[k, j]
          c[i, j] {A(i, k) * B(j, j)} := a[i, k] * b[k, j]
          c[i, j] {R(i, j, -1)} := 0
          c[i, j] {R(i, j, k)} := 0
          c[i, j] {0} := 0
          d[i] {0} := 0
          c[i, j] {A(i, min(k, N - 1)) * f32(i < k)} := 0
          c[i, j] {select(i + 1 < N, A(i, k), B(k, 2 * j))} := 0
        }
      }
    }
  }
}
`

// annotations returns the annotations of the kernel's assignments in
// source order.
func annotations(k *sched.Kernel) []syntax.Expr {
	var out []syntax.Expr
	sched.Walk(k.Body, func(s sched.Stmt) bool {
		if a, ok := s.(*sched.Assign); ok {
			out = append(out, a.Annot)
		}
		return true
	})
	return out
}

// TestDecompose checks decomposition, hole fusion, interning and printing
// of expression contexts.
func TestDecompose(t *testing.T) {
	p := loadPair(t, "contexts.sare", contextSpec, "contexts.sched", contextKernel)
	s := NewScope([]string{"N"})
	s, _ = s.With("i")
	s, _ = s.With("j")
	s, _ = s.With("k")
	cs := NewContexts()
	want := []struct{ ctx, value string }{
		{"A(□1, □2) * B(□2, □3)", "A(□1, □2) * B(□2, □3)⟨i, k, j⟩"},
		{"A(□1, □2) * B(□2, □3)", "A(□1, □2) * B(□2, □3)⟨i, k + 1, j⟩"},
		{"A(□1, □2) * B(□3, □3)", "A(□1, □2) * B(□3, □3)⟨i, k, j⟩"},
		{"R(□1, □2, □3)", "R(□1, □2, □3)⟨i, j, -1⟩"},
		{"R(□1, □2, □3)", "R(□1, □2, □3)⟨i, j, k⟩"},
		{"0", "0⟨⟩"},
		{"0", "0⟨⟩"},
		// min(k, N - 1) equals k only where k < N: holes are fused only
		// when their expressions are syntactically equal.
		{"A(□1, □2) * f32(□1 < □3)", "A(□1, □2) * f32(□1 < □3)⟨i, min(k, N - 1), k⟩"},
		{"select(□1 < □2, A(□3, □4), B(□4, □5))", "select(□1 < □2, A(□3, □4), B(□4, □5))⟨i + 1, N, i, k, 2 * j⟩"},
	}
	var got []*SymbolicValue
	for i, x := range annotations(p.kernel) {
		v, err := cs.Decompose(x, p.kinfo.Types, s)
		if err != nil {
			t.Fatalf("%s: %v", syntax.ExprString(x), err)
		}
		if v.Context.String() != want[i].ctx || v.String() != want[i].value {
			t.Errorf("%s: context %s, value %s; want %s, %s", syntax.ExprString(x), v.Context, v, want[i].ctx, want[i].value)
		}
		got = append(got, v)
	}
	if len(got) != len(want) {
		t.Fatalf("%d annotations, want %d", len(got), len(want))
	}
	same := func(a, b int, eq bool) {
		t.Helper()
		if (got[a].Context == got[b].Context) != eq || (got[a].Context.Name == got[b].Context.Name) != eq {
			t.Errorf("%s (%s) and %s (%s): same context %v, want %v", got[a], got[a].Context.Name, got[b], got[b].Context.Name, !eq, eq)
		}
	}
	same(0, 1, true)  // equal contexts are interned once
	same(0, 2, false) // fused holes differ
	same(3, 4, true)
	same(5, 6, false) // 0 as f32 and 0 as f64 are different contexts
	if got[5].Context.Type != syntax.F32 || got[6].Context.Type != syntax.F64 {
		t.Errorf("literal contexts typed %s and %s", got[5].Context.Type, got[6].Context.Type)
	}
	if n := len(cs.All()); n != 7 {
		t.Errorf("%d contexts interned, want 7", n)
	}
	// Filling a context gives back the annotation at a point.
	e, err := got[3].Context.Fill([]int64{1, 2, -1})
	if err != nil || syntax.ExprString(e) != "R(1, 2, -1)" {
		t.Errorf("fill: %v %v", e, err)
	}
	if _, err := got[3].Context.Fill([]int64{1}); err == nil {
		t.Error("fill with too few values: no error")
	}
}

// TestContextEval checks that a context evaluated at hole values is the
// annotation evaluated at the corresponding point.
func TestContextEval(t *testing.T) {
	ctx := context.Background()
	p := loadPair(t, "contexts.sare", contextSpec, "contexts.sched", contextKernel)
	ev, err := sare.NewEvaluator(p.spec, p.sinfo, map[string]int64{"N": 3}, sare.RandomInputs(5))
	if err != nil {
		t.Fatal(err)
	}
	env := ev.Env(ctx)
	cs := NewContexts()
	s := NewScope([]string{"N"})
	s, _ = s.With("i")
	s, _ = s.With("j")
	s, _ = s.With("k")
	for _, x := range annotations(p.kernel) {
		v, err := cs.Decompose(x, p.kinfo.Types, s)
		if err != nil {
			t.Fatal(err)
		}
		for i := int64(0); i < 3; i++ {
			for k := int64(0); k < 3; k++ {
				pt := mapEnv{"N": 3, "i": i, "j": 1, "k": k}
				vals := make([]int64, len(v.srcs))
				for h, src := range v.srcs {
					if vals[h], err = expr.EvalIndex(src, pt); err != nil {
						t.Fatal(err)
					}
				}
				got, err := v.Context.Eval(vals, env)
				if err != nil {
					t.Fatal(err)
				}
				want, err := expr.EvalValue(x, p.kinfo.Types, pointEnv{pt, env})
				if err != nil {
					t.Fatal(err)
				}
				if !got.Equal(want) {
					t.Errorf("%s at %v: context %s%v = %v, annotation %v", syntax.ExprString(x), pt, v.Context, vals, got, want)
				}
			}
		}
	}
}

// pointEnv binds index names and reads tensors through env.
type pointEnv struct {
	idx mapEnv
	env expr.Env
}

func (p pointEnv) Index(name string) (int64, bool) { return p.idx.Index(name) }
func (p pointEnv) Tensor(name string, idx []int64) (value.Value, error) {
	return p.env.Tensor(name, idx)
}
func (p pointEnv) Array(name string, idx []int64) (value.Value, error) {
	return p.env.Array(name, idx)
}
