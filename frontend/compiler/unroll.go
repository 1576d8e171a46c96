package compiler

import (
	"context"
	"errors"
	"strings"

	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/internal/quasiaffine"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// boundedExtent returns a constant upper bound of the extent ext of the
// unrolled or vectorised loop dim of stage s of f, computed at the site at
// under the conditions conds (a specialization's), as Halide unrolls a
// loop of bounded extent: the maximum of ext over every point of the
// loop's context, the enclosing loops, lets and guards of the site and
// the assumptions, with the parameters projected out. The loop then runs
// over that many iterations, each guarded by the true extent. It is an
// error naming the extent and its context when the maximum does not exist
// (the extent grows with a parameter).
func (c *compiler) boundedExtent(ctx context.Context, f *alg.Func, s int, dim string, kind loopKind, ext syntax.Expr, at site, conds []quasiaffine.Formula) (int64, error) {
	what := map[loopKind]string{unrolled: "unroll", vectorized: "vectorize"}[kind]
	fail := func(why string) error {
		return c.errAt(c.dirPos(f, s, what), syntax.CodeUnsupported, "%s of %s in %s: the loop's extent %s %s (split it first, or give a factor: %s(%s, 8))",
			what, dim, stageLabel(f, s), syntax.ExprString(c.shown(ext)), why, what, dim)
	}
	outer, err := c.outerContext(at)
	if err != nil {
		return 0, err
	}
	e, err := c.affine(ext)
	if err != nil {
		return 0, fail("is not quasi-affine")
	}
	all := quasiaffine.And(append(append(append([]quasiaffine.Formula{c.assumed}, outer...), conds...), isBuf(e))...)
	var hidden []string
	for _, n := range quasiaffine.Names(all) {
		if n != bufDim {
			hidden = append(hidden, n)
		}
	}
	// within the budget of bounds inference: the extent may be an
	// expression of interval bounds, whose set would grow without end
	k, err := constMax(presburger.WithSharedBudget(ctx, c.budget), quasiaffine.Exists(hidden, all))
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return 0, cerr
		}
		return 0, fail("has no constant upper bound over " + c.contextString(at, conds) + ": " + err.Error())
	}
	if k < 1 {
		k = 1
	}
	return k, nil
}

// constMax returns the maximum of buf_o over { [buf_o] : f }, f naming no
// free variable but buf_o: a constant, or an error when the set is empty
// or unbounded above.
func constMax(ctx context.Context, f quasiaffine.Formula) (int64, error) {
	set, err := bufSet(ctx, nil, f)
	if err != nil {
		return 0, err
	}
	opt, err := presburger.LexMax(ctx, set)
	if errors.Is(err, presburger.ErrUnbounded) {
		return 0, errors.New("it is unbounded")
	}
	if err != nil {
		return 0, err
	}
	var best int64
	found := false
	for _, pc := range opt.Pieces() {
		affs := pc.Func.Affs()
		if len(affs) != 1 {
			return 0, errors.New("unexpected maximum " + opt.String())
		}
		x, err := affExpr(affs[0], nil)
		if err != nil {
			return 0, err
		}
		l, ok := linearize(x)
		if !ok || !allZero(l) {
			return 0, errors.New("its maximum " + syntax.ExprString(x) + " is not a constant")
		}
		if !found || l.c > best {
			best, found = l.c, true
		}
	}
	if !found {
		return 0, errors.New("the loop never runs")
	}
	return best, nil
}

// shown renames the internal variables of x to their display names, for
// messages.
func (c *compiler) shown(x syntax.Expr) syntax.Expr {
	return rewrite(x, func(e syntax.Expr) syntax.Expr {
		if id, ok := e.(*syntax.Ident); ok && strings.HasPrefix(id.Name, "buf_v") {
			return ident(c.displayName(id.Name))
		}
		return nil
	})
}

// contextString describes the context of a site for messages: its
// enclosing loops with their ranges, the conditions of its specialization
// and the assumptions.
func (c *compiler) contextString(at site, conds []quasiaffine.Formula) string {
	var parts []string
	for _, n := range at.path {
		if lp, ok := n.(*nLoop); ok {
			parts = append(parts, syntax.ExprString(c.shown(lp.lo))+" <= "+c.displayName(lp.v)+" < "+syntax.ExprString(c.shown(lp.hi)))
		}
	}
	if len(conds) > 0 {
		parts = append(parts, "the specialization's condition")
	}
	for _, a := range c.assumptions() {
		parts = append(parts, syntax.ExprString(a))
	}
	if len(parts) == 0 {
		return "every value of the parameters"
	}
	return "its context (" + strings.Join(parts, ", ") + ")"
}

// constantSpan reports whether hi - lo (bounds of one dimension of a
// region) is the same constant k wherever the context outer and the
// assumptions hold, and returns k. Halide's interval arithmetic gives a
// producer computed per tile the extent of the tile plus its halo, a
// constant, with the upper bound the lower plus that constant; the exact
// extrema of bounds inference are equivalent there but need not show it
// (min(512 * xo + 513, W + 1) and min(512 * xo - 2, W - 514)). The bounds
// rewritten as lo and lo + k keep the loops over the region of constant
// extent, so that splits of them need no guard and their kernels stay as
// simple as Halide's.
func (c *compiler) constantSpan(ctx context.Context, outer []quasiaffine.Formula, lo, hi syntax.Expr) (int64, bool) {
	if l, ok := linearize(sub(hi, lo)); ok && allZero(l) {
		return l.c, true
	}
	span := func(a, b syntax.Expr) (int64, bool) {
		ea, err1 := c.affine(a)
		eb, err2 := c.affine(b)
		if err1 != nil || err2 != nil {
			return 0, false
		}
		all := quasiaffine.And(append(append([]quasiaffine.Formula{c.assumed}, outer...), isBuf(sub(eb, ea)))...)
		var hidden []string
		for _, n := range quasiaffine.Names(all) {
			if n != bufDim {
				hidden = append(hidden, n)
			}
		}
		// under a budget of its own, of the size of bounds inference's:
		// the bounds may be expressions of interval bounds, whose sets
		// grow without end (TestBoundedExtentWithinBudget)
		k, err := constMax(presburger.WithSharedBudget(ctx, c.budget), quasiaffine.Exists(hidden, all))
		return k, err == nil
	}
	most, ok := span(lo, hi)
	if !ok {
		return 0, false
	}
	neg, ok := span(hi, lo)
	if !ok || -neg != most {
		return 0, false
	}
	return most, true
}
