package sched

import (
	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
)

// Kernel is a parsed .sched file: a named kernel with its parameters,
// assumptions, array bindings and body.
type Kernel struct {
	KernelPos syntax.Pos // the 'kernel' keyword
	Name      *syntax.Ident
	Params    []*syntax.Ident
	Assumes   []*Assume
	Bindings  []*Binding
	Body      *Block

	// Src is the text the kernel was parsed from, used to render errors
	// with their source line; nil for a kernel decoded from JSON or built
	// in code. Equal ignores it.
	Src *syntax.Source
}

// Pos is the position of the 'kernel' keyword.
func (k *Kernel) Pos() syntax.Pos { return k.KernelPos }

// Assume is one `assume c` line: an affine constraint on the parameters.
// Several lines are conjoined.
type Assume struct {
	AssumePos syntax.Pos
	Cond      syntax.Expr
}

// Dir is the direction of an array binding.
type Dir int

// Binding directions.
const (
	In  Dir = iota // the array holds the tensor's elements when the kernel starts
	Out            // the array must hold the tensor's elements when the kernel ends
)

func (d Dir) String() string {
	if d == Out {
		return "out"
	}
	return "in"
}

// Binding is one array binding
//
//	in|out name[vars] : type[extents] = T(indices) [where constraint]
//
// relating the cells of an array to the elements of a specification tensor:
// cell name[vars] is T(indices) for every in-bounds vars satisfying the
// constraint.
type Binding struct {
	DirPos  syntax.Pos // the 'in' or 'out' keyword
	Dir     Dir
	Array   *syntax.Ident
	Vars    []*syntax.Ident
	Elem    syntax.Type
	ElemPos syntax.Pos
	Extents []syntax.Expr
	Tensor  *syntax.Call
	Where   syntax.Expr // nil when the binding has no where clause
}

// Pos is the position of the binding's keyword.
func (b *Binding) Pos() syntax.Pos { return b.DirPos }

// Stmt is a statement of a kernel body: *Skip, *Assign, *If, *Let, *Alloc,
// *Loop or *Block.
type Stmt interface {
	// Pos is the position of the statement's first character.
	Pos() syntax.Pos
	stmtNode()
}

// Skip does nothing.
type Skip struct {
	SkipPos syntax.Pos
}

// Assign is `a[indices] {annot} := value`: it stores value into the cell
// and asserts, as a prophecy, that the value equals the annotation
// evaluated over the specification's tensors.
//
// Reductions (Clément 2022, Section 7.3) extend it in three forms, where
// T is a reduction tensor of the specification:
//
//	a[...] {T(x) @ ()} := e       initialises an accumulator: e must be the
//	                              operator's identity
//	a[...] {T(x) @ (j)} OP= e     accumulates position j of T(x)'s
//	                              reduction: e must equal the body at j
//	a[...] {T(x)} OP= b[...]      merges the partial result held by b[...]
//	                              into a[...]
//
// OP is T's operator (+ * min max & | ^). A cell holds a partial result of
// T(x) from its initialisation on; read other than by a merge, it must
// hold the whole reduction, every position accumulated exactly once.
type Assign struct {
	Array   *syntax.Ident
	Indices []syntax.Expr
	Annot   syntax.Expr
	Value   syntax.Expr
	// At is the reduction position of an annotation `{T(x) @ (j, ...)}`,
	// empty but non-nil for `@ ()`, nil without '@'.
	At    []syntax.Expr
	AtPos syntax.Pos
	// Op is the operator of an accumulating assignment `OP=`; NoReduce
	// for `:=`.
	Op    expr.ReduceOp
	OpPos syntax.Pos
}

// IsReduction reports whether the assignment takes part in a reduction:
// it accumulates, merges, or initialises an accumulator.
func (s *Assign) IsReduction() bool { return s.Op != expr.NoReduce || s.At != nil }

// If is `if cond { then } else ...`. Else is nil, a *Block, or an *If for
// `else if`.
type If struct {
	IfPos syntax.Pos
	Cond  syntax.Expr
	Then  *Block
	Else  Stmt
}

// Let is `let x = e`: it binds the index expression e to x until the end
// of the enclosing block.
type Let struct {
	LetPos syntax.Pos
	Var    *syntax.Ident
	Value  syntax.Expr
}

// Alloc is `alloc t : type[extents] { body }`: a local array, without
// defined contents, scoped to the body.
type Alloc struct {
	AllocPos syntax.Pos
	Array    *syntax.Ident
	Elem     syntax.Type
	ElemPos  syntax.Pos
	Extents  []syntax.Expr
	Body     *Block
}

// Loop is a sequential (`for`) or parallel (`par`) loop. The form
// `for x < hi` has Lo == nil; the sugar `for x in lo .. hi` keeps Lo so
// that printing gives back the source form. Either way the loop runs x
// over the half-open range [lo, hi); Bounds returns it.
type Loop struct {
	KwPos syntax.Pos // 'for' or 'par'
	Par   bool
	Var   *syntax.Ident
	Lo    syntax.Expr // nil for `x < hi`
	Hi    syntax.Expr
	Body  *Block
}

// Bounds returns the loop's range [lo, hi): for `x < hi`, lo is the
// literal 0.
func (l *Loop) Bounds() (lo, hi syntax.Expr) {
	if l.Lo == nil {
		return &syntax.Lit{ValuePos: l.Hi.Pos(), Kind: syntax.IntLiteral, Text: "0"}, l.Hi
	}
	return l.Lo, l.Hi
}

// Keyword is "par" or "for".
func (l *Loop) Keyword() string {
	if l.Par {
		return "par"
	}
	return "for"
}

// Block is a sequence of statements in braces. It is also a statement: a
// nested block limits the scope of its lets.
type Block struct {
	Lbrace syntax.Pos
	Rbrace syntax.Pos
	Stmts  []Stmt
}

func (s *Skip) Pos() syntax.Pos   { return s.SkipPos }
func (s *Assign) Pos() syntax.Pos { return s.Array.NamePos }
func (s *If) Pos() syntax.Pos     { return s.IfPos }
func (s *Let) Pos() syntax.Pos    { return s.LetPos }
func (s *Alloc) Pos() syntax.Pos  { return s.AllocPos }
func (s *Loop) Pos() syntax.Pos   { return s.KwPos }
func (s *Block) Pos() syntax.Pos  { return s.Lbrace }

func (*Skip) stmtNode()   {}
func (*Assign) stmtNode() {}
func (*If) stmtNode()     {}
func (*Let) stmtNode()    {}
func (*Alloc) stmtNode()  {}
func (*Loop) stmtNode()   {}
func (*Block) stmtNode()  {}

// keywords of the kernel language cannot name parameters, arrays or
// variables, so that every statement can be recognised by its first word.
var keywords = map[string]bool{
	"kernel": true, "assume": true, "in": true, "out": true, "where": true,
	"skip": true, "if": true, "else": true, "let": true, "alloc": true,
	"for": true, "par": true,
}

// IsKeyword reports whether w is a keyword of the kernel language.
func IsKeyword(w string) bool { return keywords[w] }

// validName reports whether s can name a parameter, array or variable.
func validName(s string) bool { return syntax.ValidName(s) && !keywords[s] }

// Walk calls f on each statement of the block, depth first, in source
// order, descending into a statement's blocks when f returns true.
func Walk(b *Block, f func(Stmt) bool) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		walkStmt(s, f)
	}
}

func walkStmt(s Stmt, f func(Stmt) bool) {
	if s == nil || !f(s) {
		return
	}
	switch s := s.(type) {
	case *If:
		Walk(s.Then, f)
		walkStmt(s.Else, f)
	case *Alloc:
		Walk(s.Body, f)
	case *Loop:
		Walk(s.Body, f)
	case *Block:
		Walk(s, f)
	}
}
