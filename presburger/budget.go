package presburger

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
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

// ErrAllowance is returned (wrapped) when the operations run under a
// context have together taken more steps than its Allowance. Unlike
// ErrBudget, which bounds one operation and which callers commonly treat
// as "this operation could not tell", it ends the whole piece of work
// that the allowance was given to: callers pass it on, as they pass on a
// cancellation.
var ErrAllowance = errors.New("presburger: step allowance exhausted")

// Allowance bounds the total work of every operation run under a context
// (WithAllowance), in the same elementary steps as Budget.MaxSteps: a
// long analysis made of many operations, each within its Budget, stops
// once it has used its allowance, after the same steps on any machine
// and under any load. It is safe for concurrent use, though steps counted
// from several goroutines are counted in an order that depends on their
// scheduling.
type Allowance struct {
	max  int64
	used atomic.Int64
}

// NewAllowance returns an allowance of max steps (max <= 0: unbounded,
// the steps are only counted).
func NewAllowance(max int64) *Allowance { return &Allowance{max: max} }

// Max returns the allowance's bound on steps (0: unbounded).
func (a *Allowance) Max() int64 {
	if a.max <= 0 {
		return 0
	}
	return a.max
}

// Used returns the steps counted so far.
func (a *Allowance) Used() int64 { return a.used.Load() }

// take counts n steps and fails once the total exceeds the bound. n
// steps charged at once (Charge) are n steps one after the other: the
// work stops at the first step past the bound, which is the last one
// counted (Used is then the bound plus one, wherever the bound falls).
func (a *Allowance) take(n int64) error {
	u := a.used.Add(n)
	if a.max <= 0 || u <= a.max {
		return nil
	}
	for u > a.max+1 && !a.used.CompareAndSwap(u, a.max+1) {
		u = a.used.Load()
	}
	return fmt.Errorf("%w: more than %d steps", ErrAllowance, a.max)
}

type allowanceKey struct{}

// WithAllowance returns a context under which every operation of this
// package also counts its steps against a (nil: none). Operations under
// the context that ctx already carries an allowance count against both.
func WithAllowance(ctx context.Context, a *Allowance) context.Context {
	if a == nil {
		return ctx
	}
	return context.WithValue(ctx, allowanceKey{}, allowanceChain{a: a, outer: allowanceFrom(ctx)})
}

// allowanceChain is the value WithAllowance stores: an allowance and the
// one of the context around, if any.
type allowanceChain struct {
	a     *Allowance
	outer *allowanceChain
}

func allowanceFrom(ctx context.Context) *allowanceChain {
	if ctx == nil {
		return nil
	}
	if c, ok := ctx.Value(allowanceKey{}).(allowanceChain); ok {
		return &c
	}
	return nil
}

func (c *allowanceChain) take(n int64) error {
	for ; c != nil; c = c.outer {
		if err := c.a.take(n); err != nil {
			return err
		}
	}
	return nil
}

// Charge counts n steps of a caller's own work (work done outside this
// package's operations, such as walking the pieces of a union) against
// the allowance of ctx, if any, and returns a wrapped ErrAllowance once
// it is used up, or the context's error once it is done.
func Charge(ctx context.Context, n int) error {
	if ctx == nil {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("presburger: %w", err)
	}
	return allowanceFrom(ctx).take(int64(n))
}

// CheckDisjuncts returns a wrapped ErrBudget when n pieces exceed the
// bound on disjuncts of the budget of ctx (Budget.MaxDisjuncts). Callers
// that build a union or a piecewise expression themselves (a comparison of
// expressions with min and max has one conjunction per pair of their
// pieces, a number exponential in the nesting) check its size with it
// before the work, which no step of an operation counts.
func CheckDisjuncts(ctx context.Context, n int) error {
	return (&meter{b: budgetFrom(ctx)}).checkDisjuncts(n)
}

// meter counts the work of one operation against its budget and context.
type meter struct {
	ctx   context.Context
	b     Budget
	steps int
	// allow is the allowance of ctx (WithAllowance), or nil.
	allow *allowanceChain
}

func newMeter(ctx context.Context) *meter {
	if ctx == nil {
		ctx = context.Background()
	}
	if m, ok := ctx.Value(meterKey{}).(*meter); ok {
		return m
	}
	return &meter{ctx: ctx, b: budgetFrom(ctx), allow: allowanceFrom(ctx)}
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
	if m.allow != nil {
		if err := m.allow.take(1); err != nil {
			return err
		}
	}
	if m.steps&63 == 0 {
		if err := m.ctx.Err(); err != nil {
			return fmt.Errorf("presburger: %w", err)
		}
	}
	return nil
}

// stepN records n units of work, one after the other: it stops at the
// first past the budget (or the allowance), counting no more.
func (m *meter) stepN(n int) error {
	if n <= 0 {
		return nil
	}
	if left := m.b.MaxSteps - m.steps; n > left {
		k := max(left, 0) + 1
		m.steps += k
		if m.allow != nil {
			if err := m.allow.take(int64(k)); err != nil {
				return err
			}
		}
		return fmt.Errorf("%w: more than %d steps", ErrBudget, m.b.MaxSteps)
	}
	m.steps += n
	if m.allow != nil {
		if err := m.allow.take(int64(n)); err != nil {
			return err
		}
	}
	if err := m.ctx.Err(); err != nil {
		return fmt.Errorf("presburger: %w", err)
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
