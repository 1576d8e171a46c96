package symeval

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// pyramidBound is a nest of min, max and division through levels
// levels, in the shape of Halide's bounds of a pyramid's levels
// (lens_blur): from four levels on, more pieces than a translation may
// make.
func pyramidBound(levels int) string {
	inner := "max((min(X, E + 126) + -254) / 128, 0)"
	for l := 0; l < levels; l++ {
		inner = fmt.Sprintf("2 * max(min((X + -%d) / %d, min(E / %d, %s + -1)), 0)", 6+8*l, 4<<l, 4<<l, inner)
	}
	return inner
}

// TestSplitCompareRequiredRegion: Halide's check of an input's required
// region read through a boundary condition, max(min(R, e + m), m + 1) <=
// e + m, where R has too many pieces to translate, is the constraint m
// + 1 <= e + m, in both polarities. Checks of the same shape that the
// syntax does not decide (the bound one less, the clamp one more), or
// that read an array, keep the error of the whole comparison.
func TestSplitCompareRequiredRegion(t *testing.T) {
	ctx := context.Background()
	s := NewScope([]string{"X", "E", "M"})
	r := pyramidBound(4)
	if _, err := s.Constraint(mustExpr(t, r+" <= E")); err == nil || !strings.Contains(err.Error(), "more than 4096 pieces") {
		t.Fatalf("the bound alone translates (%v): the test needs one of too many pieces", err)
	}
	check := fmt.Sprintf("max(min(%s, E + M), M + 1) <= E + M", r)
	for _, neg := range []bool{false, true} {
		got, err := s.constraint(mustExpr(t, check), neg)
		if err != nil {
			t.Fatalf("negated %v: %v", neg, err)
		}
		want, err := s.constraint(mustExpr(t, "M + 1 <= E + M"), neg)
		if err != nil {
			t.Fatal(err)
		}
		if eq, err := got.IsEqual(ctx, want); err != nil || !eq {
			t.Errorf("negated %v: %s, want %s (%v)", neg, got, want, err)
		}
	}
	for _, wrong := range []string{
		fmt.Sprintf("max(min(%s, E + M), M + 1) <= E + M + -1", r),
		fmt.Sprintf("max(min(%s, E + M + 1), M + 1) <= E + M", r),
		fmt.Sprintf("max(min(%s, E + M), M + 1) < E + M", r),
		fmt.Sprintf("min(max(%s, E + M), M + 1) <= E + M", r),
		// A read is never decided by the syntax.
		fmt.Sprintf("max(min(%s + a[X], E + M), M + 1) <= E + M", r),
	} {
		_, err := s.Constraint(mustExpr(t, wrong))
		if err == nil || !strings.Contains(err.Error(), "more than 4096 pieces") {
			t.Errorf("%s: %v, want the error of too many pieces", wrong, err)
		}
	}
}

// TestSplitCompareRandom checks splitCompare against direct evaluation:
// random comparisons of min and max nests whose leaves repeat (so that
// the syntax decides some parts), at random points.
func TestSplitCompareRandom(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(5, 6))
	s := NewScope(testNames)
	leaves := []string{"N", "M + 1", "i - j", "2 * N + -3", "(i + M) / 2"}
	var nest func(depth int) string
	nest = func(depth int) string {
		if depth <= 0 || r.IntN(3) == 0 {
			return leaves[r.IntN(len(leaves))]
		}
		f := []string{"min", "max"}[r.IntN(2)]
		return fmt.Sprintf("%s(%s, %s)", f, nest(depth-1), nest(depth-1))
	}
	ops := []syntax.Op{syntax.OpLt, syntax.OpLe, syntax.OpGt, syntax.OpGe}
	decided := 0
	for n := 0; n < 200; n++ {
		a, b := mustExpr(t, nest(3)), mustExpr(t, nest(2))
		op := ops[r.IntN(len(ops))]
		x := &syntax.Binary{X: a, Op: op, Y: b}
		d, dec, err := s.translator().splitCompare(a, op, b)
		if err != nil {
			t.Fatalf("%s: %v", syntax.ExprString(x), err)
		}
		if dec {
			decided++
		}
		m, err := lowerDNF(presburger.ParamSpace(s.Params()), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		for p := 0; p < 8; p++ {
			env := mapEnv{}
			var pt []int64
			for _, name := range testNames {
				env[name] = int64(r.IntN(21) - 10)
				pt = append(pt, env[name])
			}
			want, err := expr.EvalCond(x, env)
			if err != nil {
				t.Fatal(err)
			}
			got, err := m.ContainsPoint(ctx, ints(pt...))
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("%s at %v: %v, want %v\n%s", syntax.ExprString(x), env, got, want, m)
			}
		}
	}
	if decided < 20 {
		t.Errorf("the syntax decided parts of %d comparisons of 200, want at least 20", decided)
	}
}
