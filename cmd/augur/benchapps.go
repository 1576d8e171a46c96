package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/bench"
	"github.com/augur-verify/augur/frontend/halide"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/validate"
)

// runBenchApps runs the bench of Halide's apps (augur bench
// --halide-apps): each app's stock Halide compilation, translation and
// validation, timed, one child process per app unless --in-process.
func runBenchApps(ctx context.Context, out, errw io.Writer, f benchFlags, model encode.Model) error {
	switch {
	case f.halide || f.bundled || f.regenerate:
		return usageError(errors.New("--halide-apps excludes --halide, --bundled and --regenerate"))
	case f.tracePresburger != "":
		return usageError(errors.New("--halide-apps excludes --trace-presburger"))
	}
	var only []string
	if f.only != "" {
		only = strings.Split(f.only, ",")
	}
	apps, err := bench.SelectApps(bench.Apps(), only)
	if err != nil {
		return usageError(fmt.Errorf("--only: %w", err))
	}
	if f.list {
		for _, a := range apps {
			fmt.Fprintf(out, "%-22s %-9s %-40s %s\n", a.Name, a.Documented, a.Target, a.ParamList())
		}
		return nil
	}
	tc := halide.Default()
	if !f.json {
		tc.Progress = func(step string) { fmt.Fprintf(errw, "augur bench: %s...\n", step) }
	}
	if err := tc.Available(); err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	opts := bench.AppOptions{Options: bench.Options{Timeout: f.timeout, Validate: validate.Options{ValueModel: model, Jobs: f.jobs}},
		Toolchain: tc, Root: ".", Confirm: appConfirm(f.valueModel)}
	var results []*bench.AppResult
	for _, a := range apps {
		var r *bench.AppResult
		if f.inProcess {
			r, err = bench.RunApp(ctx, a, opts)
		} else {
			r, err = runAppChild(ctx, errw, a, f, opts)
		}
		if err != nil {
			return err
		}
		if !f.json {
			fmt.Fprintf(errw, "augur bench: %s: %s, ratio %.2f\n", a.Name, bench.Verdict(r.Outcome), r.Ratio)
		}
		results = append(results, r)
	}
	summary := bench.SummarizeApps(results)
	return writeBenchResults(out, f, summary, summary.Mismatches, results, bench.WriteAppTable)
}

// runAppChild builds the app's driver here (so that a first build's
// progress shows and is not timed against the child's guards), then runs
// the app in a child process, augur bench --halide-apps --in-process
// --json, killed when it overruns its guards (Halide's compilation, the
// translation and the validation have one each).
func runAppChild(ctx context.Context, errw io.Writer, a bench.App, f benchFlags, opts bench.AppOptions) (*bench.AppResult, error) {
	if !f.json {
		fmt.Fprintf(errw, "augur bench: %s ...\n", a.Name)
	}
	if _, err := bench.BuildApp(ctx, a, opts); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return bench.EndedApp(a, bench.Failed, err.Error()), nil
	}
	args := []string{"bench", "--halide-apps", "--in-process", "--json", "--only", a.Name, "--timeout", f.timeout.String(),
		"--value-model", f.valueModel, "--jobs", strconv.Itoa(f.jobs)}
	var res struct {
		Results []*bench.AppResult `json:"results"`
	}
	killed, err := runChild(ctx, a.Name, args, 3*f.timeout, &res)
	switch {
	case err != nil:
		return nil, err
	case killed:
		return bench.EndedApp(a, bench.NoVerdict, fmt.Sprintf("killed: it did not stop within %v of its guards", childGrace)), nil
	case len(res.Results) != 1:
		return nil, fmt.Errorf("%s: the child process gave %d results, want 1", a.Name, len(res.Results))
	}
	return res.Results[0], nil
}

// appConfirm runs an INVALID's counterexample on Halide's compiled code,
// as augur halide --validate does (confirmOnHalide).
func appConfirm(valueModel string) func(string, halide.Options, *halide.Result) func(context.Context, *validate.Report) {
	return func(driver string, o halide.Options, r *halide.Result) func(context.Context, *validate.Report) {
		return confirmOnHalide(driver, o, r, valueModel)
	}
}
