package validate

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/augur-verify/augur/symeval"
)

// ahead decides value conditions while the symbolic evaluation is still
// generating the others (symeval.AnalyzeOptions.Pending): the solver's
// work overlaps the evaluation's, which runs on one core. Its workers
// take the conditions in the order they are generated, until what they
// decided spent the validation's budget (budget.go); once the
// evaluation is over (finish), discharge takes the outcomes of the
// conditions decided or being decided (taken) and decides the others
// itself.
//
// The report is the one discharge alone would give: a condition's
// outcome does not depend on when or where it is decided, since each
// gets a fresh Z3 context and its limits are counted in resource units;
// a condition the evaluation dropped afterwards (the garbage writes'
// fallback) or that needs no solving (refuteEarly, the definedness
// probe) is decided for nothing, and its outcome is never looked at.
// What a condition decided ahead records on the side, a hit of the
// CPU-time guard, counts only once its outcome is used; an internal
// error is not recorded at all, but decided again by discharge, which
// records it.
type ahead struct {
	v    *validation
	stop *stopCtx
	wg   sync.WaitGroup

	mu   sync.Mutex
	cond *sync.Cond // signalled when a job is queued or ahead closes
	// queue holds the jobs no worker has started, in order.
	queue []*aheadJob
	// jobs holds every job by its condition.
	jobs map[*symeval.Condition]*aheadJob
	// keys holds the obligation key (obligationKey) of every condition
	// given, and seen those queued: duplicates are decided once.
	keys map[*symeval.Condition]string
	seen map[string]bool
	// closed: no job starts any more (finish or close).
	closed bool
	// used counts the outcomes taken.
	used atomic.Int64
	// spent is what the jobs decided spent, under mu: once it exhausts
	// the validation's budget (budget.go) no job starts.
	spent uint64
}

// aheadJob is a condition decided ahead.
type aheadJob struct {
	orig *symeval.Condition
	// cond is the condition as generated: the evaluation numbers the
	// conditions once it is over, while a worker may be reading it.
	cond    symeval.Condition
	started bool // under ahead.mu: a worker or discharge took it
	done    chan struct{}
	o       *outcome
	// internal: deciding the condition panicked.
	internal bool
	// whole: ahead was not stopped before the decision returned, so
	// that no interrupt cut it short (read after done is closed).
	whole bool
	guard atomic.Bool
}

// startAhead starts workers deciding conditions ahead, cancelled with
// parent or by close.
func (v *validation) startAhead(parent context.Context, workers int) *ahead {
	a := &ahead{v: v, stop: newStopCtx(parent), jobs: map[*symeval.Condition]*aheadJob{},
		keys: map[*symeval.Condition]string{}, seen: map[string]bool{}}
	a.cond = sync.NewCond(&a.mu)
	for range workers {
		a.wg.Add(1)
		go a.work()
	}
	return a
}

// obligationKey identifies a value condition's obligation: conditions of
// the same key are the same query (unrolled statements, repeated
// stages), decided once.
func obligationKey(c *symeval.Condition) string {
	return c.Obligation.Impl.Name + "=" + c.Obligation.Spec.Name + " " + c.Obligation.Points.String()
}

// add queues the pending value condition c, unless its obligation is
// queued already (symeval.AnalyzeOptions.Pending).
func (a *ahead) add(c *symeval.Condition) {
	key := obligationKey(c)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.keys[c] = key
	if a.closed || a.seen[key] {
		return
	}
	a.seen[key] = true
	j := &aheadJob{orig: c, cond: *c, done: make(chan struct{})}
	a.jobs[c] = j
	a.queue = append(a.queue, j)
	a.cond.Signal()
}

// key returns the obligation key of c, computed once.
func (a *ahead) key(c *symeval.Condition) string {
	if a != nil {
		a.mu.Lock()
		k, ok := a.keys[c]
		a.mu.Unlock()
		if ok {
			return k
		}
	}
	return obligationKey(c)
}

// work decides the queued jobs until ahead closes.
func (a *ahead) work() {
	defer a.wg.Done()
	for {
		a.mu.Lock()
		for len(a.queue) == 0 && !a.closed {
			a.cond.Wait()
		}
		if a.closed || a.v.overBudget(a.spent) {
			a.mu.Unlock()
			return
		}
		j := a.queue[0]
		a.queue = a.queue[1:]
		if j.started {
			a.mu.Unlock()
			continue
		}
		j.started = true
		a.mu.Unlock()
		a.decide(j)
		j.whole = a.stop.Err() == nil
		if j.o != nil {
			a.mu.Lock()
			a.spent += j.o.resources
			a.mu.Unlock()
		}
		close(j.done)
	}
}

// decide decides job j in a fresh Z3 context, like discharge's workers.
func (a *ahead) decide(j *aheadJob) {
	s, err := a.v.newSolverIn(a.stop, &j.guard)
	if err != nil {
		j.o = &outcome{status: symeval.Undecided, reason: "solver unavailable: " + err.Error()}
		return
	}
	defer s.close()
	defer func() {
		if r := recover(); r != nil {
			j.internal = true
		}
	}()
	if a.v.opts.beforeDecide != nil {
		a.v.opts.beforeDecide(j.cond.ID)
	}
	j.o = s.decide(&j.cond)
}

// finish stops the workers from starting jobs: those not started are
// discharge's. The jobs started go on.
func (a *ahead) finish() {
	a.mu.Lock()
	a.closed = true
	a.cond.Broadcast()
	a.mu.Unlock()
}

// halt stops the workers from starting jobs and interrupts those
// running, whose conditions discharge decides again if it needs them
// (taken); the outcomes already found stand. The definedness probe halts
// them once it has a failure to replay (probeRefutes): if the replay
// confirms it, no outcome decided ahead is looked at.
func (a *ahead) halt() {
	if a == nil {
		return
	}
	a.finish()
	a.stop.stop()
}

// close cancels the jobs still running and waits for the workers.
func (a *ahead) close() {
	a.finish()
	a.stop.stop()
	a.wg.Wait()
	a.stop.release()
}

// taken returns the outcome of condition c decided ahead, waiting for it
// if a worker is deciding it, or nil if discharge must decide c: no job
// was started for it, or the job's outcome is unusable (an internal
// error, the condition changed since, or ahead stopped or cancelled
// before the decision returned).
func (a *ahead) taken(c *symeval.Condition) *outcome {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	j := a.jobs[c]
	if j == nil || !j.started {
		if j != nil {
			// discharge decides it: no worker starts it now.
			j.started = true
		}
		a.mu.Unlock()
		return nil
	}
	a.mu.Unlock()
	<-j.done
	if j.internal || j.o == nil || !j.whole ||
		c.Status != symeval.Pending || c.Kind != j.cond.Kind || c.Obligation != j.cond.Obligation {
		return nil
	}
	if j.guard.Load() {
		a.v.guardHit.Store(true)
	}
	a.used.Add(1)
	return j.o
}
