package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/frontend/halide"
	"github.com/augur-verify/augur/validate"
)

// AppOptions tune a run of the apps' bench.
type AppOptions struct {
	// Options bound the validation (Timeout, also each of Halide's
	// compilation and the translation) and tune it (Validate).
	Options
	// Toolchain builds the generators' drivers (package halide's cache:
	// a driver already built is not built again).
	Toolchain halide.Toolchain
	// Root is the repository's root, where the apps' sources are.
	Root string
	// Confirm, when set, returns the step that completes an INVALID
	// report by running its counterexample on Halide's compiled code (as
	// augur halide --validate does), for the driver, the options and the
	// translation of the app; it is timed apart from the validation.
	Confirm func(driver string, o halide.Options, r *halide.Result) func(context.Context, *validate.Report)
}

// AppResult is the outcome of one app: stock Halide's compilation, the
// translation and the validation, each timed, and the ratio of the
// validation's time to Halide's.
type AppResult struct {
	App
	// Outcome is the verdict ("valid", "invalid", "unknown", "error"), or
	// NoVerdict, NotTranslated or Failed.
	Outcome string `json:"outcome"`
	// Mismatch is set when the verdict contradicts the documented one
	// (VALID against INVALID, or the other way), or the app could not be
	// translated, compiled or validated.
	Mismatch bool   `json:"mismatch"`
	Reason   string `json:"reason,omitempty"`
	// Halide is stock Halide's compilation, lowering and code generation,
	// as the driver times it (building the driver excluded), Halide's
	// runtime included in the object as in a generator's default build;
	// HalidePipeline the same without the runtime (the target feature
	// no_runtime): the pipeline's own code.
	Halide         *halide.HalideCompile `json:"halide_compile,omitempty"`
	HalidePipeline *halide.HalideCompile `json:"halide_compile_no_runtime,omitempty"`
	// Translation is the driver's lowering for the capture and the rest
	// of the translation.
	Translation *halide.TranslationTimes `json:"translation,omitempty"`
	// Validation is the validation's time: the CPU time of this process
	// (user and system, all its threads) and the wall-clock time.
	Validation halide.Elapsed       `json:"validation"`
	Phases     []validate.PhaseTime `json:"phases,omitempty"`
	Conditions int                  `json:"conditions,omitempty"`
	// Confirm is the time of running an INVALID's counterexample on
	// Halide's compiled code, outside the validation's: its CPU time is
	// this process's only (Halide's code runs in the driver).
	Confirm *halide.Elapsed `json:"confirm,omitempty"`
	// Ratio is the validation's CPU time over Halide's compilation's,
	// RatioWall the same of wall-clock times, RatioPipeline the CPU time
	// over the compilation without the runtime (zero when either is
	// missing).
	Ratio         float64 `json:"ratio"`
	RatioWall     float64 `json:"ratio_wall"`
	RatioPipeline float64 `json:"ratio_no_runtime,omitempty"`
}

// RunApp builds the app's driver, compiles its pipeline with stock Halide,
// translates it and validates the translation, timing each, in this
// process (the validation's CPU time is this process's). Halide's
// compilation and the translation are bounded by o.Timeout each, like the
// validation. What fails is reported in the result, not as an error; the
// error is non-nil only when ctx itself is done.
func RunApp(ctx context.Context, a App, o AppOptions) (*AppResult, error) {
	r := &AppResult{App: a}
	defer r.finish()
	fail := func(outcome, reason string) (*AppResult, error) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		r.Outcome, r.Reason = outcome, reason
		return r, nil
	}
	driver, err := BuildApp(ctx, a, o)
	if err != nil {
		return fail(Failed, err.Error())
	}
	hopts := halide.Options{Generator: a.Generator, Params: a.Params, Target: a.Target}
	cctx, cancel := bound(ctx, o.Timeout)
	r.Halide, err = halide.CompileTimed(cctx, driver, hopts)
	if err == nil {
		bare := hopts
		bare.Target += "-no_runtime"
		r.HalidePipeline, err = halide.CompileTimed(cctx, driver, bare)
	}
	cancel()
	if err != nil {
		return fail(Failed, "stock Halide's compilation: "+err.Error())
	}
	tctx, cancel := bound(ctx, o.Timeout)
	res, tt, err := halide.TranslateTimed(tctx, driver, hopts)
	cancel()
	if err != nil {
		var te *halide.TranslationError
		if errors.As(err, &te) && tctx.Err() == nil {
			return fail(NotTranslated, te.Msg)
		}
		return fail(Failed, "the translation: "+err.Error())
	}
	r.Translation = tt
	pair := Pair{Spec: res.SpecSource(), Prog: res.Kernel(frontend.Prog).Source()}
	vo := o.Options
	if vo.Validate.Derived, err = DerivedHypotheses(res.Derived); err != nil {
		return fail(Failed, "the derived parameters: "+err.Error())
	}
	cpu := processCPU()
	rep, secs, err := guarded(ctx, pair, vo)
	r.Validation = halide.Elapsed{CPU: (processCPU() - cpu).Seconds(), Wall: secs}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err == nil && o.Confirm != nil && rep.Verdict == validate.Invalid && rep.Counterexample != nil {
		cpu, start := processCPU(), time.Now()
		o.Confirm(driver, hopts, res)(ctx, rep)
		r.Confirm = &halide.Elapsed{CPU: (processCPU() - cpu).Seconds(), Wall: time.Since(start).Seconds()}
	}
	r.Outcome, r.Reason = outcome(rep, err, o.Timeout)
	if rep != nil && err == nil {
		r.Phases, r.Conditions = rep.Timings, len(rep.Conditions)
	}
	return r, nil
}

// DerivedHypotheses returns the hypotheses that each derived parameter
// of a translation equals its computation (validate.Derived), with which
// both the apps' runs and augur halide --validate validate it: without
// them the parameters are free, and testing first may run the kernel at
// values their computations never give together.
func DerivedHypotheses(ds []halide.DerivedParam) ([]validate.Derived, error) {
	var out []validate.Derived
	for _, d := range ds {
		h, err := validate.ParseDerived(d.Name, d.Def)
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, nil
}

// BuildApp builds the app's driver (or finds it in the toolchain's cache)
// and returns its path.
func BuildApp(ctx context.Context, a App, o AppOptions) (string, error) {
	g := halide.Generator{}
	for _, s := range a.Sources {
		path := filepath.Join(o.Root, filepath.FromSlash(s))
		if _, err := os.Stat(path); err != nil {
			return "", fmt.Errorf("%s: %w (the apps' sources are read from the repository's root)", a.Name, err)
		}
		g.Sources = append(g.Sources, path)
	}
	d, err := o.Toolchain.Build(ctx, g)
	if err != nil {
		return "", fmt.Errorf("building %s: %w", a.Name, err)
	}
	return d, nil
}

// processCPU is the CPU time this process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// EndedApp is the result of an app that ended outside RunApp with the
// outcome (NoVerdict: a process killed at its guard; Failed: its driver
// not built) and its reason.
func EndedApp(a App, outcome, reason string) *AppResult {
	r := &AppResult{App: a, Outcome: outcome, Reason: reason}
	r.finish()
	return r
}

// finish derives the mismatch and the ratios.
func (r *AppResult) finish() {
	switch r.Outcome {
	case string(validate.Valid), string(validate.Invalid):
		r.Mismatch = (r.Documented == validate.Valid || r.Documented == validate.Invalid) && r.Outcome != string(r.Documented)
	case string(validate.Error), Failed, NotTranslated:
		r.Mismatch = true
	}
	if r.Halide == nil || r.Validation.Wall == 0 {
		return
	}
	if h := r.Halide.Total(); h.CPU > 0 && h.Wall > 0 {
		r.Ratio, r.RatioWall = r.Validation.CPU/h.CPU, r.Validation.Wall/h.Wall
	}
	if r.HalidePipeline != nil && r.HalidePipeline.Total().CPU > 0 {
		r.RatioPipeline = r.Validation.CPU / r.HalidePipeline.Total().CPU
	}
}
