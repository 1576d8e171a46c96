package bench

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/frontend/compiler"
	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// files holds the checked-in Halide pairs and the bundled algorithms.
//
//go:embed halide alg
var files embed.FS

// Pair is a specification and a kernel to validate.
type Pair struct {
	Spec, Prog *syntax.Source
}

// HalidePair returns the checked-in pair of a Halide benchmark.
func HalidePair(b Benchmark) (Pair, error) {
	if b.Kind != Halide {
		return Pair{}, fmt.Errorf("%s: not a Halide benchmark", b.ID())
	}
	if b.Untranslated != "" {
		return Pair{}, fmt.Errorf("%s: not translated: %s", b.ID(), b.Untranslated)
	}
	dir := path.Join("halide", b.Name)
	spec, err := files.ReadFile(path.Join(dir, "spec.sare"))
	if err != nil {
		return Pair{}, fmt.Errorf("%s: %w (make bench-regen generates it)", b.ID(), err)
	}
	prog, err := files.ReadFile(path.Join(dir, "prog.sched"))
	if err != nil {
		return Pair{}, fmt.Errorf("%s: %w (make bench-regen generates it)", b.ID(), err)
	}
	return Pair{
		Spec: &syntax.Source{Name: "bench/" + dir + "/spec.sare", Text: string(spec)},
		Prog: &syntax.Source{Name: "bench/" + dir + "/prog.sched", Text: string(prog)},
	}, nil
}

// AlgSource returns the algorithm of a bundled benchmark: its file under
// alg/, or the generated stencil chain.
func AlgSource(b Benchmark) (*syntax.Source, error) {
	if b.Kind != Bundled {
		return nil, fmt.Errorf("%s: not a bundled benchmark", b.ID())
	}
	if b.Stages > 0 {
		return &syntax.Source{Name: fmt.Sprintf("bench/alg/sc%d.alg (generated)", b.Stages), Text: StencilChain(b.Stages)}, nil
	}
	text, err := files.ReadFile(path.Join("alg", b.Alg))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.ID(), err)
	}
	return &syntax.Source{Name: "bench/alg/" + b.Alg, Text: string(text)}, nil
}

// Compile compiles a bundled benchmark's algorithm with its schedule.
func Compile(ctx context.Context, b Benchmark) (Pair, error) {
	src, err := AlgSource(b)
	if err != nil {
		return Pair{}, err
	}
	p, err := alg.Load(src)
	if err != nil {
		return Pair{}, fmt.Errorf("%s: %w", src.Name, err)
	}
	res, err := compiler.Compile(ctx, p, strings.ReplaceAll(b.Name, "-", "_"), compiler.Options{})
	if err != nil {
		return Pair{}, fmt.Errorf("%s: compiling: %w", src.Name, err)
	}
	return Pair{
		Spec: &syntax.Source{Name: b.ID() + "/spec.sare", Text: res.Spec},
		Prog: &syntax.Source{Name: b.ID() + "/prog.sched", Text: res.Kernel(frontend.Prog).Text},
	}, nil
}

// Load returns a benchmark's pair and the time it took to get it (the
// bundled compiler's; zero for checked-in pairs).
func Load(ctx context.Context, b Benchmark) (Pair, time.Duration, error) {
	if b.Kind == Halide {
		p, err := HalidePair(b)
		return p, 0, err
	}
	start := time.Now()
	p, err := Compile(ctx, b)
	return p, time.Since(start), err
}

// Outcome is how a benchmark ended, beyond the validator's verdicts.
const (
	// NoVerdict is the outcome of a validation the wall-clock guard
	// stopped.
	NoVerdict = "no verdict (time bound)"
	// NotTranslated is the outcome of a Halide benchmark the front end
	// cannot translate.
	NotTranslated = "not translated"
	// Failed is the outcome of a benchmark whose pair could not be
	// loaded or compiled.
	Failed = "failed"
)

// Options tune a run of the suite.
type Options struct {
	// Timeout bounds each benchmark's validation in wall-clock time
	// (zero: no bound beyond Validate's own).
	Timeout time.Duration
	// Validate are the validator's options (value model, jobs, ...).
	Validate validate.Options
}

// Result is the outcome of one benchmark.
type Result struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// Outcome is the verdict ("valid", "invalid", "unknown", "error"), or
	// NoVerdict, NotTranslated or Failed.
	Outcome  string           `json:"outcome"`
	Expected validate.Verdict `json:"expected"`
	// Mismatch is set when a verdict was reached and it is not the
	// expected one, or the benchmark could not run (error, failed).
	Mismatch bool `json:"mismatch"`
	// Reason says why, for any outcome but the expected verdict.
	Reason string `json:"reason,omitempty"`
	// Compile is the bundled compiler's time (zero for Halide pairs).
	Compile float64 `json:"compile_seconds,omitempty"`
	// Phases are the validator's phases (parse, symbolic, solve,
	// confirm), as validate.Report gives them.
	Phases []validate.PhaseTime `json:"phases,omitempty"`
	// Seconds is the validation's wall-clock time, compilation excluded.
	Seconds    float64 `json:"seconds"`
	Conditions int     `json:"conditions,omitempty"`
	// Published is the prototype's time; Ratio is Seconds over it (zero
	// when either is unknown).
	Published Published `json:"published"`
	Ratio     float64   `json:"ratio,omitempty"`
	// Target is the time aimed at, TargetMet whether it was met with the
	// expected verdict (nil when there is no target).
	Target    float64 `json:"target_seconds,omitempty"`
	TargetMet *bool   `json:"target_met,omitempty"`
	Stages    int     `json:"stages,omitempty"`
}

// Phase returns the time of one validator phase, 0 when absent.
func (r *Result) Phase(name string) float64 {
	for _, p := range r.Phases {
		if p.Phase == name {
			return p.Seconds
		}
	}
	return 0
}

// grace is how long Run waits, past the guard, for a validation to notice
// its context is done before abandoning it.
const grace = 10 * time.Second

// Run validates one benchmark, the bundled compiler and the validation
// each bounded by o.Timeout. Failures to load or compile its pair are
// reported in the result, not as an error; the error is non-nil only when
// ctx itself is done.
func Run(ctx context.Context, b Benchmark, o Options) (*Result, error) {
	r := &Result{ID: b.ID(), Name: b.Name, Kind: b.Kind, Expected: b.Expected, Published: b.Published,
		Target: b.Target.Seconds(), Stages: b.Stages}
	defer r.finish()
	if b.Kind == Halide && b.Untranslated != "" {
		r.Outcome, r.Reason = NotTranslated, b.Untranslated
		return r, nil
	}
	// The bundled compiler and the validation have a bound each.
	cctx, cancel := bound(ctx, o.Timeout)
	pair, compile, err := Load(cctx, b)
	cancel()
	r.Compile = compile.Seconds()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		r.Outcome, r.Reason = Failed, err.Error()
		if cctx.Err() != nil {
			r.Outcome, r.Reason = NoVerdict, fmt.Sprintf("the bundled compiler stopped at the guard of %v", o.Timeout)
		}
		return r, nil
	}
	rep, secs, err := guarded(ctx, pair, o)
	r.Seconds = secs
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	r.Outcome, r.Reason = outcome(rep, err, o.Timeout)
	if rep != nil && err == nil {
		r.Phases, r.Conditions = rep.Timings, len(rep.Conditions)
	}
	return r, nil
}

// bound is ctx bounded by timeout (not when zero).
func bound(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout > 0 {
		return context.WithTimeout(ctx, timeout)
	}
	return context.WithCancel(ctx)
}

// guarded validates the pair under the guard o.Timeout (none when zero)
// and returns the report, or the validation's error, and its wall-clock
// seconds. A validation that does not stop within grace of the guard is
// abandoned (left running, detached) with context.DeadlineExceeded.
func guarded(ctx context.Context, pair Pair, o Options) (*validate.Report, float64, error) {
	vctx, cancel := bound(ctx, o.Timeout)
	defer cancel()
	type done struct {
		rep *validate.Report
		err error
	}
	ch := make(chan done, 1)
	start := time.Now()
	go func() {
		rep, err := validate.Validate(vctx, pair.Spec, pair.Prog, o.Validate)
		ch <- done{rep, err}
	}()
	var d done
	select {
	case d = <-ch:
	case <-vctx.Done():
		select {
		case d = <-ch:
		case <-time.After(grace):
			d.err = fmt.Errorf("%w; the validation did not stop within %v of the guard", context.DeadlineExceeded, grace)
		}
	}
	return d.rep, time.Since(start).Seconds(), d.err
}

// outcome is the outcome and its reason of a validation that ended with
// rep or err (guarded's) under the guard timeout: the verdict, or
// NoVerdict when the guard or a time bound of the solver decided, or
// Failed.
func outcome(rep *validate.Report, err error, timeout time.Duration) (string, string) {
	switch {
	case err != nil && errors.Is(err, context.DeadlineExceeded):
		return NoVerdict, fmt.Sprintf("stopped at the guard of %v", timeout)
	case err != nil:
		return Failed, err.Error()
	case rep.Verdict == validate.Unknown && rep.TimeBound:
		return NoVerdict, rep.Reason
	case rep.Verdict == validate.Error && len(rep.Errors) > 0:
		return string(rep.Verdict), rep.Errors[0].Message
	}
	return string(rep.Verdict), rep.Reason
}

// Stopped is the result of a benchmark whose run was stopped from
// outside (a process killed at its guard): no verdict after seconds.
func Stopped(b Benchmark, seconds float64, reason string) *Result {
	r := &Result{ID: b.ID(), Name: b.Name, Kind: b.Kind, Expected: b.Expected, Published: b.Published,
		Target: b.Target.Seconds(), Stages: b.Stages, Outcome: NoVerdict, Reason: reason, Seconds: seconds}
	r.finish()
	return r
}

// finish derives the comparisons from the outcome and the times.
func (r *Result) finish() {
	switch r.Outcome {
	case string(validate.Valid), string(validate.Invalid):
		r.Mismatch = r.Outcome != string(r.Expected)
	case string(validate.Error), Failed:
		r.Mismatch = true
	}
	if r.Outcome == string(r.Expected) {
		r.Reason = ""
	}
	if r.Published.Seconds > 0 && r.Seconds > 0 && r.Outcome == string(r.Expected) {
		r.Ratio = r.Seconds / r.Published.Seconds
	}
	if r.Target > 0 {
		met := r.Outcome == string(r.Expected) && r.Seconds <= r.Target
		r.TargetMet = &met
	}
}

// Pairs returns the names of the checked-in Halide pairs.
func Pairs() ([]string, error) {
	entries, err := fs.ReadDir(files, "halide")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out, nil
}
