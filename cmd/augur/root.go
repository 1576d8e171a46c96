package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/augur-verify/augur/smt"
)

// newRootCmd assembles the command tree. Each subcommand lives in its own file.
func newRootCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "augur",
		Short:         "Augur validates annotated tensor kernels against their specifications",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version,
	}
	root.SetVersionTemplate("{{verifierID}}\n")
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(
		newCheckCmd(),
		newRunCmd(),
		newValidateCmd(),
		newCompileCmd(),
		newHalideCmd(),
		newAtlCmd(),
		newRinkCmd(),
		newFuzzSchedulesCmd(),
		newFuzzHalideCmd(),
		newPresburgerCmd(),
		newServeCmd(),
		newWorkerCmd(),
		newSubmitCmd(),
		newBenchCmd(),
		newVersionCmd(),
	)
	return root
}

// execute runs the command line and returns the process exit code.
func execute(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd(stdin, stdout, stderr)
	if len(args) == 0 {
		return noCommand(root, stderr)
	}
	markUsageErrors(root)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	err = commandError(root, cmd, err)
	reportError(stderr, cmd, err)
	return exitCode(err)
}

// noCommand answers augur invoked without arguments: a usage error, with the
// list of commands, on stderr.
func noCommand(root *cobra.Command, stderr io.Writer) int {
	fmt.Fprint(stderr, root.UsageString())
	err := usageError(errors.New("no command given"))
	reportError(stderr, root, err)
	return exitCode(err)
}

// version is the release this binary belongs to.
const version = "0.1.0-dev"

// verifierID names this binary's verifier, as augur version prints it
// and as the service's cache keys (store.CacheKey) take it: Augur's
// version, the build's identity (buildIdentity) and Z3's version. A
// verdict is reused only by the same build on the same Z3. The workers'
// options that change verdicts are those of the build (no flag changes
// them), and verdicts that depend on time or on memory are not cached at
// all (api.Cacheable).
func verifierID() string {
	return "augur " + version + " (" + buildIdentity() + "); z3 " + smt.Version()
}

func init() {
	// The version template asks for verifierID only when --version is
	// given: the build's identity may hash the executable.
	cobra.AddTemplateFunc("verifierID", verifierID)
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print Augur's version, its build's identity and Z3's version",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), verifierID())
			return err
		},
	}
}
