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
