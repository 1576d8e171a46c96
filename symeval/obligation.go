package symeval

import (
	"context"
	"fmt"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
)

// This file builds the value obligations of rule S-ASSIGN (Clément 2022,
// Fig. 5.4), Ĉ = ⟦e⟧_h = {decompose(t)}, one obligation per context of
// ⟦e⟧_h, and those of the out bindings. The obligations are only part of
// what a proof needs: the side conditions (undefined reads, out-of-bounds
// writes, races, write-write conflicts, missing outputs) must hold too,
// and nothing here discharges anything (package validate does).

// obligation states that, for every value of the parameters satisfying
// the kernel's assumptions and every point (i, s) of Points, the
// implementation's value Impl[i] equals the annotation's value Spec[s]
// (i fills Impl's holes, s Spec's, in that order in the point).
type obligation struct {
	Assign *sched.Assign
	Impl   *Context
	Spec   *Context
	Points *presburger.Map
}

// valueObligations returns the obligations of the assignment st running
// at the given site.
func valueObligations(ctx context.Context, cs *Contexts, pr *Prophecy, st *sched.Assign, at site, info *sare.Info) (_ []obligation, err error) {
	defer guard(&err, "value obligations")
	ev := &valueEval{ctx: ctx, cs: cs, info: info, s: at.scope, h: at.heap}
	alts, err := ev.eval(st.Value)
	if err != nil {
		return nil, err
	}
	sv, err := cs.Decompose(st.Annot, info, at.scope)
	if err != nil {
		return nil, err
	}
	keys := make([]string, len(sv.holes))
	for i := range keys {
		keys[i] = outKey(i)
	}
	d, err := equalities(keys, sv.holes)
	if err != nil {
		return nil, err
	}
	spec, err := lowerDNF(holeSpace(at.scope.Params(), "", len(sv.holes)), d, nil)
	if err != nil {
		return nil, err
	}
	var out []obligation
	for _, a := range alts {
		if a, err = fuseHoles(ctx, a); err != nil {
			return nil, err
		}
		impl := cs.intern(a.tmpl, a.types, a.holes)
		pts, err := flatProduct(a.set, spec)
		if err != nil {
			return nil, err
		}
		if pts, err = restrictPoints(ctx, pts, at.scope.Facts(), pr.Assumptions); err != nil {
			return nil, fmt.Errorf("%s: value obligations: %w", st.Pos(), err)
		}
		out = append(out, obligation{Assign: st, Impl: impl, Spec: sv.Context, Points: pts})
	}
	return out, nil
}

// restrictPoints returns the points of an obligation restricted to the
// facts of the assignment's scope (nil: none) and to the assumptions,
// simplified. Facts or assumptions of several conjunctions (the pieces of
// a min in a tile's bounds, a compiler's specialisations) multiply the
// pieces of the points by their conjunctions, and simplifying the
// multiplied pieces is costly: the points are simplified before the
// restriction by the factor that multiplies them most, and only the empty
// pieces are dropped after, as finalHeap does for the final heap. The
// assumptions' conjunctions come last (they cost most of the symbolic
// evaluation of Halide's depthwise separable convolution, the points
// simplified within its facts first); the facts' come last too when they
// outnumber the assumptions' (the 16 of the accumulation of Halide's sgemm
// with a transposed operand, simplified after them, cost a fifth of its
// symbolic evaluation). Restricted after the simplification, the points
// meet the facts and the assumptions in one intersection with their
// nonempty conjunctions. The result is the same set either way; only its
// pieces may keep redundant constraints.
func restrictPoints(ctx context.Context, pts, facts, assumptions *presburger.Map) (*presburger.Map, error) {
	var err error
	if facts != nil {
		if facts.NumBasics() > 1 && facts.NumBasics() > assumptions.NumBasics() {
			// Simplified within the facts' common constraints only.
			if pts, err = pts.IntersectParams(commonFacts(facts)); err != nil {
				return nil, err
			}
			if pts, err = pts.Simplify(ctx); err != nil {
				return nil, err
			}
			// One intersection with the nonempty conjunctions of the facts
			// and the assumptions instead of one with each: the pieces
			// of the points meet those conjunctions pairwise, as they
			// met the facts' and then the assumptions', but without the
			// intermediate pieces, and those that an empty conjunction
			// would make empty are not built.
			within, err := facts.Intersect(assumptions)
			if err != nil {
				return nil, err
			}
			if within, err = within.DropEmpty(ctx); err != nil {
				return nil, err
			}
			if pts, err = pts.IntersectParams(within); err != nil {
				return nil, err
			}
			return pts.DropEmpty(ctx)
		}
		if pts, err = pts.IntersectParams(facts); err != nil {
			return nil, err
		}
	}
	if assumptions.NumBasics() <= 1 {
		if pts, err = pts.IntersectParams(assumptions); err != nil {
			return nil, err
		}
		return pts.Simplify(ctx)
	}
	if pts, err = pts.Simplify(ctx); err != nil {
		return nil, err
	}
	if pts, err = pts.IntersectParams(assumptions); err != nil {
		return nil, err
	}
	return pts.DropEmpty(ctx)
}

// outputObligations returns the obligations of the out bindings: every
// out cell's content in the final prophetic heap must equal the binding's
// tensor element (Impl is the cell's content, Spec the binding's tensor
// access). Cells without content are missingOutputs' business.
func outputObligations(ctx context.Context, pr *Prophecy, k *sched.Kernel, spec *sare.Spec) (_ []obligation, err error) {
	defer guard(&err, "output obligations")
	var params []string
	for _, id := range k.Params {
		params = append(params, id.Name)
	}
	s := NewScope(params)
	ev := &prophet{ctx: ctx, cs: pr.Contexts, spec: spec}
	var out []obligation
	for _, b := range k.Bindings {
		if b.Dir != sched.Out {
			continue
		}
		// The binding as a heap: { a[vars] -> T(□...)[args] : in bounds, where }.
		want, err := ev.binding(s, b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", b.Pos(), err)
		}
		if want, err = want.IntersectParams(pr.Assumptions); err != nil {
			return nil, err
		}
		cs := pr.Contexts.Lookup(want.Space().Out.Name)
		for _, m := range pr.Final.u.Maps() {
			if m.Space().In.Name != b.Array.Name || m.Space().NumIn() != want.Space().NumIn() {
				continue
			}
			pairs, err := m.Reverse().ApplyRange(want)
			if err != nil {
				return nil, err
			}
			ci := pr.Contexts.Lookup(m.Space().Out.Name)
			if ci == nil || cs == nil {
				return nil, fmt.Errorf("%s: unknown context", b.Pos())
			}
			empty, err := pairs.IsEmpty(ctx)
			if err != nil {
				return nil, err
			}
			if empty {
				continue
			}
			w, err := pairs.Wrap()
			if err != nil {
				return nil, err
			}
			pts, err := respace(w, holeSpace(nil, "", ci.Holes+cs.Holes))
			if err != nil {
				return nil, err
			}
			out = append(out, obligation{Impl: ci, Spec: cs, Points: pts})
		}
	}
	return out, nil
}
