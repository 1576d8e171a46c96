package symeval

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// foldMin is the min of a folded buffer of stencil_chain (32 stages) at
// Halide's final stage, over the output's extents E0 and E1: nested
// selects on divisions under two mins, tens of pieces.
const foldMin = "min(min(651 * select(-44 < E0, 0, select((E0 + 438) / 395 >= 1, (E1 + 694) / 651 - 1, " +
	"select((E0 + 438) / 395 == 0, 0, (E1 + 694) / 651 + 1))) + 607, E1), " +
	"min(662 * select(-88 < E0, 0, select((E0 + 493) / 406 >= 1, (E1 + 749) / 662 - 1, " +
	"select((E0 + 493) / 406 == 0, 0, (E1 + 749) / 662 + 1))) + 574, E1) + 33)"

// TestSumCancelsEqualOperands (cancel.go) checks the cell and the annotation of
// stencil_chain's vector store to a folded buffer at Halide's final
// stage (32 stages), which the symbolic evaluation translates together:
// the cell's column subtracts 88 times the rebased row and
// min(E0, 351) + m0 after adding them, its row subtracts the buffer's
// min (foldMin + m1 - 651) from an index that contains it, and the
// annotation's row has foldMin too. The cell's equal operands cancel;
// expanded, the product of their copies' pieces with the annotation's
// passed maxPieces. The graph holds the point at samples and not its
// neighbours.
func TestSumCancelsEqualOperands(t *testing.T) {
	ctx := context.Background()
	names := []string{"E0", "E1", "m0", "m1", "xi", "r", "q", "y", "lane"}
	rebased := "(min(662 * q + 574, E1) - min(E1, 607) + y)"
	col := "min(16 * xi, 390) + (min(406 * r + 318, E0) + 88 * " + rebased + ") + lane - 88 * " + rebased +
		" + (min(E0, 351) + m0) + -713 - (min(E0, 351) + m0 + -395)"
	row := "min(662 * q + 574, E1) - min(E1, 607) + y + (" + foldMin + " + m1) + -658 - (" + foldMin + " + m1 + -651)"
	annCol := "min(16 * xi, 390) + (min(406 * r + 318, E0) + 88 * " + rebased + ") + lane - 88 * " + rebased +
		" + (min(E0, 351) + m0) + -713"
	annRow := "min(662 * q + 574, E1) - min(E1, 607) + y + (" + foldMin + " + m1) + -658"
	xs := []syntax.Expr{mustExpr(t, col), mustExpr(t, row), mustExpr(t, annCol), mustExpr(t, annRow)}
	s := NewScope(names)
	tr := s.translator()
	var pws []pwExpr
	for _, x := range xs {
		pw, err := tr.index(x)
		if err != nil {
			t.Fatalf("%s: %v", syntax.ExprString(x), err)
		}
		pws = append(pws, pw)
	}
	vs := []presburger.Var{presburger.OutVar(0), presburger.OutVar(1), presburger.OutVar(2), presburger.OutVar(3)}
	d, err := equalities(vs, pws)
	if err != nil {
		t.Fatalf("the cell: %v", err)
	}
	g, err := lowerDNF(presburger.SetSpace(s.Params(), presburger.FlatTuple("", "c", "w", "ac", "aw")), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, pt := range [][]int64{
		{384, 640, 0, 0, 3, 0, 0, 40, 5}, {-100, 2000, 3, 1, 25, 1, 2, 41, 15}, {-50, -700, -2, 2, 0, 2, 1, 50, 0},
		{700, 400, 7, 0, 10, 1, 0, 44, 7}, {-500, 1400, 0, 3, 9, 0, 3, 60, 1}, {0, 0, 0, 0, 0, 0, 0, 0, 0},
	} {
		env := mapEnv{}
		for i, n := range names {
			env[n] = pt[i]
		}
		var cell []int64
		for _, x := range xs {
			v, err := expr.EvalIndex(x, env)
			if err != nil {
				t.Fatal(err)
			}
			cell = append(cell, v)
		}
		for k := -1; k < len(cell); k++ {
			// k = -1: the point itself; otherwise coordinate k moved by one.
			p := append(append([]int64(nil), pt...), cell...)
			if k >= 0 {
				p[len(pt)+k] += 1 - 2*int64(k%2)
			}
			in, err := g.ContainsPoint(ctx, ints(p...))
			if err != nil {
				t.Fatal(err)
			}
			if in != (k < 0) {
				t.Fatalf("at %v: graph contains %v: %v, want only %v", env, p[len(pt):], in, cell)
			}
		}
	}
}

// TestSumCancelOnlyEqual checks that an operand cancelled by its
// negation is still checked (a product of two names is an error there
// too), and that operands that differ do not cancel: with a max for
// foldMin's outer min in one copy, the difference takes several values,
// as evaluation says.
func TestSumCancelOnlyEqual(t *testing.T) {
	ctx := context.Background()
	names := []string{"E0", "E1", "i"}
	s := NewScope(names)
	if _, err := s.IndexMap(mustExpr(t, "E0 * i + i - E0 * i")); err == nil || !strings.Contains(err.Error(), "not affine") {
		t.Errorf("E0 * i - E0 * i: error %v, want not affine", err)
	}
	other := "max" + strings.TrimPrefix(foldMin, "min")
	x := mustExpr(t, "i + ("+other+") - ("+foldMin+")")
	g, err := s.IndexMap(x)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for _, pt := range [][]int64{{384, 640, 0}, {384, 600, 0}, {-100, 2000, 1}, {-50, -700, 2}, {700, 400, 0}, {-500, 1400, 3}} {
		env := mapEnv{"E0": pt[0], "E1": pt[1], "i": pt[2]}
		want, err := expr.EvalIndex(x, env)
		if err != nil {
			t.Fatal(err)
		}
		seen[want-pt[2]] = true
		for _, d := range []int64{0, -1, 1} {
			in, err := g.ContainsPoint(ctx, ints(append(append([]int64(nil), pt...), want+d)...))
			if err != nil {
				t.Fatal(err)
			}
			if in != (d == 0) {
				t.Fatalf("at %v: graph contains %d: %v, want the value %d", env, want+d, in, want)
			}
		}
	}
	if len(seen) < 2 {
		t.Errorf("differences seen %v, want several", seen)
	}
}

// TestSumCancelledSplit checks the pieces of a sum whose operands
// cancel: min(E0, 8) (2 pieces) still splits it, as when its copies
// are expanded, and foldMin (more than maxCancelledSplit) does not.
func TestSumCancelledSplit(t *testing.T) {
	s := NewScope([]string{"E0", "E1", "i"})
	for _, tc := range []struct {
		text   string
		pieces int
	}{
		{"8 * i + (min(E0, 8) + E1) + -9 - (min(E0, 8) + E1 + -9)", 2},
		{"i + (" + foldMin + ") - (" + foldMin + ")", 1},
	} {
		pw, err := s.translator().index(mustExpr(t, tc.text))
		if err != nil {
			t.Fatalf("%s: %v", tc.text, err)
		}
		if len(pw) != tc.pieces {
			t.Errorf("%s: %d pieces, want %d", tc.text, len(pw), tc.pieces)
		}
		for _, p := range pw {
			if k := p.e.key(); k != pw[0].e.key() {
				t.Errorf("%s: pieces of different values %s and %s", tc.text, k, pw[0].e.key())
			}
		}
	}
}
