// Package expr checks and evaluates the expression language that
// specifications (package sare) and kernels (package sched) share, whose
// syntax, parser and printer are package syntax's. It stands above
// packages syntax and value, and below both languages.
//
// The files, in reading order:
//
//   - check.go: Checker checks the three sublanguages of expressions
//     against a Scope that tells what a name denotes (an index, a
//     specification tensor, a kernel array), reporting every error with
//     its position and code and recording the type of every value
//     expression in an Info.
//   - eval.go: EvalIndex, EvalCond and EvalValue evaluate expressions
//     against an Env that binds the names; FormatIndex renders a tensor
//     element or an array cell.
//   - dataindex.go: data-dependent indices, the integer value
//     expressions that index a tensor access or array read where
//     Checker.AllowDataIndex permits them (LUT(i32(A(x)))), how the checker
//     marks them and how they are evaluated.
//   - reduceop.go: ReduceOp, the operators of reductions, which both
//     languages write: their identities, how they combine values, and how
//     the parsers recognise them.
//
// Start reading at Checker.
//
// # Expressions
//
// Expressions come in three sublanguages:
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
// Files, in reading order: check.go, eval.go, dataindex.go, reduceop.go.
package expr
