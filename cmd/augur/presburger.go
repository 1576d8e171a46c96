package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/presburger/iscc"
)

func newPresburgerCmd() *cobra.Command {
	var (
		timeout  time.Duration
		maxSteps int
	)
	cmd := &cobra.Command{
		Use:   "presburger [FILE]",
		Short: "An iscc-style calculator over Presburger sets and relations",
		Long: `Presburger reads statements terminated by ";" from FILE, or from standard
input when FILE is absent or "-", and evaluates them with Augur's exact
Presburger engine, in the manner of isl's iscc calculator:

    S := [N] -> { A[i] : 0 <= i < N };
    R := { A[i] -> B[i + 1] };
    R(S);              # prints [N] -> { B[...] : ... }
    S <= dom R;        # prints True or False

Operators: + (union), - (difference), * (intersection; of the domain for a
relation and a set), . (join), R(S) (application), R^-1 (inverse), dom,
ran, lexmin, lexmax, coalesce, the tests = <= < >= >, is_empty and
is_single_valued. All binary operators have the same precedence and
associate to the left, as in iscc. See docs/presburger.md.

Every failed statement is printed as file:line:col: message with its source
line and a caret; the calculator goes on with the next statement.

Exit status: 0 when every statement succeeded, 3 otherwise (a statement
failed, FILE could not be read, or a usage error).`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, in := "<stdin>", cmd.InOrStdin()
			if len(args) == 1 && args[0] != "-" {
				f, err := os.Open(args[0])
				if err != nil {
					fmt.Fprintln(cmd.ErrOrStderr(), err)
					return silentExit(exitMalformed)
				}
				defer f.Close()
				name, in = args[0], f
			}
			return runPresburger(cmd.Context(), name, in, cmd.OutOrStdout(), cmd.ErrOrStderr(), timeout, maxSteps)
		},
	}
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "stop evaluating after this long (0: no limit); the remaining statements fail")
	cmd.Flags().IntVar(&maxSteps, "max-steps", 0, "bound on the elementary steps of one engine operation (0: the engine's default)")
	return cmd
}

// runPresburger runs the calculator and maps its outcome to an exit status.
func runPresburger(ctx context.Context, name string, in io.Reader, out, errOut io.Writer, timeout time.Duration, maxSteps int) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	if maxSteps < 0 {
		return usageError(fmt.Errorf("--max-steps must not be negative"))
	}
	if maxSteps > 0 {
		ctx = presburger.WithBudget(ctx, presburger.Budget{MaxSteps: maxSteps})
	}
	if err := iscc.Run(ctx, name, in, out, errOut); err != nil {
		// Failed statements (iscc.ErrFailed) have been reported already;
		// the summary and any I/O error are printed by execute.
		return &exitError{code: exitMalformed, err: err}
	}
	return nil
}
