package compiler

import (
	"math"
	"testing"

	"github.com/augur-verify/augur/presburger"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
)

// The compiler builds its expressions in the shape the parser gives their
// canonical text, since its output is printed from them: each constructor
// is checked against the parse of the text it stands for, node by node,
// and against that text once printed.
func TestConstructorsParseShape(t *testing.T) {
	N, M := ident("N"), ident("M")
	lin := func(names []string, coef map[string]int64, c int64) *linear {
		return &linear{names: names, coef: coef, c: c}
	}
	for _, tc := range []struct {
		got  syntax.Expr
		want string
	}{
		{num(3), "3"},
		{num(-3), "-3"},
		{num(math.MinInt64), "-9223372036854775808"},
		{ceilDiv(bin(N, syntax.OpSub, num(1)), 4), "(N - 1 + 3) / 4"},
		{ceilDiv(N, 1), "(N + 0) / 1"},
		{floorDiv(N, num(-2)), "N / -2"},
		{mul(floorDiv(bin(N, syntax.OpSub, num(1)), num(4)), num(4)), "(N - 1) / 4 * 4"},
		{simplifyAdd(floorDiv(N, num(2)), -1), "N / 2 + -1"},
		{simplifyAdd(call("min", N, M), 2), "min(N + 2, M + 2)"},
		{sub(N, bin(M, syntax.OpAdd, num(1))), "N - M - 1"},
		{sub(floorDiv(N, num(2)), floorDiv(M, num(2))), "N / 2 - M / 2"},
		{conjunction(bin(N, syntax.OpGe, num(1)), bin(M, syntax.OpOr, N), bin(N, syntax.OpAnd, M)), "N >= 1 and (M or N) and (N and M)"},
		{lin([]string{"N", "M"}, map[string]int64{"N": -3, "M": 1}, -2).expr(), "-3 * N + M - 2"},
		{lin([]string{"N", "M"}, map[string]int64{"N": -1, "M": -2}, 0).expr(), "-N - 2 * M"},
		{lin([]string{"N"}, map[string]int64{"N": 0}, -5).expr(), "-5"},
		{lin(nil, map[string]int64{}, 0).expr(), "0"},
		{norm(bin(bin(N, syntax.OpSub, num(1)), syntax.OpAdd, num(1))), "N"},
	} {
		want, err := syntax.ParseExprString(tc.want)
		if err != nil {
			t.Fatal(err)
		}
		if !syntax.Equal(tc.got, want) {
			t.Errorf("built %s, not in the shape of the parse of %q", syntax.ExprString(tc.got), tc.want)
		}
		if s := syntax.ExprString(tc.got); s != tc.want {
			t.Errorf("built %q, want %q", s, tc.want)
		}
	}
}

// TestAffExprShape renders lexicographic optima, with divisions, as the
// text they have always been printed as, in the parser's shape.
func TestAffExprShape(t *testing.T) {
	for _, tc := range []struct {
		set    string
		params []string
		want   string
	}{
		{"[N] -> { [x] : 0 <= x < N }", []string{"N"}, "N - 1"},
		{"[N, M] -> { [x] : 0 <= x <= 2 * N - 3 * M + 1 }", []string{"N", "M"}, "2 * N - 3 * M + 1"},
		{"[N] -> { [x] : 0 <= 4 * x < N }", []string{"N"}, "(N + 3) / 4 - 1"},
		{"[N] -> { [x] : 3 * x <= -N + 7 and x >= -10 }", []string{"N"}, "-N + (2 * N + 1) / 3 + 2"},
		{"[N] -> { [x] : 2 * x <= -floor(N/3) - 5 }", []string{"N"}, "-(N / 3) + (N / 3 + 1) / 2 - 3"},
		{"[N] -> { [x] : 5 * x <= -3 * floor((2 * N + 1)/3) + N }", []string{"N"}, "-((2 * N + 1) / 3) + (N + 2 * ((2 * N + 1) / 3)) / 5"},
		{"[N] -> { [x] : x <= -7 }", []string{"N"}, "-7"},
		{"[N] -> { [x] : x <= -N }", []string{"N"}, "-N"},
	} {
		set, err := presburger.ParseSet(tc.set)
		if err != nil {
			t.Fatal(err)
		}
		f, err := presburger.LexMax(t.Context(), set)
		if err != nil {
			t.Fatal(err)
		}
		if f.NumPieces() != 1 || len(f.Pieces()[0].Func.Affs()) != 1 {
			t.Fatalf("%s: optimum %s, not one piece", tc.set, f)
		}
		got, err := affExpr(f.Pieces()[0].Func.Affs()[0], tc.params)
		if err != nil {
			t.Fatal(err)
		}
		want, err := syntax.ParseExprString(tc.want)
		if err != nil {
			t.Fatal(err)
		}
		if !syntax.Equal(got, want) || syntax.ExprString(got) != tc.want {
			t.Errorf("optimum of %s: %s, want %s in the parser's shape", tc.set, syntax.ExprString(got), tc.want)
		}
	}
}

// TestIdentityExpr checks every reduction's identity against the parse of
// its spelling.
func TestIdentityExpr(t *testing.T) {
	for op := expr.Sum; op <= expr.BitXor; op++ {
		for typ := syntax.I8; typ <= syntax.F64; typ++ {
			if (op == expr.BitAnd || op == expr.BitOr || op == expr.BitXor) && typ.IsFloat() {
				continue
			}
			text := op.IdentityText(typ)
			want, err := syntax.ParseExprString(text)
			if err != nil {
				t.Fatalf("%s on %s: %v", op, typ, err)
			}
			if got := identityExpr(op, typ); !syntax.Equal(got, want) {
				t.Errorf("identity of %s on %s: %s, not in the shape of the parse of %q", op, typ, syntax.ExprString(got), text)
			}
		}
	}
}

// TestMinMaxOffsets checks that interval arithmetic's min and max keep
// one of two bounds that differ by a constant, their min and max terms
// cancelling, and keep both otherwise.
func TestMinMaxOffsets(t *testing.T) {
	for _, tc := range []struct{ fn, a, b, want string }{
		{"max", "5 * x + (min(2 * y, N - 1) + 1) - 1", "5 * x + (min(2 * y, N - 1) + 1) + 1", "5 * x + (min(2 * y, N - 1) + 1) + 1"},
		{"min", "min(0, N - 5 * ((N + 3) / 5)) - 1", "min(0, N - 5 * ((N + 3) / 5))", "min(0, N - 5 * ((N + 3) / 5)) - 1"},
		{"min", "N - 1", "N + 2", "N - 1"},
		{"max", "min(x, N) + 1", "min(x, N + 1)", "max(min(x, N) + 1, min(x, N + 1))"},
		{"max", "min(x, N) + y", "min(x, N)", "max(min(x, N) + y, min(x, N))"},
		{"max", "2 * min(x, N)", "min(x, N) + min(x, N) + 3", "min(x, N) + min(x, N) + 3"},
		{"min", "x * y", "x * y + 1", "min(x * y, x * y + 1)"},
	} {
		a, b := mustParse(t, tc.a), mustParse(t, tc.b)
		if got := syntax.ExprString(minMax(tc.fn, a, b)); got != tc.want {
			t.Errorf("%s(%s, %s) = %s, want %s", tc.fn, tc.a, tc.b, got, tc.want)
		}
	}
}

func mustParse(t *testing.T, s string) syntax.Expr {
	t.Helper()
	x, err := syntax.ParseExprString(s)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return x
}
