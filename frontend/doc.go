// Package frontend holds what every front end of Augur produces: a Pair,
// a specification (.sare) and one or more annotated kernels (.sched), each
// kernel claiming by its annotations to compute the specification.
//
// The front ends are its subpackages, peers that each return a Pair:
//
//   - compiler, the bundled compiler of Halide-style algorithms (.alg,
//     package compiler/alg) and their schedules, returns one kernel, prog;
//   - halide, for stock Halide 14 Generators, returns one kernel, prog,
//     Halide's own loop nest;
//   - atl, for programs of ATL, the functional tensor language, returns one
//     kernel, prog, the program's lowering to loops;
//   - rink, for programs of Rink's tensor model language, returns two,
//     ref and padded, its reference and padded implementations.
//
// A front end's own result (compiler.Result, atl.Result, rink.Result)
// embeds the Pair and adds what only that front end knows. The command
// line writes every pair the same way (Pair.Write: spec.sare, then one
// NAME.sched per kernel) and validates each kernel against the
// specification.
//
// The pair holds the texts a front end printed, comments included, as
// they are written and validated; Load parses and checks them into the
// typed specification and kernels of packages sare and sched.
//
// Files, in reading order: pair.go, index.go (IndexObligation: that a
// compiler's final code computes an index without overflow, as a front
// end reads it from its compiler), intterm.go (IntTerm, the exact integer
// arithmetic of an obligation's facts and terms: SMT-LIB text read and
// written, checked and evaluated).
package frontend
