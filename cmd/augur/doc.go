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
//	augur fuzz-halide -o DIR   fuzz stock Halide 14 with random pipelines and schedules, confirming every INVALID with its JIT
//	augur presburger [FILE]    an iscc-style calculator over Presburger sets and relations
//	augur version              print the version, the build's identity and Z3's version
//
// Exit codes: augur validate and augur submit exit 0 valid, 1 invalid,
// 2 unknown, 3 error; the others 0 success, 1 a mismatch or failed check,
// 3 malformed input, and augur run 4 when a budget ran out. A usage error
// (no command, an unknown flag or subcommand, a bad flag value, a wrong number of
// arguments) exits 3 in every command, so that it is never read as a
// verdict.
//
// Files, in reading order: main.go, root.go, usage.go, load.go, stdin.go,
// inputs.go, validate.go, check.go, run.go, serve.go, worker.go, submit.go,
// frontend.go, compile.go, halide.go, atl.go, rink.go, fuzz.go,
// fuzzhalide.go, examples.go, presburger.go, bench.go, benchapps.go, gc.go,
// buildid.go.
package main
