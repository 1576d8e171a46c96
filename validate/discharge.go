package validate

import (
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/augur-verify/augur/symeval"
)

// The discharge phase: the value conditions left pending by the symbolic
// evaluation go to the solver, Jobs at a time, each in a fresh Z3 context
// (solver.go, strategies.go); identical obligations are decided once, and
// a definedness probe (probe.go) may refute the kernel first.

// discharge is the discharge phase: the pending value conditions of l
// decided (decidePending). A cancellation ends the validation, with the
// conditions decided so far.
func (p *pipeline) discharge(v *validation, l *ledger) *halt {
	err := v.decidePending(l)
	p.phase("solve")
	if err != nil {
		return p.cancelled(l.results, "the solving")
	}
	if p.opts.aheadTaken != nil && v.ahead != nil {
		p.opts.aheadTaken(int(v.ahead.used.Load()))
	}
	return nil
}

// decidePending decides the pending value conditions of l that no
// earlier failure leaves undischarged, with Z3, Jobs at a time, and
// records their outcomes and results in l. Identical obligations
// (unrolled statements, repeated stages) are discharged once. It returns
// the context's error once cancelled; the conditions decided so far are
// recorded still.
func (v *validation) decidePending(l *ledger) error {
	conds := v.an.Conditions
	todo, dup := v.distinctPending(l)
	l.outcomes = map[int]*outcome{}
	if !v.opts.AllConditions && !v.refuted() && v.probeRefutes(l, todo) {
		return nil
	}
	// Progress counts every condition: those settled before the solver
	// (all but todo and their duplicates) at once, then each solved one
	// with its duplicates.
	all := len(conds)
	weight := map[int]int{}
	for _, j := range dup {
		weight[j]++
	}
	settled := all - len(todo) - len(dup)
	v.progress(Event{Phase: "solve", Done: settled, Total: all})
	if len(todo) == 0 {
		return nil
	}
	l.outcomes = v.solve(conds, todo, func(i int) {
		settled += 1 + weight[i]
		v.progress(Event{Phase: "solve", Done: settled, Total: all})
	})
	if n := v.cutAtBudget(conds, todo, l.outcomes); n > 0 && v.opts.Trace != nil {
		v.trace(fmt.Sprintf("%d conditions not decided: the validation's budget of %d resource units is spent", n, v.opts.TotalResources))
	}
	for i, j := range dup {
		if o, ok := l.outcomes[j]; ok {
			d := *o
			d.solver = fmt.Sprintf("same condition as C%d", conds[j].ID)
			d.seconds = 0
			l.outcomes[i] = &d
		}
	}
	v.settleDead(l)
	for i, o := range l.outcomes {
		r := &l.results[i]
		r.Status = statusOf(o.status)
		r.Reason = o.reason
		r.Solver = o.solver
		r.Seconds = o.seconds
		r.Resources = o.resources
		if v.opts.KeepSMT {
			r.SMT = o.smt
		}
	}
	return v.ctx.Err()
}

// distinctPending returns the pending value conditions of l to discharge,
// in order, each with an obligation of its own, and the others by the one
// of the same obligation (dup[i] = j: condition i has j's obligation).
func (v *validation) distinctPending(l *ledger) (todo []int, dup map[int]int) {
	first := map[string]int{}
	dup = map[int]int{}
	for i, c := range v.an.Conditions {
		if c.Status != symeval.Pending || l.skipped[i] {
			continue
		}
		key := v.ahead.key(c)
		if j, ok := first[key]; ok {
			dup[i] = j
			continue
		}
		first[key] = i
		todo = append(todo, i)
	}
	return todo, dup
}

// solve decides the conditions todo (indices into conds, in program
// order) on Jobs worker goroutines and returns their outcomes, by index;
// done is called with each index as its outcome comes, one call at a
// time. Once the context is cancelled no condition starts; those decided
// are returned. Nor does a condition start once the conditions before it
// that are over spent the validation's budget (budget.go).
func (v *validation) solve(conds []*symeval.Condition, todo []int, done func(i int)) map[int]*outcome {
	outcomes := map[int]*outcome{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := 0
	// take returns the next condition to decide, or ok false when none
	// is left to start.
	take := func() (i int, ok bool) {
		mu.Lock()
		defer mu.Unlock()
		if next >= len(todo) || v.ctx.Err() != nil || v.overBudget(spentBefore(todo, next, outcomes)) {
			next = len(todo)
			return 0, false
		}
		next++
		return todo[next-1], true
	}
	a := v.ahead
	for range min(v.opts.Jobs, len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, ok := take(); ok; i, ok = take() {
				o := v.decideOne(a, conds[i])
				mu.Lock()
				outcomes[i] = o
				// Under mu, so that the events come in order.
				done(i)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return outcomes
}

// decideOne returns the outcome of the value condition c: the one a
// decided ahead, or else its own. A fresh Z3 context per condition: what
// a query costs (and so whether it fits its resource limit) must not
// depend on which conditions the worker decided before, which depends
// on timing.
func (v *validation) decideOne(a *ahead, c *symeval.Condition) *outcome {
	if o := a.taken(c); o != nil {
		return o
	}
	s, err := newSolver(v)
	if err != nil {
		return &outcome{status: symeval.Undecided, reason: "solver unavailable: " + err.Error()}
	}
	defer s.close()
	return v.decideSafely(s, c)
}

// refuted reports whether a failure is confirmed already (refuteEarly).
func (v *validation) refuted() bool {
	for _, r := range v.cxs {
		if r.err == nil {
			return true
		}
	}
	return false
}

// probeRefutes runs the definedness probe (probe.go) on the conditions
// todo. A failure it finds refutes the kernel only once the interpreter
// replays it: the failure is then recorded in l (refuteByProbe), and
// probeRefutes reports true.
func (v *validation) probeRefutes(l *ledger, todo []int) bool {
	i, o := v.probeDefinedness(todo)
	if o == nil {
		return false
	}
	// The replay decides; the conditions being decided ahead meanwhile
	// matter only if it does not confirm the failure (ahead.halt).
	v.ahead.halt()
	l.outcomes[i] = o
	if cx, err := v.counterexampleOf(l, i); err == nil && cx.Reproduced {
		v.refuteByProbe(l, i, o)
		return true
	}
	delete(l.outcomes, i)
	delete(v.cxs, v.an.Conditions[i])
	return false
}

// refuteByProbe records in l the failed outcome o that the definedness
// probe found for the condition of index i (in l.outcomes, replayed by
// the interpreter), and leaves every other pending value condition
// undischarged: the kernel is refuted.
func (v *validation) refuteByProbe(l *ledger, i int, o *outcome) {
	r := &l.results[i]
	r.Status, r.Reason, r.Solver, r.Seconds, r.Resources = statusOf(o.status), o.reason, o.solver, o.seconds, o.resources
	if v.opts.KeepSMT {
		r.SMT = o.smt
	}
	for j, c := range v.an.Conditions {
		if j != i && c.Status == symeval.Pending && !l.skipped[j] {
			l.results[j].Status = Undecided
			l.results[j].Reason = fmt.Sprintf("not discharged: C%d already refutes the kernel", v.an.Conditions[i].ID)
			l.skipped[j] = true
		}
	}
	all := len(v.an.Conditions)
	v.progress(Event{Phase: "solve", Done: all, Total: all})
}

// decideSafely is s.decide with a panic turned into an undecided outcome
// and an internal error on the report: one bad query must not take the
// process down, nor decide a verdict.
func (v *validation) decideSafely(s *solver, c *symeval.Condition) (o *outcome) {
	defer func() {
		if r := recover(); r != nil {
			msg := v.internalError(fmt.Sprintf("condition C%d: %v", c.ID, r), debug.Stack())
			o = &outcome{status: symeval.Undecided, reason: msg}
		}
	}()
	if v.opts.beforeDecide != nil {
		v.opts.beforeDecide(c.ID)
	}
	return s.decide(c)
}
