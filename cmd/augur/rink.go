package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/augur-verify/augur/frontend/compiler"
	"github.com/augur-verify/augur/frontend/rink"
)

type rinkFlags struct {
	pairFlags
	vectorLength int64
	inPlace      bool
	parallel     bool
	impl         string
}

func newRinkCmd() *cobra.Command {
	var f rinkFlags
	cmd := &cobra.Command{
		Use:   "rink FILE -o DIR [--vector-length M] [--in-place] [--parallel] [--validate [--impl ref|padded|both] [--value-model real|ieee]]",
		Short: "Translate a program of Rink's tensor model language into a specification and two annotated kernels",
		Long: `Rink reads a program of the tensor model language of Rink, "Modeling of
languages for tensor manipulation" (2018): declarations "var x : [d1 ... dk]"
and assignments built from # (outer product), .[m n] (contraction), ^[m n]
(transposition) and + - * / (see docs/rink.md). It type-checks it and writes
DIR/spec.sare, the program as a specification whose size parameters stand
for its extents (N_300 for 300), DIR/ref.sched, the reference
implementation, and DIR/padded.sched, the padded implementation, where every
extent is rounded up to a multiple of M (--vector-length, default 4) and the
padding holds 0.

--in-place generates the naive implementation of a statement that reads the
variable it assigns (A = A ^ [1 2]): elements are committed directly instead
of through a temporary, the hazard the paper warns of. --parallel makes the
loops over the elements of each statement parallel (par), where that hazard
is a race.

The kernels are validated for every size at once: a VALID verdict holds at
the declared sizes and at all others.

With --validate, the kernels (--impl, default both) are validated at once
against the specification, as augur validate does, and the exit status is
augur validate's, the worst over the kernels: 0 valid, 1 invalid, 2 unknown,
3 error. Without it: 0 written, 3 on any error (every diagnostic is printed
with its line and a caret).`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError(fmt.Errorf("rink takes one program, got %d argument(s)", len(args)))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRink(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], f)
		},
	}
	f.register(cmd, []string{rink.Ref, rink.Padded}, "validate the kernels against the specification", 0)
	fl := cmd.Flags()
	fl.Int64VarP(&f.vectorLength, "vector-length", "M", 4, "the padded implementation rounds every extent up to a multiple of M")
	fl.BoolVar(&f.inPlace, "in-place", false, "commit statements that read the variable they assign in place (the naive, wrong implementation)")
	fl.BoolVar(&f.parallel, "parallel", false, "make the loops over the elements of each statement parallel")
	fl.StringVar(&f.impl, "impl", "both", "with --validate: the kernels to validate, ref, padded or both")
	return cmd
}

func runRink(ctx context.Context, out, errw io.Writer, path string, f rinkFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := f.needOut("rink"); err != nil {
		return err
	}
	kernels := map[string][]string{"ref": {rink.Ref}, "padded": {rink.Padded}, "both": {rink.Ref, rink.Padded}}[f.impl]
	if kernels == nil {
		return usageError(fmt.Errorf("--impl %q: want ref, padded or both", f.impl))
	}
	src, err := readSource(path)
	if err != nil {
		return &exitError{code: exitMalformed, err: err}
	}
	prog, info, err := rink.Load(src)
	if err != nil {
		return frontendError(errw, path, err)
	}
	res, err := rink.Translate(prog, info, rink.Options{
		Name: compiler.KernelName(path), VectorLength: f.vectorLength, InPlace: f.inPlace, Parallel: f.parallel,
	})
	if err != nil {
		return &exitError{code: exitMalformed, err: fmt.Errorf("%s: %w", path, err)}
	}
	return writePair(ctx, out, errw, &res.Pair, f.pairFlags, kernels...)
}
