package syntax

import "strings"

// Precedence levels used by the printer, loosest first.
const (
	precOr      = 1
	precAnd     = 2
	precNot     = 3
	precCompare = 4
	precUnary   = 7
	precPrimary = 8
)

// ExprString prints x in canonical form: operators spelled and, or, not;
// single spaces around binary operators; parentheses only where precedence
// requires them. Parsing the result gives back x (up to positions).
func ExprString(x Expr) string {
	var b strings.Builder
	WriteExpr(&b, x)
	return b.String()
}

// WriteExpr appends the canonical form of x to b.
func WriteExpr(b *strings.Builder, x Expr) { writeExpr(b, x, 0) }

// WriteExprList appends the canonical forms of xs separated by ", ".
func WriteExprList(b *strings.Builder, xs []Expr) {
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		writeExpr(b, x, 0)
	}
}

func exprPrec(x Expr) int {
	switch x := x.(type) {
	case *Binary:
		return x.Op.Precedence()
	case *Chain:
		return precCompare
	case *Unary:
		if x.Op == OpNot {
			return precNot
		}
		return precUnary
	}
	return precPrimary
}

// writeExpr prints x, parenthesised if it binds looser than min.
func writeExpr(b *strings.Builder, x Expr, min int) {
	if x == nil {
		b.WriteString("_")
		return
	}
	if exprPrec(x) < min {
		b.WriteByte('(')
		writeExpr(b, x, 0)
		b.WriteByte(')')
		return
	}
	switch x := x.(type) {
	case *Ident:
		b.WriteString(x.Name)
	case *Lit:
		b.WriteString(x.Text)
	case *Unary:
		if x.Op == OpNot {
			b.WriteString("not ")
			writeExpr(b, x.X, precNot)
			return
		}
		b.WriteString(x.Op.String())
		writeExpr(b, x.X, precUnary)
	case *Binary:
		p := x.Op.Precedence()
		left, right := p, p+1
		if x.Op.IsComparison() {
			// a < b < c is a chain, so a comparison operand of a
			// comparison needs parentheses on either side.
			left = p + 1
		}
		writeExpr(b, x.X, left)
		b.WriteByte(' ')
		b.WriteString(x.Op.String())
		b.WriteByte(' ')
		writeExpr(b, x.Y, right)
	case *Chain:
		for i, operand := range x.Operands {
			if i > 0 {
				b.WriteByte(' ')
				b.WriteString(x.Ops[i-1].String())
				b.WriteByte(' ')
			}
			writeExpr(b, operand, precCompare+1)
		}
	case *Call:
		b.WriteString(x.Fun.Name)
		b.WriteByte('(')
		WriteExprList(b, x.Args)
		b.WriteByte(')')
	case *Index:
		b.WriteString(x.Array.Name)
		b.WriteByte('[')
		WriteExprList(b, x.Indices)
		b.WriteByte(']')
	}
}

// Equal reports whether a and b are the same expression, ignoring
// positions.
func Equal(a, b Expr) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case *Ident:
		b, ok := b.(*Ident)
		return ok && a.Name == b.Name
	case *Lit:
		b, ok := b.(*Lit)
		return ok && a.Kind == b.Kind && a.Text == b.Text
	case *Unary:
		b, ok := b.(*Unary)
		return ok && a.Op == b.Op && Equal(a.X, b.X)
	case *Binary:
		b, ok := b.(*Binary)
		return ok && a.Op == b.Op && Equal(a.X, b.X) && Equal(a.Y, b.Y)
	case *Chain:
		b, ok := b.(*Chain)
		if !ok || len(a.Ops) != len(b.Ops) {
			return false
		}
		for i := range a.Ops {
			if a.Ops[i] != b.Ops[i] {
				return false
			}
		}
		return EqualList(a.Operands, b.Operands)
	case *Call:
		b, ok := b.(*Call)
		return ok && a.Fun.Name == b.Fun.Name && EqualList(a.Args, b.Args)
	case *Index:
		b, ok := b.(*Index)
		return ok && a.Array.Name == b.Array.Name && EqualList(a.Indices, b.Indices)
	}
	return false
}

// EqualList reports whether two expression lists are pairwise Equal.
func EqualList(a, b []Expr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// Inspect calls f on x and then on each subexpression, depth first, as
// long as f returns true.
func Inspect(x Expr, f func(Expr) bool) {
	if x == nil || !f(x) {
		return
	}
	switch x := x.(type) {
	case *Unary:
		Inspect(x.X, f)
	case *Binary:
		Inspect(x.X, f)
		Inspect(x.Y, f)
	case *Chain:
		for _, o := range x.Operands {
			Inspect(o, f)
		}
	case *Call:
		for _, a := range x.Args {
			Inspect(a, f)
		}
	case *Index:
		for _, a := range x.Indices {
			Inspect(a, f)
		}
	}
}
