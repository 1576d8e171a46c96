package atl

import (
	"context"
	"fmt"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// The pad type system of Liu et al. 2024, section 6, decided
// symbolically: instead of inferring the amounts of padding (k, c) of
// a pad type (k, l, π1, r, π2, c) at one valuation, the checker proves
// that the elements a truncation drops are padding for every value of
// the parameters the assumptions allow and every value of the enclosing
// index variables. TRUNCLPAD (trunc_l a e: 0 <= a <= k) becomes "the
// first a elements of e are padding", TRUNCRPAD (0 <= a <= c) "the last
// a elements are". Like the paper's system it is syntax directed and
// conservative: padding comes from false guards, pad_l and pad_r, empty
// ranges and the last row of a split; a computed zero is never padding.
// Each implication is an emptiness test of a Presburger set.

// padCtx is what is known at a point of the program: the assumptions,
// the ranges of the enclosing binders and the enclosing guards.
type padCtx struct {
	conds []*cnd
	vars  []string
}

func (p padCtx) and(c *cnd) padCtx {
	return padCtx{conds: append(append([]*cnd(nil), p.conds...), c), vars: p.vars}
}

func (p padCtx) bind(v string, lo, hi *aff) padCtx {
	out := p.and(andC(cmpC("<=", lo, nameAff(v)), cmpC("<", nameAff(v), hi)))
	out.vars = append(append([]string(nil), p.vars...), v)
	return out
}

type padChecker struct {
	ctx    context.Context
	params []string
	rep    *syntax.Reporter
}

// implies decides whether pc entails goal, by the emptiness of
// { vars : pc and not goal }.
func (pc *padChecker) implies(p padCtx, goal *cnd) (bool, error) {
	vars := p.vars
	if len(vars) == 0 {
		vars = []string{"atl_unused"}
	}
	sb := &setBuilder{ctx: pc.ctx, params: pc.params, vars: vars}
	set, err := sb.cond(andC(append([]*cnd{notC(goal)}, p.conds...)...))
	if err != nil {
		return false, fmt.Errorf("pad check: %w", err)
	}
	return set.IsEmpty(pc.ctx)
}

// setBuilder builds the set of the points [vars] satisfying a condition,
// with the engine's builder of quasi-affine constraints
// (presburger.Builder); a name is the innermost variable of that name,
// else the parameter.
type setBuilder struct {
	ctx    context.Context
	params []string
	vars   []string
}

// space returns the set space [params | vars], its dimensions unnamed.
func (sb *setBuilder) space() presburger.Space {
	return presburger.SetSpace(sb.params, presburger.FlatTuple("", make([]string, len(sb.vars))...))
}

// name returns the variable or parameter called n.
func (sb *setBuilder) name(qb *presburger.Builder, n string) (presburger.QuasiAff, error) {
	for i := len(sb.vars) - 1; i >= 0; i-- {
		if sb.vars[i] == n {
			return qb.Dim(presburger.DimOut, i), nil
		}
	}
	for i := len(sb.params) - 1; i >= 0; i-- {
		if sb.params[i] == n {
			return qb.Dim(presburger.DimParam, i), nil
		}
	}
	return presburger.QuasiAff{}, fmt.Errorf("unknown identifier %q", n)
}

// cmps maps the comparisons of conditions to the engine's.
var cmps = map[string]presburger.Cmp{
	"<=": presburger.CmpLE, "<": presburger.CmpLT, ">=": presburger.CmpGE,
	">": presburger.CmpGT, "==": presburger.CmpEQ, "!=": presburger.CmpNE,
}

// cond returns the set of the points satisfying c: a comparison through
// one builder, the connectives by the engine's intersection, union and
// complement (within the budget of sb's context).
func (sb *setBuilder) cond(c *cnd) (*presburger.Map, error) {
	switch c.op {
	case "true":
		return presburger.Universe(sb.space()), nil
	case "false":
		return presburger.Empty(sb.space()), nil
	case "not":
		m, err := sb.cond(c.a)
		if err != nil {
			return nil, err
		}
		return m.Complement(sb.ctx)
	case "and", "or":
		var ms [2]*presburger.Map
		for i, k := range []*cnd{c.a, c.b} {
			m, err := sb.cond(k)
			if err != nil {
				return nil, err
			}
			ms[i] = m
		}
		if c.op == "and" {
			return ms[0].Intersect(ms[1])
		}
		return ms[0].Union(ms[1])
	}
	return sb.compare(c.x, c.op, c.y)
}

// compare returns the set of the points where x op y.
func (sb *setBuilder) compare(x *aff, op string, y *aff) (*presburger.Map, error) {
	cmp, ok := cmps[op]
	if !ok {
		return nil, fmt.Errorf("unknown comparison %s", op)
	}
	qb := presburger.NewBuilder(sb.space())
	name := func(n string) (presburger.QuasiAff, error) { return sb.name(qb, n) }
	var sides [2][]presburger.QuasiAff
	for i, a := range []*aff{x, y} {
		v, err := a.build(qb, name)
		if err != nil {
			return nil, err
		}
		sides[i] = []presburger.QuasiAff{v}
	}
	return qb.Chain(sides[:], []presburger.Cmp{cmp})
}

// isPad proves that the elements of n at idx are padding for every
// valuation p allows; idx are affs over p's variables, which p may
// constrain (a truncated range). It follows the translation to a SARE
// (spec.go): Gen binds its variable to the index, reshapes substitute,
// and Guard, Concat, Pad and Split split the cases.
func (pc *padChecker) isPad(n *node, p padCtx, idx []*aff) (bool, error) {
	switch n.kind {
	case kScalar:
		return pc.implies(p, &cnd{op: "false"}) // a computed value: only if unreachable
	case kGen:
		q := p.bind(n.v, n.lo, n.hi).and(cmpC("==", nameAff(n.v), idx[0].add(n.lo)))
		return pc.isPad(n.kids[0], q, idx[1:])
	case kSum:
		return pc.isPad(n.kids[0], p.bind(n.v, n.lo, n.hi), idx)
	case kGuard:
		return pc.isPad(n.kids[0], p.and(n.cond), idx)
	case kLet, kGenRec:
		return pc.isPad(n.kids[1], p, idx)
	case kWide:
		return pc.isPad(n.kids[len(n.lanes)], p, idx)
	case kConcat:
		n1 := n.kids[0].shape[0]
		ok, err := pc.isPad(n.kids[0], p.and(cmpC("<", idx[0], n1)), idx)
		if !ok || err != nil {
			return ok, err
		}
		return pc.isPad(n.kids[1], p.and(cmpC(">=", idx[0], n1)), append([]*aff{idx[0].sub(n1)}, idx[1:]...))
	case kFlatten:
		d2, _ := n.kids[0].shape[1].isConst()
		return pc.isPad(n.kids[0], p, append([]*aff{idx[0].div(d2), idx[0].mod(d2)}, idx[1:]...))
	case kSplit:
		k, _ := n.k.isConst()
		e := idx[0].scale(k).add(idx[1])
		return pc.isPad(n.kids[0], p.and(cmpC("<", e, n.kids[0].shape[0])), append([]*aff{e}, idx[2:]...))
	case kTranspose:
		return pc.isPad(n.kids[0], p, append([]*aff{idx[1], idx[0]}, idx[2:]...))
	case kTruncl:
		return pc.isPad(n.kids[0], p, append([]*aff{idx[0].add(n.k)}, idx[1:]...))
	case kTruncr:
		return pc.isPad(n.kids[0], p, idx)
	case kPadl:
		return pc.isPad(n.kids[0], p.and(cmpC(">=", idx[0], n.k)), append([]*aff{idx[0].sub(n.k)}, idx[1:]...))
	case kPadr:
		return pc.isPad(n.kids[0], p.and(cmpC("<", idx[0], n.kids[0].shape[0])), idx)
	}
	return false, nil
}

// checkPads applies TRUNCLPAD and TRUNCRPAD to every truncation of n.
func (pc *padChecker) checkPads(n *node, p padCtx) error {
	switch n.kind {
	case kTruncl, kTruncr:
		side, rule, where := "left", "TRUNCLPAD", "first"
		if n.kind == kTruncr {
			side, rule, where = "right", "TRUNCRPAD", "last"
		}
		ok, err := pc.implies(p, cmpC(">=", n.k, constAff(0)))
		if err != nil {
			return err
		}
		if ok {
			// The dropped elements: index t of the outer dimension in
			// [0, k) (left) or [rows - k, rows) (right), any inner index.
			sh := n.kids[0].shape
			q := p
			var idx []*aff
			for d := range sh {
				v := fmt.Sprintf("atl_q%d_%d", len(p.vars), d)
				q = q.bind(v, constAff(0), sh[d])
				idx = append(idx, nameAff(v))
			}
			lo, hi := constAff(0), n.k
			if n.kind == kTruncr {
				lo, hi = sh[0].sub(n.k), sh[0]
			}
			q = q.and(andC(cmpC("<=", lo, idx[0]), cmpC("<", idx[0], hi)))
			ok, err = pc.isPad(n.kids[0], q, idx)
			if err != nil {
				return err
			}
		}
		if !ok {
			pc.rep.ErrorCodef(n.pos, syntax.CodePadding, "%s by %s may drop computed elements: the %s %s elements of a tensor of %s are not provably padding (%s: a truncation drops padding only, here on the %s, for every value of the parameters the assumptions allow)",
				n.kind, n.k, where, n.k, formatShape(n.kids[0].shape), rule, side)
		}
	case kGen, kSum:
		return pc.checkPads(n.kids[0], p.bind(n.v, n.lo, n.hi))
	case kGuard:
		return pc.checkPads(n.kids[0], p.and(n.cond))
	case kWide:
		for i, k := range n.kids {
			q := p
			if i < len(n.lanes) {
				q = p.bind(n.v, n.lo, n.hi)
				k = k.kids[0]
			}
			if err := pc.checkPads(k, q); err != nil {
				return err
			}
		}
		return nil
	case kGenRec:
		g := n.kids[0]
		if err := pc.checkPads(g.kids[0], p.bind(g.v, g.lo, g.hi)); err != nil {
			return err
		}
		return pc.checkPads(n.kids[1], p)
	}
	for _, k := range n.kids {
		if err := pc.checkPads(k, p); err != nil {
			return err
		}
	}
	return nil
}
