package symeval

import (
	"fmt"
	"strconv"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/internal/quasiaffine"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// This file models a kernel's reductions as statement instances in
// Presburger arithmetic, for the checks of reduce.go: every assignment to
// an accumulator array, every read of one and every out binding of one
// becomes a family of instances named by its enclosing loops' iterations,
// with its domain, the cell it touches and the order of execution between
// two families (Clément 2022, Section 7.5, where these conditions are
// update-ok and iupdate-ok). Index expressions and constraints become
// quasi-affine formulas (package quasiaffine) over the families'
// dimensions, from which reduce_sets.go builds the sets.

// redKind classifies the families of instances.
type redKind int

const (
	redInit   redKind = iota // {T(x) @ ()} := e
	redAcc                   // {T(x) @ (j)} OP= e
	redMerge                 // {T(x)} OP= b[...]
	redPlain                 // any other write of an accumulator array
	redRead                  // a read of an accumulator array, other than a merge's
	redSource                // the read of a merge
	redOut                   // an out binding of an accumulator array, at the end
)

// redScope binds the names of a kernel's index language: loop variables
// (to their depth), lets (to their expression) and, at the root, the
// parameters.
type redScope struct {
	name   string
	depth  int // loop depth of a loop variable, -1 for a let
	let    syntax.Expr
	parent *redScope
}

// lookup returns the innermost binding of name in s, or nil.
func (s *redScope) lookup(name string) *redScope {
	for ; s != nil; s = s.parent {
		if s.name == name {
			return s
		}
	}
	return nil
}

// redLoop is an enclosing loop of a family.
type redLoop struct {
	loop   *sched.Loop
	lo, hi syntax.Expr
	scope  *redScope // the scope of its bounds
}

// redCond is an if condition a family runs under.
type redCond struct {
	cond   syntax.Expr
	negate bool
	scope  *redScope
}

// redFamily is a family of statement instances.
type redFamily struct {
	name    string // tuple name
	kind    redKind
	stmt    *sched.Assign  // nil for redOut
	binding *sched.Binding // redOut only
	loops   []redLoop
	conds   []redCond
	scope   *redScope // the scope of the statement
	pre     int       // textual order
	array   string    // the cell's array
	alloc   int       // the alloc that declared it (0: global)
	allocAt int       // the loop depth of that alloc
	index   []syntax.Expr
	// The reduction element: tensor and arguments (redInit, redAcc,
	// redMerge), position (redAcc).
	tensor string
	args   []syntax.Expr
	at     []syntax.Expr
	// source is the family of a merge's read (redMerge), merge the merge
	// of a source (redSource).
	source, merge *redFamily
}

// depth is the number of the family's dimensions: its enclosing loops,
// or the indices of an out binding.
func (f *redFamily) depth() int {
	if f.kind == redOut {
		return len(f.index)
	}
	return len(f.loops)
}

// dims returns the family's dimensions, named with a prefix: prefix0,
// prefix1, ...
func (f *redFamily) dims(prefix string) []syntax.Expr { return redDims(prefix, f.depth()) }

// tuple is the family's tuple S3[prefix0, prefix1].
func (f *redFamily) tuple(prefix string) *redTuple {
	return &redTuple{name: f.name, elems: f.dims(prefix)}
}

// redModel is the instance model of a kernel's reductions.
type redModel struct {
	k        *sched.Kernel
	kinfo    *sched.Info
	spec     *sare.Spec
	params   []string
	families []*redFamily
	accArr   map[string]bool // accumulator arrays, by key
	allocs   int
	pre      int
	named    int
}

// redArrayKey names an array instance: global arrays by name, allocated ones
// by name and alloc.
func redArrayKey(name string, alloc int) string {
	if alloc == 0 {
		return name
	}
	return fmt.Sprintf("%s#%d", name, alloc)
}

// key names the array instance of the family's cell.
func (f *redFamily) key() string { return redArrayKey(f.array, f.alloc) }

type redAlloc struct {
	id, depth int
}

// newRedModel walks the kernel.
func newRedModel(k *sched.Kernel, kinfo *sched.Info, spec *sare.Spec) *redModel {
	m := &redModel{k: k, kinfo: kinfo, spec: spec, accArr: map[string]bool{}}
	var root *redScope
	for _, p := range k.Params {
		m.params = append(m.params, p.Name)
	}
	m.block(k.Body, root, nil, nil, map[string]redAlloc{})
	// Accumulator arrays: those initialised, accumulated or merged into.
	for _, f := range m.families {
		if f.kind == redInit || f.kind == redAcc || f.kind == redMerge {
			m.accArr[f.key()] = true
		}
	}
	// Keep the families of accumulator arrays; add the out bindings.
	var keep []*redFamily
	for _, f := range m.families {
		if m.accArr[f.key()] || f.kind == redSource {
			keep = append(keep, f)
		}
	}
	m.families = keep
	for _, b := range k.Bindings {
		if b.Dir != sched.Out || !m.accArr[b.Array.Name] {
			continue
		}
		f := &redFamily{kind: redOut, binding: b, array: b.Array.Name, pre: 1 << 30}
		for _, v := range b.Vars {
			f.index = append(f.index, v)
		}
		m.add(f)
	}
	return m
}

// add names f and records it.
func (m *redModel) add(f *redFamily) {
	m.named++
	f.name = fmt.Sprintf("S%d", m.named)
	m.families = append(m.families, f)
}

// block records the families of b's statements.
func (m *redModel) block(b *sched.Block, s *redScope, loops []redLoop, conds []redCond, allocs map[string]redAlloc) {
	if b == nil {
		return
	}
	for _, st := range b.Stmts {
		s = m.stmt(st, s, loops, conds, allocs)
	}
}

// stmt records st's families and returns the scope after it (lets extend
// it).
func (m *redModel) stmt(st sched.Stmt, s *redScope, loops []redLoop, conds []redCond, allocs map[string]redAlloc) *redScope {
	m.pre++
	switch st := st.(type) {
	case *sched.Let:
		return &redScope{name: st.Var.Name, depth: -1, let: st.Value, parent: s}
	case *sched.Block:
		m.block(st, s, loops, conds, allocs)
	case *sched.If:
		m.block(st.Then, s, loops, append(conds[:len(conds):len(conds)], redCond{cond: st.Cond, scope: s}), allocs)
		if st.Else != nil {
			m.stmt(st.Else, s, loops, append(conds[:len(conds):len(conds)], redCond{cond: st.Cond, negate: true, scope: s}), allocs)
		}
	case *sched.Loop:
		lo, hi := st.Bounds()
		inner := append(loops[:len(loops):len(loops)], redLoop{loop: st, lo: lo, hi: hi, scope: s})
		m.block(st.Body, &redScope{name: st.Var.Name, depth: len(loops), parent: s}, inner, conds, allocs)
	case *sched.Alloc:
		m.allocs++
		a := map[string]redAlloc{}
		for k, v := range allocs {
			a[k] = v
		}
		a[st.Array.Name] = redAlloc{id: m.allocs, depth: len(loops)}
		m.block(st.Body, s, loops, conds, a)
	case *sched.Assign:
		m.assign(st, s, loops, conds, allocs)
	}
	return s
}

// family returns a family of the assignment st touching array[index].
func (m *redModel) family(kind redKind, st *sched.Assign, array string, index []syntax.Expr, s *redScope, loops []redLoop, conds []redCond, allocs map[string]redAlloc) *redFamily {
	a := allocs[array]
	sub := map[redKind]int{redRead: 0, redSource: 1}[kind]
	if kind != redRead && kind != redSource {
		sub = 2
	}
	return &redFamily{kind: kind, stmt: st, array: array, index: index, scope: s, loops: loops, conds: conds,
		pre: 4*m.pre + sub, alloc: a.id, allocAt: a.depth}
}

// assign records the families of st: its reads, then its write (and a
// merge's read).
func (m *redModel) assign(st *sched.Assign, s *redScope, loops []redLoop, conds []redCond, allocs map[string]redAlloc) {
	src := sched.MergeSource(st)
	// Reads first: they happen before the write.
	var reads []*syntax.Index
	if src == nil {
		reads = redArrayReads(st.Value)
	}
	for _, r := range reads {
		m.add(m.family(redRead, st, r.Array.Name, r.Indices, s, loops, conds, allocs))
	}
	kind := redPlain
	switch {
	case st.At != nil && len(st.At) == 0 && st.Op == expr.NoReduce:
		kind = redInit
	case st.At != nil:
		kind = redAcc
	case src != nil:
		kind = redMerge
	}
	w := m.family(kind, st, st.Array.Name, st.Indices, s, loops, conds, allocs)
	if kind != redPlain {
		if c, ok := st.Annot.(*syntax.Call); ok {
			w.tensor, w.args = c.Fun.Name, c.Args
		}
		w.at = st.At
	}
	if src != nil {
		sf := m.family(redSource, st, src.Array.Name, src.Indices, s, loops, conds, allocs)
		m.add(sf)
		w.source, sf.merge = sf, w
	}
	m.add(w)
}

// redArrayReads lists the array reads of a value expression.
func redArrayReads(x syntax.Expr) []*syntax.Index {
	var out []*syntax.Index
	syntax.Inspect(x, func(x syntax.Expr) bool {
		if ix, ok := x.(*syntax.Index); ok {
			out = append(out, ix)
		}
		return true
	})
	return out
}

// index returns the index expression x of the scope s over the family's
// dimensions: its loop variables become the dimensions prefix0, prefix1,
// ..., its lets their values.
func (m *redModel) index(x syntax.Expr, s *redScope, prefix string) (syntax.Expr, error) {
	return redIndex(x, func(name string) (syntax.Expr, error) {
		if b := s.lookup(name); b != nil {
			if b.depth >= 0 {
				return redDim(prefix + strconv.Itoa(b.depth)), nil
			}
			return m.index(b.let, b.parent, prefix)
		}
		if m.isParam(name) {
			return redParam(name), nil
		}
		return nil, fmt.Errorf("unknown name %s", name)
	})
}

// isParam reports whether name is a parameter of the kernel.
func (m *redModel) isParam(name string) bool {
	for _, p := range m.params {
		if p == name {
			return true
		}
	}
	return false
}

// redIndex returns the quasi-affine expression x with its names resolved
// by resolve, or an error if x is outside the index language of
// reductions: integers, names, +, -, * , / and %, min and max of two.
func redIndex(x syntax.Expr, resolve func(string) (syntax.Expr, error)) (syntax.Expr, error) {
	rec := func(x syntax.Expr) (syntax.Expr, error) { return redIndex(x, resolve) }
	switch x := x.(type) {
	case *syntax.Lit:
		if x.Kind != syntax.IntLiteral {
			return nil, fmt.Errorf("%s: %s is not an integer", x.Pos(), x.Text)
		}
		n, err := strconv.ParseInt(x.Text, 0, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", x.Pos(), err)
		}
		return redInt(n), nil
	case *syntax.Ident:
		e, err := resolve(x.Name)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", x.Pos(), err)
		}
		return e, nil
	case *syntax.Unary:
		if x.Op != syntax.OpNeg {
			return nil, fmt.Errorf("%s: operator %s in an index", x.Pos(), x.Op)
		}
		e, err := rec(x.X)
		if err != nil {
			return nil, err
		}
		return &syntax.Unary{OpPos: x.OpPos, Op: syntax.OpNeg, X: e}, nil
	case *syntax.Binary:
		a, err := rec(x.X)
		if err != nil {
			return nil, err
		}
		b, err := rec(x.Y)
		if err != nil {
			return nil, err
		}
		switch x.Op {
		case syntax.OpAdd, syntax.OpSub, syntax.OpMul, syntax.OpDiv, syntax.OpRem:
			return &syntax.Binary{X: a, Op: x.Op, Y: b}, nil
		}
		return nil, fmt.Errorf("%s: operator %s in an index", x.Pos(), x.Op)
	case *syntax.Call:
		if (x.Fun.Name == "min" || x.Fun.Name == "max") && len(x.Args) == 2 {
			a, err := rec(x.Args[0])
			if err != nil {
				return nil, err
			}
			b, err := rec(x.Args[1])
			if err != nil {
				return nil, err
			}
			return &syntax.Call{Fun: &syntax.Ident{NamePos: x.Fun.NamePos, Name: x.Fun.Name}, Args: []syntax.Expr{a, b}}, nil
		}
	}
	return nil, fmt.Errorf("%s: %s is outside the index language of reductions", x.Pos(), syntax.ExprString(x))
}

// constraint returns the constraint x of the scope s over the family's
// dimensions named with prefix.
func (m *redModel) constraint(x syntax.Expr, s *redScope, prefix string) (quasiaffine.Formula, error) {
	return redConstraint(x, func(x syntax.Expr) (syntax.Expr, error) { return m.index(x, s, prefix) })
}

// redConstraint returns the constraint x, its index expressions given by
// index: a comparison, a chain (the conjunction of its comparisons),
// true, false, and their combinations with and, or and not.
func redConstraint(x syntax.Expr, index func(syntax.Expr) (syntax.Expr, error)) (quasiaffine.Formula, error) {
	rec := func(x syntax.Expr) (quasiaffine.Formula, error) { return redConstraint(x, index) }
	switch x := x.(type) {
	case *syntax.Lit:
		if x.Kind == syntax.BoolLiteral {
			if x.Text == "true" {
				return redTrue(), nil
			}
			return redFalse(), nil
		}
	case *syntax.Unary:
		if x.Op == syntax.OpNot {
			c, err := rec(x.X)
			if err != nil {
				return nil, err
			}
			return quasiaffine.Not(c), nil
		}
	case *syntax.Chain:
		var parts []quasiaffine.Formula
		for _, c := range x.Comparisons() {
			p, err := rec(c)
			if err != nil {
				return nil, err
			}
			parts = append(parts, p)
		}
		return quasiaffine.And(parts...), nil
	case *syntax.Binary:
		if x.Op == syntax.OpAnd || x.Op == syntax.OpOr {
			a, err := rec(x.X)
			if err != nil {
				return nil, err
			}
			b, err := rec(x.Y)
			if err != nil {
				return nil, err
			}
			if x.Op == syntax.OpAnd {
				return quasiaffine.And(a, b), nil
			}
			return quasiaffine.Or(a, b), nil
		}
		if x.Op.IsComparison() {
			a, err := index(x.X)
			if err != nil {
				return nil, err
			}
			b, err := index(x.Y)
			if err != nil {
				return nil, err
			}
			return redCmp(a, x.Op, b), nil
		}
	}
	return nil, fmt.Errorf("%s: %s is not a constraint of the index language", x.Pos(), syntax.ExprString(x))
}

// domain is the constraint of the family's instances (loop bounds and if
// conditions) with dimensions named prefix0, ..., as a list of conjuncts.
func (m *redModel) domain(f *redFamily, prefix string) ([]quasiaffine.Formula, error) {
	parts := []quasiaffine.Formula{redTrue()}
	if f.kind == redOut {
		b := f.binding
		a := m.kinfo.Array(b.Array.Name)
		if a == nil {
			return nil, fmt.Errorf("no array %s", b.Array.Name)
		}
		s := (*redScope)(nil)
		for d, v := range b.Vars {
			s = &redScope{name: v.Name, depth: d, parent: s}
		}
		for d, x := range a.Extents {
			e, err := m.index(x, nil, prefix)
			if err != nil {
				return nil, err
			}
			parts = append(parts, redRange(redInt(0), redDim(prefix+strconv.Itoa(d)), e))
		}
		if b.Where != nil {
			c, err := m.constraint(b.Where, s, prefix)
			if err != nil {
				return nil, err
			}
			parts = append(parts, c)
		}
		return parts, nil
	}
	for d, l := range f.loops {
		lo, err := m.index(l.lo, l.scope, prefix)
		if err != nil {
			return nil, err
		}
		hi, err := m.index(l.hi, l.scope, prefix)
		if err != nil {
			return nil, err
		}
		parts = append(parts, redRange(lo, redDim(prefix+strconv.Itoa(d)), hi))
	}
	for _, c := range f.conds {
		s, err := m.constraint(c.cond, c.scope, prefix)
		if err != nil {
			return nil, err
		}
		if c.negate {
			s = quasiaffine.Not(s)
		}
		parts = append(parts, s)
	}
	return parts, nil
}

// redRange is the chain lo <= x < hi.
func redRange(lo, x, hi syntax.Expr) quasiaffine.Formula {
	return quasiaffine.Chain([]syntax.Expr{lo, x, hi}, []syntax.Op{syntax.OpLe, syntax.OpLt})
}

// cell returns the family's cell indices over its dimensions.
func (m *redModel) cell(f *redFamily, prefix string) ([]syntax.Expr, error) {
	if f.kind == redOut {
		return f.dims(prefix), nil
	}
	out := make([]syntax.Expr, len(f.index))
	for i, x := range f.index {
		e, err := m.index(x, f.scope, prefix)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// sameCell is the constraint, as a list of conjuncts, that instances a
// (prefix pa) and b (prefix pb) touch the same cell of the same array
// instance.
func (m *redModel) sameCell(a, b *redFamily, pa, pb string) ([]quasiaffine.Formula, error) {
	if a.key() != b.key() {
		return []quasiaffine.Formula{redFalse()}, nil
	}
	ca, err := m.cell(a, pa)
	if err != nil {
		return nil, err
	}
	cb, err := m.cell(b, pb)
	if err != nil {
		return nil, err
	}
	parts := []quasiaffine.Formula{redTrue()}
	for i := range ca {
		parts = append(parts, redCmp(ca[i], syntax.OpEq, cb[i]))
	}
	for d := 0; d < a.allocAt && a.alloc != 0; d++ {
		parts = append(parts, redCmp(redDim(pa+strconv.Itoa(d)), syntax.OpEq, redDim(pb+strconv.Itoa(d))))
	}
	return parts, nil
}

// redCommon is the number of loops a and b share.
func redCommon(a, b *redFamily) int {
	if a.kind == redOut || b.kind == redOut {
		return 0
	}
	n := 0
	for n < len(a.loops) && n < len(b.loops) && a.loops[n].loop == b.loops[n].loop {
		n++
	}
	return n
}

// redBefore is the constraint that instance a (prefix pa) runs strictly
// before instance b (prefix pb): sequential order, where iterations of a
// par loop are unordered.
func redBefore(a, b *redFamily, pa, pb string) quasiaffine.Formula {
	if b.kind == redOut {
		if a.kind == redOut {
			return redFalse()
		}
		return redTrue()
	}
	if a.kind == redOut {
		return redFalse()
	}
	c := redCommon(a, b)
	var alts, eq []quasiaffine.Formula
	for t := 0; t < c; t++ {
		at, bt := redDim(pa+strconv.Itoa(t)), redDim(pb+strconv.Itoa(t))
		if !a.loops[t].loop.Par {
			alts = append(alts, quasiaffine.And(append(eq[:len(eq):len(eq)], redCmp(at, syntax.OpLt, bt))...))
		}
		eq = append(eq, redCmp(at, syntax.OpEq, bt))
	}
	if a.pre < b.pre {
		alts = append(alts, quasiaffine.And(append(eq, redTrue())...))
	}
	if len(alts) == 0 {
		return redFalse()
	}
	return quasiaffine.Or(alts...)
}

// redConcurrent is the constraint that a and b run in different
// iterations of a par loop both are in.
func redConcurrent(a, b *redFamily, pa, pb string) quasiaffine.Formula {
	c := redCommon(a, b)
	var alts, eq []quasiaffine.Formula
	for t := 0; t < c; t++ {
		at, bt := redDim(pa+strconv.Itoa(t)), redDim(pb+strconv.Itoa(t))
		if a.loops[t].loop.Par {
			alts = append(alts, quasiaffine.And(append(eq[:len(eq):len(eq)], redCmp(at, syntax.OpNe, bt))...))
		}
		eq = append(eq, redCmp(at, syntax.OpEq, bt))
	}
	if len(alts) == 0 {
		return redFalse()
	}
	return quasiaffine.Or(alts...)
}

// pair returns the piece { a -> b : dom(a) and dom(b) and extra }, the
// dimensions of a named a0, ..., those of b b0, ...
func (m *redModel) pair(a, b *redFamily, extra ...quasiaffine.Formula) (redPiece, error) {
	da, err := m.domain(a, "a")
	if err != nil {
		return redPiece{}, err
	}
	db, err := m.domain(b, "b")
	if err != nil {
		return redPiece{}, err
	}
	cond := quasiaffine.And(append(append(da, db...), extra...)...)
	return redPiece{params: m.params, in: a.tuple("a"), out: *b.tuple("b"), cond: cond}, nil
}

// set returns the piece { f : dom(f) and extra }, with the dimensions
// named a0, ...
func (m *redModel) set(f *redFamily, extra ...quasiaffine.Formula) (redPiece, error) {
	d, err := m.domain(f, "a")
	if err != nil {
		return redPiece{}, err
	}
	return redPiece{params: m.params, out: *f.tuple("a"), cond: quasiaffine.And(append(d, extra...)...)}, nil
}
