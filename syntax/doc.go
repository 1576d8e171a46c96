// Package syntax holds what the two input languages of Augur share: source
// positions, errors rendered with a caret under the offending spot, the
// lexer, and the expression language (index expressions, constraints and
// value expressions) together with its parser and canonical printer.
//
// Every diagnostic carries a stable Code (code.go) naming its kind, for
// tools and tests to match instead of the wording; Error.Report renders it
// as the command line prints it, "file:line:col: message [code]" over the
// source line and its caret.
//
// The specification language (package sare) and the kernel language
// (package sched) build their own declarations and statements on top of
// the Parser type defined here. Start reading at Parser.ParseExpr.
//
// Files, in reading order: pos.go, token.go, lexer.go, ast.go, parser.go,
// types.go, printer.go, code.go, json.go.
package syntax
