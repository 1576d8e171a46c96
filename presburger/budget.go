package presburger

import (
	"context"
	"fmt"
)

// The sentinel ErrBudget (declared with the lexicographic optimiser) is
// returned wrapped when an operation of this file's callers exceeds its
// Budget.

// Budget bounds the work of the potentially exponential operations
// (emptiness with splinters, elimination of existentials, subtraction,
// complement). Zero fields take the defaults of DefaultBudget.
type Budget struct {
	// MaxSteps bounds the number of elementary steps (Omega test nodes,
	// eliminations, pieces produced) of one operation.
	MaxSteps int
	// MaxDisjuncts bounds the number of pieces of a result or intermediate union.
	MaxDisjuncts int
	// MaxConstraints bounds the number of constraints of one conjunction
	// produced during Fourier-Motzkin elimination.
	MaxConstraints int
}

// DefaultBudget returns the budget used when a context carries none.
func DefaultBudget() Budget {
	return Budget{MaxSteps: 2_000_000, MaxDisjuncts: 20_000, MaxConstraints: 5_000}
}

type budgetKey struct{}

// WithBudget returns a context carrying budget b for the operations of this
// package.
func WithBudget(ctx context.Context, b Budget) context.Context {
	return context.WithValue(ctx, budgetKey{}, b)
}

func budgetFrom(ctx context.Context) Budget {
	d := DefaultBudget()
	if ctx == nil {
		return d
	}
	if b, ok := ctx.Value(budgetKey{}).(Budget); ok {
		if b.MaxSteps > 0 {
			d.MaxSteps = b.MaxSteps
		}
		if b.MaxDisjuncts > 0 {
			d.MaxDisjuncts = b.MaxDisjuncts
		}
		if b.MaxConstraints > 0 {
			d.MaxConstraints = b.MaxConstraints
		}
	}
	return d
}

// meter counts the work of one operation against its budget and context.
type meter struct {
	ctx   context.Context
	b     Budget
	steps int
}

func newMeter(ctx context.Context) *meter {
	if ctx == nil {
		ctx = context.Background()
	}
	if m, ok := ctx.Value(meterKey{}).(*meter); ok {
		return m
	}
	return &meter{ctx: ctx, b: budgetFrom(ctx)}
}

// meterKey keys the meter an operation shares with the operations it
// runs (withOneMeter).
type meterKey struct{}

// withOneMeter makes every operation run within ctx count its steps on
// one meter, so that an operation made of many smaller ones (coalescing
// tests each pair of pieces, each row against a piece) is bounded as a
// whole by its budget, not each of its parts. The meter is not safe for
// concurrent use: the operation must run its parts one after the other.
func withOneMeter(ctx context.Context) context.Context {
	if _, ok := ctx.Value(meterKey{}).(*meter); ok {
		return ctx
	}
	return context.WithValue(ctx, meterKey{}, newMeter(ctx))
}

// step records one unit of work.
func (m *meter) step() error {
	m.steps++
	if m.steps > m.b.MaxSteps {
		return fmt.Errorf("%w: more than %d steps", ErrBudget, m.b.MaxSteps)
	}
	if m.steps&63 == 0 {
		if err := m.ctx.Err(); err != nil {
			return fmt.Errorf("presburger: %w", err)
		}
	}
	return nil
}

func (m *meter) checkDisjuncts(n int) error {
	if n > m.b.MaxDisjuncts {
		return fmt.Errorf("%w: %d disjuncts (max %d)", ErrBudget, n, m.b.MaxDisjuncts)
	}
	return nil
}

func (m *meter) checkConstraints(n int) error {
	if n > m.b.MaxConstraints {
		return fmt.Errorf("%w: %d constraints (max %d)", ErrBudget, n, m.b.MaxConstraints)
	}
	return nil
}
