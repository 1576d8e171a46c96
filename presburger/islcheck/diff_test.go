//go:build isl

package islcheck

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
)

// The differential tests: every operation is applied to random inputs in
// the engine and in isl, and isl decides whether the results are equal.

// Flags to explore beyond the fixed cases, e.g.
//
//	go test -tags isl -run Differential ./presburger/islcheck/ -args -seed 7 -scale 5
var (
	seedFlag  = flag.Uint64("seed", 20261122, "seed of the random differential cases")
	scaleFlag = flag.Float64("scale", 1, "multiplier of the number of random cases per operation")
)

// ---------------------------------------------------------------------------
// Input generators

func genAny(g *gen) []obj {
	if g.chance(0.5) {
		return genSet(g)
	}
	return genMap(g)
}

func genSet(g *gen) []obj {
	return []obj{g.object(g.setShape(g.params(), 4), 3, 3, 0.7)}
}

func genMap(g *gen) []obj {
	return []obj{g.object(g.randomMapShape(g.params()), 3, 3, 0.7)}
}

// genFlat draws a set or relation whose tuples are flat (for projection).
func genFlat(g *gen) []obj {
	ps := g.params()
	if g.chance(0.5) {
		return []obj{g.object(&shape{params: ps, out: flat("S", "i", g.between(1, 4))}, 3, 3, 0.7)}
	}
	return []obj{g.object(&shape{params: ps, in: flat("A", "i", g.between(1, 2)), out: flat("B", "o", g.between(1, 3))}, 3, 3, 0.7)}
}

// genSlabs draws a relation of three to five pieces, each cut to a slab
// or a residue class of its first input dimension: some pieces' domains
// are disjoint (by opposite bounds, or by residues only) and others meet,
// as in the unions whose lexicographic optimum is combined by groups of
// meeting domains.
func genSlabs(g *gen) []obj {
	ps := g.params()
	sh := &shape{params: ps, in: flat("A", "i", 1), out: flat("B", "o", 1)}
	o := g.object(sh, 1, 2, 0.8)
	for len(o.pieces) < g.between(3, 5) {
		o.pieces = append(o.pieces, g.object(sh, 1, 2, 0.8).pieces...)
	}
	for p := range o.pieces {
		var cut string
		if g.chance(0.5) {
			lo := g.between(-3, 6)
			cut = fmt.Sprintf("%d <= i0 <= %d", lo, lo+g.between(0, 3))
		} else {
			k := g.between(2, 3)
			cut = fmt.Sprintf("i0 mod %d = %d", k, g.between(0, k-1))
		}
		o.pieces[p] = append(o.pieces[p], cut)
	}
	return []obj{o}
}

// withGen returns o drawing its inputs with gen.
func withGen(o op, gen func(g *gen) []obj) op {
	o.gen = gen
	return o
}

// genPair draws two objects of the same tuples; the parameter lists may
// differ (both libraries align parameters by name).
func genPair(g *gen) []obj {
	a := genAny(g)[0]
	sh2 := *a.sh
	if g.chance(0.25) {
		sh2.params = g.params()
	}
	b := g.object(&sh2, 3, 3, 0.7)
	return []obj{a, b}
}

// genApply draws A -> B and B -> C, or a set in B and B -> C.
func genApply(g *gen) []obj {
	ps := g.params()
	nb := g.between(1, 3)
	var first *shape
	if g.chance(0.3) {
		first = &shape{params: ps, out: flat("B", "i", nb)}
	} else {
		first = g.mapShape(ps, "A", "B", g.between(1, 3), nb)
	}
	second := &shape{params: ps, in: flat("B", "i", nb), out: flat("C", "o", g.between(1, 3))}
	return []obj{g.object(first, 2, 3, 0.7), g.object(second, 2, 3, 0.7)}
}

// unionString prints objects of different shapes as one union, with the
// parameters of all of them.
func unionString(os []obj) string {
	var ps []string
	seen := map[string]bool{}
	var pieces []string
	for _, o := range os {
		for _, p := range o.sh.params {
			if !seen[p] {
				seen[p] = true
				ps = append(ps, p)
			}
		}
		for _, pc := range o.pieces {
			pieces = append(pieces, pieceString(o.sh, pc))
		}
	}
	pre := ""
	if len(ps) > 0 {
		pre = "[" + strings.Join(ps, ", ") + "] -> "
	}
	return pre + "{ " + strings.Join(pieces, "; ") + " }"
}

// genUnion draws a union of two or three components in distinct spaces;
// the components are relations among A, B, C or, with sets, sets S, T.
func genUnion(g *gen, sets bool) []obj {
	ps := g.params()
	var os []obj
	names := []string{"A", "B", "C"}
	if sets {
		names = []string{"S", "T", "U"}
	}
	n := g.between(2, 3)
	for k := 0; k < n; k++ {
		var sh *shape
		if sets {
			sh = &shape{params: ps, out: flat(names[k], "i", g.between(1, 3))}
		} else {
			a, b := g.r.IntN(3), g.r.IntN(3)
			sh = &shape{params: ps, in: flat(names[a], "i", 1+a%2), out: flat(names[b], "o", 1+b%2)}
		}
		os = append(os, g.object(sh, 2, 2, 0.7))
	}
	return os
}

// ---------------------------------------------------------------------------
// Running one case

// prep parses every input in both libraries. On failure it frees what it
// read and returns the verdict.
func (e *env) prep(in []obj) ([]*presburger.Map, []iobj, *result) {
	var ms []*presburger.Map
	var is []iobj
	for _, o := range in {
		src := o.String()
		kind := "map"
		if o.sh.isSet() {
			kind = "set"
		}
		i, err := readAs(e.c, kind, src)
		if err != nil {
			freeAll(is)
			r := oracleFailed(err)
			return nil, nil, &r
		}
		is = append(is, i)
		m, err := presburger.ParseMapContext(e.ctx, src)
		if err != nil {
			var r result
			if isBudget(err) {
				r = engineFailed(err)
			} else {
				r = differ("parse error: "+err.Error(), i.String(), "engine rejects input")
			}
			freeAll(is)
			return nil, nil, &r
		}
		ms = append(ms, m)
	}
	return ms, is, nil
}

func freeAll(is []iobj) {
	for _, i := range is {
		i.Free()
	}
}

// mapOp builds an op whose result is a set or relation.
func mapOp(name string, g func(*gen) []obj,
	ours func(e *env, ms []*presburger.Map) (*presburger.Map, error),
	theirs func(is []iobj) (iobj, error)) op {
	return op{name: name, gen: g, run: func(e *env, in []obj) result {
		ms, is, r := e.prep(in)
		if r != nil {
			return *r
		}
		defer freeAll(is)
		want, err := theirs(is)
		if err != nil {
			return oracleFailed(err)
		}
		defer want.Free()
		got, err := ours(e, ms)
		if err != nil {
			if isBudget(err) {
				return engineFailed(err)
			}
			return differ("error: "+err.Error(), want.String(), "engine fails")
		}
		return e.compare(got, want)
	}}
}

// boolOp builds an op whose result is a boolean.
func boolOp(name string, g func(*gen) []obj,
	ours func(e *env, ms []*presburger.Map) (bool, error),
	theirs func(is []iobj) (bool, error)) op {
	return op{name: name, gen: g, run: func(e *env, in []obj) result {
		ms, is, r := e.prep(in)
		if r != nil {
			return *r
		}
		defer freeAll(is)
		want, err := theirs(is)
		if err != nil {
			return oracleFailed(err)
		}
		got, err := ours(e, ms)
		if err != nil {
			if isBudget(err) {
				return engineFailed(err)
			}
			return differ("error: "+err.Error(), fmt.Sprint(want), "engine fails")
		}
		return compareBool(got, want)
	}}
}

// either dispatches on the isl kind of the first input.
func either(s func(*Set) (*Set, error), m func(*Map) (*Map, error)) func([]iobj) (iobj, error) {
	return func(is []iobj) (iobj, error) {
		if is[0].s != nil {
			return wrapSet(s(is[0].s))
		}
		return wrapMap(m(is[0].m))
	}
}

func either2(s func(a, b *Set) (*Set, error), m func(a, b *Map) (*Map, error)) func([]iobj) (iobj, error) {
	return func(is []iobj) (iobj, error) {
		if is[0].s != nil {
			return wrapSet(s(is[0].s, is[1].s))
		}
		return wrapMap(m(is[0].m, is[1].m))
	}
}

func eitherBool(s func(*Set) (bool, error), m func(*Map) (bool, error)) func([]iobj) (bool, error) {
	return func(is []iobj) (bool, error) {
		if is[0].s != nil {
			return s(is[0].s)
		}
		return m(is[0].m)
	}
}

func eitherBool2(s func(a, b *Set) (bool, error), m func(a, b *Map) (bool, error)) func([]iobj) (bool, error) {
	return func(is []iobj) (bool, error) {
		if is[0].s != nil {
			return s(is[0].s, is[1].s)
		}
		return m(is[0].m, is[1].m)
	}
}

// ---------------------------------------------------------------------------
// The operations

func setOps() []op {
	return []op{
		mapOp("parse", genAny,
			func(e *env, ms []*presburger.Map) (*presburger.Map, error) { return ms[0], nil },
			func(is []iobj) (iobj, error) {
				if is[0].s != nil {
					return wrapSet(is[0].s.Coalesce())
				}
				return wrapMap(is[0].m.Coalesce())
			}),
		mapOp("intersect", genPair,
			func(e *env, ms []*presburger.Map) (*presburger.Map, error) { return ms[0].Intersect(ms[1]) },
			either2((*Set).Intersect, (*Map).Intersect)),
		mapOp("union", genPair,
			func(e *env, ms []*presburger.Map) (*presburger.Map, error) { return ms[0].Union(ms[1]) },
			either2((*Set).Union, (*Map).Union)),
		mapOp("subtract", genPair,
			func(e *env, ms []*presburger.Map) (*presburger.Map, error) { return ms[0].Subtract(e.ctx, ms[1]) },
			either2((*Set).Subtract, (*Map).Subtract)),
		mapOp("complement", genAny,
			func(e *env, ms []*presburger.Map) (*presburger.Map, error) { return ms[0].Complement(e.ctx) },
			either((*Set).Complement, (*Map).Complement)),
		mapOp("domain", genMap,
			func(e *env, ms []*presburger.Map) (*presburger.Map, error) { return ms[0].Domain(), nil },
			func(is []iobj) (iobj, error) { return wrapSet(is[0].m.Domain()) }),
		mapOp("range", genMap,
			func(e *env, ms []*presburger.Map) (*presburger.Map, error) { return ms[0].Range(), nil },
			func(is []iobj) (iobj, error) { return wrapSet(is[0].m.Range()) }),
		mapOp("reverse", genMap,
			func(e *env, ms []*presburger.Map) (*presburger.Map, error) { return ms[0].Reverse(), nil },
			func(is []iobj) (iobj, error) { return wrapMap(is[0].m.Reverse()) }),
		mapOp("apply_range", genApply,
			func(e *env, ms []*presburger.Map) (*presburger.Map, error) { return ms[0].ApplyRange(ms[1]) },
			func(is []iobj) (iobj, error) {
				if is[0].s != nil {
					return wrapSet(is[0].s.Apply(is[1].m))
				}
				return wrapMap(is[0].m.ApplyRange(is[1].m))
			}),
		projectOp(),
		mapOp("project_params", genAny,
			func(e *env, ms []*presburger.Map) (*presburger.Map, error) {
				return ms[0].ProjectOut(presburger.DimParam, 0, ms[0].Space().NumParams())
			},
			func(is []iobj) (iobj, error) {
				return either(func(s *Set) (*Set, error) { return s.ProjectOut(DimParam, 0, numParams(s.String())) },
					func(m *Map) (*Map, error) { return m.ProjectOut(DimParam, 0, numParams(m.String())) })(is)
			}),
		lexOp("lexmin", false),
		lexOp("lexmax", true),
		lexPwOp("lexmin_pw", false),
		lexPwOp("lexmax_pw", true),
		withGen(lexOp("lexmin_slabs", false), genSlabs),
		withGen(lexOp("lexmax_slabs", true), genSlabs),
		mapOp("gist", genPairGist,
			func(e *env, ms []*presburger.Map) (*presburger.Map, error) {
				g, err := presburger.Gist(e.ctx, ms[0], ms[1])
				if err != nil {
					return nil, err
				}
				// Compare g ∩ context with isl's gist ∩ context: gist
				// is only defined on the context.
				return g.Intersect(ms[1])
			},
			func(is []iobj) (iobj, error) {
				g, err := either2((*Set).Gist, (*Map).Gist)(is)
				if err != nil {
					return g, err
				}
				defer g.Free()
				return either2((*Set).Intersect, (*Map).Intersect)([]iobj{g, is[1]})
			}),
		boolOp("is_empty", genAny,
			func(e *env, ms []*presburger.Map) (bool, error) { return ms[0].IsEmpty(e.ctx) },
			eitherBool((*Set).IsEmpty, (*Map).IsEmpty)),
		boolOp("is_subset", genSubsetPair,
			func(e *env, ms []*presburger.Map) (bool, error) { return ms[0].IsSubset(e.ctx, ms[1]) },
			eitherBool2((*Set).IsSubset, (*Map).IsSubset)),
		boolOp("is_equal", genEqualPair,
			func(e *env, ms []*presburger.Map) (bool, error) { return ms[0].IsEqual(e.ctx, ms[1]) },
			eitherBool2((*Set).IsEqual, (*Map).IsEqual)),
		boolOp("is_single_valued", genSingleValued,
			func(e *env, ms []*presburger.Map) (bool, error) { return ms[0].IsSingleValued(e.ctx) },
			eitherBool(func(s *Set) (bool, error) {
				m, err := s.FromRange()
				if err != nil {
					return false, err
				}
				defer m.Free()
				return m.IsSingleValued()
			}, (*Map).IsSingleValued)),
		boolOp("is_injective", genInjective,
			func(e *env, ms []*presburger.Map) (bool, error) { return ms[0].IsInjective(e.ctx) },
			func(is []iobj) (bool, error) { return is[0].m.IsInjective() }),
		sampleOp(),
		coalesceOp(),
		mapOp("intersect_domain", genMapAndSet(true),
			func(e *env, ms []*presburger.Map) (*presburger.Map, error) { return ms[0].IntersectDomain(ms[1]) },
			func(is []iobj) (iobj, error) { return wrapMap(is[0].m.IntersectDomain(is[1].s)) }),
		mapOp("intersect_range", genMapAndSet(false),
			func(e *env, ms []*presburger.Map) (*presburger.Map, error) { return ms[0].IntersectRange(ms[1]) },
			func(is []iobj) (iobj, error) { return wrapMap(is[0].m.IntersectRange(is[1].s)) }),
		mapOp("wrap", genMap,
			func(e *env, ms []*presburger.Map) (*presburger.Map, error) { return ms[0].Wrap() },
			func(is []iobj) (iobj, error) { return wrapSet(is[0].m.Wrap()) }),
	}
}

// genMapAndSet draws a relation and a set in its domain (or range) space.
func genMapAndSet(domain bool) func(g *gen) []obj {
	return func(g *gen) []obj {
		m := genMap(g)[0]
		t := m.sh.out
		if domain {
			t = m.sh.in
		}
		s := g.object(&shape{params: m.sh.params, out: t}, 2, 3, 0.7)
		return []obj{m, s}
	}
}

// coalesceOp checks that the engine's Coalesce keeps the points of its
// input; the conjunction counts of both sides appear in the summary table.
func coalesceOp() op {
	return mapOp("coalesce", genAny,
		func(e *env, ms []*presburger.Map) (*presburger.Map, error) { return presburger.Coalesce(e.ctx, ms[0]) },
		either((*Set).Coalesce, (*Map).Coalesce))
}

// numParams counts the parameters of an isl-printed object.
func numParams(s string) int {
	if !strings.HasPrefix(s, "[") {
		return 0
	}
	end := strings.Index(s, "]")
	if end <= 1 {
		return 0
	}
	return strings.Count(s[:end], ",") + 1
}

// genPairGist draws an object and a context in the same space.
func genPairGist(g *gen) []obj {
	a := genAny(g)[0]
	return []obj{a, g.object(a.sh, 3, 3, 0.7)}
}

// genSubsetPair draws pairs that are often in the subset relation: the
// second object is the first with atoms dropped, or a random one.
func genSubsetPair(g *gen) []obj {
	p := genPair(g)
	if g.chance(0.5) {
		sup := p[0].copy()
		for i := range sup.pieces {
			if n := len(sup.pieces[i]); n > 0 {
				k := g.r.IntN(n)
				sup.pieces[i] = append(sup.pieces[i][:k], sup.pieces[i][k+1:]...)
			}
		}
		if g.chance(0.5) && slices.Equal(p[0].sh.params, p[1].sh.params) {
			sup.pieces = append(sup.pieces, p[1].pieces...)
		}
		p[1] = sup
		if g.chance(0.3) {
			p[0], p[1] = p[1], p[0]
		}
	}
	return p
}

// genEqualPair draws pairs that are often equal: the first object with
// its pieces in another order, split along a constraint, or a random one.
func genEqualPair(g *gen) []obj {
	p := genPair(g)
	switch g.r.IntN(3) {
	case 0:
		q := p[0].copy()
		for i := len(q.pieces) - 1; i > 0; i-- {
			j := g.r.IntN(i + 1)
			q.pieces[i], q.pieces[j] = q.pieces[j], q.pieces[i]
		}
		p[1] = q
	case 1:
		// Split every piece along a random constraint c: P = (P and c) ∪
		// (P and not c); sometimes drop one side to make them differ.
		q := obj{sh: p[0].sh}
		vars := p[0].sh.vars()
		for _, pc := range p[0].pieces {
			if len(pc) > 0 && strings.HasPrefix(pc[0], "@") {
				// A tuple with an expression: its replaced dimension
				// is no variable of the piece; keep the piece whole.
				q.pieces = append(q.pieces, pc)
				continue
			}
			c := g.atom(vars, 1)
			q.pieces = append(q.pieces, append(append([]string(nil), pc...), c))
			if !g.chance(0.15) {
				q.pieces = append(q.pieces, append(append([]string(nil), pc...), "not ("+c+")"))
			}
		}
		p[1] = q
	}
	return p
}

// genSingleValued draws relations that are often functions.
func genSingleValued(g *gen) []obj {
	if g.chance(0.3) {
		return genSet(g)
	}
	ps := g.params()
	sh := g.mapShape(ps, "A", "B", g.between(1, 3), g.between(1, 2))
	return []obj{g.function(sh)}
}

func genInjective(g *gen) []obj {
	ps := g.params()
	sh := g.mapShape(ps, "A", "B", g.between(1, 2), g.between(1, 3))
	return []obj{g.function(sh)}
}

// function returns a relation whose outputs are quasi-affine functions of
// the inputs on a random domain, sometimes with a slack that breaks
// single-valuedness.
func (g *gen) function(sh *shape) obj {
	o := obj{sh: sh}
	ins := sh.in.allDims()
	vars := append(append([]string(nil), sh.params...), ins...)
	for p := g.between(1, 2); p > 0; p-- {
		var atoms []string
		for i, d := range ins {
			atoms = append(atoms, g.bound(sh, d, ins[:i])...)
		}
		for _, d := range sh.out.allDims() {
			switch g.r.IntN(5) {
			case 0:
				atoms = append(atoms, fmt.Sprintf("%s = floor((%s)/%d)", d, g.aff(vars, 2), g.between(2, 4)))
			case 1:
				atoms = append(atoms, fmt.Sprintf("%s = (%s) mod %d", d, g.aff(vars, 2), g.between(2, 4)))
			case 2:
				atoms = append(atoms, fmt.Sprintf("%s <= %s <= %s + %d", g.aff(vars, 1), d, g.aff(vars, 1), g.between(0, 1)))
			default:
				atoms = append(atoms, fmt.Sprintf("%s = %s", d, g.aff(vars, 2)))
			}
		}
		if g.chance(0.3) {
			atoms = append(atoms, g.atom(sh.vars(), 1))
		}
		o.pieces = append(o.pieces, atoms)
	}
	return o
}

// projectOp projects out a random range of dimensions of a flat set or
// relation. isl drops the name of a tuple that loses dimensions while the
// engine keeps it, so the isl side projects with an explicit relation that
// keeps the name.
func projectOp() op {
	gen := func(g *gen) []obj {
		o := genFlat(g)[0]
		kind := int(presburger.DimOut)
		t := o.sh.out
		if !o.sh.isSet() && g.chance(0.5) {
			kind, t = int(presburger.DimIn), o.sh.in
		}
		first := g.r.IntN(len(t.dims))
		o.args = []int{kind, first, g.between(1, len(t.dims)-first)}
		return []obj{o}
	}
	return op{name: "project_out", gen: gen, run: func(e *env, in []obj) result {
		o := in[0]
		kind, first, cnt := presburger.DimKind(o.args[0]), o.args[1], o.args[2]
		t := o.sh.out
		if kind == presburger.DimIn {
			t = o.sh.in
		}
		ms, is, r := e.prep(in)
		if r != nil {
			return *r
		}
		defer freeAll(is)
		var kept []string
		for i, d := range t.dims {
			if i < first || i >= first+cnt {
				kept = append(kept, d)
			}
		}
		proj := o.sh.prefix() + "{ " + t.String() + " -> " + t.name + "[" + strings.Join(kept, ", ") + "] }"
		pm, err := e.c.ReadMap(proj)
		if err != nil {
			return oracleFailed(err)
		}
		defer pm.Free()
		var want iobj
		switch {
		case o.sh.isSet():
			want, err = wrapSet(is[0].s.Apply(pm))
		case kind == presburger.DimOut:
			want, err = wrapMap(is[0].m.ApplyRange(pm))
		default:
			var rev *Map
			rev, err = is[0].m.Reverse()
			if err == nil {
				var x *Map
				x, err = rev.ApplyRange(pm)
				rev.Free()
				if err == nil {
					want, err = wrapMap(x.Reverse())
					x.Free()
				}
			}
		}
		if err != nil {
			return oracleFailed(err)
		}
		defer want.Free()
		got, err := ms[0].ProjectOut(kind, first, cnt)
		if err != nil {
			return differ("error: "+err.Error(), want.String(), "engine fails")
		}
		return e.compare(got, want)
	}}
}

// lexOp compares the graph of the lexicographic optimum.
func lexOp(name string, max bool) op {
	ours := presburger.LexMinMap
	if max {
		ours = presburger.LexMaxMap
	}
	return op{name: name, gen: genAny, run: func(e *env, in []obj) result {
		ms, is, r := e.prep(in)
		if r != nil {
			return *r
		}
		defer freeAll(is)
		got, err := ours(e.ctx, ms[0])
		unbounded := errors.Is(err, presburger.ErrUnbounded)
		if err != nil && !unbounded {
			if isBudget(err) {
				return engineFailed(err)
			}
			return differ("error: "+err.Error(), "", "engine fails")
		}
		var want iobj
		var ierr error
		if is[0].s != nil {
			if max {
				want, ierr = wrapSet(is[0].s.LexMax())
			} else {
				want, ierr = wrapSet(is[0].s.LexMin())
			}
		} else {
			if max {
				want, ierr = wrapMap(is[0].m.LexMax())
			} else {
				want, ierr = wrapMap(is[0].m.LexMin())
			}
		}
		iunbounded := ierr != nil && strings.Contains(ierr.Error(), "unbounded")
		switch {
		case unbounded && iunbounded:
			return agreed()
		case unbounded && ierr == nil:
			defer want.Free()
			return differ("error: "+err.Error(), want.String(), "only the engine finds the optimum unbounded")
		case iunbounded:
			return differ(got.String(), ierr.Error(), "only isl finds the optimum unbounded")
		case ierr != nil:
			return oracleFailed(ierr)
		}
		defer want.Free()
		return e.compare(got, want)
	}}
}

// lexPwOp compares the engine's lexicographic optimum as a piecewise
// quasi-affine function: its printed form is read by isl as a
// pw_multi_aff, whose graph must equal isl's optimum.
func lexPwOp(name string, max bool) op {
	ours := presburger.LexMin
	if max {
		ours = presburger.LexMax
	}
	return op{name: name, gen: genAny, run: func(e *env, in []obj) result {
		ms, is, r := e.prep(in)
		if r != nil {
			return *r
		}
		defer freeAll(is)
		got, err := ours(e.ctx, ms[0])
		if errors.Is(err, presburger.ErrUnbounded) {
			return skipped("unbounded (checked by lexmin and lexmax)")
		}
		if err != nil {
			if isBudget(err) {
				return engineFailed(err)
			}
			return differ("error: "+err.Error(), "", "engine fails")
		}
		var want iobj
		if is[0].s != nil {
			if max {
				want, err = wrapSet(is[0].s.LexMax())
			} else {
				want, err = wrapSet(is[0].s.LexMin())
			}
		} else {
			if max {
				want, err = wrapMap(is[0].m.LexMax())
			} else {
				want, err = wrapMap(is[0].m.LexMin())
			}
		}
		if err != nil {
			return oracleFailed(err)
		}
		defer want.Free()
		if got.NumPieces() == 0 {
			// isl 0.25 reads no empty pw_multi_aff from text ("{ S[(0)] :
			// false }" and "{  }" are both refused): compare emptiness.
			empty, err := eitherBool((*Set).IsEmpty, (*Map).IsEmpty)([]iobj{want})
			if err != nil {
				return oracleFailed(err)
			}
			return compareBool(true, empty)
		}
		txt := fixConstDivs(got.String())
		var back iobj
		if is[0].s != nil {
			back, err = wrapSet(e.c.ReadPwMultiAffAsSet(txt))
		} else {
			back, err = wrapMap(e.c.ReadPwMultiAffAsMap(txt))
		}
		return compareRead(txt, back, err, want, "function", nil)
	}}
}

// sampleOp checks that the engine's sample point lies in the input and
// that it finds one exactly when isl says the input is not empty.
func sampleOp() op {
	return op{name: "sample", gen: genAny, run: func(e *env, in []obj) result {
		ms, is, r := e.prep(in)
		if r != nil {
			return *r
		}
		defer freeAll(is)
		empty, err := eitherBool((*Set).IsEmpty, (*Map).IsEmpty)(is)
		if err != nil {
			return oracleFailed(err)
		}
		pt, err := ms[0].Sample(e.ctx)
		if err != nil {
			if isBudget(err) {
				return engineFailed(err)
			}
			return differ("error: "+err.Error(), "", "engine fails")
		}
		if pt == nil {
			if !empty {
				return differ("no point", is[0].String(), "isl finds the input not empty")
			}
			return agreed()
		}
		if empty {
			return differ(fmt.Sprint(pt), is[0].String(), "isl finds the input empty")
		}
		src := pointString(ms[0].Space(), pt)
		p, err := readAs(e.c, is[0].kind(), src)
		if err != nil {
			return differ(src, "", "isl cannot read the point: "+err.Error())
		}
		defer p.Free()
		var in2 bool
		if p.s != nil {
			in2, err = p.s.IsSubset(is[0].s)
		} else {
			in2, err = p.m.IsSubset(is[0].m)
		}
		if err != nil {
			return oracleFailed(err)
		}
		if !in2 {
			return differ(src, is[0].String(), "sample point not in the input")
		}
		return agreed()
	}}
}

// pointString prints the point with column values [params | in | out] of
// space sp as an isl singleton.
func pointString(sp presburger.Space, pt []presburger.Int) string {
	k := 0
	var tup func(t presburger.Tuple) string
	tup = func(t presburger.Tuple) string {
		if t.IsNested() {
			return t.Name + "[" + tup(*t.Left) + " -> " + tup(*t.Right) + "]"
		}
		vs := make([]string, len(t.Dims))
		for i := range t.Dims {
			vs[i] = pt[k].String()
			k++
		}
		return t.Name + "[" + strings.Join(vs, ", ") + "]"
	}
	var cons []string
	for _, p := range sp.Params {
		cons = append(cons, p+" = "+pt[k].String())
		k++
	}
	body := ""
	if sp.In != nil {
		body = tup(*sp.In) + " -> "
	}
	body += tup(sp.Out)
	pre := ""
	if len(sp.Params) > 0 {
		pre = "[" + strings.Join(sp.Params, ", ") + "] -> "
		body += " : " + strings.Join(cons, " and ")
	}
	return pre + "{ " + body + " }"
}

// ---------------------------------------------------------------------------
// Unions of spaces

func uprep(e *env, in []obj, sets bool) (*presburger.UnionMap, iobj, *result) {
	src := unionString(in)
	var i iobj
	var err error
	if sets {
		i, err = wrapUSet(e.c.ReadUnionSet(src))
	} else {
		i, err = wrapUMap(e.c.ReadUnionMap(src))
	}
	if err != nil {
		r := oracleFailed(err)
		return nil, iobj{}, &r
	}
	u, err := presburger.ParseUnionMapContext(e.ctx, src)
	if err != nil {
		i.Free()
		r := differ("parse error: "+err.Error(), src, "engine rejects input")
		if isBudget(err) {
			r = engineFailed(err)
		}
		return nil, iobj{}, &r
	}
	return u, i, nil
}

// unionOp applies a binary operation to two unions of spaces (split from
// the generated components: the first half and the second half).
func unionOp(name string, sets bool, arity int,
	ours func(e *env, us []*presburger.UnionMap) (any, error),
	theirs func(is []iobj) (any, error)) op {
	g := func(g *gen) []obj {
		var out []obj
		for k := 0; k < arity; k++ {
			out = append(out, genUnion(g, sets)...)
		}
		return out
	}
	return op{name: name, gen: g, run: func(e *env, in []obj) result {
		// The components drawn for both operands are split in two halves,
		// one union each (shrinking drops pieces, never components, so
		// the split is stable).
		groups := splitGroups(in, arity)
		var us []*presburger.UnionMap
		var is []iobj
		defer func() { freeAll(is) }()
		for _, gr := range groups {
			u, i, r := uprep(e, gr, sets)
			if r != nil {
				return *r
			}
			us = append(us, u)
			is = append(is, i)
		}
		want, err := theirs(is)
		if err != nil {
			return oracleFailed(err)
		}
		if w, ok := want.(iobj); ok {
			defer w.Free()
		}
		got, err := ours(e, us)
		if err != nil {
			if isBudget(err) {
				return engineFailed(err)
			}
			return differ("error: "+err.Error(), fmt.Sprint(want), "engine fails")
		}
		switch w := want.(type) {
		case bool:
			return compareBool(got.(bool), w)
		case iobj:
			return e.compare(got.(fmt.Stringer), w)
		}
		return differ(fmt.Sprint(got), fmt.Sprint(want), "unexpected result types")
	}}
}

// splitGroups returns in as one group, or for arity 2 as its two halves.
func splitGroups(in []obj, arity int) [][]obj {
	if arity == 1 {
		return [][]obj{in}
	}
	h := len(in) / 2
	return [][]obj{in[:h], in[h:]}
}

func unionOps() []op {
	um := func(f func(a, b *UnionMap) (*UnionMap, error)) func([]iobj) (any, error) {
		return func(is []iobj) (any, error) { r, err := f(is[0].um, is[1].um); return iobj{um: r}, err }
	}
	us := func(f func(a, b *UnionSet) (*UnionSet, error)) func([]iobj) (any, error) {
		return func(is []iobj) (any, error) { r, err := f(is[0].us, is[1].us); return iobj{us: r}, err }
	}
	return []op{
		unionOp("union_map_union", false, 2,
			func(e *env, u []*presburger.UnionMap) (any, error) { return u[0].Union(u[1]), nil }, um((*UnionMap).Union)),
		unionOp("union_map_intersect", false, 2,
			func(e *env, u []*presburger.UnionMap) (any, error) { return u[0].Intersect(u[1]) }, um((*UnionMap).Intersect)),
		unionOp("union_map_subtract", false, 2,
			func(e *env, u []*presburger.UnionMap) (any, error) { return u[0].Subtract(e.ctx, u[1]) }, um((*UnionMap).Subtract)),
		unionOp("union_map_apply_range", false, 2,
			func(e *env, u []*presburger.UnionMap) (any, error) { return u[0].ApplyRange(u[1]) }, um((*UnionMap).ApplyRange)),
		unionOp("union_set_union", true, 2,
			func(e *env, u []*presburger.UnionMap) (any, error) { return u[0].Union(u[1]), nil }, us((*UnionSet).Union)),
		unionOp("union_set_subtract", true, 2,
			func(e *env, u []*presburger.UnionMap) (any, error) { return u[0].Subtract(e.ctx, u[1]) }, us((*UnionSet).Subtract)),
		unionOp("union_map_domain", false, 1,
			func(e *env, u []*presburger.UnionMap) (any, error) { return u[0].Domain(), nil },
			func(is []iobj) (any, error) { r, err := is[0].um.Domain(); return iobj{us: r}, err }),
		unionOp("union_map_range", false, 1,
			func(e *env, u []*presburger.UnionMap) (any, error) { return u[0].Range(), nil },
			func(is []iobj) (any, error) { r, err := is[0].um.Range(); return iobj{us: r}, err }),
		unionOp("union_map_reverse", false, 1,
			func(e *env, u []*presburger.UnionMap) (any, error) { return u[0].Reverse(), nil },
			func(is []iobj) (any, error) { r, err := is[0].um.Reverse(); return iobj{um: r}, err }),
		unionOp("union_map_is_subset", false, 2,
			func(e *env, u []*presburger.UnionMap) (any, error) { return u[0].IsSubset(e.ctx, u[1]) },
			func(is []iobj) (any, error) { return is[0].um.IsSubset(is[1].um) }),
		unionOp("union_map_is_equal", false, 2,
			func(e *env, u []*presburger.UnionMap) (any, error) { return u[0].IsEqual(e.ctx, u[1]) },
			func(is []iobj) (any, error) { return is[0].um.IsEqual(is[1].um) }),
		unionOp("union_map_is_empty", false, 1,
			func(e *env, u []*presburger.UnionMap) (any, error) { return u[0].IsEmpty(e.ctx) },
			func(is []iobj) (any, error) { return is[0].um.IsEmpty() }),
		unionOp("union_map_single_valued", false, 1,
			func(e *env, u []*presburger.UnionMap) (any, error) { return u[0].IsSingleValued(e.ctx) },
			func(is []iobj) (any, error) { return is[0].um.IsSingleValued() }),
		unionOp("union_map_injective", false, 1,
			func(e *env, u []*presburger.UnionMap) (any, error) { return u[0].IsInjective(e.ctx) },
			func(is []iobj) (any, error) { return is[0].um.IsInjective() }),
	}
}

// ---------------------------------------------------------------------------
// Tests

// cases returns the number of random cases per operation: fewer in -short
// mode.
func cases(n int) int {
	n = int(float64(n) * *scaleFlag)
	if testing.Short() {
		return n / 10
	}
	return n
}

func TestDifferentialSetsAndMaps(t *testing.T) {
	runOps(t, *seedFlag, cases(120), false, setOps())
}

// TestDifferentialHard draws harder inputs: larger and huge coefficients,
// tuples with expressions and repeated names, zero-dimensional tuples,
// implications and more pieces.
func TestDifferentialHard(t *testing.T) {
	runOps(t, *seedFlag+2, cases(40), true, setOps())
}

func TestDifferentialUnions(t *testing.T) {
	runOps(t, *seedFlag+1, cases(80), false, unionOps())
}
