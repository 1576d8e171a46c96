package atl

import (
	"context"

	"github.com/augur-verify/augur/syntax"
)

// Rules checks the side conditions the lowering needs, each unless opts
// disables it, on the program that is lowered (the schedule when there
// is one):
//
//   - no truncation drops more than its tensor holds, and every read is
//     in bounds, in the def and in the schedule (never disabled: ATL
//     reads 0 outside a tensor, see checkReads);
//   - the pad type system (pad.go): truncations drop padding only;
//   - the lanes of a wide binding do not read each other's results
//     (bodies_dont_alias, Prasanna 2026, section 2.4.1): the fused
//     loop would read them half computed;
//   - a GenRec reads only strictly earlier rows of its own table (its
//     WellFoundedAccess): the lowered loop runs upward and would read
//     cells not yet computed.
//
// Errors are a syntax.ErrorList positioned in the program.
func (c *Checked) Rules(ctx context.Context, opts Options) error {
	if ctx == nil {
		ctx = context.Background()
	}
	root := c.def
	if c.sched != nil {
		root = c.sched
	}
	rep := &syntax.Reporter{Src: c.src}
	pc := &padChecker{ctx: ctx, params: c.params, rep: rep}
	if !opts.NoPadCheck {
		if err := pc.checkPads(root, padCtx{conds: c.assumes}); err != nil {
			return err
		}
	}
	for _, r := range []*node{c.def, c.sched} {
		if r == nil {
			continue
		}
		if err := c.checkSizes(pc, r); err != nil {
			return err
		}
		if err := c.checkReads(pc, r); err != nil {
			return err
		}
	}
	walk(root, func(n *node) {
		switch {
		case n.kind == kWide && !opts.NoLaneCheck:
			for i, l := range n.lanes {
				for j, other := range n.lanes {
					if i != j && reads(n.kids[i], other.name) {
						rep.ErrorCodef(l.pos, syntax.CodeLaneAlias, "lane %s reads lane %s, computed by the same fused loop: the lanes of a wide binding must not read each other's results (bodies_dont_alias); bind %s with let before the wide binding", l.name, other.name, other.name)
					}
				}
			}
		case n.kind == kGenRec && !opts.NoLookbackCheck:
			g := n.kids[0]
			visitGets(g.kids[0], func(s *sx) {
				if s.name != n.v {
					return
				}
				d, ok := s.idx[0].sub(nameAff(g.v)).isConst()
				if !ok || d >= 0 {
					rep.ErrorCodef(s.pos, syntax.CodeLookback, "%s reads %s[%s] while computing row %s: a GenRec may only read strictly earlier rows, %s - c with a constant c >= 1 (WellFoundedAccess), since the lowered loop computes the rows in increasing order", n.v, n.v, s.idx[0], g.v, g.v)
				}
			})
		}
	})
	rep.Errs.Sort()
	return rep.Errs.Err()
}

// reads reports whether n reads the tensor name.
func reads(n *node, name string) bool {
	found := false
	visitGets(n, func(s *sx) { found = found || s.name == name })
	return found
}

// visitGets calls f on every tensor read in n.
func visitGets(n *node, f func(*sx)) {
	var vs func(s *sx)
	vs = func(s *sx) {
		if s == nil {
			return
		}
		if s.op == 'g' {
			f(s)
		}
		vs(s.x)
		vs(s.y)
	}
	walk(n, func(n *node) { vs(n.s) })
}

// checkReads proves every read of a tensor in bounds, for every value of
// the parameters and of the enclosing indices (under the enclosing
// guards). ATL reads 0 outside a tensor, where the lowered code reads
// outside its array and the specification would extend the tensor's
// formula: a program that may read out of bounds is rejected, so that
// its meaning and its specification always agree.
func (c *Checked) checkReads(pc *padChecker, root *node) error {
	shapes := map[string][]*aff{}
	for _, in := range c.inputs {
		shapes[in.name] = in.shape
	}
	var visit func(n *node, p padCtx) error
	visitS := func(s *sx, p padCtx) error {
		var err error
		var vs func(s *sx)
		vs = func(s *sx) {
			if s == nil || err != nil {
				return
			}
			if s.op == 'g' {
				sh := shapes[s.name]
				for d, x := range s.idx {
					if d >= len(sh) {
						break
					}
					ok, e := pc.implies(p, andC(cmpC("<=", constAff(0), x), cmpC("<", x, sh[d])))
					if e != nil {
						err = e
						return
					}
					if !ok {
						pc.rep.ErrorCodef(s.pos, syntax.CodeBounds, "%s[%s] may read outside %s, of shape %s: ATL reads 0 there, its lowering outside the array; guard the read", s.name, formatIdx(s.idx), s.name, formatShape(sh))
						return
					}
				}
			}
			vs(s.x)
			vs(s.y)
		}
		vs(s)
		return err
	}
	bindShape := func(name string, sh []*aff, f func() error) error {
		old, had := shapes[name]
		shapes[name] = sh
		err := f()
		if had {
			shapes[name] = old
		} else {
			delete(shapes, name)
		}
		return err
	}
	visit = func(n *node, p padCtx) error {
		switch n.kind {
		case kScalar:
			return visitS(n.s, p)
		case kGen, kSum:
			return visit(n.kids[0], p.bind(n.v, n.lo, n.hi))
		case kGuard:
			return visit(n.kids[0], p.and(n.cond))
		case kLet:
			if err := visit(n.kids[0], p); err != nil {
				return err
			}
			return bindShape(n.v, n.kids[0].shape, func() error { return visit(n.kids[1], p) })
		case kGenRec:
			return bindShape(n.v, n.kids[0].shape, func() error {
				if err := visit(n.kids[0], p); err != nil {
					return err
				}
				return visit(n.kids[1], p)
			})
		case kWide:
			var lanes func(i int) error
			lanes = func(i int) error {
				if i == len(n.lanes) {
					return visit(n.kids[i], p)
				}
				if err := visit(n.kids[i], p); err != nil {
					return err
				}
				return bindShape(n.lanes[i].name, n.kids[i].shape, func() error { return lanes(i + 1) })
			}
			return lanes(0)
		}
		for _, k := range n.kids {
			if err := visit(k, p); err != nil {
				return err
			}
		}
		return nil
	}
	return visit(root, padCtx{conds: c.assumes})
}

func formatIdx(idx []*aff) string {
	s := formatShape(idx)
	return s[1 : len(s)-1]
}

// checkSizes proves that no truncation drops more elements than its
// tensor holds, under the assumptions (ATL's trunc needs k <= n).
func (c *Checked) checkSizes(pc *padChecker, root *node) error {
	var err error
	walk(root, func(n *node) {
		if err != nil || n.kind != kTruncl && n.kind != kTruncr {
			return
		}
		d := n.shape[0]
		ok, e := pc.implies(padCtx{conds: c.assumes}, cmpC(">=", d, constAff(0)))
		if e != nil {
			err = e
			return
		}
		if !ok {
			pc.rep.ErrorCodef(n.pos, syntax.CodeBounds, "%s by %s may drop more than the %s elements there are: the assumptions must keep %s at least 0", n.kind, n.k, n.kids[0].shape[0], d)
		}
	})
	return err
}
