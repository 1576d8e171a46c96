package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/augur-verify/augur/bench"
	"github.com/augur-verify/augur/frontend/halide"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/validate"
)

type benchFlags struct {
	only       string
	halide     bool
	bundled    bool
	timeout    time.Duration
	json       bool
	list       bool
	valueModel string
	jobs       int
	regenerate bool
	apps       string
	out        string
	inProcess  bool
	// halideApps runs the bench of Halide's apps instead (benchapps.go).
	halideApps bool
	// tracePresburger names the directory receiving one Presburger trace
	// per benchmark.
	tracePresburger string
}

func newBenchCmd() *cobra.Command {
	var f benchFlags
	cmd := &cobra.Command{
		Use:   "bench [--only NAMES] [--halide | --bundled | --halide-apps] [--timeout D] [--json]",
		Short: "Run the benchmark suite of Clément 2022, Table 6.1, and print the table",
		Long: `Bench validates the benchmarks of Clément 2022 (Translation Validation of
Tensor Compilers), Table 6.1, and the stencil chain at 1 to 32 stages, and
prints one row per benchmark: the verdict and the expected one, the time of
each phase (the bundled compiler's, then parsing and checking, symbolic
evaluation, solving), the total, the time published for the thesis's
prototype, the ratio to it, and whether the target (a tenth of the
published time) is met. See docs/bench.md.

The Halide versions are the pairs generated once from halide/apps with stock
Halide 14 and built into augur; the bundled versions are algorithms compiled
by the bundled compiler when they run. --only takes names (sgemm, both
versions) or IDs (halide/sgemm); --halide and --bundled keep one version.
--timeout bounds the bundled compiler and the validation of each benchmark
in wall-clock time (0: no bound): a benchmark stopped by it has no verdict
(time bound). Each benchmark runs in a child process (augur bench
--in-process --only ID), killed if it does not stop within a minute of its
guard, so that no stray work slows the next ones down.

--halide-apps runs the bench of Halide's apps instead (run from the
repository's root): for each app of docs/halide.md's app table, stock
Halide 14 compiles the generator's pipeline (lowering and code generation
to an object, timed inside the generator's driver), the Halide front end
translates it and Augur validates it, and the table gives each time, in
CPU and wall-clock seconds, and the ratio of the validation's time to
Halide's compilation's. --only then takes the apps' names (or Halide's
app, linear_algebra); --timeout bounds each of the three steps.

--regenerate rebuilds the checked-in Halide pairs instead, with stock Halide
(run from the repository's root: --apps and --out are relative to it), and
validates nothing.

Exit status: 0 when every verdict reached is the expected one, 1 when some
benchmark reached another verdict, failed or ended in an error, 3 on a
usage error. No verdict within the time bound is not a failure.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBench(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.only, "only", "", "comma-separated benchmark names or IDs to run (default: all)")
	fl.BoolVar(&f.halide, "halide", false, "run only the Halide versions")
	fl.BoolVar(&f.bundled, "bundled", false, "run only the bundled compiler's versions")
	fl.DurationVar(&f.timeout, "timeout", 10*time.Minute, "wall-clock bound on each benchmark's validation (0: none)")
	fl.BoolVar(&f.json, "json", false, "print the results as JSON")
	fl.BoolVar(&f.list, "list", false, "list the suite's benchmarks without running them")
	fl.StringVar(&f.valueModel, "value-model", "real", "value model for floats, real or ieee")
	fl.IntVar(&f.jobs, "jobs", runtime.NumCPU(), "conditions discharged in parallel")
	fl.BoolVar(&f.regenerate, "regenerate", false, "rebuild the checked-in Halide pairs with stock Halide")
	fl.StringVar(&f.apps, "apps", "frontend/halide/apps", "with --regenerate: the directory of the Halide generators")
	fl.StringVar(&f.out, "out", "bench/halide", "with --regenerate: the directory of the checked-in pairs")
	fl.BoolVar(&f.halideApps, "halide-apps", false, "time Halide's apps: stock Halide's compilation against the translation and validation (see docs/bench.md)")
	fl.BoolVar(&f.inProcess, "in-process", false, "run the benchmarks in this process, not one child process each")
	fl.StringVar(&f.tracePresburger, "trace-presburger", "", "write every Presburger operation of each benchmark (the bundled compiler's included) into this directory, one iscc script per benchmark, KIND-NAME.iscc (see docs/bench.md)")
	return cmd
}

func runBench(ctx context.Context, out, errw io.Writer, f benchFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if f.halide && f.bundled {
		return usageError(errors.New("--halide and --bundled are exclusive"))
	}
	if f.timeout < 0 {
		return usageError(fmt.Errorf("--timeout must not be negative, got %v", f.timeout))
	}
	model, err := encode.ParseModel(f.valueModel)
	if err != nil {
		return usageError(fmt.Errorf("--value-model: %w", err))
	}
	if f.halideApps {
		return runBenchApps(ctx, out, errw, f, model)
	}
	var kinds []bench.Kind
	switch {
	case f.halide || f.regenerate:
		kinds = []bench.Kind{bench.Halide}
	case f.bundled:
		kinds = []bench.Kind{bench.Bundled}
	}
	var only []string
	if f.only != "" {
		only = strings.Split(f.only, ",")
	}
	suite, err := bench.Select(bench.Suite(), only, kinds...)
	if err != nil {
		return usageError(fmt.Errorf("--only: %w", err))
	}
	if f.regenerate {
		if err := bench.Regenerate(ctx, halide.Default(), f.apps, f.out, suite, errw); err != nil {
			return &exitError{code: exitMalformed, err: err}
		}
		return nil
	}
	if f.list {
		for _, b := range suite {
			src := b.Alg
			if b.Halide != nil {
				src = b.Halide.File
			}
			fmt.Fprintf(out, "%-20s %-9s %-8s %s\n", b.ID(), b.Published, b.Expected, src)
		}
		return nil
	}
	opts := bench.Options{Timeout: f.timeout, Validate: validate.Options{ValueModel: model, Jobs: f.jobs}}
	if f.tracePresburger != "" {
		if err := os.MkdirAll(f.tracePresburger, 0o755); err != nil {
			return usageError(fmt.Errorf("--trace-presburger: %w", err))
		}
	}
	var results []*bench.Result
	for _, b := range suite {
		if !f.json {
			fmt.Fprintf(errw, "augur bench: %s ...", b.ID())
		}
		var r *bench.Result
		if f.inProcess {
			r, err = runBenchTraced(ctx, b, opts, f.tracePresburger)
		} else {
			r, err = runBenchChild(ctx, b, f)
		}
		if err != nil {
			return err
		}
		if !f.json {
			fmt.Fprintf(errw, " %s, %.2f s\n", bench.Verdict(r.Outcome), r.Seconds)
		}
		results = append(results, r)
	}
	summary := bench.Summarize(results)
	return writeBenchResults(out, f, summary, summary.Mismatches, results, bench.WriteTable)
}

// writeBenchResults writes a bench's results to out, as JSON (the guard,
// the summary and the results) with --json, else as a table, and ends
// with the exit status of a mismatch when there are any.
func writeBenchResults[S, R any](out io.Writer, f benchFlags, summary S, mismatches int, results []R, table func(io.Writer, []R) error) error {
	var err error
	if f.json {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		err = enc.Encode(struct {
			Timeout float64 `json:"timeout_seconds,omitempty"`
			Summary S       `json:"summary"`
			Results []R     `json:"results"`
		}{f.timeout.Seconds(), summary, results})
	} else {
		err = table(out, results)
	}
	if err != nil {
		return err
	}
	if mismatches > 0 {
		return silentExit(exitMismatch)
	}
	return nil
}

// runBenchTraced runs one benchmark in this process, recording its
// Presburger operations in dir/KIND-NAME.iscc when dir is not "".
func runBenchTraced(ctx context.Context, b bench.Benchmark, opts bench.Options, dir string) (*bench.Result, error) {
	path := ""
	if dir != "" {
		path = filepath.Join(dir, strings.ReplaceAll(b.ID(), "/", "-")+".iscc")
	}
	ctx, endTrace, err := startPresburgerTrace(ctx, path, "augur bench --only "+b.ID())
	if err != nil {
		return nil, err
	}
	r, err := bench.Run(ctx, b, opts)
	if terr := endTrace(); terr != nil && err == nil {
		err = terr
	}
	return r, err
}

// childGrace is how long past its guards a benchmark's child process may
// run before it is killed.
const childGrace = time.Minute

// runBenchChild runs one benchmark in a child process, augur bench
// --in-process --json, and kills it when it overruns its guards: a
// validation that does not notice its context is done cannot keep
// running beside the next benchmarks.
func runBenchChild(ctx context.Context, b bench.Benchmark, f benchFlags) (*bench.Result, error) {
	args := []string{"bench", "--in-process", "--json", "--only", b.ID(), "--timeout", f.timeout.String(),
		"--value-model", f.valueModel, "--jobs", strconv.Itoa(f.jobs)}
	if f.tracePresburger != "" {
		args = append(args, "--trace-presburger", f.tracePresburger)
	}
	var res struct {
		Results []*bench.Result `json:"results"`
	}
	start := time.Now()
	// The bundled compiler and the validation have a guard each.
	killed, err := runChild(ctx, b.ID(), args, 2*f.timeout, &res)
	switch {
	case err != nil:
		return nil, err
	case killed:
		return bench.Stopped(b, time.Since(start).Seconds(), fmt.Sprintf("killed: it did not stop within %v of its guards", childGrace)), nil
	case len(res.Results) != 1:
		return nil, fmt.Errorf("%s: the child process gave %d results, want 1", b.ID(), len(res.Results))
	}
	return res.Results[0], nil
}

// runChild runs augur with args in a child process, killed childGrace
// past guards (no bound when guards is zero), and decodes its standard
// output, JSON, into res. killed reports that it was killed; the error
// names what (the child process of what) gave no result.
func runChild(ctx context.Context, what string, args []string, guards time.Duration, res any) (killed bool, err error) {
	exe, err := os.Executable()
	if err != nil {
		return false, fmt.Errorf("running %s in a child process: %w", what, err)
	}
	cctx := ctx
	if guards > 0 {
		var cancel context.CancelFunc
		cctx, cancel = context.WithTimeout(ctx, guards+childGrace)
		defer cancel()
	}
	cmd := exec.CommandContext(cctx, exe, args...)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if cctx.Err() != nil {
		return true, nil
	}
	if err := json.Unmarshal(stdout.Bytes(), res); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" && runErr != nil {
			msg = runErr.Error()
		}
		return false, fmt.Errorf("%s: the child process gave no result: %s", what, msg)
	}
	return false, nil
}
