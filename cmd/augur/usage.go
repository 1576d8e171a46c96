package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// markUsageErrors makes every usage error of the command tree under root a
// usageError, so that it exits 3 with the command's usage: flag errors
// (an unknown flag, a bad value, a missing value) through root's flag
// error function, which every subcommand inherits, and the errors of each
// command's argument validator. Commands added to the tree before the call
// get it without doing anything.
func markUsageErrors(root *cobra.Command) {
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError(err) })
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		if check := cmd.Args; check != nil {
			cmd.Args = func(cmd *cobra.Command, args []string) error {
				if err := check(cmd, args); err != nil {
					return usageError(err)
				}
				return nil
			}
		}
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// noArgs is the argument validator of the commands that take none.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%s takes no arguments, got %q", cmd.CommandPath(), args)
	}
	return nil
}

// commandError classifies the error cobra returns for cmd, the command it
// ran or tried to run. An error attributed to root, which has no action of
// its own, is a usage error of the command line as a whole: an unknown
// subcommand.
func commandError(root, cmd *cobra.Command, err error) error {
	var ee *exitError
	if err != nil && cmd == root && !errors.As(err, &ee) {
		return usageError(err)
	}
	return err
}

// reportError prints err, the error cmd returned, on w: the message, and
// for a usage error the command's usage line and a pointer to its help.
// An exit code without an error has been explained already.
func reportError(w io.Writer, cmd *cobra.Command, err error) {
	var ee *exitError
	if err == nil || errors.As(err, &ee) && ee.err == nil {
		return
	}
	fmt.Fprintf(w, "augur: %s\n", strings.TrimRight(err.Error(), "\n"))
	if ee == nil || !ee.usage {
		return
	}
	if cmd.Runnable() {
		fmt.Fprintf(w, "usage: %s\n", cmd.UseLine())
	}
	fmt.Fprintf(w, "Run '%s --help' for details.\n", cmd.CommandPath())
}
