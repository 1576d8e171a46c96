package symeval

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
)

// TestKnownDomainExcludes checks that a scope's knowledge kept as its
// parts (facts and assumptions of 9 and 8 pieces, past maxKnownProduct)
// excludes exactly the sets that their intersection built whole
// excludes, that the small product is built whole, and that the pairs it
// meets count against the step allowance: one step short, it stops.
func TestKnownDomainExcludes(t *testing.T) {
	facts, assumed, k := splitKnown(t)
	if k.whole != nil {
		t.Fatalf("%d x %d pieces built whole", facts.NumBasics(), assumed.NumBasics())
	}
	whole, err := facts.Intersect(assumed)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		set   string
		empty bool
	}{
		{"[N, P] -> { : P = 7 and N = 20 }", true},  // N >= 21 where P = 7
		{"[N, P] -> { : P = 7 and N = 85 }", false}, // within the facts' last piece
		{"[N, P] -> { : P = 9 }", true},             // no assumption's piece
		{"[N, P] -> { : N >= 90 }", true},           // past the facts
		{"[N, P] -> { : P = 0 and N < 0 }", true},   // before the facts
	} {
		m := mustMap(t, tc.set)
		got, err := k.excludes(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		want := meetsNothing(t, m, whole)
		if got != want || got != tc.empty {
			t.Errorf("%s: excluded %v, by the whole intersection %v, want %v", tc.set, got, want, tc.empty)
		}
	}
	small, err := newKnownDomain(mustMap(t, "[N, P] -> { : N >= 0 }"), assumed)
	if err != nil {
		t.Fatal(err)
	}
	if small.whole == nil {
		t.Error("1 x 8 pieces kept apart")
	}
	// Every pair of pieces is met to exclude a set that meets none.
	m := mustMap(t, "[N, P] -> { : P = 9 }")
	a := presburger.NewAllowance(0)
	if _, err := k.excludes(presburger.WithAllowance(ctx, a), m); err != nil {
		t.Fatal(err)
	}
	if a.Used() < int64(facts.NumBasics()) {
		t.Fatalf("%d steps for %d pieces of facts", a.Used(), facts.NumBasics())
	}
	if _, err := k.excludes(presburger.WithAllowance(ctx, presburger.NewAllowance(a.Used()-1)), m); !errors.Is(err, presburger.ErrAllowance) {
		t.Errorf("within %d steps: %v, want the step allowance to run out", a.Used()-1, err)
	}
}

// TestIntersectAssumed checks that garbage iterations restricted to
// assumptions of many pieces, a pair of pieces at a time, are the
// restriction built whole, empty where it is, and that the pairs count
// against the step allowance.
func TestIntersectAssumed(t *testing.T) {
	var its, as []string
	for i := range 9 {
		its = append(its, fmt.Sprintf("[x] : 4*%d <= x < 4*%d + 4 and x < N", i, i))
	}
	for c := range 8 {
		as = append(as, fmt.Sprintf(": P = %d and N >= %d", c, 5*c))
	}
	it := mustMap(t, "[N, P] -> { "+strings.Join(its, "; ")+" }")
	assumed := mustMap(t, "[N, P] -> { "+strings.Join(as, "; ")+" }")
	ctx := context.Background()
	a := presburger.NewAllowance(0)
	got, err := intersectAssumed(presburger.WithAllowance(ctx, a), it, assumed)
	if err != nil {
		t.Fatal(err)
	}
	want, err := it.IntersectParams(assumed)
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := got.IsEqual(ctx, want); err != nil || !eq {
		t.Fatalf("%s, want %s (%v)", got, want, err)
	}
	if a.Used() < int64(it.NumBasics()*assumed.NumBasics()) {
		t.Errorf("%d steps for %d pairs", a.Used(), it.NumBasics()*assumed.NumBasics())
	}
	if _, err := intersectAssumed(presburger.WithAllowance(ctx, presburger.NewAllowance(a.Used()-1)), it, assumed); !errors.Is(err, presburger.ErrAllowance) {
		t.Errorf("within %d steps: %v, want the step allowance to run out", a.Used()-1, err)
	}
	none, err := intersectAssumed(ctx, it, mustMap(t, "[N, P] -> { : N < 0 }"))
	if err != nil {
		t.Fatal(err)
	}
	if empty, err := none.IsEmpty(ctx); err != nil || !empty {
		t.Errorf("under N < 0: %s (%v), want empty", none, err)
	}
}

// TestKnownDomainSkipsContradictingPieces checks that a scope's
// knowledge kept as its parts answers as the whole intersection where
// excludes skips the pieces whose parameter bounds contradict the set's,
// in the facts (N >= 90 against the pieces below 90, N = 85 against all
// but the last) and in the assumptions met after them (P = 7 against
// P = c for c /= 7), and that a skipped piece still costs its step.
// BenchmarkKnownDomainExcludes measures what the skip saves.
func TestKnownDomainSkipsContradictingPieces(t *testing.T) {
	facts, assumed, k := splitKnown(t)
	whole, err := facts.Intersect(assumed)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		set   string
		empty bool
		steps int64
	}{
		// Every piece of the facts contradicts N >= 90.
		{"[N, P] -> { : N >= 90 }", true, 9},
		// N = 85 meets the facts' last piece only, and P = 7 the
		// assumptions' last piece only: those two are built and
		// tested (steps not counted here).
		{"[N, P] -> { : P = 7 and N = 85 }", false, 0},
	} {
		m := mustMap(t, tc.set)
		a := presburger.NewAllowance(0)
		got, err := k.excludes(presburger.WithAllowance(ctx, a), m)
		if err != nil {
			t.Fatal(err)
		}
		want := meetsNothing(t, m, whole)
		if got != want || got != tc.empty {
			t.Errorf("%s: excluded %v, by the whole intersection %v, want %v", tc.set, got, want, tc.empty)
		}
		if tc.steps > 0 && a.Used() != tc.steps {
			t.Errorf("%s: %d steps, want %d: a step per piece", tc.set, a.Used(), tc.steps)
		}
	}
}

// BenchmarkKnownDomainExcludes measures the exclusion of a value's
// piece condition by facts and assumptions of 9 and 64 pieces kept
// apart, most of whose pairs contradict the condition's bounds (a
// specialisation's branch against the others' conjunctions), as
// Scope.prune's tests of a let's pieces do, 16 under one scope.
func BenchmarkKnownDomainExcludes(b *testing.B) {
	var fs, as []string
	for i := range 9 {
		fs = append(fs, fmt.Sprintf(": 10*%d <= N < 10*%d + 10 and M >= N", i, i))
	}
	for c := range 64 {
		as = append(as, fmt.Sprintf(": P = %d and N >= %d and M <= 1000", c, c))
	}
	var ms []*presburger.Map
	for _, src := range []string{"[N, M, P] -> { " + strings.Join(fs, "; ") + " }", "[N, M, P] -> { " + strings.Join(as, "; ") + " }",
		"[N, M, P] -> { : P = 63 and N >= 80 and M >= 2000 }"} {
		m, err := presburger.ParseMap(src)
		if err != nil {
			b.Fatal(err)
		}
		ms = append(ms, m)
	}
	facts, assumed, m := ms[0], ms[1], ms[2]
	ctx := context.Background()
	for b.Loop() {
		k, err := newKnownDomain(facts, assumed)
		if err != nil {
			b.Fatal(err)
		}
		// A let's pieces are tested several times under one scope.
		for range 16 {
			if empty, err := k.excludes(ctx, m); err != nil || !empty {
				b.Fatalf("excluded %v (%v), want true", empty, err)
			}
		}
	}
}

// splitKnown returns facts of 9 pieces (ranges of N) and assumptions of 8
// (cases of P with lower bounds on N), and the scope's knowledge of the
// two, past maxKnownProduct and so kept as its parts.
func splitKnown(t *testing.T) (facts, assumed *presburger.Map, k *knownDomain) {
	t.Helper()
	var fs, as []string
	for i := range 9 {
		fs = append(fs, fmt.Sprintf(": 10*%d <= N < 10*%d + 10", i, i))
	}
	for c := range 8 {
		as = append(as, fmt.Sprintf(": P = %d and N >= %d", c, 3*c))
	}
	facts = mustMap(t, "[N, P] -> { "+strings.Join(fs, "; ")+" }")
	assumed = mustMap(t, "[N, P] -> { "+strings.Join(as, "; ")+" }")
	k, err := newKnownDomain(facts, assumed)
	if err != nil {
		t.Fatal(err)
	}
	return facts, assumed, k
}

// meetsNothing reports whether m and whole have no point in common.
func meetsNothing(t *testing.T, m, whole *presburger.Map) bool {
	t.Helper()
	x, err := m.Intersect(whole)
	if err != nil {
		t.Fatal(err)
	}
	empty, err := x.IsEmpty(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return empty
}
