package symeval

import (
	"context"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
)

// TestDropDisjoint: the pieces disjoint from the hull go, the others stay
// as they are.
func TestDropDisjoint(t *testing.T) {
	ctx := context.Background()
	m, err := presburger.ParseMap("[N, M] -> { [i] : 0 <= i < N and N <= 0; [i] : 0 <= i < N and M >= 9; [i] : N <= i < M }")
	if err != nil {
		t.Fatal(err)
	}
	h, err := presburger.ParseMap("[N, M] -> { : N >= 1 and M <= 10 }")
	if err != nil {
		t.Fatal(err)
	}
	got, err := dropDisjoint(ctx, m, h)
	if err != nil {
		t.Fatal(err)
	}
	if got.NumBasics() != 2 {
		t.Fatalf("dropDisjoint kept %d pieces of %v, want 2: %v", got.NumBasics(), m, got)
	}
	want, _ := presburger.ParseMap("[N, M] -> { [i] : 0 <= i < N and M >= 9; [i] : N <= i < M }")
	if eq, err := got.IsEqual(ctx, want); err != nil || !eq {
		t.Errorf("dropDisjoint = %v, want %v (%v)", got, want, err)
	}
}

const hullSpec = `param N, M
input A(i) : f32
tensor T(i) : f32
T(i) = A(i)
output T
`

// TestHullKeepsViolations: under assumptions of two conjunctions (the
// cases of a min), an out-of-bounds read possible under one of them only
// is still found, and one that the assumptions' common part rules out is
// proved.
func TestHullKeepsViolations(t *testing.T) {
	for _, c := range []struct {
		extent string
		fails  bool
	}{
		{"8", true},  // N > 8 is allowed when M <= 8
		{"N", false}, // in bounds under every case
	} {
		p := loadPair(t, "hull.sare", hullSpec, "hull.sched", `kernel k(N, M)
assume N >= 1
assume min(N, M) <= 8
in  a[i] : f32[`+c.extent+`] = A(i)
out t[i] : f32[N] = T(i)
{
  for i < N {
    t[i] {T(i)} := a[i]
  }
}
`)
		a, err := Analyze(context.Background(), p.kernel, p.kinfo, p.spec, p.sinfo, AnalyzeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if n := a.Assumptions.NumBasics(); n < 2 {
			t.Fatalf("the assumptions have %d conjunctions, want several: %v", n, a.Assumptions)
		}
		failed := false
		for _, cond := range a.Conditions {
			if cond.Kind == sched.OutOfBoundsRead && cond.Status == Failed {
				failed = true
			}
		}
		if failed != c.fails {
			t.Errorf("a[i] of extent %s: out-of-bounds read failed = %v, want %v", c.extent, failed, c.fails)
		}
	}
}

// TestAssumeOfManyCases: an assume whose condition has many cases (a
// chain of selects, as Halide writes its bounds) is compacted before it
// meets the other assumptions, whose cases it would multiply: the
// assumptions keep few conjunctions, and their points are those of the
// assume lines.
func TestAssumeOfManyCases(t *testing.T) {
	p := loadPair(t, "hull.sare", hullSpec, "hull.sched", `kernel k(N, M)
assume min(N, 4) + max(M, 2) >= 3
assume max(M, 7) + min(N, 5) <= M + N + 9
assume 0 <= select(0 < N, 0, select((N + 1) / 2 >= 1, M - 1, select((N + 1) / 2 == 0, 0, M + 1)))
assume select(0 < N, select((N + 1) / 2 >= 1, M - 1, select((N + 1) / 2 == 0, 0, M + 1)), 0) + 1 <= M
in  a[i] : f32[N] = A(i)
out t[i] : f32[N] = T(i)
{
  for i < N {
    t[i] {T(i)} := a[i]
  }
}
`)
	pr, err := Prophesy(context.Background(), p.kernel, p.kinfo, p.spec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The assume lines, by hand: for N > 0 the selects hold; for N <= 0,
	// (N + 1) / 2 <= 0 leaves M >= 1 and N + max(M, 2) >= 3.
	want, err := presburger.ParseMap("[N, M] -> { : max(M, 7) + min(N, 5) <= M + N + 9 and (N >= 1 or (N <= 0 and N + M >= 3)) }")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if eq, err := pr.Assumptions.IsEqual(ctx, want); err != nil || !eq {
		t.Errorf("assumptions %v, want %v (%v)", pr.Assumptions, want, err)
	}
	if n := pr.Assumptions.NumBasics(); n > 4 {
		t.Errorf("the assumptions have %d conjunctions, want at most 4: %v", n, pr.Assumptions)
	}
}
