package symeval

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// mapEnv is a expr.Env of index values only.
type mapEnv map[string]int64

func (e mapEnv) Index(name string) (int64, bool) { v, ok := e[name]; return v, ok }
func (e mapEnv) Tensor(string, []int64) (value.Value, error) {
	return value.Value{}, fmt.Errorf("no tensors")
}
func (e mapEnv) Array(string, []int64) (value.Value, error) {
	return value.Value{}, fmt.Errorf("no arrays")
}

var testNames = []string{"N", "M", "i", "j"}

// randIndex returns a random quasi-affine index expression as text.
func randIndex(r *rand.Rand, depth int) string {
	if depth <= 0 || r.IntN(3) == 0 {
		if r.IntN(3) == 0 {
			return fmt.Sprint(r.IntN(9) - 4)
		}
		return testNames[r.IntN(len(testNames))]
	}
	a, b := randIndex(r, depth-1), randIndex(r, depth-1)
	switch r.IntN(9) {
	case 0:
		return "(" + a + " + " + b + ")"
	case 1:
		return "(" + a + " - " + b + ")"
	case 2:
		return fmt.Sprintf("%d * %s", r.IntN(7)-3, a)
	case 3:
		return fmt.Sprintf("(%s / %d)", a, r.IntN(5)+1)
	case 4:
		return fmt.Sprintf("(%s %% %d)", a, r.IntN(5)+1)
	case 5:
		return "min(" + a + ", " + b + ")"
	case 6:
		return "max(" + a + ", " + b + ")"
	case 7:
		return "select(" + randCond(r, depth-1) + ", " + a + ", " + b + ")"
	default:
		return "-" + a
	}
}

// randCond returns a random quasi-affine constraint as text.
func randCond(r *rand.Rand, depth int) string {
	ops := []string{"==", "!=", "<", "<=", ">", ">="}
	if depth <= 0 || r.IntN(2) == 0 {
		switch r.IntN(8) {
		case 0:
			return []string{"true", "false"}[r.IntN(2)]
		case 1:
			return fmt.Sprintf("%s %s %s %s %s", randIndex(r, 1), ops[r.IntN(6)], randIndex(r, 1), ops[r.IntN(6)], randIndex(r, 1))
		}
		return fmt.Sprintf("%s %s %s", randIndex(r, depth), ops[r.IntN(6)], randIndex(r, depth))
	}
	a, b := randCond(r, depth-1), randCond(r, depth-1)
	switch r.IntN(3) {
	case 0:
		return "(" + a + " and " + b + ")"
	case 1:
		return "(" + a + " or " + b + ")"
	default:
		return "not (" + a + ")"
	}
}

func ints(vs ...int64) []presburger.Int {
	out := make([]presburger.Int, len(vs))
	for i, v := range vs {
		out[i] = presburger.NewInt(v)
	}
	return out
}

// TestIndexMapRandom checks the translation of random index expressions
// against direct evaluation at random points: the graph contains the
// value and not its neighbours.
func TestIndexMapRandom(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	s := NewScope(testNames)
	points := 0
	for n := 0; n < 150; n++ {
		text := randIndex(r, 3)
		x, err := syntax.ParseExprString(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		g, err := s.IndexMap(x)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		checkGraphAtRandomPoints(ctx, t, r, g, x, text, 6)
		points += 6
	}
	t.Logf("%d points checked", points)
}

// TestConstraintRandom checks the translation of random constraints and
// of their negation against direct evaluation at random points.
func TestConstraintRandom(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 4))
	s := NewScope(testNames)
	for n := 0; n < 150; n++ {
		text := randCond(r, 3)
		x, err := syntax.ParseExprString(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		c, err := s.Constraint(x)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		nc, err := s.constraint(x, true)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		for p := 0; p < 6; p++ {
			env := mapEnv{}
			var pt []int64
			for _, name := range testNames {
				env[name] = int64(r.IntN(21) - 10)
				pt = append(pt, env[name])
			}
			want, err := expr.EvalCond(x, env)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			got, err := c.ContainsPoint(ctx, ints(pt...))
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			ngot, err := nc.ContainsPoint(ctx, ints(pt...))
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			if got != want || ngot == want {
				t.Fatalf("%s at %v: got %v, negation %v, want %v\n%s", text, env, got, ngot, want, c)
			}
		}
	}
}

// TestLetAndRange checks let variables (which stand for their value) and
// loop ranges lo <= x < hi with piecewise bounds.
func TestLetAndRange(t *testing.T) {
	ctx := context.Background()
	s := NewScope([]string{"N"})
	s, x := s.With("io")
	lx, err := syntax.ParseExprString("min(4 * io, N - 4)")
	if err != nil {
		t.Fatal(err)
	}
	s, err = s.Let(context.Background(), "t", lx)
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.IndexMap(mustExpr(t, "t + 1"))
	if err != nil {
		t.Fatal(err)
	}
	rg, err := s.Range(x, mustExpr(t, "max(t, 0)"), mustExpr(t, "(N + 3) / 4"))
	if err != nil {
		t.Fatal(err)
	}
	for n := int64(-3); n < 12; n++ {
		for io := int64(-3); io < 6; io++ {
			tv := min(4*io, n-4)
			in, err := g.ContainsPoint(ctx, ints(n, io, tv+1))
			if err != nil || !in {
				t.Fatalf("N=%d io=%d: t + 1 = %d not in %s (%v)", n, io, tv+1, g, err)
			}
			in, err = rg.ContainsPoint(ctx, ints(n, io))
			want := max(tv, 0) <= io && io < floorDiv(n+3, 4)
			if err != nil || in != want {
				t.Fatalf("N=%d io=%d: in range %v, want %v (%v)", n, io, in, want, err)
			}
		}
	}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func mustExpr(t *testing.T, text string) syntax.Expr {
	t.Helper()
	x, err := syntax.ParseExprString(text)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// mustMap parses a Presburger map or stops the test.
func mustMap(t *testing.T, src string) *presburger.Map {
	t.Helper()
	m, err := presburger.ParseMap(src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestContradictoryAtoms checks the syntactic pruning of conjunctions:
// two atoms on the same (or opposite) variable part that no value
// satisfies together make the conjunction false; others do not.
func TestContradictoryAtoms(t *testing.T) {
	at := func(sign int64, c int64, eq bool) atom {
		return atom{e: linear{terms: map[term]presburger.Int{{v: presburger.ParamVar("N")}: presburger.NewInt(sign)}, c: presburger.NewInt(c)}, eq: eq}
	}
	cases := []struct {
		a, b atom
		want bool
	}{
		{at(1, -512, false), at(-1, 16, false), true}, // N >= 512, N <= 16
		{at(1, -16, false), at(-1, 16, false), false}, // N >= 16, N <= 16
		{at(1, -3, false), at(1, -5, false), false},   // N >= 3, N >= 5
		{at(1, -3, true), at(1, -5, true), true},      // N = 3, N = 5
		{at(1, -3, true), at(-1, 3, true), false},     // N = 3, -N + 3 = 0
		{at(1, -3, true), at(-1, 2, false), true},     // N = 3, N <= 2
		{at(-1, 2, false), at(1, -3, true), true},     // the same, swapped
		{at(1, -3, true), at(1, -4, false), true},     // N = 3, N >= 4
		{at(1, -3, true), at(1, -3, false), false},    // N = 3, N >= 3
	}
	for i, c := range cases {
		if got := c.a.contradicts(c.b); got != c.want {
			t.Errorf("case %d: contradicts = %v, want %v", i, got, c.want)
		}
	}
}

// TestNotAffine checks that non-affine expressions are rejected with an
// error.
func TestNotAffine(t *testing.T) {
	s := NewScope([]string{"N", "i"})
	for _, text := range []string{"N * i", "i / N", "i % 0", "i / -2", "k + 1", "1.5"} {
		if _, err := s.IndexMap(mustExpr(t, text)); err == nil {
			t.Errorf("%s: no error", text)
		}
	}
}

// TestLetPrunedUnderAssumptions checks that a let keeps only the pieces of
// its value that can occur under the scope's assumptions and facts, and
// that the value it keeps is the original one there.
func TestLetPrunedUnderAssumptions(t *testing.T) {
	ctx := context.Background()
	x := mustExpr(t, "select(N >= 512, min(N, 16), max(N, 3) - 1)")
	plain, err := NewScope([]string{"N"}).Let(ctx, "t", x)
	if err != nil {
		t.Fatal(err)
	}
	// Four pieces, less N >= 512 and N <= 16, whose atoms contradict
	// each other.
	if n := len(plain.names["t"].let); n != 3 {
		t.Fatalf("without assumptions: %d pieces, want 3", n)
	}
	s := NewScope([]string{"N"})
	big, err := s.Constraint(mustExpr(t, "N >= 600"))
	if err != nil {
		t.Fatal(err)
	}
	pruned, err := s.WithAssumptions(big).Let(ctx, "t", x)
	if err != nil {
		t.Fatal(err)
	}
	v := pruned.names["t"].let
	if len(v) != 1 || v[0].e.key() != constLinear(16).key() {
		t.Fatalf("under N >= 600: %d pieces, want the one piece 16", len(v))
	}
	// Under a fact that leaves two pieces of equal value, they merge.
	small, err := s.Constraint(mustExpr(t, "N <= 2"))
	if err != nil {
		t.Fatal(err)
	}
	fs, err := s.Assume(small)
	if err != nil {
		t.Fatal(err)
	}
	merged, err := fs.Let(ctx, "t", x)
	if err != nil {
		t.Fatal(err)
	}
	if v := merged.names["t"].let; len(v) != 1 || v[0].e.key() != constLinear(2).key() {
		t.Fatalf("under N <= 2: %d pieces, want the one piece 2", len(v))
	}
	g, err := merged.IndexMap(mustExpr(t, "t"))
	if err != nil {
		t.Fatal(err)
	}
	for n := int64(-5); n <= 2; n++ {
		in, err := g.ContainsPoint(ctx, ints(n, 2))
		if err != nil || !in {
			t.Fatalf("N=%d: t = 2 not in %s (%v)", n, g, err)
		}
	}
}

// TestLetMergedUnderAssumptions checks that a let's pieces whose values
// the assumptions make equal merge (Halide's min(output_extent_0, 384)
// under output_extent_0 >= 384), that pieces equal only at some points
// of their condition stay apart, and that the merged value is the
// original one wherever the assumptions hold.
func TestLetMergedUnderAssumptions(t *testing.T) {
	ctx := context.Background()
	s := NewScope([]string{"N", "M"})
	a, err := s.Constraint(mustExpr(t, "N >= 384 and M >= 0"))
	if err != nil {
		t.Fatal(err)
	}
	s = s.WithAssumptions(a)
	for _, tc := range []struct {
		x      string
		pieces int
	}{
		{"min(N, 384) - 406", 1},
		{"max(384, N) + min(N, 384)", 1},
		{"min(N, 400)", 2},
		{"min(N, M + 384)", 2},
	} {
		ls, err := s.Let(ctx, "t", mustExpr(t, tc.x))
		if err != nil {
			t.Fatal(err)
		}
		if n := len(ls.names["t"].let); n != tc.pieces {
			t.Errorf("%s: %d pieces, want %d", tc.x, n, tc.pieces)
		}
		g, err := ls.IndexMap(mustExpr(t, "t"))
		if err != nil {
			t.Fatal(err)
		}
		for n := int64(384); n <= 420; n += 3 {
			for m := int64(0); m <= 30; m += 10 {
				want, err := expr.EvalIndex(mustExpr(t, tc.x), mapEnv{"N": n, "M": m})
				if err != nil {
					t.Fatal(err)
				}
				in, err := g.ContainsPoint(ctx, ints(n, m, want))
				if err != nil || !in {
					t.Fatalf("%s at N=%d, M=%d: %d not in %s (%v)", tc.x, n, m, want, g, err)
				}
			}
		}
	}
}

// checkGraphAtRandomPoints checks the graph g of the index expression x
// (source text) at n random points of testNames in [-10, 10]: it holds
// x's value there, as expr.EvalIndex computes it, and not its neighbours.
func checkGraphAtRandomPoints(ctx context.Context, t *testing.T, r *rand.Rand, g *presburger.Map, x syntax.Expr, text string, n int) {
	t.Helper()
	for p := 0; p < n; p++ {
		env := mapEnv{}
		var pt []int64
		for _, name := range testNames {
			env[name] = int64(r.IntN(21) - 10)
			pt = append(pt, env[name])
		}
		want, err := expr.EvalIndex(x, env)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		for _, d := range []int64{0, -1, 1} {
			in, err := g.ContainsPoint(ctx, ints(append(append([]int64(nil), pt...), want+d)...))
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			if in != (d == 0) {
				t.Fatalf("%s at %v: graph %s contains %d: %v, want value %d", text, env, g, want+d, in, want)
			}
		}
	}
}

// chargedLets binds, in a scope of the parameters of clampChain charged
// to ctx, the lets of clampChain: two chains of clamps three deep and a
// loop extent over both, whose translation multiplies the pieces of the
// chains (without facts, no piece is pruned and no Presburger
// operation runs: the work is the translation's alone).
func chargedLets(ctx context.Context, t *testing.T) error {
	t.Helper()
	s := NewScope([]string{"N", "A1", "B1", "A2", "B2", "A3", "B3"}).charging(ctx)
	for _, l := range [][2]string{
		{"x1", "max(min(N, B1 + N), A1 + N)"},
		{"x2", "max(min(x1, B2 + N), A2 + N)"},
		{"x3", "max(min(x2, B3 + N), A3 + N)"},
		{"y1", "min(max(0, 0 - B1), 0 - A1)"},
		{"y2", "min(max(y1, 0 - B2), 0 - A2)"},
		{"y3", "min(max(y2, 0 - B3), 0 - A3)"},
		{"e", "(x3 - y3 + 3) / 4"},
	} {
		var err error
		if s, err = s.Let(ctx, l[0], mustExpr(t, l[1])); err != nil {
			return err
		}
	}
	return nil
}

// TestTranslationChargesSteps checks that the translation's own work
// (products of pieces and of conjunctions) counts against the step
// allowance of the evaluation's context: the same number of steps on
// every run, enough of them that the allowance runs out inside the
// translation, with an error naming it, at half of them; and a
// cancelled context stops it.
func TestTranslationChargesSteps(t *testing.T) {
	used := func(max int64) (int64, error) {
		a := presburger.NewAllowance(max)
		err := chargedLets(presburger.WithAllowance(context.Background(), a), t)
		return a.Used(), err
	}
	n, err := used(0)
	if err != nil {
		t.Fatal(err)
	}
	if n < 10*workBatch {
		t.Fatalf("the translation counted %d steps, want at least %d", n, 10*workBatch)
	}
	t.Logf("%d steps", n)
	if again, _ := used(0); again != n {
		t.Fatalf("the translation counted %d steps, then %d", n, again)
	}
	if _, err := used(n); err != nil {
		t.Fatalf("within %d steps: %v", n, err)
	}
	_, err = used(n / 2)
	if !errors.Is(err, presburger.ErrAllowance) || !strings.Contains(err.Error(), "let e: translation of index expressions") {
		t.Fatalf("within %d steps: %v, want the allowance to run out in the translation of let e", n/2, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := chargedLets(ctx, t); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v, want the translation stopped", err)
	}
}
