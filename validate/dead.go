package validate

import (
	"context"
	"fmt"
	"slices"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/symeval"
)

// Dead stores. An annotation that is false only where the stored value
// is dead (no read of the kernel reads the cell, no out binding covers
// it: symeval.Analysis.DeadPoints) is a defect of the annotation, not
// evidence that an output is wrong: a compiler may compute lanes past
// the data, and its translator annotate them with elements that were
// never meant there. The kernel's format counts any annotation mismatch
// as a failure, so such a condition is not proved either: it is
// undecided, with the reason, and the verdict UNKNOWN.
//
// Only a condition not proved is looked at, and only when its statement
// has dead stores among its points: its obligation is decided again on
// the other points (the live ones). A failure there is the condition's
// failure, with its counterexample; a proof there leaves the condition
// undecided with the reason above. A failure the solver found at a live
// point is kept as it is.

// settleDead revisits, in program order, the annotation mismatch
// conditions of l that the solver did not prove and whose statement has
// dead stores among their points (settleDeadOne).
func (v *validation) settleDead(l *ledger) {
	idx := make([]int, 0, len(l.outcomes))
	for i := range l.outcomes {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	for _, i := range idx {
		if v.ctx.Err() != nil {
			return
		}
		if o := v.settleDeadOne(v.an.Conditions[i], l.outcomes[i]); o != nil {
			l.outcomes[i] = o
		}
	}
}

// settleDeadOne returns the outcome of the condition c, whose solver
// outcome is o, once its dead stores are set apart; nil when nothing
// changes.
func (v *validation) settleDeadOne(c *symeval.Condition, o *outcome) *outcome {
	if o.status == symeval.Proved || c.Kind != sched.WrongValue || c.Obligation == nil {
		return nil
	}
	live, dead, err := v.an.SplitDead(v.ctx, c)
	if err != nil || dead == nil {
		return nil
	}
	if o.status == symeval.Failed && !pointIn(v.ctx, dead, o.params) {
		return nil
	}
	why := fmt.Sprintf("the annotation is not proved at dead stores, whose cells no read of the kernel reads and no out binding covers (%s): no evidence of a wrong output, no proof of the annotation", clipReason(dead.String()))
	lo := &outcome{status: symeval.Proved}
	if live != nil {
		lo = v.decideOne(nil, live)
	}
	switch lo.status {
	case symeval.Failed:
		lo.seconds += o.seconds
		lo.resources += o.resources
		return lo
	case symeval.Proved:
		return &outcome{status: symeval.Undecided, solver: o.solver, seconds: o.seconds + lo.seconds, resources: o.resources + lo.resources, smt: o.smt,
			reason: why + "; " + lo.elsewhere()}
	default:
		return &outcome{status: symeval.Undecided, solver: o.solver, seconds: o.seconds + lo.seconds, resources: o.resources + lo.resources, smt: o.smt,
			reason: o.reason + "; at the other points (" + why + "): " + lo.reason}
	}
}

// elsewhere says how the proved outcome o of the live points of a
// condition was reached.
func (o *outcome) elsewhere() string {
	if o.solver == "" {
		return "every point of the condition is a dead store"
	}
	return "proved at every other point (" + o.solver + ")"
}

// pointIn reports whether the point given by values (by parameter name)
// lies in the parameter domain of m; false when a parameter has no value.
func pointIn(ctx context.Context, m *presburger.Map, values map[string]int64) bool {
	ps := m.Space().Params
	pt := make(map[string]presburger.Int, len(ps))
	for _, p := range ps {
		x, ok := values[p]
		if !ok {
			return false
		}
		pt[p] = presburger.NewInt(x)
	}
	b, err := m.Params().BindParams(pt)
	if err != nil {
		return false
	}
	empty, err := b.IsEmpty(ctx)
	return err == nil && !empty
}

// quickDead tells the quick test which annotation mismatches are at dead
// stores, from the kernel's scopes, built on first use.
type quickDead struct {
	ds   *symeval.DeadStores
	done bool
}

// at reports whether the annotation mismatch f, found by a run of the
// kernel of in at params, is at a dead store (symeval.DeadStores.DeadAt):
// then the proof would not report it as a failure, and it is no
// evidence. dom is the kernel's assumption domain.
func (q *quickDead) at(ctx context.Context, in *input, dom *presburger.Map, f *sched.Failure, params map[string]int64) bool {
	if !q.done {
		q.done = true
		q.ds, _ = symeval.NewDeadStores(ctx, in.kernel, dom)
	}
	if q.ds == nil {
		return false
	}
	values := make(map[string]int64, len(params)+len(f.Env))
	for k, x := range params {
		values[k] = x
	}
	for _, e := range f.Env {
		values[e.Name] = e.Value
	}
	dead, err := q.ds.DeadAt(ctx, f.Pos, values)
	return err == nil && dead
}
