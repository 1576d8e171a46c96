package symeval

import (
	"context"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// clampScope returns the scope of a loop 0 <= i < N under the assumption
// N >= 8, in which the reads of clampCases are made.
func clampScope(t *testing.T) *Scope {
	t.Helper()
	assumed, err := presburger.ParseMap("[N] -> { : N >= 8 }")
	if err != nil {
		t.Fatal(err)
	}
	s := NewScope([]string{"N"}).WithAssumptions(assumed)
	s, x := s.With("i")
	bound, err := s.Range(x, mustExpr(t, "0"), mustExpr(t, "N"))
	if err != nil {
		t.Fatal(err)
	}
	if s, err = s.Assume(bound); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestReadLocationPrunes checks that readLocation keeps only the pieces
// of a clamped index that the facts and the assumptions allow, and that
// it is the location wherever they hold.
func TestReadLocationPrunes(t *testing.T) {
	ctx := context.Background()
	s := clampScope(t)
	known, err := s.Facts().Intersect(s.assumed)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		read   string
		pieces int // of the pruned location
	}{
		// Inside the loop's range the clamps never apply.
		{"a[max(min(i, N - 1), 0), max(min(i, N - 1), 0)]", 1},
		// The upper clamp applies near the end, the lower one never.
		{"a[max(min(i + 3, N - 1), 0), max(min(i, N - 1), 0)]", 2},
		// Both apply, at either end of the range.
		{"a[max(min(i + 3, N - 1), 0), max(min(i - 2, N - 1), 0)]", 4},
		// Few pieces are not worth pruning (maxUnprunedRead).
		{"a[max(min(i, N - 1), 0)]", 4},
	} {
		x, ok := mustExpr(t, tc.read).(*syntax.Index)
		if !ok {
			t.Fatalf("%s is not an array access", tc.read)
		}
		full, err := location(s, x)
		if err != nil {
			t.Fatal(err)
		}
		pruned, err := readLocation(ctx, s, x)
		if err != nil {
			t.Fatal(err)
		}
		if pruned.NumBasics() != tc.pieces || full.NumBasics() < tc.pieces {
			t.Errorf("%s: %d pieces pruned, %d unpruned, want %d pruned and at least as many unpruned", tc.read, pruned.NumBasics(), full.NumBasics(), tc.pieces)
		}
		a, err := full.IntersectParams(known)
		if err != nil {
			t.Fatal(err)
		}
		b, err := pruned.IntersectParams(known)
		if err != nil {
			t.Fatal(err)
		}
		if eq, err := a.IsEqual(ctx, b); err != nil || !eq {
			t.Errorf("%s: pruned location %s differs from %s under the facts and assumptions (%v)", tc.read, b, a, err)
		}
	}
}

// TestUnionAll checks that unionAll is the union of its parts, space by
// space, every piece kept in order.
func TestUnionAll(t *testing.T) {
	ctx := context.Background()
	srcs := []string{
		"[N] -> { a[i] : 0 <= i < 3; b[j] : j = N }",
		"[N] -> { a[i] : i = N }",
		"[N] -> { a[i] : 10 <= i < 20 }",
		"[N] -> { b[j] : j = 2N }",
		"[N] -> { a[i] : i = 2N + 1; c[k] : k = 0 }",
	}
	var parts []*presburger.UnionMap
	want := presburger.NewUnionMap()
	for _, src := range srcs {
		u, err := presburger.ParseUnionMap(src)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, u)
		want = want.Union(u)
	}
	got, err := unionAll(parts)
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := got.IsEqual(ctx, want); err != nil || !eq {
		t.Fatalf("unionAll = %s, want %s (%v)", got, want, err)
	}
	pieces := map[string]int{"a": 4, "b": 2, "c": 1}
	for _, m := range got.Maps() {
		if n := pieces[m.Space().Out.Name]; m.NumBasics() != n {
			t.Errorf("%s: %d pieces, want %d", m.Space().Out.Name, m.NumBasics(), n)
		}
		wm := want.MapOf(m.Space())
		for i, b := range m.Basics() {
			if b.String() != wm.Basics()[i].String() {
				t.Errorf("%s: piece %d is %s, want %s", m.Space().Out.Name, i, b, wm.Basics()[i])
			}
		}
	}
}
