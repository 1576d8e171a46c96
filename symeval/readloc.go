package symeval

import (
	"context"
	"fmt"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// This file builds the location of a read for its value (valueEval.read)
// in as few pieces as the scope allows. A boundary condition clamps each
// index into its array, max(min(i, hi), lo): two case splits per index,
// times those of the lets inside it, so that a read of Halide's
// repeat_edge has hundreds of pieces, most of which the kernel's
// assumptions rule out (the array is not empty, the output lies inside
// the input). Every piece multiplies through the products of the
// expression's reads (productPieces) into the points of its value
// obligation, each a query of its own.

// readLocation returns the symbolic location of the array access x in
// scope s, as location does, but, when it would have more than
// maxUnprunedRead pieces, with every index's pieces pruned under the
// scope's facts and assumptions (Scope.prune, as for a let's value):
// the same set wherever the scope can be reached under the assumptions,
// which is all a value obligation needs, since its points are restricted
// to the facts and the assumptions (valueObligations).
//
// The location is memoised in s: every condition of an assignment reads
// it.
func readLocation(ctx context.Context, s *Scope, x *syntax.Index) (*presburger.Map, error) {
	if l, ok := s.locs.lookup(x); ok {
		return l, nil
	}
	l, err := buildReadLocation(ctx, s, x)
	if err != nil {
		return nil, err
	}
	s.locs.store(x, l)
	return l, nil
}

// buildReadLocation is readLocation without the memo.
func buildReadLocation(ctx context.Context, s *Scope, x *syntax.Index) (*presburger.Map, error) {
	tr := s.translator()
	vs := make([]presburger.Var, len(x.Indices))
	es := make([]pwExpr, len(x.Indices))
	dims := make([]string, len(x.Indices))
	pieces := 1 // of the location unpruned, at most
	for i, ix := range x.Indices {
		v, err := tr.index(ix)
		if err != nil {
			return nil, err
		}
		n := 0
		for _, p := range v {
			n += len(p.cond)
		}
		pieces = min(pieces*max(n, 1), maxPieces)
		vs[i], es[i], dims[i] = presburger.OutVar(i), v, fmt.Sprintf("i%d", i)
	}
	if pieces > maxUnprunedRead {
		for i, ix := range x.Indices {
			var err error
			if es[i], err = s.prune(ctx, es[i]); err != nil {
				return nil, fmt.Errorf("index %s: %w", syntax.ExprString(ix), err)
			}
			if es[i], err = s.mergeConds(ctx, es[i]); err != nil {
				return nil, fmt.Errorf("index %s: %w", syntax.ExprString(ix), err)
			}
		}
	}
	d, err := s.w.equalities(vs, es)
	if err != nil {
		return nil, err
	}
	return lowerDNF(presburger.SetSpace(s.Params(), presburger.FlatTuple(x.Array.Name, dims...)), d, nil)
}

// maxUnprunedRead is the most pieces a read's location keeps unpruned:
// pruning costs emptiness tests, which a location of a few pieces does
// not repay.
const maxUnprunedRead = 8

// unionAll returns the union of us, each space's component built in one
// step: a union of n parts one at a time copies the pieces of the first
// n-1 times over.
func unionAll(us []*presburger.UnionMap) (*presburger.UnionMap, error) {
	byKey := map[string][]*presburger.Map{}
	var order []string
	for _, u := range us {
		for _, m := range u.Maps() {
			k := m.Space().Key()
			if _, ok := byKey[k]; !ok {
				order = append(order, k)
			}
			byKey[k] = append(byKey[k], m)
		}
	}
	out := make([]*presburger.Map, 0, len(order))
	for _, k := range order {
		ms := byKey[k]
		// Pairwise, halving the list each round: every piece is copied
		// once per round, log2(n) times in all.
		for len(ms) > 1 {
			next := make([]*presburger.Map, 0, (len(ms)+1)/2)
			for i := 0; i+1 < len(ms); i += 2 {
				m, err := ms[i].Union(ms[i+1])
				if err != nil {
					return nil, err
				}
				next = append(next, m)
			}
			if len(ms)%2 == 1 {
				next = append(next, ms[len(ms)-1])
			}
			ms = next
		}
		out = append(out, ms[0])
	}
	return presburger.NewUnionMap(out...), nil
}

// prunedCellMap is cellMap (without a condition) for a store whose
// cell map ran out of pieces: each index and each hole of the
// annotation's value first pruned under the scope's facts and
// assumptions (prunedPieces), as a read's location is. Halide's final
// statement writes nl_means's d at indices and an annotation that
// repeat the mins and maxes of the tiles' bases over the parameters
// inline (no let names them): hundreds of pieces per hole, most of them
// empty where the assumptions hold, whose product passes maxPieces. The
// write is the same wherever the scope can be reached under the
// assumptions: the enclosing loops and ifs restrict it to their ranges
// and conditions, and every condition read from the heap is decided
// under the assumptions.
func (p *prophet) prunedCellMap(s *Scope, array string, idx []pwExpr, sv *SymbolicValue) (*presburger.Map, error) {
	idx, err := s.prunedPieces(p.ctx, idx)
	if err != nil {
		return nil, err
	}
	holes, err := s.prunedPieces(p.ctx, sv.holes)
	if err != nil {
		return nil, err
	}
	pruned := *sv
	pruned.holes = holes
	return p.cellMap(s, array, nil, idx, &pruned, nil)
}

// prunedPieces returns each of vs with the pieces that cannot occur
// under the facts and assumptions of s dropped and the conjunctions of
// each piece merged where they can be (Scope.prune, Scope.mergeConds):
// the same values wherever s can be reached under the assumptions.
func (s *Scope) prunedPieces(ctx context.Context, vs []pwExpr) ([]pwExpr, error) {
	out := make([]pwExpr, len(vs))
	for i, v := range vs {
		var err error
		if out[i], err = s.prune(ctx, v); err != nil {
			return nil, err
		}
		if out[i], err = s.mergeConds(ctx, out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// prunedEqualities is equalities(vs, es), or, when that runs out of
// pieces, the equalities of es pruned under the facts and assumptions
// of s (prunedPieces): the same points wherever s can be reached under
// the assumptions, to which a value obligation's points are restricted.
func (s *Scope) prunedEqualities(ctx context.Context, vs []presburger.Var, es []pwExpr) (dnf, error) {
	d, err := equalities(vs, es)
	if !outOfPieces(err) {
		return d, err
	}
	if es, err = s.prunedPieces(ctx, es); err != nil {
		return nil, err
	}
	return equalities(vs, es)
}
