package symeval

import (
	"fmt"
	"strconv"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// This file lowers data-dependent writes (Clément 2022, section 9.6.3)
// to the affine kernel language that the symbolic evaluation analyses,
// following the encoding of a write at a non-affine index as a write to
// every cell of the index's range that the thesis takes from Verdoolaege
// et al.: the assignment
//
//	a[E] {T(E', J)} := v
//
// whose index E reads data (a histogram's bin h[clamp(a[r], 0, 7)])
// becomes, in place,
//
//	alloc dw : elem[1] {
//	  dw[0] {T(E', J)} := select(a[E] == a[E], v, v)
//	  for b < X {
//	    a[b] {T(b + Δ, J)} := select(i64(b) == i64(E), dw[0], a[b])
//	  }
//	}
//
// over the array's extent X: every cell is rewritten, the written one
// with v, the others with the value they hold. Both kernels leave the
// same values in every cell, and the lowered one checks more: v against
// the assignment's own annotation (at dw[0]), the write's bounds (the
// read a[E], which must be in bounds and defined), and, for every cell
// b, that its content after the write is T(b + Δ, J), the element of the
// specification that the cell holds for the next reads. That last claim
// is the one to prove about the update: the written cell holds the new
// element, the others an element equal to the one they held, as a
// histogram's specification says (H(b, r) = select(b == bin(r),
// H(b, r - 1) + 1, H(b, r - 1))). Δ, the offset between the cell and the
// tensor's coordinate, is the difference of the quasi-affine terms of E'
// and E (E = bin - m and E' = bin give Δ = m); any Δ is sound, a wrong one
// only fails to prove. The updates keep the kernel's order, and so are
// matched with the specification's statement by statement.
//
// The lowered kernel reads every cell of the array before each write:
// cells left unwritten before a data-dependent write make it fail where
// the kernel as given may not, so an INVALID verdict stands only when the
// interpreter replays it on the kernel as given (validate). In a par
// loop the lowered writes of two iterations would conflict: such a
// write is not lowered, and the verdict is UNKNOWN; an array allocated
// inside the loop's iteration (Halide's histogram computed at a parallel
// loop) is the iteration's own, and its writes are lowered.

// DataWritePair is a kernel whose data-dependent writes were lowered
// (LowerDataWrites), checked.
type DataWritePair struct {
	Kernel     *sched.Kernel
	KernelInfo *sched.Info
	// Writes is the number of data-dependent writes lowered.
	Writes int
}

// HasDataWrites reports whether an assignment of k (checked by kinfo)
// writes at a data-dependent index.
func HasDataWrites(k *sched.Kernel, kinfo *sched.Info) bool {
	found := false
	sched.Walk(k.Body, func(s sched.Stmt) bool {
		if a, ok := s.(*sched.Assign); ok && len(dataDims(a, kinfo)) > 0 {
			found = true
		}
		return !found
	})
	return found
}

// dataDims returns the positions of the data-dependent indices of the
// cell that s writes.
func dataDims(s *sched.Assign, kinfo *sched.Info) []int {
	var ds []int
	for i, x := range s.Indices {
		if kinfo.Types.IsDataIndex(x) {
			ds = append(ds, i)
		}
	}
	return ds
}

// LowerDataWrites returns the kernel k (checked by kinfo against spec)
// with its data-dependent writes lowered, checked. It fails, with the
// reason, on a write that it cannot lower: in a par loop, or whose
// annotation does not name the written element by as many data-dependent
// coordinates as the write has data-dependent indices.
func LowerDataWrites(spec *sare.Spec, k *sched.Kernel, kinfo *sched.Info) (p *DataWritePair, err error) {
	defer guard(&err, "lowering of data-dependent writes")
	lw := &dataWriteLowering{kinfo: kinfo, used: map[string]bool{}, extents: map[string][]syntax.Expr{},
		elems: map[string]syntax.Type{}, allocPar: map[string]int{}}
	lw.collectNames(spec, k)
	for _, a := range kinfo.Arrays {
		lw.extents[a.Name] = a.Extents
	}
	tk := *k
	if tk.Body, err = lw.block(k.Body, 0); err != nil {
		return nil, err
	}
	tkinfo, errs := sched.Check(&tk, spec)
	if err := errs.Err(); err != nil {
		return nil, fmt.Errorf("lowered kernel: %w", err)
	}
	return &DataWritePair{Kernel: &tk, KernelInfo: tkinfo, Writes: lw.writes}, nil
}

type dataWriteLowering struct {
	kinfo   *sched.Info
	used    map[string]bool
	extents map[string][]syntax.Expr // array -> its extents, allocs shadowing
	elems   map[string]syntax.Type   // local arrays' element types
	// allocPar gives the number of par loops around each local array's
	// allocation (0 for the kernel's arrays): a write inside more par
	// loops than its array's allocation is in a par loop of its own.
	allocPar map[string]int
	writes   int
}

// collectNames records every name of the pair, so that fresh names
// clash with none.
func (lw *dataWriteLowering) collectNames(spec *sare.Spec, k *sched.Kernel) {
	for _, t := range spec.Tensors {
		lw.used[t.Name.Name] = true
	}
	for _, id := range spec.Params {
		lw.used[id.Name] = true
	}
	for _, id := range k.Params {
		lw.used[id.Name] = true
	}
	for _, b := range k.Bindings {
		lw.used[b.Array.Name] = true
		for _, v := range b.Vars {
			lw.used[v.Name] = true
		}
	}
	sched.Walk(k.Body, func(s sched.Stmt) bool {
		switch s := s.(type) {
		case *sched.Loop:
			lw.used[s.Var.Name] = true
		case *sched.Let:
			lw.used[s.Var.Name] = true
		case *sched.Alloc:
			lw.used[s.Array.Name] = true
		}
		return true
	})
}

func (lw *dataWriteLowering) fresh(base string) string {
	name := base
	for i := 2; lw.used[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	lw.used[name] = true
	return name
}

func (lw *dataWriteLowering) block(b *sched.Block, par int) (*sched.Block, error) {
	if b == nil {
		return nil, nil
	}
	nb := &sched.Block{Lbrace: b.Lbrace, Rbrace: b.Rbrace}
	for _, s := range b.Stmts {
		n, err := lw.stmt(s, par)
		if err != nil {
			return nil, err
		}
		nb.Stmts = append(nb.Stmts, n)
	}
	return nb, nil
}

// stmt lowers s, inside par par loops.
func (lw *dataWriteLowering) stmt(s sched.Stmt, par int) (sched.Stmt, error) {
	var err error
	switch s := s.(type) {
	case *sched.Block:
		return lw.block(s, par)
	case *sched.If:
		n := *s
		if n.Then, err = lw.block(s.Then, par); err != nil {
			return nil, err
		}
		if s.Else != nil {
			if n.Else, err = lw.stmt(s.Else, par); err != nil {
				return nil, err
			}
		}
		return &n, nil
	case *sched.Loop:
		n := *s
		inner := par
		if s.Par {
			inner++
		}
		n.Body, err = lw.block(s.Body, inner)
		return &n, err
	case *sched.Alloc:
		n := *s
		outer, had := lw.extents[s.Array.Name]
		outerElem, hadElem := lw.elems[s.Array.Name]
		outerPar, hadPar := lw.allocPar[s.Array.Name]
		lw.extents[s.Array.Name] = s.Extents
		lw.elems[s.Array.Name] = s.Elem
		lw.allocPar[s.Array.Name] = par
		n.Body, err = lw.block(s.Body, par)
		if hadPar {
			lw.allocPar[s.Array.Name] = outerPar
		} else {
			delete(lw.allocPar, s.Array.Name)
		}
		if had {
			lw.extents[s.Array.Name] = outer
		} else {
			delete(lw.extents, s.Array.Name)
		}
		if hadElem {
			lw.elems[s.Array.Name] = outerElem
		} else {
			delete(lw.elems, s.Array.Name)
		}
		return &n, err
	case *sched.Assign:
		if len(dataDims(s, lw.kinfo)) == 0 {
			return s, nil
		}
		return lw.assign(s, par > lw.allocPar[s.Array.Name])
	}
	return s, nil
}

// assign lowers the data-dependent write s.
func (lw *dataWriteLowering) assign(s *sched.Assign, inPar bool) (sched.Stmt, error) {
	pos := s.Array.NamePos
	what := syntax.ExprString(&syntax.Index{Array: s.Array, Indices: s.Indices})
	if inPar {
		return nil, fmt.Errorf("%s: the write into %s at a data-dependent index is in a par loop, whose iterations may then write the same cell in any order", pos, what)
	}
	call, ok := s.Annot.(*syntax.Call)
	if !ok {
		return nil, fmt.Errorf("%s: the write into %s at a data-dependent index is annotated %s, not an element of a tensor", pos, what, syntax.ExprString(s.Annot))
	}
	var annotDims []int
	for i, a := range call.Args {
		if lw.kinfo.Types.IsDataIndex(a) {
			annotDims = append(annotDims, i)
		}
	}
	dims := dataDims(s, lw.kinfo)
	if len(annotDims) != len(dims) {
		return nil, fmt.Errorf("%s: the write into %s has %d data-dependent indices, its annotation %s %d", pos, what, len(dims), syntax.ExprString(s.Annot), len(annotDims))
	}
	ext, ok := lw.extents[s.Array.Name]
	if !ok || len(ext) != len(s.Indices) {
		return nil, fmt.Errorf("%s: the extents of %s are unknown", pos, s.Array.Name)
	}
	elem := syntax.Invalid
	if t, ok := lw.elems[s.Array.Name]; ok {
		elem = t
	} else if a := lw.kinfo.Array(s.Array.Name); a != nil {
		elem = a.Elem
	}
	if elem == syntax.Invalid {
		return nil, fmt.Errorf("%s: the element type of %s is unknown", pos, s.Array.Name)
	}
	lw.writes++
	id := func(name string) *syntax.Ident { return &syntax.Ident{NamePos: pos, Name: name} }
	call1 := func(f string, args ...syntax.Expr) syntax.Expr { return &syntax.Call{Fun: id(f), Args: args} }
	lit := func(n int) syntax.Expr {
		return &syntax.Lit{ValuePos: pos, Kind: syntax.IntLiteral, Text: strconv.Itoa(n)}
	}

	// dw[0] {T(E', J)} := select(a[E] == a[E], v, v)
	dw := lw.fresh("dw_" + s.Array.Name)
	read := &syntax.Index{Array: s.Array, Indices: s.Indices}
	check := &sched.Assign{Array: id(dw), Indices: []syntax.Expr{lit(0)}, Annot: s.Annot,
		Value: call1("select", &syntax.Binary{X: read, Op: syntax.OpEq, Y: read}, s.Value, s.Value)}

	// for b < X { a[b] {T(b + Δ, J)} := select(i64(b) == i64(E), dw[0], a[b]) }
	idx := append([]syntax.Expr{}, s.Indices...)
	args := append([]syntax.Expr{}, call.Args...)
	vars := make([]*syntax.Ident, len(dims))
	for k, d := range dims {
		vars[k] = id(lw.fresh("dw_" + s.Array.Name + "_" + strconv.Itoa(d)))
		idx[d] = vars[k]
		delta := sub(quasiAffinePart(call.Args[annotDims[k]], pos), quasiAffinePart(s.Indices[d], pos))
		args[annotDims[k]] = &syntax.Binary{X: vars[k], Op: syntax.OpAdd, Y: delta}
	}
	old := &syntax.Index{Array: s.Array, Indices: idx}
	var val syntax.Expr = &syntax.Index{Array: id(dw), Indices: []syntax.Expr{lit(0)}}
	for k := len(dims) - 1; k >= 0; k-- {
		cond := &syntax.Binary{X: call1("i64", vars[k]), Op: syntax.OpEq, Y: call1("i64", s.Indices[dims[k]])}
		val = call1("select", cond, val, old)
	}
	var body sched.Stmt = &sched.Assign{Array: s.Array, Indices: idx, Value: val,
		Annot: &syntax.Call{Fun: call.Fun, Args: args}}
	for k := len(dims) - 1; k >= 0; k-- {
		body = &sched.Loop{KwPos: pos, Var: vars[k], Hi: ext[dims[k]], Body: &sched.Block{Lbrace: pos, Rbrace: pos, Stmts: []sched.Stmt{body}}}
	}
	return &sched.Alloc{AllocPos: pos, Array: id(dw), Elem: elem, ElemPos: pos, Extents: []syntax.Expr{lit(1)},
		Body: &sched.Block{Lbrace: pos, Rbrace: pos, Stmts: []sched.Stmt{check, body}}}, nil
}

// quasiAffinePart returns the sum of the terms of the integer value x (a
// data-dependent index) that are conversions of index expressions or
// integer literals, as an index expression: i32(bin) - i32(m) + 1 gives
// 0 - m + 1. The other terms, which read data, are left out.
func quasiAffinePart(x syntax.Expr, pos syntax.Pos) syntax.Expr {
	zero := &syntax.Lit{ValuePos: pos, Kind: syntax.IntLiteral, Text: "0"}
	switch x := x.(type) {
	case *syntax.Lit:
		if x.Kind == syntax.IntLiteral {
			return x
		}
	case *syntax.Binary:
		switch x.Op {
		case syntax.OpAdd:
			return &syntax.Binary{X: quasiAffinePart(x.X, pos), Op: syntax.OpAdd, Y: quasiAffinePart(x.Y, pos)}
		case syntax.OpSub:
			return sub(quasiAffinePart(x.X, pos), quasiAffinePart(x.Y, pos))
		}
	case *syntax.Call:
		if syntax.TypeByName(x.Fun.Name) != syntax.Invalid && len(x.Args) == 1 && isIndexExpr(x.Args[0]) {
			return x.Args[0]
		}
	}
	return zero
}

func sub(x, y syntax.Expr) syntax.Expr { return &syntax.Binary{X: x, Op: syntax.OpSub, Y: y} }

// isIndexExpr reports whether x is built of names, integer literals and
// the operators of index expressions only (no reads, no conversions).
func isIndexExpr(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.Ident:
		return true
	case *syntax.Lit:
		return x.Kind == syntax.IntLiteral
	case *syntax.Unary:
		return x.Op == syntax.OpNeg && isIndexExpr(x.X)
	case *syntax.Binary:
		switch x.Op {
		case syntax.OpAdd, syntax.OpSub, syntax.OpMul, syntax.OpDiv, syntax.OpRem:
			return isIndexExpr(x.X) && isIndexExpr(x.Y)
		}
	case *syntax.Call:
		if x.Fun.Name == "min" || x.Fun.Name == "max" {
			return len(x.Args) == 2 && isIndexExpr(x.Args[0]) && isIndexExpr(x.Args[1])
		}
	}
	return false
}
