package symeval

import (
	"context"
	"fmt"

	"github.com/augur-verify/augur/expr"
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
// (i fills Impl's holes, s Spec's, in that order in the point). Assign
// is the assignment whose value it checks, Binding the out binding whose
// cells it checks when the kernel ends; at most one is set. Assumed is
// Obligation.Assumed.
type obligation struct {
	Assign  *sched.Assign
	Binding *sched.Binding
	Impl    *Context
	Spec    *Context
	Points  *presburger.Map
	Assumed *presburger.Map
}

// valueObligations returns the obligations of the assignment st running
// at the given site; copies are the specification's copy equations that
// its data-dependent reads may use.
func valueObligations(ctx context.Context, cs *Contexts, pr *Prophecy, st *sched.Assign, at site, info *expr.Info, copies map[string][]specCopy) (_ []obligation, err error) {
	defer guard(&err, "value obligations")
	ev := &valueEval{ctx: ctx, cs: cs, info: info, s: at.scope, h: at.heap, copies: copies, size: newProductSize(ctx)}
	alts, err := ev.eval(st.Value)
	if err != nil {
		return nil, err
	}
	sv, err := cs.Decompose(st.Annot, info, at.scope)
	if err != nil {
		return nil, err
	}
	vs := make([]presburger.Var, len(sv.holes))
	for i := range vs {
		vs[i] = presburger.OutVar(i)
	}
	d, err := at.scope.prunedEqualities(ctx, vs, sv.holes)
	if err != nil {
		return nil, err
	}
	spec, err := lowerDNF(holeSpace(at.scope.Params(), "", len(sv.holes)), d, nil)
	if err != nil {
		return nil, err
	}
	facts := at.scope.Facts()
	// Under facts of more conjunctions than the assumptions (the pieces
	// of a min in a tile's bounds), the points are restricted piece by
	// piece, by their parameter domains (restrictPieces); within holds
	// the conjunctions of the facts and the assumptions that are not
	// empty, computed once for all the alternatives.
	var within []*pieceDomain
	if facts != nil && facts.NumBasics() > 1 && facts.NumBasics() > pr.Assumptions.NumBasics() {
		if within, err = knownConjunctions(ctx, facts, pr.Assumptions); err != nil {
			return nil, fmt.Errorf("%s: value obligations: %w", st.Pos(), err)
		}
	}
	var specDoms []*pieceDomain
	var out []obligation
	for _, a := range alts {
		if a, err = fuseHoles(ctx, a); err != nil {
			return nil, err
		}
		impl := cs.intern(a.tmpl, a.types, a.holes)
		var pts, assumed *presburger.Map
		if within != nil {
			doms := a.doms
			if doms == nil {
				doms = pieceDomains(a.set)
			}
			if specDoms == nil {
				specDoms = pieceDomains(spec)
			}
			pts, doms, err = productPieces(ctx, a.set, doms, spec, specDoms, ev.size)
			if err == nil {
				pts, err = restrictPieces(ctx, pts, doms, within)
			}
		} else if pts, err = flatProduct(a.set, spec); err == nil {
			if err = ev.size.add(pts); err == nil {
				pts, assumed, err = restrictPoints(ctx, pts, facts, pr.Assumptions, ev.size)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("%s: value obligations: %w", st.Pos(), err)
		}
		out = append(out, obligation{Assign: st, Impl: impl, Spec: sv.Context, Points: pts, Assumed: assumed})
	}
	return out, nil
}

// knownConjunctions returns the conjunctions of facts ∩ assumptions that
// are not empty, as the domains that restrictPieces meets.
func knownConjunctions(ctx context.Context, facts, assumptions *presburger.Map) ([]*pieceDomain, error) {
	within, err := facts.Intersect(assumptions)
	if err != nil {
		return nil, err
	}
	if err := chargeBuilt(ctx, facts.NumBasics()*assumptions.NumBasics(), within); err != nil {
		return nil, fmt.Errorf("known conjunctions: %w", err)
	}
	if within, err = within.DropEmpty(ctx); err != nil {
		return nil, err
	}
	out := make([]*pieceDomain, 0, within.NumBasics())
	for _, p := range within.Pieces() {
		out = append(out, newPieceDomain(p))
	}
	return out, nil
}

// restrictPieces returns the points pts of an obligation restricted to
// the union of the parameter domains within (the nonempty conjunctions of
// the facts and the assumptions, knownConjunctions), given doms, the
// parameter domain of every piece of pts in the order of its pieces, as
// productPieces returns them. It is the same set as restrictPoints', in
// other pieces: every piece of pts is intersected with the conjunctions
// that its domain meets, and the pieces are not simplified (neither were
// restrictPoints' after an intersection with several conjunctions).
//
// Soundness: a piece p and a conjunction w, a set of parameter values,
// have a common point exactly when w meets the projection of p onto the
// parameters, which is p's domain (pieceDomains, productPieces; a
// superset would do, at worst keeping an empty piece). A pair is dropped
// only when the domain and w contradict each other (two opposite
// inequalities, pieceDomain.contradicts) or their intersection, a set of
// parameter values alone, is empty: then p ∩ w is empty, and no point
// where the statement runs loses its obligation.
//
// Restricting the whole of pts to the facts and then to the assumptions
// built every pair, with the holes and the local variables of both, to
// find most of them empty, and simplified the points first: the
// accumulation of Halide's sgemm with a transposed operand has 96 pieces
// of points under 8 such conjunctions, and 120 of the 768 pairs meet.
func restrictPieces(ctx context.Context, pts *presburger.Map, doms []*pieceDomain, within []*pieceDomain) (*presburger.Map, error) {
	if len(doms) != pts.NumBasics() {
		return nil, fmt.Errorf("restrict points: %d domains for %d pieces", len(doms), pts.NumBasics())
	}
	// The pieces of one product share their domain (productPieces):
	// the conjunctions each domain meets, by domain.
	meets := map[*pieceDomain][]*presburger.Map{}
	sp := pts.Space()
	var out []*presburger.BasicMap
	for i, p := range pts.Pieces() {
		ws, ok := meets[doms[i]]
		if !ok {
			var err error
			if ws, err = meeting(ctx, doms[i], within); err != nil {
				return nil, err
			}
			meets[doms[i]] = ws
		}
		for _, w := range ws {
			r, err := p.IntersectParams(w)
			if err != nil {
				return nil, err
			}
			if err := chargeBuilt(ctx, w.NumBasics(), r); err != nil {
				return nil, fmt.Errorf("restrict points: %w", err)
			}
			out = append(out, r.Basics()...)
		}
	}
	return presburger.NewMap(sp, out...), nil
}

// meeting returns the parameter domains of within that meet d (see
// restrictPieces).
func meeting(ctx context.Context, d *pieceDomain, within []*pieceDomain) ([]*presburger.Map, error) {
	var out []*presburger.Map
	for _, w := range within {
		if d.contradicts(w) {
			continue
		}
		dm, err := d.m.Intersect(w.m)
		if err != nil {
			return nil, err
		}
		if err := chargeBuilt(ctx, d.m.NumBasics()*w.m.NumBasics(), dm); err != nil {
			return nil, fmt.Errorf("restrict points: %w", err)
		}
		empty, err := dm.IsEmpty(ctx)
		if err != nil {
			return nil, err
		}
		if !empty {
			out = append(out, w.m)
		}
	}
	return out, nil
}

// restrictPoints returns the points of an obligation restricted to the
// facts of the assignment's scope (nil: none) and to the assumptions,
// and the parameter domain the points hold in (Obligation.Assumed): nil
// when the points are restricted to the assumptions themselves.
//
// Facts of several conjunctions are met a piece of the points at a
// time, their empty pairs dropped as they are built (restrictEach).
// Assumptions of one conjunction restrict the points, simplified.
// Assumptions of several conjunctions (a compiler's specialisations) are
// kept apart from the pieces of the points that several of them meet
// (keepAssumed): restricted to them, the
// pieces of the points are multiplied by their conjunctions (Halide's
// depthwise separable convolution at its final stage: 12 conjunctions
// on parameters that most pieces leave free, gigabytes of pieces). The
// pieces kept count against size, the bound of the value's products;
// past the bound, the statement's obligations are undecided
// (AnalyzeOptions.ProductCoefficients). Facts of more conjunctions than
// the assumptions are restrictPieces'.
func restrictPoints(ctx context.Context, pts, facts, assumptions *presburger.Map, size *productSize) (_, assumed *presburger.Map, err error) {
	switch {
	case facts != nil && facts.NumBasics() > 1:
		// A piece at a time, without its empty pairs: built whole
		// before the simplification drops them, the pairs of the points
		// of Halide's depthwise separable convolution at its final
		// stage exhaust the memory.
		if pts, err = restrictEach(ctx, pts, facts, size); err != nil {
			return nil, nil, fmt.Errorf("restrict points to the facts: %w", err)
		}
	case facts != nil:
		if pts, err = intersectParamsCharged(ctx, pts, facts); err != nil {
			return nil, nil, err
		}
	}
	if assumptions.NumBasics() <= 1 {
		if pts, err = intersectParamsCharged(ctx, pts, assumptions); err != nil {
			return nil, nil, err
		}
		pts, err = pts.Simplify(ctx)
		return pts, nil, err
	}
	if pts, err = pts.Simplify(ctx); err != nil {
		return nil, nil, err
	}
	if pts, assumed, err = keepAssumed(ctx, pts, assumptions, size); err != nil {
		return nil, nil, fmt.Errorf("restrict points: %w", err)
	}
	return pts, assumed, nil
}

// keepAssumed returns the pieces of pts that meet the parameter domain
// a, of several conjunctions: a piece that one conjunction meets
// restricted to it, a piece that several meet restricted to the
// constraints they all have in common (commonFacts) rather than to a, so
// that the pieces are not multiplied by a's conjunctions; and a when
// some piece is not restricted to it (the points' Obligation.Assumed),
// nil otherwise. A piece is tested against a's conjunctions one at a
// time, those whose parameter bounds contradict its own skipped
// (pieceDomain.contradicts), until two meet it; each test is charged
// (chargeBuilt) and only the piece is held. The pieces kept count
// against size (productSize.addEntries).
//
// Soundness: the result contains pts ∩ a (a piece is dropped only when
// no conjunction of a meets it, restricted to the one conjunction that
// meets it, or else to constraints that a implies) and is within pts:
// its points where a holds are exactly those of pts ∩ a. An obligation
// is over the points where the assumptions hold (Obligation), and its
// check conjoins a when it is returned (validate's encoding of the
// points); every condition decided over Presburger sets from them
// restricts its violations to the assumptions (gen.decided).
func keepAssumed(ctx context.Context, pts, a *presburger.Map, size *productSize) (_, assumed *presburger.Map, _ error) {
	common := commonFacts(a)
	ad := pieceDomains(a)
	conj := a.Pieces()
	var out []*presburger.Map
	for _, piece := range pts.Pieces() {
		r, several, err := meetingConjunction(ctx, piece, conj, ad)
		if err != nil {
			return nil, nil, err
		}
		if r == nil {
			continue
		}
		if several {
			assumed = a
			if r, err = piece.IntersectParams(common); err != nil {
				return nil, nil, err
			}
		}
		if err := chargeBuilt(ctx, 1, r); err != nil {
			return nil, nil, err
		}
		if err := size.addEntries(r); err != nil {
			return nil, nil, err
		}
		out = append(out, r)
	}
	r, err := presburger.UnionPieces(pts.Space(), out...)
	return r, assumed, err
}

// meetingConjunction returns the piece p restricted to the first of the
// conjunctions conj of a parameter domain (with their domains cd) that
// it meets (nil: none), and whether another one meets it too, tested one
// at a time, each test charged (chargeBuilt).
func meetingConjunction(ctx context.Context, p *presburger.Map, conj []*presburger.Map, cd []*pieceDomain) (first *presburger.Map, several bool, _ error) {
	d := newPieceDomain(p.Params())
	for i, w := range conj {
		if d.contradicts(cd[i]) {
			continue
		}
		r, err := p.IntersectParams(w)
		if err != nil {
			return nil, false, err
		}
		if err := chargeBuilt(ctx, 1, r); err != nil {
			return nil, false, err
		}
		empty, err := r.IsEmpty(ctx)
		if err != nil {
			return nil, false, err
		}
		if empty {
			continue
		}
		if first != nil {
			return first, true, nil
		}
		first = r
	}
	return first, false, nil
}

// intersectParamsCharged returns m restricted to the parameters of p,
// its work counted against the step budget of ctx (chargeBuilt). It is
// built a piece of m at a time, each charged before the next is built,
// so that the budget stops an intersection whose pieces would exhaust
// the memory (dsc's final stage held 5 GB in one).
func intersectParamsCharged(ctx context.Context, m, p *presburger.Map) (*presburger.Map, error) {
	r, err := intersectEach(ctx, m, p, nil)
	if err != nil {
		return nil, fmt.Errorf("restrict points: %w", err)
	}
	return r, nil
}

// intersectEach returns m ∩ p, p a parameter domain, built one piece of
// m at a time: each piece's intersections with p's conjunctions are
// charged (chargeBuilt: a step per pair) before the next piece is built,
// and then passed through keep (nil: kept whole), whose result joins the
// union unless it is empty.
//
// A pair whose parameter bounds contradict each other (two opposite
// inequalities on the same terms, pieceDomain.contradicts: a
// specialisation's branch and the conjunctions of the other branches) is
// empty and is not built: only the others are, charged by their
// constraints, and tested by keep. The result is the same set.
func intersectEach(ctx context.Context, m, p *presburger.Map, keep func(*presburger.Map) (*presburger.Map, error)) (*presburger.Map, error) {
	pd := pieceDomains(p)
	conj := p.Pieces()
	var out []*presburger.Map
	for _, piece := range m.Pieces() {
		q, err := meetingPart(piece, p, conj, pd)
		if err != nil {
			return nil, err
		}
		r, err := piece.IntersectParams(q)
		if err != nil {
			return nil, err
		}
		if err := chargeBuilt(ctx, p.NumBasics(), r); err != nil {
			return nil, err
		}
		if keep != nil && r.NumBasics() > 0 {
			if r, err = keep(r); err != nil {
				return nil, err
			}
		}
		if r.NumBasics() > 0 {
			out = append(out, r)
		}
	}
	return presburger.UnionPieces(m.Space(), out...)
}

// meetingPart returns the conjunctions of p (conj, its pieces, with
// their domains pd) whose parameter bounds do not contradict those of
// piece (intersectEach): p itself when none does.
func meetingPart(piece, p *presburger.Map, conj []*presburger.Map, pd []*pieceDomain) (*presburger.Map, error) {
	d := newPieceDomain(piece.Params())
	meet := make([]*presburger.Map, 0, len(conj))
	for i, w := range pd {
		if !d.contradicts(w) {
			meet = append(meet, conj[i])
		}
	}
	if len(meet) == len(conj) {
		return p, nil
	}
	return presburger.UnionPieces(p.Space(), meet...)
}

// outputDomain returns the parameter domain that outputObligations
// restricts a binding to: the assumptions a, or the constraints common to
// their conjunctions when there are several (commonFacts).
func outputDomain(a *presburger.Map) *presburger.Map {
	if a.NumBasics() <= 1 {
		return a
	}
	return commonFacts(a)
}

// outputObligations returns the obligations of the out bindings: every
// out cell's content in the final prophetic heap must equal the binding's
// tensor element (Impl is the cell's content, Spec the binding's tensor
// access). Cells without content are missingOutputs' business. Under
// assumptions of several conjunctions, the binding is restricted to the
// constraints they have in common (outputDomain) and the pairs of cell
// and element to the assumptions a piece at a time (keepAssumed), which
// keeps them apart from the pieces that several conjunctions meet (the
// obligation's Assumed): the final heap's pieces are not restricted to
// them either (finalHeap), and the pairs' points where the assumptions
// hold are exactly those of the heap restricted to them.
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
		if want, err = want.IntersectParams(outputDomain(pr.Assumptions)); err != nil {
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
			var assumed *presburger.Map
			if pr.Assumptions.NumBasics() > 1 {
				if pairs, assumed, err = keepAssumed(ctx, pairs, pr.Assumptions, nil); err != nil {
					return nil, fmt.Errorf("%s: %w", b.Pos(), err)
				}
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
			out = append(out, obligation{Binding: b, Impl: ci, Spec: cs, Points: pts, Assumed: assumed})
		}
	}
	return out, nil
}
