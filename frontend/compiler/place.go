package compiler

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/internal/quasiaffine"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// site is a place where a func is computed or stored: the body of a loop
// (or the root block, loop nil), with the loop's ancestors.
type site struct {
	loop *nLoop
	body *nBlock
	path []node // ancestors of the body, outermost first (the loop included)
}

// sites returns the loops implementing level l (in every specialization
// and every copy of the stage), or the root.
func (c *compiler) sites(l level) []site {
	if l.root() {
		return []site{{body: c.root}}
	}
	var out []site
	walkIR(c.root, nil, func(n node, path []node) bool {
		if lp, ok := n.(*nLoop); ok && lp.fn == l.fn && lp.dim == l.dim {
			out = append(out, site{loop: lp, body: lp.body, path: append(append([]node(nil), path...), lp)})
		}
		return true
	})
	return out
}

// contains reports whether path passes through the site.
func (s site) contains(path []node) bool {
	return s.loop == nil || containsNode(path, s.loop)
}

// access is one logical access found under a site: the constraints of the
// loops, lets and ifs between the site and the access, the variables they
// bind, and the coordinates. The accesses of one store share their
// context, numbered by store.
type accessAt struct {
	cons  []quasiaffine.Formula
	bound []string
	args  []syntax.Expr
	store int
	// defs gives the loops and lets of bound, in their IR form, for the
	// interval arithmetic of bounds inference's fallback (interval.go)
	defs map[string]varDef
}

// footprint collects the accesses under s that pick selects from a store:
// reads of name by other funcs' stores (reads), or the writes of name
// (writes).
func (c *compiler) footprint(s site, pick func(st *nStore) [][]syntax.Expr) ([]accessAt, error) {
	var out []accessAt
	stores := 0
	defs := map[string]varDef{}
	var walk func(b *nBlock, cons []quasiaffine.Formula, bound []string) error
	walk = func(b *nBlock, cons []quasiaffine.Formula, bound []string) error {
		for _, n := range b.stmts {
			switch n := n.(type) {
			case *nLet:
				def, err := c.letCond(n)
				if err != nil {
					return err
				}
				cons = append(cons, def)
				bound = append(bound, n.v)
				defs[n.v] = varDef{let: n.e}
			case *nLoop:
				rng, err := c.loopCond(n)
				if err != nil {
					return err
				}
				defs[n.v] = varDef{lo: n.lo, hi: n.hi}
				if err := walk(n.body, append(clone(cons), rng), append(clone(bound), n.v)); err != nil {
					return err
				}
			case *nIf:
				cond, err := c.affine(n.cond)
				if err != nil {
					return err
				}
				if err := walk(n.then, append(clone(cons), quasiaffine.Constraint(cond)), bound); err != nil {
					return err
				}
				if n.els != nil {
					if err := walk(n.els, append(clone(cons), quasiaffine.Not(quasiaffine.Constraint(cond))), bound); err != nil {
						return err
					}
				}
			case *nAlloc:
				if err := walk(n.body, cons, bound); err != nil {
					return err
				}
			case *nBlock:
				if err := walk(n, cons, bound); err != nil {
					return err
				}
			case *nStore:
				for _, args := range pick(n) {
					out = append(out, accessAt{cons: clone(cons), bound: clone(bound), args: args, store: stores, defs: defs})
				}
				stores++
			}
		}
		return nil
	}
	err := walk(s.body, nil, nil)
	return out, err
}

func clone[T any](s []T) []T { return append([]T(nil), s...) }

// loopCond returns the range of a loop's variable, lo <= v < hi.
func (c *compiler) loopCond(n *nLoop) (quasiaffine.Formula, error) {
	lo, err := c.affine(n.lo)
	if err != nil {
		return nil, err
	}
	hi, err := c.affine(n.hi)
	if err != nil {
		return nil, err
	}
	return quasiaffine.Chain([]syntax.Expr{lo, ident(n.v), hi}, []syntax.Op{syntax.OpLe, syntax.OpLt}), nil
}

// letCond returns the definition of a let's variable, v == e.
func (c *compiler) letCond(n *nLet) (quasiaffine.Formula, error) {
	e, err := c.affine(n.e)
	if err != nil {
		return nil, err
	}
	return quasiaffine.Constraint(bin(ident(n.v), syntax.OpEq, e)), nil
}

// outerContext returns the constraints of a site's ancestors: its loops, lets
// and ifs, whose variables are parameters of the bounds of what is
// computed inside.
func (c *compiler) outerContext(s site) ([]quasiaffine.Formula, error) {
	var cons []quasiaffine.Formula
	for i, n := range s.path {
		switch n := n.(type) {
		case *nLoop:
			rng, err := c.loopCond(n)
			if err != nil {
				return nil, err
			}
			cons = append(cons, rng)
		case *nIf:
			cond, err := c.affine(n.cond)
			if err != nil {
				return nil, err
			}
			f := quasiaffine.Constraint(cond)
			// the path records the branch block after the if
			if i+1 < len(s.path) && n.els != nil && s.path[i+1] == node(n.els) {
				f = quasiaffine.Not(f)
			}
			cons = append(cons, f)
		}
	}
	// lets: every let of an ancestor block that precedes the path
	for i, n := range s.path {
		if i == len(s.path)-1 && s.loop != nil {
			break // the site's own body is inside
		}
		var stmts []node
		switch n := n.(type) {
		case *nLoop:
			stmts = n.body.stmts
		case *nBlock:
			stmts = n.stmts
		case *nAlloc:
			stmts = n.body.stmts
		default:
			continue
		}
		var next node
		if i+1 < len(s.path) {
			next = s.path[i+1]
		}
		for _, st := range stmts {
			if st == next {
				break
			}
			if l, ok := st.(*nLet); ok {
				def, err := c.letCond(l)
				if err != nil {
					return nil, err
				}
				cons = append(cons, def)
			}
		}
	}
	// the root block's lets (none are emitted there) are skipped
	return cons, nil
}

// affine returns the IR expression or constraint x for bounds inference:
// checked to be quasi-affine, RDom variables renamed to their loop
// variables (r.k to r_k).
func (c *compiler) affine(x syntax.Expr) (syntax.Expr, error) {
	if err := quasiaffine.Check(x); err != nil {
		return nil, err
	}
	dotted := false
	syntax.Inspect(x, func(e syntax.Expr) bool {
		if id, ok := e.(*syntax.Ident); ok && strings.Contains(id.Name, ".") {
			dotted = true
		}
		return !dotted
	})
	if !dotted {
		return x, nil
	}
	return rewrite(x, func(e syntax.Expr) syntax.Expr {
		if id, ok := e.(*syntax.Ident); ok {
			return ident(rvar(id.Name))
		}
		return nil
	}), nil
}

// boxOf returns the bounding box, per dimension, of the accesses,
// lexicographic extrema with the variables bound outside the site as
// parameters. It returns nil when there is no access.
func (c *compiler) boxOf(ctx context.Context, s site, acc []accessAt, rank int, name string) (*box, error) {
	if len(acc) == 0 {
		return nil, nil
	}
	outer, err := c.outerContext(s)
	if err != nil {
		return nil, err
	}
	// the variables bound between the site and an access stay quantified;
	// the others, bound outside, are parameters of the sets
	inner := map[string]bool{}
	for _, a := range acc {
		for _, v := range a.bound {
			inner[v] = true
		}
	}
	b := &box{}
	for d := 0; d < rank; d++ {
		// One store's accesses share their context: a coordinate repeated
		// there (inlined stencils read their producers' points many times
		// over) is one disjunct of the set, not one per access, which the
		// extrema would otherwise combine pairwise.
		type coord struct {
			store int
			arg   string
		}
		seen := map[coord]bool{}
		var disj []quasiaffine.Formula
		for _, a := range acc {
			arg, err := c.affine(a.args[d])
			if err != nil {
				return nil, fmt.Errorf("bounds of %s: %v", name, err)
			}
			k := coord{a.store, syntax.ExprString(arg)}
			if seen[k] {
				continue
			}
			seen[k] = true
			cons, bound, err := c.attached(ctx, a, arg, outer)
			if err != nil {
				return nil, fmt.Errorf("bounds of %s: %w", name, err)
			}
			disj = append(disj, quasiaffine.Exists(bound, quasiaffine.And(append(cons, isBuf(arg))...)))
		}
		cond := quasiaffine.And(append([]quasiaffine.Formula{quasiaffine.Or(disj...)}, outer...)...)
		lo, hi, err := c.extremaOf(presburger.WithSharedBudget(ctx, c.budget), cond, without(c.symbols(cond), inner))
		if errors.Is(err, presburger.ErrBudget) && ctx.Err() == nil {
			// the exact extrema are beyond the budget: the coarser box of
			// interval arithmetic, as Halide's, a safe over-approximation
			lo, hi, err = c.intervalBounds(ctx, acc, d)
		}
		if errors.Is(err, errEmptyRegion) {
			// no access ever runs here: an empty region, as Halide gives
			// a func no consumer needs under a specialization
			return emptyBox(rank), nil
		}
		if err != nil {
			return nil, fmt.Errorf("bounds of %s in dimension %d: %w", name, d+1, err)
		}
		ext := simplifyAdd(sub(hi, lo), 1)
		if k, ok := c.constantSpan(presburger.WithSharedBudget(ctx, c.budget), outer, lo, hi); ok {
			hi, ext = norm(bin(lo, syntax.OpAdd, intLit(k))), intLit(k+1)
		}
		b.Lo = append(b.Lo, lo)
		b.Hi = append(b.Hi, hi)
		b.Extent = append(b.Extent, ext)
	}
	return b, nil
}

// emptyBox is the empty region of rank dimensions: each from 0 to -1,
// its extent 0.
func emptyBox(rank int) *box {
	b := &box{}
	for range rank {
		b.Lo = append(b.Lo, intLit(0))
		b.Hi = append(b.Hi, intLit(-1))
		b.Extent = append(b.Extent, intLit(0))
	}
	return b
}

// symbols lists the internal variables a condition names (bound by an
// existential of the condition or not), sorted: those bound outside
// become parameters of the set.
func (c *compiler) symbols(cond quasiaffine.Formula) []string {
	var out []string
	for _, n := range quasiaffine.Names(cond) {
		if strings.HasPrefix(n, "buf_v") {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// without returns the names of names not in drop.
func without(names []string, drop map[string]bool) []string {
	var out []string
	for _, n := range names {
		if !drop[n] {
			out = append(out, n)
		}
	}
	return out
}

// extremaOf returns the minimum and maximum of buf_o over the set
// { [buf_o] : cond }, as expressions of the parameters and of the free
// internal variables syms, widened to a min or max of pieces when
// piecewise.
func (c *compiler) extremaOf(ctx context.Context, cond quasiaffine.Formula, syms []string) (syntax.Expr, syntax.Expr, error) {
	params := append(clone(c.params), syms...)
	set, err := c.setOf(ctx, params, cond)
	if err != nil {
		return nil, nil, err
	}
	lo, err := c.optimum(ctx, set, params, false, true)
	if err != nil {
		return nil, nil, err
	}
	hi, err := c.optimum(ctx, set, params, true, true)
	if err != nil {
		return nil, nil, err
	}
	return lo, hi, nil
}

// maxOver returns the maximum of the expression x (of parameters and
// internal variables) over the context of site s: a parameter-only bound
// for the extents of an allocation inside loops.
func (c *compiler) maxOver(ctx context.Context, s site, x syntax.Expr) (syntax.Expr, error) {
	if freeIn(x, c.paramSet()) {
		if l, ok := linearize(x); ok {
			return l.expr(), nil
		}
	}
	outer, err := c.outerContext(s)
	if err != nil {
		return nil, err
	}
	e, err := c.affine(x)
	if err != nil {
		return nil, err
	}
	all := quasiaffine.And(append(outer, isBuf(e))...)
	set, err := c.setOf(ctx, c.params, quasiaffine.Exists(c.symbols(all), all))
	if err != nil {
		return nil, err
	}
	return c.optimum(ctx, set, c.params, true, true)
}

func (c *compiler) paramSet() map[string]bool {
	m := map[string]bool{}
	for _, p := range c.params {
		m[p] = true
	}
	return m
}

// placeAll builds the kernel's loop nest: the outputs at the root, then
// every other live func, consumers first, at its compute level with its
// buffer at its store level; finally the regions of the inputs.
func (c *compiler) placeAll(ctx context.Context) error {
	c.root = &nBlock{}
	c.placed = map[string][]node{}
	funcs := c.p.Funcs()
	live := c.liveFuncs()
	for i := len(funcs) - 1; i >= 0; i-- {
		f := funcs[i]
		if !live[f.Name.Name] || c.fs[f.Name.Name].inline {
			continue
		}
		if err := c.place(ctx, f); err != nil {
			return err
		}
	}
	for _, in := range c.p.Inputs() {
		name := in.Name.Name
		acc, err := c.footprint(site{body: c.root}, func(st *nStore) [][]syntax.Expr { return readsOf(st.value, name) })
		if err != nil {
			return err
		}
		b, err := c.boxOf(ctx, site{body: c.root}, acc, len(in.Vars), name)
		if err != nil {
			return c.errAt(in.Pos, codeOf(err), "%v", err)
		}
		if b != nil {
			c.regions[name] = b
		}
	}
	return nil
}

// liveFuncs returns the funcs the outputs depend on, through inlined ones.
func (c *compiler) liveFuncs() map[string]bool {
	live := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		if live[name] {
			return
		}
		live[name] = true
		for _, v := range c.values[name] {
			syntax.Inspect(v, func(e syntax.Expr) bool {
				if cl, ok := e.(*syntax.Call); ok && c.p.Func(cl.Fun.Name) != nil && cl.Fun.Name != name {
					visit(cl.Fun.Name)
				}
				return true
			})
		}
	}
	for _, o := range c.p.Outputs() {
		visit(o.Func.Name)
	}
	return live
}

// place computes f at its compute level and allocates it at its store
// level.
func (c *compiler) place(ctx context.Context, f *alg.Func) error {
	name := f.Name.Name
	fs := c.fs[name]
	isOut := c.isOutput(name)
	readers := func(st *nStore) [][]syntax.Expr {
		if st.fn == name {
			return nil
		}
		return readsOf(st.value, name)
	}
	csites := c.sites(fs.compute)
	if !fs.compute.root() {
		if len(csites) == 0 {
			return c.errAt(fs.compute.pos, syntax.CodeSchedule, "%s.compute_at(%s, %s): %s has no loop %s (in the loops of its stages as scheduled)", name, fs.compute.fn, fs.compute.dim, fs.compute.fn, fs.compute.dim)
		}
		// dominance: every use inside a compute site
		var outside *nStore
		walkIR(c.root, nil, func(n node, path []node) bool {
			st, ok := n.(*nStore)
			if !ok || len(readers(st)) == 0 || outside != nil {
				return true
			}
			for _, s := range csites {
				if s.contains(path) {
					return true
				}
			}
			outside = st
			return true
		})
		if outside != nil {
			return c.errAt(fs.compute.pos, syntax.CodeSchedule, "%s.compute_at(%s, %s): %s is also used by %s outside that loop: the computation of a func must dominate all its uses",
				name, fs.compute.fn, fs.compute.dim, name, stageLabel(c.p.Func(outside.fn), outside.stage))
		}
	}
	misplace := c.inject == InjectMisplacedProducer && !c.injected && !isOut
	placed := false
	for _, s := range csites {
		var r *box
		if isOut {
			r = c.declared(name)
		} else {
			acc, err := c.footprint(s, readers)
			if err != nil {
				return err
			}
			if r, err = c.boxOf(ctx, s, acc, len(f.Vars), name); err != nil {
				return c.errAt(f.Pos, codeOf(err), "%v", err)
			}
			if r == nil {
				continue
			}
			if c.inject == InjectHaloOffByOne && !c.injected && !fs.compute.root() {
				for d := len(r.Hi) - 1; d >= 0; d-- {
					if !syntax.Equal(r.Lo[d], r.Hi[d]) {
						r.Hi[d], r.Extent[d] = simplifyAdd(r.Hi[d], -1), simplifyAdd(r.Extent[d], -1)
						c.injected = true
						break
					}
				}
			}
		}
		r, err := c.applyBounds(ctx, f, s, r)
		if err != nil {
			return err
		}
		nests, err := c.funcNest(ctx, f, r, s)
		if err != nil {
			return err
		}
		if misplace {
			s.body.stmts = append(s.body.stmts, nests...)
			c.injected = true
		} else {
			b := guarded(s.body)
			b.stmts = append(append([]node(nil), nests...), b.stmts...)
			c.placed[name] = append(c.placed[name], nests...)
			if err := c.fuseAt(f, b); err != nil {
				return err
			}
		}
		placed = true
		// the fold must hold what f writes in one computation, overcompute
		// included
		wacc, err := c.footprint(s, writesOf(name))
		if err != nil {
			return err
		}
		w, err := c.boxOf(ctx, s, wacc, len(f.Vars), name)
		if err != nil {
			return c.errAt(f.Pos, codeOf(err), "%v", err)
		}
		if w != nil {
			if err := c.checkFold(ctx, f, s, w); err != nil {
				return err
			}
		}
	}
	if !placed {
		return nil
	}
	if isOut {
		return nil
	}
	return c.allocate(ctx, f, csites)
}

func stageLabel(f *alg.Func, s int) string {
	if s == 0 {
		return f.Name.Name
	}
	return fmt.Sprintf("%s.update(%d)", f.Name.Name, s-1)
}

// declared returns an output's declared region.
func (c *compiler) declared(name string) *box {
	for _, o := range c.p.Outputs() {
		if o.Func.Name != name {
			continue
		}
		b := &box{}
		for _, d := range o.Dims {
			b.Lo = append(b.Lo, d.Lo)
			b.Hi = append(b.Hi, simplifyAdd(d.Hi, -1))
			b.Extent = append(b.Extent, sub(d.Hi, d.Lo))
		}
		return b
	}
	return nil
}

// applyBounds applies bound and align_bounds (Reinking 2022, section 2.8.5)
// to the region r computed at site s; a bound must cover what is needed.
func (c *compiler) applyBounds(ctx context.Context, f *alg.Func, s site, r *box) (*box, error) {
	fs := c.fs[f.Name.Name]
	out := &box{Lo: append([]syntax.Expr(nil), r.Lo...), Hi: append([]syntax.Expr(nil), r.Hi...), Extent: append([]syntax.Expr(nil), r.Extent...)}
	for d := range f.Vars {
		if b, ok := fs.bound[d]; ok {
			lo, hi := b[0], simplifyAdd(sub(bin(b[0], syntax.OpAdd, b[1]), intLit(0)), -1)
			// some needed point lies outside the bound
			ok, err := c.noNeedWhere(ctx, f, s, d, boundCmp{r.Lo[d], syntax.OpLt, lo}, boundCmp{r.Hi[d], syntax.OpGt, hi})
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, c.errAt(fs.boundPos[d], syntax.CodeSchedule, "%s.bound(%s, %s, %s) does not cover the region %s .. %s of %s that its consumers need",
					f.Name.Name, f.Vars[d].Name, syntax.ExprString(b[0]), syntax.ExprString(b[1]), syntax.ExprString(r.Lo[d]), syntax.ExprString(simplifyAdd(r.Hi[d], 1)), f.Vars[d].Name)
			}
			out.Lo[d], out.Hi[d], out.Extent[d] = lo, hi, b[1]
		}
		if k, ok := fs.boundExt[d]; ok {
			// Halide's bound_extent: the region starts where bounds
			// inference puts it and spans k points, which must hold
			// every point needed in every iteration of the site
			ok, err := c.noNeedWhere(ctx, f, s, d, boundCmp{simplifyAdd(sub(r.Hi[d], r.Lo[d]), 1), syntax.OpGt, intLit(k)})
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, c.errAt(fs.boundPos[d], syntax.CodeSchedule, "%s.bound_extent(%s, %d) does not cover the region %s .. %s of %s that its consumers need: its extent exceeds %d",
					f.Name.Name, f.Vars[d].Name, k, syntax.ExprString(c.shown(r.Lo[d])), syntax.ExprString(c.shown(simplifyAdd(r.Hi[d], 1))), f.Vars[d].Name, k)
			}
			out.Hi[d], out.Extent[d] = simplifyAdd(r.Lo[d], k-1), intLit(k)
		}
		if a, ok := fs.align[d]; ok {
			m, rem := a[0], a[1]
			// the multiple of m plus rem at or below the bound, and the
			// end of its aligned block
			aligned := func(x syntax.Expr, plus int64) syntax.Expr {
				return norm(bin(mul(floorDiv(bin(x, syntax.OpSub, num(rem)), num(m)), num(m)), syntax.OpAdd, num(plus)))
			}
			lo, hi := aligned(out.Lo[d], rem), aligned(out.Hi[d], rem+m-1)
			out.Lo[d], out.Hi[d], out.Extent[d] = lo, hi, simplifyAdd(sub(hi, lo), 1)
		}
	}
	return out, nil
}

// boundCmp is a comparison l op r of index expressions.
type boundCmp struct {
	l  syntax.Expr
	op syntax.Op
	r  syntax.Expr
}

// noNeedWhere reports whether no iteration of site s (its loops, lets,
// guards and the assumptions) satisfies any of the comparisons: checked
// exactly, with package presburger. Its errors are positioned at the
// bound directive on dimension d of f.
func (c *compiler) noNeedWhere(ctx context.Context, f *alg.Func, s site, d int, cmps ...boundCmp) (bool, error) {
	pos := c.fs[f.Name.Name].boundPos[d]
	var need []quasiaffine.Formula
	for _, x := range cmps {
		l, err := c.affine(x.l)
		if err != nil {
			return false, c.errAt(pos, codeOf(err), "%s.bound: %v", f.Name.Name, err)
		}
		r, err := c.affine(x.r)
		if err != nil {
			return false, c.errAt(pos, codeOf(err), "%s.bound: %v", f.Name.Name, err)
		}
		need = append(need, quasiaffine.Constraint(bin(l, x.op, r)))
	}
	outer, err := c.outerContext(s)
	if err != nil {
		return false, err
	}
	cond := quasiaffine.And(append(outer, isBuf(intLit(0)), quasiaffine.Or(need...))...)
	set, err := c.setOf(ctx, append(clone(c.params), c.symbols(cond)...), cond)
	if err != nil {
		return false, err
	}
	return set.IsEmpty(ctx)
}

// checkFold checks that every fold factor holds what one computation of f
// at the site spans (the rule of storage folding: a value must survive
// until its last read, and without sliding windows every value is read in
// the iteration that computes it).
func (c *compiler) checkFold(ctx context.Context, f *alg.Func, s site, r *box) error {
	fs := c.fs[f.Name.Name]
	for d, k := range fs.fold {
		ext, err := c.maxOver(ctx, s, simplifyAdd(sub(r.Hi[d], r.Lo[d]), 1))
		if err != nil {
			return c.errAt(fs.foldPos, codeOf(err), "fold_storage of %s: %v", f.Name.Name, err)
		}
		l, ok := linearize(ext)
		if !ok || !allZero(l) {
			return c.errAt(fs.foldPos, syntax.CodeSchedule, "fold_storage(%s, %d) of %s: one computation of %s spans %s points of %s, not a constant: fold a func computed inside a loop (compute_at)",
				f.Vars[d].Name, k, f.Name.Name, f.Name.Name, syntax.ExprString(ext), f.Vars[d].Name)
		}
		if c.inject == InjectFoldTooSmall && l.c > 1 {
			fs.foldSpan = l.c
		}
		if l.c > k {
			return c.errAt(fs.foldPos, syntax.CodeSchedule, "fold_storage(%s, %d) of %s: one computation of %s spans %d points of %s, more than the fold factor: a folded buffer must hold every value until its last read",
				f.Vars[d].Name, k, f.Name.Name, f.Name.Name, l.c, f.Vars[d].Name)
		}
	}
	return nil
}

// allocate wraps the body of f's store sites in an allocation of f over
// the points f writes there.
func (c *compiler) allocate(ctx context.Context, f *alg.Func, csites []site) error {
	name := f.Name.Name
	fs := c.fs[name]
	lvl := fs.compute
	if fs.store != nil {
		lvl = *fs.store
	}
	ssites := c.sites(lvl)
	if len(ssites) == 0 {
		return c.errAt(lvl.pos, syntax.CodeSchedule, "%s.store_at(%s, %s): %s has no loop %s", name, lvl.fn, lvl.dim, lvl.fn, lvl.dim)
	}
	// every compute site inside a store site, with no parallel loop between
	for _, cs := range csites {
		var in *site
		for i, ss := range ssites {
			if ss.loop == nil || containsNode(cs.path, ss.loop) {
				in = &ssites[i]
				break
			}
		}
		if in == nil {
			return c.errAt(lvl.pos, syntax.CodeSchedule, "%s is stored at %s, inside the loop where it is computed: store_at must be at or outside compute_at", name, levelString(lvl))
		}
		start := 0
		for i, n := range cs.path {
			if in.loop != nil && n == node(in.loop) {
				start = i + 1
			}
		}
		for _, n := range cs.path[start:] {
			if lp, ok := n.(*nLoop); ok && (lp.kind == parallel || lp.kind == vectorized) {
				return c.errAt(lvl.pos, syntax.CodeSchedule, "%s is stored outside the parallel loop %s of %s but computed inside it: the iterations would race on its buffer (store it inside the loop)", name, lp.dim, lp.fn)
			}
		}
	}
	for _, ss := range ssites {
		acc, err := c.footprint(ss, writesOf(name))
		if err != nil {
			return err
		}
		b, err := c.boxOf(ctx, ss, acc, len(f.Vars), name)
		if err != nil {
			return c.errAt(f.Pos, codeOf(err), "%v", err)
		}
		if b == nil {
			continue
		}
		al := &nAlloc{fn: name, lo: b.Lo, fold: make([]int64, len(f.Vars))}
		for d := range f.Vars {
			if k, ok := fs.fold[d]; ok {
				if c.inject == InjectFoldTooSmall && !c.injected && fs.foldSpan > 1 {
					k = fs.foldSpan - 1
					c.injected = true
				}
				al.fold[d] = k
				al.ext = append(al.ext, intLit(k))
				continue
			}
			ext, err := c.maxOver(ctx, ss, b.Extent[d])
			if err != nil {
				return c.errAt(f.Pos, codeOf(err), "storage of %s: %v", name, err)
			}
			al.ext = append(al.ext, ext)
		}
		al.body = &nBlock{stmts: ss.body.stmts}
		ss.body.stmts = []node{al}
	}
	return nil
}

func containsNode(path []node, n *nLoop) bool {
	for _, p := range path {
		if p == node(n) {
			return true
		}
	}
	return false
}

func levelString(l level) string {
	if l.root() {
		return "the root"
	}
	return fmt.Sprintf("loop %s of %s", l.dim, l.fn)
}

// guarded returns the block where a producer computed in b goes: inside
// the guards that open b (lets, then a single if without else, as a
// guarded split emits them), so that iterations past the end of a loop
// compute nothing.
func guarded(b *nBlock) *nBlock {
	for {
		var next *nBlock
		for i, st := range b.stmts {
			switch st := st.(type) {
			case *nLet:
				continue
			case *nIf:
				if i == len(b.stmts)-1 && st.els == nil && !st.dropped {
					next = st.then
				}
			}
			if next == nil {
				return b
			}
		}
		if next == nil {
			return b
		}
		b = next
	}
}

// attached returns the constraints of the access a (whose coordinate is
// arg) that the coordinate depends on, with the variables they bind.
// The others constrain variables that no constraint relates to the
// coordinate, such as the loops of an independent dimension or of a
// reduction: they only state that the loops run, a condition of the
// parameters and of the variables bound outside the site. They are
// dropped when the assumptions and the site's context (outer) imply that
// condition, so that the extrema need not project them out: the set is
// the same. Its error is only ctx's.
func (c *compiler) attached(ctx context.Context, a accessAt, arg syntax.Expr, outer []quasiaffine.Formula) ([]quasiaffine.Formula, []string, error) {
	if len(a.bound) == 0 {
		return a.cons, a.bound, nil
	}
	isBound := map[string]bool{}
	for _, v := range a.bound {
		isBound[v] = true
	}
	// union-find over the bound variables, joined by the constraints
	parent := map[string]string{}
	var find func(v string) string
	find = func(v string) string {
		p, ok := parent[v]
		if !ok || p == v {
			return v
		}
		r := find(p)
		parent[v] = r
		return r
	}
	boundIn := func(f quasiaffine.Formula) []string {
		var out []string
		for _, n := range quasiaffine.Names(f) {
			if isBound[n] {
				out = append(out, n)
			}
		}
		return out
	}
	names := make([][]string, len(a.cons))
	for i, f := range a.cons {
		names[i] = boundIn(f)
		for _, v := range names[i][min(1, len(names[i])):] {
			parent[find(v)] = find(names[i][0])
		}
	}
	roots := map[string]bool{}
	for _, v := range boundIn(isBuf(arg)) {
		roots[find(v)] = true
	}
	var keep, drop []quasiaffine.Formula
	var keepVars, dropVars []string
	for i, f := range a.cons {
		if len(names[i]) == 0 || roots[find(names[i][0])] {
			keep = append(keep, f)
		} else {
			drop = append(drop, f)
		}
	}
	if len(drop) == 0 {
		return a.cons, a.bound, nil
	}
	for _, v := range a.bound {
		if roots[find(v)] {
			keepVars = append(keepVars, v)
		} else {
			dropVars = append(dropVars, v)
		}
	}
	// the dropped loops run wherever the kept constraints and the context
	// hold
	runs := quasiaffine.Exists(dropVars, quasiaffine.And(drop...))
	cond := quasiaffine.And(append(append(clone(outer), keep...), quasiaffine.Not(runs))...)
	var params []string
	for _, n := range c.symbols(cond) {
		if !isBound[n] {
			params = append(params, n)
		}
	}
	set, err := c.setOf(ctx, append(clone(c.params), params...), quasiaffine.Exists(keepVars, cond))
	empty := false
	if err == nil {
		empty, err = set.IsEmpty(ctx)
	}
	if cerr := ctx.Err(); cerr != nil {
		return nil, nil, cerr
	}
	if err != nil || !empty {
		// undecided (the engine's budget) or not implied: every constraint
		// stays, as exact as the dropping would be
		return a.cons, a.bound, nil
	}
	return keep, keepVars, nil
}
