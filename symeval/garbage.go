package symeval

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/augur-verify/augur/presburger"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// This file implements the garbage writes of Clément 2022, section 9.9.
// A compiler may compute values that nothing uses: Halide's "round up"
// tail strategy runs a tiled loop's last tile in full, past the end of
// the data, and the extra iterations compute from cells that were never
// written. Their annotations name tensor elements that make no sense
// there, and their reads are undefined, so rule S-ASSIGN (Clément 2022,
// Fig. 5.4) rejects the kernel although its outputs are right.
//
// The remedy of the section: an assignment that reads a cell that is
// unwritten, or that holds the undefined value ⊥, writes ⊥ at those
// iterations instead of its annotation. Its garbage iterations, a
// parameter domain over its scope, grow by a fixpoint: round 0 is the
// ordinary prophetic evaluation; every round walks the heaps, adds to each
// assignment the iterations whose reads hit a cell that is unwritten or
// ⊥, and evaluates the prophecy again with ⊥ written at those iterations
// (a content of its own in the heaps, the context garbageContext, so that
// an update overwrites a cell with ⊥ and a later write overwrites ⊥ in
// turn). The fixpoint is reached when no set grows. An assignment that
// reads the cell it writes besides its value, an accumulation or a merge
// of a reduction (Options.Accumulates), reads ⊥ also at the iterations
// where that cell holds ⊥: garbage accumulated into a partial result
// stays there, although the accumulations after it are plain writes of
// the reduction element in the heaps.
//
// Conditions at the fixpoint (gen.assign, gen.outputs):
//
//   - at an assignment's garbage iterations, only what the program's
//     execution needs: its reads and its write in bounds, and (S-PARLOOP)
//     no races or conflicting writes with the other iterations. Its value
//     and its annotation are not checked: it writes ⊥ whatever they are;
//   - at its other iterations, everything as before, in the heap without
//     its ⊥ cells: a read of a ⊥ cell there is an undefined read (by the
//     fixpoint there is none, which the condition checks again);
//   - no out cell holds ⊥ when the kernel ends (a condition of kind
//     OutputNotWritten), and the others hold their tensor element.
//
// When ⊥ reaches an out cell (found as soon as a round's final heap has
// it, since it stays there) or conflicts with a value in a par loop, the
// kernel is wrong, and the conditions are generated again without garbage
// writes (garbageFallback): the undefined read where the garbage starts,
// which the reference interpreter reproduces, with a detail saying where
// it would end.
//
// Soundness. ⊥ stands for any value. The value of an assignment at a
// garbage iteration is recorded as ⊥, never as its annotation, so no
// condition relies on it. A read of a ⊥ cell makes the reading iteration
// a garbage iteration, whose write is ⊥ again: a ⊥ value flows only into
// ⊥ cells (array reads cannot occur in the index language, so ⊥ never
// decides an index, a bound or a guard, which would change which cells
// are written). Every cell a condition compares against the
// specification, the reads of non-garbage iterations and the out cells,
// therefore holds a value computed from defined cells only, and the proof
// of chapter 5 applies to it unchanged. The execution of the garbage
// iterations themselves is covered by the conditions that do not depend
// on values: bounds, races and write conflicts. What is assumed is that
// computing with an uninitialised value has no effect beyond the cell
// written (no trap: the value language has no effects, but see
// docs/validate.md on integer division).
//
// The number of rounds is bounded (Options.GarbageRounds): past it, or
// when a round exceeds the Presburger budget, Analyze falls back to the
// ordinary conditions, where every such read is an undefined read. It
// never answers on a fixpoint it did not reach.

// maxGarbageRounds is the default bound on the prophetic evaluations
// repeated with garbage writes. Compilers write garbage in independent
// statements (a tile's tail), so the fixpoint takes as many rounds as the
// longest chain of statements that compute garbage from garbage, and a
// reduction unrolled into a statement per step a round per step before
// it is widened (sgemv reaches its fixpoint in round 10).
const maxGarbageRounds = 16

// garbageContext is the tuple name of ⊥ in heaps: no interned context is
// named so ("E" followed by a number).
const garbageContext = "Egarbage"

// garbageContextOf returns the context of ⊥ in cs, registered on first
// use under the name garbageContext (Lookup finds it; All does not list
// it, since it is no expression of the kernel).
func (cs *Contexts) garbageContextOf() *Context {
	if c, ok := cs.byName[garbageContext]; ok {
		return c
	}
	c := &Context{Name: garbageContext, Expr: &syntax.Ident{Name: "⊥"}, info: expr.NewInfo(), key: "⊥"}
	cs.byName[c.Name] = c
	return c
}

// IsGarbage reports whether c is the undefined value ⊥ of a garbage write
// (Clément 2022, section 9.9).
func (c *Context) IsGarbage() bool { return c != nil && c.Name == garbageContext }

// GarbageSummary says how the garbage writes of Analyze went.
type GarbageSummary struct {
	// Rounds is the number of prophetic evaluations repeated with garbage
	// writes (0: no assignment reads an unwritten cell).
	Rounds int
	// Statements is the number of assignments that write ⊥ at some
	// iterations, at the fixpoint.
	Statements int
	// Fallback is set when the fixpoint was not reached (the round bound,
	// or a round past the Presburger budget): the conditions are then
	// those without garbage writes. Reason says why.
	Fallback bool
	Reason   string
	// Reused counts the statements whose prophetic effect or walk a
	// round took unchanged from the previous round (rounds.go).
	Reused int
}

// garbageWrite splits the write m of an assignment in scope s into its
// annotation at the iterations outside g and ⊥ at those in g.
func (p *prophet) garbageWrite(s *Scope, m, g *presburger.Map) ([]*presburger.Map, error) {
	if !slices.Equal(g.Space().Params, s.Params()) {
		return nil, fmt.Errorf("garbage iterations over %v in a scope over %v", g.Space().Params, s.Params())
	}
	lifted, err := presburger.Universe(m.Space()).IntersectParams(g)
	if err != nil {
		return nil, err
	}
	good, err := m.Subtract(p.ctx, lifted)
	if err != nil {
		return nil, err
	}
	cells, err := m.Domain().IntersectParams(g)
	if err != nil {
		return nil, err
	}
	bot := p.cs.garbageContextOf()
	in := m.Space().In
	dims := make([]string, in.Dim())
	for i := range dims {
		dims[i] = fmt.Sprintf("i%d", i)
	}
	bad, err := respace(cells, presburger.MapSpace(nil, presburger.FlatTuple(in.Name, dims...), presburger.FlatTuple(bot.Name)))
	if err != nil {
		return nil, err
	}
	return []*presburger.Map{good, bad}, nil
}

// withoutGarbage returns h without its ⊥ cells.
func withoutGarbage(h *Heap) *Heap {
	ms := h.u.Maps()
	for i, m := range ms {
		if m.Space().Out.Name != garbageContext {
			continue
		}
		out := append([]*presburger.Map(nil), ms[:i]...)
		for _, m := range ms[i+1:] {
			if m.Space().Out.Name != garbageContext {
				out = append(out, m)
			}
		}
		return &Heap{u: presburger.NewUnionMap(out...)}
	}
	return h
}

// garbageCells returns the cells of h that hold ⊥, a union of sets.
func garbageCells(h *Heap) *presburger.UnionMap {
	var out []*presburger.Map
	for _, m := range h.u.Maps() {
		if m.Space().Out.Name == garbageContext {
			out = append(out, m.Domain())
		}
	}
	return presburger.NewUnionMap(out...)
}

// garbageTarget returns the cell that the assignment st writes at site
// at where it holds ⊥ there, restricted to the scope's facts: for an
// assignment that reads the cell it writes (Options.Accumulates), a read
// of ⊥ like those of its value.
func garbageTarget(st *sched.Assign, at site) (*presburger.UnionMap, error) {
	loc, err := location(at.scope, &syntax.Index{Array: st.Array, Indices: st.Indices})
	if err != nil {
		return nil, err
	}
	if f := at.scope.Facts(); f != nil {
		if loc, err = loc.IntersectParams(f); err != nil {
			return nil, err
		}
	}
	bot, err := loc.Intersect(garbageCells(at.heap).MapOf(loc.Space()))
	if err != nil {
		return nil, fmt.Errorf("%s: garbage in the written cell: %w", st.Pos(), err)
	}
	return presburger.NewUnionMap(bot), nil
}

// garbageIterations returns the iterations of the assignment at st whose
// reads hit a cell that at.heap leaves unwritten or holds ⊥ in, a
// parameter domain over at.scope restricted to its facts and the
// assumptions, or nil when there is none. und are those reads (nil: to
// compute).
func (g *gen) garbageIterations(st *sched.Assign, at site, und *presburger.UnionMap) (*presburger.Map, error) {
	if und == nil {
		var err error
		if und, err = undefinedReads(g.ctx, st, site{scope: at.scope, heap: withoutGarbage(at.heap)}); err != nil {
			return nil, err
		}
	}
	if len(und.Maps()) == 0 {
		return nil, nil
	}
	it, err := g.dropMapOutsideHull(und.Params())
	if err != nil {
		return nil, err
	}
	if it, err = intersectAssumed(g.ctx, it, g.a.Assumptions); err != nil {
		return nil, err
	}
	if empty, err := it.IsEmpty(g.ctx); err != nil || empty {
		return nil, err
	}
	return it, nil
}

// intersectAssumed returns m restricted to the parameter domain a. When
// the product of their pieces passes maxKnownProduct (assumptions of many
// pieces, a divisor's cases times Halide's specializations), it is built
// a pair of pieces at a time, each charged against the allowance of ctx
// (a step, and one per constraint built: chargeBuilt) and dropped when
// empty, so that the budget bounds what is held.
func intersectAssumed(ctx context.Context, m, a *presburger.Map) (*presburger.Map, error) {
	if m.NumBasics()*a.NumBasics() <= maxKnownProduct {
		return m.IntersectParams(a)
	}
	var sp presburger.Space
	var kept []*presburger.BasicMap
	for _, b := range m.Basics() {
		piece := presburger.NewMap(m.Space(), b)
		for _, ab := range a.Basics() {
			x, err := piece.IntersectParams(presburger.NewMap(a.Space(), ab))
			if err != nil {
				return nil, err
			}
			if err := chargeBuilt(ctx, 1, x); err != nil {
				return nil, fmt.Errorf("garbage iterations under the assumptions: %w", err)
			}
			if empty, err := x.IsEmpty(ctx); err != nil || empty {
				if err != nil {
					return nil, fmt.Errorf("garbage iterations under the assumptions: %w", err)
				}
				continue
			}
			sp = x.Space()
			kept = append(kept, x.Basics()...)
		}
	}
	if kept == nil {
		return m.IntersectParams(presburger.Empty(a.Space()))
	}
	return presburger.NewMap(sp, kept...), nil
}

// collectGarbage adds to gs the garbage iterations of the assignments
// walked by w in the given round (0: the ordinary prophecy) and reports
// whether a set grew. It records the undefined reads of each assignment
// in g.undMemo, for the conditions.
//
// A set that grows in two rounds in a row may be widened (grow): garbage
// that feeds itself along a sequential loop (an accumulator never
// initialised) would otherwise grow by one iteration a round and never
// converge. Widening is sound: more garbage
// iterations only write ⊥ where a value was, which the conditions on ⊥
// (outputs, conflicts) see; it can only turn a verdict VALID into the
// ordinary conditions' undefined read.
func (g *gen) collectGarbage(w *heapWalker, gs map[*sched.Assign]*presburger.Map, round int) (bool, error) {
	memo := map[*sched.Assign]*presburger.UnionMap{}
	g.undMemo[w.pr] = memo
	// The rounds in which the sets last grew before this one
	// (upstreamGrew): grewIn changes as the round goes.
	g.grewBefore = maps.Clone(g.grewIn)
	grew := false
	for _, st := range w.order {
		st, ok := st.(*sched.Assign)
		if !ok {
			continue
		}
		at := w.out[st]
		if und, ok := g.undMemo[w.prev.prophecy()][st]; ok && w.sameSite(st) {
			// The previous round's site: its garbage iterations are in
			// gs already (rounds.go).
			memo[st] = und
			continue
		}
		if g.widened[st] {
			// Every iteration writes ⊥ already. The conditions compute
			// the undefined reads if they need them (reads): after the
			// fallback that a widening mostly ends in, they do not.
			continue
		}
		und, err := undefinedReads(g.ctx, st, site{scope: at.scope, heap: withoutGarbage(at.heap)})
		if err != nil {
			return false, err
		}
		if g.opts.Accumulates[st] {
			bot, err := garbageTarget(st, at)
			if err != nil {
				return false, err
			}
			und = und.Union(bot)
		}
		memo[st] = und
		old, ok := gs[st]
		if ok {
			// The usual end of the fixpoint: the set does not grow.
			within, err := g.readsWithin(und, old)
			if err != nil {
				return false, err
			}
			if within {
				continue
			}
		}
		it, err := g.garbageIterations(st, at, und)
		if err != nil || it == nil {
			if err != nil {
				return false, err
			}
			continue
		}
		if !ok {
			if gs[st], err = g.compactGarbage(st, it, at); err != nil {
				return false, err
			}
			g.grewIn[st], grew = round, true
			continue
		}
		more, err := it.Subtract(g.ctx, old)
		if err != nil {
			return false, err
		}
		if empty, err := more.IsEmpty(g.ctx); err != nil || empty {
			if err != nil {
				return false, err
			}
			continue
		}
		if gs[st], err = g.grow(st, old, more, at, round); err != nil {
			return false, err
		}
		g.grewIn[st], grew = round, true
	}
	return grew, nil
}

// grow returns the garbage iterations of the assignment st at site at
// once the iterations more join its set old in the given round.
//
// A set is widened (collectGarbage) when its cycle of garbage
// (garbageCycles) grew in the previous round too, the assignment itself
// or one on its cycle that feeds it (cycleGrew: a reduction unrolled into
// a statement per step, as sgemv's, passes its garbage from one statement
// to the next a round at a time, so that each grows only every few
// rounds), and no assignment feeding it from outside its cycle grew in
// the previous round (upstreamGrew): the garbage sets of the assignments on no cycle
// are functions of those of the assignments that feed them, and stop
// growing a round after those do. Otherwise the set grows by the new
// iterations only. A widening is first along one loop, when the new
// iterations differ from the old ones only in that loop's variable
// (garbage carried along a sequential loop by an accumulation whose
// first value was garbage, at some of the iterations of the loops around
// it: the lanes of a vector past the data), to every value of that
// variable at the iterations the set has (widenAlongLoop: only the
// variables of sequential loops on which the written cell does not
// depend, those along which an accumulation carries garbage), up to
// maxSlides times; past that, or when no loop fits, to all the
// assignment's iterations. Both are sound for the same reason.
func (g *gen) grow(st *sched.Assign, old, more *presburger.Map, at site, round int) (*presburger.Map, error) {
	if !g.cycleGrew(st, round-1) || !g.cycles.cyclic[st] || g.upstreamGrew(st, round-1) {
		u, err := old.Union(more)
		if err != nil {
			return nil, err
		}
		return g.compactGarbage(st, u, at)
	}
	if g.slid[st] < maxSlides {
		w, x, err := g.widenAlongLoop(st, old, more, at)
		if err != nil {
			return nil, err
		}
		if w != nil {
			g.tracef(1, "%s  (at %s): garbage iterations widened along %s", sched.StmtLine(st), st.Pos(), x)
			if g.slid == nil {
				g.slid = map[*sched.Assign]int{}
			}
			g.slid[st]++
			return g.compactGarbage(st, w, at)
		}
	}
	g.tracef(1, "%s  (at %s): garbage iterations widened to all", sched.StmtLine(st), st.Pos())
	g.widened[st] = true
	return presburger.Universe(presburger.ParamSpace(at.scope.Params())), nil
}

// cycleGrew reports whether st, or an assignment on its cycle of garbage
// that feeds it (garbageCycles), grew in the given round (grewBefore).
func (g *gen) cycleGrew(st *sched.Assign, round int) bool {
	if r, ok := g.grewBefore[st]; ok && r == round {
		return true
	}
	for _, a := range g.cycles.feeders[st] {
		if a != st && g.cycles.sameCycle(a, st) {
			if r, ok := g.grewBefore[a]; ok && r == round {
				return true
			}
		}
	}
	return false
}

// cellInvariant reports whether the cell loc does not depend on the
// parameter p: every constraint's coefficient of p is zero.
func cellInvariant(loc *presburger.Map, p string) bool {
	i := slices.Index(loc.Space().Params, p)
	if i < 0 {
		return true
	}
	for _, b := range loc.Basics() {
		c := b.Col(presburger.DimParam, i)
		rows := append(b.Eqs(), b.AllIneqs()...)
		for l := range b.NumLocals() {
			if num, _ := b.Local(l); num != nil {
				rows = append(rows, num)
			}
		}
		for _, r := range rows {
			if c < len(r) && !r[c].IsZero() {
				return false
			}
		}
	}
	return true
}

// maxSlides bounds the widenings of one assignment's garbage iterations
// along a loop (grow), each along a variable of its own, before the
// next one widens them to all: an accumulation split over two loops
// (sgemv's sums over a vector's lanes, whose reduction loop Halide splits
// into blocks and steps within a block) slides along the inner loop,
// then along the outer one.
const maxSlides = 3

// upstreamGrew reports whether an assignment that feeds st (garbageCycles)
// from outside st's cycle grew in the given round: st's growth in the
// round after is then, at least in part, that assignment's garbage
// flowing on, which stops when it does, and no reason to widen.
func (g *gen) upstreamGrew(st *sched.Assign, round int) bool {
	for _, a := range g.cycles.feeders[st] {
		if a == st || g.cycles.sameCycle(a, st) {
			continue
		}
		if r, ok := g.grewBefore[a]; ok && r == round {
			return true
		}
	}
	return false
}

// widenAlongLoop returns the garbage iterations old widened along the
// innermost loop variable x of the site at such that the new iterations
// more, x left free, are among old, x left free, and x; or nil when no
// loop variable does (or past the Presburger budget). The result holds
// old and more: every iteration whose other variables are those of an
// iteration of old.
//
// Only the variables of sequential loops on which the written cell does
// not depend (cellInvariant) are tried: garbage is carried along such a
// loop by an accumulation into the same cell. No iteration of a par loop
// reads what another writes (that would be a race, a condition of its
// own), and new garbage at other cells comes from elsewhere: sgemv's
// tail loop receives its main loop's garbage lanes over several rounds,
// and widened along its lanes or its vectors, ⊥ went to every lane and
// to the output.
func (g *gen) widenAlongLoop(st *sched.Assign, old, more *presburger.Map, at site) (*presburger.Map, string, error) {
	params := at.scope.Params()
	all := presburger.Universe(presburger.ParamSpace(params))
	loc, err := location(at.scope, &syntax.Index{Array: st.Array, Indices: st.Indices})
	if err != nil {
		return nil, "", nil
	}
	free := func(m *presburger.Map, i int) (*presburger.Map, error) {
		p, err := m.ProjectOut(presburger.DimParam, i, 1)
		if err != nil {
			return nil, err
		}
		return all.IntersectParams(p)
	}
	for i := len(params) - 1; i >= len(g.a.Params); i-- {
		if !slices.Equal(old.Space().Params, params) || !slices.Equal(more.Space().Params, params) {
			return nil, "", nil
		}
		if g.cycles.par[st][strings.TrimRight(params[i], "'")] || !cellInvariant(loc, params[i]) {
			continue
		}
		wo, err := free(old, i)
		if err != nil {
			return nil, "", err
		}
		wm, err := free(more, i)
		if err != nil {
			return nil, "", err
		}
		in, err := wm.IsSubset(g.ctx, wo)
		if err != nil {
			if undecidable(err) {
				return nil, "", nil
			}
			return nil, "", err
		}
		if in {
			return wo, strings.TrimRight(params[i], "'"), nil
		}
	}
	return nil, "", nil
}

// readsWithin reports whether the undefined reads und of an assignment
// all happen at its garbage iterations old, those of an earlier round:
// whether und ∩ (¬old × anything) is empty, ¬old being the complement of
// old (garbageRest). Then the assignment's garbage iterations do not grow:
// the set collectGarbage would compare with old, the parameters of und
// under the assumptions (garbageIterations), is contained in the
// parameters of und, hence in old. False may also mean that the test
// exceeded the Presburger budget; collectGarbage then compares the sets
// as before. Either way it decides as it did without this test.
//
// This is the test that ends the fixpoint, and it is cheaper than the
// comparison it spares: no projection of und to its parameters, no
// subtraction of old from each of its pieces (which splits each piece
// along every constraint of old, with its divisions), only one emptiness
// test per piece of und and of ¬old, which stops at the first point.
func (g *gen) readsWithin(und *presburger.UnionMap, old *presburger.Map) (bool, error) {
	rest, err := g.garbageRest(old)
	if err != nil {
		return false, err
	}
	if rest == nil {
		return false, nil
	}
	for _, m := range und.Maps() {
		if !slices.Equal(m.Space().Params, rest.Space().Params) {
			return false, nil
		}
		out, err := m.IntersectParams(rest)
		if err != nil {
			return false, err
		}
		empty, err := out.IsEmpty(g.ctx)
		if err != nil || !empty {
			if err != nil && !errors.Is(err, presburger.ErrBudget) {
				return false, err
			}
			return false, nil
		}
	}
	return true, nil
}

// garbageRest returns the complement of the garbage iterations it of an
// assignment, computed once for each set (by identity: the set of a
// statement is a new object whenever it changes). It is nil when the
// complement exceeded the Presburger budget.
func (g *gen) garbageRest(it *presburger.Map) (*presburger.Map, error) {
	if r, ok := g.rests[it]; ok {
		return r, nil
	}
	r, err := it.Complement(g.ctx)
	if err != nil {
		if !errors.Is(err, presburger.ErrBudget) {
			return nil, err
		}
		r = nil
	}
	if g.rests == nil {
		g.rests = map[*presburger.Map]*presburger.Map{}
	}
	g.rests[it] = r
	return r, nil
}

// compactGarbage returns the garbage iterations it of the assignment st at
// site at in a simpler form: simplified, coalesced, and stripped of the
// constraints that the scope's facts and the assumptions imply, or that
// its other pieces cover under them (presburger.GistCover: where the facts
// have a conjunction per piece of a min, the pieces of it repeat them, and
// Halide's sgemm with a transposed operand had 4 pieces of garbage
// iterations instead of 2, which split every heap of the accumulation).
// The result equals it where the assignment runs under the assumptions,
// which is all that matters: its write is only read where the facts hold
// (assign in prophetic.go) and every condition is restricted to the
// assumptions. Without the gist, the garbage
// iterations repeat every loop bound and assumption, and the prophecy's
// writes split by their complement multiply the pieces of every heap.
//
// A set of more than maxGarbagePieces pieces even so is widened to all
// the assignment's iterations (sound, see collectGarbage): split by a
// complex set, the writes of the next round's prophecy and every heap
// after them multiply their pieces by its own (Halide's sgemm with a
// transposed operand, whose specialisations split the garbage iterations
// in up to 26 pieces), and widening keeps that factor bounded.
func (g *gen) compactGarbage(st *sched.Assign, it *presburger.Map, at site) (*presburger.Map, error) {
	c := g.a.Assumptions
	if f := at.scope.Facts(); f != nil {
		var err error
		if c, err = f.Intersect(c); err != nil {
			return nil, err
		}
	}
	// GistCover leaves out the pieces contained in those it has widened,
	// before their gist: on a few dozen pieces (one per conjunction of
	// the facts and kind of read, 32 in sgemmTB's accumulation) it does
	// so at less cost than coalescing them first, and gives the same
	// sets. Past that, or should it fail, they are coalesced first.
	s, err := it.Simplify(g.ctx)
	if err != nil {
		return nil, err
	}
	if s.NumBasics() > maxGistPieces {
		if s, err = compactDomain(g.ctx, s); err != nil {
			return nil, err
		}
	}
	gi, err := presburger.GistCover(g.ctx, s, c)
	switch {
	case errors.Is(err, presburger.ErrBudget), err == nil && !slices.Equal(gi.Space().Params, s.Space().Params):
		if gi, err = compactDomain(g.ctx, s); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	default:
		if s.NumBasics() > 1 {
			// Gisted pieces differ in fewer constraints: coalesce again.
			// GistCover may have left one piece of several (those it
			// contains are left out), with divisions the others used:
			// simplify it all the same.
			if gi, err = compactDomain(g.ctx, gi); err != nil {
				return nil, err
			}
		}
	}
	if gi.NumBasics() > maxGarbagePieces {
		g.tracef(1, "garbage iterations of %s  (at %s): %d pieces, widened to all", sched.StmtLine(st), st.Pos(), gi.NumBasics())
		g.widened[st] = true
		return presburger.Universe(presburger.ParamSpace(at.scope.Params())), nil
	}
	return gi, nil
}

// maxGistPieces bounds the pieces of garbage iterations that
// compactGarbage gists without coalescing them first.
const maxGistPieces = 32

// maxGarbagePieces bounds the pieces of an assignment's garbage
// iterations (compactGarbage). sgemv's tail statements hold 5 while the
// garbage of the main loop reaches them, before their sets coalesce.
const maxGarbagePieces = 8

// garbageWrites runs the fixpoint of the garbage writes from the walk w0
// of the ordinary prophecy and returns the walk the conditions are
// generated from: w0 itself when no assignment reads an unwritten cell or
// when the fixpoint is not reached (g.a.Garbage says which), the walk of
// the prophecy with garbage writes otherwise, which then replaces g.pr.
func (g *gen) garbageWrites(w0 *heapWalker) (*heapWalker, error) {
	gs := map[*sched.Assign]*presburger.Map{}
	g.grewIn = map[*sched.Assign]int{}
	g.widened = map[*sched.Assign]bool{}
	g.slid = nil
	g.cycles = garbageCycles(g.k, w0.arraysRead)
	grew, err := g.collectGarbage(w0, gs, 0)
	if err != nil {
		if undecidable(err) {
			// The conditions find out again, and say so.
			return w0, nil
		}
		return nil, err
	}
	if !grew {
		return w0, nil
	}
	// Falling back keeps the ordinary prophecy, g.pr, whose undefined
	// reads g.undMemo holds.
	fallback := func(reason string) (*heapWalker, error) {
		g.a.Garbage.Fallback, g.a.Garbage.Reason = true, reason
		g.a.Garbage.Statements = 0
		g.tracef(0, "garbage writes: %s; back to the ordinary conditions", reason)
		return w0, nil
	}
	bound := g.opts.GarbageRounds
	if bound <= 0 {
		bound = maxGarbageRounds
	}
	// Each round may take what did not change from the previous one
	// (rounds.go).
	prev := w0
	for {
		if g.a.Garbage.Rounds == bound {
			return fallback(fmt.Sprintf("no fixpoint within %d rounds", bound))
		}
		g.a.Garbage.Rounds++
		g.tracef(0, "garbage writes, round %d: %d assignments write ⊥", g.a.Garbage.Rounds, len(gs))
		opts := g.opts
		if !g.opts.noRoundReuse {
			opts.prev = prev.pr
		}
		opts.garbage = make(map[*sched.Assign]*presburger.Map, len(gs))
		for st, it := range gs {
			opts.garbage[st] = it
			g.tracef(1, "%s  (at %s) writes ⊥ at %s", sched.StmtLine(st), st.Pos(), it)
		}
		pr, err := Prophesy(g.ctx, g.k, g.kinfo, g.spec, opts)
		if err != nil {
			if errors.Is(err, presburger.ErrBudget) {
				return fallback("prophetic evaluation past the budget: " + err.Error())
			}
			return nil, err
		}
		pr.Assumptions = g.a.Assumptions
		g.a.Garbage.Reused += pr.reused
		// ⊥ in an out cell stays there at the fixpoint (the sets only
		// grow, and the cell's last writer is the same), so the kernel is
		// wrong: no need to go on.
		harm, err := g.outputHarm(pr)
		if err != nil {
			if undecidable(err) {
				return fallback("garbage outputs past the budget: " + err.Error())
			}
			return nil, err
		}
		if harm != "" {
			g.garbageHarm, g.harmful = harm, gs
			return fallback("the undefined value " + g.harmReach())
		}
		w, err := g.walkAfter(pr, prev)
		if err != nil {
			if undecidable(err) {
				return fallback("symbolic evaluation past the budget: " + err.Error())
			}
			return nil, err
		}
		g.a.Garbage.Reused += w.reused
		prev = w
		grew, err := g.collectGarbage(w, gs, g.a.Garbage.Rounds)
		if err != nil {
			if undecidable(err) {
				return fallback("garbage iterations past the budget: " + err.Error())
			}
			return nil, err
		}
		if !grew {
			g.pr, g.a.Prophecy, g.garbage = pr, pr, gs
			g.a.Garbage.Statements = len(gs)
			return w, nil
		}
	}
}

// garbageCycles relates the assignments of the kernel k by "writes an
// array that the other reads" (reads gives the arrays an assignment
// reads: with the one it writes when it reads the cell it writes,
// Options.Accumulates), counting
// only what can flow: from an assignment to a later one in program order,
// or to an earlier one (itself included) when a loop encloses both within
// the array's allocation, so that a later iteration of the loop reads
// what an earlier one wrote. The assignments on a cycle of that relation
// are those whose garbage may feed itself, across the iterations of a
// loop or through other assignments, and grow a little every round (an
// accumulator never initialised). The garbage sets of the others depend
// only on those of the assignments that feed them, so that the fixpoint
// reaches them without widening: for interpolate's pyramid, each level
// reading the level below, widening a level because it grew when the one
// below did turned garbage that never reaches the output into garbage
// everywhere. Arrays are told apart by name and allocation.
func garbageCycles(k *sched.Kernel, reads func(sched.Stmt) map[string]bool) *cycles {
	var sts []placed
	placeAssigns(k.Body, nil, &sts)
	// flows says whether what a writes may be read by b.
	flows := func(i, j int) bool {
		a, b := sts[i], sts[j]
		name := a.a.Array.Name
		if !reads(b.a)[name] || allocOf(a.path, name) != allocOf(b.path, name) {
			// b reads no array of that name, or another allocation of it.
			return false
		}
		if i < j {
			return true
		}
		// A loop around both, within the array's allocation (the
		// innermost of that name around both; none: a kernel's array),
		// runs b after a.
		common := 0
		for common < len(a.path) && common < len(b.path) && a.path[common] == b.path[common] {
			common++
		}
		from := 0
		for d := range common {
			if x, ok := a.path[d].(*sched.Alloc); ok && x.Array.Name == name {
				from = d + 1
			}
		}
		for d := from; d < common; d++ {
			if _, ok := a.path[d].(*sched.Loop); ok {
				return true
			}
		}
		return false
	}
	c := &cycles{cyclic: map[*sched.Assign]bool{}, feeders: map[*sched.Assign][]*sched.Assign{}, comp: map[*sched.Assign]int{},
		par: map[*sched.Assign]map[string]bool{}}
	for _, x := range sts {
		for _, st := range x.path {
			if l, ok := st.(*sched.Loop); ok && l.Par {
				if c.par[x.a] == nil {
					c.par[x.a] = map[string]bool{}
				}
				c.par[x.a][l.Var.Name] = true
			}
		}
	}
	n := len(sts)
	reach := make([][]bool, n)
	for i := range sts {
		reach[i] = make([]bool, n)
		for j := range sts {
			if flows(i, j) {
				reach[i][j] = true
				c.feeders[sts[j].a] = append(c.feeders[sts[j].a], sts[i].a)
			}
		}
	}
	// Transitive closure (kernels have a few dozen assignments).
	for m := range n {
		for i := range n {
			if !reach[i][m] {
				continue
			}
			for j := range n {
				if reach[m][j] {
					reach[i][j] = true
				}
			}
		}
	}
	for i, x := range sts {
		c.comp[x.a] = -1 - i
		if reach[i][i] {
			c.cyclic[x.a] = true
			// The first assignment of its cycle names it.
			for j := range n {
				if reach[i][j] && reach[j][i] {
					c.comp[x.a] = j
					break
				}
			}
		}
	}
	return c
}

// allocOf returns the innermost allocation of the array name in path, or
// nil (a kernel's array).
func allocOf(path []sched.Stmt, name string) sched.Stmt {
	for d := len(path) - 1; d >= 0; d-- {
		if x, ok := path[d].(*sched.Alloc); ok && x.Array.Name == name {
			return x
		}
	}
	return nil
}

// placed is an assignment with the loops and allocations around it,
// outermost first.
type placed struct {
	a    *sched.Assign
	path []sched.Stmt
}

// placeAssigns appends the assignments within b to sts, in program order,
// each with path and the loops and allocations around it within b.
func placeAssigns(b *sched.Block, path []sched.Stmt, sts *[]placed) {
	if b == nil {
		return
	}
	for _, st := range b.Stmts {
		placeStmt(st, path, sts)
	}
}

func placeStmt(st sched.Stmt, path []sched.Stmt, sts *[]placed) {
	switch x := st.(type) {
	case *sched.Assign:
		*sts = append(*sts, placed{a: x, path: slices.Clone(path)})
	case *sched.If:
		placeAssigns(x.Then, path, sts)
		if x.Else != nil {
			placeStmt(x.Else, path, sts)
		}
	case *sched.Alloc:
		placeAssigns(x.Body, append(slices.Clip(path), x), sts)
	case *sched.Loop:
		placeAssigns(x.Body, append(slices.Clip(path), x), sts)
	case *sched.Block:
		placeAssigns(x, path, sts)
	}
}

// cycles is the relation of garbageCycles.
type cycles struct {
	// cyclic holds the assignments on a cycle.
	cyclic map[*sched.Assign]bool
	// feeders lists, for each assignment, those whose writes it may read.
	feeders map[*sched.Assign][]*sched.Assign
	// comp numbers the cycles: two assignments are on the same one when
	// their numbers are equal.
	comp map[*sched.Assign]int
	// par holds, for each assignment, the variables of the par loops
	// around it.
	par map[*sched.Assign]map[string]bool
}

// sameCycle reports whether a and b lie on one cycle.
func (c *cycles) sameCycle(a, b *sched.Assign) bool {
	return c.cyclic[a] && c.cyclic[b] && c.comp[a] == c.comp[b]
}

// harmReach says where the undefined value of the garbage writes does
// harm, g.garbageHarm, as a verb phrase: "would reach" when the garbage
// iterations are exact, "may reach" when some were widened, to all their
// iterations or along a loop (grow, compactGarbage), since the harm may then
// come from the widening alone. Either way the verdict rests on the
// ordinary conditions' undefined read, which is exact.
func (g *gen) harmReach() string {
	n := len(g.widened)
	for st := range g.slid {
		if !g.widened[st] {
			n++
		}
	}
	if n == 0 {
		return "would reach " + g.garbageHarm
	}
	what := "assignments"
	if n == 1 {
		what = "assignment"
	}
	how := "to all their iterations"
	if len(g.slid) > 0 {
		how = "along a loop or to all their iterations"
	}
	return fmt.Sprintf("may reach %s (an over-approximation: the garbage iterations of %d %s were widened %s, so this is not ruled out)",
		g.garbageHarm, n, what, how)
}

// garbageSites returns the sites of the conditions of the assignment at
// st: at for its bounds checks, good for the others, and the detail of
// its undefined-read condition. Without garbage writes both are at; with
// them, both heaps are without their ⊥ cells (a read of ⊥ is undefined)
// and good's scope leaves out the assignment's garbage iterations.
func (g *gen) garbageSites(st *sched.Assign, at site) (site, site, string, error) {
	if g.garbage == nil {
		if _, ok := g.harmful[st]; ok {
			return at, at, "as a garbage write (Clément 2022, section 9.9), the undefined value it computes " + g.harmReach(), nil
		}
		return at, at, "", nil
	}
	at.heap = withoutGarbage(at.heap)
	it, ok := g.garbage[st]
	if !ok {
		return at, at, "", nil
	}
	rest, err := it.Complement(g.ctx)
	if err != nil {
		return at, at, "", fmt.Errorf("%s: garbage iterations: %w", st.Pos(), err)
	}
	good := at
	if good.scope, err = at.scope.Assume(rest); err != nil {
		return at, at, "", fmt.Errorf("%s: garbage iterations: %w", st.Pos(), err)
	}
	detail := fmt.Sprintf("not counting the iterations that write the undefined value ⊥ (garbage writes, Clément 2022, section 9.9): %s", it)
	return at, good, detail, nil
}

// valueSite returns the site at which the value obligations of the
// assignment st are generated, given good, the site of its conditions at
// the iterations that do not write ⊥ (garbageSites): good itself without
// garbage writes, and otherwise good's scope with the heap of the
// ordinary prophecy before st (g.ordinary).
//
// Both heaps give every cell the same last writer, since ⊥ never decides
// which cells are written (see the soundness argument at the top of this
// file); they differ only in the cells that hold ⊥ at the fixpoint, which
// hold the writer's annotation in the ordinary heap. The iterations of
// good read no ⊥ cell: that is the undefined-read condition of good,
// decided in the heap without ⊥, and a verdict VALID needs it proved.
// Wherever it holds, a read evaluates to the same contents in both heaps,
// so the obligations have the same points. The ordinary heap's contents
// are not split by the garbage iterations of their writers (a write's
// annotation minus its ⊥ iterations, garbageWrite, is a piece per
// constraint of their complement), and the obligations of the reads of a
// statement multiply their pieces: interpolate's output, which reads
// three levels of its pyramid, had eight times as many pieces in its heap
// at the fixpoint as in the ordinary one.
func (g *gen) valueSite(st *sched.Assign, good site) site {
	if g.garbage == nil || g.ordinary == nil || g.ordinary.pr.Contexts != g.pr.Contexts || g.opts.fixpointValueHeap {
		return good
	}
	o, ok := g.ordinary.out[st]
	if !ok || !slices.Equal(o.scope.Params(), good.scope.Params()) {
		return good
	}
	good.heap = o.heap
	return good
}

// reads returns the out-of-bounds reads of the assignment at st, at all
// its iterations (at), and its other undefined reads, at the iterations
// of good.
//
// The undefined reads at all the iterations were computed when looking
// for garbage writes (g.undMemo, in the heap without ⊥, the heap of at
// and good); those of good are the same restricted to its facts.
func (g *gen) reads(st *sched.Assign, at, good site) (oob, und *presburger.UnionMap, err error) {
	all, ok := g.undMemo[g.pr][st]
	if !ok {
		if all, err = undefinedReads(g.ctx, st, at); err != nil {
			return nil, nil, err
		}
	}
	if good.scope == at.scope {
		return g.splitOutOfBounds(all, at)
	}
	if oob, _, err = g.splitOutOfBounds(all, at); err != nil {
		return nil, nil, err
	}
	if und, err = all.IntersectParams(good.scope.Facts()); err != nil {
		return nil, nil, err
	}
	if err := chargeBuiltUnion(g.ctx, 0, und); err != nil {
		return nil, nil, fmt.Errorf("%s: undefined reads: %w", st.Pos(), err)
	}
	if _, und, err = g.splitOutOfBounds(und, good); err != nil {
		return nil, nil, err
	}
	return oob, und, nil
}

// garbageObligation records the condition c of a value obligation o one
// of whose sides is ⊥. Two iterations of a parallel loop that both write
// ⊥ agree; an out cell holding ⊥ is the business of garbageOutputs; any
// other obligation on ⊥ fails where it has points: a cell would hold a
// value or garbage depending on the order of the iterations.
func (g *gen) garbageObligation(c Condition, o obligation) error {
	switch {
	case o.Impl.IsGarbage() && o.Spec.IsGarbage():
		c.Status, c.Reason = Proved, "both sides are the undefined value ⊥"
		g.add(&c)
		return nil
	case c.Kind == sched.OutputWrongValue:
		return nil
	}
	c.Detail = "one side is the undefined value ⊥ of a garbage write (Clément 2022, section 9.9)"
	harm := fmt.Sprintf("the condition of %s at %s", c.Kind, c.Pos)
	if c.Kind == sched.WriteWriteConflict {
		c.Detail = "one iteration writes the undefined value ⊥ of a garbage write (Clément 2022, section 9.9), the other a value"
		harm = fmt.Sprintf("a cell that another iteration of the par loop at %s writes a value to", c.Pos)
	}
	if err := g.decided(c, presburger.NewUnionMap(o.Points), nil); err != nil {
		return err
	}
	if last := g.a.Conditions[len(g.a.Conditions)-1]; last.Status == Failed && g.garbageHarm == "" {
		g.garbageHarm = harm
	}
	return nil
}

// outputHarm returns the out cells that hold ⊥ in pr's final heap under
// the assumptions, printed, or "" when there are none. A par loop's
// cell that one iteration writes ⊥ and another a value may hold either
// in the final heap (ν), but such a cell is a write-write conflict
// until the fixpoint, or ⊥ for good: the kernel is wrong either way.
func (g *gen) outputHarm(pr *Prophecy) (string, error) {
	bot, err := garbageOutputs(g.ctx, pr, g.k)
	if err != nil {
		return "", err
	}
	if bot, err = bot.IntersectParams(g.a.Assumptions); err != nil {
		return "", err
	}
	empty, err := bot.IsEmpty(g.ctx)
	if err != nil || empty {
		return "", err
	}
	if b, err := bot.Simplify(g.ctx); err == nil {
		bot = b
	}
	return "out cells " + clip(bot.String(), 300), nil
}

// garbageFallback generates the kernel's conditions again without garbage
// writes, from the walk w0 of the ordinary prophecy pr0, when a condition
// on ⊥ failed: ⊥ reaches an out cell or conflicts with a value. The
// kernel is wrong either way (a statement reads a cell never written and
// its result matters); the ordinary conditions say so where the garbage
// starts, an undefined read that the reference interpreter reproduces,
// rather than where it ends. n is the number of conditions before the
// kernel's (the specification's), which are kept.
func (g *gen) garbageFallback(w0 *heapWalker, pr0 *Prophecy, n int) error {
	g.tracef(0, "garbage writes: the undefined value %s; back to the ordinary conditions", g.harmReach())
	g.harmful = g.garbage
	g.a.Conditions = g.a.Conditions[:n]
	if g.refutedBy > n {
		g.refutedBy = 0
	}
	g.pr, g.a.Prophecy, g.garbage, g.ordinary = pr0, pr0, nil, nil
	g.a.Garbage.Fallback, g.a.Garbage.Statements = true, 0
	g.a.Garbage.Reason = "the undefined value " + g.harmReach()
	return g.kernelConditions(w0)
}

// clip shortens s to at most n bytes, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// garbageOutputs returns the cells of the kernel's out bindings that hold
// ⊥ in the final prophetic heap, under the kernel's assumptions.
func garbageOutputs(ctx context.Context, pr *Prophecy, k *sched.Kernel) (_ *presburger.UnionMap, err error) {
	defer guard(&err, "garbage outputs")
	cells, err := outputCells(pr, k)
	if err != nil {
		return nil, err
	}
	bot, err := cells.Intersect(garbageCells(pr.Final))
	if err != nil {
		return nil, fmt.Errorf("garbage outputs: %w", err)
	}
	return bot.Simplify(ctx)
}
