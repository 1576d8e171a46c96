package presburger

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestCoalesceBudgetBoundsWhole checks that a budget bounds a coalescing
// as a whole: each of its pair tests fits in the budget, all of them
// together do not, so the coalescing must run out.
func TestCoalesceBudgetBoundsWhole(t *testing.T) {
	var pieces []string
	for k := range 24 {
		// Disjoint, not mergeable: every pair is tested and kept apart.
		pieces = append(pieces, fmt.Sprintf("%d <= i <= %d + n and j = %d", 10*k, 10*k+2, k%3))
	}
	m, err := ParseSet("[n] -> { [i, j] : 0 <= n <= 1 and (" + strings.Join(pieces, " or ") + ") }")
	if err != nil {
		t.Fatal(err)
	}
	whole := newMeter(context.Background())
	if _, err := coalesce(withOneMeter(context.Background()), m, false); err != nil {
		t.Fatalf("unbounded coalesce: %v", err)
	}
	// Measure what the whole coalescing takes, then give it less.
	wctx := context.WithValue(context.Background(), meterKey{}, whole)
	c, err := coalesce(wctx, m, false)
	if err != nil {
		t.Fatal(err)
	}
	if c.NumBasics() != m.NumBasics() {
		t.Fatalf("coalesced %d disjoint pieces into %d", m.NumBasics(), c.NumBasics())
	}
	if whole.steps < 100 {
		t.Fatalf("the coalescing took %d steps: too few for the test to mean anything", whole.steps)
	}
	_, err = Coalesce(WithBudget(context.Background(), Budget{MaxSteps: whole.steps / 4}), m)
	if !errors.Is(err, ErrBudget) {
		t.Fatalf("coalescing that needs %d steps within %d: got %v, want ErrBudget", whole.steps, whole.steps/4, err)
	}
}
