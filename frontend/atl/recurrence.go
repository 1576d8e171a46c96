package atl

// sum defines the recurrence of the Sum n (a Sum node or a reduce lane)
// in context ec at idx, and returns the pieces of its value.
//
// Directly nested Sums share one lexicographic recurrence over all
// their indices, the last value of an inner range carried to the next
// outer step, so that every store of the loop nest is annotated with one
// element. The guards directly under the innermost Sum that bound its
// index (k <= i, k >= j + 1) narrow its range instead of leaving steps
// without stores, which the validator could only bridge by induction.
func (g *specGen) sum(n *node, ec *eqCtx, idx []*aff) ([]piece, error) {
	chain := []*node{n}
	body := n.kids[0]
	for body.kind == kSum {
		chain = append(chain, body)
		body = body.kids[0]
	}
	inner := ec
	lv := &sumLevels{outer: len(ec.vars), vars: append([]string(nil), ec.vars...)}
	for _, s := range chain {
		k := g.nm.pos(len(lv.vars))
		lv.vars = append(lv.vars, k)
		lv.ks = append(lv.ks, nameAff(k))
		inner = inner.with(s.v, nameAff(k))
	}
	inner.vars = lv.vars
	var guards []*cnd
	for body.kind == kGuard {
		guards = append(guards, body.cond.subst(inner.env))
		body = body.kids[0]
	}
	ps, err := g.den(body, inner, idx)
	if err != nil {
		return nil, err
	}
	lv.los, lv.his = make([]*aff, len(chain)), make([]*aff, len(chain))
	for j, s := range chain {
		lv.los[j], lv.his[j] = s.lo.subst(inner.env), s.hi.subst(inner.env)
	}
	rest := lv.boundInnermost(guards)
	m := len(chain) - 1
	ks := lv.ks
	var eqs []piece
	// Below the first step: 0.
	eqs = append(eqs, piece{conds: []*cnd{lv.below(0)}, val: "0"})
	// Below an inner range: the last value of the previous outer step.
	for j := 1; j <= m; j++ {
		back := map[string]*aff{lv.kname(j - 1): ks[j-1].addConst(-1)}
		for _, lc := range lv.lasts(j, back) {
			args := append(varAffs(ec.vars), ks[:j-1]...)
			args = append(append(args, ks[j-1].addConst(-1)), lc.args...)
			conds := append(append(lv.inRange(j-1), lv.below(j)), lc.conds...)
			if cs, ok := simplifyConds(conds); ok {
				eqs = append(eqs, piece{conds: cs, val: call("@", args)})
			}
		}
	}
	// A step.
	prevArgs := append(varAffs(ec.vars), ks...)
	prevArgs[len(prevArgs)-1] = ks[m].addConst(-1)
	prev := call("@", prevArgs)
	step := lv.inRange(m)
	ps = guardPieces(andC(step...), ps)
	if len(rest) > 0 {
		r := andC(rest...)
		ps = append(guardPieces(r, ps), guardPieces(andC(append(step, notC(r))...), []piece{{val: padValue}})...)
	}
	for _, p := range ps {
		if p.val == padValue {
			p.val = prev
		} else {
			p.val = prev + " + " + paren(p.val)
		}
		eqs = append(eqs, p)
	}
	name := g.emit(g.nm.fresh(g.c.Name+"_"+n.v), lv.vars, eqs, true)
	for _, s := range chain {
		g.sums[s] = &tref{name: name}
	}
	// The value: the last step of every level.
	var out []piece
	for _, lc := range lv.lasts(0, map[string]*aff{}) {
		out = append(out, piece{conds: lc.conds, val: call(name, append(varAffs(ec.vars), lc.args...))})
	}
	return out, nil
}

// sumLevels are the indices of a chain of directly nested Sums, outermost
// first: the index k_j of level j is ks[j], named vars[outer+j] (vars
// begins with the enclosing context's variables), over [los[j], his[j]),
// the innermost one (level m) over the lowers and uppers its guards add.
type sumLevels struct {
	outer          int
	vars           []string
	ks, los, his   []*aff
	lowers, uppers []*aff // k_m >= l, k_m < u
}

// kname is the name of the index of level j.
func (lv *sumLevels) kname(j int) string { return lv.vars[lv.outer+j] }

// boundInnermost takes the bounds that the guards put on the innermost
// index as its range (with its own bounds) and returns the conjuncts that
// remain.
func (lv *sumLevels) boundInnermost(guards []*cnd) []*cnd {
	m := len(lv.ks) - 1
	lv.lowers, lv.uppers = []*aff{lv.los[m]}, []*aff{lv.his[m]}
	var rest []*cnd
	for _, gc := range guards {
		for _, c := range gc.conjuncts() {
			l, u, ok := indexBound(c, lv.vars[len(lv.vars)-1])
			if !ok {
				rest = append(rest, c)
				continue
			}
			if l != nil {
				lv.lowers = append(lv.lowers, l)
			}
			if u != nil {
				lv.uppers = append(lv.uppers, u)
			}
		}
	}
	return rest
}

// inRange is the indices of levels 0..j in their ranges.
func (lv *sumLevels) inRange(j int) []*cnd {
	m := len(lv.ks) - 1
	var cs []*cnd
	for i := 0; i <= j; i++ {
		if i == m {
			for _, l := range lv.lowers {
				cs = append(cs, cmpC("<=", l, lv.ks[i]))
			}
			for _, u := range lv.uppers {
				cs = append(cs, cmpC("<", lv.ks[i], u))
			}
			continue
		}
		cs = append(cs, cmpC("<=", lv.los[i], lv.ks[i]), cmpC("<", lv.ks[i], lv.his[i]))
	}
	return cs
}

// below is the index of level j under its range.
func (lv *sumLevels) below(j int) *cnd {
	if j < len(lv.ks)-1 {
		return cmpC("<", lv.ks[j], lv.los[j])
	}
	var cs []*cnd
	for _, l := range lv.lowers {
		cs = append(cs, cmpC("<", lv.ks[j], l))
	}
	return orC(cs)
}

// lastCase is one case of the last indices of some levels: under conds,
// the indices args.
type lastCase struct {
	conds []*cnd
	args  []*aff
}

// lasts gives the last indices of levels from..m once the outer ones are
// fixed by back: one case per candidate upper bound of the innermost
// level.
func (lv *sumLevels) lasts(from int, back map[string]*aff) []lastCase {
	m := len(lv.ks) - 1
	back = copyEnv(back)
	var args []*aff
	for i := from; i < m; i++ {
		last := lv.his[i].subst(back).addConst(-1)
		args = append(args, last)
		back[lv.kname(i)] = last
	}
	var out []lastCase
	for i, u := range lv.uppers {
		u = u.subst(back)
		var conds []*cnd
		for j, w := range lv.uppers {
			w = w.subst(back)
			switch {
			case j < i:
				conds = append(conds, cmpC("<", u, w))
			case j > i:
				conds = append(conds, cmpC("<=", u, w))
			}
		}
		if cs, ok := simplifyConds(conds); ok {
			out = append(out, lastCase{cs, append(append([]*aff(nil), args...), u.addConst(-1))})
		}
	}
	return out
}

// copyEnv returns a copy of env.
func copyEnv(env map[string]*aff) map[string]*aff {
	out := make(map[string]*aff, len(env))
	for k, x := range env {
		out[k] = x
	}
	return out
}

// orC is the disjunction of cs.
func orC(cs []*cnd) *cnd {
	out := cs[0]
	for _, c := range cs[1:] {
		out = &cnd{op: "or", a: out, b: c}
	}
	return out
}

// indexBound reads a comparison as a bound on the variable k with a
// coefficient of 1 or -1 outside any division: k >= l (l set) or k < u
// (u set), both for an equality.
func indexBound(c *cnd, k string) (l, u *aff, ok bool) {
	if c.x == nil || c.op == "!=" {
		return nil, nil, false
	}
	d := c.x.sub(c.y) // d op 0
	var coef int64
	var rest []term
	for _, t := range d.t {
		if t.a.op == 0 && t.a.name == k {
			coef = t.k
			continue
		}
		if t.a.op != 0 && t.a.arg.mentionsName(k) {
			return nil, nil, false
		}
		rest = append(rest, t)
	}
	if coef != 1 && coef != -1 {
		return nil, nil, false
	}
	r := norm(d.c, rest) // coef*k + r op 0
	op := c.op
	if coef == -1 { // -k + r op 0  <=>  k - r flip(op) 0
		r = r.scale(-1)
		op = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}[op]
	}
	b := r.scale(-1) // k op b
	switch op {
	case "<":
		return nil, b, true
	case "<=":
		return nil, b.addConst(1), true
	case ">":
		return b.addConst(1), nil, true
	case ">=":
		return b, nil, true
	}
	return b, b.addConst(1), true
}
