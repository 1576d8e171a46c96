package main

import (
	"errors"
	"fmt"
	"os"
)

// Exit codes shared by every subcommand. 0, 1 and 2 are augur validate's
// verdicts (valid, invalid, unknown); every other outcome has a code of
// its own, so that no error is read as a verdict.
const (
	exitOK        = 0
	exitMismatch  = 1
	exitUnknown   = 2
	exitMalformed = 3
	// exitUsage is the code of a usage error: that of malformed input,
	// which no verdict shares.
	exitUsage = exitMalformed
)

// exitError carries a process exit code through cobra's error return.
type exitError struct {
	code int
	err  error
	// usage marks a usage error: execute follows its message with the
	// command's usage line and a pointer to its help.
	usage bool
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

func main() {
	tuneGC()
	os.Exit(execute(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// silentExit reports an exit code whose explanation has already been printed.
func silentExit(code int) error { return &exitError{code: code} }

// usageError reports a usage error: a flag, a flag value or an argument
// the command does not accept.
func usageError(err error) error { return &exitError{code: exitUsage, err: err, usage: true} }

// exitCode maps an error returned by a command to the process exit code.
// An error without a code of its own, such as an I/O error, exits 3.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return exitMalformed
}
