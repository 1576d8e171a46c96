// Package rink is a front end for the tensor model language of Norman A.
// Rink, "Modeling of languages for tensor manipulation" (2018): variable
// declarations with constant extents, and assignments of expressions built
// from outer products (#), contractions (.[m n]), transpositions (^[m n])
// and the elementwise and scalar operators + - * /.
//
// The phases, in order:
//
//   - Parse (parse.go, lexer in lex.go) reads a program into a Program,
//     with positioned diagnostics (syntax.ErrorList).
//   - Check (check.go) forms the static context and types every expression
//     by the rules of the paper's Figs. 7-9; shape errors are positioned.
//   - Eval (eval.go) is the reference semantics of Figs. 10-12, and with a
//     vector length the padded semantics of Figs. 13-14, over values that
//     may be undefined.
//   - Translate (spec.go, kernel.go) turns a checked program into a SARE
//     specification and two annotated kernels: the reference
//     implementation (one loop nest per statement, an inner loop per
//     contraction) and the padded one (every extent rounded up to a
//     multiple of the vector length, padding cells holding 0).
//
// Start reading at Load and Translate.
//
// Files, in reading order: ast.go, lex.go, parse.go, print.go, check.go,
// eval.go, translate.go, spec.go, kernel.go.
package rink
