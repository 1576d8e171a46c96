package symeval

import (
	"fmt"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// This file generates the conditions of the reads at data-dependent
// indices (dataread.go; Clément 2022, section 9.6.1). Such a read t[J]
// must touch a cell within t's bounds ("out-of-bounds read") that the heap
// holds ("undefined read"). Each is first tried over Presburger sets with
// the range of J's values (valueRange: the clamps that Halide puts around
// such indices), and otherwise stated as a value obligation for Z3 over
// the value of J:
//
//   - bounds: the boolean value 0 <= J < extent (for every dimension,
//     computed in i64, where every index type's values and every extent
//     fit) must equal true;
//   - definedness: when the heap holds every cell of t, it follows from
//     the bounds; when it holds none, the read is undefined wherever it
//     is in bounds, and the obligation is that it is not; between the
//     two the condition is undecided.
//
// In a par loop a read at a data-dependent index may read any cell of its
// array: the race condition of an array that the loop also writes is
// undecided.

// dataReadConditions adds the conditions of the reads of st's value at
// data-dependent indices, in source order: each read's bounds, then its
// definedness. at is the site of the bounds checks, good that of the
// others (they differ with garbage writes).
func (g *gen) dataReadConditions(base Condition, st *sched.Assign, at, good site) error {
	for _, x := range dataReadsOf(st.Value) {
		c := base
		c.Kind = sched.OutOfBoundsRead
		if err := g.dataReadBounds(c, st, x, at); err != nil {
			return err
		}
		c.Kind = sched.UndefinedRead
		if err := g.dataReadDefined(c, st, x, good); err != nil {
			return err
		}
	}
	return nil
}

// dataFlags returns which indices of x are data-dependent.
func dataFlags(x *syntax.Index) []bool {
	data := make([]bool, len(x.Indices))
	for d, i := range x.Indices {
		data[d] = dataIndex(i)
	}
	return data
}

// undecidedData records c as undecided for the reason of err when err is
// an unsupported read or a budget exhausted, and reports whether it did;
// any other error is returned.
func (g *gen) undecidedData(c Condition, err error) (bool, error) {
	switch {
	case err == nil:
		return false, nil
	case isUnsupported(err):
		c.Status, c.Reason = Undecided, err.Error()
	case undecidable(err):
		c.Status, c.Reason = Undecided, "presburger budget exceeded: "+err.Error()
	default:
		return false, err
	}
	g.add(&c)
	return true, nil
}

// emptyUnder reports whether u has no point where the scope's facts and
// the kernel's assumptions hold.
func (g *gen) emptyUnder(u *presburger.UnionMap, s *Scope) (bool, error) {
	var err error
	if f := s.Facts(); f != nil {
		if u, err = u.IntersectParams(f); err != nil {
			return false, err
		}
	}
	if u, err = u.IntersectParams(g.a.Assumptions); err != nil {
		return false, err
	}
	return u.IsEmpty(g.ctx)
}

// dataReadBounds adds the bounds condition of the read x of st.
func (g *gen) dataReadBounds(c Condition, st *sched.Assign, x *syntax.Index, at site) error {
	decl, ok := at.arrays[x.Array.Name]
	if !ok {
		return fmt.Errorf("%s: read of unknown array %s", x.Pos(), x.Array.Name)
	}
	data := dataFlags(x)
	bounds, err := arrayBounds(at.scope, x.Array.Name, decl)
	if err != nil {
		if done, err := g.undecidedData(c, err); done || err != nil {
			return err
		}
	}
	rng, err := rangeLocation(at.scope, x, data, g.kinfo.Types.Types)
	if err == nil {
		var out *presburger.Map
		if out, err = rng.Subtract(g.ctx, bounds); err == nil {
			var empty bool
			if empty, err = g.emptyUnder(presburger.NewUnionMap(out), at.scope); err == nil && empty {
				c.Status, c.Reason = Proved, "the index's range lies within the array's bounds"
				g.add(&c)
				return nil
			}
		}
	}
	if err != nil && !isUnsupported(err) {
		if done, err := g.undecidedData(c, err); done || err != nil {
			return err
		}
	}
	vc, types := inBounds(x, decl.extents, g.kinfo.Types.Types)
	return g.dataObligation(c, st, vc, types, at)
}

// dataReadDefined adds the definedness condition of the read x of st.
func (g *gen) dataReadDefined(c Condition, st *sched.Assign, x *syntax.Index, good site) error {
	decl, ok := good.arrays[x.Array.Name]
	if !ok {
		return fmt.Errorf("%s: read of unknown array %s", x.Pos(), x.Array.Name)
	}
	data := dataFlags(x)
	bounds, err := arrayBounds(good.scope, x.Array.Name, decl)
	var box *presburger.Map
	if err == nil {
		var loc *presburger.Map
		if loc, err = affineLocation(good.scope, x, data); err == nil {
			box, err = loc.Intersect(bounds)
		}
	}
	if done, err := g.undecidedData(c, err); done || err != nil {
		return err
	}
	// Every cell the index's range reaches within the bounds, or every
	// cell within the bounds, held: defined wherever in bounds.
	if rng, err := rangeLocation(good.scope, x, data, g.kinfo.Types.Types); err == nil {
		if r, err := rng.Intersect(box); err == nil {
			if all, err := allDefined(g.ctx, presburger.NewUnionMap(r), good); err == nil && all {
				c.Status, c.Reason = Proved, "the heap holds every cell of the index's range"
				g.add(&c)
				return nil
			}
		}
	}
	boxes := presburger.NewUnionMap(box)
	all, err := allDefined(g.ctx, boxes, good)
	if done, err := g.undecidedData(c, err); done || err != nil {
		return err
	}
	if all {
		c.Status, c.Reason = Proved, "the heap holds every cell of the array"
		g.add(&c)
		return nil
	}
	// None held: the read must never be in bounds.
	und, err := undefinedIn(g.ctx, boxes, good)
	var held *presburger.UnionMap
	if err == nil {
		held, err = boxes.Subtract(g.ctx, und)
	}
	var none bool
	if err == nil {
		none, err = g.emptyUnder(held, good.scope)
	}
	if done, err := g.undecidedData(c, err); done || err != nil {
		return err
	}
	if !none {
		c.Status, c.Reason = Undecided, fmt.Sprintf("the cells of %s that hold a value at this read are some of its cells, not all of them: the definedness of a read at a data-dependent index is decided only for a whole array", x.Array.Name)
		g.add(&c)
		return nil
	}
	vc, types := inBounds(x, decl.extents, g.kinfo.Types.Types)
	not := &syntax.Unary{Op: syntax.OpNot, X: vc}
	types[not] = syntax.Bool
	c.Detail = fmt.Sprintf("no cell of %s holds a value here", x.Array.Name)
	return g.dataObligation(c, st, not, types, good)
}

// inBounds returns the boolean expression that the indices of x lie
// within the extents, 0 <= i64(I) and i64(I) < i64(E) for every index I
// and extent E, and the types of its value nodes (those of the indices'
// value nodes, from types, included). The indices keep their nodes:
// the symbolic evaluation reads the same arrays at the same places.
func inBounds(x *syntax.Index, extents []syntax.Expr, types map[syntax.Expr]syntax.Type) (syntax.Expr, map[syntax.Expr]syntax.Type) {
	out := map[syntax.Expr]syntax.Type{}
	for _, i := range x.Indices {
		syntax.Inspect(i, func(e syntax.Expr) bool {
			if t, ok := types[e]; ok {
				out[e] = t
			}
			return true
		})
	}
	i64 := func(e syntax.Expr) syntax.Expr {
		c := &syntax.Call{Fun: &syntax.Ident{NamePos: e.Pos(), Name: syntax.I64.String()}, Args: []syntax.Expr{e}}
		out[c] = syntax.I64
		return c
	}
	var all syntax.Expr
	and := func(e syntax.Expr) {
		out[e] = syntax.Bool
		if all == nil {
			all = e
			return
		}
		all = &syntax.Binary{X: all, Op: syntax.OpAnd, Y: e}
		out[all] = syntax.Bool
	}
	for d, i := range x.Indices {
		zero := &syntax.Lit{ValuePos: i.Pos(), Kind: syntax.IntLiteral, Text: "0"}
		out[zero] = syntax.I64
		and(&syntax.Binary{X: i64(i), Op: syntax.OpGe, Y: zero})
		and(&syntax.Binary{X: i64(i), Op: syntax.OpLt, Y: i64(extents[d])})
	}
	return all, out
}

// dataObligation adds the value obligations that the boolean vc (types
// holds its types) is true wherever st runs at site at, as conditions
// like c.
func (g *gen) dataObligation(c Condition, st *sched.Assign, vc syntax.Expr, types map[syntax.Expr]syntax.Type, at site) error {
	tru := &syntax.Lit{ValuePos: st.Pos(), Kind: syntax.BoolLiteral, Text: "true"}
	types[tru] = syntax.Bool
	info := expr.NewInfo()
	info.Types = types
	check := &sched.Assign{Array: st.Array, Indices: st.Indices, Value: vc, Annot: tru}
	obs, err := valueObligations(g.ctx, g.pr.Contexts, g.pr, check, at, info, g.copies)
	if done, err := g.undecidedData(c, err); done || err != nil {
		return err
	}
	return g.obligations(c, c.Kind, obs)
}

// dataReadRaces adds, for the par loop l, an undecided race condition for
// every array that a statement of its body reads at a data-dependent
// index and that an iteration of the loop writes: such a read may read
// any cell of its array (Clément 2022, section 9.6.1).
func (g *gen) dataReadRaces(base Condition, l *sched.Loop) {
	delta, _, ok := g.pr.IterationEffect(l)
	if !ok {
		return
	}
	written := map[string]bool{}
	for _, m := range delta.Maps() {
		if in := m.Space().In; in != nil {
			written[in.Name] = true
		}
	}
	seen := map[string]bool{}
	for _, name := range dataReadArrays(l.Body, map[string]bool{}) {
		if !written[name] || seen[name] {
			continue
		}
		seen[name] = true
		c := base
		c.Kind, c.Status = sched.ReadWriteRace, Undecided
		c.Reason = fmt.Sprintf("the loop writes %s and reads it at a data-dependent index, which may be any of its cells", name)
		g.add(&c)
	}
}

// dataReadArrays returns the arrays that the statements of st read at
// data-dependent indices, but for those allocated within st (local is
// the set of arrays allocated around the statement within the loop).
func dataReadArrays(st sched.Stmt, local map[string]bool) []string {
	var out []string
	switch st := st.(type) {
	case *sched.Block:
		for _, s := range st.Stmts {
			out = append(out, dataReadArrays(s, local)...)
		}
	case *sched.Loop:
		out = dataReadArrays(st.Body, local)
	case *sched.If:
		out = dataReadArrays(st.Then, local)
		if st.Else != nil {
			out = append(out, dataReadArrays(st.Else, local)...)
		}
	case *sched.Alloc:
		inner := map[string]bool{st.Array.Name: true}
		for k := range local {
			inner[k] = true
		}
		out = dataReadArrays(st.Body, inner)
	case *sched.Assign:
		for _, x := range dataReadsOf(st.Value) {
			if !local[x.Array.Name] {
				out = append(out, x.Array.Name)
			}
		}
	}
	return out
}
