package quasiaffine

import (
	"context"
	"fmt"
	"strconv"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// This file evaluates formulas into Maps over a flat set space
// [params | variables], the variables being the set's dimensions followed
// by the existentials in scope: comparisons into conjunctions of rows,
// connectives into the engine's operations, existentials by projection.

// builder evaluates formulas over the parameters params.
type builder struct {
	ctx    context.Context
	params []string
	pIndex map[string]int
}

// flatSpace returns the set space [params | vars], its dimensions unnamed.
func (b *builder) flatSpace(vars []string) presburger.Space {
	return presburger.SetSpace(b.params, presburger.FlatTuple("", make([]string, len(vars))...))
}

// col returns the column of the name in rows of ab, whose dimensions are
// the variables vars: the innermost variable of that name, else the
// parameter; -1 when there is neither.
func (b *builder) col(ab *presburger.BasicMap, vars []string, name string) int {
	for i := len(vars) - 1; i >= 0; i-- {
		if vars[i] == name {
			return ab.Col(presburger.DimOut, i)
		}
	}
	if i, ok := b.pIndex[name]; ok {
		return ab.Col(presburger.DimParam, i)
	}
	return -1
}

// formula evaluates f over the variables vars.
func (b *builder) formula(f Formula, vars []string) (*presburger.Map, error) {
	sp := b.flatSpace(vars)
	switch f := f.(type) {
	case truth:
		if f.v {
			return presburger.Universe(sp), nil
		}
		return presburger.Empty(sp), nil
	case constraint:
		return b.constraint(f.x, vars)
	case and:
		l, r, err := b.both(f.l, f.r, vars)
		if err != nil {
			return nil, err
		}
		return l.Intersect(r)
	case or:
		l, r, err := b.both(f.l, f.r, vars)
		if err != nil {
			return nil, err
		}
		return l.Union(r)
	case not:
		x, err := b.formula(f.f, vars)
		if err != nil {
			return nil, err
		}
		return b.complement(x)
	case chain:
		return b.chain(f.operands, f.ops, vars)
	case exists:
		inner := append(append([]string(nil), vars...), f.names...)
		x, err := b.formula(f.body, inner)
		if err != nil {
			return nil, err
		}
		return x.ProjectOut(presburger.DimOut, len(vars), len(f.names))
	}
	return nil, fmt.Errorf("quasiaffine: unknown formula %T", f)
}

// both evaluates l, then r.
func (b *builder) both(l, r Formula, vars []string) (*presburger.Map, *presburger.Map, error) {
	x, err := b.formula(l, vars)
	if err != nil {
		return nil, nil, err
	}
	y, err := b.formula(r, vars)
	if err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

// complement returns the points of m's space not in m, within the budget.
func (b *builder) complement(m *presburger.Map) (*presburger.Map, error) {
	c, err := m.Complement(b.ctx)
	if err != nil {
		return nil, fmt.Errorf("negation: %w", err)
	}
	return c, nil
}

// constraint evaluates the syntax constraint x. A chain is the conjunction
// of its comparisons, x != y the negation of x == y.
func (b *builder) constraint(x syntax.Expr, vars []string) (*presburger.Map, error) {
	sp := b.flatSpace(vars)
	switch x := x.(type) {
	case *syntax.Lit:
		if x.Kind == syntax.BoolLiteral {
			if x.Text == "true" {
				return presburger.Universe(sp), nil
			}
			return presburger.Empty(sp), nil
		}
	case *syntax.Unary:
		if x.Op == syntax.OpNot {
			m, err := b.constraint(x.X, vars)
			if err != nil {
				return nil, err
			}
			return b.complement(m)
		}
	case *syntax.Binary:
		switch x.Op {
		case syntax.OpAnd, syntax.OpOr:
			l, err := b.constraint(x.X, vars)
			if err != nil {
				return nil, err
			}
			r, err := b.constraint(x.Y, vars)
			if err != nil {
				return nil, err
			}
			if x.Op == syntax.OpAnd {
				return l.Intersect(r)
			}
			return l.Union(r)
		case syntax.OpNe:
			m, err := b.compare(x.X, syntax.OpEq, x.Y, vars)
			if err != nil {
				return nil, err
			}
			return b.complement(m)
		case syntax.OpEq, syntax.OpLt, syntax.OpLe, syntax.OpGt, syntax.OpGe:
			return b.compare(x.X, x.Op, x.Y, vars)
		}
	case *syntax.Chain:
		var out *presburger.Map
		for _, c := range x.Comparisons() {
			m, err := b.constraint(c, vars)
			if err != nil {
				return nil, err
			}
			if out == nil {
				out = m
			} else if out, err = out.Intersect(m); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	if err := Check(x); err != nil {
		return nil, err
	}
	return nil, &NotAffineError{X: x, Why: "not a constraint"}
}

// compare evaluates x op y, a comparison of two expressions.
func (b *builder) compare(x syntax.Expr, op syntax.Op, y syntax.Expr, vars []string) (*presburger.Map, error) {
	return b.chain([]syntax.Expr{x, y}, []syntax.Op{op}, vars)
}

// chain evaluates the comparisons operands[k] ops[k] operands[k+1] over
// one basic map holding the divisions of every operand: for each
// comparison, the union over every pair of pieces of its two sides of the
// conjunction of the pieces' conditions and of the comparison of their
// values; the comparisons intersected in order.
func (b *builder) chain(operands []syntax.Expr, ops []syntax.Op, vars []string) (*presburger.Map, error) {
	if len(operands) != len(ops)+1 {
		return nil, fmt.Errorf("quasiaffine: a chain of %d comparisons with %d operands", len(ops), len(operands))
	}
	sp := b.flatSpace(vars)
	ab := presburger.NewBasicMap(sp)
	vals := make([]pieces, len(operands))
	for i, x := range operands {
		v, err := b.expr(x, vars, ab)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	w := ab.NumCols()
	cc := ab.ConstCol()
	result := presburger.Universe(sp)
	for k, op := range ops {
		var bs []*presburger.BasicMap
		for _, p := range vals[k] {
			for _, q := range vals[k+1] {
				base := ab.Copy()
				for _, c := range append(append([]cond(nil), p.conds...), q.conds...) {
					addCond(base, pad(c.row, w), c.eq)
				}
				d := addScaled(pad(q.aff, w), presburger.NewInt(-1), pad(p.aff, w)) // right - left
				add := func(row []presburger.Int, eq bool) {
					c := base.Copy()
					addCond(c, row, eq)
					bs = append(bs, normalized(sp, c)...)
				}
				switch op {
				case syntax.OpLe:
					add(d, false)
				case syntax.OpLt:
					add(minusOne(d, cc), false)
				case syntax.OpGe:
					add(negRow(d), false)
				case syntax.OpGt:
					add(minusOne(negRow(d), cc), false)
				case syntax.OpEq:
					add(d, true)
				case syntax.OpNe:
					add(minusOne(d, cc), false)
					add(minusOne(negRow(d), cc), false)
				default:
					return nil, fmt.Errorf("quasiaffine: %s is not a comparison", op)
				}
			}
		}
		var err error
		if result, err = result.Intersect(presburger.NewMap(sp, bs...)); err != nil {
			return nil, err
		}
	}
	return result, nil
}

// normalized returns c normalised as the engine's intersection normalises
// every piece (rows reduced, duplicates and unused locals dropped), or no
// piece when that finds c empty.
func normalized(sp presburger.Space, c *presburger.BasicMap) []*presburger.BasicMap {
	m, err := presburger.Universe(sp).Intersect(presburger.NewMap(sp, c))
	if err != nil {
		return []*presburger.BasicMap{c} // same space: cannot happen
	}
	return m.Basics()
}

// addCond adds row >= 0, or row = 0 when eq, to c.
func addCond(c *presburger.BasicMap, row []presburger.Int, eq bool) {
	if eq {
		c.AddEq(row)
	} else {
		c.AddIneq(row)
	}
}

// minusOne returns row with 1 subtracted from its constant (column cc):
// a strict inequality.
func minusOne(row []presburger.Int, cc int) []presburger.Int {
	out := append([]presburger.Int(nil), row...)
	out[cc] = out[cc].Sub(presburger.NewInt(1))
	return out
}

// pieces is a piecewise quasi-affine expression: on the points satisfying
// a piece's conditions, its value is the piece's row. Rows are over the
// columns of the comparison's basic map at the time they were built, and
// padded (zero locals inserted before the constant) when used.
type pieces []piece

type piece struct {
	conds []cond
	aff   []presburger.Int
}

// cond is row >= 0, or row = 0 when eq.
type cond struct {
	row []presburger.Int
	eq  bool
}

// expr evaluates the index expression x into pieces over the columns of
// ab, to which divisions add locals.
func (b *builder) expr(x syntax.Expr, vars []string, ab *presburger.BasicMap) (pieces, error) {
	switch x := x.(type) {
	case *syntax.Lit:
		if x.Kind != syntax.IntLiteral {
			break
		}
		v, err := strconv.ParseInt(x.Text, 0, 64)
		if err != nil {
			return nil, &NotAffineError{X: x, Why: err.Error()}
		}
		r := ab.NewRow()
		r[ab.ConstCol()] = presburger.NewInt(v)
		return pieces{{aff: r}}, nil
	case *syntax.Ident:
		c := b.col(ab, vars, x.Name)
		if c < 0 {
			return nil, fmt.Errorf("unknown name %s", x.Name)
		}
		r := ab.NewRow()
		r[c] = presburger.NewInt(1)
		return pieces{{aff: r}}, nil
	case *syntax.Unary:
		if x.Op != syntax.OpNeg {
			break
		}
		e, err := b.expr(x.X, vars, ab)
		if err != nil {
			return nil, err
		}
		return e.scale(presburger.NewInt(-1)), nil
	case *syntax.Binary:
		switch x.Op {
		case syntax.OpAdd, syntax.OpSub, syntax.OpMul, syntax.OpRem:
			return b.arith(x, vars, ab)
		case syntax.OpDiv:
			return b.div(x, vars, ab)
		}
	case *syntax.Call:
		if (x.Fun.Name == "min" || x.Fun.Name == "max") && len(x.Args) == 2 {
			l, err := b.expr(x.Args[0], vars, ab)
			if err != nil {
				return nil, err
			}
			r, err := b.expr(x.Args[1], vars, ab)
			if err != nil {
				return nil, err
			}
			return minMax(l, r, x.Fun.Name == "min", ab.NumCols), nil
		}
	}
	if err := Check(x); err != nil {
		return nil, err
	}
	return nil, &NotAffineError{X: x, Why: "not an index expression"}
}

// arith evaluates a sum, a difference, a product with a constant factor,
// or a remainder by a nonzero constant (of floor division: x - c * floor(x / c),
// in [0, |c|)).
func (b *builder) arith(x *syntax.Binary, vars []string, ab *presburger.BasicMap) (pieces, error) {
	w := ab.NumCols
	l, err := b.expr(x.X, vars, ab)
	if err != nil {
		return nil, err
	}
	r, err := b.expr(x.Y, vars, ab)
	if err != nil {
		return nil, err
	}
	one := presburger.NewInt(1)
	switch x.Op {
	case syntax.OpAdd:
		return combine(l, r, func(a, c []presburger.Int) []presburger.Int { return addScaled(a, one, c) }, w), nil
	case syntax.OpSub:
		return combine(l, r, func(a, c []presburger.Int) []presburger.Int { return addScaled(a, one.Neg(), c) }, w), nil
	case syntax.OpMul:
		if k, ok := l.constant(); ok {
			return r.scale(k), nil
		}
		if k, ok := r.constant(); ok {
			return l.scale(k), nil
		}
		return nil, &NotAffineError{X: x, Why: "neither factor is a constant"}
	}
	// OpRem
	k, ok := r.constant()
	if !ok {
		return nil, &NotAffineError{X: x, Why: "the divisor is not a constant"}
	}
	k = k.Abs()
	if k.IsZero() {
		return nil, &NotAffineError{X: x, Why: "remainder of a division by zero"}
	}
	q := floorDiv(l, k, ab)
	return combine(l, q, func(a, c []presburger.Int) []presburger.Int { return addScaled(a, k.Neg(), c) }, w), nil
}

// div evaluates the floor division x.X / x.Y by a nonzero constant.
func (b *builder) div(x *syntax.Binary, vars []string, ab *presburger.BasicMap) (pieces, error) {
	n, err := b.expr(x.X, vars, ab)
	if err != nil {
		return nil, err
	}
	d, err := b.expr(x.Y, vars, ab)
	if err != nil {
		return nil, err
	}
	k, ok := d.constant()
	if !ok {
		return nil, &NotAffineError{X: x, Why: "the divisor is not a constant"}
	}
	if k.IsZero() {
		return nil, &NotAffineError{X: x, Why: "division by zero"}
	}
	if k.Sign() < 0 {
		k, n = k.Neg(), n.scale(presburger.NewInt(-1))
	}
	return floorDiv(n, k, ab), nil
}

// constant returns the value of e when it is an unconditional constant.
func (e pieces) constant() (presburger.Int, bool) {
	if len(e) != 1 || len(e[0].conds) != 0 {
		return presburger.Int{}, false
	}
	r := e[0].aff
	for _, v := range r[:len(r)-1] {
		if !v.IsZero() {
			return presburger.Int{}, false
		}
	}
	return r[len(r)-1], true
}

// scale returns e multiplied by k.
func (e pieces) scale(k presburger.Int) pieces {
	out := make(pieces, len(e))
	for i, p := range e {
		r := make([]presburger.Int, len(p.aff))
		for j, v := range p.aff {
			r[j] = v.Mul(k)
		}
		out[i] = piece{p.conds, r}
	}
	return out
}

// combine returns f of every pair of pieces of a and c, on the
// conjunction of their conditions, with rows padded to the width w().
func combine(a, c pieces, f func(x, y []presburger.Int) []presburger.Int, w func() int) pieces {
	var out pieces
	for _, pa := range a {
		for _, pc := range c {
			n := w()
			conds := append(append([]cond(nil), pa.conds...), pc.conds...)
			out = append(out, piece{conds, f(pad(pa.aff, n), pad(pc.aff, n))})
		}
	}
	return out
}

// floorDiv returns floor(e / k) for k > 0, adding to ab one division
// local per piece.
func floorDiv(e pieces, k presburger.Int, ab *presburger.BasicMap) pieces {
	out := make(pieces, 0, len(e))
	for _, p := range e {
		if k.IsOne() {
			out = append(out, p)
			continue
		}
		q := ab.AddLocalDiv(pad(p.aff, ab.NumCols()), k)
		r := ab.NewRow()
		r[ab.LocalCol(q)] = presburger.NewInt(1)
		out = append(out, piece{p.conds, r})
	}
	return out
}

// minMax returns min(a, c) (or max) as pieces: a where a <= c (a >= c
// for max), c where c < a (c > a).
func minMax(a, c pieces, isMin bool, w func() int) pieces {
	var out pieces
	for _, pa := range a {
		for _, pc := range c {
			n := w()
			x, y := pad(pa.aff, n), pad(pc.aff, n)
			d := addScaled(y, presburger.NewInt(-1), x) // y - x
			if !isMin {
				d = negRow(d) // x - y
			}
			strict := minusOne(negRow(d), n-1)
			base := append(append([]cond(nil), pa.conds...), pc.conds...)
			out = append(out,
				piece{append(append([]cond(nil), base...), cond{d, false}), x},
				piece{append(append([]cond(nil), base...), cond{strict, false}), y})
		}
	}
	return out
}

// pad extends row, whose last entry is the constant, to width w: the
// columns of locals added since it was built are zero.
func pad(row []presburger.Int, w int) []presburger.Int {
	if len(row) == w {
		return row
	}
	out := make([]presburger.Int, w)
	copy(out, row[:len(row)-1])
	out[w-1] = row[len(row)-1]
	return out
}

// addScaled returns a + k * c.
func addScaled(a []presburger.Int, k presburger.Int, c []presburger.Int) []presburger.Int {
	out := make([]presburger.Int, len(a))
	for i := range a {
		if c[i].IsZero() {
			out[i] = a[i]
		} else {
			out[i] = a[i].Add(k.Mul(c[i]))
		}
	}
	return out
}

// negRow returns -r.
func negRow(r []presburger.Int) []presburger.Int {
	out := make([]presburger.Int, len(r))
	for i, v := range r {
		out[i] = v.Neg()
	}
	return out
}
