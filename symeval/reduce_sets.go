package symeval

import (
	"context"
	"fmt"
	"strconv"

	"github.com/augur-verify/augur/internal/quasiaffine"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// This file builds the Presburger sets and relations of the reduction
// checks through the engine's constructors (package quasiaffine for the
// formulas), one piece at a time, as isl writes a piece:
//
//	[N] -> { S3[a0, a1] -> [a0 + 1, 0, 3, a0, a1] : 0 <= a0 < N and ... }
//
// A tuple element is either a new dimension, given by name, or an
// expression, the value of an unnamed dimension; a dimension named again
// in a later element is such an expression. The formula of a piece is its
// condition, with the equalities of its unnamed dimensions added in front
// (the last one outermost), each connective grouped as written: the sets
// are those isl's reader builds for the same piece written out.

// redDim returns the name of the dimension called name in the formulas of
// the reduction checks: marked so that it can neither be a parameter nor
// be taken for one.
func redDim(name string) *syntax.Ident { return &syntax.Ident{Name: "%" + name} }

// redDims returns the dimensions prefix0, ..., prefix(n-1).
func redDims(prefix string, n int) []syntax.Expr {
	out := make([]syntax.Expr, n)
	for i := range out {
		out[i] = redDim(prefix + strconv.Itoa(i))
	}
	return out
}

// redParam returns the parameter called name.
func redParam(name string) *syntax.Ident { return &syntax.Ident{Name: name} }

// redInt returns the integer n.
func redInt(n int64) syntax.Expr {
	if n < 0 {
		return &syntax.Unary{Op: syntax.OpNeg, X: redInt(-n)}
	}
	return &syntax.Lit{Kind: syntax.IntLiteral, Text: strconv.FormatInt(n, 10)}
}

// redCmp returns the comparison x op y.
func redCmp(x syntax.Expr, op syntax.Op, y syntax.Expr) quasiaffine.Formula {
	return quasiaffine.Chain([]syntax.Expr{x, y}, []syntax.Op{op})
}

// redTrue and redFalse are the conditions 0 = 0 and 1 = 0.
func redTrue() quasiaffine.Formula  { return redCmp(redInt(0), syntax.OpEq, redInt(0)) }
func redFalse() quasiaffine.Formula { return redCmp(redInt(1), syntax.OpEq, redInt(0)) }

// redTuple is a tuple of a piece: its name (empty for an anonymous tuple)
// and its elements, or, when nested, its two halves.
type redTuple struct {
	name        string
	elems       []syntax.Expr
	left, right *redTuple
}

// redPiece is one piece { in -> out : cond } (a set when in is nil; no
// condition when cond is nil) over the parameters params.
type redPiece struct {
	params []string
	in     *redTuple
	out    redTuple
	cond   quasiaffine.Formula
}

// build returns the piece as a Map, within ctx's budget.
func (p redPiece) build(ctx context.Context) (*presburger.Map, error) {
	w := &redWalk{}
	var sp presburger.Space
	if p.in != nil {
		in := w.tuple(p.in)
		sp = presburger.MapSpace(p.params, in, w.tuple(&p.out))
	} else {
		sp = presburger.SetSpace(p.params, w.tuple(&p.out))
	}
	f := p.cond
	for _, e := range w.eqs {
		if f == nil {
			f = e
		} else {
			f = quasiaffine.And(e, f)
		}
	}
	if f == nil {
		f = quasiaffine.True()
	}
	m, err := quasiaffine.Set(ctx, p.params, w.scope, f)
	if err != nil {
		return nil, err
	}
	return m.Relabel(sp)
}

// redWalk walks the tuples of a piece: their dimensions (in scope, by
// their names in the formulas) and the equalities of the unnamed ones.
type redWalk struct {
	scope []string
	eqs   []quasiaffine.Formula
	anon  int
}

// bound reports whether name is a dimension of the piece already.
func (w *redWalk) bound(name string) bool {
	for _, n := range w.scope {
		if n == name {
			return true
		}
	}
	return false
}

// tuple returns the presburger tuple of t, recording its dimensions.
func (w *redWalk) tuple(t *redTuple) presburger.Tuple {
	if t.left != nil {
		l := w.tuple(t.left)
		r := w.tuple(t.right)
		return presburger.NestedTuple(t.name, l, r)
	}
	out := presburger.Tuple{Name: t.name, Dims: []string{}}
	for _, e := range t.elems {
		if id, ok := e.(*syntax.Ident); ok && len(id.Name) > 1 && id.Name[0] == '%' && !w.bound(id.Name) {
			w.scope = append(w.scope, id.Name)
			out.Dims = append(out.Dims, id.Name[1:])
			continue
		}
		name := fmt.Sprintf("%%#%d", w.anon)
		w.anon++
		w.scope = append(w.scope, name)
		out.Dims = append(out.Dims, "")
		w.eqs = append(w.eqs, redCmp(&syntax.Ident{Name: name}, syntax.OpEq, e))
	}
	return out
}

// redUnion returns the union of pieces, built in order, within ctx's
// budget.
func redUnion(ctx context.Context, pieces []redPiece) (*presburger.UnionMap, error) {
	ms := make([]*presburger.Map, 0, len(pieces))
	for _, p := range pieces {
		m, err := p.build(ctx)
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	return presburger.NewUnionMap(ms...), nil
}
