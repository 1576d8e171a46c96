package rink

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// randomProgram writes a well-typed program: variables of extents 2 and
// 3 up to rank 3 (with a scalar and a vector of each extent, from which
// every type can be built), and a few statements whose right-hand sides
// use every construct.
func randomProgram(r *rand.Rand) string {
	shapes := []Shape{{}, {2}, {3}, {2, 3}, {3, 3}, {2, 3, 2}}
	names := []string{"s", "u", "v", "M", "Q", "T"}
	for len(shapes) < 8 {
		var t Shape
		for k := r.IntN(3); k >= 0; k-- {
			t = append(t, int64(2+r.IntN(2)))
		}
		shapes = append(shapes, t)
		names = append(names, fmt.Sprintf("x%d", len(names)))
	}
	var b strings.Builder
	for i, t := range shapes {
		fmt.Fprintf(&b, "var %s : %s\n", names[i], t)
	}
	g := &exprGen{r: r, shapes: shapes, names: names}
	for k := 0; k < 3; k++ {
		i := r.IntN(len(shapes))
		fmt.Fprintf(&b, "%s = %s\n", names[i], g.expr(shapes[i], 3))
	}
	return b.String()
}

type exprGen struct {
	r      *rand.Rand
	shapes []Shape
	names  []string
}

// expr returns an expression of type t, parenthesised.
func (g *exprGen) expr(t Shape, depth int) string {
	var vars []string
	for i, s := range g.shapes {
		if s.Equal(t) {
			vars = append(vars, g.names[i])
		}
	}
	if depth == 0 || depth < 3 && len(vars) > 0 && g.r.IntN(4) == 0 {
		if len(vars) > 0 {
			return vars[g.r.IntN(len(vars))]
		}
		if len(t) == 0 {
			return "s"
		}
		// A product of vectors builds any type.
		parts := make([]string, len(t))
		for i, d := range t {
			parts[i] = map[int64]string{2: "u", 3: "v"}[d]
		}
		return "(" + strings.Join(parts, " # ") + ")"
	}
	for try := 0; try < 10; try++ {
		if x, ok := g.construct(t, depth); ok {
			return x
		}
	}
	return g.expr(t, 0)
}

// construct returns an expression of type t built by a random construct,
// or false when the construct cannot build t.
func (g *exprGen) construct(t Shape, depth int) (string, bool) {
	switch g.r.IntN(6) {
	case 0:
		op := "+-*/"[g.r.IntN(4)]
		return fmt.Sprintf("(%s %c %s)", g.expr(t, depth-1), op, g.expr(t, depth-1)), true
	case 1:
		return fmt.Sprintf("(%s * %s)", g.expr(Shape{}, depth-1), g.expr(t, depth-1)), true
	case 2:
		return fmt.Sprintf("(%s / %s)", g.expr(t, depth-1), g.expr(Shape{}, depth-1)), true
	case 3:
		if len(t) >= 2 {
			m, n := g.r.IntN(len(t)), g.r.IntN(len(t))
			if m != n {
				u := append(Shape{}, t...)
				u[m], u[n] = u[n], u[m]
				return fmt.Sprintf("(%s ^ [%d %d])", g.expr(u, depth-1), m+1, n+1), true
			}
		}
	case 4:
		if len(t) >= 1 {
			k := g.r.IntN(len(t) + 1)
			return fmt.Sprintf("(%s # %s)", g.expr(t[:k], depth-1), g.expr(t[k:], depth-1)), true
		}
	case 5:
		if len(t) <= 2 {
			d := int64(2 + g.r.IntN(2))
			m := g.r.IntN(len(t) + 1)
			n := m + 1 + g.r.IntN(len(t)+1-m)
			u := append(Shape{}, t[:m]...)
			u = append(u, d)
			u = append(u, t[m:n-1]...)
			u = append(u, d)
			u = append(u, t[n-1:]...)
			return fmt.Sprintf("(%s . [%d %d])", g.expr(u, depth-1), m+1, n+1), true
		}
	}
	return "", false
}

// TestRandomPrograms translates random programs and runs both kernels
// with augur run's interpreter at the declared sizes, checking every
// annotation and output; the package's reference and padded semantics
// must agree with the specification's outputs (where Rink's division by
// zero, undefined, differs from IEEE's, the cell is not compared).
func TestRandomPrograms(t *testing.T) {
	ctx := context.Background()
	n := 40
	if testing.Short() {
		n = 10
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		text := randomProgram(rand.New(rand.NewPCG(seed, 7)))
		p, info, err := Load(&syntax.Source{Name: "random.rink", Text: text})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, text)
		}
		out, err := Translate(p, info, Options{Name: "random", VectorLength: int64(2 + seed%3), Parallel: seed%2 == 0})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		spec, sinfo, err := sare.Load(&syntax.Source{Name: "spec.sare", Text: out.Spec})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, out.Spec)
		}
		inputs := sare.RandomInputs(seed)
		ev, err := sare.NewEvaluator(spec, sinfo, out.Params, inputs)
		if err != nil {
			t.Fatal(err)
		}
		init := func(v string, idx []int64) Value {
			tensor := spec.Tensor(out.Inputs[v])
			if tensor == nil {
				return Value{}
			}
			x, err := inputs.Input(tensor, idx)
			if err != nil {
				t.Fatal(err)
			}
			return Num(x.Float64())
		}
		padFail := false
		for i, k := range []string{out.Kernel(Ref).Text, out.Kernel(Padded).Text} {
			kern, kinfo, err := sched.Load(&syntax.Source{Name: "prog.sched", Text: k}, spec)
			if err != nil {
				t.Fatalf("seed %d: %v\n%s", seed, err, k)
			}
			_, err = sched.Run(ctx, kern, kinfo, ev, sched.Options{})
			var f *sched.Failure
			if i == 1 && errors.As(err, &f) && (nonFinite(f.Expected) || nonFinite(f.Actual)) {
				// An infinity or a NaN met the padding, where IEEE
				// arithmetic breaks the padded implementation (see
				// padding_infinity.rink): not a translation bug.
				t.Logf("seed %d: padded kernel: %v", seed, err)
				padFail = true
				continue
			}
			if err != nil {
				t.Errorf("seed %d: %v\n%s\n%s", seed, err, text, k)
			}
		}
		for _, m := range []int64{0, 3} {
			if m > 0 && padFail {
				continue
			}
			store, err := Eval(p, info, init, EvalOptions{VectorLength: m})
			if err != nil {
				t.Fatal(err)
			}
			for v, tensor := range out.Outputs {
				forEach(store[v].Type, func(idx []int64) {
					got := store[v].At(idx)
					want, err := ev.Eval(ctx, tensor, idx)
					if err != nil {
						t.Fatal(err)
					}
					if got.Defined && !same(got, want) {
						t.Errorf("seed %d, M=%d: %s%v = %v, the specification gives %v\n%s", seed, m, v, idx, got, want, text)
					}
				})
			}
		}
	}
}

// nonFinite reports whether a float value is an infinity or a NaN.
func nonFinite(v value.Value) bool {
	if v.IsUndef() || !v.Type().IsFloat() {
		return false
	}
	x := v.Float64()
	return math.IsInf(x, 0) || math.IsNaN(x)
}
