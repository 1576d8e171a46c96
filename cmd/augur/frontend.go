package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/symeval"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// The commands of the front ends (compile, halide, atl, rink) share one
// path: each parses its own flags and runs its front end, which returns a
// frontend.Pair; writePair writes the pair and validates its kernels.

// checkFlags are the flags of a command that validates what a front end
// generates: --validate, and the solver's limits.
type checkFlags struct {
	validate bool
	timeout  time.Duration
	jobs     int
	// resources, condRes and totalRes bound the solver's work on each
	// query, on each condition and on all of them
	// (validate.Options.Resources, ConditionResources and
	// TotalResources; 0: no bound for the last two).
	resources, condRes, totalRes uint64
	// symbolicSteps bounds the symbolic evaluation's work
	// (validate.Options.SymbolicSteps).
	symbolicSteps int64
}

// register adds the flags to cmd: help is --validate's, timeout
// --timeout's default.
func (f *checkFlags) register(cmd *cobra.Command, help string, timeout time.Duration) {
	fl := cmd.Flags()
	fl.BoolVar(&f.validate, "validate", false, help)
	timeoutHelp := "with --validate: guard on the CPU time of each solver query (0: 5m)"
	if timeout != 0 {
		timeoutHelp = "with --validate: time limit of each solver query"
	}
	fl.DurationVar(&f.timeout, "timeout", timeout, timeoutHelp)
	fl.IntVar(&f.jobs, "jobs", runtime.NumCPU(), "with --validate: conditions discharged in parallel")
	fl.Uint64Var(&f.resources, "resources", validate.DefaultResources, "with --validate: work limit of each solver query, in Z3's resource units: a query that exhausts it is undecided, whatever the machine's load")
	fl.Uint64Var(&f.condRes, "condition-resources", validate.DefaultConditionResources, "with --validate: work limit of all the solver queries of one condition together, in Z3's resource units (0: none)")
	fl.Uint64Var(&f.totalRes, "total-resources", validate.DefaultTotalResources, "with --validate: work limit of the solver queries of all the conditions together, in Z3's resource units (0: none); the conditions after those that spent it, in program order, are undecided")
	fl.Int64Var(&f.symbolicSteps, "symbolic-steps", symeval.DefaultSteps, symbolicStepsHelp)
}

// symbolicStepsHelp is the help of --symbolic-steps.
const symbolicStepsHelp = "work limit of the symbolic evaluation, in the Presburger engine's steps: past it the verdict is unknown, whatever the machine's load (negative: no limit)"

// pairFlags are the flags every front end's command shares: the directory
// its pair is written into, and the validation of its kernels.
type pairFlags struct {
	out        string
	valueModel string
	checkFlags
	// amend completes an invalid report before it is printed (see
	// validateFlags.amend).
	amend func(context.Context, *validate.Report)
	// finish completes every report before it is printed (see
	// validateFlags.finish).
	finish func(context.Context, *validate.Report)
	// derived are the hypotheses on derived parameters (see
	// validateFlags.derived).
	derived []validate.Derived
	// json prints the reports as JSON, and what was written on the
	// standard error (augur halide --json).
	json bool
}

// register adds the flags to cmd, whose front end generates the kernels
// named kernels: help is --validate's, timeout --timeout's default.
func (f *pairFlags) register(cmd *cobra.Command, kernels []string, help string, timeout time.Duration) {
	files := []string{frontend.SpecFile}
	for _, k := range kernels {
		files = append(files, frontend.Kernel{Name: k}.File())
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.out, "output", "o", "", "directory to write "+andList(files)+" into (created if missing)")
	fl.StringVar(&f.valueModel, "value-model", "real", "with --validate: value model for floats, real or ieee")
	f.checkFlags.register(cmd, help, timeout)
}

// validateFlags are the options of augur validate the flags give.
func (f *pairFlags) validateFlags() validateFlags {
	return validateFlags{valueModel: f.valueModel, timeout: f.timeout, jobs: f.jobs, symbolicSteps: f.symbolicSteps, resources: f.resources, condRes: f.condRes, totalRes: f.totalRes, amend: f.amend, finish: f.finish, json: f.json, derived: f.derived}
}

// needOut is the usage error of the command named cmd run without -o.
func (f *pairFlags) needOut(cmd string) error {
	if f.out == "" {
		return usageError(fmt.Errorf("%s needs an output directory: -o DIR", cmd))
	}
	return nil
}

// frontendError is the exit error of a front end's failure on the program
// at path: diagnostics (a syntax.ErrorList) are printed on errw with their
// lines and carets; any other error is named after path.
func frontendError(errw io.Writer, path string, err error) error {
	var el syntax.ErrorList
	if errors.As(err, &el) {
		fmt.Fprintln(errw, el.Report())
		return silentExit(exitMalformed)
	}
	return &exitError{code: exitMalformed, err: fmt.Errorf("%s: %w", path, err)}
}

// writePair writes the pair into f.out (frontend.Pair.Write: spec.sare,
// then NAME.sched per kernel) and says so on out. With --validate, it
// then validates the kernels named in only (every kernel when only is
// empty), in the pair's order, against the specification as augur
// validate does, each report after a header naming the kernel's file when
// the pair has several kernels. The exit status is then augur validate's,
// the worst over the kernels: an error, then invalid, then unknown.
func writePair(ctx context.Context, out, errw io.Writer, pair *frontend.Pair, f pairFlags, only ...string) error {
	paths, err := pair.Write(f.out)
	if err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	wrote := out
	if f.json {
		wrote = errw
	}
	fmt.Fprintf(wrote, "wrote %s\n", andList(paths))
	if !f.validate {
		return nil
	}
	rank := map[int]int{exitOK: 0, exitUnknown: 1, exitMismatch: 2, exitMalformed: 3}
	worst := exitOK
	for i, k := range pair.Kernels {
		if len(only) > 0 && !slices.Contains(only, k.Name) {
			continue
		}
		if len(pair.Kernels) > 1 {
			fmt.Fprintf(out, "\n== %s\n", k.File())
		}
		err := validateKernel(ctx, out, errw, paths[0], paths[i+1], f.validateFlags())
		code := exitCode(err)
		var ee *exitError
		if err != nil && (!errors.As(err, &ee) || ee.err != nil) {
			return err
		}
		if r, ok := rank[code]; !ok || r > rank[worst] {
			worst = code
		}
	}
	if worst != exitOK {
		return silentExit(worst)
	}
	return nil
}

// andList joins items as a sentence does: "a", "a and b", "a, b and c".
func andList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
