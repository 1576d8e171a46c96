// Package alg reads, prints and checks algorithms: Halide-style programs of
// parameters, input buffers, funcs with a pure definition and update
// definitions over recurrence domains (RDoms), outputs with the region to
// compute, and an optional schedule block (Reinking 2022, section 2.4).
//
// The phases, in order: Parse (parse.go) turns an .alg source into a
// Program; Print (print.go) gives its canonical text back; Check
// (check.go) resolves names and enforces the typing rules of docs/formats.md
// and the syntactic separation rule of Reinking 2022, section 2.4.
// Expressions are those of package syntax; an RDom variable is written r.k
// and appears in expressions as an Ident named "r.k".
//
// Start reading at Program, then Parse, then Check.
//
// Files, in reading order: ast.go, parse.go, print.go, check.go,
// schedule.go.
package alg
