package symeval

import (
	"context"
	"testing"

	"github.com/augur-verify/augur/presburger"
)

// TestMergeConjs checks that mergeConjs merges the conjunctions whose
// union is one conjunction under the known domain, keeps apart those
// whose union is not convex, and never changes the points under it.
func TestMergeConjs(t *testing.T) {
	ctx := context.Background()
	s := NewScope([]string{"N"})
	s, _ = s.With("t")
	s, _ = s.With("i")
	sp := presburger.ParamSpace(s.Params())
	known, err := presburger.ParseMap("[N, t, i] -> { : N >= 8 and 0 <= i < 8 }")
	if err != nil {
		t.Fatal(err)
	}
	factsN, err := presburger.ParseMap("[N, t, i] -> { : N >= 8 }")
	if err != nil {
		t.Fatal(err)
	}
	rangeI, err := presburger.ParseMap("[N, t, i] -> { : 0 <= i < 8 }")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cond  string
		conjs int
	}{
		// N = 8 under the assumption, where 8t >= 7 is 8t >= N - 1.
		{"N <= 8 && 8 * t >= 7 || N >= 9 && 8 * t >= N - 1", 1},
		// Adjacent ranges of i.
		{"i <= 3 || i >= 4 && i <= 5", 1},
		// Two ranges with a gap stay apart.
		{"i <= 2 || i >= 5", 2},
		// Merged under known only: t >= 1 and t <= 0 cover everything.
		{"t >= 1 && i >= 0 || t <= 0", 1},
	} {
		d, err := s.translator().cond(mustExpr(t, tc.cond), false)
		if err != nil {
			t.Fatal(err)
		}
		if len(d) < 2 {
			t.Fatalf("%s: %d conjunctions before merging, want several", tc.cond, len(d))
		}
		got, err := mergeConjs(ctx, sp, &knownDomain{whole: known}, d)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != tc.conjs {
			t.Errorf("%s: %d conjunctions, want %d", tc.cond, len(got), tc.conjs)
		}
		// The same knowledge kept as two parts merges alike.
		if parts, err := mergeConjs(ctx, sp, &knownDomain{parts: []*presburger.Map{factsN, rangeI}}, d); err != nil || len(parts) != tc.conjs {
			t.Errorf("%s: as parts, %d conjunctions (%v), want %d", tc.cond, len(parts), err, tc.conjs)
		}
		before, err := lowerDNF(sp, d, nil)
		if err != nil {
			t.Fatal(err)
		}
		after, err := lowerDNF(sp, got, nil)
		if err != nil {
			t.Fatal(err)
		}
		if before, err = before.Intersect(known); err != nil {
			t.Fatal(err)
		}
		if after, err = after.Intersect(known); err != nil {
			t.Fatal(err)
		}
		if eq, err := before.IsEqual(ctx, after); err != nil || !eq {
			t.Errorf("%s: merged to %s, want %s under %s (%v)", tc.cond, after, before, known, err)
		}
	}
}
