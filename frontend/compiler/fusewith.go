package compiler

import (
	"strings"

	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/syntax"
)

// Halide's compute_with: F.compute_with(G, x) fuses the loops of F's
// pure definition (the child) with those of G's (the parent), from the
// outermost down to x. The fused loops run over the union of the two
// stages' ranges; in each fused iteration G's body runs, then F's, each
// guarded by its own ranges and by the guards of its own splits.

// computeWith is one F.compute_with(G, x) directive of F's schedule.
type computeWith struct {
	parent string
	dim    string
	d      *alg.Directive
}

// computeWithDirective records F.compute_with(G, x).
func (c *compiler) computeWithDirective(d *alg.Directive, f *alg.Func, fs *funcSched) error {
	g, ok := argName(d, 0)
	x, ok2 := argName(d, 1)
	if !ok || !ok2 {
		return c.dirErr(d, syntax.CodeArity, "expected a func and one of its loops: %s", arity["compute_with"].usage)
	}
	if c.p.Func(g) == nil {
		return c.dirErr(d, syntax.CodeSchedule, "%s is not a func", g)
	}
	if g == f.Name.Name {
		return c.dirErr(d, syntax.CodeSchedule, "a func cannot be computed with itself")
	}
	fs.with = &computeWith{parent: g, dim: x, d: d}
	return nil
}

// withPartner returns the compute_with relation name takes part in: its
// parent, or the child computed with it; ok false when there is none.
func (c *compiler) withPartner(name string) (parent, child string, ok bool) {
	if w := c.fs[name].with; w != nil {
		return w.parent, name, true
	}
	for _, f := range c.p.Funcs() {
		if w := c.fs[f.Name.Name].with; w != nil && w.parent == name {
			return name, f.Name.Name, true
		}
	}
	return "", "", false
}

// checkComputeWith checks the compute_with directives once every
// directive is applied: pure definitions alone, not inlined, computed at
// the same level, without specializations, independent of each other, in
// one relation each; the loops from the outermost down to x the same in
// both stages, sequential or parallel alike; no func computed or stored
// at a fused loop.
func (c *compiler) checkComputeWith() error {
	in := map[string]string{} // func -> the other func of its relation
	for _, f := range c.p.Funcs() {
		w := c.fs[f.Name.Name].with
		if w == nil {
			continue
		}
		child, parent := f.Name.Name, w.parent
		for _, n := range []string{child, parent} {
			if o, ok := in[n]; ok {
				return c.dirErr(w.d, syntax.CodeUnsupported, "%s is already computed with %s: a func takes part in one compute_with", n, o)
			}
		}
		in[child], in[parent] = parent, child
		if err := c.checkWithPair(w, child, parent); err != nil {
			return err
		}
	}
	for _, f := range c.p.Funcs() {
		fs := c.fs[f.Name.Name]
		for _, l := range []*level{&fs.compute, fs.store} {
			if l == nil || l.root() || c.fs[l.fn] == nil {
				continue
			}
			parent, child, ok := c.withPartner(l.fn)
			if !ok {
				continue
			}
			w := c.fs[child].with
			if fused, _ := c.fusedDims(child, w.dim); index(fused, l.dim) >= 0 {
				return c.errAt(l.pos, syntax.CodeUnsupported, "%s is placed at loop %s of %s, which compute_with fuses with the loops of %s: place it outside the fused loops or inside the loops of one stage",
					f.Name.Name, l.dim, l.fn, map[bool]string{true: child, false: parent}[l.fn == parent])
			}
		}
	}
	return nil
}

// checkWithPair checks child.compute_with(parent, x) (see
// checkComputeWith).
func (c *compiler) checkWithPair(w *computeWith, child, parent string) error {
	for _, n := range []string{child, parent} {
		fs := c.fs[n]
		switch {
		case len(c.p.Func(n).Updates) > 0:
			return c.dirErr(w.d, syntax.CodeUnsupported, "%s has update definitions: compute_with fuses pure definitions alone", n)
		case fs.inline:
			return c.dirErr(w.d, syntax.CodeSchedule, "%s is computed inline: it has no loops to fuse", n)
		case len(fs.stages[0].specs) > 0:
			return c.dirErr(w.d, syntax.CodeUnsupported, "%s is specialised: compute_with fuses stages without specializations", n)
		}
	}
	cl, pl := c.fs[child].compute, c.fs[parent].compute
	if cl.fn != pl.fn || cl.dim != pl.dim {
		return c.dirErr(w.d, syntax.CodeSchedule, "%s is computed at %s and %s at %s: stages computed with each other are computed at the same level",
			child, levelString(cl), parent, levelString(pl))
	}
	if c.dependsOn(child, parent) || c.dependsOn(parent, child) {
		return c.dirErr(w.d, syntax.CodeSchedule, "%s and %s depend on each other: the stages computed with each other must be independent (one would read the other before it is computed)", child, parent)
	}
	cf, cok := c.fusedDims(child, w.dim)
	pf, pok := c.fusedDims(parent, w.dim)
	if !pok {
		return c.dirErr(w.d, syntax.CodeSchedule, "%s has no loop %s (its loops, outermost first: %s)", parent, w.dim, strings.Join(outermostFirst(c.fs[parent].stages[0].loops), ", "))
	}
	if !cok || strings.Join(cf, ",") != strings.Join(pf, ",") {
		return c.dirErr(w.d, syntax.CodeSchedule, "the loops of %s from the outermost down to %s are %s, those of %s %s: compute_with fuses the same loops of both stages",
			parent, w.dim, strings.Join(pf, ", "), child, strings.Join(outermostFirst(c.fs[child].stages[0].loops), ", "))
	}
	for i := range pf {
		ck, pk := c.fs[child].stages[0].loops.dims, c.fs[parent].stages[0].loops.dims
		a, b := ck[len(ck)-1-i].kind, pk[len(pk)-1-i].kind
		if a != b || (a != serial && a != parallel) {
			return c.dirErr(w.d, syntax.CodeSchedule, "loop %s is not the same kind of loop in %s and %s, or is vectorised or unrolled: fused loops are both sequential or both parallel", pf[i], child, parent)
		}
	}
	return nil
}

// fusedDims returns the loops of name's pure definition from the
// outermost down to x; ok false when it has no loop x.
func (c *compiler) fusedDims(name, x string) ([]string, bool) {
	all := outermostFirst(c.fs[name].stages[0].loops)
	i := index(all, x)
	if i < 0 {
		return nil, false
	}
	return all[:i+1], true
}

func outermostFirst(ls *loopSched) []string {
	var out []string
	for i := len(ls.dims) - 1; i >= 0; i-- {
		out = append(out, ls.dims[i].name)
	}
	return out
}

// dependsOn reports whether func a reads func b, directly or through
// other funcs.
func (c *compiler) dependsOn(a, b string) bool {
	seen := map[string]bool{}
	var visit func(n string) bool
	visit = func(n string) bool {
		if seen[n] {
			return false
		}
		seen[n] = true
		f := c.p.Func(n)
		for _, g := range c.p.Funcs() {
			if g.Name.Name != n && reads(f, g.Name.Name) && (g.Name.Name == b || visit(g.Name.Name)) {
				return true
			}
		}
		return false
	}
	return visit(a)
}

// fuseAt fuses the nest of f just placed at the block b (its first
// statement) with the nest of its compute_with partner placed before,
// found next in b or at the start of the allocations that follow. It
// does nothing when f takes part in no compute_with, or when the partner
// computes nothing there.
func (c *compiler) fuseAt(f *alg.Func, b *nBlock) error {
	parent, child, ok := c.withPartner(f.Name.Name)
	if !ok || len(b.stmts) == 0 {
		return nil
	}
	other := parent
	if other == f.Name.Name {
		other = child
	}
	mine := b.stmts[0]
	isOther := func(n node) bool {
		for _, p := range c.placed[other] {
			if p == n {
				return true
			}
		}
		return false
	}
	// the partner's nest next, possibly inside allocations that open there
	ob, oi := b, 1
	for oi < len(ob.stmts) {
		a, ok := ob.stmts[oi].(*nAlloc)
		if !ok {
			break
		}
		ob, oi = a.body, 0
	}
	w := c.fs[child].with
	if oi >= len(ob.stmts) || !isOther(ob.stmts[oi]) {
		for _, p := range c.placed[other] {
			if sameSite(b, p) {
				return c.dirErr(w.d, syntax.CodeUnsupported, "another func is computed between %s and %s: stages computed with each other are computed one right after the other", child, parent)
			}
		}
		return nil // the partner computes nothing here
	}
	pn, cn := ob.stmts[oi], mine
	if f.Name.Name == parent {
		pn, cn = mine, ob.stmts[oi]
	}
	fused, err := c.fuseNests(w, pn, cn)
	if err != nil {
		return err
	}
	ob.stmts[oi] = fused
	b.stmts = b.stmts[1:]
	return nil
}

// sameSite reports whether node n lies in block b, through allocations.
func sameSite(b *nBlock, n node) bool {
	for _, s := range b.stmts {
		if s == n {
			return true
		}
		if a, ok := s.(*nAlloc); ok && sameSite(a.body, n) {
			return true
		}
	}
	return false
}

// fusedLevel is one loop of a stage's nest down to the fused level: the
// lets before it and the guards around it, as loopNest emits them.
type fusedLevel struct {
	lets []node
	ifs  []*nIf
	loop *nLoop
}

// chainTo follows a stage's nest from its root down to the loop labelled
// dim: ok false when the nest has another shape.
func chainTo(n node, dim string) (levels []fusedLevel, ok bool) {
	b, isBlock := n.(*nBlock)
	if !isBlock {
		return nil, false
	}
	cur := fusedLevel{}
	for {
		if len(b.stmts) == 0 {
			return nil, false
		}
		for _, s := range b.stmts[:len(b.stmts)-1] {
			if _, ok := s.(*nLet); !ok {
				return nil, false
			}
			cur.lets = append(cur.lets, s)
		}
		switch last := b.stmts[len(b.stmts)-1].(type) {
		case *nIf:
			if last.els != nil {
				return nil, false
			}
			cur.ifs = append(cur.ifs, last)
			b = last.then
		case *nLoop:
			cur.loop = last
			levels = append(levels, cur)
			if last.dim == dim {
				return levels, true
			}
			cur, b = fusedLevel{}, last.body
		default:
			return nil, false
		}
	}
}

// fuseNests fuses the nests of the parent (pn) and the child (cn) down to
// the loop w.dim: each fused loop is the parent's loop over the union of
// both ranges, the child's loop variable bound to it by a let; both
// stages' lets come before the next loop, and their guards, with the
// range of each loop that the union widens, around each body innermost.
func (c *compiler) fuseNests(w *computeWith, pn, cn node) (node, error) {
	pl, pok := chainTo(pn, w.dim)
	cl, cok := chainTo(cn, w.dim)
	if !pok || !cok || len(pl) != len(cl) {
		return nil, c.dirErr(w.d, syntax.CodeUnsupported, "the loop nests of %s and %s down to %s do not have the same loops", w.parent, w.d.Func.Name, w.dim)
	}
	out := &nBlock{}
	cur := out
	var pg, cg []*nIf
	for k := range pl {
		p, q := pl[k], cl[k]
		if p.loop.dim != q.loop.dim || p.loop.kind != q.loop.kind {
			return nil, c.dirErr(w.d, syntax.CodeUnsupported, "the loop nests of %s and %s differ at loop %s", w.parent, w.d.Func.Name, p.loop.dim)
		}
		cur.stmts = append(append(cur.stmts, p.lets...), q.lets...)
		pg, cg = append(pg, p.ifs...), append(cg, q.ifs...)
		lp := &nLoop{v: p.loop.v, lo: p.loop.lo, hi: p.loop.hi, kind: p.loop.kind, fn: p.loop.fn, stage: p.loop.stage, dim: p.loop.dim, body: &nBlock{}, count: p.loop.count}
		lp.lo, lp.hi = minMax("min", p.loop.lo, q.loop.lo), minMax("max", p.loop.hi, q.loop.hi)
		// each stage guarded by its own range where the union widens it
		if !sameRange(p.loop, lp) {
			pg = append(pg, &nIf{cond: inRange(ident(p.loop.v), p.loop.lo, p.loop.hi)})
			lp.count = 0
		}
		if !sameRange(q.loop, lp) {
			cg = append(cg, &nIf{cond: inRange(ident(q.loop.v), q.loop.lo, q.loop.hi)})
			lp.count = 0
		}
		cur.stmts = append(cur.stmts, lp)
		cur = lp.body
		cur.stmts = append(cur.stmts, &nLet{v: q.loop.v, e: ident(p.loop.v)})
	}
	last := len(pl) - 1
	cur.stmts = append(cur.stmts, underGuards(pg, pl[last].loop.body), underGuards(cg, cl[last].loop.body))
	return out, nil
}

// sameRange reports whether two loops have the same bounds, as written.
func sameRange(a, b *nLoop) bool {
	return syntax.Equal(norm(a.lo), norm(b.lo)) && syntax.Equal(norm(a.hi), norm(b.hi))
}

// inRange is lo <= v and v < hi.
func inRange(v, lo, hi syntax.Expr) syntax.Expr {
	return conjunction(bin(lo, syntax.OpLe, v), bin(v, syntax.OpLt, hi))
}

// underGuards nests body in the guards gs, outermost first, each keeping
// its condition (and whether an injection drops it).
func underGuards(gs []*nIf, body *nBlock) node {
	var n node = body
	for i := len(gs) - 1; i >= 0; i-- {
		then, ok := n.(*nBlock)
		if !ok {
			then = &nBlock{stmts: []node{n}}
		}
		n = &nIf{cond: gs[i].cond, then: then, dropped: gs[i].dropped}
	}
	return n
}
