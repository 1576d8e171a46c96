package encode

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// Index resolves the identifiers of index expressions (parameters, loop and
// equation variables, the verifier's holes □k) to Int terms; ok is false for
// an unknown name.
type Index func(name string) (*smt.Term, bool)

// IndexExpr encodes the index expression x as an Int term over the exact
// integers, as expr.EvalIndex evaluates it (but without its int64 overflow
// errors): literals, names resolved by idx, unary -, + and -, *, e / c and
// e % c for a positive constant c (floor division and non-negative
// remainder: Z3's div and mod, Euclidean, agree with them for c > 0), min,
// max and select(constraint, e1, e2).
func (e *Encoder) IndexExpr(x syntax.Expr, idx Index) (t *smt.Term, err error) {
	defer guard(&err, "index expression")
	return e.indexExpr(x, idx)
}

// Constraint encodes the index-language constraint x as a Bool term, as
// expr.EvalCond evaluates it: true, false, comparisons and chains of index
// expressions, and, or, not.
func (e *Encoder) Constraint(x syntax.Expr, idx Index) (t *smt.Term, err error) {
	defer guard(&err, "constraint")
	return e.constraint(x, idx)
}

func exprError(x syntax.Expr, format string, args ...any) error {
	return fmt.Errorf("encode: %s: %s: %s", x.Pos(), syntax.ExprString(x), fmt.Sprintf(format, args...))
}

func (e *Encoder) indexExpr(x syntax.Expr, idx Index) (*smt.Term, error) {
	if x == nil {
		return nil, errors.New("encode: nil index expression")
	}
	switch x := x.(type) {
	case *syntax.Ident:
		if idx != nil {
			if t, ok := idx(x.Name); ok && t != nil {
				return t, nil
			}
		}
		return nil, exprError(x, "no term for index %s", x.Name)
	case *syntax.Lit:
		if x.Kind != syntax.IntLiteral {
			return nil, exprError(x, "%s literal in an index expression", x.Kind)
		}
		n, err := indexLiteral(x.Text)
		if err != nil {
			return nil, exprError(x, "%v", err)
		}
		return e.z.BigInt(n), nil
	case *syntax.Unary:
		if x.Op != syntax.OpNeg {
			break
		}
		a, err := e.indexExpr(x.X, idx)
		if err != nil {
			return nil, err
		}
		return a.Neg(), nil
	case *syntax.Binary:
		return e.indexBinary(x, idx)
	case *syntax.Call:
		switch {
		case (x.Fun.Name == "min" || x.Fun.Name == "max") && len(x.Args) == 2:
			a, err := e.indexExpr(x.Args[0], idx)
			if err != nil {
				return nil, err
			}
			b, err := e.indexExpr(x.Args[1], idx)
			if err != nil {
				return nil, err
			}
			return intMinMax(a, b, x.Fun.Name == "min"), nil
		case x.Fun.Name == "select" && len(x.Args) == 3:
			c, err := e.constraint(x.Args[0], idx)
			if err != nil {
				return nil, err
			}
			a, err := e.indexExpr(x.Args[1], idx)
			if err != nil {
				return nil, err
			}
			b, err := e.indexExpr(x.Args[2], idx)
			if err != nil {
				return nil, err
			}
			return c.Ite(a, b), nil
		}
	}
	return nil, exprError(x, "not an index expression")
}

func (e *Encoder) indexBinary(x *syntax.Binary, idx Index) (*smt.Term, error) {
	switch x.Op {
	case syntax.OpAdd, syntax.OpSub, syntax.OpMul, syntax.OpDiv, syntax.OpRem:
	default:
		return nil, exprError(x, "operator %s in an index expression", x.Op)
	}
	a, err := e.indexExpr(x.X, idx)
	if err != nil {
		return nil, err
	}
	if x.Op == syntax.OpDiv || x.Op == syntax.OpRem {
		c, ok := constIndex(x.Y)
		if !ok || c <= 0 {
			return nil, exprError(x, "the divisor of %s must be a positive constant", x.Op)
		}
		d := e.z.Int(c)
		if x.Op == syntax.OpDiv {
			return a.Div(d), nil
		}
		// a mod d as a - d*(a div d), equal for d > 0: the form in which
		// symbolic evaluation writes remainders, so that the two sides
		// of an obligation meet in one normal form.
		return a.Sub(d.Mul(a.Div(d))), nil
	}
	b, err := e.indexExpr(x.Y, idx)
	if err != nil {
		return nil, err
	}
	switch x.Op {
	case syntax.OpAdd:
		return a.Add(b), nil
	case syntax.OpSub:
		return a.Sub(b), nil
	}
	// A product of two non-constant terms is not quasi-affine; it is still
	// exact (nonlinear integer arithmetic), so it is not rejected here.
	return a.Mul(b), nil
}

// intMinMax is min (isMin) or max of the Int terms a and b.
func intMinMax(a, b *smt.Term, isMin bool) *smt.Term {
	if isMin {
		return a.Le(b).Ite(a, b)
	}
	return a.Ge(b).Ite(a, b)
}

// constIndex evaluates an index expression without names, as the checker
// does to recognise constant divisors.
func constIndex(x syntax.Expr) (int64, bool) {
	n, err := expr.EvalIndex(x, noNames{})
	return n, err == nil
}

type noNames struct{}

func (noNames) Index(string) (int64, bool) { return 0, false }
func (noNames) Tensor(string, []int64) (value.Value, error) {
	return value.Value{}, errors.New("no tensors in a constant")
}
func (noNames) Array(string, []int64) (value.Value, error) {
	return value.Value{}, errors.New("no arrays in a constant")
}

// indexLiteral reads an integer literal (decimal or 0x hexadecimal) exactly.
func indexLiteral(text string) (*big.Int, error) {
	n, ok := new(big.Int), false
	if len(text) > 2 && (text[:2] == "0x" || text[:2] == "0X") {
		_, ok = n.SetString(text[2:], 16)
	} else {
		_, ok = n.SetString(text, 10)
	}
	if !ok || n.Sign() < 0 {
		return nil, fmt.Errorf("malformed integer literal %q", text)
	}
	return n, nil
}

func (e *Encoder) constraint(x syntax.Expr, idx Index) (*smt.Term, error) {
	if x == nil {
		return nil, errors.New("encode: nil constraint")
	}
	switch x := x.(type) {
	case *syntax.Lit:
		if x.Kind == syntax.BoolLiteral {
			return e.z.Bool(x.Text == "true"), nil
		}
	case *syntax.Unary:
		if x.Op == syntax.OpNot {
			a, err := e.constraint(x.X, idx)
			if err != nil {
				return nil, err
			}
			return a.Not(), nil
		}
	case *syntax.Binary:
		switch {
		case x.Op == syntax.OpAnd || x.Op == syntax.OpOr:
			a, err := e.constraint(x.X, idx)
			if err != nil {
				return nil, err
			}
			b, err := e.constraint(x.Y, idx)
			if err != nil {
				return nil, err
			}
			if x.Op == syntax.OpAnd {
				return a.And(b), nil
			}
			return a.Or(b), nil
		case x.Op.IsComparison():
			a, err := e.indexExpr(x.X, idx)
			if err != nil {
				return nil, err
			}
			b, err := e.indexExpr(x.Y, idx)
			if err != nil {
				return nil, err
			}
			return compareInt(x.Op, a, b), nil
		}
	case *syntax.Chain:
		vals := make([]*smt.Term, len(x.Operands))
		for i, o := range x.Operands {
			t, err := e.indexExpr(o, idx)
			if err != nil {
				return nil, err
			}
			vals[i] = t
		}
		cs := make([]*smt.Term, len(x.Ops))
		for i, op := range x.Ops {
			if !op.IsComparison() {
				return nil, exprError(x, "operator %s in a comparison chain", op)
			}
			cs[i] = compareInt(op, vals[i], vals[i+1])
		}
		return e.z.And(cs...), nil
	}
	return nil, exprError(x, "not a constraint")
}

// compareInt compares two Int (or Real) terms; op is a comparison.
func compareInt(op syntax.Op, a, b *smt.Term) *smt.Term {
	switch op {
	case syntax.OpEq:
		return a.Eq(b)
	case syntax.OpNe:
		return a.Ne(b)
	case syntax.OpLt:
		return a.Lt(b)
	case syntax.OpLe:
		return a.Le(b)
	case syntax.OpGt:
		return a.Gt(b)
	}
	return a.Ge(b)
}
