// Package atl is Augur's front end for ATL, the functional tensor
// language of Liu et al. 2024 (A Verified Compiler for a Functional
// Tensor Language), with the wide bindings and sequential computation
// (GenRec) of Prasanna 2026 (Extending the ATL Framework with Wide
// Bindings and Sequential Computation).
//
// A program (.atl) declares size parameters, assumptions and input
// tensors, then defines one tensor expression (def), optionally followed
// by a schedule: a rewritten form of the same computation, lowered
// instead of the def and validated against it. The phases, in order:
//
//   - Parse turns source text into a Program (lexer.go, parser.go),
//     reporting every syntax error with its position and a caret.
//   - Check resolves names and computes every expression's shape, the
//     shape rules of ATL (check.go); shapes may depend on parameters,
//     never on index variables.
//   - Eval is the reference semantics, padding included: an empty Sum and
//     a false Guard yield padding, which behaves as zero (eval.go).
//   - Rules checks the side conditions of the lowering (rules.go): the
//     pad type system that makes truncation safe (TRUNCLPAD and TRUNCRPAD,
//     decided for all parameter values, pad.go), independent lanes of
//     wide bindings and backward GenRec lookbacks.
//   - Checked.Compile gives the program's meaning as a SARE specification
//     (spec.go; sums become recurrences, recurrence.go) and lowers it
//     through reindexers to an annotated kernel, in destination-passing
//     style with explicitly zero-filled allocations (lower.go). Compile
//     runs every phase (compile.go).
//
// Start reading at Program, then Compile.
//
// Files, in reading order: ast.go, lexer.go, parser.go, names.go, check.go,
// eval.go, rules.go, pad.go, aff.go, spec.go, recurrence.go, ir.go,
// lower.go, compile.go.
package atl
