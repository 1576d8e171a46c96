package symeval

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/internal/quasiaffine"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// This file decides the conditions of reductions (Clément 2022, Section
// 7.5) over the instance model of reduce_model.go, exactly, in
// Presburger arithmetic (the sets built by reduce_sets.go):
//
//   - every accumulation and merge updates a cell whose last plain write
//     is the initialisation of the same reduction element (the cell is
//     an accumulator of it, and no other write intervenes);
//   - a merge reads a partial result of the same element;
//   - at every read of an accumulator (a merge's included) and at the
//     end for its out cells, no position has been accumulated twice,
//     directly or through merged partial results (update-ok, iupdate-ok);
//   - at every read other than a merge's and at the end, the positions
//     accumulated are exactly the reduction's domain;
//   - no iteration of a par loop writes a cell another iteration
//     accumulates into;
//   - initialisations store the operator's identity, and accumulations
//     use the reduction's operator;
//   - in the ieee model, a float reduction accumulates its positions in
//     the specification's (lexicographic) order, in one accumulator,
//     without merges: IEEE rounding (and, for min and max, NaN and signed
//     zeros) makes any other order a different function.
//
// The values are the ordinary value conditions of the transformed pair
// (package validate, reduce_transform.go), which Analyze evaluates: each
// accumulation equals the body at its position. Together they prove, by the associativity and commutativity
// of the operator and its identity for the empty domain, that every read
// of an accumulator reads the reduction element.

// redCheck holds the state of the reduction checks.
type redCheck struct {
	ctx  context.Context
	m    *redModel
	spec *sare.Spec
	ieee bool
	// eq is the value model's equality (an identity is checked with it).
	eq    value.Equality
	conds []*Condition
	// memo of the positions accumulated at a family of reads (by name).
	ind map[string]*presburger.UnionMap
	// memo of the relations { w -> x : x before w, same cell } between
	// plain writes w and writes x (last), by the names of both lists.
	killers map[string]*presburger.UnionMap
	inProg  map[string]bool
	maxRed  int // the largest reduction rank
	maxDep  int // the largest loop depth
	index   map[*redFamily]int
	// assume is the parameter domain of the assumptions.
	assume *presburger.Map
}

// AddReductionConditions appends to a, the analysis of the transformed
// pair p, the conditions on the positions of p's reductions, decided over
// the kernel as given under a's assumptions: Proved, Failed with one
// violating instance, or Undecided with the reason. The value model is
// ieee (bit-exact floats, whose reductions must keep the specification's
// order) or, when false, real. The conditions are then numbered from 1,
// in order, and those of transformed assignments show the kernel's. It
// fails when ctx is done, or on an internal error.
func (a *Analysis) AddReductionConditions(ctx context.Context, p *ReductionPair, ieee bool) (err error) {
	defer guard(&err, "reduction analysis")
	conds, err := reductionConditions(ctx, p.origKernel, p.origInfo, p.origSpec, a.Assumptions, ieee)
	if err != nil {
		return err
	}
	a.Conditions = append(a.Conditions, conds...)
	for i, c := range a.Conditions {
		c.ID = i + 1
		if st, ok := c.Stmt.(*sched.Assign); ok {
			if o, ok := p.orig[st]; ok {
				c.Stmt, c.Text = o, sched.StmtLine(o)
			}
		}
	}
	return nil
}

// reductionConditions returns the conditions on the positions of the
// reductions of kernel k (checked by kinfo against spec), decided under
// the parameter domain assume (nil: none), in the order of the kernel's
// accumulator families.
func reductionConditions(ctx context.Context, k *sched.Kernel, kinfo *sched.Info, spec *sare.Spec, assume *presburger.Map, ieee bool) ([]*Condition, error) {
	c := newRedCheck(ctx, k, kinfo, spec, assume, ieee)
	for _, f := range c.m.families {
		if err := c.guardedFamily(f); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			c.undecided(f, sched.NotAccumulator, "reduction analysis failed: "+err.Error())
		}
	}
	return c.conds, nil
}

// newRedCheck returns the checks of the reductions of k, over its
// instance model.
func newRedCheck(ctx context.Context, k *sched.Kernel, kinfo *sched.Info, spec *sare.Spec, assume *presburger.Map, ieee bool) *redCheck {
	m := newRedModel(k, kinfo, spec)
	eq := value.RealEqual
	if ieee {
		eq = value.BitExact
	}
	c := &redCheck{ctx: ctx, m: m, spec: spec, ieee: ieee, eq: eq, ind: map[string]*presburger.UnionMap{},
		killers: map[string]*presburger.UnionMap{}, inProg: map[string]bool{},
		index: map[*redFamily]int{}, assume: assume}
	for i, f := range m.families {
		c.index[f] = i
		if d := f.depth(); d > c.maxDep {
			c.maxDep = d
		}
		if f.tensor != "" {
			if t := spec.Tensor(f.tensor); t != nil && t.Reduction() != nil {
				if r := len(t.Reduction().Reduce.Vars); r > c.maxRed {
					c.maxRed = r
				}
			}
		}
	}
	return c
}

// guardedFamily checks f, a panic turned into an error.
func (c *redCheck) guardedFamily(f *redFamily) (err error) {
	defer guard(&err, "presburger")
	return c.family(f)
}

// family checks the conditions of f, by its kind.
func (c *redCheck) family(f *redFamily) error {
	switch f.kind {
	case redInit:
		return c.identity(f)
	case redAcc, redMerge:
		if err := c.operator(f); err != nil {
			return err
		}
		if err := c.governed(f, f, sched.NotAccumulator, "the cell is not an accumulator of the annotated element here: its last plain write is not its initialisation {"+c.tag(f)+" @ ()}"); err != nil {
			return err
		}
		return c.race(f)
	case redSource:
		if err := c.governed(f, f.merge, sched.NotAccumulator, "the merged cell holds no partial result of "+c.tag(f.merge)+" here"); err != nil {
			return err
		}
		return c.doubleCount(f)
	case redRead, redOut:
		if err := c.doubleCount(f); err != nil {
			return err
		}
		if err := c.complete(f); err != nil {
			return err
		}
		if c.ieee {
			return c.order(f)
		}
	}
	return nil
}

// tag returns the annotated element of f, as written.
func (c *redCheck) tag(f *redFamily) string {
	if f.stmt == nil {
		return ""
	}
	return syntax.ExprString(f.stmt.Annot)
}

// families returns the families of array key with the given kinds.
func (c *redCheck) families(key string, kinds ...redKind) []*redFamily {
	var out []*redFamily
	for _, f := range c.m.families {
		if f.key() != key {
			continue
		}
		for _, k := range kinds {
			if f.kind == k {
				out = append(out, f)
			}
		}
	}
	return out
}

// union returns the union of pieces.
func (c *redCheck) union(pieces []redPiece) (*presburger.UnionMap, error) {
	return redUnion(c.ctx, pieces)
}

// sameCellAfter returns { p -> w : w before p, same cell }, the pairs of
// instances of p and w where w writes the cell that p touches earlier.
func (c *redCheck) sameCellAfter(p, w *redFamily) (redPiece, error) {
	same, err := c.m.sameCell(p, w, "a", "b")
	if err != nil {
		return redPiece{}, err
	}
	return c.m.pair(p, w, append([]quasiaffine.Formula{redBefore(w, p, "b", "a")}, same...)...)
}

// last returns { p -> w : w in writes, w before p, same cell, and no
// plain write w' with w before w' before p }: the writes of writes whose
// effect p sees.
func (c *redCheck) last(p *redFamily, writes, plain []*redFamily) (*presburger.UnionMap, error) {
	var bp, k1, k2 []redPiece
	for _, w := range writes {
		s, err := c.sameCellAfter(p, w)
		if err != nil {
			return nil, err
		}
		bp = append(bp, s)
	}
	for _, w := range plain {
		s, err := c.sameCellAfter(p, w)
		if err != nil {
			return nil, err
		}
		k1 = append(k1, s)
		for _, x := range writes {
			s, err := c.sameCellAfter(w, x)
			if err != nil {
				return nil, err
			}
			k2 = append(k2, s)
		}
	}
	b, err := c.union(bp)
	if err != nil {
		return nil, err
	}
	u1, err := c.union(k1)
	if err != nil {
		return nil, err
	}
	// The writes that plain writes kill depend on the families only:
	// their union is built once.
	key := redNames(plain) + "|" + redNames(writes)
	u2, ok := c.killers[key]
	if !ok {
		if u2, err = c.union(k2); err != nil {
			return nil, err
		}
		c.killers[key] = u2
	}
	killed, err := u1.ApplyRange(u2)
	if err != nil {
		return nil, err
	}
	return b.Subtract(c.ctx, killed)
}

// redNames returns the names of fs, separated by commas.
func redNames(fs []*redFamily) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.name)
		b.WriteByte(',')
	}
	return b.String()
}

// lastInit returns the initialisations of p's cell that p sees as its
// last plain write.
func (c *redCheck) lastInit(p *redFamily) (*presburger.UnionMap, error) {
	plain := c.families(p.key(), redInit, redPlain)
	l, err := c.last(p, plain, plain)
	if err != nil {
		return nil, err
	}
	var keep []*presburger.Map
	for _, mp := range l.Maps() {
		for _, w := range plain {
			if w.kind == redInit && mp.Space().Out.Name == w.name {
				keep = append(keep, mp)
			}
		}
	}
	return presburger.NewUnionMap(keep...), nil
}

// tagEqual is { p -> r : the element of tagged (in p's scope) is r's }.
func (c *redCheck) tagEqual(p, tagged *redFamily, inits []*redFamily) (*presburger.UnionMap, error) {
	var pieces []redPiece
	for _, r := range inits {
		if r.tensor != tagged.tensor || len(r.args) != len(tagged.args) {
			continue
		}
		parts := []quasiaffine.Formula{redTrue()}
		for i := range r.args {
			a, err := c.m.index(tagged.args[i], tagged.scope, "a")
			if err != nil {
				return nil, err
			}
			b, err := c.m.index(r.args[i], r.scope, "b")
			if err != nil {
				return nil, err
			}
			parts = append(parts, redCmp(a, syntax.OpEq, b))
		}
		s, err := c.m.pair(p, r, parts...)
		if err != nil {
			return nil, err
		}
		pieces = append(pieces, s)
	}
	return c.union(pieces)
}

// governed checks that at every instance of p the cell is an accumulator
// of tagged's element.
func (c *redCheck) governed(p, tagged *redFamily, kind sched.Kind, msg string) error {
	li, err := c.lastInit(p)
	if err != nil {
		return err
	}
	eq, err := c.tagEqual(p, tagged, c.families(p.key(), redInit))
	if err != nil {
		return err
	}
	good, err := li.Intersect(eq)
	if err != nil {
		return err
	}
	all, err := c.setOf(p)
	if err != nil {
		return err
	}
	bad, err := all.Subtract(c.ctx, good.Domain())
	if err != nil {
		return err
	}
	return c.decide(p, kind, bad, msg)
}

// setOf returns the instances of f.
func (c *redCheck) setOf(f *redFamily) (*presburger.UnionMap, error) {
	s, err := c.m.set(f, redTrue())
	if err != nil {
		return nil, err
	}
	return c.union([]redPiece{s})
}

// encoding is the anonymous tuple [j0..jR-1, c, i0..iD-1] of an
// accumulated position j by the instance (family c, iteration i), padded
// with zeros.
func (c *redCheck) encoding(js []syntax.Expr, fam int, dims []syntax.Expr) redTuple {
	parts := make([]syntax.Expr, 0, c.maxRed+1+c.maxDep)
	for i := 0; i < c.maxRed; i++ {
		if i < len(js) {
			parts = append(parts, js[i])
		} else {
			parts = append(parts, redInt(0))
		}
	}
	parts = append(parts, redInt(int64(fam)))
	for i := 0; i < c.maxDep; i++ {
		if i < len(dims) {
			parts = append(parts, dims[i])
		} else {
			parts = append(parts, redInt(0))
		}
	}
	return redTuple{elems: parts}
}

// encodingDims returns the tuple [j0..jR-1, c, p0..pD-1] of new
// dimensions of an encoding, named with the prefixes j, c and p.
func (c *redCheck) encodingDims(j, cname, p string) redTuple {
	elems := append(append(redDims(j, c.maxRed), redDim(cname)), redDims(p, c.maxDep)...)
	return redTuple{elems: elems}
}

// positions returns { u -> [j, c, i] }: the positions accumulated into the
// cell u reads, each with the instance that contributed it directly (an
// accumulation, or a merge for the positions of its partial result).
func (c *redCheck) positions(u *redFamily) (*presburger.UnionMap, error) {
	if p, ok := c.ind[u.name]; ok {
		return p, nil
	}
	if c.inProg[u.name] {
		return nil, errors.New("partial results merged into the array they come from (a tree reduction within one array) are not supported")
	}
	c.inProg[u.name] = true
	defer delete(c.inProg, u.name)
	accs := c.families(u.key(), redAcc)
	merges := c.families(u.key(), redMerge)
	plain := c.families(u.key(), redInit, redPlain)
	contrib, err := c.last(u, append(append([]*redFamily{}, accs...), merges...), plain)
	if err != nil {
		return nil, err
	}
	out := presburger.NewUnionMap()
	// Accumulations: their own position.
	var enc []redPiece
	for _, v := range accs {
		js := make([]syntax.Expr, len(v.at))
		for i, x := range v.at {
			e, err := c.m.index(x, v.scope, "a")
			if err != nil {
				return nil, err
			}
			js[i] = e
		}
		enc = append(enc, redPiece{params: c.m.params, in: v.tuple("a"), out: c.encoding(js, c.index[v], v.dims("a"))})
	}
	ea, err := c.union(enc)
	if err != nil {
		return nil, err
	}
	pa, err := contrib.ApplyRange(ea)
	if err != nil {
		return nil, err
	}
	out = out.Union(pa)
	// Merges: the positions of the partial result they read.
	for _, w := range merges {
		var keep []*presburger.Map
		for _, mp := range contrib.Maps() {
			if mp.Space().Out.Name == w.name {
				keep = append(keep, mp)
			}
		}
		cw := presburger.NewUnionMap(keep...)
		if c.assume != nil {
			if cw, err = cw.IntersectParams(c.assume); err != nil {
				return nil, err
			}
		}
		if empty, err := cw.IsEmpty(c.ctx); err != nil {
			return nil, err
		} else if empty {
			continue // w never merges into the cell u reads
		}
		src, err := c.positions(w.source)
		if err != nil {
			return nil, err
		}
		// { w -> [j] }, from { source -> [j, c, i] } (same instances).
		proj, err := c.union([]redPiece{{params: c.m.params, in: w.source.tuple("a"), out: *w.tuple("a")}})
		if err != nil {
			return nil, err
		}
		sw, err := src.ApplyDomain(proj)
		if err != nil {
			return nil, err
		}
		wj, err := c.projectJ(sw)
		if err != nil {
			return nil, err
		}
		ext, err := c.extend(wj, w)
		if err != nil {
			return nil, err
		}
		pm, err := cw.ApplyRange(ext)
		if err != nil {
			return nil, err
		}
		out = out.Union(pm)
	}
	c.ind[u.name] = out
	return out, nil
}

// projectJ maps { x -> [j, c, i] } to { x -> [j] }.
func (c *redCheck) projectJ(m *presburger.UnionMap) (*presburger.UnionMap, error) {
	in := c.encodingDims("j", "c", "q")
	p, err := c.union([]redPiece{{in: &in, out: redTuple{elems: redDims("j", c.maxRed)}}})
	if err != nil {
		return nil, err
	}
	return m.ApplyRange(p)
}

// extend maps { w -> [j] } to { w -> [j, c(w), i(w)] }, w's own encoding.
func (c *redCheck) extend(wj *presburger.UnionMap, w *redFamily) (*presburger.UnionMap, error) {
	js := redDims("j", c.maxRed)
	id, err := c.union([]redPiece{{params: c.m.params, in: w.tuple("a"), out: *w.tuple("a")}})
	if err != nil {
		return nil, err
	}
	prod, err := wj.RangeProduct(id)
	if err != nil {
		return nil, err
	}
	flat, err := c.union([]redPiece{{in: &redTuple{left: &redTuple{elems: js}, right: w.tuple("a")}, out: c.encoding(js, c.index[w], w.dims("a"))}})
	if err != nil {
		return nil, err
	}
	return prod.ApplyRange(flat)
}

// doubleCount checks that no position reaches u's cell twice.
func (c *redCheck) doubleCount(u *redFamily) error {
	ind, err := c.positions(u)
	if err != nil {
		return err
	}
	js, ks := redDims("j", c.maxRed), redDims("k", c.maxRed)
	ps, qs := redDims("p", c.maxDep), redDims("q", c.maxDep)
	parts := []quasiaffine.Formula{redTrue()}
	for i := range js {
		parts = append(parts, redCmp(js[i], syntax.OpEq, ks[i]))
	}
	diff := []quasiaffine.Formula{redCmp(redDim("c"), syntax.OpNe, redDim("d"))}
	for i := range ps {
		diff = append(diff, redCmp(ps[i], syntax.OpNe, qs[i]))
	}
	in := c.encodingDims("j", "c", "p")
	neq, err := c.union([]redPiece{{in: &in, out: c.encodingDims("k", "d", "q"),
		cond: quasiaffine.And(append(parts, quasiaffine.Or(diff...))...)}})
	if err != nil {
		return err
	}
	other, err := ind.ApplyRange(neq)
	if err != nil {
		return err
	}
	both, err := other.Intersect(ind)
	if err != nil {
		return err
	}
	return c.decide(u, sched.DoubleCount, both.Domain(), "a position of the reduction reaches the cell twice (accumulated twice, or merged from overlapping partial results)")
}

// domainOf returns { r -> [j] : j in the domain of r's element } for the
// initialisations inits.
func (c *redCheck) domainOf(inits []*redFamily) (*presburger.UnionMap, error) {
	var pieces []redPiece
	for _, r := range inits {
		t := c.spec.Tensor(r.tensor)
		if t == nil || t.Reduction() == nil {
			continue
		}
		eq := t.Reduction()
		red := eq.Reduce
		args := map[string]syntax.Expr{}
		for i, v := range eq.Vars {
			if i < len(r.args) {
				a, err := c.m.index(r.args[i], r.scope, "b")
				if err != nil {
					return nil, err
				}
				args[v.Name] = a
			}
		}
		js := redDims("j", c.maxRed)
		for i, v := range red.Vars {
			args[v.Name] = js[i]
		}
		resolve := func(name string) (syntax.Expr, error) {
			if e, ok := args[name]; ok {
				return e, nil
			}
			if c.m.isParam(name) {
				return redParam(name), nil
			}
			return nil, fmt.Errorf("unknown name %s", name)
		}
		index := func(x syntax.Expr) (syntax.Expr, error) { return redIndex(x, resolve) }
		parts := []quasiaffine.Formula{redTrue()}
		for i := len(red.Vars); i < c.maxRed; i++ {
			parts = append(parts, redCmp(js[i], syntax.OpEq, redInt(0)))
		}
		for i := range red.Vars {
			lo, err := index(red.Los[i])
			if err != nil {
				return nil, err
			}
			hi, err := index(red.His[i])
			if err != nil {
				return nil, err
			}
			parts = append(parts, redRange(lo, js[i], hi))
		}
		if red.Cond != nil {
			s, err := redConstraint(red.Cond, index)
			if err != nil {
				return nil, err
			}
			parts = append(parts, s)
		}
		if eq.Where != nil {
			s, err := redConstraint(eq.Where, index)
			if err != nil {
				return nil, err
			}
			parts = append(parts, s)
		}
		d, err := c.m.domain(r, "b")
		if err != nil {
			return nil, err
		}
		pieces = append(pieces, redPiece{params: c.m.params, in: r.tuple("b"), out: redTuple{elems: js},
			cond: quasiaffine.And(append(d, parts...)...)})
	}
	return c.union(pieces)
}

// complete checks that at u the positions accumulated are exactly the
// domain of the reduction, wherever the cell is an accumulator.
func (c *redCheck) complete(u *redFamily) error {
	li, err := c.lastInit(u)
	if err != nil {
		return err
	}
	dom, err := c.domainOf(c.families(u.key(), redInit))
	if err != nil {
		return err
	}
	want, err := li.ApplyRange(dom)
	if err != nil {
		return err
	}
	ind, err := c.positions(u)
	if err != nil {
		return err
	}
	got, err := c.projectJ(ind)
	if err != nil {
		return err
	}
	if got, err = got.IntersectDomain(li.Domain()); err != nil {
		return err
	}
	missing, err := want.Subtract(c.ctx, got)
	if err != nil {
		return err
	}
	extra, err := got.Subtract(c.ctx, want)
	if err != nil {
		return err
	}
	bad := missing.Domain().Union(extra.Domain())
	return c.decide(u, sched.IncompleteReduction, bad, "the cell is read (or is an output) before every position of its reduction was accumulated into it")
}

// order checks, in the ieee model, that a float reduction read at u was
// accumulated in the specification's order into one accumulator.
func (c *redCheck) order(u *redFamily) error {
	li, err := c.lastInit(u)
	if err != nil {
		return err
	}
	inexact := false
	for _, r := range c.families(u.key(), redInit) {
		if t := c.spec.Tensor(r.tensor); t != nil && t.Reduction() != nil && !t.Reduction().Reduce.Op.Exact(t.Type) {
			inexact = true
		}
	}
	if !inexact {
		return nil
	}
	ind, err := c.positions(u)
	if err != nil {
		return err
	}
	if ind, err = ind.IntersectDomain(li.Domain()); err != nil {
		return err
	}
	js, ks := redDims("j", c.maxRed), redDims("k", c.maxRed)
	ps, qs := redDims("p", c.maxDep), redDims("q", c.maxDep)
	// lexlt is a <lex b.
	lexlt := func(a, b []syntax.Expr) quasiaffine.Formula {
		var alts, eq []quasiaffine.Formula
		for i := range a {
			alts = append(alts, quasiaffine.And(append(eq[:len(eq):len(eq)], redCmp(a[i], syntax.OpLt, b[i]))...))
			eq = append(eq, redCmp(a[i], syntax.OpEq, b[i]))
		}
		if len(alts) == 0 {
			return redFalse()
		}
		return quasiaffine.Or(alts...)
	}
	var pieces []redPiece
	contributors := append(c.families(u.key(), redAcc), c.families(u.key(), redMerge)...)
	for _, v1 := range contributors {
		for _, v2 := range contributors {
			var diff []quasiaffine.Formula
			for i := range ps {
				diff = append(diff, redCmp(ps[i], syntax.OpNe, qs[i]))
			}
			// Two instances of one family are distinct when their
			// iterations differ (never, without loops).
			distinct := quasiaffine.Or(diff...)
			if v1 != v2 {
				distinct = redTrue()
			}
			ordered := quasiaffine.Or(
				quasiaffine.And(redBefore(v1, v2, "p", "q"), lexlt(js, ks)),
				quasiaffine.And(redBefore(v2, v1, "q", "p"), lexlt(ks, js)))
			if v1.kind == redMerge || v2.kind == redMerge {
				ordered = redFalse()
			}
			in := c.encodingDims("j", "c", "p")
			pieces = append(pieces, redPiece{params: c.m.params, in: &in, out: c.encodingDims("k", "d", "q"),
				cond: quasiaffine.And(
					redCmp(redDim("c"), syntax.OpEq, redInt(int64(c.index[v1]))),
					redCmp(redDim("d"), syntax.OpEq, redInt(int64(c.index[v2]))),
					distinct, quasiaffine.Not(ordered))})
		}
	}
	bad := presburger.NewUnionMap()
	if len(pieces) > 0 {
		rel, err := c.union(pieces)
		if err != nil {
			return err
		}
		other, err := ind.ApplyRange(rel)
		if err != nil {
			return err
		}
		both, err := other.Intersect(ind)
		if err != nil {
			return err
		}
		bad = both.Domain()
	}
	merged, err := c.mergedInto(u, li)
	if err != nil {
		return err
	}
	bad = bad.Union(merged)
	return c.decide(u, sched.ReorderedReduction, bad, "in the ieee model, a float reduction must accumulate its positions in the specification's order, into one accumulator: this one is re-ordered, split or merged")
}

// mergedInto returns the instances of u whose cell received a merge.
func (c *redCheck) mergedInto(u *redFamily, li *presburger.UnionMap) (*presburger.UnionMap, error) {
	merges := c.families(u.key(), redMerge)
	if len(merges) == 0 {
		return presburger.NewUnionMap(), nil
	}
	contrib, err := c.last(u, merges, c.families(u.key(), redInit, redPlain))
	if err != nil {
		return nil, err
	}
	d := contrib.Domain()
	return d.Intersect(li.Domain())
}

// race checks that no iteration of a par loop writes a cell another
// iteration accumulates into.
func (c *redCheck) race(v *redFamily) error {
	var pieces []redPiece
	for _, w := range c.families(v.key(), redInit, redPlain) {
		same, err := c.m.sameCell(v, w, "a", "b")
		if err != nil {
			return err
		}
		s, err := c.m.pair(v, w, append([]quasiaffine.Formula{redConcurrent(v, w, "a", "b")}, same...)...)
		if err != nil {
			return err
		}
		pieces = append(pieces, s)
	}
	u, err := c.union(pieces)
	if err != nil {
		return err
	}
	return c.decide(v, sched.WriteWriteConflict, u.Domain(), "another iteration of a par loop writes the cell this one accumulates into")
}

// identity checks that an initialisation stores the identity, in the
// value model's equality: over the reals, −0 is the identity of + too.
func (c *redCheck) identity(r *redFamily) error {
	t := c.spec.Tensor(r.tensor)
	if t == nil || t.Reduction() == nil {
		return fmt.Errorf("%s is not a reduction", r.tensor)
	}
	op := t.Reduction().Reduce.Op
	id := op.Identity(t.Type)
	val, err := expr.EvalValue(r.stmt.Value, c.m.kinfo.Types, redConstEnv{})
	if err != nil {
		c.undecided(r, sched.WrongIdentity, "the initial value is not a constant: "+err.Error())
		return nil
	}
	if c.eq.Equal(val, id) {
		c.add(r, sched.WrongIdentity, Proved, nil, "")
		return nil
	}
	all, err := c.setOf(r)
	if err != nil {
		return err
	}
	return c.decide(r, sched.WrongIdentity, all, fmt.Sprintf("the initial value %s is not the identity %s of %s on %s", val, op.IdentityText(t.Type), op, t.Type))
}

// operator checks that an accumulation or merge uses its reduction's
// operator.
func (c *redCheck) operator(f *redFamily) error {
	t := c.spec.Tensor(f.tensor)
	if t == nil || t.Reduction() == nil {
		return fmt.Errorf("%s is not a reduction", f.tensor)
	}
	op := t.Reduction().Reduce.Op
	if f.stmt.Op == op {
		return nil
	}
	all, err := c.setOf(f)
	if err != nil {
		return err
	}
	return c.decide(f, sched.WrongOperator, all, fmt.Sprintf("%s= accumulates into %s, a %s reduction", f.stmt.Op, t.Name.Name, op))
}

// redConstEnv evaluates constant values: no names.
type redConstEnv struct{}

func (redConstEnv) Index(string) (int64, bool) { return 0, false }
func (redConstEnv) Tensor(name string, _ []int64) (v value.Value, err error) {
	return v, fmt.Errorf("tensor %s read", name)
}
func (redConstEnv) Array(name string, _ []int64) (v value.Value, err error) {
	return v, fmt.Errorf("array %s read", name)
}
