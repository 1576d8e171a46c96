package validate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// This file models a kernel's reductions as statement instances in
// Presburger arithmetic (isl notation), for the checks of
// reduce_check.go: every assignment to an accumulator array, every read
// of one and every out binding of one becomes a family of instances named
// by its enclosing loops' iterations, with its domain, the cell it
// touches and the order of execution between two families (Clément 2022,
// Section 7.5, where these conditions are update-ok and iupdate-ok).

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
	name    string // isl tuple name
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

func (f *redFamily) depth() int {
	if f.kind == redOut {
		return len(f.index)
	}
	return len(f.loops)
}

// dims returns the names of the family's dimensions with a prefix.
func (f *redFamily) dims(prefix string) []string {
	out := make([]string, f.depth())
	for i := range out {
		out[i] = prefix + strconv.Itoa(i)
	}
	return out
}

// tuple is "S3[a0, a1]".
func (f *redFamily) tuple(prefix string) string {
	return f.name + "[" + strings.Join(f.dims(prefix), ", ") + "]"
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

// arrayKey names an array instance: global arrays by name, allocated ones
// by name and alloc.
func arrayKey(name string, alloc int) string {
	if alloc == 0 {
		return name
	}
	return fmt.Sprintf("%s#%d", name, alloc)
}

func (f *redFamily) key() string { return arrayKey(f.array, f.alloc) }

type allocInfo struct {
	id, depth int
}

// newRedModel walks the kernel.
func newRedModel(k *sched.Kernel, kinfo *sched.Info, spec *sare.Spec) *redModel {
	m := &redModel{k: k, kinfo: kinfo, spec: spec, accArr: map[string]bool{}}
	var root *redScope
	for _, p := range k.Params {
		m.params = append(m.params, p.Name)
	}
	m.block(k.Body, root, nil, nil, map[string]allocInfo{})
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

func (m *redModel) add(f *redFamily) {
	m.named++
	f.name = fmt.Sprintf("S%d", m.named)
	m.families = append(m.families, f)
}

func (m *redModel) block(b *sched.Block, s *redScope, loops []redLoop, conds []redCond, allocs map[string]allocInfo) {
	if b == nil {
		return
	}
	for _, st := range b.Stmts {
		s = m.stmt(st, s, loops, conds, allocs)
	}
}

// stmt records st's families and returns the scope after it (lets extend
// it).
func (m *redModel) stmt(st sched.Stmt, s *redScope, loops []redLoop, conds []redCond, allocs map[string]allocInfo) *redScope {
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
		a := map[string]allocInfo{}
		for k, v := range allocs {
			a[k] = v
		}
		a[st.Array.Name] = allocInfo{id: m.allocs, depth: len(loops)}
		m.block(st.Body, s, loops, conds, a)
	case *sched.Assign:
		m.assign(st, s, loops, conds, allocs)
	}
	return s
}

func (m *redModel) family(kind redKind, st *sched.Assign, array string, index []syntax.Expr, s *redScope, loops []redLoop, conds []redCond, allocs map[string]allocInfo) *redFamily {
	a := allocs[array]
	sub := map[redKind]int{redRead: 0, redSource: 1}[kind]
	if kind != redRead && kind != redSource {
		sub = 2
	}
	return &redFamily{kind: kind, stmt: st, array: array, index: index, scope: s, loops: loops, conds: conds,
		pre: 4*m.pre + sub, alloc: a.id, allocAt: a.depth}
}

func (m *redModel) assign(st *sched.Assign, s *redScope, loops []redLoop, conds []redCond, allocs map[string]allocInfo) {
	src := sched.MergeSource(st)
	// Reads first: they happen before the write.
	var reads []*syntax.Index
	if src == nil {
		reads = arrayReads(st.Value)
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

// arrayReads lists the array reads of a value expression.
func arrayReads(x syntax.Expr) []*syntax.Index {
	var out []*syntax.Index
	syntax.Inspect(x, func(x syntax.Expr) bool {
		if ix, ok := x.(*syntax.Index); ok {
			out = append(out, ix)
		}
		return true
	})
	return out
}

// isl prints an index expression of the family's scope s in isl notation,
// its loop variables named prefix0, prefix1, ...
func (m *redModel) isl(x syntax.Expr, s *redScope, prefix string) (string, error) {
	return toISL(x, func(name string) (string, error) {
		if b := s.lookup(name); b != nil {
			if b.depth >= 0 {
				return prefix + strconv.Itoa(b.depth), nil
			}
			e, err := m.isl(b.let, b.parent, prefix)
			return "(" + e + ")", err
		}
		for _, p := range m.params {
			if p == name {
				return p, nil
			}
		}
		return "", fmt.Errorf("unknown name %s", name)
	})
}

// toISL prints a quasi-affine expression in isl notation, names resolved
// by resolve.
func toISL(x syntax.Expr, resolve func(string) (string, error)) (string, error) {
	rec := func(x syntax.Expr) (string, error) { return toISL(x, resolve) }
	switch x := x.(type) {
	case *syntax.Lit:
		if x.Kind != syntax.IntLiteral {
			return "", fmt.Errorf("%s: %s is not an integer", x.Pos(), x.Text)
		}
		n, err := strconv.ParseInt(x.Text, 0, 64)
		if err != nil {
			return "", fmt.Errorf("%s: %w", x.Pos(), err)
		}
		return strconv.FormatInt(n, 10), nil
	case *syntax.Ident:
		e, err := resolve(x.Name)
		if err != nil {
			return "", fmt.Errorf("%s: %w", x.Pos(), err)
		}
		return e, nil
	case *syntax.Unary:
		if x.Op != syntax.OpNeg {
			return "", fmt.Errorf("%s: operator %s in an index", x.Pos(), x.Op)
		}
		e, err := rec(x.X)
		return "-(" + e + ")", err
	case *syntax.Binary:
		a, err := rec(x.X)
		if err != nil {
			return "", err
		}
		b, err := rec(x.Y)
		if err != nil {
			return "", err
		}
		switch x.Op {
		case syntax.OpAdd:
			return "(" + a + ") + (" + b + ")", nil
		case syntax.OpSub:
			return "(" + a + ") - (" + b + ")", nil
		case syntax.OpMul:
			if isConst(b) {
				return b + "*(" + a + ")", nil
			}
			return a + "*(" + b + ")", nil
		case syntax.OpDiv:
			return "floor((" + a + ")/" + b + ")", nil
		case syntax.OpRem:
			return "((" + a + ") mod " + b + ")", nil
		}
		return "", fmt.Errorf("%s: operator %s in an index", x.Pos(), x.Op)
	case *syntax.Call:
		if (x.Fun.Name == "min" || x.Fun.Name == "max") && len(x.Args) == 2 {
			a, err := rec(x.Args[0])
			if err != nil {
				return "", err
			}
			b, err := rec(x.Args[1])
			return x.Fun.Name + "(" + a + ", " + b + ")", err
		}
	}
	return "", fmt.Errorf("%s: %s is outside the index language of reductions", x.Pos(), syntax.ExprString(x))
}

func isConst(s string) bool {
	_, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return err == nil
}

// cond prints a constraint in isl notation.
func (m *redModel) cond(x syntax.Expr, s *redScope, prefix string) (string, error) {
	return condISL(x, func(x syntax.Expr) (string, error) { return m.isl(x, s, prefix) })
}

// condISL prints a constraint in isl notation, its index expressions
// printed by index.
func condISL(x syntax.Expr, index func(syntax.Expr) (string, error)) (string, error) {
	rec := func(x syntax.Expr) (string, error) { return condISL(x, index) }
	switch x := x.(type) {
	case *syntax.Lit:
		if x.Kind == syntax.BoolLiteral {
			if x.Text == "true" {
				return "0 = 0", nil
			}
			return "1 = 0", nil
		}
	case *syntax.Unary:
		if x.Op == syntax.OpNot {
			c, err := rec(x.X)
			return "not (" + c + ")", err
		}
	case *syntax.Chain:
		var parts []string
		for _, c := range x.Comparisons() {
			p, err := rec(c)
			if err != nil {
				return "", err
			}
			parts = append(parts, p)
		}
		return "(" + strings.Join(parts, " and ") + ")", nil
	case *syntax.Binary:
		if x.Op == syntax.OpAnd || x.Op == syntax.OpOr {
			a, err := rec(x.X)
			if err != nil {
				return "", err
			}
			b, err := rec(x.Y)
			return "((" + a + ") " + x.Op.String() + " (" + b + "))", err
		}
		if x.Op.IsComparison() {
			a, err := index(x.X)
			if err != nil {
				return "", err
			}
			b, err := index(x.Y)
			op := x.Op.String()
			if x.Op == syntax.OpEq {
				op = "="
			}
			return "(" + a + ") " + op + " (" + b + ")", err
		}
	}
	return "", fmt.Errorf("%s: %s is not a constraint of the index language", x.Pos(), syntax.ExprString(x))
}

// domain is the constraint of the family's instances (loop bounds and if
// conditions) with dimensions named prefix0, ...
func (m *redModel) domain(f *redFamily, prefix string) (string, error) {
	parts := []string{"0 = 0"}
	if f.kind == redOut {
		b := f.binding
		a := m.kinfo.Array(b.Array.Name)
		if a == nil {
			return "", fmt.Errorf("no array %s", b.Array.Name)
		}
		s := (*redScope)(nil)
		for d, v := range b.Vars {
			s = &redScope{name: v.Name, depth: d, parent: s}
		}
		for d, x := range a.Extents {
			e, err := m.isl(x, nil, prefix)
			if err != nil {
				return "", err
			}
			parts = append(parts, fmt.Sprintf("0 <= %s%d < %s", prefix, d, e))
		}
		if b.Where != nil {
			c, err := m.cond(b.Where, s, prefix)
			if err != nil {
				return "", err
			}
			parts = append(parts, c)
		}
		return strings.Join(parts, " and "), nil
	}
	for d, l := range f.loops {
		lo, err := m.isl(l.lo, l.scope, prefix)
		if err != nil {
			return "", err
		}
		hi, err := m.isl(l.hi, l.scope, prefix)
		if err != nil {
			return "", err
		}
		parts = append(parts, fmt.Sprintf("%s <= %s%d < %s", lo, prefix, d, hi))
	}
	for _, c := range f.conds {
		s, err := m.cond(c.cond, c.scope, prefix)
		if err != nil {
			return "", err
		}
		if c.negate {
			s = "not (" + s + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " and "), nil
}

// cell returns the family's cell indices in isl notation.
func (m *redModel) cell(f *redFamily, prefix string) ([]string, error) {
	if f.kind == redOut {
		return f.dims(prefix), nil
	}
	out := make([]string, len(f.index))
	for i, x := range f.index {
		e, err := m.isl(x, f.scope, prefix)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// sameCell is the constraint that instances a (prefix "a") and b (prefix
// "b") touch the same cell of the same array instance.
func (m *redModel) sameCell(a, b *redFamily, pa, pb string) (string, error) {
	if a.key() != b.key() {
		return "1 = 0", nil
	}
	ca, err := m.cell(a, pa)
	if err != nil {
		return "", err
	}
	cb, err := m.cell(b, pb)
	if err != nil {
		return "", err
	}
	parts := []string{"0 = 0"}
	for i := range ca {
		parts = append(parts, fmt.Sprintf("(%s) = (%s)", ca[i], cb[i]))
	}
	for d := 0; d < a.allocAt && a.alloc != 0; d++ {
		parts = append(parts, fmt.Sprintf("%s%d = %s%d", pa, d, pb, d))
	}
	return strings.Join(parts, " and "), nil
}

// common is the number of loops a and b share.
func common(a, b *redFamily) int {
	if a.kind == redOut || b.kind == redOut {
		return 0
	}
	n := 0
	for n < len(a.loops) && n < len(b.loops) && a.loops[n].loop == b.loops[n].loop {
		n++
	}
	return n
}

// before is the constraint that instance a (prefix "a") runs strictly
// before instance b (prefix "b"): sequential order, where iterations of a
// par loop are unordered.
func before(a, b *redFamily, pa, pb string) string {
	if b.kind == redOut {
		if a.kind == redOut {
			return "1 = 0"
		}
		return "0 = 0"
	}
	if a.kind == redOut {
		return "1 = 0"
	}
	c := common(a, b)
	var alts []string
	var eq []string
	for t := 0; t < c; t++ {
		if !a.loops[t].loop.Par {
			alts = append(alts, "("+strings.Join(append(eq[:len(eq):len(eq)], fmt.Sprintf("%s%d < %s%d", pa, t, pb, t)), " and ")+")")
		}
		eq = append(eq, fmt.Sprintf("%s%d = %s%d", pa, t, pb, t))
	}
	if a.pre < b.pre {
		alts = append(alts, "("+strings.Join(append(eq, "0 = 0"), " and ")+")")
	}
	if len(alts) == 0 {
		return "1 = 0"
	}
	return "(" + strings.Join(alts, " or ") + ")"
}

// concurrent is the constraint that a and b run in different iterations
// of a par loop both are in.
func concurrent(a, b *redFamily, pa, pb string) string {
	c := common(a, b)
	var alts, eq []string
	for t := 0; t < c; t++ {
		if a.loops[t].loop.Par {
			alts = append(alts, "("+strings.Join(append(eq[:len(eq):len(eq)], fmt.Sprintf("%s%d != %s%d", pa, t, pb, t)), " and ")+")")
		}
		eq = append(eq, fmt.Sprintf("%s%d = %s%d", pa, t, pb, t))
	}
	if len(alts) == 0 {
		return "1 = 0"
	}
	return "(" + strings.Join(alts, " or ") + ")"
}

// params is the isl parameter list.
func (m *redModel) paramList() string { return "[" + strings.Join(m.params, ", ") + "]" }

// pair returns the isl text { a -> b : dom(a) and dom(b) and extra }, as
// one piece without braces.
func (m *redModel) pair(a, b *redFamily, extra string) (string, error) {
	da, err := m.domain(a, "a")
	if err != nil {
		return "", err
	}
	db, err := m.domain(b, "b")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s -> %s : %s and %s and %s", a.tuple("a"), b.tuple("b"), da, db, extra), nil
}

// set returns the isl text { f : dom(f) and extra } as one piece, with
// the dimensions named a0, ...
func (m *redModel) set(f *redFamily, extra string) (string, error) {
	d, err := m.domain(f, "a")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s : %s and %s", f.tuple("a"), d, extra), nil
}
