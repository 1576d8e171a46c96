package presburger

import (
	"context"
	"testing"
)

// TestEmptyChernikovAfterRounding is a set that is empty although its
// rational relaxation is not: i is in [N-3, N-1]; 2*e2 <= i+1 <= N and
// 2*e2 + 1 >= N + T + j with T >= 1, j >= 0 force 2*e2 = N = i + 1, T = 1
// and j = 0, so N is even, and then e0 = floor((N+1)/2) = N/2 contradicts
// 2*e0 >= N + T = N + 1. The Omega test used to answer non-empty: after a
// gcd normalisation rounded a constant, Chernikov's rule dropped a
// combined row as rationally redundant although the rounding had made it
// stronger than the combinations its history stood for.
func TestEmptyChernikovAfterRounding(t *testing.T) {
	const src = `[N, T] -> { A[i, j] : exists (e0 = floor((N + T + j)/2), e1 = floor((i + j - 1)/2), e2 = floor((i + 1)/2): 2*N + T >= 2*e2 + 5 and N >= 3 and N >= j + 4 and N >= i + 1 and T >= 1 and i >= 0 and i >= 2*e1 + 1 and j >= 0 and e1 >= 1 and e2 >= 1 and 2*e2 >= j and 2*e2 >= i and 2*e2 + 2 >= i + j and i + 3 >= N and 2*e0 >= N + T and 2*e2 + 1 >= N + T + j) }`
	s, err := ParseSet(src)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	empty, err := s.IsEmpty(ctx)
	if err != nil || !empty {
		t.Fatalf("IsEmpty = %v, %v; want true", empty, err)
	}
	for _, b := range s.Basics() {
		empty, err := b.IsEmpty(ctx)
		if err != nil || !empty {
			t.Fatalf("BasicMap.IsEmpty = %v, %v; want true\n%v", empty, err, dumpBasic(b))
		}
		eqs, ineqs := b.flatRows()
		if feas, err := omegaOnly(newMeter(ctx), eqs, ineqs, b.nVars()); err != nil || feas {
			t.Fatalf("Omega test alone: feasible = %v, %v; want false", feas, err)
		}
		if pt, err := b.Sample(ctx); err != nil || pt != nil {
			t.Fatalf("Sample = %v, %v; want nil", pt, err)
		}
	}
	// Dropping 2*e0 >= N + T leaves a non-empty set (N = 4, T = 1, i = 3,
	// j = 0), which must still be found.
	s2, err := ParseSet(`[N, T] -> { A[i, j] : exists (e1 = floor((i + j - 1)/2), e2 = floor((i + 1)/2): 2*N + T >= 2*e2 + 5 and N >= 3 and N >= j + 4 and N >= i + 1 and T >= 1 and i >= 0 and i >= 2*e1 + 1 and j >= 0 and e1 >= 1 and e2 >= 1 and 2*e2 >= j and 2*e2 >= i and 2*e2 + 2 >= i + j and i + 3 >= N and 2*e2 + 1 >= N + T + j) }`)
	if err != nil {
		t.Fatal(err)
	}
	if empty, err := s2.IsEmpty(ctx); err != nil || empty {
		t.Fatalf("relaxed set: IsEmpty = %v, %v; want false", empty, err)
	}
	for _, b := range s2.Basics() {
		pt, err := b.Sample(ctx)
		if err != nil || pt == nil || !bruteContains(b, pt) {
			t.Fatalf("relaxed set: Sample = %v, %v; want a point of the set", pt, err)
		}
	}
}

// TestEmptyChernikovMinimal is the same contradiction reduced to eight
// rows over [N, T, i, j, e2, e1, e0] (e1's two rows are satisfiable for
// every i + j but take part in the eliminations that used to go wrong).
func TestEmptyChernikovMinimal(t *testing.T) {
	rows := [][]int64{
		{1, 0, -1, 0, 0, 0, 0, -1},  // N >= i + 1
		{0, 1, 0, 0, 0, 0, 0, -1},   // T >= 1
		{-1, -1, 0, 0, 0, 0, 2, 0},  // 2*e0 >= N + T
		{-1, -1, 0, -1, 2, 0, 0, 1}, // 2*e2 + 1 >= N + T + j
		{0, 0, 1, 0, -2, 0, 0, 1},   // i + 1 >= 2*e2
		{0, 0, 1, 1, 0, -2, 0, -1},  // i + j - 1 >= 2*e1
		{0, 0, -1, -1, 0, 2, 0, 2},  // 2*e1 + 2 >= i + j
		{1, 1, 0, 1, 0, 0, -2, 0},   // N + T + j >= 2*e0
	}
	var ineqs [][]Int
	for _, r := range rows {
		ineqs = append(ineqs, intRow(r))
	}
	ctx := context.Background()
	if feas, err := omegaOnly(newMeter(ctx), nil, ineqs, 7); err != nil || feas {
		t.Fatalf("Omega test alone: feasible = %v, %v; want false", feas, err)
	}
	if feas, err := omegaFeasible(newMeter(ctx), nil, ineqs, 7); err != nil || feas {
		t.Fatalf("omegaFeasible = %v, %v; want false", feas, err)
	}
	// Without 2*e0 >= N + T the system has the point N = 2, T = 1, i = 1,
	// j = 0, e2 = 1, e1 = 0, e0 = 1.
	if feas, err := omegaOnly(newMeter(ctx), nil, ineqs[:2:2], 7); err != nil || !feas {
		t.Fatalf("relaxed system: feasible = %v, %v; want true", feas, err)
	}
	relaxed := append(append([][]Int(nil), ineqs[:2]...), ineqs[3:]...)
	if feas, err := omegaOnly(newMeter(ctx), nil, relaxed, 7); err != nil || !feas {
		t.Fatalf("relaxed system: feasible = %v, %v; want true", feas, err)
	}
}
