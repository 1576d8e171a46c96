package validate

import (
	"context"
	"math"
	"runtime"
	"time"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
)

// Options tune a validation. The zero value is usable.
type Options struct {
	// ValueModel decides how floats are compared (encode.Real, the
	// default, or encode.IEEE); integers are always bit-vectors.
	ValueModel encode.Model
	// Resources bounds the work of each solver query, in Z3's resource
	// units (its "rlimit"; default DefaultResources). It is what decides
	// that a query is undecided: the same input gets the same verdict on
	// an idle machine and on a loaded one.
	Resources uint64
	// ConditionResources bounds the resource units spent on one condition
	// over all its queries (zero: DefaultConditionResources; Unlimited:
	// no bound beyond Resources per query). Once a condition has spent
	// it, its remaining queries are not made and it stays undecided, its
	// reason saying so: like Resources, it is the same on any machine and
	// under any load.
	ConditionResources uint64
	// ConditionTerms bounds the Z3 terms that the encodings of one
	// condition hold (zero: DefaultConditionTerms; Unlimited: no bound):
	// the terms a condition's context holds are given back only when the
	// condition is decided (smt.WithManualRelease), so that they, not
	// the resource units, decide its memory. Once its encodings hold
	// more, the condition's remaining queries are not made and it stays
	// undecided, its reason naming this bound. The count depends on the
	// calls made alone, not on timing: it is the same on any machine
	// and under any load.
	ConditionTerms uint64
	// TotalResources bounds the resource units of the value conditions
	// of the whole validation together (zero: DefaultTotalResources;
	// Unlimited: no bound). The conditions are counted in program order,
	// each with its duplicates once: a condition is decided only if
	// those before it spent less than TotalResources in all, and is
	// otherwise undecided, its reason naming this budget (budget.go).
	// What each condition spends does not depend on timing, so neither
	// does which conditions are decided.
	TotalResources uint64
	// Timeout is an outer guard on the CPU time of each solver query
	// (default 5 minutes; smt.Solver.SetCPUGuard), far above what
	// Resources allows on a normal machine, under any load. A
	// verdict that this guard decided is marked as depending on time
	// (Report.TimeBound).
	Timeout time.Duration
	// Jobs is the number of conditions discharged in parallel (default:
	// the number of CPUs).
	Jobs int
	// AllConditions decides every value condition even when a condition
	// decided over Presburger sets (an undefined or out-of-bounds read, a
	// race, ...) already has a confirmed counterexample. By default the
	// value conditions after the first such failure, in program order,
	// are left undecided with that reason: the verdict is INVALID and its
	// counterexample the same either way, and once the kernel is known to
	// be wrong, proving its later statements right or wrong can take far
	// longer than finding out.
	AllConditions bool
	// NoGarbageWrites turns off the garbage writes (Clément 2022, section
	// 9.9; symeval.Options.NoGarbageWrites): a statement that reads a cell
	// never written then fails with an undefined read even when what it
	// computes never reaches an output (Halide's round-up tails).
	NoGarbageWrites bool
	// NoQuickTest skips testing first (quicktest.go): by default the
	// kernel first runs with the reference interpreter at a few small
	// parameter points, and a failure there that the verifier would
	// report too settles the verdict, INVALID, before any symbolic
	// evaluation. AllConditions skips it too, and so does a
	// specification with reductions, whose bookkeeping the interpreter
	// checks in its own terms.
	NoQuickTest bool
	// Budget bounds every Presburger operation (zero: the engine's
	// default).
	Budget presburger.Budget
	// SymbolicSteps bounds the work of the symbolic evaluation as a
	// whole, in the Presburger engine's elementary steps
	// (symeval.AnalyzeOptions.Steps; 0: symeval.DefaultSteps, negative:
	// no bound). Past it the verdict is UNKNOWN, the reason saying that
	// the symbolic evaluation's step budget ran out: like Resources, it
	// stops the same work on any machine under any load.
	SymbolicSteps int64
	// KeepSMT stores the SMT-LIB2 script of every value condition in the
	// report.
	KeepSMT bool
	// ProvedFormulas puts proved value conditions in readable form too
	// (ConditionResult.Formula); by default only the conditions that
	// failed or stayed undecided carry it, as putting thousands of
	// conditions in that form can cost more than proving them.
	ProvedFormulas bool
	// Progress, when set, receives progress events. It is called from
	// the validating goroutine and from workers, never concurrently.
	Progress func(Event)
	// beforeDecide, when set (by tests), runs before each value
	// condition is discharged, on the worker's goroutine.
	beforeDecide func(id int)
	// aheadTaken, when set (by tests), is given the number of outcomes
	// that discharge took from the conditions decided ahead (ahead.go).
	aheadTaken func(n int)
	// Trace, when set, receives a running description of the symbolic
	// evaluation (heaps and conditions) and of the solver's work.
	Trace func(line string)
	// Derived are hypotheses on parameters that the compiler computes
	// from the specification's inputs (derived.go): each such parameter
	// equals its computation. Without them every parameter is free.
	Derived []Derived
}

// Event reports progress: the phase ("parse", "test", "symbolic", "solve",
// "confirm", "done") and, from "solve" on, the conditions of the report:
// Total all of them, Done those settled (decided by the symbolic
// evaluation or the solver, left undischarged once a failure refutes the
// kernel, or undecided), so that Done grows to Total and the "done"
// event has Done equal to Total. Before "solve" both are 0 (the
// conditions are not known yet).
type Event struct {
	Phase string `json:"phase"`
	Done  int    `json:"done"`
	Total int    `json:"total"`
}

// DefaultResources is the default resource limit of a solver query: on
// the order of twenty-five seconds of Z3's work on one core of a current
// server (the rate varies with the theory: bit-blasted floating point
// counts more slowly).
const DefaultResources = 100_000_000

// DefaultConditionResources is the default of
// Options.ConditionResources: 250,000,000 units, more than the most a
// condition of Halide's suite, of its apps with a VALID or INVALID
// verdict and of the corpus was measured to spend, the charges of its
// encodings and evaluations included (meter.go): the corpus's
// separable_two_pass in the ieee model, whose annotation mismatch the
// solver finds after 154.7 million; hist's output value, 19.7 million;
// the suite's decided conditions at most 1.2 million.
const DefaultConditionResources = 250_000_000

// DefaultConditionTerms is the default of Options.ConditionTerms:
// 8,000,000 references to Z3 terms, each a Go wrapper of some 100 bytes
// with its cleanup and a term of Z3's of about as many, so that a
// condition's encodings hold under 2 GB.
const DefaultConditionTerms = 8_000_000

// DefaultTotalResources is the default of Options.TotalResources:
// 500,000,000 units, two conditions at DefaultConditionResources and
// more than three times what any of those validations was measured to
// spend in all, charges included (separable_two_pass in the ieee model,
// 154.7 million; hist, 20.2 million; the suite's at most 10.1 million,
// sgemmTA's).
const DefaultTotalResources = 500_000_000

// Unlimited, as Options.ConditionResources or Options.TotalResources,
// leaves that budget unbounded.
const Unlimited = math.MaxUint64

// decideResources bounds the quick checks that resolve the guards of
// unfolded equations during encoding.
const decideResources = 500_000

func (o *Options) defaults() {
	if o.Resources == 0 {
		o.Resources = DefaultResources
	}
	if o.ConditionResources == 0 {
		o.ConditionResources = DefaultConditionResources
	}
	if o.TotalResources == 0 {
		o.TotalResources = DefaultTotalResources
	}
	if o.ConditionTerms == 0 {
		o.ConditionTerms = DefaultConditionTerms
	}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Minute
	}
	if o.Jobs <= 0 {
		o.Jobs = runtime.NumCPU()
	}
}

// Validate checks the kernel prog against the specification spec (their
// sources) and returns the report. Malformed input gives a report with
// the Error verdict, not an error. The error is non-nil only when ctx is
// done before the verdict; the report is then the one so far (cancelled):
// UNKNOWN, with the conditions decided before, once every solver check
// has been interrupted and has returned or been abandoned.
//
// Validate is the pipeline of the package's phases (doc.go), in order:
// each hands its result to the next, or ends the validation with a halt,
// the report to return and the error.
func Validate(ctx context.Context, spec, prog *syntax.Source, opts Options) (rep *Report, err error) {
	opts.defaults()
	p := newPipeline(ctx, spec, prog, opts)
	defer p.recoverPanic(&rep, &err)

	// Load: parse and check both sources (load.go).
	in, readings, h := p.load(spec, prog)
	if h != nil {
		return h.rep, h.err
	}
	// Quick test: the kernel runs at a few small parameter points, beside
	// the symbolic evaluation, which symCtx stops when a test fails
	// (quicktest.go).
	symCtx := newStopCtx(ctx)
	defer symCtx.release()
	test, h := p.quickTest(in, readings, symCtx)
	if h != nil {
		return h.rep, h.err
	}
	// Reductions: the pair that the symbolic evaluation analyses, the
	// one given or its transformation for reductions (analyze.go).
	pair, h := p.reductions(in)
	if h != nil {
		return h.rep, h.err
	}
	// Analyze: the symbolic evaluation generates the conditions, decides
	// those over Presburger sets and leaves the value obligations pending;
	// the solver may start on them meanwhile (analyze.go, ahead.go).
	v := newValidation(p.shared, pair, readings)
	defer v.closeAhead()
	l, h := p.analyze(v, symCtx, test)
	if h != nil {
		return h.rep, h.err
	}
	// Refute early: a failure over Presburger sets whose counterexample
	// is built and replayed spares the value conditions after it
	// (refute.go).
	v.refuteEarly(l)
	// Discharge: Z3 decides the pending value conditions (discharge.go).
	if h := p.discharge(v, l); h != nil {
		return h.rep, h.err
	}
	// Conclude: the failures confirmed, the verdict set from every
	// condition's result (conclude.go).
	return p.conclude(v, l)
}
