package compiler

import (
	"context"
	"errors"
	"fmt"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// DefaultBoundsBudget bounds the Presburger work of the exact bounds of
// one dimension of a region: beyond it, bounds inference falls back to
// interval arithmetic (intervalBounds), so that it stays a small share of
// a validation. It counts the engine's steps, never time.
func DefaultBoundsBudget() presburger.Budget {
	return presburger.Budget{MaxSteps: 10_000, MaxDisjuncts: 2_000, MaxConstraints: 2_000}
}

// varDef is how the IR binds a variable: a loop over [lo, hi) or a let.
type varDef struct {
	lo, hi syntax.Expr
	let    syntax.Expr
}

// intervalBounds returns bounds of dimension d of the accesses by
// interval arithmetic, as Halide infers bounds (Reinking 2022, section
// 2.7): each coordinate's minimum and maximum over the loops and lets
// between the site and the access, a loop's variable ranging over its
// whole range and guards ignored, the bounds of the coordinates combined
// with min and max. The box contains every point the exact extrema would
// give, and more where guards or correlated variables restrict the
// accesses: funcs are defined everywhere and inputs hold values
// everywhere, so computing or loading more points is harmless.
func (c *compiler) intervalBounds(ctx context.Context, acc []accessAt, d int) (syntax.Expr, syntax.Expr, error) {
	// one budget for the whole dimension: once it is spent, the bounds
	// stay as interval arithmetic writes them
	t := &tidier{c: c, ctx: presburger.WithSharedBudget(ctx, c.budget)}
	var los, his []syntax.Expr
	seen := map[string]bool{}
	for _, a := range acc {
		k := syntax.ExprString(a.args[d])
		if seen[k] {
			continue
		}
		seen[k] = true
		iv := &intervals{defs: a.defs, memo: map[ivKey]syntax.Expr{}}
		lo, err := iv.bound(a.args[d], false)
		if err != nil {
			return nil, nil, err
		}
		hi, err := iv.bound(a.args[d], true)
		if err != nil {
			return nil, nil, err
		}
		// each access's bounds in canonical form first: their min and
		// max, a piecewise value of as many pieces as the product of
		// theirs, would otherwise be beyond any budget
		los, his = appendNew(los, t.tidy(lo, false)), appendNew(his, t.tidy(hi, true))
	}
	lo, hi := fold("min", los), fold("max", his)
	if len(los) > 1 {
		lo = t.tidy(lo, false)
	}
	if len(his) > 1 {
		hi = t.tidy(hi, true)
	}
	// bounds that stay large are beyond the budget too: every later
	// step (extents, buffers, constant spans) would build sets of them,
	// whose pieces and divisions grow with their size
	if !within(lo, maxIntervalNodes, maxIntervalPieces) || !within(hi, maxIntervalNodes, maxIntervalPieces) {
		return nil, nil, fmt.Errorf("interval bounds of more than %d operations or %d pieces, not simplified within the budget: %w", maxIntervalNodes, maxIntervalPieces, presburger.ErrBudget)
	}
	return lo, hi, nil
}

// tidier rewrites bounds of interval arithmetic within one shared budget.
type tidier struct {
	c     *compiler
	ctx   context.Context
	spent bool // the budget ran out: no more rewriting
}

// tidy returns a simpler form of a bound of interval arithmetic: the
// optimum of { [buf_o] : buf_o == x } (x itself, its pieces widened to
// their minimum or maximum: still a bound), or x when that is beyond the
// budget. Once the budget is spent, or when x is large, x itself:
// building the set of a large bound costs before the engine counts a
// step.
func (t *tidier) tidy(x syntax.Expr, max bool) syntax.Expr {
	if t.spent || !within(x, maxTidyNodes, maxTidyPieces) {
		return x
	}
	c := t.c
	e, err := c.affine(x)
	if err != nil {
		return x
	}
	f := isBuf(e)
	params := append(clone(c.params), c.symbols(f)...)
	set, err := c.setOf(t.ctx, params, f)
	var opt syntax.Expr
	if err == nil {
		opt, err = c.optimum(t.ctx, set, params, max, true)
	}
	if err != nil {
		t.spent = t.spent || errors.Is(err, presburger.ErrBudget)
		return x
	}
	return opt
}

// maxIntervalNodes and maxIntervalPieces bound the size of the interval
// bounds of a dimension that the budget could not rewrite in canonical
// form: their operations, and the pieces their min and max make.
const (
	maxIntervalNodes  = 100
	maxIntervalPieces = 64
)

// maxTidyNodes and maxTidyPieces bound the bounds that tidy tries to
// rewrite: beyond them, building their set alone (one conjunction per
// piece, with a local per division) would take long.
const (
	maxTidyNodes  = 400
	maxTidyPieces = 256
)

// within reports whether x has at most n nodes and makes at most p
// pieces (min and max double the product of their operands' pieces,
// other operations multiply them); it visits at most n + 1 nodes.
func within(x syntax.Expr, n, p int) bool {
	count := 0
	var pieces func(x syntax.Expr) int // p + 1 when beyond the bounds
	pieces = func(x syntax.Expr) int {
		if count++; count > n {
			return p + 1
		}
		k, kids := 1, []syntax.Expr(nil)
		switch x := x.(type) {
		case *syntax.Unary:
			kids = []syntax.Expr{x.X}
		case *syntax.Binary:
			kids = []syntax.Expr{x.X, x.Y}
		case *syntax.Call:
			kids = x.Args
			if x.Fun.Name == "min" || x.Fun.Name == "max" {
				k = 2
			}
		}
		for _, y := range kids {
			if k *= pieces(y); k > p {
				return p + 1
			}
		}
		return k
	}
	return pieces(x) <= p
}

func appendNew(xs []syntax.Expr, x syntax.Expr) []syntax.Expr {
	for _, y := range xs {
		if syntax.Equal(x, y) {
			return xs
		}
	}
	return append(xs, x)
}

// fold combines xs with the binary function fn (min or max).
func fold(fn string, xs []syntax.Expr) syntax.Expr {
	out := xs[0]
	for _, x := range xs[1:] {
		out = minMax(fn, out, x)
	}
	return out
}

// minMax returns min(a, b) or max(a, b) (fn), one of them when they
// differ by a constant: their difference is affine, or their non-affine
// terms (min, max, divisions) are the same expressions, which cancel.
func minMax(fn string, a, b syntax.Expr) syntax.Expr {
	if k, ok := constDiff(a, b); ok {
		if (k <= 0) == (fn == "min") {
			return a
		}
		return b
	}
	return call(fn, a, b)
}

// constDiff returns a - b when it is a constant: the sums a and b, each
// term not affine taken as an opaque atom written as its expression, have
// the same coefficients but for the constant.
func constDiff(a, b syntax.Expr) (int64, bool) {
	l := &linear{coef: map[string]int64{}}
	if !l.atoms(a, 1) || !l.atoms(b, -1) {
		return 0, false
	}
	if !allZero(l) {
		return 0, false
	}
	return l.c, true
}

// atoms adds k * x to l, a sum whose terms are names, constants, and
// atoms: the subexpressions that are not affine, by their text. It
// reports false on a product of two non-constants.
func (l *linear) atoms(x syntax.Expr, k int64) bool {
	switch x := x.(type) {
	case *syntax.Ident:
		l.add(x.Name, k)
		return true
	case *syntax.Lit:
		v, ok := litInt(x)
		l.c += k * v
		return ok
	case *syntax.Unary:
		if x.Op == syntax.OpNeg {
			return l.atoms(x.X, -k)
		}
	case *syntax.Binary:
		switch x.Op {
		case syntax.OpAdd:
			return l.atoms(x.X, k) && l.atoms(x.Y, k)
		case syntax.OpSub:
			return l.atoms(x.X, k) && l.atoms(x.Y, -k)
		case syntax.OpMul:
			if v, ok := litInt(x.Y); ok {
				return l.atoms(x.X, k*v)
			}
			if v, ok := litInt(x.X); ok {
				return l.atoms(x.Y, k*v)
			}
			return false
		}
	}
	// an atom: "(" cannot start a name, so atoms and names never meet
	l.add("("+syntax.ExprString(x)+")", k)
	return true
}

type ivKey struct {
	v   string
	max bool
}

// intervals computes bounds of expressions over the variables defs binds.
type intervals struct {
	defs map[string]varDef
	memo map[ivKey]syntax.Expr
}

// bound returns an upper (max) or lower bound of x over the bound
// variables, an expression of the others.
func (iv *intervals) bound(x syntax.Expr, max bool) (syntax.Expr, error) {
	switch x := x.(type) {
	case *syntax.Lit:
		return x, nil
	case *syntax.Ident:
		def, ok := iv.defs[x.Name]
		if !ok {
			return x, nil // bound outside: a parameter of the box
		}
		k := ivKey{x.Name, max}
		if b, ok := iv.memo[k]; ok {
			return b, nil
		}
		var b syntax.Expr
		var err error
		switch {
		case def.let != nil:
			b, err = iv.bound(def.let, max)
		case max:
			b, err = iv.bound(simplifyAdd(def.hi, -1), true)
		default:
			b, err = iv.bound(def.lo, false)
		}
		if err != nil {
			return nil, err
		}
		b = norm(b)
		iv.memo[k] = b
		return b, nil
	case *syntax.Unary:
		if x.Op == syntax.OpNeg {
			b, err := iv.bound(x.X, !max)
			if err != nil {
				return nil, err
			}
			return norm(&syntax.Unary{Op: syntax.OpNeg, X: b}), nil
		}
	case *syntax.Call:
		if (x.Fun.Name == "min" || x.Fun.Name == "max") && len(x.Args) == 2 {
			a, err := iv.bound(x.Args[0], max)
			if err != nil {
				return nil, err
			}
			b, err := iv.bound(x.Args[1], max)
			if err != nil {
				return nil, err
			}
			return minMax(x.Fun.Name, a, b), nil
		}
	case *syntax.Binary:
		switch x.Op {
		case syntax.OpAdd, syntax.OpSub:
			a, err := iv.bound(x.X, max)
			if err != nil {
				return nil, err
			}
			b, err := iv.bound(x.Y, max == (x.Op == syntax.OpAdd))
			if err != nil {
				return nil, err
			}
			return norm(bin(a, x.Op, b)), nil
		case syntax.OpMul:
			k, e := x.X, x.Y
			if _, ok := litInt(k); !ok {
				k, e = x.Y, x.X
			}
			if n, ok := litInt(k); ok {
				b, err := iv.bound(e, max == (n >= 0))
				if err != nil {
					return nil, err
				}
				return norm(bin(k, syntax.OpMul, b)), nil
			}
		case syntax.OpDiv:
			// floor division by a positive constant is monotone
			if n, ok := litInt(x.Y); ok && n > 0 {
				b, err := iv.bound(x.X, max)
				if err != nil {
					return nil, err
				}
				return norm(bin(b, syntax.OpDiv, x.Y)), nil
			}
		case syntax.OpRem:
			if n, ok := litInt(x.Y); ok && n > 0 {
				if max {
					return intLit(n - 1), nil
				}
				return intLit(0), nil
			}
		}
	}
	return nil, fmt.Errorf("bounds of %s: no interval for it", syntax.ExprString(x))
}
