package presburger

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// bestEffortMaps returns a map of few pieces (Simplify works on it as a
// whole) and one of more than simplifySubsetLimit pieces (piece by piece),
// each with an empty piece and redundant constraints to simplify away.
func bestEffortMaps(t *testing.T) []*Map {
	t.Helper()
	small := "[n] -> { [i, j] : (0 <= i <= n and 0 <= j <= i and j <= n + 5) or " +
		"(0 <= i <= n and 0 <= j <= n and i + j >= 2n + 1) or (i >= n + 1 and i <= n + 3 and 3j >= i and 3j <= i + 1 and j >= 0) }"
	var pieces []string
	for k := range simplifySubsetLimit + 8 {
		pieces = append(pieces, fmt.Sprintf("(%d <= i <= %d + n and 0 <= j <= i and j <= i + %d and n >= 0)", 10*k, 10*k+2, k))
	}
	pieces = append(pieces, "(0 <= i <= n and 0 <= j <= n and i + j >= 2n + 1)")
	large := "[n] -> { [i, j] : " + strings.Join(pieces, " or ") + " }"
	var out []*Map
	for _, s := range []string{small, large} {
		m, err := ParseSet(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// TestSimplifyBestEffort checks that a simplification whose pieces run
// out of their steps keeps them as they are, the same set as the exact
// simplification, and that with enough steps it is the exact one.
func TestSimplifyBestEffort(t *testing.T) {
	ctx := context.Background()
	for _, m := range bestEffortMaps(t) {
		exact, err := m.Simplify(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if exact.NumBasics() >= m.NumBasics() {
			t.Fatalf("Simplify removed no piece of %s: the test needs one", m)
		}
		full, done, err := m.SimplifyBestEffort(ctx, 1_000_000)
		if err != nil || !done || full.String() != exact.String() {
			t.Errorf("SimplifyBestEffort with enough steps = %s, %v, %v; want %s, true", full, done, err, exact)
		}
		// One step for the whole map and one per piece: every piece
		// that needs the simplifier is kept as it is.
		kept, done, err := m.SimplifyBestEffort(WithBudget(ctx, Budget{MaxSteps: 1}), 1)
		if err != nil {
			t.Fatal(err)
		}
		if done {
			t.Errorf("SimplifyBestEffort with one step reports every piece simplified")
		}
		if kept.NumBasics() <= exact.NumBasics() {
			t.Errorf("SimplifyBestEffort with one step has %d pieces, want more than the exact %d", kept.NumBasics(), exact.NumBasics())
		}
		if eq, err := kept.IsEqual(ctx, exact); err != nil || !eq {
			t.Errorf("SimplifyBestEffort with one step = %s, not equal to %s (%v)", kept, exact, err)
		}
	}
}

// TestSimplifyBestEffortAllowance checks that an exhausted allowance is
// not taken for a piece's budget: it is returned, not swallowed.
func TestSimplifyBestEffortAllowance(t *testing.T) {
	for _, m := range bestEffortMaps(t) {
		ctx := WithAllowance(context.Background(), NewAllowance(1))
		_, _, err := m.SimplifyBestEffort(ctx, 1_000_000)
		if !errors.Is(err, ErrAllowance) || errors.Is(err, ErrBudget) {
			t.Errorf("SimplifyBestEffort over an allowance of one step: %v, want ErrAllowance", err)
		}
		cctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, _, err := m.SimplifyBestEffort(cctx, 1_000_000); err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("SimplifyBestEffort under a cancelled context: %v", err)
		}
	}
}
