package symeval

import (
	"context"
	"sort"

	"github.com/augur-verify/augur/presburger"
)

// This file removes from a store's indices the floor divisions that the
// store's scope fixes to zero.
//
// A compiler that flattens a buffer and a frontend that delinearises its
// accesses again write a cell's coordinates as (p % W, p / W + r): the
// column p of a row of width W, and its carry into the row r. Where the
// compiler's own bounds keep p within [0, W) the carry is 0 and the
// remainder p itself, but only under the scope's facts: in Halide's
// stencil_chain at the final stage, the loops that partition_loops
// splits over a folded buffer of 388 columns have ranges that are lets of
// mins, maxes and divisions, and each store's p / 388 and p % 388 stayed
// floor divisions. Their last writes over the buffer's rows combine the
// carry with the fold (divisions by 8 × 388), and the rows' iterated
// update left a heap of 3,120 conjunctions that its simplification, and
// the subtraction of its cells from the heap before it, could not handle
// within their budgets. With the carry fixed, the writes are those of
// the loops that do not split.

// fixedDivisions returns v with each floor division floor(p / d) of its
// pieces' values that the facts and assumptions of s bound to zero, every
// point of the piece's condition where s is reached having 0 <= p < d,
// replaced by 0 (a remainder p - d·floor(p / d) becomes p). The pieces
// are the same values wherever s is reached under the assumptions, as
// prune's are; a store's cells are only ever taken there (see assign).
// A division whose tests exceed their budget is kept. changed tells
// whether any division was replaced (else the result is v).
func (s *Scope) fixedDivisions(ctx context.Context, v pwExpr) (_ pwExpr, changed bool, _ error) {
	var known *knownDomain
	out, copied := v, false
	for i, pc := range v {
		e, fixed := pc.e, false
		kept := map[string]bool{} // the divisions tested and kept
		for again := true; again; {
			again = false
			for _, k := range sortedDivs(e) {
				if kept[k] {
					continue
				}
				if known == nil {
					var err error
					if known, err = s.known(); err != nil || known == nil {
						return v, false, err
					}
				}
				zero, err := s.divisionZero(ctx, known, pc.cond, e.divs[k])
				if err != nil {
					return nil, false, err
				}
				if !zero {
					kept[k] = true
					continue
				}
				e = substDivision(e, k, presburger.Int{})
				again, fixed = true, true
				break
			}
		}
		if !fixed {
			continue
		}
		if !copied {
			out, copied = append(pwExpr(nil), v...), true
		}
		out[i] = piece{cond: pc.cond, e: e}
	}
	return out, copied, nil
}

// fixedHoles returns sv with fixedDivisions applied to its holes' values
// (sv itself when none changes).
func (s *Scope) fixedHoles(ctx context.Context, sv *SymbolicValue) (*SymbolicValue, error) {
	var holes []pwExpr
	for i, h := range sv.holes {
		f, changed, err := s.fixedDivisions(ctx, h)
		if err != nil {
			return nil, err
		}
		if changed && holes == nil {
			holes = append([]pwExpr(nil), sv.holes...)
		}
		if holes != nil {
			holes[i] = f
		}
	}
	if holes == nil {
		return sv, nil
	}
	fixed := *sv
	fixed.holes = holes
	return &fixed, nil
}

// sortedDivs returns the keys of the divisions among e's terms, in order.
func sortedDivs(e linear) []string {
	var ks []string
	for t := range e.terms {
		if t.div != "" {
			ks = append(ks, t.div)
		}
	}
	sort.Strings(ks)
	return ks
}

// divisionZero reports whether every point of cond where known holds has
// 0 <= d.num < d.den: both num < 0 and num >= den are excluded there,
// conjunction by conjunction. A test past its budget answers false.
func (s *Scope) divisionZero(ctx context.Context, known *knownDomain, cond dnf, d *division) (bool, error) {
	if cond == nil {
		cond = dnfTrue()
	}
	one := presburger.NewInt(1)
	below := atom{e: d.num.scale(one.Neg()).add(constLinear(-1), one)}
	above := atom{e: d.num.add(linear{c: d.den}, one.Neg())}
	sp := presburger.ParamSpace(s.Params())
	bctx := presburger.WithBudget(ctx, presburger.Budget{MaxSteps: coalesceSteps})
	for _, c := range cond {
		for _, a := range []atom{below, above} {
			if err := s.w.charge(1 + int64(len(c)+1)/atomsPerStep); err != nil {
				return false, err
			}
			b, err := lowerConj(sp, c, conj{a})
			if err != nil {
				return false, nil
			}
			empty, err := known.excludes(bctx, presburger.NewMap(sp, b))
			switch {
			case isBudget(err):
				return false, nil
			case err != nil:
				return false, err
			case !empty:
				return false, nil
			}
		}
	}
	return true, nil
}

// substDivision returns e with the division of key k replaced by the
// constant val, in its terms and in the numerators of its other
// divisions.
func substDivision(e linear, k string, val presburger.Int) linear {
	out := linear{c: e.c}
	one := presburger.NewInt(1)
	for t, coef := range e.terms {
		var x linear
		switch {
		case t.div == k:
			x = linear{c: val}
		case t.div != "":
			d := e.divs[t.div]
			x = substDivision(d.num, k, val).floorDiv(d.den)
		default:
			x = varLinear(t.v)
		}
		out = out.add(x.scale(coef), one)
	}
	return out
}
