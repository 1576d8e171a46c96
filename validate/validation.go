package validate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/symeval"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// The state of one validation, in three layers that goroutines share
// differently:
//
//   - shared: the options and the context, fixed for the whole
//     validation, and what every goroutine records, under a lock or
//     atomically (internal errors, trace, progress, the CPU-time
//     guard's hits);
//   - pipeline: the report being built and the clock of the phases,
//     Validate's own: no other goroutine reads them;
//   - validation: the pair that the symbolic evaluation analyses, fixed
//     by newValidation before any worker starts and never written after
//     (the solver's workers read it), and the state that the phases
//     keep (the workers deciding ahead, the analysis, the
//     counterexamples built, the readable formulas), which only
//     Validate's goroutine reads and writes.
//
// A phase's result goes to the next phase as a typed value: the checked
// pair (input), the quick test under way (quickTestRun), the pair
// analysed (analysed), and the report's conditions as the later phases
// settle them (ledger).

// shared is what every phase of one validation and every goroutine they
// start share. Its fields are fixed when the validation starts; the logs
// are written through its methods, which serialise them.
type shared struct {
	ctx  context.Context
	opts Options
	// digest identifies the input in internal errors.
	digest string
	// guardHit records that a solver query reached the CPU-time guard.
	guardHit atomic.Bool
	// memoryHit records that a solver query ran out of the solver's memory.
	memoryHit atomic.Bool
	// internal lists the internal errors met (panics recovered).
	internalMu sync.Mutex
	internal   []string
	traceMu    sync.Mutex
	progressMu sync.Mutex
	// derived are Options.Derived checked against the specification
	// (derived.go), set by the load phase.
	derived []hypothesis
	dspec   *derivedSpec
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
func (sh *shared) internalError(msg string, stack []byte) string {
	sh.internalMu.Lock()
	defer sh.internalMu.Unlock()
	sh.internal = append(sh.internal, fmt.Sprintf("internal error on input sha256:%s: %s\n%s", sh.digest, msg, stack))
	return "internal error: " + msg
}

// internalErrors returns the internal errors recorded so far.
func (sh *shared) internalErrors() []string {
	sh.internalMu.Lock()
	defer sh.internalMu.Unlock()
	return sh.internal
}

// trace sends a line to Options.Trace, serialised: workers call it
// concurrently.
func (sh *shared) trace(line string) {
	sh.traceMu.Lock()
	defer sh.traceMu.Unlock()
	sh.opts.Trace(line)
}

// progress sends e to Options.Progress, if set, serialised: the
// discharge's workers call it concurrently.
func (sh *shared) progress(e Event) {
	if sh.opts.Progress != nil {
		sh.progressMu.Lock()
		defer sh.progressMu.Unlock()
		sh.opts.Progress(e)
	}
}

// modelArgs returns the arguments that give augur run the validation's
// value model: none for the real model, its default.
func (sh *shared) modelArgs() []string {
	if sh.opts.ValueModel == encode.Real {
		return nil
	}
	return []string{"--value-model " + sh.opts.ValueModel.String()}
}

// pipeline is the state of Validate's goroutine: the report being built
// and the clock of the current phase. The phases that end the validation
// return a halt.
type pipeline struct {
	*shared
	rep   *Report
	clock time.Time
}

// halt ends a validation at a phase: the report to return (nil only with
// an error) and the error, non-nil when the context ended before the
// verdict.
type halt struct {
	rep *Report
	err error
}

// newPipeline starts the validation of the pair of sources spec and prog
// under opts (defaults applied).
func newPipeline(ctx context.Context, spec, prog *syntax.Source, opts Options) *pipeline {
	return &pipeline{
		shared: &shared{ctx: ctx, opts: opts, digest: Digest(spec, prog)},
		rep:    &Report{Spec: spec.Name, Program: prog.Name, ValueModel: opts.ValueModel.String()},
		clock:  time.Now(),
	}
}

// phase records the time since the last phase ended as the time of the
// phase name.
func (p *pipeline) phase(name string) {
	p.rep.Timings = append(p.rep.Timings, PhaseTime{Phase: name, Seconds: time.Since(p.clock).Seconds()})
	p.clock = time.Now()
}

// unknown ends the validation with the verdict UNKNOWN for reason.
func (p *pipeline) unknown(reason string) *halt {
	p.rep.Verdict, p.rep.Reason = Unknown, reason
	return &halt{rep: p.rep}
}

// recoverPanic, deferred by Validate, turns a panic of its goroutine into the
// verdict UNKNOWN with an internal error, and puts the internal errors
// met in the report returned.
func (p *pipeline) recoverPanic(rep **Report, err *error) {
	if r := recover(); r != nil {
		*rep, *err = p.rep, nil
		p.rep.Verdict, p.rep.Reason = Unknown, p.internalError(fmt.Sprint(r), debug.Stack())
	}
	if *rep != nil {
		(*rep).InternalErrors = p.internalErrors()
	}
}

// validation is one validation from the symbolic evaluation on.
type validation struct {
	*shared

	// The pair analysed, fixed by newValidation before any goroutine of
	// the solver starts, and never written after: the solver's workers
	// (ahead.go, discharge.go) read these fields.

	// in is the pair that the symbolic evaluation analyses.
	in *input
	// orig is the pair as given when in is its transformation for
	// reductions (reduce_transform.go), else nil; the interpreter
	// replays orig.
	orig *input
	red  *reductionPair
	// params are the names of the kernel's parameters (those of the
	// analysis).
	params []string
	// readings are the kernel's float literals that the real model reads
	// as constants derived from the specification's (literals.go).
	readings *value.Readings
	// specOpaque: the specification calls a builtin left uninterpreted
	// (groundApart), computed once.
	opaqueOnce sync.Once
	specOpaque bool

	// The state of the phases, set by each in turn on Validate's
	// goroutine; no worker reads it.

	// ahead decides conditions during the symbolic evaluation, or is
	// nil (ahead.go); set by evaluate.
	ahead *ahead
	// an is the analysis, once the symbolic evaluation is over (nil
	// during it); set by conditions.
	an *symeval.Analysis
	// cxs caches the counterexample of each failed condition
	// (counterexampleFor).
	cxs map[*symeval.Condition]cxResult
	// formulas holds the readable form of each obligation put in that
	// form, by its key (obligationKey): the conditions of an unrolled
	// statement share it.
	formulas map[string]string
}

// analysed is the result of the reductions phase: the pair that the
// symbolic evaluation analyses and, when that pair is a transformation
// for reductions, the pair as given and the transformation.
type analysed struct {
	in   *input
	orig *input
	red  *reductionPair
}

// newValidation returns the validation of the pair analysed, whose
// kernel's float literals have the readings given.
func newValidation(sh *shared, pair analysed, readings *value.Readings) *validation {
	v := &validation{shared: sh, in: pair.in, orig: pair.orig, red: pair.red, readings: readings}
	for _, id := range pair.in.kernel.Params {
		v.params = append(v.params, id.Name)
	}
	return v
}

// closeAhead cancels the conditions still being decided ahead, if any,
// and waits for their workers.
func (v *validation) closeAhead() {
	if v.ahead != nil {
		v.ahead.close()
	}
}

// ledger holds the report's conditions, by their index in the analysis,
// as the phases after the symbolic evaluation settle them.
type ledger struct {
	// results are the report's conditions.
	results []ConditionResult
	// skipped marks the value conditions left undischarged because an
	// earlier failure refutes the kernel (refuteEarly, refuteByProbe).
	skipped map[int]bool
	// outcomes are those of the value conditions discharged
	// (decidePending).
	outcomes map[int]*outcome
}

// cxResult is a counterexample built, or why none could be.
type cxResult struct {
	cx  *Counterexample
	err error
}

// counterexampleOf is counterexample for the condition of index i, with
// its outcome in l if it was discharged.
func (v *validation) counterexampleOf(l *ledger, i int) (*Counterexample, error) {
	return v.counterexampleFor(v.an.Conditions[i], l.outcomes[i])
}

// counterexampleFor is counterexample for the condition c, built once:
// the symbolic evaluation (symeval.AnalyzeOptions.Refutes), refuteEarly,
// the definedness probe and conclude all ask for it, and a replay can
// cost seconds.
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
