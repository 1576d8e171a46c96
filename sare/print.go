package sare

import (
	"strings"

	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// Print returns the canonical text of spec: one param line, one line per
// assumption, then the tensors in declaration order (each computed tensor
// followed by its equations and set off by blank lines), then one output
// line. Expressions are printed by syntax.ExprString. Parsing the result
// gives back a specification Equal to spec.
func Print(spec *Spec) string {
	var b strings.Builder
	section := func() {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
	}
	if spec.Overflow != value.OverflowWraps {
		b.WriteString("overflow ")
		b.WriteString(spec.Overflow.String())
		b.WriteByte('\n')
	}
	if len(spec.Params) > 0 {
		b.WriteString("param ")
		writeNames(&b, spec.Params)
		b.WriteByte('\n')
	}
	for _, a := range spec.Assumes {
		b.WriteString("assume ")
		syntax.WriteExpr(&b, a.Cond)
		b.WriteByte('\n')
	}
	prevInput := false
	for i, t := range spec.Tensors {
		if !(i > 0 && prevInput && t.Input) {
			section()
		}
		prevInput = t.Input && len(t.Eqs) == 0
		if t.Input {
			b.WriteString("input ")
		} else {
			b.WriteString("tensor ")
		}
		b.WriteString(t.Name.Name)
		b.WriteByte('(')
		writeNames(&b, t.Vars)
		b.WriteString(") : ")
		b.WriteString(t.Type.String())
		b.WriteByte('\n')
		for _, eq := range t.Eqs {
			writeEquation(&b, eq)
		}
	}
	if len(spec.Outputs) > 0 {
		section()
		b.WriteString("output ")
		writeNames(&b, spec.Outputs)
		b.WriteByte('\n')
	}
	return b.String()
}

// String is Print(s).
func (s *Spec) String() string { return Print(s) }

// String renders the equation on one line, as Print does.
func (e *Equation) String() string {
	var b strings.Builder
	writeEquation(&b, e)
	return strings.TrimSuffix(b.String(), "\n")
}

func writeEquation(b *strings.Builder, eq *Equation) {
	b.WriteString(eq.Tensor.Name)
	b.WriteByte('(')
	writeNames(b, eq.Vars)
	b.WriteString(") = ")
	if eq.Reduce != nil {
		writeReduction(b, eq)
	} else {
		syntax.WriteExpr(b, eq.RHS)
	}
	if eq.Where != nil {
		b.WriteString(" where ")
		syntax.WriteExpr(b, eq.Where)
	}
	b.WriteByte('\n')
}

func writeNames(b *strings.Builder, names []*syntax.Ident) {
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(n.Name)
	}
}
