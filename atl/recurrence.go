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
	var ks []*aff
	vars := append([]string(nil), ec.vars...)
	for _, s := range chain {
		k := g.nm.pos(len(vars))
		vars = append(vars, k)
		ks = append(ks, nameAff(k))
		inner = inner.with(s.v, nameAff(k))
	}
	inner.vars = vars
	var guards []*cnd
	for body.kind == kGuard {
		guards = append(guards, body.cond.subst(inner.env))
		body = body.kids[0]
	}
	ps, err := g.den(body, inner, idx)
	if err != nil {
		return nil, err
	}
	los, his := make([]*aff, len(chain)), make([]*aff, len(chain))
	for j, s := range chain {
		los[j], his[j] = s.lo.subst(inner.env), s.hi.subst(inner.env)
	}
	m := len(chain) - 1
	// Bounds the guards put on the innermost index, and what remains.
	lowers, uppers := []*aff{los[m]}, []*aff{his[m]} // k >= l, k < u
	var rest []*cnd
	for _, gc := range guards {
		for _, c := range gc.conjuncts() {
			l, u, ok := indexBound(c, vars[len(vars)-1])
			if !ok {
				rest = append(rest, c)
				continue
			}
			if l != nil {
				lowers = append(lowers, l)
			}
			if u != nil {
				uppers = append(uppers, u)
			}
		}
	}
	kname := func(j int) string { return vars[len(ec.vars)+j] }
	// inRange: the indices of levels 0..j in their ranges.
	inRange := func(j int) []*cnd {
		var cs []*cnd
		for i := 0; i <= j; i++ {
			if i == m {
				for _, l := range lowers {
					cs = append(cs, cmpC("<=", l, ks[i]))
				}
				for _, u := range uppers {
					cs = append(cs, cmpC("<", ks[i], u))
				}
				continue
			}
			cs = append(cs, cmpC("<=", los[i], ks[i]), cmpC("<", ks[i], his[i]))
		}
		return cs
	}
	below := func(j int) *cnd { // k_j under its range
		if j < m {
			return cmpC("<", ks[j], los[j])
		}
		var cs []*cnd
		for _, l := range lowers {
			cs = append(cs, cmpC("<", ks[j], l))
		}
		return orC(cs)
	}
	// lasts gives the last indices of levels from..m once the outer
	// ones are fixed by back: one case per candidate upper bound of the
	// innermost level.
	type lastCase struct {
		conds []*cnd
		args  []*aff
	}
	lasts := func(from int, back map[string]*aff) []lastCase {
		back = copyEnv(back)
		var args []*aff
		for i := from; i < m; i++ {
			last := his[i].subst(back).addConst(-1)
			args = append(args, last)
			back[kname(i)] = last
		}
		var out []lastCase
		for i, u := range uppers {
			u = u.subst(back)
			var conds []*cnd
			for j, w := range uppers {
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
	var eqs []piece
	// Below the first step: 0.
	eqs = append(eqs, piece{conds: []*cnd{below(0)}, val: "0"})
	// Below an inner range: the last value of the previous outer step.
	for j := 1; j <= m; j++ {
		back := map[string]*aff{kname(j - 1): ks[j-1].addConst(-1)}
		for _, lc := range lasts(j, back) {
			args := append(varAffs(ec.vars), ks[:j-1]...)
			args = append(append(args, ks[j-1].addConst(-1)), lc.args...)
			conds := append(append(inRange(j-1), below(j)), lc.conds...)
			if cs, ok := simplifyConds(conds); ok {
				eqs = append(eqs, piece{conds: cs, val: call("@", args)})
			}
		}
	}
	// A step.
	prevArgs := append(varAffs(ec.vars), ks...)
	prevArgs[len(prevArgs)-1] = ks[m].addConst(-1)
	prev := call("@", prevArgs)
	step := inRange(m)
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
	name := g.emit(g.nm.fresh(g.c.Name+"_"+n.v), vars, eqs, true)
	for _, s := range chain {
		g.sums[s] = &tref{name: name}
	}
	// The value: the last step of every level.
	var out []piece
	for _, lc := range lasts(0, map[string]*aff{}) {
		out = append(out, piece{conds: lc.conds, val: call(name, append(varAffs(ec.vars), lc.args...))})
	}
	return out, nil
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
