package compiler

import (
	"context"
	"fmt"

	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/internal/quasiaffine"
	"github.com/augur-verify/augur/syntax"
)

// rng is a loop range: [min, min + ext).
type rng struct {
	min, ext syntax.Expr
	end      syntax.Expr // min + ext when known in a simpler form, else nil
}

// funcNest returns the loop nests of every stage of f over the region r
// (inclusive bounds per pure dimension, in internal names), in stage
// order.
func (c *compiler) funcNest(ctx context.Context, f *alg.Func, r *box, at site) ([]node, error) {
	fs := c.fs[f.Name.Name]
	var out []node
	for s := range fs.stages {
		n, err := c.stageNest(ctx, f, s, r, at)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	if c.inject == InjectUpdateBeforePure && !c.injected && len(out) > 1 {
		out[0], out[1] = out[1], out[0]
		c.injected = true
	}
	return out, nil
}

// stageNest returns the loop nest of stage s of f, computed at the site
// at, with its specializations as branches of ifs on their conditions.
func (c *compiler) stageNest(ctx context.Context, f *alg.Func, s int, r *box, at site) (node, error) {
	st := c.fs[f.Name.Name].stages[s]
	// the generic nest runs where no specialization's condition holds
	var others []quasiaffine.Formula
	for _, sp := range st.specs {
		f, err := c.affine(sp.cond)
		if err != nil {
			return nil, err
		}
		others = append(others, quasiaffine.Not(quasiaffine.Constraint(f)))
	}
	base, err := c.loopNest(ctx, f, s, st.loops, r, at, others)
	if err != nil {
		return nil, err
	}
	var out node = base
	for i := len(st.specs) - 1; i >= 0; i-- {
		sp := st.specs[i]
		// the i-th specialization runs where its condition holds and no
		// earlier one's does
		spc, err := c.affine(sp.cond)
		if err != nil {
			return nil, err
		}
		conds := []quasiaffine.Formula{quasiaffine.Constraint(spc)}
		conds = append(conds, others[:i]...)
		n, err := c.loopNest(ctx, f, s, sp.loops, r, at, conds)
		if err != nil {
			return nil, err
		}
		out = &nIf{cond: sp.cond, then: &nBlock{stmts: []node{n}}, els: &nBlock{stmts: []node{out}}}
	}
	return out, nil
}

// loopNest builds the loops of one stage following its splits and fuses
// (Reinking 2022, section 2.8.2): the loops of ls.dims outermost first, each
// variable that the splits define bound by a let as soon as the loops it
// depends on are open, a guard after each split variable whose tail
// strategy is guard, and the store innermost. An unrolled or vectorised
// loop whose extent is not a constant runs over a constant upper bound of
// it, each iteration guarded by the true extent (boundedExtent); conds are
// the conditions on the parameters under which the nest runs (its
// specialization's).
func (c *compiler) loopNest(ctx context.Context, f *alg.Func, s int, ls *loopSched, r *box, at site, conds []quasiaffine.Formula) (*nBlock, error) {
	name := f.Name.Name
	nm, rngs, pure, rnames, u := c.stageLoops(f, s, r)
	defs, nested, err := c.splitDefs(name, ls, nm, rngs)
	if err != nil {
		return nil, err
	}
	// The store (or the if on the update's predicate) innermost.
	store := c.stageStore(f, s, u, nm, pure, rnames)
	var vecLane syntax.Expr
	body := &nBlock{}
	root := body
	cur := body
	bound := map[string]bool{}
	for _, p := range c.params {
		bound[p] = true
	}
	done := make([]bool, len(defs))
	emitDefs := func() {
		for progress := true; progress; {
			progress = false
			for i, d := range defs {
				if done[i] || !ownBound(d.e, nm, bound) {
					continue
				}
				done[i] = true
				progress = true
				cur.stmts = append(cur.stmts, &nLet{v: nm[d.v], e: d.e})
				bound[nm[d.v]] = true
				if d.guard != nil {
					inner := &nBlock{}
					cur.stmts = append(cur.stmts, &nIf{cond: d.guard, then: inner, dropped: d.drop})
					cur = inner
				}
			}
		}
	}
	emitDefs()
	for i := len(ls.dims) - 1; i >= 0; i-- {
		dm := ls.dims[i]
		if fp, ok := nested[dm.name]; ok {
			if dm.kind == unrolled || dm.kind == vectorized {
				what := map[loopKind]string{unrolled: "unroll", vectorized: "vectorize"}[dm.kind]
				return nil, c.errAt(c.dirPos(f, s, what), syntax.CodeUnsupported, "%s of the fused loop %s in %s: the extent of its inner loop is not constant, so it is two nested loops (fuse after splitting)", what, dm.name, stageLabel(f, s))
			}
			// the outer loop's level has a name no schedule can write
			for _, part := range [][2]string{{fp.outer, dm.name + " (outer)"}, {fp.inner, dm.name}} {
				rg := rngs[part[0]]
				lp := &nLoop{v: nm[part[0]], lo: rg.min, hi: rg.hi(), kind: dm.kind, fn: name, stage: s, dim: part[1], body: &nBlock{}}
				cur.stmts = append(cur.stmts, lp)
				cur = lp.body
				bound[lp.v] = true
				emitDefs()
			}
			continue
		}
		v := nm[dm.name]
		rg := rngs[dm.name]
		kind := dm.kind
		hi := rg.hi()
		var guard syntax.Expr
		var count int64
		if kind == unrolled || kind == vectorized {
			if l, ok := linearize(rg.ext); !ok || !allZero(l) {
				k, err := c.boundedExtent(ctx, f, s, dm.name, kind, rg.ext, at, conds)
				if err != nil {
					return nil, err
				}
				hi, count = simplifyAdd(rg.min, k), k
				guard = bin(ident(v), syntax.OpLt, rg.hi())
			}
		}
		lp := &nLoop{v: v, lo: rg.min, hi: hi, kind: kind, fn: name, stage: s, dim: dm.name, body: &nBlock{}, count: count}
		if kind == vectorized && vecLane == nil {
			vecLane = bin(ident(v), syntax.OpEq, norm(bin(lp.hi, syntax.OpSub, intLit(1))))
		}
		cur.stmts = append(cur.stmts, lp)
		cur = lp.body
		bound[v] = true
		if guard != nil {
			inner := &nBlock{}
			cur.stmts = append(cur.stmts, &nIf{cond: guard, then: inner})
			cur = inner
		}
		emitDefs()
	}
	for i, d := range done {
		if !d {
			return nil, fmt.Errorf("compiler: %s: variable %s is never bound", name, defs[i].v)
		}
	}
	if c.inject == InjectVectorLane && !c.injected && vecLane != nil && f.Type.IsNumeric() {
		c.injected = true
		wrong := c.stageStore(f, s, u, nm, pure, rnames)
		perturb(wrong)
		cur.stmts = append(cur.stmts, &nIf{cond: vecLane, then: &nBlock{stmts: []node{wrong}}, els: &nBlock{stmts: []node{store}}})
	} else {
		cur.stmts = append(cur.stmts, store)
	}
	return root, nil
}

// stageLoops names the loops of stage s of f (0 the pure definition, u
// the u-th update) before any split: nm maps the schedule's names to
// fresh internal ones, rngs gives their ranges (the pure variables over
// the region r), pure and rnames are the internal names of the pure
// variables and of the RDom variables (outermost first), u the update.
func (c *compiler) stageLoops(f *alg.Func, s int, r *box) (nm map[string]string, rngs map[string]rng, pure, rnames []string, u *alg.Update) {
	nm = map[string]string{}
	rngs = map[string]rng{}
	for d, v := range f.Vars {
		iv := c.newVar(v.Name)
		nm[v.Name] = iv
		pure = append(pure, iv)
		end := simplifyAdd(r.Hi[d], 1)
		if k, ok := litInt(r.Extent[d]); ok {
			end = norm(bin(r.Lo[d], syntax.OpAdd, intLit(k)))
		}
		rngs[v.Name] = rng{r.Lo[d], r.Extent[d], end}
	}
	if s > 0 {
		u = f.Updates[s-1]
		if u.RDom != nil {
			for i := len(u.RDom.Vars) - 1; i >= 0; i-- {
				v := u.RDom.Vars[i]
				full := u.RDom.Name.Name + "." + v.Name.Name
				iv := c.newVar(rvar(full))
				nm[full] = iv
				rnames = append(rnames, iv)
				rngs[full] = rng{v.Lo, sub(v.Hi, v.Lo), v.Hi}
			}
		}
	}
	return nm, rngs, pure, rnames, u
}

// splitDef defines a loop that a split or fuse replaced as an expression
// e of the loops that replaced it, under guard (a split's tail) when not
// nil; drop marks a guard the injected miscompilation removes.
type splitDef struct {
	v     string
	e     syntax.Expr
	guard syntax.Expr
	drop  bool
}

// fusedPair is a loop fused from two whose inner extent is not constant:
// in the kernel, the two loops nested, outer first, as they were.
type fusedPair struct{ outer, inner string }

// splitDefs follows the splits and fuses of ls in order (in the func
// name): it names the new loops in nm, gives their ranges in rngs and
// returns the definitions of the loops they replace, with the guards of
// the tails as the tail strategy asks (none when the factor divides the
// extent), and the fused loops that stay two nested loops (a fuse whose
// inner loop's extent is not constant), which no later split or fuse
// may take.
func (c *compiler) splitDefs(name string, ls *loopSched, nm map[string]string, rngs map[string]rng) ([]splitDef, map[string]fusedPair, error) {
	var defs []splitDef
	nested := map[string]fusedPair{}
	id := func(n string) syntax.Expr { return ident(nm[n]) }
	for _, sp := range ls.splits {
		for _, n := range []string{sp.old, sp.inner, sp.outer} {
			if _, ok := nested[n]; ok && (!sp.fuse || n != sp.old) {
				return nil, nil, c.errAt(sp.pos, syntax.CodeUnsupported, "%s of the fused loop %s in %s: the extent of its inner loop is not constant, so it is two nested loops (fuse after splitting)",
					map[bool]string{true: "fuse", false: "split"}[sp.fuse], n, name)
			}
		}
		if sp.fuse {
			ri, ro := rngs[sp.inner], rngs[sp.outer]
			l, ok := linearize(ri.ext)
			if !ok || !allZero(l) || l.c < 1 {
				// the inner extent is not constant: the fused loop is
				// the two loops nested, as the Halide front end splits
				// Halide's fused loops back (their indices would
				// divide by a non-constant)
				nm[sp.old] = c.newVar(sp.old)
				nested[sp.old] = fusedPair{outer: sp.outer, inner: sp.inner}
				continue
			}
			nm[sp.old] = c.newVar(sp.old)
			rngs[sp.old] = rng{intLit(0), norm(bin(intLit(l.c), syntax.OpMul, ro.ext)), nil}
			defs = append(defs,
				splitDef{v: sp.inner, e: norm(bin(ri.min, syntax.OpAdd, bin(id(sp.old), syntax.OpRem, intLit(l.c))))},
				splitDef{v: sp.outer, e: norm(bin(ro.min, syntax.OpAdd, bin(id(sp.old), syntax.OpDiv, intLit(l.c))))})
			continue
		}
		ro := rngs[sp.old]
		nm[sp.outer] = c.newVar(sp.outer)
		nm[sp.inner] = c.newVar(sp.inner)
		F := sp.factor
		rngs[sp.inner] = rng{intLit(0), intLit(F), nil}
		next := norm(ceilDiv(ro.ext, F))
		if l, ok := linearize(ro.ext); ok && allZero(l) {
			next = intLit((l.c + F - 1) / F)
		}
		rngs[sp.outer] = rng{intLit(0), next, nil}
		base := bin(id(sp.outer), syntax.OpMul, intLit(F))
		divisible := false
		if l, ok := linearize(ro.ext); ok && allZero(l) && l.c%F == 0 {
			divisible = true
		}
		tail := sp.tail
		if divisible {
			tail = tailRound // no tail: the plain form
		}
		var e syntax.Expr
		switch tail {
		case tailShift:
			e = add(ro.min, bin(call("min", base, norm(bin(ro.ext, syntax.OpSub, intLit(F)))), syntax.OpAdd, id(sp.inner)))
		default:
			e = add(ro.min, bin(base, syntax.OpAdd, id(sp.inner)))
		}
		d := splitDef{v: sp.old, e: norm(e)}
		if tail == tailGuard {
			d.guard = bin(id(sp.old), syntax.OpLt, ro.hi())
			if c.inject == InjectTailUnguarded && !c.injected {
				d.drop = true
				c.injected = true
			}
		}
		defs = append(defs, d)
	}
	return defs, nested, nil
}

// perturb adds 1 to the values a store writes.
func perturb(n node) {
	switch n := n.(type) {
	case *nStore:
		n.value = bin(n.value, syntax.OpAdd, intLit(1))
	case *nIf:
		for _, s := range n.then.stmts {
			perturb(s)
		}
		if n.els != nil {
			for _, s := range n.els.stmts {
				perturb(s)
			}
		}
	}
}

// dirPos finds the position of the directive that made a loop of a
// stage, for errors found while building it.
func (c *compiler) dirPos(f *alg.Func, s int, name string) syntax.Pos {
	for _, d := range c.dirs {
		if d.Func.Name == f.Name.Name && d.Update == s-1 && d.Name == name {
			return d.Pos
		}
	}
	return f.Pos
}

// freeIn reports whether every identifier of x is bound.
func freeIn(x syntax.Expr, bound map[string]bool) bool {
	ok := true
	syntax.Inspect(x, func(e syntax.Expr) bool {
		if id, isID := e.(*syntax.Ident); isID && !bound[id.Name] {
			ok = false
		}
		return true
	})
	return ok
}

// stageStore is the innermost statement of a stage: the store of the pure
// definition, or of the update (under an if on its predicate).
func (c *compiler) stageStore(f *alg.Func, s int, u *alg.Update, nm map[string]string, pure, rnames []string) node {
	name := f.Name.Name
	ren := map[string]syntax.Expr{}
	for k, v := range nm {
		ren[k] = ident(v)
	}
	here := call(name, idents(pure)...)
	st := c.stages[name]
	if c.red[name] != nil {
		return c.reductionStore(f, s, u, ren, pure)
	}
	if s == 0 {
		return &nStore{fn: name, stage: 0, args: idents(pure), ann: call(st[0], idents(pure)...), value: renameVars(c.values[f.Name.Name][0], ren)}
	}
	ann := call(st[s], append(idents(pure), idents(rnames)...)...)
	val := c.updateValue(u, renameVars(c.values[name][s], ren), here)
	st1 := &nStore{fn: name, stage: s, args: idents(pure), ann: ann, value: val}
	if u.Where == nil {
		return st1
	}
	keep := &nStore{fn: name, stage: s, args: idents(pure), ann: ann, value: call(name, idents(pure)...)}
	return &nIf{cond: renameVars(u.Where, ren), then: &nBlock{stmts: []node{st1}}, els: &nBlock{stmts: []node{keep}}}
}

// inlineValues computes the right-hand side of every stage with the funcs
// scheduled compute_inline substituted (Reinking 2022, section 2.8: their
// definitions are expressions of their pure variables).
func (c *compiler) inlineValues() {
	c.values = map[string][]syntax.Expr{}
	var subst func(x syntax.Expr) syntax.Expr
	subst = func(x syntax.Expr) syntax.Expr {
		return rewrite(x, func(e syntax.Expr) syntax.Expr {
			cl, ok := e.(*syntax.Call)
			if !ok {
				return nil
			}
			g := c.p.Func(cl.Fun.Name)
			if g == nil || !c.fs[g.Name.Name].inline {
				return nil
			}
			m := map[string]syntax.Expr{}
			for i, v := range g.Vars {
				m[v.Name] = cl.Args[i]
			}
			return subst(renameVars(g.Value, m))
		})
	}
	for _, f := range c.p.Funcs() {
		vals := []syntax.Expr{subst(f.Value)}
		for _, u := range f.Updates {
			vals = append(vals, subst(u.Value))
		}
		c.values[f.Name.Name] = vals
	}
}

// displayName is the name a variable is shown with.
func (c *compiler) displayName(v string) string {
	if d, ok := c.display[v]; ok {
		return d
	}
	return v
}

// hi is the range's exclusive upper bound.
func (r rng) hi() syntax.Expr {
	if r.end != nil {
		return r.end
	}
	return add(r.min, r.ext)
}

// ownBound reports whether every variable of the nest (nm's values) that x
// uses is bound; other names are bound outside the nest.
func ownBound(x syntax.Expr, nm map[string]string, bound map[string]bool) bool {
	own := map[string]bool{}
	for _, v := range nm {
		own[v] = true
	}
	ok := true
	syntax.Inspect(x, func(e syntax.Expr) bool {
		if id, isID := e.(*syntax.Ident); isID && own[id.Name] && !bound[id.Name] {
			ok = false
		}
		return true
	})
	return ok
}
