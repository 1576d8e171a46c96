package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// newRootCmd assembles the command tree. Each subcommand lives in its own file.
func newRootCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "augur",
		Short:         "Augur validates annotated tensor kernels against their specifications",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(
		newCheckCmd(),
		newRunCmd(),
		newValidateCmd(),
		newCompileCmd(),
		newHalideCmd(),
		newFuzzSchedulesCmd(),
		newPresburgerCmd(),
		newServeCmd(),
		newWorkerCmd(),
		newSubmitCmd(),
		newVersionCmd(),
	)
	return root
}

// execute runs the command line and returns the process exit code.
func execute(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd(stdin, stdout, stderr)
	markUsageErrors(root)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	err = commandError(root, cmd, err)
	reportError(stderr, cmd, err)
	return exitCode(err)
}

// version is the release this binary belongs to.
const version = "0.1.0-dev"

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print Augur's version",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), "augur", version)
			return err
		},
	}
}
