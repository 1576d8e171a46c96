package atl

import (
	"fmt"
	"strconv"
	"strings"
)

// The specification gives every materialised tensor (the result, each
// let, lane and GenRec) a SARE tensor over its logical shape, preceded
// by the values of the enclosing index variables it depends on, and
// every Sum a recurrence over its index:
//
//	R(vars, k) = 0                      where k <= lo - 1
//	R(vars, k) = R(vars, k - 1) + body  where lo <= k < hi
//
// whose value at hi - 1 is the sum (0, ATL's padding, when the range is
// empty). Reshapes are index substitutions; a Guard, a Concat, a Pad and
// a Split's last row give pieces (equations with where clauses), the
// padding pieces equal to 0.

// tref locates an ATL tensor in the specification: element idx of the
// ATL tensor is name(pre..., idx...), pre given over ATL index
// variables.
type tref struct {
	name string
	pre  []*aff
	// preVars names the ATL index variables of pre, in order.
	preVars []string
	input   bool
	// alias, when set, says the tensor is a pure copy of another: its
	// element at vars is alias.name(alias.args) (args over vars).
	alias *remap
}

// remap is the value of a tensor that only copies another one: element
// vars of the copy is name(args...), args over vars. Reads of the copy
// in the specification's equations read the original instead, so that
// a recurrence reading a let-bound copy (im2col's lifted columns) is the
// same equation as one reading the original, and is shared with it.
type remap struct {
	vars []string
	name string
	args []*aff
}

// eqCtx is the context of one equation: its positional variables, the
// values of the ATL index variables in scope (over those variables)
// and the tensors in scope.
type eqCtx struct {
	vars    []string
	env     map[string]*aff
	scope   []string // ATL index variables in scope, outermost first
	tensors map[string]*tref
}

func (ec *eqCtx) with(v string, a *aff) *eqCtx {
	out := &eqCtx{vars: ec.vars, env: map[string]*aff{}, scope: append(append([]string(nil), ec.scope...), v), tensors: ec.tensors}
	for k, x := range ec.env {
		out.env[k] = x
	}
	out.env[v] = a
	return out
}

func (ec *eqCtx) withTensor(name string, t *tref) *eqCtx {
	out := *ec
	out.tensors = map[string]*tref{}
	for k, x := range ec.tensors {
		out.tensors[k] = x
	}
	out.tensors[name] = t
	return &out
}

// piece is one case of a tensor's definition.
type piece struct {
	conds []*cnd
	val   string
}

const padValue = "0"

type specGen struct {
	c     *Checked
	nm    *namer
	out   []string          // tensor declarations and equations, inner first
	dedup map[string]string // equations (own name as @) -> tensor name
	// sums records, for every Sum node (and reduce lane), the name of
	// its recurrence; tensors, for every let, lane and GenRec, the
	// tensor bound. The lowering reads both to annotate stores.
	sums    map[*node]*tref
	tensors map[*node]*tref
}

func newSpecGen(c *Checked, nm *namer) *specGen {
	return &specGen{c: c, nm: nm, dedup: map[string]string{}, sums: map[*node]*tref{}, tensors: map[*node]*tref{}}
}

// top defines tensor name as the value of root; it returns the
// context in which root's tensor variables were bound.
func (g *specGen) top(name string, root *node) error {
	ec := &eqCtx{env: map[string]*aff{}, tensors: map[string]*tref{}}
	for _, in := range g.c.inputs {
		ec.tensors[in.name] = &tref{name: in.name, input: true}
	}
	var idx []*aff
	for i := range root.shape {
		ec.vars = append(ec.vars, g.nm.pos(i))
		idx = append(idx, nameAff(g.nm.pos(i)))
	}
	ps, err := g.den(root, ec, idx)
	if err != nil {
		return err
	}
	g.emit(name, ec.vars, ps, false)
	return nil
}

// emit writes a tensor; with dedup, an identical existing tensor is
// reused and its name returned.
func (g *specGen) emit(name string, vars []string, ps []piece, dedup bool) string {
	var b strings.Builder
	lhs := "@(" + strings.Join(vars, ", ") + ")"
	for _, p := range ps {
		b.WriteString(lhs + " = " + p.val)
		if len(p.conds) > 0 {
			parts := make([]string, len(p.conds))
			for i, c := range p.conds {
				parts[i] = c.String()
				if c.op == "or" {
					parts[i] = "(" + parts[i] + ")"
				}
			}
			b.WriteString(" where " + strings.Join(parts, " and "))
		}
		b.WriteString("\n")
	}
	body := b.String()
	if dedup {
		if old, ok := g.dedup[body]; ok {
			return old
		}
		g.dedup[body] = name
	}
	decl := fmt.Sprintf("tensor %s(%s) : f32\n", name, strings.Join(vars, ", "))
	g.out = append(g.out, decl+strings.ReplaceAll(body, "@(", name+"("))
	return name
}

// simplifyConds drops true comparisons of constants; ok is false when
// one is false.
func simplifyConds(cs []*cnd) ([]*cnd, bool) {
	var out []*cnd
	for _, c := range cs {
		for _, k := range c.conjuncts() {
			if v, known := constCond(k); known {
				if !v {
					return nil, false
				}
				continue
			}
			out = append(out, k)
		}
	}
	return out, true
}

func constCond(c *cnd) (bool, bool) {
	switch c.op {
	case "true":
		return true, true
	case "false":
		return false, true
	case "not":
		v, ok := constCond(c.a)
		return !v, ok
	case "and", "or":
		a, okA := constCond(c.a)
		b, okB := constCond(c.b)
		if c.op == "and" && (okA && !a || okB && !b) {
			return false, true
		}
		if c.op == "or" && (okA && a || okB && b) {
			return true, true
		}
		return a && b, okA && okB
	}
	d := c.x.sub(c.y)
	v, ok := d.isConst()
	if !ok {
		return false, false
	}
	r, _ := (&cnd{op: c.op, x: constAff(v), y: constAff(0)}).eval(nil)
	return r, true
}

// guardPieces adds cond to every piece of ps.
func guardPieces(c *cnd, ps []piece) []piece {
	var out []piece
	for _, p := range ps {
		cs, ok := simplifyConds(append([]*cnd{c}, p.conds...))
		if ok {
			out = append(out, piece{conds: cs, val: p.val})
		}
	}
	return out
}

// den returns the pieces of n's element at idx (affs over ec.vars).
func (g *specGen) den(n *node, ec *eqCtx, idx []*aff) ([]piece, error) {
	switch n.kind {
	case kScalar:
		v, err := g.scalar(n.s, ec)
		if err != nil {
			return nil, err
		}
		return []piece{{val: v}}, nil
	case kGen:
		return g.den(n.kids[0], ec.with(n.v, idx[0].add(n.lo.subst(ec.env))), idx[1:])
	case kSum:
		return g.sum(n, ec, idx)
	case kGuard:
		c := n.cond.subst(ec.env)
		ps, err := g.den(n.kids[0], ec, idx)
		if err != nil {
			return nil, err
		}
		return append(guardPieces(c, ps), guardPieces(notC(c), []piece{{val: padValue}})...), nil
	case kLet:
		t, err := g.let(n.v, n, n.kids[0], ec, false)
		if err != nil {
			return nil, err
		}
		return g.den(n.kids[1], ec.withTensor(n.v, t), idx)
	case kWide:
		inner := ec
		for i, l := range n.lanes {
			t, err := g.let(l.name, n.kids[i], n.kids[i], inner, false)
			if err != nil {
				return nil, err
			}
			inner = inner.withTensor(l.name, t)
		}
		return g.den(n.kids[len(n.lanes)], inner, idx)
	case kGenRec:
		t, err := g.let(n.v, n, n.kids[0], ec, true)
		if err != nil {
			return nil, err
		}
		return g.den(n.kids[1], ec.withTensor(n.v, t), idx)
	case kConcat:
		n1 := n.kids[0].shape[0]
		a, err := g.den(n.kids[0], ec, idx)
		if err != nil {
			return nil, err
		}
		b, err := g.den(n.kids[1], ec, append([]*aff{idx[0].sub(n1)}, idx[1:]...))
		if err != nil {
			return nil, err
		}
		return append(guardPieces(cmpC("<", idx[0], n1), a), guardPieces(cmpC(">=", idx[0], n1), b)...), nil
	case kFlatten:
		d2, _ := n.kids[0].shape[1].isConst()
		return g.den(n.kids[0], ec, append([]*aff{idx[0].div(d2), idx[0].mod(d2)}, idx[1:]...))
	case kSplit:
		k, _ := n.k.isConst()
		e := idx[0].scale(k).add(idx[1])
		rows := n.kids[0].shape[0]
		ps, err := g.den(n.kids[0], ec, append([]*aff{e}, idx[2:]...))
		if err != nil {
			return nil, err
		}
		if r, ok := rows.isConst(); ok && r%k == 0 {
			return ps, nil
		}
		return append(guardPieces(cmpC("<", e, rows), ps), guardPieces(cmpC(">=", e, rows), []piece{{val: padValue}})...), nil
	case kTranspose:
		return g.den(n.kids[0], ec, append([]*aff{idx[1], idx[0]}, idx[2:]...))
	case kTruncl:
		return g.den(n.kids[0], ec, append([]*aff{idx[0].add(n.k)}, idx[1:]...))
	case kTruncr:
		return g.den(n.kids[0], ec, idx)
	case kPadl:
		ps, err := g.den(n.kids[0], ec, append([]*aff{idx[0].sub(n.k)}, idx[1:]...))
		if err != nil {
			return nil, err
		}
		return append(guardPieces(cmpC("<", idx[0], n.k), []piece{{val: padValue}}), guardPieces(cmpC(">=", idx[0], n.k), ps)...), nil
	case kPadr:
		rows := n.kids[0].shape[0]
		ps, err := g.den(n.kids[0], ec, idx)
		if err != nil {
			return nil, err
		}
		return append(guardPieces(cmpC("<", idx[0], rows), ps), guardPieces(cmpC(">=", idx[0], rows), []piece{{val: padValue}})...), nil
	}
	return nil, fmt.Errorf("%s: unexpected %s", n.pos, n.kind)
}

func varAffs(vars []string) []*aff {
	out := make([]*aff, len(vars))
	for i, v := range vars {
		out[i] = nameAff(v)
	}
	return out
}

func call(name string, args []*aff) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.String()
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

// paren parenthesises s unless it is atomic or already in parentheses.
func paren(s string) string {
	if !strings.ContainsAny(s, " ") || wrapped(s) {
		return s
	}
	return "(" + s + ")"
}

// wrapped reports whether s is one parenthesised expression.
func wrapped(s string) bool {
	if !strings.HasPrefix(s, "(") || !strings.HasSuffix(s, ")") {
		return false
	}
	depth := 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && i != len(s)-1 {
				return false
			}
		}
	}
	return true
}

// let defines the tensor bound to name by val (a let's value, a lane,
// or a GenRec's generator, self-referencing when rec is set), indexed by
// the enclosing index variables val depends on, then val's indices.
// owner is the node the lowering will look the tensor up by.
func (g *specGen) let(name string, owner, val *node, ec *eqCtx, rec bool) (*tref, error) {
	deps := freeIndexVars(val, ec)
	var vars []string
	env := map[string]*aff{}
	var pre []*aff
	for i, d := range deps {
		v := g.nm.pos(i)
		vars = append(vars, v)
		env[d] = nameAff(v)
		pre = append(pre, nameAff(d))
	}
	var idx []*aff
	for i := range val.shape {
		v := g.nm.pos(len(deps) + i)
		vars = append(vars, v)
		idx = append(idx, nameAff(v))
	}
	inner := &eqCtx{vars: vars, env: env, scope: deps, tensors: ec.tensors}
	tname := g.nm.fresh(name)
	t := &tref{name: tname, pre: pre, preVars: deps}
	if rec {
		// The table reads itself by its final name: it is never shared.
		inner = inner.withTensor(name, t)
	}
	ps, err := g.den(val, inner, idx)
	if err != nil {
		return nil, err
	}
	t.name = g.emit(tname, vars, ps, !rec)
	if !rec {
		t.alias = g.remapOf(val, inner, idx)
	}
	if val.kind == kSum {
		// A reduce lane: the recurrence is the lane's own.
		g.sums[owner] = g.sums[val]
	}
	g.tensors[owner] = t
	return t, nil
}

// remapOf returns, when val is a nest of Gens around one element read
// (a pure copy with its indices remapped), the element it reads at idx
// (over ec.vars); nil otherwise.
func (g *specGen) remapOf(val *node, ec *eqCtx, idx []*aff) *remap {
	for val.kind == kGen {
		ec = ec.with(val.v, idx[0].add(val.lo.subst(ec.env)))
		idx = idx[1:]
		val = val.kids[0]
	}
	if val.kind != kScalar || val.s.op != 'g' || len(idx) != 0 {
		return nil
	}
	name, args, err := readOf(val.s, ec)
	if err != nil {
		return nil
	}
	return &remap{vars: ec.vars, name: name, args: args}
}

// readOf returns the specification element a read of a tensor denotes
// in ec: the tensor's name and arguments, through copies.
func readOf(s *sx, ec *eqCtx) (string, []*aff, error) {
	t, ok := ec.tensors[s.name]
	if !ok {
		return "", nil, fmt.Errorf("%s: %s is not in scope", s.pos, s.name)
	}
	var args []*aff
	for _, p := range t.pre {
		args = append(args, p.subst(ec.env))
	}
	for _, x := range s.idx {
		args = append(args, x.subst(ec.env))
	}
	if t.alias == nil {
		return t.name, args, nil
	}
	m := map[string]*aff{}
	for i, v := range t.alias.vars {
		m[v] = args[i]
	}
	out := make([]*aff, len(t.alias.args))
	for i, a := range t.alias.args {
		out[i] = a.subst(m)
	}
	return t.alias.name, out, nil
}

// freeIndexVars lists the ATL index variables in ec's scope that n
// depends on, directly or through the tensors it reads, in scope order.
func freeIndexVars(n *node, ec *eqCtx) []string {
	set := map[string]bool{}
	var visit func(n *node)
	var visitS func(s *sx)
	visitS = func(s *sx) {
		if s == nil {
			return
		}
		switch s.op {
		case 'i':
			s.index.names(set)
		case 'g':
			for _, x := range s.idx {
				x.names(set)
			}
			if t, ok := ec.tensors[s.name]; ok {
				for _, v := range t.preVars {
					set[v] = true
				}
			}
		}
		visitS(s.x)
		visitS(s.y)
	}
	visit = func(n *node) {
		for _, a := range []*aff{n.lo, n.hi, n.k} {
			if a != nil {
				a.names(set)
			}
		}
		n.cond.names(set)
		visitS(n.s)
		for _, k := range n.kids {
			visit(k)
		}
	}
	visit(n)
	var out []string
	for _, v := range ec.scope {
		if set[v] {
			out = append(out, v)
		}
	}
	return out
}

// scalar translates a scalar expression to a value expression.
func (g *specGen) scalar(s *sx, ec *eqCtx) (string, error) {
	return formatSx(s, func(s *sx) (string, error) {
		switch s.op {
		case 'n':
			return numText(s), nil
		case 'i':
			return "f32(" + s.index.subst(ec.env).String() + ")", nil
		}
		name, args, err := readOf(s, ec)
		if err != nil {
			return "", err
		}
		return call(name, args), nil
	})
}

// formatSx prints a scalar expression with the parentheses its
// structure needs (the order of operations is kept exactly: it matters
// in the ieee value model); leaf prints numbers, indices and reads.
func formatSx(s *sx, leaf func(*sx) (string, error)) (string, error) {
	prec := func(s *sx) int {
		switch s.op {
		case '+', '-':
			return 1
		case '*', '/':
			return 2
		case '~':
			return 3
		}
		return 4
	}
	var rec func(s *sx) (string, error)
	rec = func(s *sx) (string, error) {
		switch s.op {
		case 'n', 'i', 'g':
			return leaf(s)
		case '~':
			x, err := rec(s.x)
			if prec(s.x) < 4 {
				x = "(" + x + ")"
			}
			return "-" + x, err
		}
		x, err := rec(s.x)
		if err != nil {
			return "", err
		}
		y, err := rec(s.y)
		if err != nil {
			return "", err
		}
		p := prec(s)
		if px := prec(s.x); px < p || px == 3 {
			x = "(" + x + ")"
		}
		if py := prec(s.y); py <= p || py == 3 {
			y = "(" + y + ")"
		}
		return x + " " + string(s.op) + " " + y, nil
	}
	return rec(s)
}

// numText spells a literal for Augur's formats.
func numText(s *sx) string {
	if s.val == float64(int64(s.val)) && !strings.ContainsAny(s.text, "eE.") {
		return strconv.FormatInt(int64(s.val), 10)
	}
	return strconv.FormatFloat(s.val, 'g', -1, 64)
}
