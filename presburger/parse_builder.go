package presburger

import (
	"context"
	"errors"
	"fmt"
)

// This file evaluates the parser's syntax tree of isl notation (the
// grammar is in parse.go) into Maps. Each piece's tuples give its space
// and dimensions; its formula is evaluated over a flat set space
// [params | dimensions | bound variables], comparisons through the
// engine's builder of quasi-affine constraints (Builder, build.go),
// connectives into Map operations (negations exactly, under the context's
// budget), existentials by projection.

// evaluator turns syntax into Maps over a flat set space [params | vars].
type evaluator struct {
	ctx    context.Context
	params []string
	pIndex map[string]int
}

// scope maps variable names to their position among the vars.
type scope struct {
	names []string
}

// lookup returns the position of the innermost variable called name, or -1.
func (s *scope) lookup(name string) int {
	for i := len(s.names) - 1; i >= 0; i-- {
		if s.names[i] == name {
			return i
		}
	}
	return -1
}

// flatSpace returns the set space [params | the variables of sc].
func (ev *evaluator) flatSpace(sc *scope) Space {
	return SetSpace(ev.params, FlatTuple("", make([]string, len(sc.names))...))
}

// evalExpr evaluates the expression e in scope sc with the builder b,
// whose conjunction floor divisions extend with locals.
func (ev *evaluator) evalExpr(e expr, sc *scope, b *Builder) (QuasiAff, error) {
	switch e := e.(type) {
	case eNum:
		return b.Const(e.v), nil
	case eVar:
		if i := sc.lookup(e.name); i >= 0 {
			return b.Dim(DimOut, i), nil
		}
		if i, ok := ev.pIndex[e.name]; ok {
			return b.Dim(DimParam, i), nil
		}
		return QuasiAff{}, &ParseError{e.at.line, e.at.col, fmt.Sprintf("unknown identifier %q", e.name), CodeUndeclared}
	case eNeg:
		x, err := ev.evalExpr(e.e, sc, b)
		if err != nil {
			return QuasiAff{}, err
		}
		return b.Neg(x), nil
	case eBin:
		return ev.evalBin(e, sc, b)
	case eCall:
		switch e.fn {
		case "floor", "ceil":
			return ev.evalRounding(e, sc, b)
		case "min", "max":
			return ev.evalMinMax(e, sc, b)
		}
	}
	return QuasiAff{}, errors.New("presburger: internal error: unknown expression")
}

// evalBin evaluates a binary expression: a sum, a difference, a product
// with a constant factor, or a remainder by a constant ("/" is only
// allowed inside floor and ceil).
func (ev *evaluator) evalBin(e eBin, sc *scope, b *Builder) (QuasiAff, error) {
	l, err := ev.evalExpr(e.l, sc, b)
	if err != nil {
		return QuasiAff{}, err
	}
	r, err := ev.evalExpr(e.r, sc, b)
	if err != nil {
		return QuasiAff{}, err
	}
	switch e.op {
	case "+":
		return b.Add(l, r), nil
	case "-":
		return b.Sub(l, r), nil
	case "*":
		if k, ok := l.Constant(); ok {
			return b.Scale(r, k), nil
		}
		if k, ok := r.Constant(); ok {
			return b.Scale(l, k), nil
		}
		return QuasiAff{}, &ParseError{e.at.line, e.at.col, "non-affine multiplication: one factor must be a constant", CodeNotAffine}
	case "/":
		return QuasiAff{}, &ParseError{e.at.line, e.at.col, "division is only allowed as floor(e/c) or ceil(e/c)", CodeNotAffine}
	case "mod":
		c, err := constOf(r, e.at)
		if err != nil {
			return QuasiAff{}, err
		}
		c = c.Abs()
		if c.IsZero() {
			return QuasiAff{}, &ParseError{e.at.line, e.at.col, "modulo by zero", CodeRange}
		}
		return b.Mod(l, c), nil
	}
	return QuasiAff{}, errors.New("presburger: internal error: unknown expression")
}

// evalRounding evaluates floor(n/d) or ceil(n/d) (n alone: d = 1), whose
// divisor d must be a nonzero constant.
func (ev *evaluator) evalRounding(e eCall, sc *scope, b *Builder) (QuasiAff, error) {
	arg := e.args[0]
	num, den := arg, expr(eNum{NewInt(1)})
	if bin, ok := arg.(eBin); ok && bin.op == "/" {
		num, den = bin.l, bin.r
	}
	n, err := ev.evalExpr(num, sc, b)
	if err != nil {
		return QuasiAff{}, err
	}
	d, err := ev.evalExpr(den, sc, b)
	if err != nil {
		return QuasiAff{}, err
	}
	c, err := constOf(d, e.at)
	if err != nil {
		return QuasiAff{}, err
	}
	if c.IsZero() {
		return QuasiAff{}, &ParseError{e.at.line, e.at.col, "division by zero", CodeRange}
	}
	if c.Sign() < 0 {
		c = c.Neg()
		n = b.Neg(n)
	}
	if e.fn == "ceil" {
		return b.Neg(b.FloorDiv(b.Neg(n), c)), nil
	}
	return b.FloorDiv(n, c), nil
}

// evalMinMax evaluates min(...) or max(...) of its arguments, pairwise
// from the left.
func (ev *evaluator) evalMinMax(e eCall, sc *scope, b *Builder) (QuasiAff, error) {
	acc, err := ev.evalExpr(e.args[0], sc, b)
	if err != nil {
		return QuasiAff{}, err
	}
	for _, a := range e.args[1:] {
		x, err := ev.evalExpr(a, sc, b)
		if err != nil {
			return QuasiAff{}, err
		}
		if e.fn == "min" {
			acc = b.Min(acc, x)
		} else {
			acc = b.Max(acc, x)
		}
	}
	return acc, nil
}

// constOf returns the value of x if it is a constant, or an error at at.
func constOf(x QuasiAff, at token) (Int, error) {
	if c, ok := x.Constant(); ok {
		return c, nil
	}
	return Int{}, &ParseError{at.line, at.col, "expected a constant divisor", CodeNotAffine}
}

// cmpOps maps the comparison operators of the notation to the builder's.
var cmpOps = map[string]Cmp{"<=": CmpLE, "<": CmpLT, ">=": CmpGE, ">": CmpGT, "=": CmpEQ, "!=": CmpNE}

// evalCmp evaluates a comparison chain into a Map over the flat space.
func (ev *evaluator) evalCmp(c fCmp, sc *scope) (*Map, error) {
	b := NewBuilder(ev.flatSpace(sc))
	vals := make([][]QuasiAff, len(c.lists))
	for i, list := range c.lists {
		for _, e := range list {
			v, err := ev.evalExpr(e, sc, b)
			if err != nil {
				return nil, err
			}
			vals[i] = append(vals[i], v)
		}
	}
	ops := make([]Cmp, len(c.ops))
	for i, op := range c.ops {
		ops[i] = cmpOps[op]
	}
	return b.Chain(vals, ops)
}

// evalFormula evaluates f in scope sc into a Map over the flat space.
func (ev *evaluator) evalFormula(f formula, sc *scope) (*Map, error) {
	sp := ev.flatSpace(sc)
	switch f := f.(type) {
	case nil:
		return Universe(sp), nil
	case fBool:
		if f.v {
			return Universe(sp), nil
		}
		return Empty(sp), nil
	case fCmp:
		return ev.evalCmp(f, sc)
	case fNot:
		x, err := ev.evalFormula(f.f, sc)
		if err != nil {
			return nil, err
		}
		return x.Complement(ev.ctx)
	case fBin:
		l, err := ev.evalFormula(f.l, sc)
		if err != nil {
			return nil, err
		}
		r, err := ev.evalFormula(f.r, sc)
		if err != nil {
			return nil, err
		}
		switch f.op {
		case "and":
			return l.Intersect(r)
		case "or":
			return l.Union(r)
		default: // implies
			nl, err := l.Complement(ev.ctx)
			if err != nil {
				return nil, err
			}
			return nl.Union(r)
		}
	case fExists:
		inner := &scope{names: append(append([]string(nil), sc.names...), f.names...)}
		body := f.body
		for i, d := range f.defs {
			if d != nil {
				def := fCmp{lists: [][]expr{{eVar{name: f.names[i]}}, {d}}, ops: []string{"="}}
				body = fBin{"and", def, body}
			}
		}
		x, err := ev.evalFormula(body, inner)
		if err != nil {
			return nil, err
		}
		return x.ProjectOut(DimOut, len(sc.names), len(f.names))
	}
	return nil, errors.New("presburger: internal error: unknown formula")
}

// tupleWalk walks the tuples of a piece: fresh identifiers become
// dimensions, other elements become anonymous dimensions with an equality.
// It collects the dimension names (for the scope; anonymous ones get
// unreadable names), the printed names and the extra constraints; walk
// returns the shapes.
type tupleWalk struct {
	scope   []string
	printed []string
	eqs     []formula
	isParam func(string) bool
	anon    int
}

// bound reports whether name is already a dimension of the piece.
func (tw *tupleWalk) bound(name string) bool {
	for _, n := range tw.scope {
		if n == name {
			return true
		}
	}
	return false
}

// walk returns the Tuple of t, recording its dimensions and equalities.
func (tw *tupleWalk) walk(t *tupleAST) Tuple {
	if t.left != nil {
		l := tw.walk(t.left)
		r := tw.walk(t.right)
		return Tuple{Name: t.name, Left: &l, Right: &r}
	}
	out := Tuple{Name: t.name, Dims: []string{}}
	for _, e := range t.elems {
		if d, ok := e.(eDef); ok {
			// "j = expr": a dimension named j with an equality.
			tw.scope = append(tw.scope, d.name)
			tw.printed = append(tw.printed, d.name)
			out.Dims = append(out.Dims, d.name)
			tw.eqs = append(tw.eqs, fCmp{lists: [][]expr{{eVar{name: d.name}}, {d.e}}, ops: []string{"="}, at: d.at})
			continue
		}
		if v, ok := e.(eVar); ok && !tw.bound(v.name) && !tw.isParam(v.name) {
			tw.scope = append(tw.scope, v.name)
			tw.printed = append(tw.printed, v.name)
			out.Dims = append(out.Dims, v.name)
			continue
		}
		name := fmt.Sprintf("\x00%d", tw.anon)
		tw.anon++
		tw.scope = append(tw.scope, name)
		tw.printed = append(tw.printed, "")
		out.Dims = append(out.Dims, "")
		tw.eqs = append(tw.eqs, fCmp{lists: [][]expr{{eVar{name: name}}, {e}}, ops: []string{"="}, at: t.at})
	}
	return out
}

// evalInput evaluates every piece into a Map in its own space.
func evalInput(ctx context.Context, in *inputAST) ([]*Map, error) {
	params := append([]string(nil), in.params...)
	isParam := func(n string) bool {
		for _, p := range params {
			if p == n {
				return true
			}
		}
		return false
	}
	ev := &evaluator{ctx: ctx, params: params, pIndex: map[string]int{}}
	for i, p := range params {
		ev.pIndex[p] = i
	}
	var out []*Map
	for _, pc := range in.pieces {
		tw := &tupleWalk{isParam: isParam}
		var target Space
		switch {
		case pc.paramOnly:
			target = ParamSpace(params)
		case pc.in != nil:
			ti := tw.walk(pc.in)
			to := tw.walk(pc.out)
			target = MapSpace(params, ti, to)
		default:
			to := tw.walk(pc.out)
			target = SetSpace(params, to)
		}
		sc := &scope{names: tw.scope}
		f := pc.cond
		for _, e := range tw.eqs {
			if f == nil {
				f = e
			} else {
				f = fBin{"and", e, f}
			}
		}
		m, err := ev.evalFormula(f, sc)
		if err != nil {
			var pe *ParseError
			if errors.As(err, &pe) {
				return nil, err
			}
			return nil, &ParseError{pc.at.line, pc.at.col, err.Error(), ""} // not a fault of the text
		}
		out = append(out, m.relabel(target))
	}
	return out, nil
}
