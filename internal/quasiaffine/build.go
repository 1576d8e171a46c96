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
// by the existentials in scope: each comparison through the engine's
// builder of quasi-affine constraints (presburger.Builder), connectives
// into the engine's operations, existentials by projection. It only maps
// the nodes of package syntax to the builder's operations.

// evaluator evaluates formulas over the parameters params.
type evaluator struct {
	ctx    context.Context
	params []string
	pIndex map[string]int
}

// flatSpace returns the set space [params | vars], its dimensions unnamed.
func (ev *evaluator) flatSpace(vars []string) presburger.Space {
	return presburger.SetSpace(ev.params, presburger.FlatTuple("", make([]string, len(vars))...))
}

// formula evaluates f over the variables vars.
func (ev *evaluator) formula(f Formula, vars []string) (*presburger.Map, error) {
	sp := ev.flatSpace(vars)
	switch f := f.(type) {
	case truth:
		if f.v {
			return presburger.Universe(sp), nil
		}
		return presburger.Empty(sp), nil
	case constraint:
		return ev.constraint(f.x, vars)
	case and:
		l, r, err := ev.both(f.l, f.r, vars)
		if err != nil {
			return nil, err
		}
		return ev.intersect(l, r)
	case or:
		l, r, err := ev.both(f.l, f.r, vars)
		if err != nil {
			return nil, err
		}
		return l.Union(r)
	case not:
		x, err := ev.formula(f.f, vars)
		if err != nil {
			return nil, err
		}
		return ev.complement(x)
	case chain:
		return ev.chain(f.operands, f.ops, vars)
	case exists:
		inner := append(append([]string(nil), vars...), f.names...)
		x, err := ev.formula(f.body, inner)
		if err != nil {
			return nil, err
		}
		// the projection rewrites every conjunction
		if err := ev.charge(x.NumBasics(), x.NumEntries()); err != nil {
			return nil, fmt.Errorf("existential: %w", err)
		}
		return x.ProjectOut(presburger.DimOut, len(vars), len(f.names))
	}
	return nil, fmt.Errorf("quasiaffine: unknown formula %T", f)
}

// charge counts the steps of building n conjunctions of entries
// entries in all (presburger.BuildSteps) against the budget of the
// evaluator's context, before they are built: the connectives are the
// engine's operations without a context, and a formula's sets grow with
// its comparisons' pieces and divisions.
func (ev *evaluator) charge(n, entries int) error {
	return presburger.Steps(ev.ctx, presburger.BuildSteps(n, entries))
}

// intersect returns l ∩ r, a conjunction per pair of their pieces,
// counted before it is built.
func (ev *evaluator) intersect(l, r *presburger.Map) (*presburger.Map, error) {
	if err := ev.charge(l.NumBasics()*r.NumBasics(), l.NumEntries()*r.NumBasics()+r.NumEntries()*l.NumBasics()); err != nil {
		return nil, fmt.Errorf("conjunction: %w", err)
	}
	return l.Intersect(r)
}

// both evaluates l, then r.
func (ev *evaluator) both(l, r Formula, vars []string) (*presburger.Map, *presburger.Map, error) {
	x, err := ev.formula(l, vars)
	if err != nil {
		return nil, nil, err
	}
	y, err := ev.formula(r, vars)
	if err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

// complement returns the points of m's space not in m, within the budget.
func (ev *evaluator) complement(m *presburger.Map) (*presburger.Map, error) {
	c, err := m.Complement(ev.ctx)
	if err != nil {
		return nil, fmt.Errorf("negation: %w", err)
	}
	return c, nil
}

// constraint evaluates the syntax constraint x. A chain is the conjunction
// of its comparisons, x != y the negation of x == y.
func (ev *evaluator) constraint(x syntax.Expr, vars []string) (*presburger.Map, error) {
	sp := ev.flatSpace(vars)
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
			m, err := ev.constraint(x.X, vars)
			if err != nil {
				return nil, err
			}
			return ev.complement(m)
		}
	case *syntax.Binary:
		switch x.Op {
		case syntax.OpAnd, syntax.OpOr:
			l, err := ev.constraint(x.X, vars)
			if err != nil {
				return nil, err
			}
			r, err := ev.constraint(x.Y, vars)
			if err != nil {
				return nil, err
			}
			if x.Op == syntax.OpAnd {
				return ev.intersect(l, r)
			}
			return l.Union(r)
		case syntax.OpNe:
			m, err := ev.compare(x.X, syntax.OpEq, x.Y, vars)
			if err != nil {
				return nil, err
			}
			return ev.complement(m)
		case syntax.OpEq, syntax.OpLt, syntax.OpLe, syntax.OpGt, syntax.OpGe:
			return ev.compare(x.X, x.Op, x.Y, vars)
		}
	case *syntax.Chain:
		var out *presburger.Map
		for _, c := range x.Comparisons() {
			m, err := ev.constraint(c, vars)
			if err != nil {
				return nil, err
			}
			if out == nil {
				out = m
			} else if out, err = ev.intersect(out, m); err != nil {
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
func (ev *evaluator) compare(x syntax.Expr, op syntax.Op, y syntax.Expr, vars []string) (*presburger.Map, error) {
	return ev.chain([]syntax.Expr{x, y}, []syntax.Op{op}, vars)
}

// cmps maps the comparisons of package syntax to the engine's.
var cmps = map[syntax.Op]presburger.Cmp{
	syntax.OpLe: presburger.CmpLE, syntax.OpLt: presburger.CmpLT,
	syntax.OpGe: presburger.CmpGE, syntax.OpGt: presburger.CmpGT,
	syntax.OpEq: presburger.CmpEQ, syntax.OpNe: presburger.CmpNE,
}

// chain evaluates the comparisons operands[k] ops[k] operands[k+1] with
// one builder, whose conjunction holds the divisions of every operand
// (presburger.Builder.Chain).
func (ev *evaluator) chain(operands []syntax.Expr, ops []syntax.Op, vars []string) (*presburger.Map, error) {
	if len(operands) != len(ops)+1 {
		return nil, fmt.Errorf("quasiaffine: a chain of %d comparisons with %d operands", len(ops), len(operands))
	}
	qb := presburger.NewBuilderContext(ev.ctx, ev.flatSpace(vars))
	vals := make([][]presburger.QuasiAff, len(operands))
	for i, x := range operands {
		v, err := ev.expr(x, vars, qb)
		if err != nil {
			return nil, err
		}
		if err := qb.Err(); err != nil {
			return nil, err
		}
		vals[i] = []presburger.QuasiAff{v}
	}
	for k := range ops {
		// one conjunction per pair of pieces of the compared values
		if err := presburger.CheckDisjuncts(ev.ctx, vals[k][0].NumPieces()*vals[k+1][0].NumPieces()); err != nil {
			return nil, fmt.Errorf("comparison of piecewise values: %w", err)
		}
	}
	cmp := make([]presburger.Cmp, len(ops))
	for i, op := range ops {
		c, ok := cmps[op]
		if !ok {
			return nil, fmt.Errorf("quasiaffine: %s is not a comparison", op)
		}
		cmp[i] = c
	}
	return qb.Chain(vals, cmp)
}

// expr evaluates the index expression x with qb, whose conjunction
// divisions extend with locals.
func (ev *evaluator) expr(x syntax.Expr, vars []string, qb *presburger.Builder) (presburger.QuasiAff, error) {
	switch x := x.(type) {
	case *syntax.Lit:
		if x.Kind != syntax.IntLiteral {
			break
		}
		v, err := strconv.ParseInt(x.Text, 0, 64)
		if err != nil {
			return presburger.QuasiAff{}, &NotAffineError{X: x, Why: err.Error()}
		}
		return qb.Const(presburger.NewInt(v)), nil
	case *syntax.Ident:
		for i := len(vars) - 1; i >= 0; i-- {
			if vars[i] == x.Name {
				return qb.Dim(presburger.DimOut, i), nil
			}
		}
		if i, ok := ev.pIndex[x.Name]; ok {
			return qb.Dim(presburger.DimParam, i), nil
		}
		return presburger.QuasiAff{}, fmt.Errorf("unknown name %s", x.Name)
	case *syntax.Unary:
		if x.Op != syntax.OpNeg {
			break
		}
		e, err := ev.expr(x.X, vars, qb)
		if err != nil {
			return presburger.QuasiAff{}, err
		}
		return qb.Scale(e, presburger.NewInt(-1)), nil
	case *syntax.Binary:
		switch x.Op {
		case syntax.OpAdd, syntax.OpSub, syntax.OpMul, syntax.OpRem, syntax.OpDiv:
			return ev.arith(x, vars, qb)
		}
	case *syntax.Call:
		if (x.Fun.Name == "min" || x.Fun.Name == "max") && len(x.Args) == 2 {
			l, err := ev.expr(x.Args[0], vars, qb)
			if err != nil {
				return presburger.QuasiAff{}, err
			}
			r, err := ev.expr(x.Args[1], vars, qb)
			if err != nil {
				return presburger.QuasiAff{}, err
			}
			if err := qb.Err(); err != nil {
				return presburger.QuasiAff{}, err
			}
			// min and max double the pieces of every pair of their
			// operands' pieces: bounded before they are built
			if err := presburger.CheckDisjuncts(ev.ctx, 2*l.NumPieces()*r.NumPieces()); err != nil {
				return presburger.QuasiAff{}, fmt.Errorf("%s: %w", x.Fun.Name, err)
			}
			if x.Fun.Name == "min" {
				return qb.Min(l, r), nil
			}
			return qb.Max(l, r), nil
		}
	}
	if err := Check(x); err != nil {
		return presburger.QuasiAff{}, err
	}
	return presburger.QuasiAff{}, &NotAffineError{X: x, Why: "not an index expression"}
}

// arith evaluates a sum, a difference, a product with a constant factor,
// a floor division by a nonzero constant, or the remainder of one
// (x - c * floor(x / c), in [0, |c|)).
func (ev *evaluator) arith(x *syntax.Binary, vars []string, qb *presburger.Builder) (presburger.QuasiAff, error) {
	l, err := ev.expr(x.X, vars, qb)
	if err != nil {
		return presburger.QuasiAff{}, err
	}
	r, err := ev.expr(x.Y, vars, qb)
	if err != nil {
		return presburger.QuasiAff{}, err
	}
	// the builder stopped at its budget: its values are empty
	if err := qb.Err(); err != nil {
		return presburger.QuasiAff{}, err
	}
	if err := presburger.CheckDisjuncts(ev.ctx, l.NumPieces()*r.NumPieces()); err != nil {
		return presburger.QuasiAff{}, fmt.Errorf("%s: %w", x.Op, err)
	}
	switch x.Op {
	case syntax.OpAdd:
		return qb.Add(l, r), nil
	case syntax.OpSub:
		return qb.Sub(l, r), nil
	case syntax.OpMul:
		if k, ok := l.Constant(); ok {
			return qb.Scale(r, k), nil
		}
		if k, ok := r.Constant(); ok {
			return qb.Scale(l, k), nil
		}
		return presburger.QuasiAff{}, &NotAffineError{X: x, Why: "neither factor is a constant"}
	}
	k, ok := r.Constant()
	if !ok {
		return presburger.QuasiAff{}, &NotAffineError{X: x, Why: "the divisor is not a constant"}
	}
	if x.Op == syntax.OpRem {
		if k = k.Abs(); k.IsZero() {
			return presburger.QuasiAff{}, &NotAffineError{X: x, Why: "remainder of a division by zero"}
		}
		return qb.Mod(l, k), nil
	}
	if k.IsZero() {
		return presburger.QuasiAff{}, &NotAffineError{X: x, Why: "division by zero"}
	}
	if k.Sign() < 0 {
		k, l = k.Neg(), qb.Scale(l, presburger.NewInt(-1))
	}
	return qb.FloorDiv(l, k), nil
}
