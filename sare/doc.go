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
//     specification by memoised recursion (evaluator.go), reading input
//     tensors from an Inputs provider (inputs.go).
//
// Start reading at Spec, then Check, then Evaluator.
//
// # Expressions
//
// Expressions come in three sublanguages, all parsed by package syntax:
//
//   - Index expressions (tensor and array indices) are exact integers,
//     quasi-affine in the index names (parameters and variables). They
//     are evaluated over int64, and overflow is an error.
//   - Constraints (where clauses, assumptions, select conditions in index
//     expressions) compare index expressions.
//   - Value expressions are typed (package value): literals take the type
//     their context demands (the other operand, the tensor being defined),
//     or i64 and f64 when nothing demands one; there is no implicit
//     conversion; an index name used as a value must be cast, as in
//     f32(i). A cast or comparison whose operands belong to the index
//     language, such as f32(i / 2) or i < N inside a value expression, is
//     evaluated exactly in the index language.
//
// Info.Types records a type for every value expression and
// subexpression, and none for the index-language operands of such casts
// and comparisons: EvalValue relies on that to tell them apart.
//
// Files, in reading order: ast.go, parse.go, print.go, check.go,
// exprcheck.go, eval.go, evaluator.go, reduce.go, inputs.go, json.go.
package sare
