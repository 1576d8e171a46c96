package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newCheckCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "check SPEC [PROG]",
		Short: "Parse and type-check a specification and a kernel",
		Long: `Check parses and type-checks a specification (.sare) and, when given, a
kernel (.sched) against it. Every error is printed as file:line:col: message,
followed by the source line and a caret under the offending spot.

Exit status: 0 when both are well-formed, 3 otherwise (including usage
errors).`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			prog := ""
			if len(args) == 2 {
				prog = args[1]
			}
			if _, err := loadPair(cmd.ErrOrStderr(), nil, args[0], prog); err != nil {
				return err
			}
			for _, a := range args {
				fmt.Fprintf(cmd.OutOrStdout(), "%s: ok\n", a)
			}
			return nil
		},
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
