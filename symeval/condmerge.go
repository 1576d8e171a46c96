package symeval

import (
	"context"

	"github.com/augur-verify/augur/presburger"
)

// This file merges the conjunctions of one piece's condition in the
// piecewise value of a read's index (readLocation). The pieces of equal
// value that Scope.prune merges keep their conditions as a disjunction,
// and every conjunction becomes a piece of each set built from the value:
// Halide's clamped index max(min(x + base, hi), lo), with base =
// min(8*t + min(extent, 8) - 11, extent - 5), has the value hi under three
// conjunctions (which branch of base, and extent = 8 or extent > 8 under
// the assumption extent >= 8), where one conjunction says as much under
// the scope's facts and assumptions. The read of a copy stage through a
// boundary condition multiplies its indices' conjunctions, and the
// obligations of the stage multiply its reads'. Let values are not merged:
// the tests cost more than they save on the lets of most kernels (a tiled
// matrix product's), whose pieces seldom merge.

// mergeConds returns the pruned value v (Scope.prune) with the
// conjunctions of each piece's condition merged under the scope's facts
// and assumptions (mergeConjs).
func (s *Scope) mergeConds(ctx context.Context, v pwExpr) (pwExpr, error) {
	known, err := s.known()
	if err != nil || known == nil {
		return v, err
	}
	sp := presburger.ParamSpace(s.Params())
	out := append(pwExpr(nil), v...)
	for i := range out {
		if out[i].cond, err = mergeConjs(ctx, sp, known, out[i].cond); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// known returns the parameter domain of the scope's facts and
// assumptions, nil when there are none.
func (s *Scope) known() (*knownDomain, error) {
	return newKnownDomain(s.facts, s.assumed)
}

// maxMergedConjs bounds the conjunctions of one piece that mergeConjs
// compares pairwise.
const maxMergedConjs = 6

// mergeConjs returns the disjunction d in fewer conjunctions where it can:
// two conjunctions a and b become the one h of the atoms of a that hold
// wherever b and known do and those of b that hold wherever a and known
// do (isl's coalescing of two basic sets), when h has no point under
// known outside a and b. Then h ∪ a ∪ b = h, and h = a ∪ b under known:
// the result is d wherever known holds, which is all a pruned value
// promises (Scope.prune).
func mergeConjs(ctx context.Context, sp presburger.Space, known *knownDomain, d dnf) (dnf, error) {
	if len(d) < 2 || len(d) > maxMergedConjs {
		return d, nil
	}
	out := append(dnf(nil), d...)
	for i := 0; i < len(out); i++ {
		for j := i + 1; j < len(out); j++ {
			h, ok, err := hullOf(ctx, sp, known, out[i], out[j])
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			out[i] = h
			out = append(out[:j], out[j+1:]...)
			j = i // compare the merged conjunction with all the others again
		}
	}
	return out, nil
}

// hullOf returns the merge of conjunctions a and b under known (see
// mergeConjs), and whether it is exact.
func hullOf(ctx context.Context, sp presburger.Space, known *knownDomain, a, b conj) (conj, bool, error) {
	var h conj
	for _, pair := range [2][2]conj{{a, b}, {b, a}} {
		for _, x := range pair[0] {
			// x holds on pair[1] under known: pair[1] ∧ ¬x is empty.
			valid := true
			for _, n := range negations(x) {
				empty, err := emptyUnder(ctx, sp, known, pair[1], conj{n})
				if err != nil {
					return nil, false, err
				}
				if !empty {
					valid = false
					break
				}
			}
			if valid {
				h = append(h, x)
			}
		}
	}
	// h ∧ known ⊆ a ∪ b: h ∧ ¬a ∧ ¬b is empty under known, for every
	// choice of an atom of a and one of b to negate.
	for _, x := range a {
		for _, nx := range negations(x) {
			for _, y := range b {
				for _, ny := range negations(y) {
					empty, err := emptyUnder(ctx, sp, known, h, conj{nx, ny})
					if err != nil {
						return nil, false, err
					}
					if !empty {
						return nil, false, nil
					}
				}
			}
		}
	}
	return h, true, nil
}

// negations returns the atoms whose disjunction is the negation of a:
// e < 0 for e >= 0, e < 0 or e > 0 for e == 0.
func negations(a atom) []atom {
	one := presburger.NewInt(1)
	lt := atom{e: a.e.scale(one.Neg()).add(constLinear(-1), one)} // -e - 1 >= 0
	if !a.eq {
		return []atom{lt}
	}
	gt := atom{e: a.e.add(constLinear(-1), one)} // e - 1 >= 0
	return []atom{lt, gt}
}

// emptyUnder reports whether the conjunction of c and extra has no point
// where known holds.
func emptyUnder(ctx context.Context, sp presburger.Space, known *knownDomain, c, extra conj) (bool, error) {
	b, err := lowerConj(sp, c, extra)
	if err != nil {
		return false, err
	}
	return known.excludes(ctx, presburger.NewMap(sp, b))
}
