package symeval

import (
	"context"

	"github.com/augur-verify/augur/presburger"
)

// conjoinAssumptions returns the parameter domain of the assume lines
// whose constraints are cs, over the parameter space sp, simplified and
// coalesced.
//
// Compilers' assumptions are full of min, max, select and floor division
// (Halide's checks on buffer sizes), each of which splits a constraint
// into pieces, and most of those pieces contradict the plain constraints
// among the assumptions: the equalities that pin a buffer's minimum to 0
// or one extent to another, usually stated last. Conjoined in the order
// of the lines, compacting at each step (conjoinInOrder), the
// intermediate domains carry the pieces until those equalities come, and
// coalescing them was most of the prophetic evaluation of Halide's
// sgemm. conjoinPlainFirst takes the constraints of one piece first.
//
// Both give the same set, the intersection of all the constraints, but
// not always the same pieces: a domain of several pieces (a compiler's
// specialisations) may come out split otherwise, and every heap restricted
// to it later multiplies its pieces by them. When conjoinPlainFirst's
// domain has more than one piece, the pieces of the order of the lines
// are computed too, and kept unless they are more.
func conjoinAssumptions(ctx context.Context, sp presburger.Space, cs []*presburger.Map) (*presburger.Map, error) {
	fast, err := conjoinPlainFirst(ctx, sp, cs)
	if err != nil || fast.NumBasics() <= 1 {
		return fast, err
	}
	seq, err := conjoinInOrder(ctx, sp, cs)
	if err != nil {
		return nil, err
	}
	if seq.NumBasics() <= fast.NumBasics() {
		return seq, nil
	}
	return fast, nil
}

// maxAssumeProduct bounds the conjunctions that an assume's cases times
// those of the domain so far may make before the assume is compacted on
// its own (conjoinInOrder). Below it, the product is compacted as a
// whole, which can merge across the assume's cases.
const maxAssumeProduct = 64

// conjoinInOrder conjoins the constraints cs in their order, compacting
// the domain at each step.
func conjoinInOrder(ctx context.Context, sp presburger.Space, cs []*presburger.Map) (*presburger.Map, error) {
	dom := presburger.Universe(sp)
	for _, c := range cs {
		var err error
		// A constraint of many cases (a chain of selects, mins and
		// maxes) is compacted on its own first when its cases would
		// multiply those of the domain so far into many conjunctions to
		// compact (dsc's select chain of 32 cases made 246 of them).
		if c.NumBasics()*dom.NumBasics() > maxAssumeProduct {
			if c, err = compactDomain(ctx, c); err != nil {
				return nil, err
			}
		}
		if dom, err = dom.Intersect(c); err != nil {
			return nil, err
		}
		if dom, err = compactDomain(ctx, dom); err != nil {
			return nil, err
		}
	}
	return dom, nil
}

// conjoinPlainFirst conjoins the constraints of one piece among cs first,
// into the context C; every constraint of several pieces is then
// restricted to C and compacted on its own, which drops the pieces that
// contradict C before they meet the others, and conjoined with the
// domain in the order of the lines.
func conjoinPlainFirst(ctx context.Context, sp presburger.Space, cs []*presburger.Map) (*presburger.Map, error) {
	c := presburger.Universe(sp)
	var multi []*presburger.Map
	for _, m := range cs {
		if m.NumBasics() > 1 {
			multi = append(multi, m)
			continue
		}
		var err error
		if c, err = c.Intersect(m); err != nil {
			return nil, err
		}
	}
	c, err := compactDomain(ctx, c)
	if err != nil {
		return nil, err
	}
	dom := c
	for _, m := range multi {
		if m, err = m.Intersect(c); err != nil {
			return nil, err
		}
		if m, err = compactDomain(ctx, m); err != nil {
			return nil, err
		}
		if dom, err = dom.Intersect(m); err != nil {
			return nil, err
		}
		if dom, err = compactDomain(ctx, dom); err != nil {
			return nil, err
		}
	}
	return dom, nil
}
