// Package validate is Augur's verifier front end: it checks an annotated
// kernel against its specification for all parameter values at once and
// returns a verdict with its evidence (Report). Validate is the entry
// point.
//
// # Where a condition comes from, and where it is decided
//
// The verification conditions come from the symbolic evaluation of
// package symeval (symeval.Analyze, Clément 2022, chapter 5), in program
// order: reads defined, writes in bounds, no races, every output cell
// written, and the values: every assignment's against its annotation,
// conflicting writes', every out binding's. symeval decides the
// conditions over Presburger sets itself (proved; failed, with the
// violating points; undecided past its budget) and leaves each value
// condition pending with its obligation: two sides, the kernel's value
// and the specification's element, that must be defined and equal at
// every point of a set. The conditions of reductions (Clément 2022,
// chapter 7) come from symeval too (Analysis.AddReductionConditions).
// This package decides the pending ones with Z3, and concludes.
//
// Validate runs the phases in order, each a call that hands its typed
// result to the next or ends the validation (validate.go):
//
//  1. load: both sources parsed and checked against each other (packages
//     sare and sched; Load).
//  2. quick test: the kernel runs with the reference interpreter
//     (sched.Run) at a few small parameter points, beside the symbolic
//     evaluation; a failure the verifier would report too is the verdict,
//     INVALID, before any proof. A test never makes a kernel valid.
//  3. reductions: the pair to analyse, transformed when the specification
//     has reductions (Clément 2022, chapter 7).
//  4. analyze: the symbolic evaluation generates the conditions; with
//     more than one job the solver starts on the value conditions as
//     they come (ahead.go).
//  5. refute early: a failure over Presburger sets whose counterexample
//     is built and replayed settles the verdict, INVALID: the value
//     conditions after it are left undecided, not discharged.
//  6. discharge: each pending value condition goes to Z3, Jobs at a
//     time, each in a fresh Z3 context (package smt), encoded by package
//     smt/encode; identical obligations are decided once.
//  7. conclude: the failures are confirmed, each with its
//     counterexample replayed by the interpreter, and the verdict is set
//     from every condition's status.
//
// A value condition is decided by strategies (strategies.go): encodings
// of its obligation, cheapest first, that unfold more and more of the
// specification's tensors into their equations, each sound on its own.
// Each piece of the obligation's points becomes a query (encoding.go),
// "a side is undefined or the two sides differ here", checked within a
// budget of Z3 resource units, not time, so that a verdict does not
// depend on the machine's load (check.go). Unsatisfiable on every piece
// under one strategy, the condition is proved. A model is only a
// candidate: it is read as a counterexample with small parameters
// (models.go) and kept only once evaluation confirms it (confirm.go).
// Otherwise the condition is undecided, with each strategy's reason.
//
// Soundness comes first. VALID is a proof: conclude gives it only when
// every condition is proved, and a condition pending, undecided or in
// any other state makes the verdict UNKNOWN, never VALID. INVALID needs a
// counterexample: a failure without one (no concrete point, or for a
// value condition none where evaluation shows the sides differ) becomes
// undecided. A verdict that a time guard rather than a resource
// limit decided is marked (Report.TimeBound).
//
// Files, in reading order: validate.go (Options, Validate, the
// pipeline) and validation.go (the state of a validation, what its
// goroutines share); derived.go (hypotheses that a parameter equals its
// computation from the specification's inputs, Options.Derived); the
// phases: load.go, literals.go (float literals
// read as the specification's constants), quicktest.go, analyze.go
// (reductions and analyze), ahead.go (deciding during the analysis),
// refute.go, discharge.go, budget.go (the validation's budget of
// resource units, spent in program order), probe.go (the definedness
// probe before the discharge), dead.go (annotations false only at dead stores),
// conclude.go; deciding a value condition: solver.go, strategies.go,
// matchdeep.go and pieces.go (matching first), provefirst.go (the
// unfolding strategies tried before the first model is looked at),
// encoding.go, check.go, portfolio.go, models.go, confirm.go, solverinputs.go,
// meter.go (the work Z3's units miss, charged in units);
// counterexamples and their replay: counterexample.go, harm.go (a
// failed value is evidence only if it reaches an output); reductions (their
// conditions come from package symeval; discharge and counterexamples
// here): reduce.go, reduce_transform.go; the report: report.go, script.go (SMT-LIB2
// scripts), rename.go; index overflow at a compiler's final stage:
// index.go (IndexCheck, applied to the verdict), indexsolve.go
// (CheckIndexes, decided with Z3, witnesses replayed); cancellation:
// stop.go, cancel.go.
package validate
