package sched

import "github.com/augur-verify/augur/syntax"

// Equal reports whether a and b are the same kernel, ignoring positions.
// The loop sugar is significant: `for x < N` and `for x in 0 .. N` are
// different kernels with the same meaning.
func Equal(a, b *Kernel) bool {
	if a == nil || b == nil {
		return a == b
	}
	if !eqIdent(a.Name, b.Name) || !eqIdents(a.Params, b.Params) ||
		len(a.Assumes) != len(b.Assumes) || len(a.Bindings) != len(b.Bindings) {
		return false
	}
	for i := range a.Assumes {
		if !syntax.Equal(a.Assumes[i].Cond, b.Assumes[i].Cond) {
			return false
		}
	}
	for i := range a.Bindings {
		if !EqualBinding(a.Bindings[i], b.Bindings[i]) {
			return false
		}
	}
	return eqBlock(a.Body, b.Body)
}

// EqualBinding reports whether two bindings are the same, ignoring
// positions.
func EqualBinding(a, b *Binding) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Dir == b.Dir && eqIdent(a.Array, b.Array) && eqIdents(a.Vars, b.Vars) &&
		a.Elem == b.Elem && syntax.EqualList(a.Extents, b.Extents) &&
		eqExpr(a.Tensor, b.Tensor) && eqExpr(a.Where, b.Where)
}

// eqExpr compares expressions where a typed nil pointer counts as nil.
func eqExpr(a, b syntax.Expr) bool {
	if c, ok := a.(*syntax.Call); ok && c == nil {
		a = nil
	}
	if c, ok := b.(*syntax.Call); ok && c == nil {
		b = nil
	}
	return syntax.Equal(a, b)
}

// EqualStmt reports whether two statements are the same, ignoring
// positions.
func EqualStmt(a, b Stmt) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case *Skip:
		_, ok := b.(*Skip)
		return ok
	case *Assign:
		b, ok := b.(*Assign)
		return ok && eqIdent(a.Array, b.Array) && syntax.EqualList(a.Indices, b.Indices) &&
			syntax.Equal(a.Annot, b.Annot) && syntax.Equal(a.Value, b.Value) &&
			a.Op == b.Op && (a.At == nil) == (b.At == nil) && syntax.EqualList(a.At, b.At)
	case *Let:
		b, ok := b.(*Let)
		return ok && eqIdent(a.Var, b.Var) && syntax.Equal(a.Value, b.Value)
	case *If:
		b, ok := b.(*If)
		return ok && syntax.Equal(a.Cond, b.Cond) && eqBlock(a.Then, b.Then) && EqualStmt(a.Else, b.Else)
	case *Alloc:
		b, ok := b.(*Alloc)
		return ok && eqIdent(a.Array, b.Array) && a.Elem == b.Elem &&
			syntax.EqualList(a.Extents, b.Extents) && eqBlock(a.Body, b.Body)
	case *Loop:
		b, ok := b.(*Loop)
		return ok && a.Par == b.Par && eqIdent(a.Var, b.Var) && syntax.Equal(a.Lo, b.Lo) &&
			syntax.Equal(a.Hi, b.Hi) && eqBlock(a.Body, b.Body)
	case *Block:
		b, ok := b.(*Block)
		return ok && eqBlock(a, b)
	}
	return false
}

func eqBlock(a, b *Block) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if len(a.Stmts) != len(b.Stmts) {
		return false
	}
	for i := range a.Stmts {
		if !EqualStmt(a.Stmts[i], b.Stmts[i]) {
			return false
		}
	}
	return true
}

func eqIdent(a, b *syntax.Ident) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Name == b.Name
}

func eqIdents(a, b []*syntax.Ident) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !eqIdent(a[i], b[i]) {
			return false
		}
	}
	return true
}
