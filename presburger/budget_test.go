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

// TestAllowanceBoundsAll checks that an allowance bounds the operations run
// under a context together, each within its own budget: it counts every
// step, stops them once exhausted with ErrAllowance (not ErrBudget, which
// callers take for one operation's limit), and Charge counts a caller's
// own steps against it.
func TestAllowanceBoundsAll(t *testing.T) {
	m, err := ParseSet("[n] -> { [i, j] : 0 <= i < n and 0 <= j < i or 2n <= i <= 3n and j = n }")
	if err != nil {
		t.Fatal(err)
	}
	run := func(ctx context.Context) error {
		for range 3 {
			if _, err := m.Complement(ctx); err != nil {
				return err
			}
			if _, err := m.IsEmpty(ctx); err != nil {
				return err
			}
		}
		return nil
	}
	counted := NewAllowance(0)
	if err := run(WithAllowance(context.Background(), counted)); err != nil {
		t.Fatalf("unbounded allowance: %v", err)
	}
	need := counted.Used()
	if need < 10 {
		t.Fatalf("the operations took %d steps: too few for the test to mean anything", need)
	}
	again := NewAllowance(0)
	if err := run(WithAllowance(context.Background(), again)); err != nil || again.Used() != need {
		t.Fatalf("the same operations took %d steps, then %d (%v): the count must not vary", need, again.Used(), err)
	}
	short := NewAllowance(need / 2)
	err = run(WithAllowance(context.Background(), short))
	if !errors.Is(err, ErrAllowance) || errors.Is(err, ErrBudget) {
		t.Fatalf("operations needing %d steps within %d: got %v, want ErrAllowance only", need, need/2, err)
	}
	// Each operation fits in its own budget: the allowance alone stops them.
	if err := run(WithBudget(context.Background(), Budget{MaxSteps: int(need)})); err != nil {
		t.Fatalf("each operation within a budget of %d steps: %v", need, err)
	}
	// Nested allowances both count.
	outer, inner := NewAllowance(0), NewAllowance(0)
	ctx := WithAllowance(WithAllowance(context.Background(), outer), inner)
	if err := run(ctx); err != nil || outer.Used() != need || inner.Used() != need {
		t.Fatalf("nested allowances counted %d and %d steps (%v), want %d each", outer.Used(), inner.Used(), err, need)
	}
	if err := Charge(ctx, 5); err != nil || inner.Used() != need+5 {
		t.Fatalf("Charge: %v, %d steps used, want %d", err, inner.Used(), need+5)
	}
	if err := Charge(WithAllowance(context.Background(), NewAllowance(3)), 4); !errors.Is(err, ErrAllowance) {
		t.Fatalf("Charge past the allowance: %v, want ErrAllowance", err)
	}
	cctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Charge(cctx, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("Charge on a cancelled context: %v", err)
	}
}

// TestChargePastAllowance checks that steps charged at once count as
// steps one after the other: the charge that crosses the bound stops at
// the first step past it, and Used is the bound plus one wherever the
// bound falls within the charge.
func TestChargePastAllowance(t *testing.T) {
	a := NewAllowance(10)
	ctx := WithAllowance(context.Background(), a)
	for i := 0; i < 2; i++ {
		if err := Charge(ctx, 4); err != nil {
			t.Fatalf("charge %d of 4 steps within 10: %v", i+1, err)
		}
	}
	if err := Charge(ctx, 4); !errors.Is(err, ErrAllowance) || a.Used() != 11 {
		t.Fatalf("12 steps within 10: %v, %d used; want ErrAllowance, 11 used", err, a.Used())
	}
	if err := Charge(ctx, 1); !errors.Is(err, ErrAllowance) || a.Used() != 11 {
		t.Fatalf("a step past the bound: %v, %d used; want ErrAllowance, 11 used", err, a.Used())
	}
}

// TestStepsSharedMeter checks Steps: n steps counted on the meter a
// shared budget installs, as n single steps (the count stops at the
// first past the budget, and the allowance counts as many), and without
// a shared budget on a meter of the call's own.
func TestStepsSharedMeter(t *testing.T) {
	a := NewAllowance(0)
	ctx := WithSharedBudget(WithAllowance(context.Background(), a), Budget{MaxSteps: 10})
	for i := 0; i < 2; i++ {
		if err := Steps(ctx, 4); err != nil {
			t.Fatalf("steps %d of 4 within a shared 10: %v", i+1, err)
		}
	}
	if err := Steps(ctx, 4); !errors.Is(err, ErrBudget) || a.Used() != 11 {
		t.Fatalf("12 steps within a shared 10: %v, %d counted; want ErrBudget, 11", err, a.Used())
	}
	own := WithBudget(context.Background(), Budget{MaxSteps: 5})
	for i := 0; i < 3; i++ {
		if err := Steps(own, 5); err != nil {
			t.Fatalf("5 steps within a budget of 5 per operation: %v", err)
		}
	}
	if err := Steps(own, 6); !errors.Is(err, ErrBudget) {
		t.Fatalf("6 steps within 5: %v, want ErrBudget", err)
	}
	if BuildSteps(3, 2*EntriesPerStep+1) != 5 {
		t.Errorf("BuildSteps(3, %d) = %d, want 5", 2*EntriesPerStep+1, BuildSteps(3, 2*EntriesPerStep+1))
	}
}
