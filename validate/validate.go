// Package validate is Augur's verifier front end: it checks an annotated
// kernel against its specification for all parameter values at once and
// returns a verdict with its evidence.
//
// The phases follow the data: parse and check both inputs (packages sare
// and sched), evaluate the kernel prophetically and symbolically over
// Presburger sets (package symeval), which decides the conditions on cells
// (bounds, definedness, races, outputs written) and leaves value
// obligations, then discharge those with Z3 (packages smt and
// smt/encode), in parallel, one solver context per worker. A failed
// condition becomes a counterexample with small parameter values, which
// the reference interpreter replays.
//
// Soundness comes first: "valid" means every condition was proved; a
// condition that could not be decided makes the verdict "unknown", never
// "valid"; a counterexample that concrete evaluation does not confirm is
// not reported as "invalid".
package validate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/symeval"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
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
	// Timeout is an outer wall-clock guard on each solver query (default
	// 5 minutes), far above what Resources allows on a normal machine. A
	// verdict that this guard decided is marked as depending on time
	// (Report.Deterministic is false).
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

// decideResources bounds the quick checks that resolve the guards of
// unfolded equations during encoding.
const decideResources = 500_000

func (o *Options) defaults() {
	if o.Resources == 0 {
		o.Resources = DefaultResources
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
func Validate(ctx context.Context, spec, prog *syntax.Source, opts Options) (rep *Report, err error) {
	opts.defaults()
	rep = &Report{Spec: spec.Name, Program: prog.Name, ValueModel: opts.ValueModel.String()}
	v := &validation{ctx: ctx, opts: opts, digest: Digest(spec, prog)}
	defer func() {
		if r := recover(); r != nil {
			rep.Verdict, rep.Reason = Unknown, v.internalError(fmt.Sprint(r), debug.Stack())
			err = nil
		}
		if rep != nil {
			rep.InternalErrors = v.internal
		}
	}()
	var mu sync.Mutex
	progress := func(e Event) {
		if opts.Progress != nil {
			mu.Lock()
			defer mu.Unlock()
			opts.Progress(e)
		}
	}
	clock := time.Now()
	phase := func(name string) {
		d := time.Since(clock)
		rep.Timings = append(rep.Timings, PhaseTime{Phase: name, Seconds: d.Seconds()})
		clock = time.Now()
	}

	// Parse and check.
	progress(Event{Phase: "parse"})
	in, errs := load(spec, prog)
	phase("parse")
	if len(errs) > 0 {
		rep.Verdict = Error
		rep.Reason = fmt.Sprintf("%d error%s in the input", len(errs), plural(len(errs)))
		rep.Errors = ErrorDetails(errs)
		return rep, nil
	}
	rep.Kernel = in.kernel.Name.Name
	v.in = in
	v.readings = literalReadings(in, opts.ValueModel)
	rep.Readings = reportReadings(v.readings)

	// Testing first, beside the symbolic evaluation (quicktest.go), or
	// before it for a trace in order.
	symCtx := newStopCtx(ctx)
	defer symCtx.release()
	var test *quickTestRun
	if !opts.NoQuickTest && !opts.AllConditions && !in.spec.HasReductions() {
		progress(Event{Phase: "test"})
		test = v.startQuickTest(in, opts.Trace == nil, symCtx.stop)
		if opts.Trace != nil {
			r := test.wait()
			phase("test")
			if r.cx != nil {
				return v.tested(rep, r.cx, progress), nil
			}
			test = nil
		}
	}

	// Symbolic evaluation.
	progress(Event{Phase: "symbolic"})
	aopts := symeval.AnalyzeOptions{Options: symeval.Options{Budget: opts.Budget, NoGarbageWrites: opts.NoGarbageWrites}}
	if opts.Trace != nil {
		aopts.Trace = func(depth int, line string) { opts.Trace(strings.Repeat("  ", depth) + line) }
	}
	if !in.spec.HasReductions() {
		// The quick tests' assumption domain, computed once.
		aopts.Assumptions = v.assumptions
	} else {
		// Reductions: see reduce_transform.go.
		rp, err := transformReductions(in)
		if err != nil {
			rep.Verdict, rep.Reason = Unknown, "reductions: "+err.Error()
			return rep, nil
		}
		v.orig, v.red, in, aopts = in, rp, rp.in, rp.analyzeOptions(aopts)
		// No quick test runs (it would read v.in): the solver's side of
		// the analysis is the transformed pair.
		v.in = in
	}
	v.params = nil
	for _, id := range in.kernel.Params {
		v.params = append(v.params, id.Name)
	}
	if !opts.AllConditions && v.red == nil {
		// A failure over Presburger sets confirmed as the symbolic
		// evaluation finds it spares the value obligations after it
		// (refuteEarly would leave them undischarged). v.in is in
		// already: there is no transformation for reductions.
		aopts.Refutes = func(c *symeval.Condition) bool {
			_, err := v.counterexampleFor(c, nil)
			return err == nil
		}
	}
	if opts.Trace == nil && v.red == nil && opts.Jobs > 1 {
		// The solver starts on the conditions as they are generated
		// (ahead.go), beside the evaluation: Jobs-1 workers, the
		// evaluation being the last. A trace keeps its order without.
		v.ahead = v.startAhead(symCtx, opts.Jobs-1)
		defer v.ahead.close()
		aopts.Pending = v.ahead.add
	}
	an, err := symeval.Analyze(symCtx, in.kernel, in.kinfo, in.spec, in.sinfo, aopts)
	if v.ahead != nil {
		v.ahead.finish()
	}
	if test != nil {
		// The symbolic phase's time is its own; the test's overlaps it.
		symbolic := time.Since(clock)
		r := test.wait()
		rep.Timings = append(rep.Timings, PhaseTime{Phase: "test", Seconds: r.took.Seconds()})
		if r.cx != nil {
			return v.tested(rep, r.cx, progress), nil
		}
		rep.Timings = append(rep.Timings, PhaseTime{Phase: "symbolic", Seconds: symbolic.Seconds()})
		clock = time.Now()
	} else {
		phase("symbolic")
	}
	if err != nil {
		if ctx.Err() != nil {
			return v.cancelled(rep, nil, "the symbolic evaluation"), ctx.Err()
		}
		rep.Verdict, rep.Reason = Unknown, "symbolic evaluation failed: "+err.Error()
		return rep, nil
	}
	rep.Assumptions = formatAssumptions(an.Assumptions)
	if an.Assumptions != nil {
		empty, err := an.Assumptions.IsEmpty(presburger.WithBudget(ctx, opts.Budget))
		if err != nil && ctx.Err() != nil {
			return v.cancelled(rep, nil, "the symbolic evaluation"), ctx.Err()
		}
		// Unproven emptiness is no vacuity: the verdict stands as is.
		rep.Vacuous = err == nil && empty
	}
	v.an, v.progress = an, progress
	if err := v.reductionConditions(); err != nil {
		if ctx.Err() != nil {
			return v.cancelled(rep, nil, "the symbolic evaluation"), ctx.Err()
		}
		return nil, err
	}
	results := make([]ConditionResult, len(an.Conditions))
	for i, c := range an.Conditions {
		results[i] = v.describe(c)
	}

	// A failure found over Presburger sets and confirmed settles the
	// verdict: the value conditions after it need no solving.
	v.skipped = map[int]bool{}
	if !opts.AllConditions {
		v.refuteEarly(results)
	}

	// Discharge the value obligations.
	if err := v.discharge(results); err != nil {
		phase("solve")
		return v.cancelled(rep, results, "the solving"), err
	}
	if opts.aheadTaken != nil && v.ahead != nil {
		opts.aheadTaken(int(v.ahead.used.Load()))
	}
	phase("solve")

	// Confirm the failures and pick the counterexample.
	all := len(an.Conditions)
	progress(Event{Phase: "confirm", Done: all, Total: all})
	v.conclude(rep, results)
	for i, c := range an.Conditions {
		// The conditions left undischarged by refuteEarly keep their
		// plain form: the readable one can cost more than the verdict.
		if c.Obligation != nil && results[i].Formula == "" && results[i].Status != symeval.Proved.String() && !v.skipped[i] {
			results[i].Formula = v.formula(c)
		}
	}
	phase("confirm")
	rep.TimeBound = v.guardHit.Load()
	rep.Vacuous = rep.Vacuous && rep.Verdict == Valid
	rep.Conditions = results
	progress(Event{Phase: "done", Done: all, Total: all})
	if ctx.Err() != nil {
		return v.cancelled(rep, results, "the confirmation of counterexamples"), ctx.Err()
	}
	return rep, nil
}

// input is a checked pair.
type input struct {
	specSrc, progSrc *syntax.Source
	spec             *sare.Spec
	sinfo            *sare.Info
	kernel           *sched.Kernel
	kinfo            *sched.Info
}

// load parses and checks both sources (Load), returning every error
// sorted.
func load(specSrc, progSrc *syntax.Source) (*input, syntax.ErrorList) {
	p, errs := Load(specSrc, progSrc)
	errs.Sort()
	return &input{specSrc: specSrc, progSrc: progSrc, spec: p.Spec, sinfo: p.SpecInfo, kernel: p.Kernel, kinfo: p.KernelInfo}, errs
}

// validation holds the state of one validation.
type validation struct {
	ctx      context.Context
	in       *input
	an       *symeval.Analysis
	opts     Options
	progress func(Event)
	// guardHit records that a solver query reached the wall-clock guard.
	guardHit atomic.Bool
	// digest identifies the input in internal errors.
	digest string
	// internal lists the internal errors met (panics recovered).
	internalMu sync.Mutex
	internal   []string
	traceMu    sync.Mutex
	// outcomes of the value conditions, by condition index
	outcomes map[int]*outcome
	// orig is the pair as given when in is its transformation for
	// reductions (reduce_transform.go); the interpreter replays orig.
	orig *input
	red  *reductionPair
	// skipped marks the value conditions left undischarged because an
	// earlier failure refutes the kernel (refuteEarly).
	skipped map[int]bool
	// specOpaque: the specification calls a builtin left uninterpreted
	// (groundApart), computed once.
	opaqueOnce sync.Once
	specOpaque bool
	// cxs caches the counterexample of each failed condition
	// (counterexampleFor).
	cxs map[*symeval.Condition]cxResult
	// params are the names of the kernel's parameters (those of the
	// analysis).
	params []string
	// assumptions is the kernel's assumption domain when the quick
	// tests computed it (symeval.Assumptions), or nil.
	assumptions *presburger.Map
	// ahead decides conditions during the symbolic evaluation, or is
	// nil (ahead.go).
	ahead *ahead
	// formulas holds the readable form of each obligation put in that
	// form, by its key (obligationKey): the conditions of an unrolled
	// statement share it.
	formulas map[string]string
	// readings are the kernel's float literals that the real model reads
	// as constants derived from the specification's (literals.go).
	readings *value.Readings
}

// modelArgs returns the arguments that give augur run the validation's
// value model: none for the real model, its default.
func (v *validation) modelArgs() []string {
	if v.opts.ValueModel == encode.Real {
		return nil
	}
	return []string{"--value-model " + v.opts.ValueModel.String()}
}

// cxResult is a counterexample built, or why none could be.
type cxResult struct {
	cx  *Counterexample
	err error
}

// counterexampleOf is counterexample for the condition of index i.
func (v *validation) counterexampleOf(i int) (*Counterexample, error) {
	return v.counterexampleFor(v.an.Conditions[i], v.outcomes[i])
}

// counterexampleFor is counterexample for the condition c, built once:
// the symbolic evaluation (symeval.AnalyzeOptions.Refutes), refuteEarly
// and conclude all ask for it, and a replay can cost seconds.
func (v *validation) counterexampleFor(c *symeval.Condition, o *outcome) (*Counterexample, error) {
	if r, ok := v.cxs[c]; ok {
		return r.cx, r.err
	}
	cx, err := v.counterexample(c, o)
	if v.cxs == nil {
		v.cxs = map[*symeval.Condition]cxResult{}
	}
	v.cxs[c] = cxResult{cx, err}
	return cx, err
}

// Digest is the SHA-256 of a pair's sources, as internal errors name
// the input that caused them.
func Digest(spec, prog *syntax.Source) string {
	h := sha256.New()
	for _, src := range []*syntax.Source{spec, prog} {
		fmt.Fprintf(h, "%d:%s", len(src.Text), src.Text)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// internalError records a recovered panic (its message and stack) and
// returns the reason to show for the work it interrupted.
func (v *validation) internalError(msg string, stack []byte) string {
	v.internalMu.Lock()
	defer v.internalMu.Unlock()
	v.internal = append(v.internal, fmt.Sprintf("internal error on input sha256:%s: %s\n%s", v.digest, msg, stack))
	return "internal error: " + msg
}

// trace sends a line to Options.Trace, serialised: workers call it
// concurrently.
func (v *validation) trace(line string) {
	v.traceMu.Lock()
	defer v.traceMu.Unlock()
	v.opts.Trace(line)
}

// prettyBudget bounds each Presburger operation that puts a value
// condition in readable form (symeval.Obligation.Pretty).
var prettyBudget = presburger.Budget{MaxSteps: 20_000, MaxDisjuncts: 64}

// formula is the readable form of value condition c's obligation, for the
// report only: under a small step budget, and the plain form when that is
// spent. Conditions of the same obligation share it.
func (v *validation) formula(c *symeval.Condition) string {
	key := v.ahead.key(c)
	if f, ok := v.formulas[key]; ok {
		return f
	}
	f := strings.Join(c.Obligation.Pretty(presburger.WithBudget(v.ctx, prettyBudget)), "\n")
	if v.formulas == nil {
		v.formulas = map[string]string{}
	}
	v.formulas[key] = f
	return f
}

// describe returns the result of condition c as symeval left it.
func (v *validation) describe(c *symeval.Condition) ConditionResult {
	file := v.in.progSrc.Name
	if c.InSpec {
		file = v.in.specSrc.Name
	}
	r := ConditionResult{ID: c.ID, Kind: c.Kind.String(), File: file, Line: c.Pos.Line, Col: c.Pos.Col, Text: c.Text,
		Status: c.Status.String(), Reason: c.Reason}
	switch {
	case c.Obligation != nil:
		if v.opts.ProvedFormulas {
			r.Formula = v.formula(c)
		}
		if c.Status == symeval.Proved {
			r.Solver = "syntactic"
		}
	case c.Status == symeval.Failed && c.Violations != nil:
		r.Formula = "fails at " + c.Violations.String()
	}
	if c.Detail != "" {
		if r.Reason != "" {
			r.Reason += "; "
		}
		r.Reason += c.Detail
	}
	return r
}

// formatAssumptions prints a parameter domain without its braces, or ""
// when it is the universe.
func formatAssumptions(m *presburger.Map) string {
	if m == nil {
		return ""
	}
	s := m.String()
	if i := strings.Index(s, ":"); i >= 0 {
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s[i+1:]), "}"))
		return s
	}
	return ""
}
