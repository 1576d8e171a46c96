package iscc

import (
	"strings"

	"github.com/augur-verify/augur/syntax"
)

// Stmt is one statement: an assignment "Name := X;" or, when Name is
// empty, an expression statement "X;" whose value is printed.
type Stmt struct {
	Pos  syntax.Pos // the statement's first token
	Name string     // the assigned name, or "" for an expression statement
	X    Expr
}

// String returns the statement in the calculator's syntax.
func (s *Stmt) String() string {
	if s.Name == "" {
		return s.X.String() + ";"
	}
	return s.Name + " := " + s.X.String() + ";"
}

// Expr is an expression of the calculator.
type Expr interface {
	// Pos returns the position errors about the expression point at: its
	// operator, or its first token for a primary.
	Pos() syntax.Pos
	// String returns the expression in the calculator's syntax; parsing
	// it gives back an equal tree.
	String() string
}

// Literal is a set or relation in isl notation, kept as written.
type Literal struct {
	At   syntax.Pos
	Text string
}

// Name is a reference to a bound name.
type Name struct {
	At   syntax.Pos
	Name string
}

// Paren is a parenthesised expression.
type Paren struct {
	At syntax.Pos
	X  Expr
}

// Unary is a prefix operator applied to its operand: dom, ran, lexmin,
// lexmax, coalesce, is_empty or is_single_valued.
type Unary struct {
	At syntax.Pos
	Op string
	X  Expr
}

// Binary is a binary operator: + - * . = <= < >= >.
type Binary struct {
	At   syntax.Pos // the operator
	Op   string
	X, Y Expr
}

// Inverse is X^-1, the inverse of a relation.
type Inverse struct {
	At syntax.Pos // the "^"
	X  Expr
}

// Apply is F(Arg): the image of the set Arg under the relation F, or the
// composition Arg then F of the relation Arg.
type Apply struct {
	At  syntax.Pos // the "("
	F   Expr
	Arg Expr
}

// Pos implements Expr.
func (e *Literal) Pos() syntax.Pos { return e.At }

// Pos implements Expr.
func (e *Name) Pos() syntax.Pos { return e.At }

// Pos implements Expr.
func (e *Paren) Pos() syntax.Pos { return e.At }

// Pos implements Expr.
func (e *Unary) Pos() syntax.Pos { return e.At }

// Pos implements Expr.
func (e *Binary) Pos() syntax.Pos { return e.At }

// Pos implements Expr.
func (e *Inverse) Pos() syntax.Pos { return e.At }

// Pos implements Expr.
func (e *Apply) Pos() syntax.Pos { return e.At }

// String implements Expr.
func (e *Literal) String() string { return e.Text }

// String implements Expr.
func (e *Name) String() string { return e.Name }

// String implements Expr.
func (e *Paren) String() string { return "(" + e.X.String() + ")" }

// String implements Expr.
func (e *Unary) String() string { return e.Op + " " + e.X.String() }

// String implements Expr.
func (e *Binary) String() string {
	var b strings.Builder
	b.WriteString(e.X.String())
	b.WriteByte(' ')
	b.WriteString(e.Op)
	b.WriteByte(' ')
	b.WriteString(e.Y.String())
	return b.String()
}

// String implements Expr.
func (e *Inverse) String() string { return e.X.String() + "^-1" }

// String implements Expr.
func (e *Apply) String() string { return e.F.String() + "(" + e.Arg.String() + ")" }
