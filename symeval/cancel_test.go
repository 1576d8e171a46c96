package symeval

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
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

// disjunction returns the condition that v equals one of vals.
func disjunction(v string, vals []int) string {
	var parts []string
	for _, k := range vals {
		parts = append(parts, fmt.Sprintf("%s == %d", v, k))
	}
	return strings.Join(parts, " or ")
}

// factsHold reports whether the facts of s hold at the values of N and M.
func factsHold(ctx context.Context, t *testing.T, s *Scope, n, m int64) bool {
	t.Helper()
	in, err := s.Facts().ContainsPoint(ctx, ints(n, m))
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestScopeFactsCoalesced checks that a fact whose product with the
// facts would pass maxScopeFacts pieces is coalesced first: 40 pieces
// times 40 (N and M each one of 0 to 39) are 40 pieces, the same set.
func TestScopeFactsCoalesced(t *testing.T) {
	ctx := context.Background()
	s := NewScope([]string{"N", "M"})
	var vals []int
	for k := range 40 {
		vals = append(vals, k)
	}
	s, err := s.Assume(mustConstraint(t, s, disjunction("N", vals)))
	if err != nil {
		t.Fatal(err)
	}
	if s, err = s.Assume(mustConstraint(t, s, disjunction("M", vals))); err != nil {
		t.Fatal(err)
	}
	if k := s.Facts().NumBasics(); k > 40 {
		t.Errorf("facts of %d pieces, want at most 40", k)
	}
	for n := int64(-1); n <= 40; n++ {
		for _, m := range []int64{-1, 0, 17, 39, 40} {
			want := 0 <= n && n <= 39 && 0 <= m && m <= 39
			if got := factsHold(ctx, t, s, n, m); got != want {
				t.Errorf("facts at N=%d M=%d: %v, want %v", n, m, got, want)
			}
		}
	}
}

// TestScopeFactsWeakened checks that a fact that does not coalesce (M
// one of the even numbers 0 to 78) and whose product with the facts would
// pass maxScopeFacts pieces is weakened to its simple hull (M >= 0):
// the facts hold at every point of the exact product, at some more (M
// odd, M past 78), at none where the enclosing facts or the hull fail,
// and keep the enclosing facts' pieces alone.
func TestScopeFactsWeakened(t *testing.T) {
	ctx := context.Background()
	s := NewScope([]string{"N", "M"})
	var ns, ms []int
	for k := range 40 {
		ns, ms = append(ns, k), append(ms, 2*k)
	}
	s, err := s.Assume(mustConstraint(t, s, disjunction("N", ns)))
	if err != nil {
		t.Fatal(err)
	}
	if s, err = s.Assume(mustConstraint(t, s, disjunction("M", ms))); err != nil {
		t.Fatal(err)
	}
	if k := s.Facts().NumBasics(); k > 40 {
		t.Errorf("facts of %d pieces, want at most 40", k)
	}
	for _, c := range []struct {
		n, m int64
		want bool
	}{{0, 0, true}, {39, 78, true}, {12, 40, true}, {12, 41, true}, {12, 1000, true}, {12, -1, false}, {-1, 0, false}, {40, 2, false}} {
		if got := factsHold(ctx, t, s, c.n, c.m); got != c.want {
			t.Errorf("facts at N=%d M=%d: %v, want %v", c.n, c.m, got, c.want)
		}
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
