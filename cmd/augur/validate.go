package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/augur-verify/augur/bench"
	"github.com/augur-verify/augur/frontend/halide"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/symeval"
	"github.com/augur-verify/augur/validate"
)

type validateFlags struct {
	json       bool
	valueModel string
	timeout    time.Duration
	resources  uint64
	// condRes and totalRes bound the solver's work on each condition and
	// on all of them (0: no bound; see unbounded).
	condRes  uint64
	totalRes uint64
	// condTerms bounds the Z3 terms of one condition's encodings (0: no
	// bound).
	condTerms uint64
	jobs      int
	// symbolicSteps bounds the symbolic evaluation's work.
	symbolicSteps int64
	emitSMT       string
	verbose       bool
	cpuProfile    string
	// memProfile names the file receiving the heap profile.
	memProfile string
	// all decides every condition even once the kernel is refuted.
	all bool
	// noGarbage turns off the garbage writes.
	noGarbage bool
	// noQuickTest skips testing first.
	noQuickTest bool
	// tracePresburger names the file receiving the Presburger trace.
	tracePresburger string
	// stdin is read for a file named "-".
	stdin io.Reader
	// amend, when set, completes an invalid report before it is printed
	// (augur halide --validate runs Halide's code on the counterexample),
	// and may make its verdict UNKNOWN.
	amend func(context.Context, *validate.Report)
	// finish, when set, completes every report (after amend) before it
	// is printed (augur halide --validate at --stage final checks the
	// final code's indices for overflow).
	finish func(context.Context, *validate.Report)
	// derived are the hypotheses on parameters computed from the
	// specification's inputs (augur halide's derived parameters).
	derived []validate.Derived
	// derivedFile names a file of derived parameters (--derived).
	derivedFile string
}

func newValidateCmd() *cobra.Command {
	var f validateFlags
	cmd := &cobra.Command{
		Use:   "validate SPEC PROG [--value-model real|ieee] [--resources N] [--condition-resources N] [--total-resources N] [--symbolic-steps N] [--jobs N] [--all-conditions] [--no-garbage-writes] [--no-quick-test] [--emit-smt DIR] [--json] [--verbose]",
		Short: "Prove that a kernel computes its specification for all parameter values, or show a counterexample",
		Long: `Validate evaluates the kernel symbolically over Presburger sets, using its
prophetic annotations as loop invariants, decides the conditions on cells
itself (bounds, defined reads, races, outputs written) and discharges the
value conditions with Z3.

The verdict comes first: VALID (every condition proved, for every parameter
value satisfying the assumptions), INVALID with a counterexample (parameter
values, statement, loop indices, cell, annotated and computed values, and the
augur run command that reproduces it), UNKNOWN with the conditions that could
not be decided and why, or ERROR for malformed input. Once a failure found
over Presburger sets (bounds, undefined reads, races) is confirmed, the value
conditions after it in program order are not discharged (the verdict is
INVALID either way) and are reported undecided, unless --all-conditions asks
for every one.

Garbage writes (Clément 2022, section 9.9): a statement that reads a cell
never written (a tile run past the end of the data, as Halide's round-up
tails do) is taken to write an undefined value at those iterations, and
the kernel fails only if such a value reaches an output;
--no-garbage-writes reports every such read as an undefined read.

Testing first: before the symbolic evaluation, the kernel runs with the
reference interpreter (augur run) at a few small parameter values allowed by
its assumptions, within a bounded number of steps. A failure there that the
proof would report too (a bound, a race, an output not written, or two values
that differ without any rounding involved) is the verdict, INVALID, with the
augur run command that reproduces it; otherwise the proof goes on as if the
test had not run. A test never makes a kernel valid. --no-quick-test (or
--all-conditions) skips it.

Value models: "real" (the default) reasons about floats as real numbers,
accepting fast-math reassociation; "ieee" proves bit-exact IEEE 754 equality.
Integers are always bit-vectors of their width with wrapping arithmetic.

Budgets count work, not time: --resources bounds each solver query in Z3's
resource units, --condition-resources all the queries of one condition,
--total-resources the queries of all the conditions together (counted in
program order: the conditions after those that spent it are undecided),
--symbolic-steps the whole symbolic evaluation in the Presburger engine's
steps, --condition-terms the Z3 terms one condition's encodings hold (its
memory). A validation that exhausts any of them is UNKNOWN, the reason naming
which ran out, on any machine under any load. The defaults give every
condition of Halide's suite and apps with a documented verdict several times
what it needs.

Either file may be "-", standard input (named <stdin> in the report).

An interrupt (SIGINT, Ctrl-C) or SIGTERM stops the solver's checks at once
and ends the validation within seconds as UNKNOWN, reason "cancelled", with
the conditions decided so far; a second one ends the process at once.

Exit status: 0 valid, 1 invalid, 2 unknown (cancelled too), 3 error
(malformed input or usage).`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return fmt.Errorf("validate takes a specification and a kernel, got %d argument(s)", len(args))
			}
			return oneStdin(args...)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			f.stdin = cmd.InOrStdin()
			return validateKernel(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], args[1], f)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.json, "json", false, "print the report as JSON")
	fl.StringVar(&f.valueModel, "value-model", "real", "value model for floats: real or ieee")
	fl.Uint64Var(&f.resources, "resources", validate.DefaultResources, "work limit of each solver query, in Z3's resource units: a query that exhausts it is undecided, whatever the machine's load")
	fl.Uint64Var(&f.condTerms, "condition-terms", validate.DefaultConditionTerms, "bound on the Z3 terms that the encodings of one condition hold, its memory (0: none); a condition past it is undecided")
	fl.Uint64Var(&f.condRes, "condition-resources", validate.DefaultConditionResources, "work limit of all the solver queries of one condition together, in Z3's resource units (0: none); a condition that spends it is undecided")
	fl.Uint64Var(&f.totalRes, "total-resources", validate.DefaultTotalResources, "work limit of the solver queries of all the conditions together, in Z3's resource units (0: none); the conditions after those that spent it, in program order, are undecided")
	fl.DurationVar(&f.timeout, "timeout", 0, "guard on the CPU time of each solver query (0: 5m); a verdict it decides is marked as time-bound")
	fl.Int64Var(&f.symbolicSteps, "symbolic-steps", symeval.DefaultSteps, symbolicStepsHelp)
	fl.IntVar(&f.jobs, "jobs", runtime.NumCPU(), "conditions discharged in parallel; during the symbolic evaluation, which takes one, the others start on the conditions generated so far")
	fl.BoolVar(&f.noGarbage, "no-garbage-writes", false, "report every read of a cell never written as an undefined read, even in a statement whose results never reach an output (by default such a statement writes garbage, which must not reach an output)")
	fl.BoolVar(&f.noQuickTest, "no-quick-test", false, "skip testing first: do not run the kernel at small parameter values before the symbolic evaluation")
	fl.BoolVar(&f.all, "all-conditions", false, "decide every value condition even when a failure found over Presburger sets (an undefined read, a race, ...) already refutes the kernel")
	fl.StringVar(&f.emitSMT, "emit-smt", "", "write the SMT-LIB2 script of every value condition into this directory")
	fl.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the validation (go tool pprof) to this file")
	fl.StringVar(&f.memProfile, "memprofile", "", "write a heap profile (go tool pprof) to this file when the validation ends, or is interrupted: its allocations, and the memory in use at the last garbage collection before")
	fl.StringVar(&f.tracePresburger, "trace-presburger", "", "record every Presburger operation of the validation in this file, as an iscc script (see docs/bench.md)")
	fl.StringVar(&f.derivedFile, "derived", "", "assume that each parameter this file names (lines \"derived NAME = DEF\", as augur halide's driver writes them) equals its computation DEF from the specification's inputs, in the value model")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "print the symbolic heaps and conditions as they are computed, and every condition")
	return cmd
}

func validateKernel(ctx context.Context, out, errw io.Writer, specPath, progPath string, f validateFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	// An interrupt cancels the validation, which then ends as UNKNOWN
	// with what it decided so far (and a complete CPU profile). Only the
	// first: a second one ends the process at once.
	ctx, cancel := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer cancel()
	stopAfter := context.AfterFunc(ctx, cancel)
	defer stopAfter()
	model, err := encode.ParseModel(f.valueModel)
	if err != nil {
		return usageError(err)
	}
	spec, specErr := readInput(specPath, f.stdin)
	prog, progErr := readInput(progPath, f.stdin)
	switch {
	case (specErr != nil || progErr != nil) && !f.json:
		// Reported as augur check reports it.
		_, err := loadSources(errw, specPath, spec, specErr, progPath, prog, progErr)
		return err
	case specErr != nil:
		return &exitError{code: exitMalformed, err: specErr}
	case progErr != nil:
		return &exitError{code: exitMalformed, err: progErr}
	}
	if f.derivedFile != "" {
		ds, err := halide.ReadDerived(f.derivedFile)
		if err != nil {
			return &exitError{code: exitMalformed, err: err}
		}
		if f.derived, err = bench.DerivedHypotheses(ds); err != nil {
			return &exitError{code: exitMalformed, err: err}
		}
	}
	opts := validate.Options{ValueModel: model, Resources: f.resources, ConditionResources: unbounded(f.condRes), TotalResources: unbounded(f.totalRes), ConditionTerms: unbounded(f.condTerms), SymbolicSteps: f.symbolicSteps, Timeout: f.timeout, Jobs: f.jobs, AllConditions: f.all, NoGarbageWrites: f.noGarbage, NoQuickTest: f.noQuickTest, KeepSMT: f.emitSMT != "", ProvedFormulas: f.verbose, Derived: f.derived}
	if f.verbose && !f.json {
		opts.Trace = func(line string) { fmt.Fprintln(out, line) }
	}
	stop, err := startCPUProfile(f.cpuProfile)
	if err != nil {
		return usageError(err)
	}
	writeHeap, err := startHeapProfile(f.memProfile)
	if err != nil {
		stop()
		return usageError(err)
	}
	ctx, endTrace, err := startPresburgerTrace(ctx, f.tracePresburger, "augur validate "+specPath+" "+progPath)
	if err != nil {
		stop()
		_ = writeHeap() // closes its file; the usage error is what matters
		return usageError(err)
	}
	rep, err := validate.Validate(ctx, spec, prog, opts)
	stop()
	if perr := writeHeap(); perr != nil && err == nil {
		return &exitError{code: exitMalformed, err: perr}
	}
	if terr := endTrace(); terr != nil && err == nil {
		return &exitError{code: exitMalformed, err: terr}
	}
	if err != nil && rep == nil {
		return &exitError{code: exitMalformed, err: err}
	}
	// A cancelled validation (err non-nil) has its report so far, UNKNOWN.
	if f.amend != nil && err == nil && rep.Verdict == validate.Invalid && rep.Counterexample != nil {
		f.amend(ctx, rep)
	}
	if f.finish != nil && err == nil {
		f.finish(ctx, rep)
	}
	if f.emitSMT != "" {
		if err := emitSMT(f.emitSMT, rep); err != nil {
			return &exitError{code: exitMalformed, err: err}
		}
	}
	if f.json {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		if rep.Verdict == validate.Error {
			// Malformed input, reported as augur check reports it.
			_, err := loadSources(errw, specPath, spec, nil, progPath, prog, nil)
			return cmp.Or(err, error(&exitError{code: exitMalformed}))
		}
		if f.verbose {
			fmt.Fprintln(out)
		}
		if err := rep.WriteText(out, f.verbose); err != nil {
			return err
		}
	}
	if code := rep.ExitCode(); code != 0 {
		return silentExit(code)
	}
	return nil
}

// emitSMT writes one SMT-LIB2 file per value condition, named after the
// condition's number.
func emitSMT(dir string, rep *validate.Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, c := range rep.Conditions {
		script := c.Script()
		if script == "" {
			continue
		}
		name := filepath.Join(dir, fmt.Sprintf("C%d.smt2", c.ID))
		if err := os.WriteFile(name, []byte(script), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// startPresburgerTrace returns ctx carrying a presburger.Tracer that writes
// to the file path ("" traces nothing), after a header naming what is
// traced (the command line), and the function that ends the trace and
// reports its first write error.
func startPresburgerTrace(ctx context.Context, path, what string) (context.Context, func() error, error) {
	if path == "" {
		return ctx, func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, fmt.Errorf("presburger trace: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<16)
	t := presburger.NewTracer(w)
	t.Comment(fmt.Sprintf("Presburger operations of: %s\n"+
		"augur %s; an iscc script, replayed in Augur and isl by BenchmarkReplay of presburger/islcheck (see docs/bench.md)",
		what, version))
	end := func() error {
		t.Comment(fmt.Sprintf("%d operations", t.Ops()))
		err := t.Err()
		if ferr := w.Flush(); err == nil && ferr != nil {
			err = fmt.Errorf("presburger trace: %w", ferr)
		}
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("presburger trace: %w", cerr)
		}
		return err
	}
	return presburger.WithTracer(ctx, t), end, nil
}

// startHeapProfile creates the file path ("" does nothing) and returns
// the function that writes the heap profile into it and closes it, to be
// called when the validation ends: without a garbage collection first,
// so that its in-use figures are those of the last collection during the
// validation, near its peak.
func startHeapProfile(path string) (write func() error, err error) {
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("heap profile: %w", err)
	}
	return func() error {
		werr := pprof.WriteHeapProfile(f)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return fmt.Errorf("heap profile: %w", werr)
		}
		return nil
	}, nil
}

// startCPUProfile starts a CPU profile written to path ("" does nothing)
// and returns the function that ends it.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// unbounded maps a budget flag's 0 ("none") to validate.Unlimited: zero
// in validate.Options means the default.
func unbounded(n uint64) uint64 {
	if n == 0 {
		return validate.Unlimited
	}
	return n
}
