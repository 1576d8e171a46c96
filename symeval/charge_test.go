package symeval

import (
	"context"
	"errors"
	"testing"

	"github.com/augur-verify/augur/presburger"
)

// TestIntersectionsCountSteps checks that restricting the points of a
// value obligation to parameter domains, an intersection that counts no
// steps of its own, counts against the step budget: a step per pair of
// pieces combined (8 pieces of points, 2 of the domain) and per
// constraint of the pieces built, and the budget runs out one step
// short of that.
func TestIntersectionsCountSteps(t *testing.T) {
	pts, err := presburger.ParseMap("[N] -> { [x] : x = 0 and N >= 0; [x] : x = 1 and N >= 1; [x] : x = 2 and N >= 2; [x] : x = 3 and N >= 3; " +
		"[x] : x = 4 and N >= 4; [x] : x = 5 and N >= 5; [x] : x = 6 and N >= 6; [x] : x = 7 and N >= 7 }")
	if err != nil {
		t.Fatal(err)
	}
	dom, err := presburger.ParseMap("[N] -> { : N <= 3; : N >= 10 }")
	if err != nil {
		t.Fatal(err)
	}
	run := func(max int64) (*presburger.Map, *presburger.Allowance, error) {
		a := presburger.NewAllowance(max)
		r, err := intersectParamsCharged(presburger.WithAllowance(context.Background(), a), pts, dom)
		return r, a, err
	}
	r, a, err := run(0)
	if err != nil {
		t.Fatal(err)
	}
	want := int64(pts.NumBasics()*dom.NumBasics() + constraintRows(r))
	if a.Used() != want || want <= 16 {
		t.Fatalf("%d steps counted for %d pairs building %d pieces of %d constraints, want %d", a.Used(), pts.NumBasics()*dom.NumBasics(), r.NumBasics(), constraintRows(r), want)
	}
	if _, _, err := run(want - 1); !errors.Is(err, presburger.ErrAllowance) {
		t.Fatalf("within %d steps: %v, want the step budget to run out", want-1, err)
	}
	if _, _, err := run(want); err != nil {
		t.Fatalf("within %d steps: %v", want, err)
	}
}

// TestFinalHeapRestrictionCountsBySize checks that the restriction of a
// heap to a parameter domain of several conjunctions (restrictEach) is
// the heap's intersection with them without its empty pieces, and that
// it counts a step per pair of pieces and per constraint it builds
// before it tests their emptiness: an allowance of fewer steps stops it
// with ErrAllowance, however cheap the emptiness tests.
func TestFinalHeapRestrictionCountsBySize(t *testing.T) {
	m, err := presburger.ParseMap("[N] -> { A[i] -> E[h] : h = i and 0 <= i < N; A[i] -> E[h] : h = 2i and N <= i < 2N; " +
		"A[i] -> E[h] : h = 3i and 2N <= i < 3N; A[i] -> E[h] : h = 0 and i = 3N }")
	if err != nil {
		t.Fatal(err)
	}
	dom, err := presburger.ParseMap("[N] -> { : N <= -1; : 4 <= N <= 8; : N >= 100 }")
	if err != nil {
		t.Fatal(err)
	}
	run := func(max int64) (*presburger.Map, *presburger.Allowance, error) {
		a := presburger.NewAllowance(max)
		r, err := restrictEach(presburger.WithAllowance(context.Background(), a), m, dom, nil)
		return r, a, err
	}
	r, a, err := run(0)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := m.IntersectParams(dom)
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := r.IsEqual(context.Background(), whole); err != nil || !eq {
		t.Fatalf("restriction %s, want %s (%v)", r, whole, err)
	}
	// N <= -1 leaves the ranges of the first three pieces empty: 9 of
	// the 12 pieces remain.
	if r.NumBasics() != 9 {
		t.Fatalf("restriction kept %d pieces, want the 9 non-empty ones", r.NumBasics())
	}
	min := int64(m.NumBasics()*dom.NumBasics() + constraintRows(whole))
	if a.Used() < min {
		t.Fatalf("%d steps counted for %d pairs building %d constraints, want at least %d", a.Used(), m.NumBasics()*dom.NumBasics(), constraintRows(whole), min)
	}
	if _, _, err := run(min - 1); !errors.Is(err, presburger.ErrAllowance) {
		t.Fatalf("within %d steps: %v, want the step budget to run out", min-1, err)
	}
}

// TestRestrictionSkipsContradictingPairs checks that restricting pieces
// to parameter domains of several conjunctions (intersectEach) builds no
// pair whose parameter bounds contradict each other: each piece meets
// two of the four conjunctions, and only those 4 of the 8 pairs are
// built and charged by their constraints; the restriction is the same
// set as the whole intersection.
func TestRestrictionSkipsContradictingPairs(t *testing.T) {
	m := mustMap(t, "[N, K] -> { A[i] -> E[h] : h = i and 0 <= i < N and K >= 3; A[i] -> E[h] : h = 2i and 0 <= i < N and K <= 2 }")
	dom := mustMap(t, "[N, K] -> { : K >= 5 and N >= 1; : K = 3 and N >= 2; : K <= 1 and N >= 3; : K <= 0 and N >= 4 }")
	a := presburger.NewAllowance(0)
	r, err := intersectParamsCharged(presburger.WithAllowance(context.Background(), a), m, dom)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := m.IntersectParams(dom)
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := r.IsEqual(context.Background(), whole); err != nil || !eq {
		t.Fatalf("restriction %s, want %s (%v)", r, whole, err)
	}
	if r.NumBasics() != 4 {
		t.Fatalf("restriction built %d pieces, want the 4 pairs that may meet (the whole intersection has %d)", r.NumBasics(), whole.NumBasics())
	}
	if want := int64(m.NumBasics()*dom.NumBasics() + constraintRows(r)); a.Used() != want {
		t.Fatalf("%d steps counted, want %d: a step per pair and the constraints of the pairs built", a.Used(), want)
	}
}

// TestRestrictionCountsTheValueSize checks that the restriction of a
// value's points to assumptions of several conjunctions (restrictPoints)
// counts the pieces it keeps, by their matrix entries, against the bound
// of the value's products (productSize): a restriction whose pieces
// exceed the bound stops with presburger.ErrBudget (the statement's
// obligations undecided) rather than holding them, while a bound they fit
// in gives the points, which the conjunctions do not multiply (they are
// kept apart), the same as the whole intersection under them.
func TestRestrictionCountsTheValueSize(t *testing.T) {
	pts := mustMap(t, "[N, M] -> { [i, h] : h = i and 0 <= i < N; [i, h] : h = 2i and N <= i < 2N }")
	dom := mustMap(t, "[N, M] -> { : N >= 8 and M >= 0; : N >= 8 and M <= -5; : 1 <= N <= 3 and M = 5; : N = 5 }")
	ctx := context.Background()
	coefficients := func(m *presburger.Map) int { return m.NumEntries() }
	whole, err := pts.IntersectParams(dom)
	if err != nil {
		t.Fatal(err)
	}
	// The 8 pairs of pieces and conjunctions are all kept.
	if whole.NumBasics() != 8 {
		t.Fatalf("whole intersection of %d pieces, want 8", whole.NumBasics())
	}
	size := &productSize{max: coefficients(pts) / 2}
	if _, _, err := restrictPoints(ctx, pts, nil, dom, size); !errors.Is(err, presburger.ErrBudget) {
		t.Fatalf("restriction within %d coefficients: %v, want presburger.ErrBudget", size.max, err)
	}
	size = &productSize{max: 2 * coefficients(pts)}
	r, assumed, err := restrictPoints(ctx, pts, nil, dom, size)
	if err != nil {
		t.Fatalf("restriction within %d coefficients: %v", size.max, err)
	}
	if r.NumBasics() != pts.NumBasics() || assumed != dom {
		t.Fatalf("restriction of %d pieces, assumptions kept apart %v: want %d and %s", r.NumBasics(), assumed, pts.NumBasics(), dom)
	}
	if r, err = r.IntersectParams(assumed); err != nil {
		t.Fatal(err)
	}
	if eq, err := r.IsEqual(ctx, whole); err != nil || !eq {
		t.Fatalf("restriction %s, want %s (%v)", r, whole, err)
	}
	if size.used == 0 {
		t.Fatal("the restriction counted no coefficient")
	}
}
