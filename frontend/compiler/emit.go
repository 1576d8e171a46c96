package compiler

import (
	"fmt"
	"strconv"

	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// emitter turns the IR into a kernel: variables get display names that
// no enclosing binding uses, logical accesses become array cells of the
// innermost buffer of their func, unrolled loops become sequential loops
// (or copies of their body, with Options.UnrollCopies).
type emitter struct {
	c        *compiler
	reserved map[string]bool
}

// scope is what is visible at a point of the kernel.
type scope struct {
	vars  map[string]syntax.Expr // internal variable -> display expression
	names map[string]bool        // display names in use
	bufs  map[string]*bufInfo    // func or input -> its innermost buffer
}

type bufInfo struct {
	array string
	lo    []syntax.Expr // internal names
	fold  []int64
}

func (s *scope) child() *scope {
	n := &scope{vars: map[string]syntax.Expr{}, names: map[string]bool{}, bufs: map[string]*bufInfo{}}
	for k, v := range s.vars {
		n.vars[k] = v
	}
	for k, v := range s.names {
		n.names[k] = v
	}
	for k, v := range s.bufs {
		n.bufs[k] = v
	}
	return n
}

// bind gives the internal variable v a display name unused in the scope.
func (e *emitter) bind(s *scope, v string) *syntax.Ident {
	base := e.c.displayName(v)
	name := base
	for i := 2; s.names[name] || e.reserved[name] || !syntax.ValidName(name) || sched.IsKeyword(name) || syntax.IsReserved(name); i++ {
		name = base + strconv.Itoa(i)
	}
	s.names[name] = true
	s.vars[v] = ident(name)
	return ident(name)
}

func (e *emitter) index(s *scope, x syntax.Expr) syntax.Expr {
	return renameVars(norm(x), s.vars)
}

// value rewrites a value expression: accesses become cells.
func (e *emitter) value(s *scope, x syntax.Expr) syntax.Expr {
	return rewrite(x, func(n syntax.Expr) syntax.Expr {
		switch n := n.(type) {
		case *syntax.Ident:
			if r, ok := s.vars[n.Name]; ok {
				return r
			}
		case *syntax.Call:
			if b, ok := s.bufs[n.Fun.Name]; ok {
				return e.cell(s, b, n.Args)
			}
		}
		return nil
	})
}

// cell is the cell of buffer b holding the point args (args already
// renamed or not: internal names are renamed here).
func (e *emitter) cell(s *scope, b *bufInfo, args []syntax.Expr) syntax.Expr {
	var idx []syntax.Expr
	for d, a := range args {
		var x syntax.Expr
		if b.fold != nil && b.fold[d] > 0 {
			x = bin(norm(a), syntax.OpRem, intLit(b.fold[d]))
		} else {
			x = sub(a, b.lo[d])
		}
		idx = append(idx, norm(renameVars(x, s.vars)))
	}
	return &syntax.Index{Array: ident(b.array), Indices: idx}
}

func (e *emitter) block(s *scope, b *nBlock) *sched.Block {
	out := &sched.Block{}
	s = s.child()
	for _, n := range b.stmts {
		out.Stmts = append(out.Stmts, e.stmts(s, n)...)
	}
	return out
}

func (e *emitter) stmts(s *scope, n node) []sched.Stmt {
	switch n := n.(type) {
	case *nBlock:
		for _, st := range n.stmts {
			if _, ok := st.(*nLet); ok {
				return []sched.Stmt{e.block(s, n)}
			}
		}
		var out []sched.Stmt
		for _, st := range n.stmts {
			out = append(out, e.stmts(s, st)...)
		}
		return out
	case *nLet:
		val := e.index(s, n.e)
		return []sched.Stmt{&sched.Let{Var: e.bind(s, n.v), Value: val}}
	case *nIf:
		if n.dropped {
			return e.block(s, n.then).Stmts
		}
		st := &sched.If{Cond: e.index(s, n.cond), Then: e.block(s, n.then)}
		if n.els != nil {
			st.Else = e.block(s, n.els)
		}
		return []sched.Stmt{st}
	case *nLoop:
		lo, hi := e.index(s, n.lo), e.index(s, n.hi)
		if n.kind == unrolled && e.c.unrollCopies {
			// a constant extent: one copy of the body per iteration, the
			// variable replaced by lo + k (a constant when lo is)
			count := n.count
			if l, ok := linearize(sub(hi, lo)); ok && allZero(l) {
				count = l.c
			}
			if count > 0 && count <= 64 {
				var out []sched.Stmt
				for k := int64(0); k < count; k++ {
					in := s.child()
					in.vars[n.v] = simplifyAdd(lo, k)
					out = append(out, e.block(in, n.body))
				}
				return out
			}
		}
		in := s.child()
		v := e.bind(in, n.v)
		lp := &sched.Loop{Par: n.kind == parallel || n.kind == vectorized, Var: v, Hi: hi, Body: e.block(in, n.body)}
		if !isZero(lo) {
			lp.Lo = lo
		}
		return []sched.Stmt{lp}
	case *nAlloc:
		in := s.child()
		in.bufs[n.fn] = &bufInfo{array: bufName(n.fn), lo: n.lo, fold: n.fold}
		var ext []syntax.Expr
		for _, x := range n.ext {
			ext = append(ext, e.index(s, x))
		}
		f := e.c.p.Func(n.fn)
		return []sched.Stmt{&sched.Alloc{Array: ident(bufName(n.fn)), Elem: f.Type, Extents: ext, Body: e.block(in, n.body)}}
	case *nStore:
		b := s.bufs[n.fn]
		cell := e.cell(s, b, n.args).(*syntax.Index)
		as := &sched.Assign{Array: cell.Array, Indices: cell.Indices, Annot: renameVars(n.ann, s.vars), Value: e.value(s, n.value), Op: n.op}
		if n.at != nil {
			as.At = []syntax.Expr{}
			for _, x := range n.at {
				as.At = append(as.At, renameVars(x, s.vars))
			}
		}
		return []sched.Stmt{as}
	}
	panic(fmt.Sprintf("compiler: unknown IR node %T", n))
}
