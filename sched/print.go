package sched

import (
	"strings"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
)

// Print returns the canonical text of k: one declaration per line, the
// body indented by two spaces per level, expressions printed by
// syntax.ExprString. Parsing the result gives back a kernel Equal to k.
func Print(k *Kernel) string {
	var w printer
	w.kernel(k)
	return w.b.String()
}

// String is Print(k).
func (k *Kernel) String() string { return Print(k) }

// StmtString returns the canonical text of s at indentation zero, over as
// many lines as it needs, without a final newline.
func StmtString(s Stmt) string {
	var w printer
	w.stmt(s)
	return strings.TrimSuffix(w.b.String(), "\n")
}

// StmtLine returns the first line of s's canonical text: the whole
// statement for a simple one, the header (`par i < N`, `if c`,
// `alloc t : f32[N]`) for a compound one. Failures name statements this way.
func StmtLine(s Stmt) string {
	text := StmtString(s)
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	return strings.TrimSuffix(strings.TrimSuffix(text, "{"), " ")
}

// BindingString returns the canonical text of one binding.
func BindingString(b *Binding) string {
	var w printer
	w.binding(b)
	return strings.TrimSuffix(w.b.String(), "\n")
}

type printer struct {
	b      strings.Builder
	indent int
}

func (w *printer) line() {
	w.b.WriteByte('\n')
}

func (w *printer) tab() {
	for i := 0; i < w.indent; i++ {
		w.b.WriteString("  ")
	}
}

func (w *printer) expr(x syntax.Expr) { syntax.WriteExpr(&w.b, x) }

func (w *printer) name(id *syntax.Ident) {
	if id == nil {
		w.b.WriteString("_")
		return
	}
	w.b.WriteString(id.Name)
}

func (w *printer) names(ids []*syntax.Ident) {
	for i, id := range ids {
		if i > 0 {
			w.b.WriteString(", ")
		}
		w.name(id)
	}
}

func (w *printer) kernel(k *Kernel) {
	w.b.WriteString("kernel ")
	w.name(k.Name)
	w.b.WriteByte('(')
	w.names(k.Params)
	w.b.WriteString(")\n")
	for _, a := range k.Assumes {
		w.b.WriteString("assume ")
		w.expr(a.Cond)
		w.line()
	}
	for _, b := range k.Bindings {
		w.binding(b)
	}
	w.block(k.Body)
	w.line()
}

func (w *printer) binding(b *Binding) {
	if b.Dir == Out {
		w.b.WriteString("out ")
	} else {
		w.b.WriteString("in  ")
	}
	w.name(b.Array)
	w.b.WriteByte('[')
	w.names(b.Vars)
	w.b.WriteString("] : ")
	w.shape(b.Elem, b.Extents)
	w.b.WriteString(" = ")
	if b.Tensor == nil {
		w.b.WriteString("_()")
	} else {
		w.expr(b.Tensor)
	}
	if b.Where != nil {
		w.b.WriteString(" where ")
		w.expr(b.Where)
	}
	w.line()
}

func (w *printer) shape(t syntax.Type, ext []syntax.Expr) {
	w.b.WriteString(t.String())
	w.b.WriteByte('[')
	syntax.WriteExprList(&w.b, ext)
	w.b.WriteByte(']')
}

// block prints `{`, the statements one level deeper, and `}` at the
// current indentation, without a final newline.
func (w *printer) block(b *Block) {
	w.b.WriteString("{\n")
	w.indent++
	if b != nil {
		for _, s := range b.Stmts {
			w.tab()
			w.stmt(s)
		}
	}
	w.indent--
	w.tab()
	w.b.WriteByte('}')
}

// stmt prints s from the current column and ends the line.
func (w *printer) stmt(s Stmt) {
	switch s := s.(type) {
	case *Skip:
		w.b.WriteString("skip")
	case *Assign:
		w.name(s.Array)
		w.b.WriteByte('[')
		syntax.WriteExprList(&w.b, s.Indices)
		w.b.WriteString("] {")
		w.expr(s.Annot)
		if s.At != nil {
			w.b.WriteString(" @ (")
			syntax.WriteExprList(&w.b, s.At)
			w.b.WriteByte(')')
		}
		if s.Op != expr.NoReduce {
			w.b.WriteString("} " + s.Op.String() + "= ")
		} else {
			w.b.WriteString("} := ")
		}
		w.expr(s.Value)
	case *Let:
		w.b.WriteString("let ")
		w.name(s.Var)
		w.b.WriteString(" = ")
		w.expr(s.Value)
	case *If:
		w.ifStmt(s)
	case *Alloc:
		w.b.WriteString("alloc ")
		w.name(s.Array)
		w.b.WriteString(" : ")
		w.shape(s.Elem, s.Extents)
		w.b.WriteByte(' ')
		w.block(s.Body)
	case *Loop:
		w.b.WriteString(s.Keyword())
		w.b.WriteByte(' ')
		w.name(s.Var)
		if s.Lo == nil {
			w.b.WriteString(" < ")
			w.expr(s.Hi)
		} else {
			w.b.WriteString(" in ")
			w.expr(s.Lo)
			w.b.WriteString(" .. ")
			w.expr(s.Hi)
		}
		w.b.WriteByte(' ')
		w.block(s.Body)
	case *Block:
		w.block(s)
	default:
		w.b.WriteString("skip")
	}
	w.line()
}

func (w *printer) ifStmt(s *If) {
	w.b.WriteString("if ")
	w.expr(s.Cond)
	w.b.WriteByte(' ')
	w.block(s.Then)
	switch e := s.Else.(type) {
	case *If:
		w.b.WriteString(" else ")
		w.ifStmt(e)
	case *Block:
		w.b.WriteString(" else ")
		w.block(e)
	}
}
