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
//     language, recording the type of every value expression in an Info
//     (check.go). Expression checking is exported as ExprChecker
//     (exprcheck.go) so that the kernel language reuses it.
//   - EvalIndex, EvalCond and EvalValue evaluate expressions against an
//     Env (eval.go); an Evaluator computes any tensor element of a checked
//     specification by memoised recursion (evaluator.go).
//
// Start reading at Spec, then Check, then Evaluator.
package sare
