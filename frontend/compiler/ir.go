package compiler

import (
	"fmt"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
)

// The loop-nest IR between the schedule and the emitted kernel. Variables
// are internal names (buf_vN), unique in the whole kernel, so that bounds
// inference can quantify over any of them; the emitter gives them their
// display names. Stores and reads name funcs and inputs with their logical
// coordinates; the emitter resolves them to array cells once every buffer
// is placed.

type node interface{ irNode() }

type nBlock struct{ stmts []node }

// nLoop is a loop over [lo, hi) labelled with the stage dimension it
// implements (the handle of compute_at and store_at).
type nLoop struct {
	v      string
	lo, hi syntax.Expr
	kind   loopKind
	fn     string
	stage  int
	dim    string
	body   *nBlock
	// count, when positive, is the loop's constant extent, hi - lo: a
	// bounded unrolled or vectorised loop runs over a constant upper bound
	// of its true extent from a lower bound that need not be constant.
	count int64
}

type nLet struct {
	v string
	e syntax.Expr
}

type nIf struct {
	cond      syntax.Expr
	then, els *nBlock
	// dropped: an injected miscompilation emits the then branch alone,
	// while bounds inference still sees the condition.
	dropped bool
}

// nStore stores into func fn at the logical point args.
type nStore struct {
	fn    string
	stage int
	args  []syntax.Expr
	ann   syntax.Expr
	value syntax.Expr
	// at and op make the store a reduction assignment (reduce.go): at is
	// the position ({} for the initialisation), op the accumulation's
	// operator (expr.NoReduce for the initialisation).
	at []syntax.Expr
	op expr.ReduceOp
}

// nAlloc allocates the buffer of fn: cell i of dimension d holds the point
// lo[d] + i, or, for a folded dimension, the points p with p % fold[d] == i.
type nAlloc struct {
	fn   string
	lo   []syntax.Expr
	ext  []syntax.Expr
	fold []int64
	body *nBlock
}

func (*nBlock) irNode() {}
func (*nLoop) irNode()  {}
func (*nLet) irNode()   {}
func (*nIf) irNode()    {}
func (*nStore) irNode() {}
func (*nAlloc) irNode() {}

// newVar returns a fresh internal variable displayed as display.
func (c *compiler) newVar(display string) string {
	c.nvars++
	v := fmt.Sprintf("buf_v%d", c.nvars)
	c.display[v] = display
	return v
}

// walkIR calls f on every node under b with its ancestors (outermost
// first); f returns false to skip a node's children.
func walkIR(b *nBlock, path []node, f func(n node, path []node) bool) {
	for _, s := range b.stmts {
		walkNode(s, path, f)
	}
}

func walkNode(n node, path []node, f func(n node, path []node) bool) {
	if !f(n, path) {
		return
	}
	inner := append(append([]node(nil), path...), n)
	switch n := n.(type) {
	case *nBlock:
		walkIR(n, inner, f)
	case *nLoop:
		walkIR(n.body, inner, f)
	case *nIf:
		walkIR(n.then, append(inner, n.then), f)
		if n.els != nil {
			walkIR(n.els, append(inner, n.els), f)
		}
	case *nAlloc:
		walkIR(n.body, inner, f)
	}
}

// readsOf lists the logical accesses of name in x.
func readsOf(x syntax.Expr, name string) [][]syntax.Expr {
	var out [][]syntax.Expr
	if x == nil {
		return nil
	}
	syntax.Inspect(x, func(e syntax.Expr) bool {
		if cl, ok := e.(*syntax.Call); ok && cl.Fun.Name == name {
			out = append(out, cl.Args)
		}
		return true
	})
	return out
}

// renameVars replaces identifiers by m's expressions.
func renameVars(x syntax.Expr, m map[string]syntax.Expr) syntax.Expr {
	if x == nil {
		return nil
	}
	return rewrite(x, func(e syntax.Expr) syntax.Expr {
		if id, ok := e.(*syntax.Ident); ok {
			if r, ok := m[id.Name]; ok {
				return r
			}
		}
		return nil
	})
}

// writesOf picks the coordinates of the stores into name.
func writesOf(name string) func(st *nStore) [][]syntax.Expr {
	return func(st *nStore) [][]syntax.Expr {
		if st.fn == name {
			return [][]syntax.Expr{st.args}
		}
		return nil
	}
}
