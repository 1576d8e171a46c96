// Package sare reads, checks and evaluates specifications: systems of
// affine recurrence equations (SAREs) over typed tensors, written in the
// .sare format.
//
// The phases, in order:
//
//   - Parse turns source text into a Spec (ast.go, parse.go); Print and
//     Spec.String give the canonical text back (print.go), and MarshalSpec
//     and UnmarshalSpec its JSON twin (json.go).
//   - Check resolves names and checks arities, types and the affine index
//     language, recording the type of every value expression in an
//     expr.Info (check.go); the expressions themselves are checked by
//     package expr, which the kernel language shares.
//   - An Evaluator computes any tensor element of a checked specification
//     by memoised recursion (evaluator.go; the links of a recurrence
//     look up what they read before their first evaluation, prefetch.go),
//     evaluating expressions with package expr and reading input tensors
//     from an Inputs provider (inputs.go).
//   - Widen makes a copy computed in f64, to tell where a value is
//     sensitive to rounding (widen.go).
//   - Reductions (reduce.go): the reduce(...) right-hand side, its
//     parsing, printing, checking and evaluation.
//
// Start reading at Spec, then Check, then Evaluator.
//
// The expression language of right-hand sides, where clauses and
// assumptions (index expressions, constraints and typed value
// expressions) is described in package expr.
//
// Files, in reading order: ast.go, parse.go, print.go, check.go,
// evaluator.go, prefetch.go, reduce.go, inputs.go, widen.go, json.go.
package sare
