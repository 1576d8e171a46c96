package symeval

import (
	"context"
	"errors"
	"fmt"

	"github.com/augur-verify/augur/presburger"
)

// assumedHull returns the simple hull of the assumptions (presburger.SimpleHull),
// computed on first use: one conjunction that contains them, against which
// the pieces of a condition's violations are tested first. It is nil when
// the assumptions have a single conjunction (they are then their own hull)
// or when the engine's budget did not allow it.
func (g *gen) assumedHull() (*presburger.Map, error) {
	if g.hullDone {
		return g.hull, nil
	}
	g.hullDone = true
	if g.a.Assumptions.NumBasics() < 2 {
		return nil, nil
	}
	h, err := presburger.SimpleHull(g.ctx, g.a.Assumptions)
	switch {
	case err == nil:
		g.hull = h
	case !undecidable(err):
		return nil, fmt.Errorf("hull of the assumptions: %w", err)
	}
	return g.hull, nil
}

// dropOutsideHull returns u without the pieces that are disjoint from the
// hull of the assumptions: those are empty under the assumptions, which
// the hull contains. The kernel's conditions are decided under the
// assumptions (decided): a violation piece that the hull rules out costs
// one emptiness test instead of one per conjunction of the assumptions.
// The result has the same points as u under the assumptions.
func (g *gen) dropOutsideHull(u *presburger.UnionMap) (*presburger.UnionMap, error) {
	h, err := g.assumedHull()
	if err != nil || h == nil {
		return u, err
	}
	var kept []*presburger.Map
	for _, m := range u.Maps() {
		k, err := dropDisjoint(g.ctx, m, h)
		if err != nil {
			return nil, err
		}
		if k.NumBasics() > 0 {
			kept = append(kept, k)
		}
	}
	return presburger.NewUnionMap(kept...), nil
}

// dropMapOutsideHull is dropOutsideHull for one map.
func (g *gen) dropMapOutsideHull(m *presburger.Map) (*presburger.Map, error) {
	h, err := g.assumedHull()
	if err != nil || h == nil {
		return m, err
	}
	return dropDisjoint(g.ctx, m, h)
}

// dropDisjoint returns m without its pieces whose intersection with the
// parameter domain h is empty. A piece whose test exceeds the engine's
// budget is kept.
func dropDisjoint(ctx context.Context, m, h *presburger.Map) (*presburger.Map, error) {
	var keep []int
	for i, p := range m.Pieces() {
		r, err := p.IntersectParams(h)
		if err != nil {
			return nil, err
		}
		empty, err := r.IsEmpty(ctx)
		if err != nil && !errors.Is(err, presburger.ErrBudget) {
			return nil, err
		}
		if err != nil || !empty {
			keep = append(keep, i)
		}
	}
	if len(keep) == m.NumBasics() {
		return m, nil
	}
	bs := m.Basics()
	kept := make([]*presburger.BasicMap, len(keep))
	for k, i := range keep {
		kept[k] = bs[i]
	}
	return presburger.NewMap(m.Space(), kept...), nil
}
