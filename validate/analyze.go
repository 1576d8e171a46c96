package validate

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/symeval"
)

// The reductions and analyze phases: the pair to analyse, its symbolic
// evaluation (package symeval), which generates the verification
// conditions in program order and decides those over Presburger sets,
// and the report's conditions as the evaluation left them (the ledger
// that the later phases settle).

// reductions is the reductions phase: the pair that the symbolic
// evaluation analyses. A specification without reductions is analysed as
// given. With reductions, the pair is transformed (Clément 2022, section
// 7.5; reduce_transform.go), and the interpreter replays the pair as
// given. It is the pipeline's one call into the validation of reductions
// before the analysis; their conditions are appended after it
// (conditions).
func (p *pipeline) reductions(in *input) (analysed, *halt) {
	// The symbolic phase, as progress events and timings count it,
	// begins here: it includes the transformation.
	p.progress(Event{Phase: "symbolic"})
	given, in, err := lowerDataWrites(in)
	if err != nil {
		return analysed{}, p.unknown("data-dependent writes: " + err.Error())
	}
	if !in.spec.HasReductions() {
		return analysed{in: in, orig: given}, nil
	}
	rp, err := transformReductions(in)
	if err != nil {
		return analysed{}, p.unknown("reductions: " + err.Error())
	}
	if given == nil {
		given = in
	}
	return analysed{in: rp.in, orig: given, red: rp}, nil
}

// lowerDataWrites returns the pair to analyse in place of in when its
// kernel writes at data-dependent indices (symeval.LowerDataWrites),
// with given, the pair as given, which the interpreter replays; given is
// nil and lowered is in otherwise.
func lowerDataWrites(in *input) (given, lowered *input, err error) {
	if !symeval.HasDataWrites(in.kernel, in.kinfo) {
		return nil, in, nil
	}
	dw, err := symeval.LowerDataWrites(in.spec, in.kernel, in.kinfo)
	if err != nil {
		return nil, nil, err
	}
	return in, &input{specSrc: in.specSrc, progSrc: in.progSrc, spec: in.spec, sinfo: in.sinfo, kernel: dw.Kernel, kinfo: dw.KernelInfo}, nil
}

// analyze is the analyze phase: the symbolic evaluation of the pair
// (evaluate), then the quick test's outcome when the test ran beside it
// (symbolicDone), the assumptions of the analysis, and the conditions as
// the evaluation left them (conditions). A cancellation, a failure of
// the evaluation or of the test ends the validation.
func (p *pipeline) analyze(v *validation, symCtx *stopCtx, test *quickTestRun) (*ledger, *halt) {
	an, err := v.evaluate(symCtx, test.assumptions)
	if cx := p.symbolicDone(test); cx != nil {
		return nil, p.tested(cx)
	}
	if err != nil {
		if p.ctx.Err() != nil {
			return nil, p.cancelled(nil, "the symbolic evaluation")
		}
		if errors.Is(err, presburger.ErrAllowance) {
			return nil, p.unknown(stepsReason(v.opts.SymbolicSteps, err))
		}
		return nil, p.unknown("symbolic evaluation failed: " + err.Error())
	}
	p.rep.SymbolicSteps = an.Steps
	if h := p.assumptions(an); h != nil {
		return nil, h
	}
	l, err := v.conditions(an)
	if err != nil {
		if p.ctx.Err() != nil {
			return nil, p.cancelled(nil, "the symbolic evaluation")
		}
		return nil, &halt{err: err}
	}
	return l, nil
}

// evaluate runs the symbolic evaluation of v.in under symCtx (which the
// quick test stops when it fails), with assumptions, the kernel's
// assumption domain when the quick test computed it (nil otherwise).
// For a pair analysed as given (no reductions): unless
// Options.AllConditions, a failure over Presburger sets that a replay
// confirms as the evaluation finds it spares the value obligations after
// it (refuteEarly would leave them undischarged); and with more than one
// job and no trace, the solver starts on the value conditions as they are
// generated (ahead.go), Jobs-1 workers, the evaluation being the last (a
// trace keeps its order without).
func (v *validation) evaluate(symCtx *stopCtx, assumptions *presburger.Map) (*symeval.Analysis, error) {
	aopts := symeval.AnalyzeOptions{Options: symeval.Options{Budget: v.opts.Budget, NoGarbageWrites: v.opts.NoGarbageWrites}, Steps: v.opts.SymbolicSteps}
	if v.opts.Trace != nil {
		aopts.Trace = func(depth int, line string) { v.opts.Trace(strings.Repeat("  ", depth) + line) }
	}
	if v.red == nil {
		// The quick tests' assumption domain, computed once.
		aopts.Assumptions = assumptions
	} else {
		// Reductions: the transformation's hooks (reduce_transform.go).
		aopts = v.red.analyzeOptions(aopts)
	}
	if !v.opts.AllConditions && v.red == nil {
		aopts.Refutes = func(c *symeval.Condition) bool {
			_, err := v.counterexampleFor(c, nil)
			return err == nil
		}
	}
	if v.opts.Trace == nil && v.red == nil && v.opts.Jobs > 1 {
		v.ahead = v.startAhead(symCtx, v.opts.Jobs-1)
		aopts.Pending = v.ahead.add
	}
	an, err := symeval.Analyze(symCtx, v.in.kernel, v.in.kinfo, v.in.spec, v.in.sinfo, aopts)
	if v.ahead != nil {
		v.ahead.finish()
	}
	return an, err
}

// stepsReason is the reason of the UNKNOWN verdict given when the symbolic
// evaluation used up its step budget, steps (Options.SymbolicSteps), with
// err, the evaluation's error, which says where.
func stepsReason(steps int64, err error) string {
	if steps == 0 {
		steps = symeval.DefaultSteps
	}
	return fmt.Sprintf("the symbolic evaluation's step budget ran out (%d Presburger steps; --symbolic-steps raises it): %v", steps, err)
}

// symbolicDone records the time of the symbolic phase and, when the quick
// test ran beside the evaluation, waits for it and records its time too,
// returning the counterexample it found, if any.
func (p *pipeline) symbolicDone(test *quickTestRun) *Counterexample {
	if !test.beside {
		p.phase("symbolic")
		return nil
	}
	// The symbolic phase's time is its own; the test's overlaps it.
	symbolic := time.Since(p.clock)
	r := test.wait()
	p.rep.Timings = append(p.rep.Timings, PhaseTime{Phase: "test", Seconds: r.took.Seconds()})
	if r.cx != nil {
		return r.cx
	}
	p.rep.Timings = append(p.rep.Timings, PhaseTime{Phase: "symbolic", Seconds: symbolic.Seconds()})
	p.clock = time.Now()
	return nil
}

// assumptions puts the parameter domain of the analysis in the report,
// and whether it is empty (the verdict, if valid, is then vacuous).
// Unproven emptiness is no vacuity: the verdict stands as is.
func (p *pipeline) assumptions(an *symeval.Analysis) *halt {
	p.rep.Assumptions = formatAssumptions(an.Assumptions)
	if an.Assumptions != nil {
		p.rep.AssumptionPieces = len(an.Assumptions.Basics())
		empty, err := an.Assumptions.IsEmpty(presburger.WithBudget(p.ctx, p.opts.Budget))
		if err != nil && p.ctx.Err() != nil {
			return p.cancelled(nil, "the symbolic evaluation")
		}
		p.rep.Vacuous = err == nil && empty
	}
	return nil
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

// conditions takes the analysis an over: the conditions of the
// reductions, decided over Presburger sets, are appended to it
// (reduce.go), and the ledger returned holds every condition's result as
// the symbolic evaluation left it (describe).
func (v *validation) conditions(an *symeval.Analysis) (*ledger, error) {
	v.an = an
	// Reductions: their conditions (reduce.go).
	if err := v.reductionConditions(); err != nil {
		return nil, err
	}
	l := &ledger{results: make([]ConditionResult, len(an.Conditions)), skipped: map[int]bool{}}
	for i, c := range an.Conditions {
		l.results[i] = v.describe(c)
	}
	return l, nil
}

// describe returns the result of condition c as symeval left it.
func (v *validation) describe(c *symeval.Condition) ConditionResult {
	file := v.in.progSrc.Name
	if c.InSpec {
		file = v.in.specSrc.Name
	}
	r := ConditionResult{ID: c.ID, Kind: c.Kind, File: file, Line: c.Pos.Line, Col: c.Pos.Col, Text: c.Text,
		Status: statusOf(c.Status), Reason: c.Reason}
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
