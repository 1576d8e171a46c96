package presburger

import (
	"context"
	"errors"
	"testing"
)

// TestSharedBudget checks that operations run within WithSharedBudget
// count their steps together: each alone fits the budget, all of them
// exceed it.
func TestSharedBudget(t *testing.T) {
	m, err := ParseMap("[N] -> { [i, j] : 0 <= i < N and 0 <= j < i and (i + j) mod 3 = 0 }")
	if err != nil {
		t.Fatal(err)
	}
	// the steps of one optimum alone
	probe := WithSharedBudget(context.Background(), Budget{MaxSteps: 1 << 30})
	if _, err := LexMax(probe, m); err != nil {
		t.Fatal(err)
	}
	one := probe.Value(meterKey{}).(*meter).steps
	if one == 0 {
		t.Fatal("the optimum counted no step")
	}
	b := Budget{MaxSteps: one + one/2}
	if _, err := LexMax(WithBudget(context.Background(), b), m); err != nil {
		t.Fatalf("one optimum within %d steps: %v", b.MaxSteps, err)
	}
	shared := WithSharedBudget(context.Background(), b)
	var last error
	for range 3 {
		if _, last = LexMax(shared, m); last != nil {
			break
		}
	}
	if !errors.Is(last, ErrBudget) {
		t.Errorf("three optima on one budget of %d steps: %v, want ErrBudget", b.MaxSteps, last)
	}
}

// TestSharedBudgetCountsAllowance checks that the operations run within
// WithSharedBudget count their steps against the allowance of the context
// too, so that a shared budget does not hide work from it.
func TestSharedBudgetCountsAllowance(t *testing.T) {
	m, err := ParseMap("[N] -> { [i, j] : 0 <= i < N and 0 <= j < i and (i + j) mod 3 = 0 }")
	if err != nil {
		t.Fatal(err)
	}
	counted := NewAllowance(0)
	ctx := WithSharedBudget(WithAllowance(context.Background(), counted), Budget{MaxSteps: 1 << 30})
	if _, err := LexMax(ctx, m); err != nil {
		t.Fatal(err)
	}
	steps := ctx.Value(meterKey{}).(*meter).steps
	if steps == 0 || counted.Used() != int64(steps) {
		t.Fatalf("the shared budget counted %d steps, the allowance %d: want the same, not 0", steps, counted.Used())
	}
	short := NewAllowance(int64(steps / 2))
	ctx = WithSharedBudget(WithAllowance(context.Background(), short), Budget{MaxSteps: 1 << 30})
	if _, err := LexMax(ctx, m); !errors.Is(err, ErrAllowance) {
		t.Fatalf("an optimum of %d steps within an allowance of %d: %v, want ErrAllowance", steps, steps/2, err)
	}
}
