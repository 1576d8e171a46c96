package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/smt/encode"
)

// exitInconclusive is the exit code of a run that could not finish: a
// budget was exhausted or the time ran out.
const exitInconclusive = 4

type runFlags struct {
	params    []string
	seed      uint64
	trials    int
	tolerance float64
	maxSteps  int64
	inputs    []string
	garbage   bool
	poison    bool
	model     string
}

func newRunCmd() *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run SPEC PROG --param N=64 [--param M=32]... [--seed S] [--trials T] [--garbage-writes] [--poison-value-failures] [--value-model real|ieee]",
		Short: "Run a kernel on random inputs against its specification",
		Long: `Run fills the kernel's inputs with random values (seeded), runs the kernel
with the reference interpreter, checks every assignment's annotation against
the specification as it executes and every out cell when the kernel ends, and
prints a report. Each trial uses the next seed.

With --garbage-writes, an assignment that reads a cell holding no value
writes an undefined value instead of failing, as augur validate's garbage
writes do, and the run fails only where such a value reaches an output.
With --poison-value-failures (which implies --garbage-writes), an
assignment whose stored value fails its check (an annotation mismatch,
the bookkeeping of a reduction) writes the undefined value instead of
failing: a run that passes then shows that no such value reaches an
output at these parameters.

Integer types wrap at their width. Floating-point values are compared exactly
unless --tolerance allows a relative and absolute difference (for kernels that
reassociate floating-point operations), with the equality of the value model
of augur validate: in the real model (the default) -0 and +0 are the same
number, in the ieee model two values.

Exit status: 0 when everything matched, 1 on a mismatch (the report shows the
first failure), 3 on malformed input or a usage error (parameters missing or
violating the kernel's assumptions included), 4 when a budget was exhausted
or the time ran out before the run finished. Run never exits 2, augur
validate's unknown: an inconclusive run exits 4.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runKernel(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], args[1], f)
		},
	}
	cmd.Flags().StringArrayVarP(&f.params, "param", "p", nil, "a parameter value, NAME=VALUE (repeatable)")
	cmd.Flags().Uint64Var(&f.seed, "seed", 1, "seed of the random inputs of the first trial")
	cmd.Flags().IntVar(&f.trials, "trials", 1, "number of runs, each with the next seed")
	cmd.Flags().Float64Var(&f.tolerance, "tolerance", 0, "relative and absolute tolerance for floating-point comparisons (0: exact)")
	cmd.Flags().Int64Var(&f.maxSteps, "max-steps", 0, "bound on the statements executed per trial (0: the default)")
	cmd.Flags().BoolVar(&f.garbage, "garbage-writes", false, "an assignment reading a cell with no value writes an undefined value instead of failing (augur validate's garbage writes)")
	cmd.Flags().BoolVar(&f.poison, "poison-value-failures", false, "an assignment whose value fails its check writes an undefined value instead of failing (implies --garbage-writes)")
	cmd.Flags().StringVar(&f.model, "value-model", "real", "value model whose equality compares floats: real (-0 and +0 are one number) or ieee (bit for bit)")
	cmd.Flags().StringArrayVar(&f.inputs, "input", nil, "fix one input element, such as 'A(0, 1)=2.5' (repeatable; the others stay random)")
	return cmd
}

// parseParams reads NAME=VALUE pairs.
func parseParams(list []string) (map[string]int64, error) {
	params := make(map[string]int64, len(list))
	for _, kv := range list {
		name, val, ok := strings.Cut(kv, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("--param %q: want NAME=VALUE", kv)
		}
		n, err := strconv.ParseInt(strings.TrimSpace(val), 0, 64)
		if err != nil {
			return nil, fmt.Errorf("--param %s: %q is not an integer", name, val)
		}
		if _, dup := params[name]; dup {
			return nil, fmt.Errorf("--param %s given twice", name)
		}
		params[name] = n
	}
	return params, nil
}

func formatParams(spec *sare.Spec, params map[string]int64) string {
	var parts []string
	seen := map[string]bool{}
	for _, p := range spec.Params {
		if v, ok := params[p.Name]; ok {
			parts = append(parts, fmt.Sprintf("%s=%d", p.Name, v))
			seen[p.Name] = true
		}
	}
	var rest []string
	for name, v := range params {
		if !seen[name] {
			rest = append(rest, fmt.Sprintf("%s=%d", name, v))
		}
	}
	sort.Strings(rest)
	return strings.Join(append(parts, rest...), ", ")
}

func runKernel(ctx context.Context, out, errw io.Writer, specPath, progPath string, f runFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if f.trials < 1 {
		return usageError(fmt.Errorf("--trials must be at least 1"))
	}
	params, err := parseParams(f.params)
	if err != nil {
		return usageError(err)
	}
	model, err := encode.ParseModel(f.model)
	if err != nil {
		return usageError(fmt.Errorf("--value-model: %w", err))
	}
	p, err := loadPair(errw, nil, specPath, progPath)
	if err != nil {
		return err
	}
	var missing []string
	for _, prm := range p.Spec.Params {
		if _, ok := params[prm.Name]; !ok {
			missing = append(missing, prm.Name)
		}
	}
	if len(missing) > 0 {
		return usageError(fmt.Errorf("no value for parameter %s (use --param %s=VALUE)",
			strings.Join(missing, ", "), missing[0]))
	}

	fixed, err := parseInputs(p.Spec, f.inputs)
	if err != nil {
		return usageError(err)
	}
	fmt.Fprintf(out, "augur run: %s against %s\n", progPath, specPath)
	fmt.Fprintf(out, "parameters: %s\n", formatParams(p.Spec, params))
	opts := sched.Options{Tolerance: f.tolerance, MaxSteps: f.maxSteps, GarbageWrites: f.garbage || f.poison, PoisonValueFailures: f.poison, Equality: model.Equality()}
	var total sched.Result
	for t := 0; t < f.trials; t++ {
		seed := f.seed + uint64(t)
		ev, err := sare.NewEvaluator(p.Spec, p.SpecInfo, params, withFixedInputs(fixed, sare.RandomInputs(seed)))
		if err != nil {
			return usageError(err)
		}
		res, err := sched.Run(ctx, p.Kernel, p.KernelInfo, ev, opts)
		label := fmt.Sprintf("trial %d/%d (seed %d)", t+1, f.trials, seed)
		var fail *sched.Failure
		switch {
		case errors.As(err, &fail):
			fmt.Fprintf(out, "%s: FAIL\n\n", label)
			writeFailure(out, fail)
			fmt.Fprintf(out, "\nFAIL: %s\n", fail.Kind)
			return silentExit(exitMismatch)
		case errors.Is(err, sched.ErrBudget) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
			fmt.Fprintf(out, "%s: INCONCLUSIVE: %v\n", label, err)
			return silentExit(exitInconclusive)
		case errors.As(err, new(*sched.AssumptionError)):
			return usageError(err)
		case err != nil:
			// An ill-defined specification: not a failure of the kernel.
			return &exitError{code: exitMalformed, err: err}
		}
		if res.Poisoned > 0 {
			fmt.Fprintf(out, "%s: %d assignment%s failed the check of their value and wrote ⊥ instead (--poison-value-failures), none of which reached an output cell; %d output cell%s matched the specification\n",
				label, res.Poisoned, plural(int(res.Poisoned)), res.OutputCells, plural(int(res.OutputCells)))
		} else {
			fmt.Fprintf(out, "%s: %d assignment%s matched their annotations, %d output cell%s matched the specification\n",
				label, res.Assignments, plural(int(res.Assignments)), res.OutputCells, plural(int(res.OutputCells)))
		}
		total.Assignments += res.Assignments
		total.OutputCells += res.OutputCells
		total.Poisoned += res.Poisoned
	}
	if total.Poisoned > 0 {
		fmt.Fprintf(out, "ok: %d trial%s, every output cell matched; %d stored value%s failed their check but reached no output\n", f.trials, plural(f.trials), total.Poisoned, plural(int(total.Poisoned)))
		return nil
	}
	fmt.Fprintf(out, "ok: %d trial%s, every annotation and every output cell matched\n", f.trials, plural(f.trials))
	return nil
}

// writeFailure prints a failure: the statement with a caret, then the
// cell, the values and the iterations involved.
func writeFailure(w io.Writer, f *sched.Failure) {
	fmt.Fprintln(w, f.Detail())
	row := func(label, format string, args ...any) {
		fmt.Fprintf(w, "  %-11s %s\n", label+":", fmt.Sprintf(format, args...))
	}
	if f.Stmt != "" && f.LineText != "" {
		row("statement", "%s", f.Stmt)
	}
	if cell := f.Cell(); cell != "" {
		row("cell", "%s", cell)
	}
	switch f.Kind {
	case sched.ReadWriteRace:
		row("iterations", "%s=%d writes the cell, %s=%d reads it", f.LoopVar, f.Iters[0], f.LoopVar, f.Iters[1])
	case sched.WriteWriteConflict:
		row("iterations", "%s=%d writes %s, %s=%d writes %s", f.LoopVar, f.Iters[0], f.Expected, f.LoopVar, f.Iters[1], f.Actual)
		return
	}
	if f.Expected.Type() != 0 {
		if f.Tensor != "" {
			row("expected", "%s = %s", f.Tensor, f.Expected)
		} else {
			row("expected", "%s", f.Expected)
		}
	}
	if f.Actual.Type() != 0 {
		row("actual", "%s", f.Actual)
	}
}
