package sare

import (
	"context"
	"fmt"
	"strings"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// This file is the specification side of reductions (Clément 2022,
// Section 7.4): an equation whose right-hand side is
//
//	reduce(OP, k in LO .. HI, ..., [where COND,] BODY)
//
// folds OP over the body evaluated at every point of the reduction domain,
// in lexicographic order, starting from OP's identity.

// Reduction is the right-hand side of a reduction equation:
//
//	reduce(OP, k1 in lo1 .. hi1, ..., kn in lon .. hin [where Cond], Body)
//
// The domain is the points (k1, ..., kn) with loi <= ki < hii (bounds
// quasi-affine in the equation's variables, the parameters and the
// earlier ki) satisfying Cond; the value folds Op over Body at those
// points in lexicographic order, from Op's identity (so an empty domain
// gives the identity). The equation's RHS is the Body.
type Reduction struct {
	Pos   syntax.Pos // the word reduce
	Op    expr.ReduceOp
	OpPos syntax.Pos
	Vars  []*syntax.Ident
	Los   []syntax.Expr
	His   []syntax.Expr
	Cond  syntax.Expr // nil: no where clause
}

// reductionEqual reports whether a and b are the same reduction header.
func reductionEqual(a, b *Reduction) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Op != b.Op || !identsEqual(a.Vars, b.Vars) || len(a.Los) != len(b.Los) || len(a.His) != len(b.His) ||
		!syntax.Equal(a.Cond, b.Cond) {
		return false
	}
	for i := range a.Los {
		if !syntax.Equal(a.Los[i], b.Los[i]) || !syntax.Equal(a.His[i], b.His[i]) {
			return false
		}
	}
	return true
}

// Reduction returns the reduction of the tensor's equations, or nil when
// it is not a reduction tensor. Check allows a reduction only as the one
// equation of its tensor.
func (t *Tensor) Reduction() *Equation {
	for _, eq := range t.Eqs {
		if eq.Reduce != nil {
			return eq
		}
	}
	return nil
}

// ReductionOp returns the operator of the reduction tensor declared with
// the given name (as Tensor finds it) and the number of variables it
// reduces over; ok is false when there is no such reduction tensor.
func (s *Spec) ReductionOp(name string) (op expr.ReduceOp, vars int, ok bool) {
	t := s.Tensor(name)
	if t == nil {
		return expr.NoReduce, 0, false
	}
	eq := t.Reduction()
	if eq == nil {
		return expr.NoReduce, 0, false
	}
	return eq.Reduce.Op, len(eq.Reduce.Vars), true
}

// HasReductions reports whether some equation of spec is a reduction.
func (s *Spec) HasReductions() bool {
	for _, t := range s.Tensors {
		if t.Reduction() != nil {
			return true
		}
	}
	return false
}

// atReduce reports whether the parser is at `reduce(OP,`.
func (p *parser) atReduce() bool {
	t := p.Tok()
	if t.Kind != syntax.Name || t.Text != "reduce" || p.Peek(1).Kind != syntax.LParen {
		return false
	}
	_, ok := expr.ReduceOpAt(p.Peek(2), p.Peek(3), syntax.Comma)
	return ok
}

// reduction parses `reduce(OP, ranges [where c], body)` and returns the
// header and the body.
func (p *parser) reduction() (*Reduction, syntax.Expr) {
	r := &Reduction{Pos: p.Next().Pos}
	p.Next() // (
	opTok := p.Next()
	r.Op, _ = expr.ReduceOpAt(opTok, p.Tok(), syntax.Comma)
	r.OpPos = opTok.Pos
	p.Next() // ,
	p.SkipNewlines()
	for {
		t := p.Tok()
		if t.Kind != syntax.Name || p.Peek(1).Kind != syntax.Name || p.Peek(1).Text != "in" {
			break
		}
		p.Next()
		p.Next()
		r.Vars = append(r.Vars, &syntax.Ident{NamePos: t.Pos, Name: t.Text})
		r.Los = append(r.Los, p.ParseExpr())
		if !p.Expect(syntax.DotDot) {
			return nil, nil
		}
		r.His = append(r.His, p.ParseExpr())
		if p.AtKeyword("where") {
			p.Next()
			r.Cond = p.ParseExpr()
			if !p.Expect(syntax.Comma) {
				return nil, nil
			}
			p.SkipNewlines()
			break
		}
		if !p.Expect(syntax.Comma) {
			return nil, nil
		}
		p.SkipNewlines()
	}
	if len(r.Vars) == 0 {
		p.ErrorExpected("a reduction variable ('k in lo .. hi')")
		return nil, nil
	}
	body := p.ParseExpr()
	p.SkipNewlines()
	if !p.Expect(syntax.RParen) {
		return nil, nil
	}
	return r, body
}

// writeReduction prints the equation's right-hand side in reduce form.
func writeReduction(b *strings.Builder, eq *Equation) {
	r := eq.Reduce
	b.WriteString("reduce(")
	b.WriteString(r.Op.String())
	for i, v := range r.Vars {
		b.WriteString(", ")
		b.WriteString(v.Name)
		b.WriteString(" in ")
		syntax.WriteExpr(b, r.Los[i])
		b.WriteString(" .. ")
		syntax.WriteExpr(b, r.His[i])
	}
	if r.Cond != nil {
		b.WriteString(" where ")
		syntax.WriteExpr(b, r.Cond)
	}
	b.WriteString(", ")
	syntax.WriteExpr(b, eq.RHS)
	b.WriteByte(')')
}

// checkReduction checks a reduction equation: its operator applies to the
// tensor's type, its variables are fresh, its bounds and condition are
// quasi-affine and its body has the tensor's type.
func (c *checker) checkReduction(t *Tensor, eq *Equation, vars map[string]bool, tensors map[string]*Tensor) {
	r := eq.Reduce
	if len(t.Eqs) != 1 {
		c.errorf(r.Pos, syntax.CodeDefinition, "a reduction must be the only equation of its tensor %s", t.Name.Name)
	}
	if t.Type != syntax.Invalid && !r.Op.AppliesTo(t.Type) {
		c.errorf(r.OpPos, syntax.CodeType, "reduction operator %s does not apply to %s", r.Op, t.Type)
	}
	inner := map[string]bool{}
	for k := range vars {
		inner[k] = true
	}
	for i, v := range r.Vars {
		ec := c.exprChecker(inner)
		ec.Index(r.Los[i])
		ec.Index(r.His[i])
		if c.name(v, "reduction variable") {
			switch {
			case inner[v.Name]:
				c.errorf(v.Pos(), syntax.CodeRedeclared, "reduction variable %s is already a variable of the equation", v.Name)
			case c.spec.IsParam(v.Name):
				c.errorf(v.Pos(), syntax.CodeRedeclared, "reduction variable %s has the name of a parameter", v.Name)
			case tensors[v.Name] != nil:
				c.errorf(v.Pos(), syntax.CodeRedeclared, "reduction variable %s has the name of a tensor", v.Name)
			}
		}
		inner[v.Name] = true
	}
	ec := c.exprChecker(inner)
	if r.Cond != nil {
		ec.Constraint(r.Cond)
	}
	if eq.RHS != nil && t.Type != syntax.Invalid {
		ec.Value(eq.RHS, t.Type)
	}
}

// ForEachPoint calls f on every point of the reduction's domain, in
// lexicographic order, with env giving the values of the equation's
// variables and the parameters. The slice passed to f is reused.
func (r *Reduction) ForEachPoint(env expr.Env, f func(pt []int64) error) error {
	ext := &extEnv{parent: env, vars: r.Vars, vals: make([]int64, len(r.Vars))}
	var rec func(d int) error
	rec = func(d int) error {
		if d == len(r.Vars) {
			if r.Cond != nil {
				ext.n = d
				ok, err := expr.EvalCond(r.Cond, ext)
				if err != nil || !ok {
					return err
				}
			}
			return f(ext.vals)
		}
		ext.n = d
		lo, err := expr.EvalIndex(r.Los[d], ext)
		if err != nil {
			return err
		}
		hi, err := expr.EvalIndex(r.His[d], ext)
		if err != nil {
			return err
		}
		for k := lo; k < hi; k++ {
			ext.vals[d] = k
			if err := rec(d + 1); err != nil {
				return err
			}
			ext.n = d
		}
		return nil
	}
	return rec(0)
}

// Contains reports whether pt is in the reduction's domain.
func (r *Reduction) Contains(env expr.Env, pt []int64) (bool, error) {
	if len(pt) != len(r.Vars) {
		return false, nil
	}
	ext := &extEnv{parent: env, vars: r.Vars, vals: append([]int64(nil), pt...)}
	for d := range r.Vars {
		ext.n = d
		lo, err := expr.EvalIndex(r.Los[d], ext)
		if err != nil {
			return false, err
		}
		hi, err := expr.EvalIndex(r.His[d], ext)
		if err != nil {
			return false, err
		}
		if pt[d] < lo || pt[d] >= hi {
			return false, nil
		}
	}
	if r.Cond == nil {
		return true, nil
	}
	ext.n = len(r.Vars)
	return expr.EvalCond(r.Cond, ext)
}

// BodyEnv returns an environment binding the reduction variables to pt on
// top of env, for evaluating the body.
func (r *Reduction) BodyEnv(env expr.Env, pt []int64) expr.Env {
	return &extEnv{parent: env, vars: r.Vars, vals: pt, n: len(pt)}
}

// extEnv binds the first n reduction variables on top of a parent
// environment.
type extEnv struct {
	parent expr.Env
	vars   []*syntax.Ident
	vals   []int64
	n      int
}

func (e *extEnv) Index(name string) (int64, bool) {
	for i := e.n - 1; i >= 0; i-- {
		if e.vars[i].Name == name {
			return e.vals[i], true
		}
	}
	return e.parent.Index(name)
}
func (e *extEnv) Tensor(name string, idx []int64) (value.Value, error) {
	return e.parent.Tensor(name, idx)
}
func (e *extEnv) Array(name string, idx []int64) (value.Value, error) {
	return e.parent.Array(name, idx)
}

// evalReduction folds the reduction at the frame's point; in probe mode
// the elements still missing are recorded by env.
func (e *Evaluator) evalReduction(eq *Equation, t *Tensor, env *pointEnv) (value.Value, error) {
	r := eq.Reduce
	acc := r.Op.Identity(t.Type)
	err := r.ForEachPoint(env, func(pt []int64) error {
		v, err := expr.EvalValue(eq.RHS, e.info, r.BodyEnv(env, pt))
		if err != nil {
			return err
		}
		if len(env.missing) > 0 {
			return nil
		}
		acc, err = r.Op.Apply(acc, v)
		return err
	})
	return acc, err
}

// reductionEnv binds the equation's variables to x on top of the
// evaluator's environment.
type reductionEnv struct {
	expr.Env
	vars []*syntax.Ident
	vals []int64
}

func (e *reductionEnv) Index(name string) (int64, bool) {
	for i, v := range e.vars {
		if v.Name == name && i < len(e.vals) {
			return e.vals[i], true
		}
	}
	return e.Env.Index(name)
}

// reductionOf returns the reduction equation of the tensor called name
// and an environment for its element x; ok is false when the tensor is
// not a reduction or x is outside the equation's where clause.
func (e *Evaluator) reductionOf(ctx context.Context, name string, x []int64) (*Equation, expr.Env, bool, error) {
	t := e.tensors[name]
	if t == nil {
		return nil, nil, false, fmt.Errorf("no tensor %s", name)
	}
	eq := t.Reduction()
	if eq == nil || len(x) != t.Rank() {
		return nil, nil, false, fmt.Errorf("%s is not a reduction of rank %d", name, len(x))
	}
	env := &reductionEnv{Env: e.Env(ctx), vars: eq.Vars, vals: x}
	if eq.Where != nil {
		ok, err := expr.EvalCond(eq.Where, env)
		if err != nil || !ok {
			return eq, env, false, err
		}
	}
	return eq, env, true, nil
}

// ReductionBody evaluates the body of the reduction tensor called name,
// for its element x, at position pt: the value an accumulation at pt
// must add. inDomain is false (and v undefined) when x is not a defined
// element or pt is outside its reduction's domain.
func (e *Evaluator) ReductionBody(ctx context.Context, name string, x, pt []int64) (v value.Value, inDomain bool, err error) {
	eq, env, ok, err := e.reductionOf(ctx, name, x)
	if err != nil || !ok {
		return value.Value{}, false, err
	}
	if ok, err = eq.Reduce.Contains(env, pt); err != nil || !ok {
		return value.Value{}, false, err
	}
	v, err = expr.EvalValue(eq.RHS, e.info, eq.Reduce.BodyEnv(env, pt))
	return v, true, err
}

// ReductionDomain returns the positions of the reduction of element x of
// the reduction tensor called name, in lexicographic order; nil when x
// is not a defined element. At most MaxPoints positions are listed.
func (e *Evaluator) ReductionDomain(ctx context.Context, name string, x []int64) ([][]int64, error) {
	eq, env, ok, err := e.reductionOf(ctx, name, x)
	if err != nil || !ok {
		return nil, err
	}
	out := [][]int64{}
	err = eq.Reduce.ForEachPoint(env, func(pt []int64) error {
		if len(out) >= e.MaxPoints {
			return fmt.Errorf("reduction %s has more than %d positions", expr.FormatIndex(name, x, '(', ')'), e.MaxPoints)
		}
		out = append(out, append([]int64(nil), pt...))
		return nil
	})
	return out, err
}
