// Package syntax holds what the two input languages of Augur share: source
// positions, errors rendered with a caret under the offending spot, the
// lexer, and the expression language (index expressions, constraints and
// value expressions) together with its parser and canonical printer.
//
// The specification language (package sare) and the kernel language
// (package sched) build their own declarations and statements on top of
// the Parser type defined here. Start reading at Parser.ParseExpr.
package syntax
