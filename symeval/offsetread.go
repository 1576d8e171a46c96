package symeval

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// This file gives undefinedReads a superset of an assignment's reads in
// few pieces when its accesses to an array differ only in constant
// offsets: the 25 reads of a 5x5 stencil, buf[x + i, (y + j) % 8] for i
// and j from -2 to 2, are 25 locations of as many pieces as the scope's
// lets split them into (8 in Halide's tiled stencils, for the tails of
// its tiles), and the heap's cells are subtracted from those 200 pieces
// one at a time, the cost of each growing with the pieces of the heap
// (many where the heap is a whole image written by tiles, as in the
// stages computed at root of the stencil chain). Read as
// buf[x + a, (y + b) % 8] with -2 <= a, b <= 2, the same cells are 8
// pieces, and the subtractions 8.

// offsetReads returns a superset of reads(e) in scope s, with the
// accesses to an array that differ only in the integer constants of the
// sums of their indices (their offset forms, holeSums, are the same) read
// as one access whose constants range over theirs, and whether some
// accesses were so merged (otherwise it is nil). It is exact when the
// constants of the merged accesses are every combination of their
// ranges, as a stencil's are.
func offsetReads(ctx context.Context, s *Scope, e syntax.Expr) (*presburger.UnionMap, bool, error) {
	type group struct {
		first  *syntax.Index
		form   []syntax.Expr // the indices with holes
		consts [][]int64     // the constants of each access
	}
	var groups []*group
	byKey := map[string]*group{}
	merged := false
	syntax.Inspect(e, func(x syntax.Expr) bool {
		ix, ok := x.(*syntax.Index)
		if !ok || isDataRead(ix) {
			return true
		}
		var consts []int64
		form := make([]syntax.Expr, len(ix.Indices))
		keys := make([]string, len(ix.Indices))
		for i, d := range ix.Indices {
			form[i] = holeSums(d, &consts)
			keys[i] = syntax.ExprString(form[i])
		}
		k := ix.Array.Name + "[" + strings.Join(keys, ", ") + "]"
		g, ok := byKey[k]
		if !ok {
			g = &group{first: ix, form: form}
			byKey[k] = g
			groups = append(groups, g)
		} else {
			merged = true
		}
		g.consts = append(g.consts, consts)
		return true
	})
	if !merged {
		return nil, false, nil
	}
	var locs []*presburger.Map
	for _, g := range groups {
		var l *presburger.Map
		var err error
		if len(g.consts) == 1 {
			l, err = readLocation(ctx, s, g.first)
		} else {
			l, err = offsetLocation(ctx, s, g.first.Array, g.form, g.consts)
		}
		if err != nil {
			return nil, false, err
		}
		locs = append(locs, l)
	}
	return presburger.NewUnionMap(locs...), true, nil
}

// offsetLocation returns the cells of array a at the indices form (in
// offset form, holeSums), the k-th hole ranging from the least to the
// greatest of consts[.][k]: the location in s extended with a parameter
// per hole whose constants differ, within its range, projected out.
func offsetLocation(ctx context.Context, s *Scope, a *syntax.Ident, form []syntax.Expr, consts [][]int64) (*presburger.Map, error) {
	n := len(consts[0])
	fill := make([]syntax.Expr, n)
	inner := s
	var ranges []*presburger.Map
	for k := range n {
		lo, hi := consts[0][k], consts[0][k]
		for _, c := range consts[1:] {
			lo, hi = min(lo, c[k]), max(hi, c[k])
		}
		if lo == hi {
			fill[k] = intLit(lo)
			continue
		}
		if hi == math.MaxInt64 {
			return nil, fmt.Errorf("offset reads of %s: offset %d out of range", a.Name, hi)
		}
		var p string
		inner, p = inner.With(holeName(k))
		fill[k] = &syntax.Ident{Name: holeName(k)}
		r, err := inner.Range(p, intLit(lo), intLit(hi+1))
		if err != nil {
			return nil, err
		}
		// As a fact, the range prunes the location's pieces
		// (buildReadLocation).
		if inner, err = inner.Assume(r); err != nil {
			return nil, err
		}
		ranges = append(ranges, r)
	}
	ix := &syntax.Index{Array: a, Indices: make([]syntax.Expr, len(form))}
	for i, f := range form {
		ix.Indices[i] = fillHoles(f, fill)
	}
	l, err := buildReadLocation(ctx, inner, ix)
	if err != nil {
		return nil, err
	}
	for _, r := range ranges {
		if l, err = l.IntersectParams(r); err != nil {
			return nil, err
		}
	}
	out, err := l.ProjectOut(presburger.DimParam, len(s.params), len(ranges))
	if err != nil {
		return nil, fmt.Errorf("offset reads of %s: %w", a.Name, err)
	}
	if got := out.Space().Params; !slices.Equal(got, s.params) {
		return nil, fmt.Errorf("offset reads of %s: parameters %v, want %v", a.Name, got, s.params)
	}
	return out, nil
}

// holeName is the name of the k-th hole of an offset form (holeSums): no
// source name, which are identifiers.
func holeName(k int) string { return fmt.Sprintf("offset#%d", k) }

// holeSums returns x with the integer constant of each of its sums taken
// out and replaced by a hole (an identifier holeName(k), k counting the
// holes of the index expression so far), the constants appended to
// consts: the offset form of an index, in which accesses that differ
// only in their constants are the same. The sums are x itself and, in
// it, the operands of min, max and select and the dividends of / and %
// (the other operands, the factors of a product say, are kept whole).
// A sum without a constant has the constant 0.
func holeSums(x syntax.Expr, consts *[]int64) syntax.Expr {
	type term struct {
		neg bool
		x   syntax.Expr
	}
	var terms []term
	var c int64
	var flatten func(x syntax.Expr, neg bool)
	flatten = func(x syntax.Expr, neg bool) {
		switch x := x.(type) {
		case *syntax.Binary:
			if x.Op == syntax.OpAdd || x.Op == syntax.OpSub {
				flatten(x.X, neg)
				flatten(x.Y, neg != (x.Op == syntax.OpSub))
				return
			}
		case *syntax.Unary:
			if x.Op == syntax.OpNeg {
				flatten(x.X, !neg)
				return
			}
		case *syntax.Lit:
			if v, ok := intValue(x); ok && v != math.MinInt64 {
				if neg {
					v = -v
				}
				if sum := c + v; (sum > c) == (v > 0) || v == 0 {
					c = sum
					return
				}
			}
		}
		terms = append(terms, term{neg, x})
	}
	flatten(x, false)
	k := len(*consts)
	*consts = append(*consts, c)
	var out syntax.Expr
	for _, t := range terms {
		tx := holeInside(t.x, consts)
		switch {
		case out == nil && t.neg:
			out = &syntax.Unary{Op: syntax.OpNeg, X: tx}
		case out == nil:
			out = tx
		case t.neg:
			out = &syntax.Binary{X: out, Op: syntax.OpSub, Y: tx}
		default:
			out = &syntax.Binary{X: out, Op: syntax.OpAdd, Y: tx}
		}
	}
	hole := &syntax.Ident{Name: holeName(k)}
	if out == nil {
		return hole
	}
	return &syntax.Binary{X: out, Op: syntax.OpAdd, Y: hole}
}

// holeInside returns the term x of a sum with the sums inside it in
// offset form (holeSums).
func holeInside(x syntax.Expr, consts *[]int64) syntax.Expr {
	switch x := x.(type) {
	case *syntax.Binary:
		if x.Op == syntax.OpDiv || x.Op == syntax.OpRem {
			return &syntax.Binary{X: holeSums(x.X, consts), Op: x.Op, Y: x.Y}
		}
	case *syntax.Call:
		switch x.Fun.Name {
		case "min", "max", "select":
			args := make([]syntax.Expr, len(x.Args))
			for i, a := range x.Args {
				if x.Fun.Name == "select" && i == 0 {
					args[i] = a // a condition
					continue
				}
				args[i] = holeSums(a, consts)
			}
			return &syntax.Call{Fun: x.Fun, Args: args}
		}
	}
	return x
}

// fillHoles returns x with its holes (holeName(k)) replaced by fill[k].
func fillHoles(x syntax.Expr, fill []syntax.Expr) syntax.Expr {
	switch x := x.(type) {
	case *syntax.Ident:
		for k, f := range fill {
			if x.Name == holeName(k) {
				return f
			}
		}
	case *syntax.Binary:
		return &syntax.Binary{X: fillHoles(x.X, fill), Op: x.Op, Y: fillHoles(x.Y, fill)}
	case *syntax.Unary:
		return &syntax.Unary{OpPos: x.OpPos, Op: x.Op, X: fillHoles(x.X, fill)}
	case *syntax.Call:
		args := make([]syntax.Expr, len(x.Args))
		for i, a := range x.Args {
			args[i] = fillHoles(a, fill)
		}
		return &syntax.Call{Fun: x.Fun, Args: args}
	}
	return x
}

// intValue returns the value of an integer literal.
func intValue(x *syntax.Lit) (int64, bool) {
	if x.Kind != syntax.IntLiteral {
		return 0, false
	}
	v, err := value.Literal(syntax.I64, x.Text)
	if err != nil {
		return 0, false
	}
	return v.Int64(), true
}
