package quasiaffine

import (
	"context"
	"strconv"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// Formula is a condition on the dimensions and parameters of a set: a
// constraint of package syntax, or a combination of formulas.
type Formula interface{ formula() }

type (
	constraint struct{ x syntax.Expr }
	truth      struct{ v bool }
	and        struct{ l, r Formula }
	or         struct{ l, r Formula }
	not        struct{ f Formula }
	chain      struct {
		operands []syntax.Expr
		ops      []syntax.Op
	}
	exists struct {
		names []string
		body  Formula
	}
)

func (constraint) formula() {}
func (truth) formula()      {}
func (and) formula()        {}
func (or) formula()         {}
func (not) formula()        {}
func (exists) formula()     {}
func (chain) formula()      {}

// Constraint returns the constraint x: a comparison, a chain of
// comparisons, true, false, or their combination with and, or and not.
func Constraint(x syntax.Expr) Formula { return constraint{x} }

// Chain returns the chain of comparisons operands[0] ops[0] operands[1]
// ops[1] ..., such as lo <= i < hi, built as isl builds its chains: the
// comparisons side by side over the divisions of every operand. It denotes
// the same set as Constraint of the syntax.Chain, which is built as the
// conjunction of its comparisons. len(operands) must be len(ops) + 1, and
// each op a comparison.
func Chain(operands []syntax.Expr, ops []syntax.Op) Formula {
	return chain{append([]syntax.Expr(nil), operands...), append([]syntax.Op(nil), ops...)}
}

// True returns the formula every point satisfies.
func True() Formula { return truth{true} }

// And returns the conjunction of fs, grouped from the left
// ((f1 and f2) and f3); True() when fs is empty.
func And(fs ...Formula) Formula {
	if len(fs) == 0 {
		return True()
	}
	out := fs[0]
	for _, f := range fs[1:] {
		out = and{out, f}
	}
	return out
}

// Or returns the disjunction of fs, grouped from the left; the formula
// no point satisfies when fs is empty.
func Or(fs ...Formula) Formula {
	if len(fs) == 0 {
		return truth{false}
	}
	out := fs[0]
	for _, f := range fs[1:] {
		out = or{out, f}
	}
	return out
}

// Not returns the negation of f, computed exactly (a complement, under
// the budget of Set's context).
func Not(f Formula) Formula { return not{f} }

// Exists returns "there are integers names such that body": body may name
// them, and they are projected out.
func Exists(names []string, body Formula) Formula {
	if len(names) == 0 {
		return body
	}
	return exists{append([]string(nil), names...), body}
}

// Names returns every name f mentions, in its constraints or as an
// existential, in order of first appearance and without repetition.
func Names(f Formula) []string {
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	inspect := func(x syntax.Expr) {
		syntax.Inspect(x, func(e syntax.Expr) bool {
			if id, ok := e.(*syntax.Ident); ok {
				add(id.Name)
			}
			return true
		})
	}
	var walk func(f Formula)
	walk = func(f Formula) {
		switch f := f.(type) {
		case constraint:
			inspect(f.x)
		case chain:
			for _, x := range f.operands {
				inspect(x)
			}
		case and:
			walk(f.l)
			walk(f.r)
		case or:
			walk(f.l)
			walk(f.r)
		case not:
			walk(f.f)
		case exists:
			for _, n := range f.names {
				add(n)
			}
			walk(f.body)
		}
	}
	walk(f)
	return out
}

// Set returns { [dims] : f } with the parameters params (an anonymous
// tuple whose dimensions are named dims), within ctx and its budget.
func Set(ctx context.Context, params, dims []string, f Formula) (*presburger.Map, error) {
	b := &builder{ctx: ctx, params: params, pIndex: make(map[string]int, len(params))}
	for i, p := range params {
		if _, dup := b.pIndex[p]; !dup {
			b.pIndex[p] = i
		}
	}
	m, err := b.formula(f, dims)
	if err != nil {
		return nil, err
	}
	return m.Relabel(presburger.SetSpace(params, presburger.FlatTuple("", dims...)))
}

// NotAffineError reports an expression outside the fragment.
type NotAffineError struct {
	X   syntax.Expr
	Why string // what is wrong, when more than the operator
}

// Error returns the expression and what is wrong with it.
func (e *NotAffineError) Error() string {
	msg := syntax.ExprString(e.X) + " is not quasi-affine"
	if e.Why != "" {
		msg += ": " + e.Why
	}
	return msg
}

// Check reports whether x, an index expression or a constraint, is
// written only with the operators of the fragment. Whether its factors
// and divisors are constant, and its names known, is decided when a set
// is built.
func Check(x syntax.Expr) error {
	var bad syntax.Expr
	var walk func(x syntax.Expr) bool
	walk = func(x syntax.Expr) bool {
		ok := false
		switch x := x.(type) {
		case *syntax.Ident:
			ok = true
		case *syntax.Lit:
			if x.Kind == syntax.IntLiteral {
				_, err := strconv.ParseInt(x.Text, 0, 64)
				ok = err == nil
			} else {
				ok = x.Kind == syntax.BoolLiteral
			}
		case *syntax.Unary:
			ok = (x.Op == syntax.OpNeg || x.Op == syntax.OpNot) && walk(x.X)
		case *syntax.Binary:
			switch x.Op {
			case syntax.OpAdd, syntax.OpSub, syntax.OpMul, syntax.OpDiv, syntax.OpRem,
				syntax.OpEq, syntax.OpNe, syntax.OpLt, syntax.OpLe, syntax.OpGt, syntax.OpGe,
				syntax.OpAnd, syntax.OpOr:
				ok = walk(x.X) && walk(x.Y)
			}
		case *syntax.Chain:
			ok = true
			for _, o := range x.Operands {
				ok = ok && walk(o)
			}
		case *syntax.Call:
			ok = (x.Fun.Name == "min" || x.Fun.Name == "max") && len(x.Args) == 2 && walk(x.Args[0]) && walk(x.Args[1])
		}
		if !ok && bad == nil {
			bad = x
		}
		return ok
	}
	if !walk(x) {
		return &NotAffineError{X: bad}
	}
	return nil
}
