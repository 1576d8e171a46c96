package atl

import (
	"context"
	"math"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// Checked is a program whose names are resolved and whose expressions
// have shapes: what every later phase works on.
type Checked struct {
	Name    string // the def's name
	params  []string
	assumes []*cnd
	inputs  []*tensorDecl
	def     *node
	sched   *node // nil without a schedule
	src     *syntax.Source
}

type tensorDecl struct {
	name  string
	pos   syntax.Pos
	shape []*aff
}

// Params lists the program's size parameters.
func (c *Checked) Params() []string { return append([]string(nil), c.params...) }

// Shape returns the shape of the program's result, as text.
func (c *Checked) Shape() string { return formatShape(c.def.shape) }

// symKind says what a name denotes in a scope.
type symKind int

const (
	symParam symKind = iota
	symIndex
	symTensor
)

type sym struct {
	kind    symKind
	shape   []*aff // symTensor
	pending bool   // a GenRec's own tensor, whose shape is being computed
	gets    []*sx  // for pending: reads to check once the rank is known
}

type checker struct {
	rep   *syntax.Reporter
	scope map[string]*sym
	bound map[string]syntax.Pos // every name bound anywhere (ATL's freshness)
}

// Check resolves names and computes shapes (the shape rules of ATL).
// Errors are a syntax.ErrorList against src.
func Check(prog *Program, src *syntax.Source) (*Checked, error) {
	c := &checker{rep: &syntax.Reporter{Src: src}, scope: map[string]*sym{}, bound: map[string]syntax.Pos{}}
	out := &Checked{src: src}
	for _, p := range prog.Params {
		if c.declare(p, &sym{kind: symParam}) {
			out.params = append(out.params, p.Name)
		}
	}
	for _, a := range prog.Assumes {
		if cc := c.cond(a, false); cc != nil {
			out.assumes = append(out.assumes, cc)
		}
	}
	for _, in := range prog.Inputs {
		var shape []*aff
		for _, d := range in.Dims {
			a := c.size(d)
			if a == nil {
				a = constAff(0) // reported; keeps later checks quiet
			}
			shape = append(shape, a)
		}
		if c.declare(in.Name, &sym{kind: symTensor, shape: shape}) {
			out.inputs = append(out.inputs, &tensorDecl{name: in.Name.Name, pos: in.Name.At, shape: shape})
		}
	}
	if prog.Def != nil {
		c.fresh(prog.Def.Name)
		out.Name = prog.Def.Name.Name
		out.def = c.expr(prog.Def.Body)
	}
	if prog.Schedule != nil {
		if prog.Def != nil && prog.Schedule.Name.Name != prog.Def.Name.Name {
			c.rep.ErrorCodef(prog.Schedule.Name.At, syntax.CodeBinding, "the schedule is named %s, the def %s: a schedule rewrites the def of the same name", prog.Schedule.Name.Name, prog.Def.Name.Name)
		}
		// The schedule is checked in a scope of its own: its binders may
		// reuse the def's names.
		saved := c.bound
		c.bound = map[string]syntax.Pos{}
		for k, v := range saved {
			if s, ok := c.scope[k]; ok && s.kind != symIndex {
				c.bound[k] = v
			}
		}
		if prog.Def != nil {
			c.bound[prog.Def.Name.Name] = prog.Def.Name.At
		}
		out.sched = c.expr(prog.Schedule.Body)
		c.bound = saved
		if out.def != nil && out.sched != nil && !c.sameShapeAssuming(out.assumes, out.params, out.def.shape, out.sched.shape) {
			c.rep.ErrorCodef(prog.Schedule.Name.At, syntax.CodeBinding, "the schedule's shape %s differs from the def's %s", formatShape(out.sched.shape), formatShape(out.def.shape))
		}
	}
	c.rep.Errs.Sort()
	if err := c.rep.Errs.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// sameShapeAssuming compares shapes for every value of the parameters
// the assumptions allow (4 * ceil(n / 4) - 4 + n % 4 is n when n % 4 != 0).
func (c *checker) sameShapeAssuming(assumes []*cnd, params []string, a, b []*aff) bool {
	if len(a) != len(b) {
		return false
	}
	pc := &padChecker{ctx: context.Background(), params: params}
	for i := range a {
		if equalAff(a[i], b[i]) {
			continue
		}
		if ok, err := pc.implies(padCtx{conds: assumes}, cmpC("==", a[i], b[i])); err != nil || !ok {
			return false
		}
	}
	return true
}

func sameShape(a, b []*aff) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !equalAff(a[i], b[i]) {
			return false
		}
	}
	return true
}

// fresh checks that a binder's name is usable: not a keyword of the
// generated formats and bound nowhere else (ATL's freshness condition).
func (c *checker) fresh(id *Ident) bool {
	if sare.IsKeyword(id.Name) || sched.IsKeyword(id.Name) || syntax.IsReserved(id.Name) {
		c.rep.ErrorCodef(id.At, syntax.CodeReserved, "%s is a reserved word of Augur's formats: choose another name", id.Name)
		return false
	}
	if at, ok := c.bound[id.Name]; ok {
		c.rep.ErrorCodef(id.At, syntax.CodeRedeclared, "%s is already bound at %s: ATL binders must be fresh", id.Name, at)
		return false
	}
	c.bound[id.Name] = id.At
	return true
}

func (c *checker) declare(id *Ident, s *sym) bool {
	if !c.fresh(id) {
		return false
	}
	c.scope[id.Name] = s
	return true
}

// with runs f with name bound to s, then unbinds it.
func (c *checker) with(name string, s *sym, f func()) {
	old, had := c.scope[name]
	c.scope[name] = s
	f()
	if had {
		c.scope[name] = old
	} else {
		delete(c.scope, name)
	}
}

// ix converts an index expression; names must be parameters or, when
// vars is set, index variables.
func (c *checker) ix(x Ix, vars bool) *aff {
	switch x := x.(type) {
	case *IxConst:
		return constAff(x.Val)
	case *IxName:
		s, ok := c.scope[x.Name.Name]
		switch {
		case !ok:
			c.rep.ErrorCodef(x.Name.At, syntax.CodeUndeclared, "undefined: %s", x.Name.Name)
			return nil
		case s.kind == symTensor:
			c.rep.ErrorCodef(x.Name.At, syntax.CodeWrongKind, "%s is a tensor, not an index", x.Name.Name)
			return nil
		case s.kind == symIndex && !vars:
			c.rep.ErrorCodef(x.Name.At, syntax.CodeWrongKind, "%s is an index variable: sizes depend on parameters only", x.Name.Name)
			return nil
		}
		return nameAff(x.Name.Name)
	case *IxNeg:
		a := c.ix(x.X, vars)
		if a == nil {
			return nil
		}
		return a.scale(-1)
	case *IxBin:
		a, b := c.ix(x.X, vars), c.ix(x.Y, vars)
		if a == nil || b == nil {
			return nil
		}
		switch x.Op {
		case '+':
			return a.add(b)
		case '-':
			return a.sub(b)
		case '*':
			if r, ok := a.mul(b); ok {
				return r
			}
			c.rep.ErrorCodef(x.At, syntax.CodeNotAffine, "%s * %s is not affine: one side of a product must be a constant", a, b)
			return nil
		}
		d, ok := b.isConst()
		if !ok || d <= 0 {
			c.rep.ErrorCodef(x.At, syntax.CodeNotAffine, "the divisor %s must be a positive integer constant", b)
			return nil
		}
		switch x.Op {
		case '/':
			return a.div(d)
		case '%':
			return a.mod(d)
		}
		return a.ceilDiv(d)
	}
	return nil
}

func (c *checker) size(x Ix) *aff { return c.ix(x, false) }

func (c *checker) cond(x Cond, vars bool) *cnd {
	switch x := x.(type) {
	case *Truth:
		if x.Val {
			return &cnd{op: "true"}
		}
		return &cnd{op: "false"}
	case *Not:
		a := c.cond(x.X, vars)
		if a == nil {
			return nil
		}
		return notC(a)
	case *Logic:
		a, b := c.cond(x.X, vars), c.cond(x.Y, vars)
		if a == nil || b == nil {
			return nil
		}
		return &cnd{op: x.Op, a: a, b: b}
	case *Cmp:
		a, b := c.ix(x.X, vars), c.ix(x.Y, vars)
		if a == nil || b == nil {
			return nil
		}
		return cmpC(x.Op, a, b)
	}
	return nil
}

// rng checks a binder's range; bounds of Gen (shapeBounds) depend on
// parameters only.
func (c *checker) rng(lo, hi Ix, shapeBounds bool) (*aff, *aff) {
	return c.ix(lo, !shapeBounds), c.ix(hi, !shapeBounds)
}

// expr checks e and returns its node, or nil after an error.
func (c *checker) expr(e Expr) *node {
	switch e := e.(type) {
	case *Gen:
		return c.gen(e.At, e.Var, e.Lo, e.Hi, e.Body)
	case *Sum:
		return c.sum(e)
	case *Guard:
		cc := c.cond(e.Cond, true)
		body := c.expr(e.Body)
		if cc == nil || body == nil {
			return nil
		}
		return &node{kind: kGuard, pos: e.At, cond: cc, kids: []*node{body}, shape: body.shape}
	case *Let:
		return c.let(e)
	case *Concat, *Flatten, *Split, *Transpose:
		return c.rearrange(e)
	case *Trunc, *Pad:
		return c.padOrTruncate(e)
	case *Scalar:
		s := c.scalar(e.S)
		if s == nil {
			return nil
		}
		return &node{kind: kScalar, pos: e.Pos(), s: s}
	case *Wide:
		return c.wide(e)
	case *GenRec:
		return c.genrec(e)
	}
	return nil
}

// sum checks a Sum: its range, its fresh index, its body with the index
// bound.
func (c *checker) sum(e *Sum) *node {
	lo, hi := c.rng(e.Lo, e.Hi, false)
	if !c.fresh(e.Var) {
		return nil
	}
	var body *node
	c.with(e.Var.Name, &sym{kind: symIndex}, func() { body = c.expr(e.Body) })
	if lo == nil || hi == nil || body == nil {
		return nil
	}
	return &node{kind: kSum, pos: e.At, v: e.Var.Name, lo: lo, hi: hi, kids: []*node{body}, shape: body.shape}
}

// let checks a Let: its value, then its body with the fresh name bound to
// the value's shape.
func (c *checker) let(e *Let) *node {
	val := c.expr(e.Val)
	if !c.fresh(e.Var) || val == nil {
		return nil
	}
	var body *node
	c.with(e.Var.Name, &sym{kind: symTensor, shape: val.shape}, func() { body = c.expr(e.Body) })
	if body == nil {
		return nil
	}
	return &node{kind: kLet, pos: e.At, v: e.Var.Name, kids: []*node{val, body}, shape: body.shape}
}

// rearrange checks a concatenation, flatten, split or transpose, each of
// the shapes it needs.
func (c *checker) rearrange(e Expr) *node {
	switch e := e.(type) {
	case *Concat:
		x, y := c.expr(e.X), c.expr(e.Y)
		if x == nil || y == nil {
			return nil
		}
		if len(x.shape) == 0 || len(y.shape) == 0 || !sameShape(x.shape[1:], y.shape[1:]) {
			c.rep.ErrorCodef(e.At, syntax.CodeShape, "cannot concatenate shapes %s and %s: they must agree but for the outermost dimension", formatShape(x.shape), formatShape(y.shape))
			return nil
		}
		return &node{kind: kConcat, pos: e.At, kids: []*node{x, y}, shape: append([]*aff{x.shape[0].add(y.shape[0])}, x.shape[1:]...)}
	case *Flatten:
		x := c.expr(e.X)
		if x == nil {
			return nil
		}
		if len(x.shape) < 2 {
			c.rep.ErrorCodef(e.At, syntax.CodeShape, "flatten needs a tensor of rank 2 or more, found shape %s", formatShape(x.shape))
			return nil
		}
		if d2, ok := x.shape[1].isConst(); !ok || d2 <= 0 {
			c.rep.ErrorCodef(e.At, syntax.CodeNotAffine, "flatten's inner dimension %s must be a positive constant: the flattened index i * %s is not affine otherwise", x.shape[1], x.shape[1])
			return nil
		}
		d, _ := x.shape[0].mul(x.shape[1])
		return &node{kind: kFlatten, pos: e.At, kids: []*node{x}, shape: append([]*aff{d}, x.shape[2:]...)}
	case *Split:
		k := c.size(e.K)
		x := c.expr(e.X)
		if k == nil || x == nil {
			return nil
		}
		kv, ok := k.isConst()
		if !ok || kv <= 0 {
			c.rep.ErrorCodef(e.K.Pos(), syntax.CodeNotAffine, "split's factor %s must be a positive integer constant", k)
			return nil
		}
		if len(x.shape) < 1 {
			c.rep.ErrorCodef(e.At, syntax.CodeShape, "split needs a tensor, found a scalar")
			return nil
		}
		return &node{kind: kSplit, pos: e.At, k: k, kids: []*node{x}, shape: append([]*aff{x.shape[0].ceilDiv(kv), k}, x.shape[1:]...)}
	case *Transpose:
		x := c.expr(e.X)
		if x == nil {
			return nil
		}
		if len(x.shape) < 2 {
			c.rep.ErrorCodef(e.At, syntax.CodeShape, "transpose needs a tensor of rank 2 or more, found shape %s", formatShape(x.shape))
			return nil
		}
		return &node{kind: kTranspose, pos: e.At, kids: []*node{x}, shape: append([]*aff{x.shape[1], x.shape[0]}, x.shape[2:]...)}
	}
	return nil
}

// padOrTruncate checks a truncation or padding by a size, on the left or
// the right, of a tensor.
func (c *checker) padOrTruncate(e Expr) *node {
	var kx Ix
	var sub Expr
	var kd kind
	switch e := e.(type) {
	case *Trunc:
		kx, sub, kd = e.K, e.X, kTruncr
		if e.Left {
			kd = kTruncl
		}
	case *Pad:
		kx, sub, kd = e.K, e.X, kPadr
		if e.Left {
			kd = kPadl
		}
	}
	k := c.size(kx)
	x := c.expr(sub)
	if k == nil || x == nil {
		return nil
	}
	if len(x.shape) < 1 {
		c.rep.ErrorCodef(e.Pos(), syntax.CodeShape, "%s needs a tensor, found a scalar", kd)
		return nil
	}
	d := x.shape[0].add(k)
	if kd == kTruncl || kd == kTruncr {
		d = x.shape[0].sub(k)
	}
	return &node{kind: kd, pos: e.Pos(), k: k, kids: []*node{x}, shape: append([]*aff{d}, x.shape[1:]...)}
}

func (c *checker) gen(at syntax.Pos, v *Ident, lo, hi Ix, body Expr) *node {
	l, h := c.rng(lo, hi, true)
	if !c.fresh(v) {
		return nil
	}
	var b *node
	c.with(v.Name, &sym{kind: symIndex}, func() { b = c.expr(body) })
	if l == nil || h == nil || b == nil {
		return nil
	}
	d := h.sub(l)
	if v, ok := d.isConst(); ok && v < 0 {
		c.rep.ErrorCodef(at, syntax.CodeShape, "this gen has %d elements: a size may not be negative", v)
		return nil
	}
	return &node{kind: kGen, pos: at, v: v.Name, lo: l, hi: h, kids: []*node{b}, shape: append([]*aff{d}, b.shape...)}
}

func (c *checker) scalar(s Sx) *sx {
	switch s := s.(type) {
	case *Num:
		if math.Abs(s.Val) > math.MaxFloat32 {
			c.rep.ErrorCodef(s.At, syntax.CodeRange, "%s is too large for a 32-bit float", s.Text)
			return nil
		}
		return &sx{op: 'n', pos: s.At, val: s.Val, text: s.Text}
	case *Neg:
		x := c.scalar(s.X)
		if x == nil {
			return nil
		}
		return &sx{op: '~', pos: s.At, x: x}
	case *Bin:
		x, y := c.scalar(s.X), c.scalar(s.Y)
		if x == nil || y == nil {
			return nil
		}
		return &sx{op: s.Op, pos: s.At, x: x, y: y}
	case *Ref:
		sy, ok := c.scope[s.Name.Name]
		if !ok {
			c.rep.ErrorCodef(s.Name.At, syntax.CodeUndeclared, "undefined: %s", s.Name.Name)
			return nil
		}
		if sy.kind != symTensor {
			if s.Brack {
				c.rep.ErrorCodef(s.Name.At, syntax.CodeWrongKind, "%s is an index, not a tensor: it cannot be indexed", s.Name.Name)
				return nil
			}
			return &sx{op: 'i', pos: s.Name.At, index: nameAff(s.Name.Name)}
		}
		var idx []*aff
		for _, x := range s.Index {
			a := c.ix(x, true)
			if a == nil {
				return nil
			}
			idx = append(idx, a)
		}
		out := &sx{op: 'g', pos: s.Name.At, name: s.Name.Name, idx: idx}
		if sy.pending {
			sy.gets = append(sy.gets, out)
			return out
		}
		if len(idx) != len(sy.shape) {
			if len(sy.shape) > 0 && !s.Brack {
				c.rep.ErrorCodef(s.Name.At, syntax.CodeArity, "%s has shape %s: read one element, as in %s[...]", s.Name.Name, formatShape(sy.shape), s.Name.Name)
			} else {
				c.rep.ErrorCodef(s.Name.At, syntax.CodeArity, "%s has rank %d, indexed with %d indices", s.Name.Name, len(sy.shape), len(idx))
			}
			return nil
		}
		return out
	}
	return nil
}

func (c *checker) wide(e *Wide) *node {
	lo, hi := c.rng(e.Lo, e.Hi, true)
	if !c.fresh(e.Var) || lo == nil || hi == nil {
		return nil
	}
	n := &node{kind: kWide, pos: e.At, v: e.Var.Name, lo: lo, hi: hi}
	// Lanes see the enclosing scope plus the earlier lanes' names (so
	// that an aliasing lane can be lowered on purpose; CheckLanes
	// rejects it by default); the body sees every lane.
	var bindings []string
	ok := true
	for _, l := range e.Lanes {
		var val *node
		c.with(e.Var.Name, &sym{kind: symIndex}, func() { val = c.expr(l.Val) })
		if !c.fresh(l.Name) || val == nil {
			ok = false
			continue
		}
		var ln *node
		if l.Reduce {
			ln = &node{kind: kSum, pos: l.Name.At, v: e.Var.Name, lo: lo, hi: hi, kids: []*node{val}, shape: val.shape}
		} else {
			ln = &node{kind: kGen, pos: l.Name.At, v: e.Var.Name, lo: lo, hi: hi, kids: []*node{val}, shape: append([]*aff{hi.sub(lo)}, val.shape...)}
		}
		n.lanes = append(n.lanes, &lane{name: l.Name.Name, reduce: l.Reduce, pos: l.Name.At})
		n.kids = append(n.kids, ln)
		c.scope[l.Name.Name] = &sym{kind: symTensor, shape: ln.shape}
		bindings = append(bindings, l.Name.Name)
	}
	body := c.expr(e.Body)
	for _, b := range bindings {
		delete(c.scope, b)
	}
	if !ok || body == nil {
		return nil
	}
	n.kids = append(n.kids, body)
	n.shape = body.shape
	return n
}

func (c *checker) genrec(e *GenRec) *node {
	if !c.fresh(e.Out) {
		return nil
	}
	self := &sym{kind: symTensor, pending: true}
	var g *node
	c.with(e.Out.Name, self, func() { g = c.gen(e.At, e.Var, e.Lo, e.Hi, e.Body) })
	if g == nil {
		return nil
	}
	for _, get := range self.gets {
		if len(get.idx) != len(g.shape) {
			c.rep.ErrorCodef(get.pos, syntax.CodeArity, "%s has rank %d, indexed with %d indices", e.Out.Name, len(g.shape), len(get.idx))
			return nil
		}
	}
	var in *node
	c.with(e.Out.Name, &sym{kind: symTensor, shape: g.shape}, func() { in = c.expr(e.In) })
	if in == nil {
		return nil
	}
	return &node{kind: kGenRec, pos: e.At, v: e.Out.Name, kids: []*node{g, in}, shape: in.shape}
}
