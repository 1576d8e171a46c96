package rink

import (
	"strings"

	"github.com/augur-verify/augur/syntax"
)

// Program is a parsed program: declarations, then statements.
type Program struct {
	Src   *syntax.Source
	Decls []*Decl
	Stmts []*Stmt
}

// Decl is "var x : [d1 ... dk]", or "var input x : [...]" (the input
// qualifier of the paper's Section 5, Fig. 15).
type Decl struct {
	Pos     syntax.Pos // of "var"
	Name    Ident
	Input   bool
	Extents []int64
	// ExtentPos holds the position of each extent.
	ExtentPos []syntax.Pos
}

// Ident is a name with its position.
type Ident struct {
	Name string
	Pos  syntax.Pos
}

// Stmt is "x = e".
type Stmt struct {
	LHS Ident
	RHS Expr
}

// Expr is an expression of the model language.
type Expr interface {
	// Pos is where the expression starts.
	Pos() syntax.Pos
	exprNode()
}

// VarRef is a variable.
type VarRef struct{ Ident }

// Paren is "( e )".
type Paren struct {
	Lparen syntax.Pos
	X      Expr
}

// Binary is "e0 op e1" for op one of + - * /: elementwise, or with a
// scalar on the left of * or on the right of /.
type Binary struct {
	Op    byte
	OpPos syntax.Pos
	X, Y  Expr
}

// Product is the outer product "e0 # e1".
type Product struct {
	OpPos syntax.Pos
	X, Y  Expr
}

// Contract is the contraction "e . [m n]" of dimensions m and n
// (numbered from 1).
type Contract struct {
	OpPos syntax.Pos
	X     Expr
	M, N  int
	// MPos and NPos are the positions of the two dimension numbers.
	MPos, NPos syntax.Pos
}

// Transpose is the transposition "e ^ [m n]" of dimensions m and n.
type Transpose struct {
	OpPos      syntax.Pos
	X          Expr
	M, N       int
	MPos, NPos syntax.Pos
}

func (x *VarRef) Pos() syntax.Pos    { return x.Ident.Pos }
func (x *Paren) Pos() syntax.Pos     { return x.Lparen }
func (x *Binary) Pos() syntax.Pos    { return x.X.Pos() }
func (x *Product) Pos() syntax.Pos   { return x.X.Pos() }
func (x *Contract) Pos() syntax.Pos  { return x.X.Pos() }
func (x *Transpose) Pos() syntax.Pos { return x.X.Pos() }

func (*VarRef) exprNode()    {}
func (*Paren) exprNode()     {}
func (*Binary) exprNode()    {}
func (*Product) exprNode()   {}
func (*Contract) exprNode()  {}
func (*Transpose) exprNode() {}

// Decl returns the declaration of name, or nil.
func (p *Program) Decl(name string) *Decl {
	for _, d := range p.Decls {
		if d.Name.Name == name {
			return d
		}
	}
	return nil
}

// ExprString prints e in the concrete syntax, with the parentheses of the
// source.
func ExprString(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

func writeExpr(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case *VarRef:
		b.WriteString(e.Name)
	case *Paren:
		b.WriteByte('(')
		writeExpr(b, e.X)
		b.WriteByte(')')
	case *Binary:
		writeExpr(b, e.X)
		b.WriteString(" " + string(e.Op) + " ")
		writeExpr(b, e.Y)
	case *Product:
		writeExpr(b, e.X)
		b.WriteString(" # ")
		writeExpr(b, e.Y)
	case *Contract:
		writeExpr(b, e.X)
		b.WriteString(" . [" + itoa(e.M) + " " + itoa(e.N) + "]")
	case *Transpose:
		writeExpr(b, e.X)
		b.WriteString(" ^ [" + itoa(e.M) + " " + itoa(e.N) + "]")
	}
}
