package smt

/*
#cgo LDFLAGS: -lz3
#include <stdlib.h>
#include <z3.h>

// augurIgnoreError is installed as every context's error handler. Z3 has
// already stored the error code (and its message) in the context when it
// calls the handler; Go reads them back with Z3_get_error_code after each
// call. Z3's default handler would end the process instead.
static void augurIgnoreError(Z3_context c, Z3_error_code e) { (void)c; (void)e; }

static void augurSetErrorHandler(Z3_context c) { Z3_set_error_handler(c, augurIgnoreError); }

// augurClearInterrupt checks an empty solver: a check starts by
// forgetting the interrupts sent before it.
static void augurClearInterrupt(Z3_context c) {
	Z3_solver s = Z3_mk_simple_solver(c);
	Z3_solver_inc_ref(c, s);
	Z3_solver_check(c, s);
	Z3_solver_dec_ref(c, s);
}

// augurRelease gives back n references, of the kinds (0 term, 1 solver,
// 2 model) and objects given, in one call into C.
static void augurRelease(Z3_context c, const unsigned char *kinds, void *const *objs, size_t n) {
	for (size_t i = 0; i < n; i++) {
		switch (kinds[i]) {
		case 0: Z3_dec_ref(c, (Z3_ast)objs[i]); break;
		case 1: Z3_solver_dec_ref(c, (Z3_solver)objs[i]); break;
		case 2: Z3_model_dec_ref(c, (Z3_model)objs[i]); break;
		}
	}
}
*/
import "C"

import (
	"errors"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// A Context owns a Z3 context (Z3_mk_context_rc) and every sort, term,
// solver and model made from it. Objects of different contexts must not be
// mixed; doing so gives an error, never a crash.
//
// A Context is not safe for concurrent use: one goroutine at a time may
// call its methods or the methods of anything made from it. Use one Context
// per goroutine. The release of Z3 references by the garbage collector (see
// the package documentation), the interruption of Solver.Check and the
// deletion of a context whose check was abandoned are the only work done
// on other goroutines, and all are synchronised internally.
//
// Call Close when done; a Context that becomes unreachable without being
// closed is closed by the garbage collector.
type Context struct {
	h       *handle
	timeout time.Duration
	rlimit  uint64 // see WithResourceLimit
	models  bool
	// manual: queued references are given back only by ReleaseUnused
	// (see WithManualRelease).
	manual bool
	// live counts the Z3 references held by Go wrappers and not yet given
	// back; tests use it to check that nothing leaks.
	live int
	// held counts those references by object (see take and give), so
	// that Close can give them all back before deleting the context.
	held map[release]int32
	// simplified memoises Term.Simplify by the Z3 term simplified: the
	// verifier's encodings simplify the same index terms over and over
	// (nine calls in ten in fft's validation).
	simplified map[C.Z3_ast]simplifyMemo
}

// handle is the part of a Context that other goroutines touch: the Z3
// context pointer, needed by Z3_interrupt and by Close, and the queue of
// references whose Go wrappers the garbage collector found unreachable. It
// never points back at the Context or at a wrapper, so that registering it
// with runtime.AddCleanup does not keep them alive.
type handle struct {
	mu      sync.Mutex // guards z and pending
	z       C.Z3_context
	pending []release
	// abandoned: a check ignored its interruption and was left running
	// (await); z is nil from then on.
	abandoned bool
	// grace is how long a check may go on after Z3_interrupt (default
	// unresponsiveGrace; tests shorten it).
	grace time.Duration
	// checking: a check's call into Z3 is running (startCheck to
	// endCheck).
	checking bool
	// orphan is the Z3 context of an abandoned check (await), or of a
	// context closed while a check ran: the check's goroutine deletes it
	// once Z3 returns (endCheck), as it cannot be deleted under Z3.
	orphan C.Z3_context
	// beforeCheck, when set (by tests), runs on the check's goroutine
	// just before the call into Z3.
	beforeCheck func()
	// afterCheck, when set (by tests), runs on the check's goroutine
	// after Z3 returns, before Check notices: the window in which the
	// watcher's last interrupt may land with no check running.
	afterCheck func()
	// npending mirrors len(pending) so that the owning goroutine can see
	// an empty queue without locking.
	npending atomic.Int32

	// Prebuilt cleanup functions, one per kind of Z3 object, so that
	// registering a cleanup allocates no closure.
	releaseAST, releaseSolver, releaseModel func(unsafe.Pointer)
}

type releaseKind uint8

const (
	relAST releaseKind = iota
	relSolver
	relModel
)

type release struct {
	kind releaseKind
	p    unsafe.Pointer // the Z3 object, in C memory
}

func (h *handle) enqueue(kind releaseKind, p unsafe.Pointer) {
	h.mu.Lock()
	if h.z != nil {
		h.pending = append(h.pending, release{kind, p})
		h.npending.Store(int32(len(h.pending)))
	}
	h.mu.Unlock()
}

// Process-wide counts of the Z3 work in flight, for RunningChecks and
// LiveContexts: atomic, and written only by the functions that start and
// end that work.
var (
	runningChecks atomic.Int64
	liveContexts  atomic.Int64
)

// RunningChecks returns the number of calls into Z3_solver_check, in
// every context of the process, that have not returned: those of the
// checks under way and of the abandoned ones (ErrUnresponsive) that Z3
// has not stopped yet. Once every check has returned or been cancelled
// and Z3 has honoured its interrupts, it is zero: no thread of the
// process is left working in Z3.
func RunningChecks() int { return int(runningChecks.Load()) }

// LiveContexts returns the number of Z3 contexts of the process not yet
// deleted, with the memory they hold: those not closed, and those whose
// deletion waits for an abandoned check to return.
func LiveContexts() int { return int(liveContexts.Load()) }

// startCheck records that a check's call into Z3 starts.
func (h *handle) startCheck() {
	runningChecks.Add(1)
	h.mu.Lock()
	h.checking = true
	h.mu.Unlock()
}

// endCheck records that a check's call into Z3 returned, on the check's
// goroutine, and deletes the context if it was abandoned or closed
// meanwhile: its memory is given back as soon as Z3 lets go of it.
func (h *handle) endCheck() {
	h.mu.Lock()
	h.checking = false
	z := h.orphan
	h.orphan = nil
	h.mu.Unlock()
	if z != nil {
		// Nothing else reaches z: h.z is nil since it was orphaned.
		C.Z3_del_context(z)
		liveContexts.Add(-1)
	}
	runningChecks.Add(-1)
}

// interrupt calls Z3_interrupt unless the context has been closed.
func (h *handle) interrupt() {
	h.mu.Lock()
	if h.z != nil {
		C.Z3_interrupt(h.z)
	}
	h.mu.Unlock()
}

// clearInterrupt makes Z3 forget the interrupts sent to z by a check's
// watcher (Check): one that lands after the check has stopped (the
// watcher's last tick, racing Z3's return) stays pending, and the next
// call into z that watches for interrupts, a Simplify or a model's
// evaluation, would fail with "canceled".
func clearInterrupt(z C.Z3_context) { C.augurClearInterrupt(z) }

// unresponsiveGrace is how long a check may go on after Z3_interrupt
// before it is abandoned (handle.await). Z3 usually stops within
// milliseconds; a check abandoned early costs only a new context, since
// the old one is deleted when Z3 returns.
const unresponsiveGrace = 2 * time.Second

// interruptRepeat is the interval at which Z3_interrupt is sent again
// until the check stops: Z3 forgets an interrupt that arrives before its
// check has installed its handler, so a cancellation that falls between
// the start of Check and that moment would otherwise be lost.
const interruptRepeat = 20 * time.Millisecond

// ErrUnresponsive is the error of a check that went on after Z3 was
// interrupted, and of every later operation on its Context: the check was
// abandoned, still running on a thread of its own, and the context can no
// longer be used. The context is deleted, and its memory given back, once
// Z3 returns (see RunningChecks).
var ErrUnresponsive = errors.New("Z3 did not stop when interrupted; the check was abandoned")

// await waits for a check running on another goroutine to finish. When
// done closes first (the check's deadline or cancellation, which has
// Z3_interrupt called), it waits unresponsiveGrace more; a check still
// running then is abandoned: the context is marked unusable, its deletion
// left to the check's goroutine (endCheck), and await returns false.
func (h *handle) await(done <-chan struct{}, finished <-chan struct{}) bool {
	select {
	case <-finished:
		return true
	case <-done:
	}
	d := h.grace
	if d <= 0 {
		d = unresponsiveGrace
	}
	grace := time.NewTimer(d)
	defer grace.Stop()
	select {
	case <-finished:
		return true
	case <-grace.C:
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case <-finished:
		return true
	default:
	}
	h.orphan, h.z = h.z, nil
	h.abandoned = true
	h.pending = nil
	h.npending.Store(0)
	return false
}

// Abandoned reports whether a check of the context ignored its
// interruption and was abandoned (ErrUnresponsive): the context can no
// longer be used.
func (c *Context) Abandoned() bool {
	return c != nil && c.h != nil && c.h.abandoned
}

// destroy deletes the Z3 context, with every object still referenced; if
// a check is running in it, the check's goroutine deletes it when Z3
// returns (endCheck).
func (h *handle) destroy() { h.destroyHeld(nil) }

// destroyHeld is destroy that first gives back the references in held
// (each as many times as counted) when no check is running. Z3 deletes
// what is still referenced when the context goes in rounds over every
// term left (ast_manager's destructor), which costs a few milliseconds
// even for a handful of terms, once a solver has run; given back first,
// each term goes with the last reference to it.
func (h *handle) destroyHeld(held map[release]int32) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.z == nil {
		return
	}
	if h.checking {
		h.orphan = h.z
	} else {
		releaseAll(h.z, held)
		C.Z3_del_context(h.z)
		liveContexts.Add(-1)
	}
	h.z = nil
	h.pending = nil
	h.npending.Store(0)
}

// releaseAll gives back to Z3 every reference counted in held: the
// solvers' and models' first, then the terms', in one call into C.
func releaseAll(z C.Z3_context, held map[release]int32) {
	if len(held) == 0 {
		return
	}
	var kinds []C.uchar
	var objs []unsafe.Pointer
	for _, kind := range []releaseKind{relSolver, relModel, relAST} {
		for r, n := range held {
			if r.kind != kind {
				continue
			}
			for range n {
				kinds = append(kinds, C.uchar(kind))
				objs = append(objs, r.p)
			}
		}
	}
	if len(objs) > 0 {
		C.augurRelease(z, &kinds[0], &objs[0], C.size_t(len(objs)))
	}
}

// take counts a reference that a new wrapper holds on the Z3 object p.
func (c *Context) take(kind releaseKind, p unsafe.Pointer) {
	c.live++
	if c.held == nil {
		c.held = map[release]int32{}
	}
	c.held[release{kind, p}]++
}

// give uncounts a reference given back to Z3 (take's inverse).
func (c *Context) give(r release) {
	c.live--
	if n := c.held[r]; n > 1 {
		c.held[r] = n - 1
	} else {
		delete(c.held, r)
	}
}

// An Option configures a Context.
type Option func(*Context)

// WithTimeout sets the default time limit of every Check made by solvers of
// the context (see Solver.SetTimeout, which overrides it). Zero, the
// default, means no limit.
func WithTimeout(d time.Duration) Option {
	return func(c *Context) { c.timeout = d }
}

// WithModels sets whether solvers of the context build models (Z3's "model"
// parameter). It is on by default; when it is off, Z3 may save the work of
// building models and Solver.Model returns an error.
func WithModels(on bool) Option {
	return func(c *Context) { c.models = on }
}

// WithManualRelease makes the context give Z3 back the references of
// unreachable wrappers only when ReleaseUnused is called (and all of them
// at Close), not on whichever call follows a garbage collection. Z3's work
// depends on which terms are alive (a term made again after it was freed
// gets another identity, and Z3 orders terms by identity), so with
// automatic release the resources a query uses, and so whether it fits its
// resource limit, depend on when the collector ran: on the machine's load.
// With manual release a sequence of calls does the same work in Z3 every
// time, at the price of holding the unreachable terms until ReleaseUnused.
func WithManualRelease() Option {
	return func(c *Context) { c.manual = true }
}

// NewContext creates a Z3 context with reference-counted objects
// (Z3_mk_context_rc) and installs an error handler that records errors
// instead of ending the process.
func NewContext(opts ...Option) (*Context, error) {
	c := &Context{models: true}
	for _, o := range opts {
		o(c)
	}
	if c.timeout < 0 {
		return nil, errors.New("smt: negative timeout")
	}
	cfg := C.Z3_mk_config()
	if cfg == nil {
		return nil, errors.New("smt: Z3_mk_config failed")
	}
	setParam := func(k, v string) {
		ck, cv := C.CString(k), C.CString(v)
		C.Z3_set_param_value(cfg, ck, cv)
		C.free(unsafe.Pointer(ck))
		C.free(unsafe.Pointer(cv))
	}
	setParam("model", strconv.FormatBool(c.models))
	z := C.Z3_mk_context_rc(cfg)
	C.Z3_del_config(cfg)
	if z == nil {
		return nil, errors.New("smt: Z3_mk_context_rc failed")
	}
	C.augurSetErrorHandler(z)
	liveContexts.Add(1)
	h := &handle{z: z}
	h.releaseAST = func(p unsafe.Pointer) { h.enqueue(relAST, p) }
	h.releaseSolver = func(p unsafe.Pointer) { h.enqueue(relSolver, p) }
	h.releaseModel = func(p unsafe.Pointer) { h.enqueue(relModel, p) }
	c.h = h
	runtime.AddCleanup(c, (*handle).destroy, h)
	return c, nil
}

// Close deletes the Z3 context and every object made from it. Using any of
// them afterwards gives ErrClosed. Close is idempotent.
func (c *Context) Close() error {
	if c == nil || c.h == nil {
		return nil
	}
	c.h.destroyHeld(c.held)
	c.held = nil
	c.simplified = nil
	c.live = 0
	return nil
}

// ErrClosed is the error of every operation on a closed Context or on an
// object made from one.
var ErrClosed = errors.New("smt: context is closed")

var errNilContext = errors.New("smt: nil context")

// enter is called once at the start of every operation, before any Z3
// pointer is read out of a wrapper. It returns the Z3 context and gives
// back the references queued by the garbage collector (unless the context
// releases them only on request, WithManualRelease). Queued references
// are released only here and in ReleaseUnused, on the goroutine that uses the context, and never
// in the middle of an operation: a wrapper that became unreachable after
// its pointer was loaded keeps its Z3 object until the next operation.
func (c *Context) enter() (C.Z3_context, error) {
	if c == nil || c.h == nil {
		return nil, errNilContext
	}
	z := c.h.z // written only by Close, the Context's cleanup or an abandoned check, never concurrently with use
	if z == nil {
		if c.h.abandoned {
			return nil, ErrUnresponsive
		}
		return nil, ErrClosed
	}
	if !c.manual && c.h.npending.Load() > 0 {
		c.drain(z)
	}
	return z, nil
}

func (c *Context) drain(z C.Z3_context) {
	h := c.h
	h.mu.Lock()
	list := h.pending
	h.pending = nil
	h.npending.Store(0)
	h.mu.Unlock()
	for _, r := range list {
		switch r.kind {
		case relAST:
			C.Z3_dec_ref(z, C.Z3_ast(r.p))
		case relSolver:
			C.Z3_solver_dec_ref(z, C.Z3_solver(r.p))
		case relModel:
			C.Z3_model_dec_ref(z, C.Z3_model(r.p))
		}
		c.give(r)
	}
}

// ReleaseUnused runs the garbage collector, waits for the cleanups it
// schedules (a sentinel's, then while the queue grows), and gives back to
// Z3 every object whose Go wrapper is no longer reachable. It is never needed for correctness; long-running
// callers may use it to bound Z3's memory at a point of their choosing.
// Heavy objects (solvers, models) are better closed explicitly: the
// garbage collector does not see the memory Z3 holds for them and may run
// too rarely to release them in time.
func (c *Context) ReleaseUnused() {
	if c == nil || c.h == nil {
		return
	}
	// A sentinel whose cleanup is queued by the same collection as the
	// wrappers' tells when the cleanup goroutine has reached it.
	// The memo of simplifications holds its terms in a context made
	// WithManualRelease: drop it, so that they go with the rest.
	c.simplified = nil
	done := make(chan struct{})
	runtime.AddCleanup(new([64]byte), func(ch chan struct{}) { close(ch) }, done)
	runtime.GC()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
	// The cleanups run in no set order: wait while the queue still grows
	// (1 s at most).
	for n, i := c.h.npending.Load(), 0; i < 200; i++ {
		time.Sleep(5 * time.Millisecond)
		m := c.h.npending.Load()
		if m == n {
			break
		}
		n = m
	}
	if z, err := c.enter(); err == nil && c.h.npending.Load() > 0 {
		c.drain(z)
	}
}

// Held returns the number of Z3 references that Go wrappers made from c
// hold, reachable or not: those of the unreachable ones are what
// ReleaseUnused gives back.
func (c *Context) Held() int { return c.live }

// An Error is an error reported by Z3.
type Error struct {
	Op   string // the operation of this package that failed
	Code int    // Z3's error code (Z3_error_code), 0 if the error is this package's
	Msg  string
}

func (e *Error) Error() string {
	return "smt: " + e.Op + ": " + e.Msg
}

// check reads Z3's error code after a call that can fail.
func check(z C.Z3_context, op string) error {
	code := C.Z3_get_error_code(z)
	if code == C.Z3_OK {
		return nil
	}
	msg := C.GoString(C.Z3_get_error_msg(z, code))
	// Not every Z3 function clears the code on entry
	// (Z3_parse_smtlib2_string does not): clear it here so that an error
	// is reported once, by the call that caused it.
	C.Z3_set_error(z, C.Z3_OK)
	if msg == "" {
		msg = "error " + strconv.Itoa(int(code))
	}
	return &Error{Op: op, Code: int(code), Msg: msg}
}

func opError(op, msg string) error { return &Error{Op: op, Msg: msg} }

// incRef takes a Z3 reference on an AST for a new wrapper w and registers
// its release.
func incRef[T any](c *Context, w *T, z C.Z3_context, a C.Z3_ast) {
	C.Z3_inc_ref(z, a)
	c.take(relAST, unsafe.Pointer(a))
	runtime.AddCleanup(w, c.h.releaseAST, unsafe.Pointer(a))
}

// symbol makes a Z3 string symbol. Z3 copies the name.
func symbol(z C.Z3_context, name string) C.Z3_symbol {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return C.Z3_mk_string_symbol(z, cs)
}

// Version returns the version of the Z3 library in use, e.g. "4.8.12.0".
func Version() string {
	var major, minor, build, rev C.uint
	C.Z3_get_version(&major, &minor, &build, &rev)
	return strconv.Itoa(int(major)) + "." + strconv.Itoa(int(minor)) + "." +
		strconv.Itoa(int(build)) + "." + strconv.Itoa(int(rev))
}
