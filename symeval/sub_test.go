package symeval

import (
	"context"
	"testing"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/syntax"
)

// TestContextSub checks that the context of a subexpression keeps the
// holes of its context and evaluates, at the same hole values, to the
// value of the subexpression, and that a node outside the template is
// refused.
func TestContextSub(t *testing.T) {
	p := loadPair(t, "contexts.sare", contextSpec, "contexts.sched", contextKernel)
	ev, err := sare.NewEvaluator(p.spec, p.sinfo, map[string]int64{"N": 3}, sare.RandomInputs(5))
	if err != nil {
		t.Fatal(err)
	}
	env := ev.Env(context.Background())
	cs := NewContexts()
	s := NewScope([]string{"N"})
	s, _ = s.With("i")
	s, _ = s.With("j")
	s, _ = s.With("k")
	// A(i, k) * B(k, j): A(□1, □2) * B(□2, □3).
	v, err := cs.Decompose(annotations(p.kernel)[0], p.kinfo.Types, s)
	if err != nil {
		t.Fatal(err)
	}
	c := v.Context
	prod, ok := c.Expr.(*syntax.Binary)
	if !ok {
		t.Fatalf("context %s: not a product", c)
	}
	for _, tc := range []struct {
		x      syntax.Expr
		tensor string
		idx    func(vals []int64) []int64
	}{
		{prod.X, "A", func(vals []int64) []int64 { return []int64{vals[0], vals[1]} }},
		{prod.Y, "B", func(vals []int64) []int64 { return []int64{vals[1], vals[2]} }},
	} {
		sub, err := c.Sub(tc.x)
		if err != nil {
			t.Fatal(err)
		}
		if sub.Holes != c.Holes || sub.Type != syntax.F32 {
			t.Errorf("Sub(%s): %d holes of type %s, want %d of f32", syntax.ExprString(tc.x), sub.Holes, sub.Type, c.Holes)
		}
		vals := []int64{2, 0, 1}
		got, err := sub.Eval(vals, env)
		if err != nil {
			t.Fatal(err)
		}
		want, err := env.Tensor(tc.tensor, tc.idx(vals))
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(want) {
			t.Errorf("Sub(%s)%v = %v, want %s%v = %v", syntax.ExprString(tc.x), vals, got, tc.tensor, tc.idx(vals), want)
		}
	}
	if _, err := c.Sub(&syntax.Ident{Name: "□1"}); err == nil {
		t.Errorf("Sub of a node outside the template: no error")
	}
}
