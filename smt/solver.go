package smt

// #include <stdlib.h>
// #include <z3.h>
import "C"

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"
	"unsafe"
)

// A Result is the answer of a satisfiability check.
type Result int

// The three answers of Z3.
const (
	Unknown Result = iota // Z3 gave up: see Solver.ReasonUnknown
	Sat                   // the assertions have a model: see Solver.Model
	Unsat                 // the assertions have no model
)

func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// A Solver is a Z3 solver (Z3_solver): a stack of assertions whose
// conjunction Check decides. It belongs to its Context and shares its
// goroutine restriction.
type Solver struct {
	ctx     *Context
	s       C.Z3_solver
	cleanup runtime.Cleanup
	closed  bool
	reason  string
	memout  bool          // see OutOfMemory
	timeout time.Duration // see SetTimeout
	rlimit  uint64        // see SetResourceLimit
	// cpuLimit is the CPU-time guard of each check (SetCPUGuard);
	// cpuHit, that the last check reached it.
	cpuLimit time.Duration
	cpuHit   bool
}

// Context returns the context the solver belongs to.
func (s *Solver) Context() *Context { return s.ctx }

var errSolverClosed = errors.New("smt: solver is closed")

// NewSolver makes a solver for all of Z3's theories (Z3_mk_solver). The
// context's WithTimeout, if any, is its initial time limit.
//
// Z3's general solver is costly to set up: a fresh one per small query
// takes milliseconds before any solving. For many small queries, reuse one
// solver between Push and Pop, or use NewSolverForLogic. Close solvers
// when done: the garbage collector does not see the memory Z3 holds for
// them.
func (c *Context) NewSolver() (*Solver, error) {
	return c.newSolver("", "NewSolver")
}

// NewSolverForLogic makes a solver specialised to an SMT-LIB logic such as
// "QF_BV" or "QF_LIA" (Z3_mk_solver_for_logic). Assertions outside the
// logic may make it answer Unknown.
func (c *Context) NewSolverForLogic(logic string) (*Solver, error) {
	if logic == "" {
		return nil, opError("NewSolverForLogic", "empty logic")
	}
	return c.newSolver(logic, "NewSolverForLogic")
}

// NewSimpleSolver makes Z3's plain SMT kernel, without the preprocessing
// tactics of NewSolver (Z3_mk_simple_solver). It is much cheaper to set up
// (a fraction of a millisecond instead of tens), which pays for many small
// queries, but it may leave undecided a query that NewSolver's
// preprocessing would decide. It honours SetResourceLimit, but Z3 4.8.12
// then reports the reason "unknown", not ReasonResourceLimit.
func (c *Context) NewSimpleSolver() (*Solver, error) {
	return c.newSolver(simpleLogic, "NewSimpleSolver")
}

// simpleLogic is newSolver's key for Z3_mk_simple_solver.
const simpleLogic = "\x00simple"

func (c *Context) newSolver(logic, op string) (*Solver, error) {
	z, err := c.enter()
	if err != nil {
		return nil, err
	}
	var p C.Z3_solver
	switch logic {
	case "":
		p = C.Z3_mk_solver(z)
	case simpleLogic:
		p = C.Z3_mk_simple_solver(z)
	default:
		p = C.Z3_mk_solver_for_logic(z, symbol(z, logic))
	}
	return c.adopt(z, op, p)
}

// adopt takes the solver p that operation op just made: it checks Z3's
// error, counts and references p, and gives it the context's timeout
// and resource limit.
func (c *Context) adopt(z C.Z3_context, op string, p C.Z3_solver) (*Solver, error) {
	if err := check(z, op); err != nil {
		return nil, err
	}
	if p == nil {
		return nil, opError(op, "Z3 returned no solver")
	}
	C.Z3_solver_inc_ref(z, p)
	c.take(relSolver, unsafe.Pointer(p))
	s := &Solver{ctx: c, s: p}
	s.cleanup = runtime.AddCleanup(s, c.h.releaseSolver, unsafe.Pointer(p))
	s.timeout = c.timeout
	if c.rlimit > 0 {
		if err := s.SetResourceLimit(c.rlimit); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// enter is Context.enter for an operation on the solver.
func (s *Solver) enter() (C.Z3_context, error) {
	if s == nil {
		return nil, errors.New("smt: nil solver")
	}
	z, err := s.ctx.enter()
	if err != nil {
		return nil, err
	}
	if s.closed {
		return nil, errSolverClosed
	}
	return z, nil
}

// Close gives the solver back to Z3 at once rather than when the garbage
// collector finds it unreachable. Using it afterwards is an error.
func (s *Solver) Close() error {
	if s == nil || s.closed || s.ctx == nil || s.ctx.h == nil {
		return nil
	}
	s.closed = true
	s.cleanup.Stop()
	if z := s.ctx.h.z; z != nil {
		C.Z3_solver_dec_ref(z, s.s)
		s.ctx.give(release{relSolver, unsafe.Pointer(s.s)})
	}
	return nil
}

// Assert adds formulas to the solver (Z3_solver_assert). It reports the
// error of a term that carries one, and Z3's error for a non-boolean term.
func (s *Solver) Assert(ts ...*Term) error {
	z, err := s.enter()
	if err != nil {
		return err
	}
	as, err := astsOf(s.ctx, ts)
	if err != nil {
		return err
	}
	for _, a := range as {
		C.Z3_solver_assert(z, s.s, a)
		if err := check(z, "Assert"); err != nil {
			return err
		}
	}
	runtime.KeepAlive(ts)
	return nil
}

// Push opens a scope (Z3_solver_push): Pop removes the assertions made
// since.
func (s *Solver) Push() error {
	z, err := s.enter()
	if err != nil {
		return err
	}
	C.Z3_solver_push(z, s.s)
	return check(z, "Push")
}

// Pop closes n scopes (Z3_solver_pop); n must not exceed NumScopes.
func (s *Solver) Pop(n int) error {
	z, err := s.enter()
	if err != nil {
		return err
	}
	if n < 0 || n > int(C.Z3_solver_get_num_scopes(z, s.s)) {
		return opError("Pop", fmt.Sprintf("cannot pop %d scopes", n))
	}
	C.Z3_solver_pop(z, s.s, C.uint(n))
	return check(z, "Pop")
}

// NumScopes is the number of open scopes (Z3_solver_get_num_scopes).
func (s *Solver) NumScopes() int {
	z, err := s.enter()
	if err != nil {
		return 0
	}
	return int(C.Z3_solver_get_num_scopes(z, s.s))
}

// Reset removes every assertion and scope (Z3_solver_reset).
func (s *Solver) Reset() error {
	z, err := s.enter()
	if err != nil {
		return err
	}
	C.Z3_solver_reset(z, s.s)
	return check(z, "Reset")
}

// SetTimeout limits the time of each later Check; zero means no limit. A
// Check that runs out of time returns Unknown with a nil error and
// ReasonUnknown "timeout".
//
// The limit is kept by a Go timer that interrupts Z3 (Z3_interrupt), the
// mechanism Check uses for cancellation. Z3's own "timeout" parameter is
// deliberately not used: in Z3 4.8.10 to 4.8.12 its timer thread pool can
// deadlock, leaving the check running forever.
func (s *Solver) SetTimeout(d time.Duration) error {
	if _, err := s.enter(); err != nil {
		return err
	}
	if d < 0 {
		return opError("SetTimeout", "negative timeout")
	}
	s.timeout = d
	return nil
}

// SetCPUGuard bounds the CPU time of each later Check, the time the
// thread running Z3 spends on it (cpuguard.go), not the wall-clock time;
// zero means no bound. A Check that reaches it is interrupted like one
// whose context is done and returns Unknown with a nil error, ReasonUnknown
// "timeout" and CPUGuardReached true. It is a guard against loops that
// count no resource units, which a machine's load does not bring closer.
func (s *Solver) SetCPUGuard(d time.Duration) error {
	if _, err := s.enter(); err != nil {
		return err
	}
	if d < 0 {
		return opError("SetCPUGuard", "negative guard")
	}
	s.cpuLimit = d
	return nil
}

// CPUGuardReached reports whether the last Check was stopped by the
// guard of SetCPUGuard.
func (s *Solver) CPUGuardReached() bool {
	return s != nil && s.cpuHit
}

// Check decides the satisfiability of the assertions (Z3_solver_check).
//
// When ctx is cancelled or its deadline passes during the check, a
// goroutine calls Z3_interrupt and Check returns Unknown with an error
// wrapping ctx.Err() (ReasonUnknown is then Z3's, usually "interrupted" or
// "canceled"), unless Z3 finished first, in which case its answer stands.
// The interruption is confined to this call: Check does not return before
// the watching goroutine has finished, and that goroutine interrupts only
// until Z3_solver_check returns, repeating the interrupt every
// interruptRepeat (Z3 forgets one that arrives before its check began);
// after one was sent, Check makes Z3 forget any still pending before it
// returns (clearInterrupt).
// The solver's own time limit (SetTimeout) works the same way but gives a
// nil error.
//
// A check that Z3 does not stop within unresponsiveGrace of the interrupt
// is abandoned: Check returns Unknown with ErrUnresponsive, and the Z3
// call goes on, on a thread of its own, until Z3 returns, which then
// deletes the context (see RunningChecks and LiveContexts).
//
// Unknown with a nil error means Z3 gave up by itself or ran out of the
// solver's time (incomplete theory, quantifiers, time limit);
// ReasonUnknown says why.
func (s *Solver) Check(ctx context.Context) (Result, error) {
	return s.check(ctx, nil, "Check")
}

// CheckAssumptions is Check with extra formulas (boolean constants or
// their negations) assumed for this check only
// (Z3_solver_check_assumptions).
func (s *Solver) CheckAssumptions(ctx context.Context, assumptions ...*Term) (Result, error) {
	return s.check(ctx, assumptions, "CheckAssumptions")
}

func (s *Solver) check(caller context.Context, assumptions []*Term, op string) (Result, error) {
	z, err := s.enter()
	if err != nil {
		return Unknown, err
	}
	if caller == nil {
		caller = context.Background()
	}
	as, err := astsOf(s.ctx, assumptions)
	if err != nil {
		return Unknown, err
	}
	s.reason, s.memout, s.cpuHit = "", false, false
	if err := caller.Err(); err != nil {
		s.reason = "canceled"
		return Unknown, fmt.Errorf("smt: %s: %w", op, err)
	}
	// ctx adds the solver's time limit to the caller's context.
	ctx := caller
	if s.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(caller, s.timeout)
		defer cancel()
	}
	var guard *cpuGuard
	if s.cpuLimit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		guard = newCPUGuard(s.cpuLimit, cancel)
		defer func() { s.cpuHit = guard.hit.Load() }()
	}

	h := s.ctx.h
	w := watch(h, ctx.Done())
	// Z3 runs on its own goroutine, so that a check that ignores both
	// its resource limit and the interruption (Z3 4.8.12 has such loops,
	// in the arithmetic of its SMT kernel) can be abandoned instead of
	// hanging the caller; that goroutine then deletes the context when
	// Z3 returns (endCheck).
	var r C.Z3_lbool
	finished := make(chan struct{})
	h.startCheck()
	go func() {
		defer close(finished)
		defer h.endCheck()
		if guard != nil {
			// The thread's CPU clock measures the check only while the
			// goroutine stays on it.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			guard.start()
		}
		if h.beforeCheck != nil {
			h.beforeCheck()
		}
		if len(as) == 0 {
			r = C.Z3_solver_check(z, s.s)
		} else {
			r = C.Z3_solver_check_assumptions(z, s.s, C.uint(len(as)), firstAST(as))
		}
		runtime.KeepAlive(assumptions)
		runtime.KeepAlive(s)
		if h.afterCheck != nil {
			h.afterCheck()
		}
	}()
	returned := h.await(ctx.Done(), finished)
	if guard != nil {
		guard.stop()
	}
	if !returned {
		w.stop(false)
		s.reason = "unresponsive"
		return Unknown, fmt.Errorf("smt: %s: %w", op, ErrUnresponsive)
	}
	if w.stop(true) {
		// Run last, once the check's error and reason are read.
		defer clearInterrupt(z)
	}

	if err := check(z, op); err != nil {
		var e *Error
		s.memout = errors.As(err, &e) && e.Code == int(C.Z3_MEMOUT_FAIL)
		return Unknown, err
	}
	switch r {
	case C.Z3_L_TRUE:
		return Sat, nil
	case C.Z3_L_FALSE:
		return Unsat, nil
	}
	s.reason = normaliseReason(C.GoString(C.Z3_solver_get_reason_unknown(z, s.s)))
	s.memout = memoryReason(s.reason)
	if err := caller.Err(); err != nil {
		return Unknown, fmt.Errorf("smt: %s: %w", op, err)
	}
	if ctx.Err() != nil {
		s.reason = "timeout"
	} else if s.rlimit > 0 && s.reason == "canceled" {
		// Nothing interrupted Z3: some of its procedures word the
		// exhaustion of the resource limit as a cancellation.
		s.reason = ReasonResourceLimit
	}
	return Unknown, nil
}

// A watcher interrupts a check once its context is done (watch).
type watcher struct {
	mu      sync.Mutex
	running bool // the check runs: interrupts are sent
	sent    bool // an interrupt was sent
	done    chan struct{}
	wg      sync.WaitGroup
}

// watch starts the goroutine that sends Z3_interrupt to h once done is
// closed, and again every interruptRepeat until the check stops (Z3
// forgets an interrupt sent before its check began); none if done is
// nil.
func watch(h *handle, done <-chan struct{}) *watcher {
	w := &watcher{running: true, done: make(chan struct{})}
	if done == nil {
		return w
	}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		select {
		case <-done:
		case <-w.done:
			return
		}
		tick := time.NewTicker(interruptRepeat)
		defer tick.Stop()
		for {
			w.mu.Lock()
			if w.running {
				h.interrupt()
				w.sent = true
			}
			w.mu.Unlock()
			select {
			case <-tick.C:
			case <-w.done:
				return
			}
		}
	}()
	return w
}

// stop ends the watching, once the check has returned (returned) or been
// abandoned, and reports whether an interrupt was sent.
func (w *watcher) stop(returned bool) bool {
	if returned {
		w.mu.Lock()
		w.running = false
		w.mu.Unlock()
	}
	close(w.done)
	w.wg.Wait()
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.sent
}

// ReasonUnknown is Z3's explanation of the last Check's Unknown
// (Z3_solver_get_reason_unknown), such as "timeout" (the solver's time
// limit), "interrupted" or "canceled" (the context.Context of Check), or
// "incomplete quantifiers"; empty after Sat or Unsat.
func (s *Solver) ReasonUnknown() string {
	if s == nil {
		return ""
	}
	return s.reason
}

// OutOfMemory reports whether the last Check stopped at Z3's memory limit
// (SetMemoryLimit): Z3 gave up for want of memory, or failed with its
// out-of-memory error. The limit bounds the whole process, every check
// running at the time, so that such an answer may differ from one run of
// the same query to the next.
func (s *Solver) OutOfMemory() bool {
	return s != nil && s.memout
}

// Model is the model found by the last Check (Z3_solver_get_model). It is
// an error to ask when the last Check did not answer Sat (after Unknown Z3
// may or may not have a candidate model).
func (s *Solver) Model() (*Model, error) {
	z, err := s.enter()
	if err != nil {
		return nil, err
	}
	if !s.ctx.models {
		return nil, opError("Model", "the context was made WithModels(false)")
	}
	m := C.Z3_solver_get_model(z, s.s)
	if err := check(z, "Model"); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, opError("Model", "no model")
	}
	return s.ctx.model(z, m), nil
}

// Assertions are the formulas asserted in the open scopes
// (Z3_solver_get_assertions).
func (s *Solver) Assertions() ([]*Term, error) {
	z, err := s.enter()
	if err != nil {
		return nil, err
	}
	v := C.Z3_solver_get_assertions(z, s.s)
	if err := check(z, "Assertions"); err != nil {
		return nil, err
	}
	return s.ctx.vectorTerms(z, v), nil
}

// vectorTerms wraps the elements of a Z3 AST vector and releases the
// vector.
func (c *Context) vectorTerms(z C.Z3_context, v C.Z3_ast_vector) []*Term {
	C.Z3_ast_vector_inc_ref(z, v)
	defer C.Z3_ast_vector_dec_ref(z, v)
	n := int(C.Z3_ast_vector_size(z, v))
	out := make([]*Term, n)
	for i := range out {
		out[i] = c.term(z, C.Z3_ast_vector_get(z, v, C.uint(i)), "vector")
	}
	return out
}

// String is Z3's rendering of the solver's assertions in SMT-LIB2
// (Z3_solver_to_string).
func (s *Solver) String() string {
	z, err := s.enter()
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return C.GoString(C.Z3_solver_to_string(z, s.s))
}
