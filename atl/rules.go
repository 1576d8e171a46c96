package atl

import (
	"context"

	"github.com/augur-verify/augur/syntax"
)

// Rules checks the side conditions the lowering needs, each unless opts
// disables it, on the program that is lowered (the schedule when there
// is one):
//
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
	if !opts.NoPadCheck {
		pc := &padChecker{ctx: ctx, params: c.params, rep: rep}
		if err := pc.checkPads(root, padCtx{conds: c.assumes}); err != nil {
			return err
		}
	}
	walk(root, func(n *node) {
		switch {
		case n.kind == kWide && !opts.NoLaneCheck:
			for i, l := range n.lanes {
				for j, other := range n.lanes {
					if i != j && reads(n.kids[i], other.name) {
						rep.Errorf(l.pos, "lane %s reads lane %s, computed by the same fused loop: the lanes of a wide binding must not read each other's results (bodies_dont_alias); bind %s with let before the wide binding", l.name, other.name, other.name)
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
					rep.Errorf(s.pos, "%s reads %s[%s] while computing row %s: a GenRec may only read strictly earlier rows, %s - c with a constant c >= 1 (WellFoundedAccess), since the lowered loop computes the rows in increasing order", n.v, n.v, s.idx[0], g.v, g.v)
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
