package iscc

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// Calculator evaluates statements and keeps the names they bind. The zero
// value is not usable; call New. A Calculator is not safe for concurrent
// use.
type Calculator struct {
	vars map[string]Value
}

// New returns a calculator without any bound name.
func New() *Calculator { return &Calculator{vars: map[string]Value{}} }

// Lookup returns the value bound to name and whether there is one.
func (c *Calculator) Lookup(name string) (Value, bool) {
	v, ok := c.vars[name]
	return v, ok
}

// Exec executes one statement of src: an assignment binds its name (the
// old binding is kept if evaluation fails), an expression statement writes
// its value on one line of w (see Format). Evaluation stops with an error
// when ctx is done or the presburger.Budget carried by ctx is exhausted.
// Evaluation errors are *Error values; an error writing to w is returned
// as it is.
func (c *Calculator) Exec(ctx context.Context, src *syntax.Source, s *Stmt, w io.Writer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = newError(src, s.Pos, fmt.Errorf("internal error: %v", r), "internal error: %v", r)
		}
	}()
	v, err := c.Eval(ctx, src, s.X)
	if err != nil {
		return err
	}
	if s.Name != "" {
		c.vars[s.Name] = v
		return nil
	}
	if ctx == nil {
		ctx = context.Background()
	}
	text, ferr := Format(ctx, v)
	if ferr != nil {
		return newError(src, s.Pos, ferr, "printing: %v", ferr)
	}
	if _, err := fmt.Fprintln(w, text); err != nil {
		return fmt.Errorf("iscc: writing a result: %w", err)
	}
	return nil
}

// Eval returns the value of x, an expression of src (a nil ctx means
// context.Background()). It never panics: an internal failure of the
// engine is reported as an *Error at x.
func (c *Calculator) Eval(ctx context.Context, src *syntax.Source, x Expr) (v Value, err error) {
	if ctx == nil {
		ctx = context.Background()
	}
	ev := &evaluator{ctx: ctx, src: src, vars: c.vars}
	defer func() {
		if r := recover(); r != nil {
			v, err = Value{}, newError(src, x.Pos(), fmt.Errorf("internal error: %v", r), "internal error: %v", r)
		}
	}()
	v, e := ev.eval(x)
	if e != nil {
		return Value{}, e
	}
	return v, nil
}

type evaluator struct {
	ctx  context.Context
	src  *syntax.Source
	vars map[string]Value
}

func (ev *evaluator) errorf(pos syntax.Pos, cause error, format string, args ...any) *Error {
	return newError(ev.src, pos, cause, format, args...)
}

// engine reports a failed operation of the engine at pos.
func (ev *evaluator) engine(pos syntax.Pos, op string, err error) *Error {
	return ev.errorf(pos, err, "%s: %v", op, err)
}

func (ev *evaluator) eval(x Expr) (Value, *Error) {
	if err := ev.ctx.Err(); err != nil {
		return Value{}, ev.errorf(x.Pos(), err, "interrupted: %v", err)
	}
	switch x := x.(type) {
	case *Literal:
		return ev.literal(x)
	case *Name:
		v, ok := ev.vars[x.Name]
		if !ok {
			return Value{}, ev.errorf(x.At, nil, "unknown name %q", x.Name)
		}
		return v, nil
	case *Paren:
		return ev.eval(x.X)
	case *Unary:
		a, err := ev.eval(x.X)
		if err != nil {
			return Value{}, err
		}
		return ev.unary(x, a)
	case *Binary:
		a, err := ev.eval(x.X)
		if err != nil {
			return Value{}, err
		}
		b, err := ev.eval(x.Y)
		if err != nil {
			return Value{}, err
		}
		return ev.binary(x, a, b)
	case *Inverse:
		a, err := ev.eval(x.X)
		if err != nil {
			return Value{}, err
		}
		if !a.isRel() {
			return Value{}, ev.errorf(x.At, nil, "^-1 expects a relation, found %s", a.kind.article())
		}
		return Value{kind: Relation, u: a.u.Reverse()}, nil
	case *Apply:
		return ev.apply(x)
	}
	return Value{}, ev.errorf(x.Pos(), nil, "unknown expression %T", x)
}

// literal parses a set or relation in isl notation; positions of syntax
// errors are translated into positions of the script.
func (ev *evaluator) literal(x *Literal) (Value, *Error) {
	u, err := presburger.ParseUnionMapContext(ev.ctx, x.Text)
	if err != nil {
		var pe *presburger.ParseError
		if errors.As(err, &pe) {
			pos := x.At
			if pe.Line <= 1 {
				pos.Col += pe.Col - 1
			} else {
				pos.Line += pe.Line - 1
				pos.Col = pe.Col
			}
			return Value{}, ev.errorf(pos, err, "%s", pe.Msg)
		}
		return Value{}, ev.errorf(x.At, err, "%v", err)
	}
	v, err := UnionValue(u)
	if err != nil {
		return Value{}, ev.errorf(x.At, err, "literal %v", err)
	}
	return v, nil
}

func (ev *evaluator) unary(x *Unary, a Value) (Value, *Error) {
	expect := func(what string) *Error {
		return ev.errorf(x.At, nil, "%s expects %s, found %s", x.Op, what, a.kind.article())
	}
	switch x.Op {
	case "dom", "ran":
		if !a.isRel() {
			return Value{}, expect("a relation")
		}
		if x.Op == "dom" {
			return Value{kind: Set, u: a.u.Domain()}, nil
		}
		return Value{kind: Set, u: a.u.Range()}, nil
	case "lexmin", "lexmax":
		if a.kind == Bool {
			return Value{}, expect("a set or a relation")
		}
		opt := presburger.LexMinMap
		if x.Op == "lexmax" {
			opt = presburger.LexMaxMap
		}
		var ms []*presburger.Map
		for _, m := range a.u.Maps() {
			r, err := opt(ev.ctx, m)
			if err != nil {
				return Value{}, ev.engine(x.At, x.Op, err)
			}
			ms = append(ms, r)
		}
		return Value{kind: a.kind, u: presburger.NewUnionMap(ms...)}, nil
	case "coalesce":
		if a.kind == Bool {
			return Value{}, expect("a set or a relation")
		}
		var ms []*presburger.Map
		for _, m := range a.u.Maps() {
			r, err := presburger.Coalesce(ev.ctx, m)
			if err != nil {
				return Value{}, ev.engine(x.At, x.Op, err)
			}
			ms = append(ms, r)
		}
		return Value{kind: a.kind, u: presburger.NewUnionMap(ms...)}, nil
	case "is_empty":
		if a.kind == Bool {
			return Value{}, expect("a set or a relation")
		}
		e, err := a.u.IsEmpty(ev.ctx)
		if err != nil {
			return Value{}, ev.engine(x.At, x.Op, err)
		}
		return BoolValue(e), nil
	case "is_single_valued":
		if !a.isRel() {
			return Value{}, expect("a relation")
		}
		sv, err := a.u.IsSingleValued(ev.ctx)
		if err != nil {
			return Value{}, ev.engine(x.At, x.Op, err)
		}
		return BoolValue(sv), nil
	}
	return Value{}, ev.errorf(x.At, nil, "unknown operator %s", x.Op)
}

// operands classifies the operands of a binary operator the way iscc
// looks its overloads up: both sets, both relations (an empty "{ }" may
// stand for either), a relation and a set, or both booleans.
type operands int

const (
	mismatch operands = iota
	setSet
	relRel
	relSet
	boolBool
)

func classify(a, b Value) operands {
	switch {
	case a.kind == Bool && b.kind == Bool:
		return boolBool
	case a.kind == Set && b.kind == Set:
		return setSet
	case a.isRel() && b.isRel():
		return relRel
	case a.kind == Relation && b.kind == Set:
		return relSet
	}
	return mismatch
}

func (ev *evaluator) binary(x *Binary, a, b Value) (Value, *Error) {
	ops := classify(a, b)
	undefined := func() (Value, *Error) {
		return Value{}, ev.errorf(x.At, nil, "operator %s is not defined on %s and %s", x.Op, a.kind.article(), b.kind.article())
	}
	kind := a.kind
	if ops == relRel {
		kind = Relation
	}
	union := func(u *presburger.UnionMap, err error) (Value, *Error) {
		if err != nil {
			return Value{}, ev.engine(x.At, x.Op, err)
		}
		return Value{kind: kind, u: u}, nil
	}
	test := func(t bool, err error) (Value, *Error) {
		if err != nil {
			return Value{}, ev.engine(x.At, x.Op, err)
		}
		return BoolValue(t), nil
	}
	ctx := ev.ctx
	switch x.Op {
	case "+":
		switch ops {
		case boolBool:
			return BoolValue(a.b || b.b), nil
		case setSet, relRel:
			return union(a.u.Union(b.u), nil)
		}
	case "*":
		switch ops {
		case boolBool:
			return BoolValue(a.b && b.b), nil
		case setSet, relRel:
			if a.isParams() && !b.isParams() {
				// A parameter domain restricts the parameters of the
				// other operand, on either side.
				return union(b.u.Intersect(a.u))
			}
			return union(a.u.Intersect(b.u))
		case relSet:
			if b.isParams() {
				return union(a.u.Intersect(b.u))
			}
			return union(a.u.IntersectDomain(b.u))
		}
	case "-":
		switch ops {
		case setSet, relRel:
			return union(a.u.Subtract(ctx, b.u))
		case relSet:
			// R - S removes the pairs of R whose domain element is in S.
			in, err := a.u.IntersectDomain(b.u)
			if err != nil {
				return union(nil, err)
			}
			return union(a.u.Subtract(ctx, in))
		}
	case ".":
		if ops == relRel {
			return union(a.u.ApplyRange(b.u))
		}
	case "=":
		if ops == setSet || ops == relRel {
			return test(a.u.IsEqual(ctx, b.u))
		}
	case "<=", "<", ">=", ">":
		if ops != setSet && ops != relRel {
			break
		}
		small, big := a.u, b.u
		if x.Op == ">=" || x.Op == ">" {
			small, big = big, small
		}
		sub, err := small.IsSubset(ctx, big)
		if err != nil || !sub || x.Op == "<=" || x.Op == ">=" {
			return test(sub, err)
		}
		eq, err := small.IsEqual(ctx, big)
		return test(!eq, err)
	}
	return undefined()
}

// apply evaluates F(Arg): the image of a set, or the composition of a
// relation with F.
func (ev *evaluator) apply(x *Apply) (Value, *Error) {
	f, err := ev.eval(x.F)
	if err != nil {
		return Value{}, err
	}
	if !f.isRel() {
		return Value{}, ev.errorf(x.At, nil, "only a relation can be applied, found %s", f.kind.article())
	}
	a, err := ev.eval(x.Arg)
	if err != nil {
		return Value{}, err
	}
	var (
		u    *presburger.UnionMap
		kind Kind
		e    error
	)
	switch a.kind {
	case Set:
		u, e = a.u.Apply(f.u)
		kind = Set
	case Relation:
		u, e = a.u.ApplyRange(f.u)
		kind = Relation
	default:
		return Value{}, ev.errorf(x.At, nil, "cannot apply a relation to %s", a.kind.article())
	}
	if e != nil {
		return Value{}, ev.engine(x.At, "application", e)
	}
	return Value{kind: kind, u: u}, nil
}
