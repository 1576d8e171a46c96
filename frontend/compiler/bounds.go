package compiler

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/augur-verify/augur/internal/quasiaffine"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// box is the region of a func or input: per dimension, the inclusive
// bounds [Lo, Hi] and the extent Hi - Lo + 1, quasi-affine in the
// parameters.
type box struct {
	Lo, Hi, Extent []syntax.Expr
}

// errEmptyRegion is the error of an optimum of an empty set: no point is
// needed (the accesses never run, under a specialization that the
// assumptions or the enclosing loops exclude).
var errEmptyRegion = errors.New("the region is empty")

// bufDim is the one dimension of the sets of bounds inference, { [buf_o] }.
const bufDim = "buf_o"

// setOf builds { [buf_o] : f } under the assumptions, with params (the
// algorithm's parameters, then any free internal variables) as its
// parameters, within ctx and its budget.
func (c *compiler) setOf(ctx context.Context, params []string, f quasiaffine.Formula) (*presburger.Map, error) {
	return bufSet(ctx, params, quasiaffine.And(c.assumed, f))
}

// bufSet builds { [buf_o] : f } with parameters params within ctx.
func bufSet(ctx context.Context, params []string, f quasiaffine.Formula) (*presburger.Map, error) {
	return quasiaffine.Set(ctx, params, []string{bufDim}, f)
}

// noPointWith reports whether no point of set (a set made by setOf with
// params) satisfies f.
func noPointWith(ctx context.Context, set *presburger.Map, params []string, f quasiaffine.Formula) (bool, error) {
	with, err := bufSet(ctx, params, f)
	if err != nil {
		return false, err
	}
	if with, err = set.Intersect(with); err != nil {
		return false, err
	}
	return with.IsEmpty(ctx)
}

// isBuf returns the constraint buf_o == x.
func isBuf(x syntax.Expr) quasiaffine.Formula {
	return quasiaffine.Constraint(bin(ident(bufDim), syntax.OpEq, x))
}

// simplify returns the value of buf_o in { [buf_o] : buf_o == x } (a
// function of the parameters) in canonical form.
func (c *compiler) simplify(ctx context.Context, x syntax.Expr) (syntax.Expr, error) {
	set, err := c.setOf(ctx, c.params, isBuf(x))
	if err != nil {
		return nil, err
	}
	return c.optimum(ctx, set, c.params, false, false)
}

// optimumKey identifies a question to optimum: the set in full (its
// printed form names its parameters and every constraint), the
// parameters' order and the kind of optimum.
type optimumKey struct {
	set, params string
	max, widen  bool
}

// optimum returns the lexicographic minimum or maximum of the
// one-dimensional set as an index expression of its parameters params; a
// piecewise optimum is an error unless widen is set. Answers are
// memoized per compilation: bounds inference asks the same question at
// several sites (a func's region, then its allocation's), and the answer
// depends on the question alone. Errors are not memoized (a budget
// exhausted under one context may suffice under another).
func (c *compiler) optimum(ctx context.Context, set *presburger.Map, params []string, max, widen bool) (syntax.Expr, error) {
	k := optimumKey{set.String(), strings.Join(params, ","), max, widen}
	if e, ok := c.optima[k]; ok {
		return e, nil
	}
	e, err := solveOptimum(ctx, set, params, max, widen)
	if err != nil {
		return nil, err
	}
	if c.optima == nil {
		c.optima = map[optimumKey]syntax.Expr{}
	}
	c.optima[k] = e
	return e, nil
}

// solveOptimum computes optimum's answer.
func solveOptimum(ctx context.Context, set *presburger.Map, params []string, max, widen bool) (syntax.Expr, error) {
	var f *presburger.PwMultiAff
	var err error
	if max {
		f, err = presburger.LexMax(ctx, set)
	} else {
		f, err = presburger.LexMin(ctx, set)
	}
	if err != nil {
		return nil, err
	}
	if f, err = f.Coalesce(ctx); err != nil {
		return nil, err
	}
	// A piecewise optimum is widened to the minimum (for a lower bound) or
	// maximum (upper) of its pieces' expressions: a box at least as large,
	// as Halide's interval arithmetic would give. Funcs are defined over all
	// integers and inputs hold values everywhere, so computing or loading
	// more points is harmless.
	if !widen && f.NumPieces() != 1 {
		return nil, fmt.Errorf("%s is piecewise", f)
	}
	var out, tight syntax.Expr
	var each []syntax.Expr
	for _, pc := range f.Pieces() {
		affs := pc.Func.Affs()
		if len(affs) != 1 {
			return nil, fmt.Errorf("unexpected bound %s", f)
		}
		e, err := affExpr(affs[0], params)
		if err != nil {
			return nil, err
		}
		dup := false
		for _, x := range each {
			if syntax.Equal(x, e) {
				dup = true
			}
		}
		if dup {
			continue
		}
		each = append(each, e)
		switch {
		case out == nil:
			out, tight = e, e
		case syntax.Equal(out, e):
		case max:
			out, tight = call("max", out, e), call("min", tight, e)
		default:
			out, tight = call("min", out, e), call("max", tight, e)
		}
	}
	if out == nil {
		return nil, errEmptyRegion
	}
	if f.NumPieces() > 1 {
		// The tight form (the min of the pieces for a maximum, as for a
		// guarded tile min(8 * xo + 7, W - 1)) is used when it still bounds
		// every point of the set: a bound, checked exactly.
		// Else one piece's expression may bound them all (pieces that
		// differ in form only, by the parameters' remainders).
		sort.SliceStable(each, func(i, j int) bool {
			return len(syntax.ExprString(each[i])) < len(syntax.ExprString(each[j]))
		})
		if ok, err := bounds(ctx, set, params, tight, max); err == nil && ok {
			// one piece may equal the tight form wherever the set has points
			// (max(0, 1 - (W + 3) / 4) is 0 when W >= 1)
			for _, e := range each {
				if same, err := holds(ctx, set, params, e, tight, max); err == nil && same {
					return e, nil
				}
			}
			return tight, nil
		}
		for _, e := range each {
			if ok, err := bounds(ctx, set, params, e, max); err == nil && ok {
				return e, nil
			}
		}
	}
	return out, nil
}

// holds reports whether e <= t (max) or e >= t (not max) wherever the set
// has a point.
func holds(ctx context.Context, set *presburger.Map, params []string, e, t syntax.Expr, max bool) (bool, error) {
	return noPointWith(ctx, set, params, quasiaffine.Constraint(bin(e, beyond(max), t)))
}

// bounds reports whether e (an expression of the parameters) is an upper
// (max) or lower bound of every point of the one-dimensional set.
func bounds(ctx context.Context, set *presburger.Map, params []string, e syntax.Expr, max bool) (bool, error) {
	return noPointWith(ctx, set, params, quasiaffine.Constraint(bin(ident(bufDim), beyond(max), e)))
}

// beyond is the comparison past an upper (max) or lower bound.
func beyond(max bool) syntax.Op {
	if max {
		return syntax.OpGt
	}
	return syntax.OpLt
}
