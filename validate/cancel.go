package validate

import "context"

// ReasonCancelled begins the reason of the report of a validation whose
// context ended before the verdict (see cancelled).
const ReasonCancelled = "cancelled"

// cancelled ends a validation whose context ended during phase, before
// the verdict, with the context's error and the report so far: UNKNOWN,
// with the reason ReasonCancelled and the context's cause, and the
// conditions as far as they were decided (results, nil when the symbolic
// evaluation did not finish). A condition not decided yet is undecided
// with the reason "cancelled". A failed condition keeps its status only
// with a confirmed counterexample: without the replay a failure is no
// evidence.
func (p *pipeline) cancelled(results []ConditionResult, phase string) *halt {
	rep := p.rep
	rep.Verdict = Unknown
	rep.Reason = cancelReason(p.ctx, phase)
	rep.Counterexample = nil
	rep.TimeBound = true // what was decided depends on when the cancellation came
	for i := range results {
		r := &results[i]
		switch {
		case r.Status == Failed && r.Counterexample == nil:
			r.Status = Undecided
			r.Reason = ReasonCancelled + " before the failure was confirmed: " + r.Reason
		case r.Status != Proved && r.Status != Failed && r.Status != Undecided:
			// Pending: the solver never answered.
			r.Status = Undecided
			r.Reason = ReasonCancelled
		}
	}
	rep.Conditions = results
	return &halt{rep: rep, err: p.ctx.Err()}
}

// cancelReason is the reason of a cancelled report: ReasonCancelled, the
// phase, and the context's cause when it says more than that the context
// was cancelled (the signal received, a deadline).
func cancelReason(ctx context.Context, phase string) string {
	reason := ReasonCancelled + " during " + phase
	if cause := context.Cause(ctx); cause != nil && cause != context.Canceled {
		reason += ": " + cause.Error()
	}
	return reason
}
