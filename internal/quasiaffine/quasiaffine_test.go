package quasiaffine

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

func parse(t *testing.T, s string) syntax.Expr {
	t.Helper()
	x, err := syntax.ParseExprString(s)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return x
}

// isl writes a constraint or expression of the fragment in isl notation,
// fully parenthesised, for comparison with the engine's reader.
func isl(t *testing.T, x syntax.Expr) string {
	t.Helper()
	switch x := x.(type) {
	case *syntax.Ident:
		return x.Name
	case *syntax.Lit:
		switch x.Kind {
		case syntax.IntLiteral:
			v, err := strconv.ParseInt(x.Text, 0, 64)
			if err != nil {
				t.Fatal(err)
			}
			return strconv.FormatInt(v, 10)
		case syntax.BoolLiteral:
			if x.Text == "true" {
				return "0 = 0"
			}
			return "1 = 0"
		}
	case *syntax.Unary:
		if x.Op == syntax.OpNeg {
			return "(-" + isl(t, x.X) + ")"
		}
		return "(not (" + isl(t, x.X) + "))"
	case *syntax.Binary:
		a, b := isl(t, x.X), isl(t, x.Y)
		switch x.Op {
		case syntax.OpNe:
			return "(not (" + a + " = " + b + "))"
		case syntax.OpEq:
			return "(" + a + " = " + b + ")"
		case syntax.OpDiv:
			return "floor((" + a + ")/" + b + ")"
		case syntax.OpRem:
			return "((" + a + ") mod " + b + ")"
		case syntax.OpAnd, syntax.OpOr:
			return "((" + a + ") " + x.Op.String() + " (" + b + "))"
		}
		return "(" + a + " " + x.Op.String() + " " + b + ")"
	case *syntax.Chain:
		var parts []string
		for _, c := range x.Comparisons() {
			parts = append(parts, isl(t, c))
		}
		return "(" + strings.Join(parts, " and ") + ")"
	case *syntax.Call:
		return x.Fun.Name + "(" + isl(t, x.Args[0]) + ", " + isl(t, x.Args[1]) + ")"
	}
	t.Fatalf("no isl notation for %s", syntax.ExprString(x))
	return ""
}

// TestSameAsNotation checks that a set built from a constraint has the
// pieces, constraints and divisions, that the engine's reader builds from
// the constraint written in isl notation.
func TestSameAsNotation(t *testing.T) {
	ctx := context.Background()
	params := []string{"N", "M"}
	for _, src := range []string{
		"0 <= i && i < N",
		"0 <= i < N - 1",
		"i == 2 * N + 3 - M",
		"i != N",
		"not (i < N) || i == 0",
		"i == N / 4 + (M - 1) / 3",
		"i == (N - 7) / -2",
		"i == N % 8 && M % -3 == 1",
		"i == min(N, M) + max(N - 1, 0)",
		"min(N, M) <= i < max(2 * N, (M + 3) / 4)",
		"i == min(N, M) / 2 - max(N, M) % 3",
		"i == (N - N) * M + 2 * (i - i)",
		"i >= 0 && (i < N || i > M) && !(i == 5)",
		"true && i == 1",
		"false || i > N",
		"-i >= -N",
	} {
		x := parse(t, src)
		got, err := Set(ctx, params, []string{"i"}, Constraint(x))
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		want, err := presburger.ParseMapContext(ctx, "[N, M] -> { [i] : "+isl(t, x)+" }")
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got.String() != want.String() {
			t.Errorf("%s:\n got %s\nwant %s", src, got, want)
		}
	}
}

// TestConnectivesAsNotation checks And, Or, Not and Exists against the
// same formula in isl notation.
func TestConnectivesAsNotation(t *testing.T) {
	ctx := context.Background()
	c := func(s string) Formula { return Constraint(parse(t, s)) }
	f := And(
		Or(Exists([]string{"j"}, And(c("0 <= j < N"), c("i == 2 * j + 1"))), c("i == M")),
		Not(c("i == 3")),
		Exists(nil, c("i <= N + M")),
	)
	got, err := Set(ctx, []string{"N", "M"}, []string{"i"}, f)
	if err != nil {
		t.Fatal(err)
	}
	want, err := presburger.ParseMapContext(ctx, "[N, M] -> { [i] : ((exists (j : (0 <= j < N) and (i = 2 * j + 1))) or (i = M)) and not (i = 3) and (i <= N + M) }")
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

// TestChainAsNotation checks Chain against isl's chain notation.
func TestChainAsNotation(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		operands []string
		ops      []syntax.Op
		isl      string
	}{
		{[]string{"min(N, 3)", "i", "N / 2 + 1"}, []syntax.Op{syntax.OpLe, syntax.OpLt}, "min(N, 3) <= i < floor(N/2) + 1"},
		{[]string{"(N + 1) % 4", "i", "max(M, N / 3)", "M + N"}, []syntax.Op{syntax.OpLt, syntax.OpEq, syntax.OpGe}, "((N + 1) mod 4) < i = max(M, floor(N/3)) >= M + N"},
		{[]string{"i", "N / 2"}, []syntax.Op{syntax.OpNe}, "i != floor(N/2)"},
	} {
		var xs []syntax.Expr
		for _, o := range tc.operands {
			xs = append(xs, parse(t, o))
		}
		got, err := Set(ctx, []string{"N", "M"}, []string{"i"}, Chain(xs, tc.ops))
		if err != nil {
			t.Fatalf("%s: %v", tc.isl, err)
		}
		want, err := presburger.ParseMapContext(ctx, "[N, M] -> { [i] : "+tc.isl+" }")
		if err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s:\n got %s\nwant %s", tc.isl, got, want)
		}
	}
	if _, err := Set(ctx, nil, []string{"i"}, Chain([]syntax.Expr{parse(t, "i")}, []syntax.Op{syntax.OpLt})); err == nil {
		t.Error("a chain of one operand: no error")
	}
}

// TestPoints checks the meaning of the operators on points: floor
// division and its remainder round towards minus infinity, min and max
// split, names resolve to the innermost existential.
func TestPoints(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		src  string
		n    int64
		want []int64 // the points i in [-10, 10]
	}{
		{"i % 3 == 1", 0, []int64{-8, -5, -2, 1, 4, 7, 10}},
		{"i / 4 == -1", 0, []int64{-4, -3, -2, -1}},
		{"i / -4 == 1", 0, []int64{-7, -6, -5, -4}},
		{"i % -3 == 2 && i > 0", 0, []int64{2, 5, 8}},
		{"min(i, N) == 3", 3, []int64{3, 4, 5, 6, 7, 8, 9, 10}},
		{"max(i, N) == 3 && i > -2", 3, []int64{-1, 0, 1, 2, 3}},
		{"i != 0 && -1 <= i <= 1", 0, []int64{-1, 1}},
		{"2 * i == N", 6, []int64{3}},
	} {
		set, err := Set(ctx, []string{"N"}, []string{"i"}, Constraint(parse(t, tc.src)))
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		var got []int64
		for i := int64(-10); i <= 10; i++ {
			in, err := set.ContainsPoint(ctx, []presburger.Int{presburger.NewInt(tc.n), presburger.NewInt(i)})
			if err != nil {
				t.Fatal(err)
			}
			if in {
				got = append(got, i)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s with N = %d: points %v, want %v", tc.src, tc.n, got, tc.want)
		}
	}
	// The existential j hides the dimension j: i is odd.
	set, err := Set(ctx, nil, []string{"i", "j"}, And(Constraint(parse(t, "j == 0")), Exists([]string{"j"}, Constraint(parse(t, "i == 2 * j + 1")))))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range map[int64]bool{1: true, 2: false, -3: true} {
		in, err := set.ContainsPoint(ctx, []presburger.Int{presburger.NewInt(i), presburger.NewInt(0)})
		if err != nil {
			t.Fatal(err)
		}
		if in != want {
			t.Errorf("(%d, 0) in %s: %v, want %v", i, set, in, want)
		}
	}
	if got := set.Space().Out.DimNames(); !slices.Equal(got, []string{"i", "j"}) {
		t.Errorf("dimensions %v, want [i j]", got)
	}
}

// TestNotAffine checks that what the fragment cannot express is an error
// naming the expression, whether it is seen by its operators (Check) or
// by its values (Set).
func TestNotAffine(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		src   string
		check bool // Check already rejects it
	}{
		{"i * N == 1", false},
		{"i / N == 1", false},
		{"i % (N - N) == 1", false},
		{"i / (2 - 2) == 1", false},
		{"i == 1.5", true},
		{"sqrt(i) == 1", true},
		{"min(i, 1, 2) == 1", true},
		{"i << 1 == 2", true},
		{"i + 1", false},
		{"i == (N < 1)", false},
	} {
		x := parse(t, tc.src)
		err := Check(x)
		if (err != nil) != tc.check {
			t.Errorf("Check(%s) = %v, want an error: %v", tc.src, err, tc.check)
		}
		_, err = Set(ctx, []string{"N"}, []string{"i"}, Constraint(x))
		var na *NotAffineError
		if !errors.As(err, &na) {
			t.Errorf("Set %s: error %v, want a NotAffineError", tc.src, err)
		}
	}
	if _, err := Set(ctx, []string{"N"}, []string{"i"}, Constraint(parse(t, "i == K"))); err == nil {
		t.Error("Set with the unknown name K: no error")
	}
}

// TestBudget checks that the budget of the caller's context bounds a
// negation and that its error is recognisable through Set.
func TestBudget(t *testing.T) {
	small := presburger.WithBudget(context.Background(), presburger.Budget{MaxSteps: 1, MaxDisjuncts: 1})
	f := Not(Constraint(parse(t, "0 <= i < N && 0 <= j < M && i % 3 != j % 5")))
	_, err := Set(small, []string{"N", "M"}, []string{"i", "j"}, f)
	if !errors.Is(err, presburger.ErrBudget) {
		t.Errorf("error %v, want one wrapping ErrBudget", err)
	}
	if _, err := Set(context.Background(), []string{"N", "M"}, []string{"i", "j"}, f); err != nil {
		t.Errorf("with the default budget: %v", err)
	}
}

func TestNames(t *testing.T) {
	f := And(Constraint(parse(t, "0 <= i < min(N, M)")), Exists([]string{"e", "N"}, Constraint(parse(t, "i == 2 * e + K"))))
	if got, want := Names(f), []string{"i", "N", "M", "e", "K"}; !slices.Equal(got, want) {
		t.Errorf("Names = %v, want %v", got, want)
	}
}

// TestPiecesWithinBudget bounds the pieces of nested min: a chain of k
// mins has 2^k pieces, one conjunction each in a comparison. Within the
// budget's disjuncts the set is built; beyond it, an ErrBudget before the
// conjunctions are (2^12 of them for 12 mins).
func TestPiecesWithinBudget(t *testing.T) {
	nested := func(k int) syntax.Expr {
		s := "N"
		for c := 1; c <= k; c++ {
			s = "min(" + s + ", " + strconv.Itoa(c) + " - N)"
		}
		return parse(t, "i == "+s)
	}
	ctx := presburger.WithBudget(context.Background(), presburger.Budget{MaxDisjuncts: 2000})
	if _, err := Set(ctx, []string{"N"}, []string{"i"}, Constraint(nested(8))); err != nil {
		t.Errorf("8 mins, 256 pieces: %v", err)
	}
	for _, k := range []int{11, 12} {
		if _, err := Set(ctx, []string{"N"}, []string{"i"}, Constraint(nested(k))); !errors.Is(err, presburger.ErrBudget) {
			t.Errorf("%d mins: %v, want ErrBudget", k, err)
		}
	}
}

// TestConstructionWithinSharedBudget checks that building a set counts
// its construction against a shared budget (presburger.WithSharedBudget,
// as the bundled compiler's bounds inference runs): floor(x / 3) of a
// value of 2^6 pieces (64 division columns; with more, an uncounted
// construction ran for as long as it took), and the conjunction of 8
// comparisons of 2 pieces each (2^8 conjunctions, no comparison beyond
// the budget's disjuncts), each stop at a budget of 100 steps, the
// allowance counting the budget plus one; with the default budget both
// are built.
func TestConstructionWithinSharedBudget(t *testing.T) {
	nested := func(k int) string {
		s := "N"
		for c := 1; c <= k; c++ {
			s = "min(" + s + ", " + strconv.Itoa(c) + " - N)"
		}
		return s
	}
	var conj []Formula
	for c := 1; c <= 8; c++ {
		conj = append(conj, Constraint(parse(t, "i >= min(N, "+strconv.Itoa(c)+" - N)")))
	}
	for _, tc := range []struct {
		name string
		f    Formula
	}{
		{"divisions", Constraint(parse(t, "i == "+nested(6)+" / 3"))},
		{"conjunctions", And(conj...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := presburger.NewAllowance(0)
			ctx := presburger.WithSharedBudget(presburger.WithAllowance(context.Background(), a), presburger.Budget{MaxSteps: 100})
			if _, err := Set(ctx, []string{"N"}, []string{"i"}, tc.f); !errors.Is(err, presburger.ErrBudget) {
				t.Fatalf("within 100 steps: %v, want ErrBudget", err)
			}
			if a.Used() != 101 {
				t.Errorf("within 100 steps: %d counted, want 101", a.Used())
			}
			if _, err := Set(context.Background(), []string{"N"}, []string{"i"}, tc.f); err != nil {
				t.Errorf("with the default budget: %v", err)
			}
		})
	}
}
