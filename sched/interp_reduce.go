package sched

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// This file is the reference semantics of reductions (Clément 2022,
// Sections 7.3.5-7.3.6): accumulations `OP=` update a cell with the
// operator, and every cell holding a partial result carries, as ghost
// state, the reduction element it computes and the set of positions
// accumulated into it since its initialisation. The ghost state makes the
// rules checkable on one run: an initialisation stores the identity; an
// accumulation adds the body at a position of the domain not yet
// accumulated; a merge adds a partial result of the same element with
// disjoint positions; a read other than a merge's, and an out binding,
// find every position accumulated. In a par loop accumulations are atomic:
// several iterations may accumulate into one cell (their updates commute),
// but a cell one iteration accumulates into may not be read or written by
// another.

// ghost is the reduction state of a cell holding a partial result.
type ghost struct {
	tensor string
	x      []int64
	op     expr.ReduceOp
	pos    map[string][]int64 // positions accumulated, by key
}

func (g *ghost) tag() string { return expr.FormatIndex(g.tensor, g.x, '(', ')') }

func (g *ghost) same(o *ghost) bool {
	return g != nil && o != nil && g.tag() == o.tag()
}

func (g *ghost) clone() *ghost {
	c := &ghost{tensor: g.tensor, x: g.x, op: g.op, pos: make(map[string][]int64, len(g.pos))}
	for k, p := range g.pos {
		c.pos[k] = p
	}
	return c
}

// overlap returns a position of o also in g, if any.
func (g *ghost) overlap(o *ghost) ([]int64, bool) {
	for _, k := range sortedKeys(o.pos) {
		if _, ok := g.pos[k]; ok {
			return o.pos[k], true
		}
	}
	return nil, false
}

func (g *ghost) add(o *ghost) {
	for k, p := range o.pos {
		g.pos[k] = p
	}
}

func sortedKeys(m map[string][]int64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func posKey(pt []int64) string { return fmt.Sprint(pt) }

func formatPos(pt []int64) string {
	parts := make([]string, len(pt))
	for i, n := range pt {
		parts[i] = fmt.Sprint(n)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// accum is what one frame accumulated into a cell it does not own and did
// not write: the combined value and the positions. A garbage accum
// accumulated ⊥ (Options.PoisonValueFailures: an accumulation or merge
// that wrote ⊥ for a failed check or for reading ⊥); it has no ghost
// state, and the cell holds ⊥ once it is applied, whatever else is
// accumulated into it.
type accum struct {
	delta   value.Value
	g       *ghost
	stmt    *Assign
	garbage bool
}

// view returns a cell's value and ghost state as the current frame sees
// them, its own and its ancestors' accumulations included.
func (in *interp) view(l loc) (value.Value, *ghost) {
	var accs []*accum
	var v value.Value
	var g *ghost
	found := false
	for f := in.frame; f != nil && f != l.s.owner; f = f.parent {
		if a, ok := f.accs[l]; ok {
			accs = append(accs, a)
		}
		if w, ok := f.writes[l]; ok {
			v, g, found = w.v, w.ghost, true
			break
		}
	}
	if !found {
		v = l.s.cells[l.off]
		g = l.s.ghosts[l.off]
	}
	for i := len(accs) - 1; i >= 0; i-- {
		a := accs[i]
		if a.garbage {
			v = value.Undef(l.s.elem)
			continue
		}
		if nv, err := a.g.op.Apply(v, a.delta); err == nil {
			v = nv
		}
		if g != nil {
			g = g.clone()
			g.add(a.g)
		}
	}
	return v, g
}

// accumulate applies v (with the positions of d) to a cell in the current
// frame.
func (in *interp) accumulate(l loc, v value.Value, d *ghost, stmt *Assign) {
	f := in.frame
	if f == l.s.owner {
		nv, _ := d.op.Apply(l.s.cells[l.off], v)
		l.s.cells[l.off] = nv
		if g := l.s.ghosts[l.off]; g != nil {
			g.add(d)
		}
		return
	}
	if w, ok := f.writes[l]; ok {
		w.v, _ = d.op.Apply(w.v, v)
		if w.ghost != nil {
			w.ghost = w.ghost.clone()
			w.ghost.add(d)
		}
		f.writes[l] = w
		return
	}
	if f.accs == nil {
		f.accs = map[loc]*accum{}
	}
	if a, ok := f.accs[l]; ok {
		if a.garbage {
			return
		}
		a.delta, _ = d.op.Apply(a.delta, v)
		a.g.add(d)
		return
	}
	f.accs[l] = &accum{delta: v, g: d.clone(), stmt: stmt}
	f.accOrder = append(f.accOrder, l)
}

// complete checks that a cell read other than by a merge, or checked by
// an out binding, holds no partial result missing positions.
func (in *interp) complete(g *ghost) (missing []int64, err error) {
	dom, err := in.ev.ReductionDomain(in.ctx, g.tensor, g.x)
	if err != nil {
		return nil, err
	}
	for _, pt := range dom {
		if _, ok := g.pos[posKey(pt)]; !ok {
			return pt, nil
		}
	}
	return nil, nil
}

// incomplete builds the failure of a read of an incomplete partial result.
func (in *interp) incomplete(node interface{ Pos() syntax.Pos }, cell string, g *ghost, missing []int64) *Failure {
	return in.nodeFailure(IncompleteReduction, node, "%s holds a partial result of %s without position %s (%d of its positions accumulated)",
		cell, g.tag(), formatPos(missing), len(g.pos))
}

// reductionAssign runs an initialisation, an accumulation or a merge.
//
// With garbage writes (Options.GarbageWrites), an assignment whose value
// reads a cell holding no defined value, or an accumulation or merge into
// a cell holding the undefined value ⊥ of an earlier garbage write, is a
// garbage write, as in the verifier: it puts ⊥ in its cell and its value
// is not checked (neither against the identity nor against the body of
// its position, which need not be in the domain), while the bookkeeping of
// the partial results (the operator, the cell an accumulator of the
// element, no position twice) is checked as usual.
func (in *interp) reductionAssign(s *Assign) error {
	in.res.Assignments++
	st := in.lookup(s.Array.Name)
	red, ok := reductionOf(s, in.info.spec)
	if st == nil || !ok {
		return fmt.Errorf("%s: malformed reduction assignment (was the kernel checked?)", s.Pos())
	}
	x, err := in.reductionElement(s, red)
	if err != nil {
		return err
	}
	tag := expr.FormatIndex(red.tensor, x, '(', ')')
	op := red.op

	// The value: a merge reads its source cell with its ghost state.
	v, src, srcCell, read, garbage, err := in.reductionValue(s)
	var partial *Failure
	if err != nil {
		// A read of an incomplete partial result, with
		// Options.PoisonValueFailures: a wrong value, which the
		// assignment stores as ⊥ (below).
		if !in.poisons() || !errors.As(err, &partial) || partial.Kind != IncompleteReduction {
			return err
		}
	}
	off, idx, err := in.target(s, st, nil)
	if err != nil {
		return err
	}
	l := loc{s: st, off: off}
	if partial != nil {
		return in.poison(s, l, partial)
	}
	cell := formatCell(st.name, idx)
	fail := func(kind Kind, format string, args ...any) *Failure {
		f := in.failure(kind, s, format, args...)
		f.Array, f.Index, f.Tensor = st.name, idx, tag
		return f
	}
	// bad is fail for a failure of the value stored or of the
	// bookkeeping, which writes ⊥ instead with
	// Options.PoisonValueFailures.
	bad := func(kind Kind, format string, args ...any) error {
		return in.poison(s, l, fail(kind, format, args...))
	}
	isInit := s.At != nil && len(s.At) == 0
	if in.opts.GarbageWrites && !isInit && in.holdsGarbage(l) {
		// An accumulation or a merge reads its cell too.
		garbage, read = true, &cellRef{s: st, idx: idx}
	}
	if garbage && in.poisons() {
		in.poisonedReduction(s, l, read)
		return nil
	}
	if garbage {
		in.res.GarbageWrites++
		v = value.Undef(red.elem)
	} else {
		if v.IsUndef() {
			f := fail(UndefinedStore, "the value stored into %s is undefined", cell)
			f.Actual = v
			return in.poison(s, l, f)
		}
		if dom, err := in.ev.ReductionDomain(in.ctx, red.tensor, x); err != nil {
			return fmt.Errorf("reduction %s at %s: %w", tag, s.Pos(), err)
		} else if dom == nil {
			return fail(UndefinedAnnotation, "the annotation %s of %s is undefined", tag, cell)
		}
	}
	if s.Op != expr.NoReduce && s.Op != op {
		return bad(WrongOperator, "%s %s= %s, but %s is a %s reduction", cell, s.Op, v, tag, op)
	}
	d := &ghost{tensor: red.tensor, x: x, op: op, pos: map[string][]int64{}}
	switch {
	case isInit:
		id := op.Identity(red.elem)
		if !garbage && !in.opts.Equality.Equal(v, id) {
			f := fail(WrongIdentity, "%s := %s initialises an accumulator of %s, but the identity of %s on %s is %s",
				cell, v, tag, op, red.elem, op.IdentityText(red.elem))
			f.Expected, f.Actual = id, v
			return in.poison(s, l, f)
		}
		in.storeCellGhost(l, v, s, d)
		return nil
	case s.At != nil:
		// Accumulation.
		pt, err := evalIndices(s.At, in)
		if err != nil {
			return in.indexFailure(s, err)
		}
		if !garbage {
			body, inDom, err := in.ev.ReductionBody(in.ctx, red.tensor, x, pt)
			if err != nil {
				return fmt.Errorf("reduction %s at %s: %w", tag, s.Pos(), err)
			}
			if !inDom {
				return bad(OutsideReduction, "position %s is outside the domain of the reduction %s", formatPos(pt), tag)
			}
			if !in.accepts(body, v) {
				f := fail(WrongValue, "%s %s= %s, but position %s of %s is %s", cell, op, v, formatPos(pt), tag, body)
				f.Expected, f.Actual = body, v
				return in.poison(s, l, f)
			}
		}
		_, g := in.view(l)
		if !g.same(d) {
			return bad(NotAccumulator, "%s accumulates into %s, which holds %s", cell, tag, describeGhost(g))
		}
		if _, dup := g.pos[posKey(pt)]; dup {
			return bad(DoubleCount, "position %s of %s is accumulated into %s a second time", formatPos(pt), tag, cell)
		}
		d.pos[posKey(pt)] = pt
	default:
		if stop, err := in.merge(l, d, src, cell, srcCell, tag, bad); stop {
			return err
		}
	}
	in.accumulate(l, v, d, s)
	return nil
}

// merge checks the bookkeeping of a merge into the cell l (named cell) of
// the partial result src read from srcCell, and adds src's positions to
// d, the ghost state the cell gets. On a failure it reports stop with
// what bad returns for it, which ends the assignment.
func (in *interp) merge(l loc, d, src *ghost, cell, srcCell, tag string, bad func(Kind, string, ...any) error) (stop bool, err error) {
	if !src.same(d) {
		return true, bad(NotAccumulator, "the merge into %s reads %s, which holds %s, not a partial result of %s", cell, srcCell, describeGhost(src), tag)
	}
	_, g := in.view(l)
	if !g.same(d) {
		return true, bad(NotAccumulator, "%s merges into %s, which holds %s", cell, tag, describeGhost(g))
	}
	if pt, dup := g.overlap(src); dup {
		return true, bad(DoubleCount, "position %s of %s is in %s and already in %s", formatPos(pt), tag, srcCell, cell)
	}
	d.add(src)
	return false, nil
}

// holdsGarbage reports whether the cell l, which an accumulation or a
// merge reads, holds the ⊥ of a garbage write: an accumulator holding
// ⊥, or, with Options.PoisonValueFailures, any cell a garbage write
// left ⊥.
func (in *interp) holdsGarbage(l loc) bool {
	cur, g := in.view(l)
	return cur.IsUndef() && (g != nil || in.poisons() && in.garbage[l] != nil)
}

// poisonedReduction runs the reduction assignment s, which read ⊥ from
// the cell read (nil if unknown), as a garbage write into its cell l
// with Options.PoisonValueFailures: the cell holds ⊥ whatever the
// bookkeeping, which only values other than ⊥ need.
func (in *interp) poisonedReduction(s *Assign, l loc, read *cellRef) {
	in.res.GarbageWrites++
	if read != nil {
		if roff, ok := read.s.offset(read.idx); ok {
			in.recordGarbage(s, loc{s: read.s, off: roff}, l)
		}
	}
	in.writeGarbage(s, l)
}

// writeGarbage puts ⊥ into the cell l for the assignment s, a garbage
// write with Options.PoisonValueFailures. An initialisation or a plain
// assignment writes the cell. An accumulation or a merge stays what it
// is in the kernel, an update of the cell: inside an iteration of a par
// loop it is one of the loop's atomic accumulations, which the other
// iterations' accumulations into the cell do not conflict with; the cell
// holds ⊥ once the loop ends.
func (in *interp) writeGarbage(s *Assign, l loc) {
	undef := value.Undef(l.s.elem)
	isInit := s.At != nil && len(s.At) == 0
	f := in.frame
	if !s.IsReduction() || isInit || f == l.s.owner {
		in.storeCellGhost(l, undef, s, nil)
		return
	}
	if _, ok := f.writes[l]; ok {
		// The iteration wrote the cell itself: it updates its own value.
		in.storeCellGhost(l, undef, s, nil)
		return
	}
	if f.accs == nil {
		f.accs = map[loc]*accum{}
	}
	if a, ok := f.accs[l]; ok {
		a.delta, a.g, a.garbage = undef, nil, true
		return
	}
	f.accs[l] = &accum{delta: undef, stmt: s, garbage: true}
	f.accOrder = append(f.accOrder, l)
}

// reductionElement returns the indices of the element of the reduction
// red that the reduction assignment s contributes to.
func (in *interp) reductionElement(s *Assign, red reduction) ([]int64, error) {
	x := make([]int64, len(red.call.Args))
	for i, a := range red.call.Args {
		n, err := expr.EvalIndex(a, in)
		if err != nil {
			return nil, in.indexFailure(s, err)
		}
		x[i] = n
	}
	return x, nil
}

// reductionValue evaluates the value of a reduction assignment s: for a
// merge, the partial result in its source cell, with that cell's ghost
// state src and its name srcCell; otherwise s's value expression. With
// garbage writes, a read of a cell holding no defined value gives no
// failure but garbage, set (the assignment is then a garbage write), and
// that cell, read.
func (in *interp) reductionValue(s *Assign) (v value.Value, src *ghost, srcCell string, read *cellRef, garbage bool, err error) {
	ix := MergeSource(s)
	if ix == nil {
		venv := &valueEnv{in: in, stmt: s}
		v, err = expr.EvalValue(s.Value, in.info.Types, venv)
		if err != nil {
			return v, nil, "", nil, false, in.indexFailure(s, err)
		}
		if f := in.readFailure(s, venv); f != nil {
			if in.opts.GarbageWrites && venv.garbageOnly() || in.poisons() && venv.oob == nil && venv.err == nil && venv.undef != nil {
				return v, nil, "", venv.undef, true, nil
			}
			return v, nil, "", nil, false, f
		}
		return v, nil, "", nil, false, nil
	}
	ss := in.lookup(ix.Array.Name)
	if ss == nil {
		return v, nil, "", nil, false, fmt.Errorf("%s: no array %s", s.Pos(), ix.Array.Name)
	}
	idx, err := evalIndices(ix.Indices, in)
	if err != nil {
		return v, nil, "", nil, false, in.indexFailure(s, err)
	}
	off, ok := ss.offset(idx)
	if !ok {
		f := in.failure(OutOfBoundsRead, s, "%s is outside %s%s", formatCell(ss.name, idx), ss.name, formatExtents(ss.ext))
		f.Array, f.Index = ss.name, idx
		return v, nil, "", nil, false, f
	}
	l := loc{s: ss, off: off}
	in.load(l, s) // joins the read set
	v, src = in.view(l)
	srcCell = formatCell(ss.name, idx)
	if v.IsUndef() {
		if in.opts.GarbageWrites {
			return v, src, srcCell, &cellRef{s: ss, idx: idx}, true, nil
		}
		f := in.failure(UndefinedRead, s, "%s holds no defined value", srcCell)
		f.Array, f.Index = ss.name, idx
		return v, nil, "", nil, false, f
	}
	return v, src, srcCell, nil, false, nil
}

func describeGhost(g *ghost) string {
	if g == nil {
		return "no partial result (it was not initialised with @ ())"
	}
	return "a partial result of " + g.tag()
}

func evalIndices(xs []syntax.Expr, env expr.Env) ([]int64, error) {
	out := make([]int64, len(xs))
	for i, x := range xs {
		n, err := expr.EvalIndex(x, env)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// readFailure reports the first out-of-bounds read, then the first read
// of an undefined cell, then the first read of an incomplete partial
// result, of a value evaluated in venv.
func (in *interp) readFailure(s *Assign, venv *valueEnv) error {
	if r := venv.oob; r != nil {
		f := in.failure(OutOfBoundsRead, s, "%s is outside %s%s", formatCell(r.s.name, r.idx), r.s.name, formatExtents(r.s.ext))
		f.Array, f.Index = r.s.name, r.idx
		return f
	}
	if r := venv.undef; r != nil {
		f := in.failure(UndefinedRead, s, "%s holds no defined value", formatCell(r.s.name, r.idx))
		f.Array, f.Index = r.s.name, r.idx
		return f
	}
	if r := venv.partial; r != nil {
		f := in.incomplete(s, formatCell(r.s.name, r.idx), venv.partialGhost, venv.missing)
		f.Array, f.Index = r.s.name, r.idx
		return f
	}
	return venv.err
}

// storeCellGhost writes a cell with its ghost state (nil: a plain value).
func (in *interp) storeCellGhost(l loc, v value.Value, stmt *Assign, g *ghost) {
	f := in.frame
	if f == l.s.owner {
		l.s.cells[l.off] = v
		if g == nil {
			delete(l.s.ghosts, l.off)
		} else {
			if l.s.ghosts == nil {
				l.s.ghosts = map[int]*ghost{}
			}
			l.s.ghosts[l.off] = g
		}
		return
	}
	if _, ok := f.writes[l]; !ok {
		f.writeOrder = append(f.writeOrder, l)
	}
	if f.accs != nil {
		delete(f.accs, l)
	}
	f.writes[l] = write{v: v, stmt: stmt, ghost: g}
}

// parAccs gathers the accumulations of a par loop's iterations.
type parAccs struct {
	byLoc map[loc][]iterAccum
	order []loc
}

type iterAccum struct {
	iter int64
	a    *accum
}

func (p *parAccs) merge(x int64, f *frame) {
	for _, l := range f.accOrder {
		a, ok := f.accs[l]
		if !ok {
			continue
		}
		if p.byLoc == nil {
			p.byLoc = map[loc][]iterAccum{}
		}
		if _, seen := p.byLoc[l]; !seen {
			p.order = append(p.order, l)
		}
		p.byLoc[l] = append(p.byLoc[l], iterAccum{iter: x, a: a})
	}
}

// race finds a cell accumulated into by one iteration and read or written
// by another.
func (p *parAccs) race(sets *parSets) (l loc, acc iterAccum, other int64, os *Assign, write, found bool) {
	for _, l := range p.order {
		for _, ia := range p.byLoc[l] {
			if r := sets.reads[l]; r != nil {
				for j := 0; j < r.n; j++ {
					if r.iters[j] != ia.iter {
						return l, ia, r.iters[j], r.stmts[j], false, true
					}
				}
			}
			if w := sets.writes[l]; w != nil {
				for j := 0; j < w.n; j++ {
					if w.iters[j] != ia.iter {
						return l, ia, w.iters[j], w.stmts[j], true, true
					}
				}
			}
		}
	}
	return loc{}, iterAccum{}, 0, nil, false, false
}

// apply replays the iterations' accumulations in the frame of the par
// loop, checking that they accumulate into partial results of the same
// element with disjoint positions. Atomic accumulations may land in any
// order; the interpreter applies them in decreasing iteration order, one
// legal execution that differs from the sequential one, so that a result
// that depends on the order (a float sum) shows it.
func (p *parAccs) apply(in *interp, s *Loop) error {
	for _, l := range p.order {
		its := p.byLoc[l]
		if g := garbageAccum(its); g != nil {
			// ⊥ was accumulated: the cell holds ⊥ whatever the others
			// accumulate, and their bookkeeping, which only values
			// other than ⊥ need, is not checked.
			in.writeGarbage(g.stmt, l)
			continue
		}
		for i := len(its) - 1; i >= 0; i-- {
			ia := its[i]
			_, g := in.view(l)
			a := ia.a
			if !g.same(a.g) {
				f := in.failure(NotAccumulator, s, "iteration %s=%d accumulates into %s a partial result of %s (%s, at %s), but the cell holds %s",
					s.Var.Name, ia.iter, l, a.g.tag(), StmtLine(a.stmt), a.stmt.Pos(), describeGhost(g))
				f.Array, f.Index = l.s.name, l.index()
				return f
			}
			if pt, dup := g.overlap(a.g); dup {
				f := in.failure(DoubleCount, s, "iteration %s=%d accumulates position %s of %s into %s (%s, at %s), which another iteration or an earlier statement accumulated already",
					s.Var.Name, ia.iter, formatPos(pt), a.g.tag(), l, StmtLine(a.stmt), a.stmt.Pos())
				f.Array, f.Index = l.s.name, l.index()
				return f
			}
			in.accumulate(l, a.delta, a.g, a.stmt)
		}
	}
	return nil
}

// garbageAccum returns the first of the iterations' accumulations into a
// cell that accumulated ⊥, or nil.
func garbageAccum(its []iterAccum) *accum {
	for _, ia := range its {
		if ia.a.garbage {
			return ia.a
		}
	}
	return nil
}
