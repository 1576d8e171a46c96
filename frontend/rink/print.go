package rink

import (
	"strconv"
	"strings"
)

// Print renders a program in the concrete syntax, one declaration or
// statement per line; Parse reads it back to an equal program.
func Print(p *Program) string {
	var b strings.Builder
	for _, d := range p.Decls {
		b.WriteString("var ")
		if d.Input {
			b.WriteString("input ")
		}
		b.WriteString(d.Name.Name + " : [")
		for i, n := range d.Extents {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.FormatInt(n, 10))
		}
		b.WriteString("]\n")
	}
	for _, s := range p.Stmts {
		b.WriteString(s.LHS.Name + " = " + ExprString(s.RHS) + "\n")
	}
	return b.String()
}

func itoa(n int) string { return strconv.Itoa(n) }
