package symeval

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/augur-verify/augur/presburger"
)

// TestCancelReassociatedCopies translates Halide's shape of a required
// region's check: a max, minus a min-max nest, plus the same nest with
// its sums written in another order. The copies cancel: the expression
// has the pieces of its first max alone, and a comparison that holds
// only with the copies cancelled is translated exactly.
func TestCancelReassociatedCopies(t *testing.T) {
	ctx := context.Background()
	s := NewScope([]string{"N", "M", "L"})
	const (
		a  = "max(max(max(max(max(N + 1, M - 3), 0), L - 9), N + L - 7), M - L - 5)"
		b  = "max(min(min(min(min(min(min(N + L + 1, M + 2), L + 3), N + 4), M + L + 5), N + M + 6), L + N + 7) - 16, L)"
		b2 = "max(L, -16 + min(L + N + 7, min(M + N + 6, min(L + M + 5, min(N + 4, min(L + 3, min(M + 2, 1 + L + N)))))))"
	)
	alone, err := s.translator().index(mustExpr(t, a+" + 1"))
	if err != nil {
		t.Fatal(err)
	}
	x := mustExpr(t, a+" - "+b+" + "+b2+" + 1")
	pw, err := s.translator().index(x)
	if err != nil {
		t.Fatalf("%v", err)
	}
	if len(pw) != len(alone) || pw.key() != alone.key() {
		t.Errorf("%d pieces, want those of the first max alone (%d):\n%s\n%s", len(pw), len(alone), pw.key(), alone.key())
	}
	// max(L, m) - 16 is not max(L, m - 16): no cancellation.
	y := mustExpr(t, "max(L, N + 3) - 16 - max(L, N + 3 - 16)")
	if pw, err := s.translator().index(y); err != nil || len(pw) < 2 {
		t.Errorf("%s: %d pieces, %v; want the pieces of both maxes", "max(L, N + 3) - 16 - max(L, N + 3 - 16)", len(pw), err)
	}

	// Across the sides of a comparison: holds exactly where N >= M + 1,
	// split by the two cases of the cancelled max (at most
	// maxCancelledSplit pieces keep their split), not by their four
	// pairs.
	c, err := s.Constraint(mustExpr(t, "max(N + L, M) + M < max(M, L + N) + N"))
	if err != nil {
		t.Fatal(err)
	}
	if c.NumBasics() != 2 {
		t.Errorf("%s: %d pieces, want 2", c, c.NumBasics())
	}
	for _, pt := range [][]int64{{3, 2, 0}, {2, 2, 0}, {-5, -4, 7}, {-5, -6, 7}} {
		in, err := c.ContainsPoint(ctx, ints(pt...))
		if err != nil {
			t.Fatal(err)
		}
		if want := pt[0] >= pt[1]+1; in != want {
			t.Errorf("at %v: %v, want %v", pt, in, want)
		}
	}
}

// TestCancelRandom checks sums of random index expressions with copies
// that cancel or merge (min and max with their operands swapped, sums
// reordered, coefficients) against direct evaluation, as
// TestIndexMapRandom does.
func TestCancelRandom(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(5, 6))
	s := NewScope(testNames)
	forms := []string{
		"min(%[1]s, %[2]s) - min(%[2]s, %[1]s) + %[3]s",
		"max(%[1]s, %[2]s) + 2 * %[3]s - max(%[2]s, %[1]s) - %[3]s",
		"(%[1]s + %[2]s) / 3 - (%[2]s + %[1]s) / 3 + max(%[3]s, %[1]s)",
		"%[3]s - 2 * max(%[1]s, max(%[2]s, %[3]s)) + 3 * max(max(%[3]s, %[1]s), %[2]s)",
		"min(%[1]s, %[1]s) - %[1]s + select(%[1]s < %[2]s, %[2]s, %[3]s)",
		"-(max(%[1]s, %[2]s) - %[3]s) + max(%[2]s + 0, %[1]s)",
	}
	merged := 0
	for n := 0; n < 120; n++ {
		text := fmt.Sprintf(forms[n%len(forms)], randIndex(r, 2), randIndex(r, 2), randIndex(r, 2))
		x := mustExpr(t, text)
		if s.translator().sumOf(x, presburger.NewInt(1), nil, presburger.Int{}) != nil {
			merged++
		}
		g, err := s.IndexMap(x)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		checkGraphAtRandomPoints(ctx, t, r, g, x, text, 4)
	}
	if merged < 100 {
		t.Errorf("%d of 120 sums merged copies, want at least 100", merged)
	}
}

// TestScopeFactsBudget checks that facts past maxScopeFacts pieces are
// an error of the budget, not a scope that every later set is split by.
func TestScopeFactsBudget(t *testing.T) {
	s := NewScope([]string{"N", "M"})
	disj := func(v string) string {
		out := ""
		for k := range 40 {
			if k > 0 {
				out += " or "
			}
			out += fmt.Sprintf("%s == %d", v, k)
		}
		return out
	}
	s, err := s.Assume(mustConstraint(t, s, disj("N")))
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Assume(mustConstraint(t, s, disj("M")))
	if err == nil || !outOfPieces(err) {
		t.Fatalf("got %v, want facts of more than %d pieces", err, maxScopeFacts)
	}
}

func mustConstraint(t *testing.T, s *Scope, text string) *presburger.Map {
	t.Helper()
	c, err := s.Constraint(mustExpr(t, text))
	if err != nil {
		t.Fatal(err)
	}
	return c
}
