package alg

import (
	"fmt"
	"strings"

	"github.com/augur-verify/augur/syntax"
)

// Print returns the canonical text of p: declarations in source order, one
// per line, expressions in syntax's canonical form, each schedule directive
// on its own line. Parsing the result gives back p (see Equal).
func Print(p *Program) string {
	var b strings.Builder
	for _, d := range p.Decls {
		switch d := d.(type) {
		case *ParamDecl:
			b.WriteString("param ")
			writeIdents(&b, d.Names)
		case *Assume:
			b.WriteString("assume " + syntax.ExprString(d.Cond))
		case *Input:
			fmt.Fprintf(&b, "input %s(", d.Name.Name)
			writeIdents(&b, d.Vars)
			fmt.Fprintf(&b, ") : %s", d.Type)
		case *Func:
			fmt.Fprintf(&b, "func %s(", d.Name.Name)
			writeIdents(&b, d.Vars)
			fmt.Fprintf(&b, ") : %s = %s", d.Type, syntax.ExprString(d.Value))
		case *RDom:
			fmt.Fprintf(&b, "rdom %s(", d.Name.Name)
			writeRanges(&b, d.Vars)
			b.WriteString(")")
			if d.MayBeEmpty {
				b.WriteString(" possibly empty")
			}
		case *Update:
			fmt.Fprintf(&b, "%s(", d.Func.Name)
			syntax.WriteExprList(&b, d.Args)
			fmt.Fprintf(&b, ") %s %s", d.Op, syntax.ExprString(d.Value))
			if d.Where != nil {
				b.WriteString(" where " + syntax.ExprString(d.Where))
			}
		case *Output:
			if len(d.Dims) == 0 {
				fmt.Fprintf(&b, "output %s", d.Func.Name)
				break
			}
			fmt.Fprintf(&b, "output %s over ", d.Func.Name)
			writeRanges(&b, d.Dims)
		}
		b.WriteString("\n")
	}
	if s := p.Schedule; s != nil {
		b.WriteString("\n")
		b.WriteString(s.String())
	}
	return b.String()
}

// String renders the schedule block, one chain of calls per line.
func (s *Schedule) String() string {
	var b strings.Builder
	b.WriteString("schedule {\n")
	for i, d := range s.Directives {
		if i > 0 && d.Chain == s.Directives[i-1].Chain && d.Func.Name == s.Directives[i-1].Func.Name && d.Update == s.Directives[i-1].Update {
			b.WriteString("." + d.call())
			continue
		}
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("  " + d.String())
	}
	if len(s.Directives) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.String()
}

func (d *Directive) call() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s(", d.Name)
	syntax.WriteExprList(&b, d.Args)
	b.WriteString(")")
	return b.String()
}

// String renders the directive as F.name(args) or F.update(k).name(args).
func (d *Directive) String() string {
	var b strings.Builder
	b.WriteString(d.Func.Name)
	if d.Update >= 0 {
		fmt.Fprintf(&b, ".update(%d)", d.Update)
	}
	fmt.Fprintf(&b, ".%s(", d.Name)
	syntax.WriteExprList(&b, d.Args)
	b.WriteString(")")
	return b.String()
}

func writeIdents(b *strings.Builder, ids []*syntax.Ident) {
	for i, id := range ids {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(id.Name)
	}
}

func writeRanges(b *strings.Builder, vs []*RVar) {
	for i, v := range vs {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "%s in %s .. %s", v.Name.Name, syntax.ExprString(v.Lo), syntax.ExprString(v.Hi))
	}
}

// Equal reports whether two programs are the same up to positions.
func Equal(a, b *Program) bool {
	if len(a.Decls) != len(b.Decls) || (a.Schedule == nil) != (b.Schedule == nil) {
		return false
	}
	for i := range a.Decls {
		if !declEqual(a.Decls[i], b.Decls[i]) {
			return false
		}
	}
	if a.Schedule != nil {
		if len(a.Schedule.Directives) != len(b.Schedule.Directives) {
			return false
		}
		for i, d := range a.Schedule.Directives {
			e := b.Schedule.Directives[i]
			if d.Func.Name != e.Func.Name || d.Update != e.Update || d.Name != e.Name || !syntax.EqualList(d.Args, e.Args) {
				return false
			}
			if i > 0 && (d.Chain == a.Schedule.Directives[i-1].Chain) != (e.Chain == b.Schedule.Directives[i-1].Chain) {
				return false
			}
		}
	}
	return true
}

func identsEqual(a, b []*syntax.Ident) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name {
			return false
		}
	}
	return true
}

func rangesEqual(a, b []*RVar) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name.Name != b[i].Name.Name || !syntax.Equal(a[i].Lo, b[i].Lo) || !syntax.Equal(a[i].Hi, b[i].Hi) {
			return false
		}
	}
	return true
}

func exprEqual(a, b syntax.Expr) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return syntax.Equal(a, b)
}

func declEqual(x, y Decl) bool {
	switch a := x.(type) {
	case *ParamDecl:
		b, ok := y.(*ParamDecl)
		return ok && identsEqual(a.Names, b.Names)
	case *Assume:
		b, ok := y.(*Assume)
		return ok && syntax.Equal(a.Cond, b.Cond)
	case *Input:
		b, ok := y.(*Input)
		return ok && a.Name.Name == b.Name.Name && identsEqual(a.Vars, b.Vars) && a.Type == b.Type
	case *Func:
		b, ok := y.(*Func)
		return ok && a.Name.Name == b.Name.Name && identsEqual(a.Vars, b.Vars) && a.Type == b.Type && syntax.Equal(a.Value, b.Value)
	case *RDom:
		b, ok := y.(*RDom)
		return ok && a.Name.Name == b.Name.Name && rangesEqual(a.Vars, b.Vars) && a.MayBeEmpty == b.MayBeEmpty
	case *Update:
		b, ok := y.(*Update)
		return ok && a.Func.Name == b.Func.Name && syntax.EqualList(a.Args, b.Args) && a.Op == b.Op &&
			syntax.Equal(a.Value, b.Value) && exprEqual(a.Where, b.Where)
	case *Output:
		b, ok := y.(*Output)
		return ok && a.Func.Name == b.Func.Name && rangesEqual(a.Dims, b.Dims)
	}
	return false
}
