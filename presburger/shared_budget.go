package presburger

import "context"

// WithSharedBudget returns a context whose operations all count their
// steps against one budget b, shared: a computation made of many
// operations (an optimum, then checks of its pieces) is bounded as a
// whole, where WithBudget bounds each operation alone. The operations
// must run one after the other, never concurrently. Their steps also
// count against the allowance of ctx (WithAllowance), if any.
func WithSharedBudget(ctx context.Context, b Budget) context.Context {
	ctx = context.WithValue(ctx, budgetKey{}, b)
	return context.WithValue(ctx, meterKey{}, newMeterFresh(ctx))
}

// newMeterFresh returns a meter of ctx's budget that no enclosing meter
// shares; its steps count against the allowance of ctx, if any, as every
// meter's do.
func newMeterFresh(ctx context.Context) *meter {
	return &meter{ctx: ctx, b: budgetFrom(ctx), allow: allowanceFrom(ctx)}
}

// Steps counts n steps of a caller's own work against the budget of ctx,
// as n single steps of an operation: on the meter that ctx shares
// (WithSharedBudget), or else on one of ctx's budget for this call alone,
// and against the allowance of ctx. It returns a wrapped ErrBudget once
// the budget is spent, a wrapped ErrAllowance once the allowance is, at
// the first step past either (the rest of n is not counted). Callers
// that build sets of their own (package quasiaffine's connectives) count
// that work with it, so that a budget shared by a computation stops the
// construction of its sets too, not only the operations on them.
func Steps(ctx context.Context, n int) error {
	return newMeter(ctx).stepN(n)
}

// EntriesPerStep is the number of matrix entries (a coefficient of a
// constraint or of a division's numerator) whose construction counts as
// one step (BuildSteps): one step is about one pass over a conjunction of
// 30 constraints of 30 columns, as in an emptiness test.
const EntriesPerStep = 1_000

// BuildSteps returns the steps of building n conjunctions of entries
// matrix entries in all: a step per conjunction and a step per
// EntriesPerStep entries, so that a conjunction of thousands of division
// columns counts as the many steps of work it is.
func BuildSteps(n, entries int) int {
	return n + entries/EntriesPerStep
}
