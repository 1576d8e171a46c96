package presburger

import (
	"context"
	"fmt"
)

// UnionMap is a finite union of Maps living in different spaces (isl's
// union_map, and union_set when every space is a set space): the set of
// pairs (or tuples) contained in any of them. It holds at most one Map per
// space shape (Space.Key); maps with the same shape but different
// parameter lists are merged after parameter alignment. A UnionMap is
// immutable once built.
type UnionMap struct {
	maps map[string]*Map
}

// NewUnionMap returns the union of ms.
func NewUnionMap(ms ...*Map) *UnionMap {
	u := &UnionMap{maps: map[string]*Map{}}
	for _, m := range ms {
		u.add(m)
	}
	return u
}

func (u *UnionMap) add(m *Map) {
	if m == nil {
		return
	}
	k := m.space.Key()
	if old, ok := u.maps[k]; ok {
		r, err := old.Union(m)
		if err == nil {
			u.maps[k] = r
		}
		return
	}
	u.maps[k] = m
}

// Maps returns the per-space components of u, ordered by space key.
func (u *UnionMap) Maps() []*Map {
	var out []*Map
	for _, k := range u.keys() {
		out = append(out, u.maps[k])
	}
	return out
}

// MapOf returns the component of u in the shape of sp, or an empty Map of sp.
func (u *UnionMap) MapOf(sp Space) *Map {
	if m, ok := u.maps[sp.Key()]; ok {
		return m
	}
	return Empty(sp)
}

// lift applies f to every component and collects the non-nil results.
func (u *UnionMap) lift(f func(*Map) (*Map, error)) (*UnionMap, error) {
	out := NewUnionMap()
	for _, k := range u.keys() {
		r, err := f(u.maps[k])
		if err != nil {
			return nil, err
		}
		out.add(r)
	}
	return out, nil
}

// Union returns u ∪ o, component by component.
func (u *UnionMap) Union(o *UnionMap) *UnionMap {
	out := NewUnionMap(u.Maps()...)
	for _, m := range o.Maps() {
		out.add(m)
	}
	return out
}

// Intersect returns u ∩ o: components in the same space are intersected,
// others vanish. A parameter-domain component of o restricts every
// component of u.
func (u *UnionMap) Intersect(o *UnionMap) (*UnionMap, error) {
	pk := ParamSpace(nil).Key()
	return u.lift(func(m *Map) (*Map, error) {
		if p, ok := o.maps[pk]; ok && !m.space.ParamOnly {
			return m.IntersectParams(p)
		}
		if om, ok := o.maps[m.space.Key()]; ok {
			return m.Intersect(om)
		}
		return nil, nil
	})
}

// Subtract returns u \ o, component by component.
func (u *UnionMap) Subtract(ctx context.Context, o *UnionMap) (*UnionMap, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trUnionSubtract, func(ctx context.Context) (*UnionMap, error) { return u.Subtract(ctx, o) }, u, o)
	}
	return u.lift(func(m *Map) (*Map, error) {
		if om, ok := o.maps[m.space.Key()]; ok {
			return m.Subtract(ctx, om)
		}
		return m, nil
	})
}

// IsEmpty reports whether every component of u is empty.
func (u *UnionMap) IsEmpty(ctx context.Context) (bool, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trUnionIsEmpty, u.IsEmpty, u)
	}
	for _, m := range u.maps {
		e, err := m.IsEmpty(ctx)
		if err != nil || !e {
			return false, err
		}
	}
	return true, nil
}

// IsSubset reports whether u ⊆ o.
func (u *UnionMap) IsSubset(ctx context.Context, o *UnionMap) (bool, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trUnionIsSubset, func(ctx context.Context) (bool, error) { return u.IsSubset(ctx, o) }, u, o)
	}
	d, err := u.Subtract(ctx, o)
	if err != nil {
		return false, err
	}
	return d.IsEmpty(ctx)
}

// IsEqual reports whether u and o contain the same elements.
func (u *UnionMap) IsEqual(ctx context.Context, o *UnionMap) (bool, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trUnionIsEqual, func(ctx context.Context) (bool, error) { return u.IsEqual(ctx, o) }, u, o)
	}
	if ok, err := u.IsSubset(ctx, o); err != nil || !ok {
		return false, err
	}
	return o.IsSubset(ctx, u)
}

// Domain returns the union of the domains of the relation components.
func (u *UnionMap) Domain() *UnionMap {
	r, _ := u.lift(func(m *Map) (*Map, error) { return m.Domain(), nil })
	return r
}

// Range returns the union of the ranges of the relation components.
func (u *UnionMap) Range() *UnionMap {
	r, _ := u.lift(func(m *Map) (*Map, error) { return m.Range(), nil })
	return r
}

// Reverse returns the inverse of every relation component.
func (u *UnionMap) Reverse() *UnionMap {
	r, _ := u.lift(func(m *Map) (*Map, error) { return m.Reverse(), nil })
	return r
}

// Params returns the parameter values for which u is nonempty.
func (u *UnionMap) Params() *Map {
	var out *Map
	for _, m := range u.Maps() {
		p := m.Params()
		if out == nil {
			out = p
			continue
		}
		out, _ = out.Union(p)
	}
	if out == nil {
		return Empty(ParamSpace(nil))
	}
	return out
}

// ApplyRange composes every pair of components where the range of a
// component of u matches the domain of a component of o: (a, c) is in the
// result iff there is b with (a, b) in u and (b, c) in o. Set components of
// u are mapped to their images.
func (u *UnionMap) ApplyRange(o *UnionMap) (*UnionMap, error) {
	out := NewUnionMap()
	for _, m := range u.Maps() {
		if m.space.ParamOnly {
			continue
		}
		for _, r := range o.Maps() {
			if r.space.In == nil || r.space.In.shapeKeyString() != m.space.Out.shapeKeyString() {
				continue
			}
			c, err := m.ApplyRange(r)
			if err != nil {
				return nil, err
			}
			out.add(c)
		}
	}
	return out, nil
}

// Apply is ApplyRange: the image of a union set under a union map.
func (u *UnionMap) Apply(o *UnionMap) (*UnionMap, error) { return u.ApplyRange(o) }

// ApplyDomain applies o to the domains of u: (c, b) is in the result iff
// there is a with (a, b) in u and (a, c) in o.
func (u *UnionMap) ApplyDomain(o *UnionMap) (*UnionMap, error) {
	r, err := o.Reverse().ApplyRange(u)
	if err != nil {
		return nil, fmt.Errorf("apply domain: %w", err)
	}
	return r, nil
}

// IntersectDomain restricts the relation components of u to domain
// elements in the union set s.
func (u *UnionMap) IntersectDomain(s *UnionMap) (*UnionMap, error) {
	return u.lift(func(m *Map) (*Map, error) {
		if m.space.In == nil {
			return nil, nil
		}
		d, ok := s.maps[m.space.Domain().Key()]
		if !ok {
			return nil, nil
		}
		return m.IntersectDomain(d)
	})
}

// IntersectRange restricts the relation components of u to range elements
// in the union set s.
func (u *UnionMap) IntersectRange(s *UnionMap) (*UnionMap, error) {
	return u.lift(func(m *Map) (*Map, error) {
		if m.space.In == nil {
			return nil, nil
		}
		d, ok := s.maps[m.space.Range().Key()]
		if !ok {
			return nil, nil
		}
		return m.IntersectRange(d)
	})
}

// IntersectParams restricts every component to the parameter domain p.
func (u *UnionMap) IntersectParams(p *Map) (*UnionMap, error) {
	return u.lift(func(m *Map) (*Map, error) { return m.IntersectParams(p) })
}

// Simplify simplifies every component (see Map.Simplify) and drops the
// empty ones.
func (u *UnionMap) Simplify(ctx context.Context) (*UnionMap, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trUnionSimplify, u.Simplify, u)
	}
	return u.lift(func(m *Map) (*Map, error) {
		s, err := m.Simplify(ctx)
		if err != nil || len(s.basics) == 0 {
			return nil, err
		}
		return s, nil
	})
}

// FixParam fixes parameter name to v in every component that has it.
func (u *UnionMap) FixParam(name string, v Int) (*UnionMap, error) {
	return u.lift(func(m *Map) (*Map, error) {
		if m.space.paramIndex(name) < 0 {
			m = m.withParams(append(m.space.Params[:len(m.space.Params):len(m.space.Params)], name))
		}
		return m.FixParam(name, v)
	})
}

// BindParams fixes the named parameters and removes them (see
// Map.BindParams) in every component.
func (u *UnionMap) BindParams(vals map[string]Int) (*UnionMap, error) {
	return u.lift(func(m *Map) (*Map, error) {
		ps := m.space.Params
		for k := range vals {
			if m.space.paramIndex(k) < 0 {
				ps = append(append([]string(nil), ps...), k)
			}
		}
		return m.withParams(ps).BindParams(vals)
	})
}

// Wrap wraps every relation component (see Map.Wrap).
func (u *UnionMap) Wrap() (*UnionMap, error) { return u.lift((*Map).Wrap) }

// Unwrap unwraps every component (see Map.Unwrap).
func (u *UnionMap) Unwrap() (*UnionMap, error) { return u.lift((*Map).Unwrap) }

// Curry curries every component (see Map.Curry).
func (u *UnionMap) Curry() (*UnionMap, error) { return u.lift((*Map).Curry) }

// Uncurry uncurries every component (see Map.Uncurry).
func (u *UnionMap) Uncurry() (*UnionMap, error) { return u.lift((*Map).Uncurry) }

// Zip zips every component (see Map.Zip).
func (u *UnionMap) Zip() (*UnionMap, error) { return u.lift((*Map).Zip) }

// IsSingleValued reports whether u relates every domain element to at most
// one range element: every component is single-valued and two relation
// components with the same domain space but different range spaces have
// disjoint domains.
func (u *UnionMap) IsSingleValued(ctx context.Context) (bool, error) {
	ms := u.Maps()
	for i, m := range ms {
		ok, err := m.IsSingleValued(ctx)
		if err != nil || !ok {
			return false, err
		}
		if m.space.In == nil {
			continue
		}
		for _, o := range ms[i+1:] {
			if o.space.In == nil || o.space.In.shapeKeyString() != m.space.In.shapeKeyString() {
				continue
			}
			d, err := m.Domain().Intersect(o.Domain())
			if err != nil {
				return false, err
			}
			e, err := d.IsEmpty(ctx)
			if err != nil || !e {
				return false, err
			}
		}
	}
	return true, nil
}

// IsInjective reports whether u relates every range element to at most one
// domain element, across all components.
func (u *UnionMap) IsInjective(ctx context.Context) (bool, error) {
	return u.Reverse().IsSingleValued(ctx)
}

// Sample returns a point of some nonempty component, with its space, or a
// nil point if u is empty.
func (u *UnionMap) Sample(ctx context.Context) (Space, []Int, error) {
	for _, m := range u.Maps() {
		p, err := m.Sample(ctx)
		if err != nil {
			return Space{}, nil, err
		}
		if p != nil {
			return m.Space(), p, nil
		}
	}
	return Space{}, nil, nil
}

// pairwise combines every pair of components (a, b) of u and o for which
// match holds, with f.
func (u *UnionMap) pairwise(o *UnionMap, match func(a, b *Map) bool, f func(a, b *Map) (*Map, error)) (*UnionMap, error) {
	out := NewUnionMap()
	for _, a := range u.Maps() {
		for _, b := range o.Maps() {
			if !match(a, b) {
				continue
			}
			r, err := f(a, b)
			if err != nil {
				return nil, err
			}
			out.add(r)
		}
	}
	return out, nil
}

// Product returns the union of the products (see Map.Product) of every set
// component of u with every set component of o, and of every relation
// component of u with every relation component of o.
func (u *UnionMap) Product(o *UnionMap) (*UnionMap, error) {
	return u.pairwise(o, func(a, b *Map) bool {
		return !a.space.ParamOnly && !b.space.ParamOnly && (a.space.In == nil) == (b.space.In == nil)
	}, (*Map).Product)
}

// RangeProduct returns the union of the range products (see
// Map.RangeProduct) of the relation components of u and o with the same
// domain space.
func (u *UnionMap) RangeProduct(o *UnionMap) (*UnionMap, error) {
	return u.pairwise(o, func(a, b *Map) bool {
		return a.space.In != nil && b.space.In != nil && a.space.In.shapeKeyString() == b.space.In.shapeKeyString()
	}, (*Map).RangeProduct)
}

// DomainProduct returns the union of the domain products (see
// Map.DomainProduct) of the relation components of u and o with the same
// range space.
func (u *UnionMap) DomainProduct(o *UnionMap) (*UnionMap, error) {
	return u.pairwise(o, func(a, b *Map) bool {
		return a.space.In != nil && b.space.In != nil && a.space.Out.shapeKeyString() == b.space.Out.shapeKeyString()
	}, (*Map).DomainProduct)
}

// PreimageDomain pulls back the domains of u through r: (a, c) is in the
// result iff there is b with (a, b) in r and (b, c) in u.
func (u *UnionMap) PreimageDomain(r *UnionMap) (*UnionMap, error) { return r.ApplyRange(u) }

// PreimageRange pulls back the ranges of u through r: (a, c) is in the
// result iff there is b with (a, b) in u and (c, b) in r.
func (u *UnionMap) PreimageRange(r *UnionMap) (*UnionMap, error) { return u.ApplyRange(r.Reverse()) }
