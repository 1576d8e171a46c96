package symeval

import (
	"context"
	"fmt"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
)

// This file checks parallel loops (rule S-PARLOOP, Clément 2022,
// Fig. 5.4): read-write races (rw-safe), decided over Presburger sets, and
// write-write conflicts, whose agreement is left as value obligations.

// readSet returns the cells that statement st reads (right-hand sides'
// array reads), over the parameters of s and restricted to its facts:
// the union over the iterations of inner loops, without the cells of
// arrays allocated inside st, and only those of the arrays named in
// arrays (all of them when arrays is nil).
func readSet(ctx context.Context, s *Scope, st sched.Stmt, arrays map[string]bool) (*presburger.UnionMap, error) {
	empty := presburger.NewUnionMap()
	switch st := st.(type) {
	case *sched.Skip, *sched.Let:
		return empty, nil
	case *sched.Block:
		out := empty
		for _, c := range st.Stmts {
			if l, ok := c.(*sched.Let); ok {
				ns, err := s.letScope(ctx, l)
				if err != nil {
					return nil, err
				}
				s = ns
				continue
			}
			r, err := readSet(ctx, s, c, arrays)
			if err != nil {
				return nil, err
			}
			out = out.Union(r)
		}
		return out, nil
	case *sched.Assign:
		r, err := readsOf(ctx, s, st.Value, arrays)
		if err != nil {
			return nil, err
		}
		if f := s.Facts(); f != nil {
			return r.IntersectParams(f)
		}
		return r, nil
	case *sched.If:
		sThen, sElse, err := s.ifScopes(st)
		if err != nil {
			return nil, err
		}
		out, err := readSet(ctx, sThen, st.Then, arrays)
		if err != nil {
			return nil, err
		}
		if st.Else != nil {
			r, err := readSet(ctx, sElse, st.Else, arrays)
			if err != nil {
				return nil, err
			}
			out = out.Union(r)
		}
		return out, nil
	case *sched.Alloc:
		r, err := readSet(ctx, s, st.Body, arrays)
		if err != nil {
			return nil, err
		}
		var keep []*presburger.Map
		for _, m := range r.Maps() {
			if m.Space().Out.Name != st.Array.Name {
				keep = append(keep, m)
			}
		}
		return presburger.NewUnionMap(keep...), nil
	case *sched.Loop:
		inner, x, err := s.loopScope(st)
		if err != nil {
			return nil, err
		}
		r, err := readSet(ctx, inner, st.Body, arrays)
		if err != nil {
			return nil, err
		}
		return projectParam(r, x)
	}
	return nil, fmt.Errorf("%s: unknown statement %T", st.Pos(), st)
}

// projectParam existentially quantifies the parameter x in every
// component of u.
func projectParam(u *presburger.UnionMap, x string) (*presburger.UnionMap, error) {
	var out []*presburger.Map
	for _, m := range u.Maps() {
		if i := paramIndex(m.Space(), x); i >= 0 {
			var err error
			if m, err = m.ProjectOut(presburger.DimParam, i, 1); err != nil {
				return nil, err
			}
		}
		out = append(out, m)
	}
	return presburger.NewUnionMap(out...), nil
}

// renameUnionParam renames parameter x to z in every component of u.
func renameUnionParam(u *presburger.UnionMap, x, z string) (*presburger.UnionMap, error) {
	var out []*presburger.Map
	for _, m := range u.Maps() {
		r, err := renameParam(m, x, z)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return presburger.NewUnionMap(out...), nil
}

// readWriteRaces returns the cells on which the parallel loop l races:
// cells written by one iteration x and read by another iteration y, with
// x != y both in the loop's range (the negation of rw-safe), over the
// parameters of the loop's scope s. pr must be the prophecy of the kernel
// holding l.
func readWriteRaces(ctx context.Context, pr *Prophecy, s *Scope, l *sched.Loop) (_ *presburger.UnionMap, err error) {
	defer guard(&err, "read-write races")
	if !l.Par {
		return nil, fmt.Errorf("%s: not a parallel loop", l.Pos())
	}
	delta, x, ok := pr.IterationEffect(l)
	if !ok {
		return nil, fmt.Errorf("%s: no prophetic summary of the loop", l.Pos())
	}
	inner, ix, err := s.loopScope(l)
	if err != nil {
		return nil, err
	}
	if ix != x {
		return nil, fmt.Errorf("%s: loop variable %s named %s in the prophecy", l.Pos(), ix, x)
	}
	lo, hi := l.Bounds()
	bound, err := inner.Range(x, lo, hi)
	if err != nil {
		return nil, err
	}
	// Only the cells of the arrays the loop writes can race: the reads
	// of the others (the inputs) are not built.
	w := delta.u.Domain()
	arrays := map[string]bool{}
	for _, m := range w.Maps() {
		arrays[m.Space().Out.Name] = true
	}
	r, err := readSet(ctx, inner, l.Body, arrays)
	if err != nil {
		return nil, err
	}
	y, boundY, ne, err := otherIteration(inner, bound, x)
	if err != nil {
		return nil, err
	}
	ry, err := renameUnionParam(r, x, y)
	if err != nil {
		return nil, err
	}
	both, err := w.Intersect(ry)
	if err != nil {
		return nil, err
	}
	// x and y in range, x != y.
	for _, p := range []*presburger.Map{bound, boundY, ne} {
		if both, err = both.IntersectParams(p); err != nil {
			return nil, err
		}
	}
	if both, err = projectParam(both, x); err != nil {
		return nil, err
	}
	if both, err = projectParam(both, y); err != nil {
		return nil, err
	}
	return both.Simplify(ctx)
}

// otherIteration names a second iteration y of the loop over x whose range
// is bound (a parameter set of scope inner), fresh in inner, and returns
// y's range (bound with x renamed y) and the parameter set x != y.
func otherIteration(inner *Scope, bound *presburger.Map, x string) (y string, boundY, ne *presburger.Map, err error) {
	y = x + "'"
	for inner.isParam(y) {
		y += "'"
	}
	if boundY, err = renameParam(bound, x, y); err != nil {
		return "", nil, nil, err
	}
	one := presburger.NewInt(1)
	xv, yv := varLinear(presburger.ParamVar(x)), varLinear(presburger.ParamVar(y))
	ne, err = lowerDNF(presburger.ParamSpace(inner.withParam(y).Params()), dnf{
		conj{{e: xv.add(yv, one.Neg()).add(constLinear(-1), one)}},
		conj{{e: yv.add(xv, one.Neg()).add(constLinear(-1), one)}},
	}, nil)
	if err != nil {
		return "", nil, nil, err
	}
	return y, boundY, ne, nil
}

// writeConflicts returns the obligations of the write-write conflicts of
// the parallel loop l (conflicts-ok of S-PARLOOP): for every cell that two
// iterations x != y write, the content written by x must equal the
// content written by y. Pairs whose two contents are the same context
// with the same hole values are left out (they hold syntactically), so a
// loop whose conflicting writes all agree that way has no obligation.
// Impl is the content of iteration x, Spec that of iteration y.
func writeConflicts(ctx context.Context, pr *Prophecy, s *Scope, l *sched.Loop) (_ []obligation, err error) {
	defer guard(&err, "write-write conflicts")
	if !l.Par {
		return nil, fmt.Errorf("%s: not a parallel loop", l.Pos())
	}
	delta, x, ok := pr.IterationEffect(l)
	if !ok {
		return nil, fmt.Errorf("%s: no prophetic summary of the loop", l.Pos())
	}
	inner, _ := s.With(l.Var.Name)
	lo, hi := l.Bounds()
	bound, err := inner.Range(x, lo, hi)
	if err != nil {
		return nil, err
	}
	y, boundY, ne, err := otherIteration(inner, bound, x)
	if err != nil {
		return nil, err
	}
	var out []obligation
	for _, m1 := range delta.u.Maps() {
		for _, m0 := range delta.u.Maps() {
			if m1.Space().In.Name != m0.Space().In.Name {
				continue
			}
			m2, err := renameParam(m0, x, y)
			if err != nil {
				return nil, err
			}
			// E1[h1] -> E2[h2] where some cell holds E1[h1] at x and E2[h2] at y.
			pairs, err := m1.Reverse().ApplyRange(m2)
			if err != nil {
				return nil, err
			}
			for _, p := range []*presburger.Map{bound, boundY, ne} {
				if pairs, err = pairs.IntersectParams(p); err != nil {
					return nil, err
				}
			}
			c1 := pr.Contexts.Lookup(m1.Space().Out.Name)
			c2 := pr.Contexts.Lookup(m0.Space().Out.Name)
			if c1 == nil || c2 == nil {
				return nil, fmt.Errorf("%s: unknown context", l.Pos())
			}
			// Most pairs are settled before the assumptions and the
			// projection of x and y multiply and quantify them: two
			// iterations that never write one cell, and conflicting writes
			// of the same context with the same holes. The identity
			// involves neither x nor y, so subtracting it before the
			// projection gives the same set.
			if c1 == c2 {
				// Drop the pairs with equal hole values.
				id, err := presburger.Identity(pairs.Space())
				if err != nil {
					return nil, err
				}
				if pairs, err = pairs.Subtract(ctx, id); err != nil {
					return nil, err
				}
			}
			empty, err := pairs.IsEmpty(ctx)
			if err != nil {
				return nil, err
			}
			if empty {
				continue
			}
			if pairs, err = pairs.IntersectParams(pr.Assumptions); err != nil {
				return nil, err
			}
			if empty, err = pairs.IsEmpty(ctx); err != nil {
				return nil, err
			}
			if empty {
				continue
			}
			if i := paramIndex(pairs.Space(), x); i >= 0 {
				if pairs, err = pairs.ProjectOut(presburger.DimParam, i, 1); err != nil {
					return nil, err
				}
			}
			if i := paramIndex(pairs.Space(), y); i >= 0 {
				if pairs, err = pairs.ProjectOut(presburger.DimParam, i, 1); err != nil {
					return nil, err
				}
			}
			w, err := pairs.Wrap()
			if err != nil {
				return nil, err
			}
			pts, err := respace(w, holeSpace(nil, "", c1.Holes+c2.Holes))
			if err != nil {
				return nil, err
			}
			out = append(out, obligation{Impl: c1, Spec: c2, Points: pts})
		}
	}
	return out, nil
}
