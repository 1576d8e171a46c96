package validate

import (
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/augur-verify/augur/symeval"
)

// Discharge: the value conditions left pending by the symbolic
// evaluation go to the solver, Jobs at a time, each in a fresh Z3 context
// (solver.go); identical obligations are decided once, and a definedness
// probe (probe.go) may refute the kernel first.

// discharge decides the pending value conditions with Z3, Jobs at a time.
func (v *validation) discharge(results []ConditionResult) error {
	// Identical obligations (unrolled statements, repeated stages) are
	// discharged once.
	var todo []int
	first := map[string]int{}
	dup := map[int]int{}
	for i, c := range v.an.Conditions {
		if c.Status != symeval.Pending || v.skipped[i] {
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
	v.outcomes = map[int]*outcome{}
	if !v.opts.AllConditions && !v.refuted() {
		if i, o := v.probeDefinedness(todo); o != nil {
			// The probe's failure refutes the kernel only once the
			// interpreter replays it.
			v.outcomes[i] = o
			if cx, err := v.counterexampleOf(i); err == nil && cx.Reproduced {
				v.refuteByProbe(results, i, o)
				return nil
			}
			delete(v.outcomes, i)
			delete(v.cxs, v.an.Conditions[i])
		}
	}
	// Progress counts every condition: those settled before the solver
	// (all but todo and their duplicates) at once, then each solved one
	// with its duplicates.
	all := len(v.an.Conditions)
	weight := map[int]int{}
	for _, j := range dup {
		weight[j]++
	}
	settled := all - len(todo) - len(dup)
	v.progress(Event{Phase: "solve", Done: settled, Total: all})
	total := len(todo)
	if total == 0 {
		return nil
	}
	jobs := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	workers := v.opts.Jobs
	if workers > total {
		workers = total
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				// A fresh Z3 context per condition: what a query costs
				// (and so whether it fits its resource limit) must not
				// depend on which conditions the worker decided before,
				// which depends on timing.
				o := v.ahead.taken(v.an.Conditions[i])
				if o == nil {
					s, err := newSolver(v)
					if err != nil {
						o = &outcome{status: symeval.Undecided, reason: "solver unavailable: " + err.Error()}
					} else {
						o = v.decideSafely(s, v.an.Conditions[i])
						s.close()
					}
				}
				mu.Lock()
				v.outcomes[i] = o
				settled += 1 + weight[i]
				// Under mu, so that the events come in order.
				v.progress(Event{Phase: "solve", Done: settled, Total: all})
				mu.Unlock()
			}
		}()
	}
	for _, i := range todo {
		if v.ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	// Cancelled, the conditions decided so far are reported still.
	for i, j := range dup {
		if o, ok := v.outcomes[j]; ok {
			d := *o
			d.solver = fmt.Sprintf("same condition as C%d", v.an.Conditions[j].ID)
			d.seconds = 0
			v.outcomes[i] = &d
		}
	}
	for i, o := range v.outcomes {
		r := &results[i]
		r.Status = o.status.String()
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

// refuted reports whether a failure is confirmed already (refuteEarly).
func (v *validation) refuted() bool {
	for _, r := range v.cxs {
		if r.err == nil {
			return true
		}
	}
	return false
}

// refuteByProbe records in results the failed outcome o that the
// definedness probe found for the condition of index i (in v.outcomes,
// replayed by the interpreter), and leaves every other pending value
// condition undischarged: the kernel is refuted.
func (v *validation) refuteByProbe(results []ConditionResult, i int, o *outcome) {
	r := &results[i]
	r.Status, r.Reason, r.Solver, r.Seconds, r.Resources = o.status.String(), o.reason, o.solver, o.seconds, o.resources
	if v.opts.KeepSMT {
		r.SMT = o.smt
	}
	for j, c := range v.an.Conditions {
		if j != i && c.Status == symeval.Pending && !v.skipped[j] {
			results[j].Status = "undecided"
			results[j].Reason = fmt.Sprintf("not discharged: C%d already refutes the kernel", v.an.Conditions[i].ID)
			v.skipped[j] = true
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
