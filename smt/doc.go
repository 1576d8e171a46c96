// Package smt is Augur's binding to the Z3 SMT solver: it builds terms over
// booleans, integers, reals, bit-vectors, IEEE floats and uninterpreted
// sorts and functions, asks Z3 whether they are satisfiable, and reads
// models back as Go values.
//
// Start reading at Context (context.go), the owner of every Z3 object; then
// Term (term.go) and the constructors grouped by theory (arith.go, bv.go,
// fp.go, func.go for uninterpreted and recursive functions and quantifiers);
// then Solver (solver.go), solvers made from Z3 tactics (tactic.go, with
// Translate, which copies terms between contexts), Model (model.go) and the SMT-LIB2 printer and
// parser (smtlib.go, with prune.go dropping the recursive definitions a
// script does not use). Work is bounded by Z3's resource limit
// (rlimit.go: the same limit decides UNKNOWN the same way on any machine)
// and memory by SetMemoryLimit (global.go); signal.go keeps SIGINT with
// the Go runtime, which Z3 would otherwise take over.
//
// # Ownership
//
// A Context wraps one Z3 context created with Z3_mk_context_rc, so every Z3
// object it hands out is reference counted. Each Go wrapper (Sort, Term,
// FuncDecl, Pattern, Solver, Model) holds one Z3 reference, taken when the
// wrapper is made. The reference is given back when the Go garbage collector
// finds the wrapper unreachable: a cleanup registered with runtime.AddCleanup
// puts the Z3 object on the context's release queue, and the goroutine that
// uses the context empties the queue (calling Z3_dec_ref) on its next call
// into the package, or, for a context made WithManualRelease, only when
// ReleaseUnused is called (Z3's work, and so the resources a query uses,
// then does not depend on when the collector ran). Z3 itself is therefore
// only called from the goroutine
// using the context; the one exception is a Context that becomes
// unreachable without being closed, whose Z3 context the collector's
// cleanup deletes, when nothing else can use it.
// Solver.Close and Model.Close release their (large) Z3 objects at once,
// and should be called: the collector does not see Z3's memory and may run
// too rarely to release thousands of solvers in time. Context.Close
// releases everything: it first gives back, in one call into C, every
// reference its wrappers still hold (the context counts them by object),
// since Z3 deletes a context whose terms are still referenced in rounds
// over all of them, several times slower. A test builds and solves 10,000 queries in one
// context with a stable count of Z3 references and bounded memory.
//
// # Errors
//
// Z3 reports misuse (a sort mismatch, a parse error, a bad argument) through
// an error code stored in its context. The package installs an error handler
// that does nothing, so Z3 never aborts the process, and reads the code back
// after every call that can fail. Constructors do not return errors: a term
// built from a failed call, or from a term that carries an error, carries
// that error itself (Term.Err), and Solver.Assert reports it. No panic
// escapes the package.
//
// # Concurrency
//
// A Context and everything made from it must be used by one goroutine at a
// time. Independent contexts may be used in parallel. The only call made
// from another goroutine is Z3_interrupt, which Z3 documents as safe, when
// the context.Context passed to Solver.Check is cancelled; it is repeated
// until the check returns. A check Z3 does not stop is abandoned
// (ErrUnresponsive): its context is then deleted by the goroutine of the
// check once Z3 returns, never while Z3 runs in it. RunningChecks and
// LiveContexts count the checks and contexts of the process still held by
// Z3.
//
// Files, in reading order: context.go, sort.go, term.go, arith.go, bv.go,
// fp.go, func.go, int2bv.go, order.go, abstract.go, bounded.go (the
// bounded arithmetic of an abstraction translated to bit-vectors),
// products.go (nonlinear real products made uninterpreted), nonlinear.go
// (truncations of nonlinear real terms, and the legacy arithmetic solver
// that stops on them within its resource limit), prune.go, solver.go,
// cpuguard.go (a check's guard on the CPU time of the thread running it),
// tactic.go, rlimit.go, signal.go, model.go, smtlib.go, global.go.
package smt
