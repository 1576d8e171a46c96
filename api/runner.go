package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// RunnerOptions configure the workers' verifier.
type RunnerOptions struct {
	// Budget bounds one validation's wall time (default 10 minutes); a
	// validation that exceeds it gets the verdict unknown.
	Budget time.Duration
	// Timeout is the solver's per-query wall-clock guard when the
	// submission sets none (zero: validate's default). The verdict is
	// decided by the solver's resource limit; the guard only stops a
	// query that runs far longer than that limit should allow.
	Timeout time.Duration
	// Jobs is the number of conditions one validation discharges in
	// parallel (default 1: the store's concurrency spreads the CPUs).
	Jobs int
	// Presburger bounds every Presburger operation, and with it the
	// memory a validation's symbolic evaluation takes (zero: the
	// engine's default).
	Presburger presburger.Budget
	// SymbolicSteps bounds the work of a validation's symbolic evaluation
	// as a whole, in the Presburger engine's steps
	// (validate.Options.SymbolicSteps; zero: its default): past it the
	// verdict is unknown, and, unlike Budget, deterministic, so cached.
	SymbolicSteps int64
	// Log, when set, receives the internal errors (recovered panics) of
	// the validations, with their input's digest.
	Log *zerolog.Logger
	// Metrics, when set, counts the validations by verdict.
	Metrics *RunnerMetrics
}

// Runner returns the store.Runner of the workers: it runs
// validate.Validate on the validation's sources with its options,
// keeping every condition's SMT-LIB2 script and the readable form of
// every value condition, proved ones included (the dashboard shows them),
// within the time budget.
// An exhausted budget gives the verdict unknown; the end of ctx (a
// cancellation, a shutdown) gives ctx's error, which the store handles.
// The result is cacheable when it is deterministic (see Cacheable).
func Runner(opts RunnerOptions) store.Runner {
	if opts.Budget <= 0 {
		opts.Budget = 10 * time.Minute
	}
	if opts.Jobs <= 0 {
		opts.Jobs = 1
	}
	return func(ctx context.Context, v *store.Validation, progress func(store.Progress)) (store.Result, error) {
		start := time.Now()
		vo := validate.Options{Timeout: opts.Timeout, Jobs: opts.Jobs, Budget: opts.Presburger, SymbolicSteps: opts.SymbolicSteps, KeepSMT: true, ProvedFormulas: true,
			AllConditions: v.Options.AllConditions}
		if v.Options.ValueModel != "" {
			m, err := encode.ParseModel(v.Options.ValueModel)
			if err != nil {
				return store.Result{}, err
			}
			vo.ValueModel = m
		}
		if v.Options.TimeoutSeconds > 0 {
			vo.Timeout = time.Duration(v.Options.TimeoutSeconds) * time.Second
		}
		if progress != nil {
			vo.Progress = func(e validate.Event) { progress(store.Progress{Phase: e.Phase, Done: e.Done, Total: e.Total}) }
		}
		if opts.Log != nil {
			opts.Log.Info().Str("validation", v.ID).Str("program", v.ProgramName).Str("spec", v.SpecName).Msg("validating")
		}
		bctx, cancel := context.WithTimeout(ctx, opts.Budget)
		defer cancel()
		spec := &syntax.Source{Name: v.SpecName, Text: v.Spec}
		prog := &syntax.Source{Name: v.ProgramName, Text: v.Program}
		rep, err := validate.Validate(bctx, spec, prog, vo)
		cacheable := err == nil && Cacheable(rep)
		if err != nil {
			if ctx.Err() != nil {
				opts.Metrics.observe("cancelled", start)
				if opts.Log != nil {
					opts.Log.Info().Str("validation", v.ID).Str("program", v.ProgramName).Str("outcome", "cancelled").
						Str("reason", stopReason(ctx)).Str("took", LogDuration(time.Since(start))).Msg("validation stopped before its verdict")
				}
				return store.Result{}, ctx.Err()
			}
			rep = budgetReport(rep, v, vo, opts.Budget)
		}
		if opts.Log != nil {
			for _, e := range rep.InternalErrors {
				opts.Log.Error().Str("validation", v.ID).Msg(e)
			}
		}
		data, err := json.Marshal(rep)
		if err != nil {
			opts.Metrics.observe("error", start)
			return store.Result{}, err
		}
		opts.Metrics.observe(string(rep.Verdict), start)
		if opts.Log != nil {
			opts.Log.Info().Str("validation", v.ID).Str("program", v.ProgramName).Str("verdict", string(rep.Verdict)).
				Str("reason", rep.Reason).Str("took", LogDuration(time.Since(start))).Bool("cacheable", cacheable).Msg("validated")
		}
		return store.Result{Report: data, Verdict: string(rep.Verdict), Reason: rep.Reason, Cacheable: cacheable}, nil
	}
}

// budgetReport is the report of a validation whose time budget ran out:
// no claim about the kernel, UNKNOWN, keeping the conditions decided
// before (partial, the report validate.Validate returns with the
// context's error; nil when it had none).
func budgetReport(partial *validate.Report, v *store.Validation, vo validate.Options, budget time.Duration) *validate.Report {
	reason := fmt.Sprintf("the validation's time budget of %s ran out", budget)
	rep := partial
	if rep == nil {
		rep = &validate.Report{Spec: v.SpecName, Program: v.ProgramName, ValueModel: vo.ValueModel.String()}
	} else if during, ok := strings.CutPrefix(rep.Reason, validate.ReasonCancelled+" during "); ok {
		// The phase it ran out in: "cancelled during the solving: ...".
		phase, _, _ := strings.Cut(during, ":")
		reason += " during " + phase
	}
	rep.Verdict = validate.Unknown
	rep.Reason = reason
	rep.Counterexample = nil
	rep.TimeBound = true
	return rep
}

// stopReason says why a run's context ended: its cause when the store
// gave one (a cancellation), else the time limit of the run or the
// worker's shutdown.
func stopReason(ctx context.Context) string {
	cause := context.Cause(ctx)
	switch {
	case cause == nil:
		return "running"
	case errors.Is(cause, context.DeadlineExceeded):
		return "the run's time limit (--job-timeout) ran out"
	case cause == context.Canceled:
		return "the worker is stopping"
	}
	return cause.Error()
}

// LogDuration is how the service's logs write a duration: with its unit,
// as Go writes durations ("163.684ms", "2.5s", "1m3.2s"), to the
// microsecond below a second and to the millisecond above.
func LogDuration(d time.Duration) string {
	if d >= time.Second {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(time.Microsecond).String()
}

// Cacheable reports whether a report's verdict is deterministic, so that
// identical submissions may reuse it: the same content, options, Augur and
// Z3 always give it. Not so when a wall-clock guard decided something
// (TimeBound), when the solver's memory limit, shared by every validation
// running at the time, stopped a query (MemoryBound), or when an internal
// error interrupted work. A report of an exhausted time budget or of a
// cancelled run never reaches here.
func Cacheable(rep *validate.Report) bool {
	if rep == nil || rep.TimeBound || rep.MemoryBound || len(rep.InternalErrors) > 0 {
		return false
	}
	switch rep.Verdict {
	case validate.Valid, validate.Invalid, validate.Unknown:
		return true
	}
	return false
}

func (m *RunnerMetrics) observe(verdict string, start time.Time) {
	if m == nil {
		return
	}
	m.verdicts.WithLabelValues(verdict).Inc()
	m.duration.WithLabelValues(verdict).Observe(time.Since(start).Seconds())
}
