package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/frontend/halide"
	"github.com/augur-verify/augur/validate"
)

type halideFlags struct {
	pairFlags
	generator string
	params    []string
	target    string
	mutate    string
}

func newHalideCmd() *cobra.Command {
	var f halideFlags
	cmd := &cobra.Command{
		Use:   "halide GEN.cpp [-g NAME] [--param k=v]... [--target T] -o DIR [--validate] [--mutate KIND]",
		Short: "Translate what stock Halide 14 compiles from a Generator into a specification and an annotated kernel",
		Long: `Halide compiles a Halide 14 Generator source together with Augur's
translator against libHalide (Halide.h from $HALIDE_INCLUDE, default
/usr/include/halide14; -lHalide14, or $HALIDE_LIBS; the compiler $CXX,
default g++), runs it, and writes DIR/spec.sare, the generator's algorithm
as a specification, and DIR/prog.sched, Halide's own loop nest after every
lowering pass before storage flattening, each store annotated with the
stage it computes (see docs/halide.md).

The translator and each generator are compiled once and kept in a cache
($AUGUR_CACHE_DIR, default the user cache directory's augur/halide).

-g NAME picks the generator when the source registers several; --param
sets GeneratorParams; --target sets Halide's target (default host).

--mutate KIND plants a miscompilation in prog.sched before it is written
(for testing the validator on real Halide output): fold[:N], guard[:K],
compute-at[:K] or sliding[:K] (see docs/halide.md).

With --validate, the kernel is validated at once against the
specification, as augur validate does, and the exit status is augur
validate's: 0 valid, 1 invalid, 2 unknown, 3 error. An INVALID's
counterexample is then run on Halide's own compiled pipeline (twice, its
memory poisoned) and on the algorithm unscheduled, and the report says
whether Halide's code confirms it or not, and then what the difference
would need to show (uninitialized memory, a race) or that the
translation is suspect. --json prints the report as JSON, the outcome
on Halide's code as its "native" field. Without --validate: 0 written, 3
on any error (a construct that cannot be translated is named).`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return &exitError{code: exitMalformed, err: fmt.Errorf("halide takes one generator source, got %d argument(s)", len(args))}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runHalide(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], f)
		},
	}
	f.register(cmd, []string{frontend.Prog}, "validate the kernel against its specification", 20*time.Second)
	fl := cmd.Flags()
	fl.StringVarP(&f.generator, "generator", "g", "", "the generator to run, when the source registers several")
	fl.StringArrayVar(&f.params, "param", nil, "a GeneratorParam, key=value (repeatable)")
	fl.StringVar(&f.target, "target", "host", "Halide's target")
	fl.StringVar(&f.mutate, "mutate", "", "plant a miscompilation in prog.sched: fold[:N], guard[:K], compute-at[:K], sliding[:K]")
	fl.BoolVar(&f.json, "json", false, "with --validate: print the report as JSON (what was written goes to the standard error)")
	return cmd
}

func runHalide(ctx context.Context, out, errw io.Writer, gen string, f halideFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := f.needOut("halide"); err != nil {
		return err
	}
	opts := halide.Options{Generator: f.generator, Target: f.target, Params: map[string]string{}}
	for _, p := range f.params {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return &exitError{code: exitMalformed, err: fmt.Errorf("--param %q: want key=value", p)}
		}
		opts.Params[k] = v
	}
	if _, err := os.Stat(gen); err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	tc := halide.Default()
	tc.Progress = func(step string) { fmt.Fprintf(errw, "augur halide: %s...\n", step) }
	driver, err := tc.Driver(ctx, gen)
	if err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	pair, err := halide.Translate(ctx, driver, opts)
	if err != nil {
		return &exitError{code: exitMalformed, err: fmt.Errorf("%s: %w", gen, err)}
	}
	if f.mutate != "" {
		prog := pair.Kernel(frontend.Prog)
		mutated, desc, err := halide.Mutate(prog.Text, f.mutate)
		if err != nil {
			return &exitError{code: exitMalformed, err: err}
		}
		prog.Text = mutated
		wrote := out
		if f.json {
			wrote = errw
		}
		fmt.Fprintf(wrote, "mutated %s: %s\n", filepath.Join(f.out, prog.File()), desc)
	}
	f.amend = confirmOnHalide(driver, opts, pair, f.valueModel)
	return writePair(ctx, out, errw, pair, f.pairFlags)
}

// confirmTolerance is the relative tolerance of float outputs compared in
// the real value model: Halide's code generator may contract multiplies
// and adds into fused ones (as the JIT sample's check allows).
const confirmTolerance = 1e-5

// confirmOnHalide returns the step that runs Halide's compiled pipeline
// (the generator's driver, with the options of the translation) on an
// invalid report's counterexample and puts the outcome in the report
// (docs/halide.md, "Confirming an INVALID on Halide's code").
func confirmOnHalide(driver string, opts halide.Options, pair *frontend.Pair, valueModel string) func(context.Context, *validate.Report) {
	return func(ctx context.Context, rep *validate.Report) {
		cx := rep.Counterexample
		w := halide.Witness{Params: map[string]int64{}, Seed: cx.Seed, Kind: cx.Kind}
		for _, p := range cx.Params {
			w.Params[p.Name] = p.Value
		}
		for _, x := range cx.Inputs {
			w.Inputs = append(w.Inputs, halide.Cell{Tensor: x.Tensor, Index: x.Index, Value: x.Value})
		}
		tol := confirmTolerance
		if valueModel == "ieee" {
			tol = 0
		}
		n := &validate.NativeCheck{Compiler: "Halide", Inputs: cx.Inputs, Seed: cmp.Or(cx.Seed, 1)}
		rep.Native = n
		c, err := halide.Confirm(ctx, driver, opts, pair.Spec, pair.Kernel(frontend.Prog).Text, w, tol)
		if err != nil {
			n.Outcome, n.Reason = validate.NativeNotRun, err.Error()
			return
		}
		n.Reason, n.Compared, n.Differing = c.Reason, c.Compared, c.Differing
		n.Outcome = validate.NativeNotReproduced
		if c.Outcome == halide.Confirmed {
			n.Outcome = validate.NativeConfirmed
		}
		n.Cause = map[halide.Cause]validate.NativeCause{
			halide.UninitializedMemory: validate.CauseUninitializedMemory,
			halide.Race:                validate.CauseRace,
			halide.OutsideBuffers:      validate.CauseOutsideBuffers,
			halide.Translation:         validate.CauseTranslation,
		}[c.Cause]
		if c.Inputs != nil {
			n.Inputs, n.AllInputs = nil, true
			for _, x := range c.Inputs {
				n.Inputs = append(n.Inputs, validate.InputValue{Tensor: x.Tensor, Index: x.Index, Value: x.Value})
			}
		}
		for _, d := range c.Differences {
			n.Cells = append(n.Cells, validate.NativeCell{Tensor: d.Tensor, Index: d.Index,
				Expected: d.Expected, Unscheduled: d.Unscheduled, Actual: d.Actual, Again: d.Again})
		}
	}
}
