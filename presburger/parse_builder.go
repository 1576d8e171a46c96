package presburger

import (
	"context"
	"errors"
	"fmt"
)

// This file is the builder of isl notation (the grammar is in parse.go):
// it evaluates the parser's syntax tree into Maps. Each piece's tuples
// give its space and dimensions; its formula is evaluated over a flat set
// space [params | dimensions | bound variables], comparisons into
// conjunctions of rows, connectives into Map operations (negations
// exactly, under the context's budget), existentials by projection.

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

// col returns the column of identifier name, or -1.
func (ev *evaluator) col(sc *scope, name string) int {
	if i := sc.lookup(name); i >= 0 {
		return len(ev.params) + i
	}
	if i, ok := ev.pIndex[name]; ok {
		return i
	}
	return -1
}

// pexpr is a piecewise quasi-affine expression: on the points satisfying
// piece.conds, its value is piece.aff. Rows are over the columns of the
// atom's basic map at the time they were built (padded later).
type pexpr []ppiece

type ppiece struct {
	conds []prow
	aff   []Int
}

type prow struct {
	row []Int
	eq  bool
}

// pad extends row (whose last entry is the constant) to width w.
func pad(row []Int, w int) []Int {
	if len(row) == w {
		return row
	}
	out := make([]Int, w)
	copy(out, row[:len(row)-1])
	out[w-1] = row[len(row)-1]
	return out
}

// combinePieces returns f of every pair of pieces of a and b, on the
// conjunction of their conditions, with rows padded to the width w().
func combinePieces(a, b pexpr, f func(x, y []Int) []Int, w func() int) pexpr {
	var out pexpr
	for _, pa := range a {
		for _, pb := range b {
			n := w()
			conds := append(append([]prow(nil), pa.conds...), pb.conds...)
			out = append(out, ppiece{conds, f(pad(pa.aff, n), pad(pb.aff, n))})
		}
	}
	return out
}

// isConstPiece reports whether p is an unconditional constant.
func isConstPiece(p ppiece) bool { return len(p.conds) == 0 && isZeroRow(p.aff, len(p.aff)-1) }

// evalExpr evaluates the expression e in scope sc into pieces over the
// columns of ab, to which floor divisions add locals.
func (ev *evaluator) evalExpr(e expr, sc *scope, ab *BasicMap) (pexpr, error) {
	switch e := e.(type) {
	case eNum:
		r := make([]Int, ab.NumCols())
		r[len(r)-1] = e.v
		return pexpr{{aff: r}}, nil
	case eVar:
		c := ev.col(sc, e.name)
		if c < 0 {
			return nil, &ParseError{e.at.line, e.at.col, fmt.Sprintf("unknown identifier %q", e.name), CodeUndeclared}
		}
		r := make([]Int, ab.NumCols())
		r[c] = NewInt(1)
		return pexpr{{aff: r}}, nil
	case eNeg:
		x, err := ev.evalExpr(e.e, sc, ab)
		if err != nil {
			return nil, err
		}
		return negPexpr(x), nil
	case eBin:
		return ev.evalBin(e, sc, ab)
	case eCall:
		switch e.fn {
		case "floor", "ceil":
			return ev.evalRounding(e, sc, ab)
		case "min", "max":
			return ev.evalMinMax(e, sc, ab)
		}
	}
	return nil, errors.New("presburger: internal error: unknown expression")
}

// evalBin evaluates a binary expression: a sum, a difference, a product
// with a constant factor, or a remainder by a constant ("/" is only
// allowed inside floor and ceil).
func (ev *evaluator) evalBin(e eBin, sc *scope, ab *BasicMap) (pexpr, error) {
	w := ab.NumCols
	l, err := ev.evalExpr(e.l, sc, ab)
	if err != nil {
		return nil, err
	}
	r, err := ev.evalExpr(e.r, sc, ab)
	if err != nil {
		return nil, err
	}
	switch e.op {
	case "+":
		return combinePieces(l, r, func(x, y []Int) []Int { return addScaled(x, NewInt(1), y) }, w), nil
	case "-":
		return combinePieces(l, r, func(x, y []Int) []Int { return addScaled(x, NewInt(-1), y) }, w), nil
	case "*":
		if len(l) == 1 && isConstPiece(l[0]) {
			return scalePexpr(r, l[0].aff[len(l[0].aff)-1]), nil
		}
		if len(r) == 1 && isConstPiece(r[0]) {
			return scalePexpr(l, r[0].aff[len(r[0].aff)-1]), nil
		}
		return nil, &ParseError{e.at.line, e.at.col, "non-affine multiplication: one factor must be a constant", CodeNotAffine}
	case "/":
		return nil, &ParseError{e.at.line, e.at.col, "division is only allowed as floor(e/c) or ceil(e/c)", CodeNotAffine}
	case "mod":
		c, err := constOf(r, e.at)
		if err != nil {
			return nil, err
		}
		c = c.Abs()
		if c.IsZero() {
			return nil, &ParseError{e.at.line, e.at.col, "modulo by zero", CodeRange}
		}
		q := ev.floorDiv(l, c, ab)
		return combinePieces(l, q, func(x, y []Int) []Int { return addScaled(x, c.Neg(), y) }, w), nil
	}
	return nil, errors.New("presburger: internal error: unknown expression")
}

// evalRounding evaluates floor(n/d) or ceil(n/d) (n alone: d = 1), whose
// divisor d must be a nonzero constant.
func (ev *evaluator) evalRounding(e eCall, sc *scope, ab *BasicMap) (pexpr, error) {
	arg := e.args[0]
	num, den := arg, expr(eNum{NewInt(1)})
	if b, ok := arg.(eBin); ok && b.op == "/" {
		num, den = b.l, b.r
	}
	n, err := ev.evalExpr(num, sc, ab)
	if err != nil {
		return nil, err
	}
	d, err := ev.evalExpr(den, sc, ab)
	if err != nil {
		return nil, err
	}
	c, err := constOf(d, e.at)
	if err != nil {
		return nil, err
	}
	if c.IsZero() {
		return nil, &ParseError{e.at.line, e.at.col, "division by zero", CodeRange}
	}
	if c.Sign() < 0 {
		c = c.Neg()
		n = negPexpr(n)
	}
	if e.fn == "ceil" {
		return negPexpr(ev.floorDiv(negPexpr(n), c, ab)), nil
	}
	return ev.floorDiv(n, c, ab), nil
}

// evalMinMax evaluates min(...) or max(...) of its arguments, pairwise
// from the left.
func (ev *evaluator) evalMinMax(e eCall, sc *scope, ab *BasicMap) (pexpr, error) {
	acc, err := ev.evalExpr(e.args[0], sc, ab)
	if err != nil {
		return nil, err
	}
	for _, a := range e.args[1:] {
		x, err := ev.evalExpr(a, sc, ab)
		if err != nil {
			return nil, err
		}
		acc = minMax(acc, x, e.fn == "min", ab.NumCols)
	}
	return acc, nil
}

// scalePexpr returns x multiplied by the constant k.
func scalePexpr(x pexpr, k Int) pexpr {
	out := make(pexpr, len(x))
	for i, p := range x {
		out[i] = ppiece{p.conds, scaleRow(p.aff, k)}
	}
	return out
}

// negPexpr returns -x.
func negPexpr(x pexpr) pexpr {
	out := make(pexpr, len(x))
	for i, p := range x {
		out[i] = ppiece{p.conds, negRow(p.aff)}
	}
	return out
}

// constOf returns the value of x if it is a constant, or an error at at.
func constOf(x pexpr, at token) (Int, error) {
	if len(x) == 1 && isConstPiece(x[0]) {
		return x[0].aff[len(x[0].aff)-1], nil
	}
	return Int{}, &ParseError{at.line, at.col, "expected a constant divisor", CodeNotAffine}
}

// floorDiv returns floor(x / c) for c > 0, adding one division local per piece.
func (ev *evaluator) floorDiv(x pexpr, c Int, ab *BasicMap) pexpr {
	out := make(pexpr, 0, len(x))
	for _, p := range x {
		if c.IsOne() {
			out = append(out, p)
			continue
		}
		q := ab.AddLocalDiv(pad(p.aff, ab.NumCols()), c)
		r := make([]Int, ab.NumCols())
		r[ab.locCol(q)] = NewInt(1)
		out = append(out, ppiece{p.conds, r})
	}
	return out
}

// minMax returns min(a, b) (or max) as pieces: a where a <= b, b where b < a.
func minMax(a, b pexpr, isMin bool, w func() int) pexpr {
	var out pexpr
	for _, pa := range a {
		for _, pb := range b {
			n := w()
			x, y := pad(pa.aff, n), pad(pb.aff, n)
			d := addScaled(y, NewInt(-1), x) // y - x
			if !isMin {
				d = negRow(d) // x - y
			}
			dd := copyRow(d)
			dd = negRow(dd)
			dd[n-1] = dd[n-1].Sub(NewInt(1)) // strict other way
			base := append(append([]prow(nil), pa.conds...), pb.conds...)
			out = append(out,
				ppiece{append(append([]prow(nil), base...), prow{d, false}), x},
				ppiece{append(append([]prow(nil), base...), prow{dd, false}), y})
		}
	}
	return out
}

// evalCmp evaluates a comparison chain into a Map over the flat space.
func (ev *evaluator) evalCmp(c fCmp, sc *scope) (*Map, error) {
	sp := ev.flatSpace(sc)
	ab := NewBasicMap(sp)
	vals := make([][]pexpr, len(c.lists))
	for i, list := range c.lists {
		for _, e := range list {
			v, err := ev.evalExpr(e, sc, ab)
			if err != nil {
				return nil, err
			}
			vals[i] = append(vals[i], v)
		}
	}
	w := ab.NumCols()
	result := Universe(sp)
	for k, op := range c.ops {
		for _, x := range vals[k] {
			for _, y := range vals[k+1] {
				var bs []*BasicMap
				for _, px := range x {
					for _, py := range y {
						base := ab.Copy()
						for _, cd := range append(append([]prow(nil), px.conds...), py.conds...) {
							if cd.eq {
								base.eqs = append(base.eqs, pad(cd.row, w))
							} else {
								base.ineqs = append(base.ineqs, pad(cd.row, w))
							}
						}
						d := addScaled(pad(py.aff, w), NewInt(-1), pad(px.aff, w)) // y - x
						one := NewInt(1)
						add := func(row []Int, eq bool) {
							b := base.Copy()
							if eq {
								b.eqs = append(b.eqs, row)
							} else {
								b.ineqs = append(b.ineqs, row)
							}
							if b.normalize() {
								bs = append(bs, b)
							}
						}
						switch op {
						case "<=":
							add(d, false)
						case "<":
							dd := copyRow(d)
							dd[w-1] = dd[w-1].Sub(one)
							add(dd, false)
						case ">=":
							add(negRow(d), false)
						case ">":
							dd := negRow(d)
							dd[w-1] = dd[w-1].Sub(one)
							add(dd, false)
						case "=":
							add(d, true)
						case "!=":
							dd := copyRow(d)
							dd[w-1] = dd[w-1].Sub(one)
							add(dd, false)
							de := negRow(d)
							de[w-1] = de[w-1].Sub(one)
							add(de, false)
						}
					}
				}
				var err error
				result, err = result.Intersect(NewMap(sp, bs...))
				if err != nil {
					return nil, err
				}
			}
		}
	}
	return result, nil
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
