// Command augur validates annotated tensor kernels against their
// specifications.
//
// Subcommands (the front ends' commands, compile, halide, atl and rink,
// write their pair and validate it through one path, frontend.go):
//
//	augur validate SPEC PROG   prove a kernel correct for all parameter values, or give a counterexample
//	augur check SPEC PROG      parse and type-check a specification and a kernel
//	augur run SPEC PROG        run a kernel on random inputs against the reference semantics
//	augur serve                the validation service: HTTP API, dashboard, in-process workers
//	augur worker               workers of a service sharing its PostgreSQL database
//	augur submit SPEC PROG     submit a pair to a service and wait for its verdict (for CI)
//	augur compile ALG -o DIR   compile a Halide-style algorithm to a specification and an annotated kernel
//	augur halide GEN.cpp -o DIR   compile a Halide 14 Generator with stock Halide and write its specification and annotated loop nest
//	augur atl FILE.atl -o DIR  compile an ATL program to its meaning as a specification and its annotated lowering
//	augur rink FILE -o DIR     translate a program of Rink's tensor model language to a specification and two annotated kernels
//	augur fuzz-schedules ALG   compile an algorithm under random legal schedules and run every kernel
//	augur presburger [FILE]    an iscc-style calculator over Presburger sets and relations
//	augur version              print the version, the build's identity and Z3's version
//
// Exit codes: augur validate and augur submit exit 0 valid, 1 invalid,
// 2 unknown, 3 error; the others 0 success, 1 a mismatch or failed check,
// 3 malformed input, and augur run 4 when a budget ran out. A usage error
// (no command, an unknown flag or subcommand, a bad flag value, a wrong number of
// arguments) exits 3 in every command, so that it is never read as a
// verdict.
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
