package symeval

import (
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
)

// This file spares the rounds of the garbage writes (garbage.go) the work
// that an earlier round has done already. A round evaluates the whole
// prophecy again and walks the whole kernel again, although only the
// assignments whose garbage iterations changed since the previous round
// write something else: usually one accumulation deep in a tile, while
// the copies of the operands into their tiles, most of the work, are the
// same in every round.
//
// Reuse is by identity, never by comparing sets:
//
//   - a statement none of whose assignments changed its garbage
//     iterations (clean) has the effect it had in the previous round: the
//     effect of a statement depends only on the statement, its scope
//     (which the kernel's text decides) and the writes of its
//     assignments. Its effect, the effects of the statements within it
//     and the iteration effects of its loops are the previous round's
//     objects (reuseEffects);
//   - the walk (symbolic.go) of a statement is the previous round's when
//     the heap it starts from is the very object the previous walk
//     started from, and the statement is clean: every heap within it is
//     then computed from the same objects by the same operations. The
//     update of a block's heap by a statement's effect is the previous
//     round's when both are the same objects;
//   - a loop or conditional that is not clean has the previous round's
//     effect when the effects it is computed from (its body's, its
//     branches') are the previous round's objects, as they are above an
//     alloc that drops the only array whose writes changed
//     (reuseRule, sameEffect);
//   - the undefined reads of an assignment whose site is the previous
//     round's are the previous round's, and its garbage iterations, taken
//     into the sets in that round, cannot grow.
//
// Nothing is approximated: every object reused is one that the previous
// round computed from identical inputs, so a round gives the same sets
// as one computed from scratch. Shared objects are safe because heaps and
// sets are immutable; the rounds share one Contexts table, so that the
// contexts reused effects name keep their meaning.

// roundReuse tells the prophetic evaluation of a round of the garbage
// writes what it may take from the previous round's prophecy.
type roundReuse struct {
	prev *Prophecy
	// changed holds the assignments whose garbage iterations differ from
	// those of prev (by identity).
	changed map[*sched.Assign]bool
	// clean memoises cleanStmt.
	clean map[sched.Stmt]bool
}

// newRoundReuse returns what a prophecy with the garbage iterations gs
// may take from prev, or nil when prev is nil.
func newRoundReuse(prev *Prophecy, gs map[*sched.Assign]*presburger.Map) *roundReuse {
	if prev == nil {
		return nil
	}
	changed := map[*sched.Assign]bool{}
	for st, it := range gs {
		if old, ok := prev.garbage[st]; !ok || old != it {
			changed[st] = true
		}
	}
	for st := range prev.garbage {
		if _, ok := gs[st]; !ok {
			changed[st] = true
		}
	}
	return &roundReuse{prev: prev, changed: changed, clean: map[sched.Stmt]bool{}}
}

// cleanStmt reports whether no assignment within st (st included)
// changed its garbage iterations since the previous round.
func (r *roundReuse) cleanStmt(st sched.Stmt) bool {
	if c, ok := r.clean[st]; ok {
		return c
	}
	c := true
	walkStmt(st, func(x sched.Stmt) bool {
		if a, ok := x.(*sched.Assign); ok && r.changed[a] {
			c = false
		}
		return c
	})
	r.clean[st] = c
	return c
}

// walkStmt calls f on st and the statements within it, depth first, in
// source order, descending into a statement when f returns true.
func walkStmt(st sched.Stmt, f func(sched.Stmt) bool) {
	sched.Walk(&sched.Block{Stmts: []sched.Stmt{st}}, f)
}

// reuseEffects records in p the previous round's effects of st and of the
// statements within it, and returns the effect of st, when st is clean
// and the previous round evaluated it.
func (p *prophet) reuseEffects(st sched.Stmt) (*Heap, bool) {
	r := p.reuse
	if r == nil || !r.cleanStmt(st) {
		return nil, false
	}
	h, ok := r.prev.effects[st]
	if !ok {
		return nil, false
	}
	walkStmt(st, func(x sched.Stmt) bool {
		if e, ok := r.prev.effects[x]; ok {
			p.effects[x] = e
		}
		if l, ok := x.(*sched.Loop); ok {
			if b, ok := r.prev.bodies[l]; ok {
				p.bodies[l] = b
			}
		}
		if o, ok := r.prev.operands[x]; ok {
			p.operands[x] = o
		}
		return true
	})
	p.res.reused++
	return h, true
}

// operands are the heaps the effect of a loop (its body's effect, before
// simplification) or of a conditional (its branches' effects, before
// their restriction to the condition; nil without an else) was
// computed from.
type operands [2]*Heap

// reuseRule returns the previous round's effect of the loop or
// conditional st, when the previous round computed it from the very
// objects ops, and records ops for the next round. A statement that is
// not clean gets new objects from the assignments that changed, but
// those objects may not reach st: an alloc drops the array they write
// (Heap.Drop keeps the other components, the previous round's objects
// when they were computed from the same ones, see sameEffect). The rule
// for st is then applied to the same objects, with st's scope, which the
// kernel's text decides, and gives the same result: the previous
// round's effect, and for a loop its body's effect.
func (p *prophet) reuseRule(st sched.Stmt, ops operands) (*Heap, bool) {
	p.operands[st] = ops
	if p.reuse == nil {
		return nil, false
	}
	if prev, ok := p.reuse.prev.operands[st]; !ok || prev != ops {
		return nil, false
	}
	h, ok := p.reuse.prev.effects[st]
	if !ok {
		return nil, false
	}
	if l, ok := st.(*sched.Loop); ok {
		if _, ok := p.reuse.prev.bodies[l]; !ok {
			return nil, false
		}
	}
	return h, true
}

// sameEffect returns the previous round's effect of st when h has the
// very components of it, in the same order, and h otherwise. The two are
// then the same heap (heaps are immutable), so later rules may recognise
// the previous round's objects (reuseRule, reuseStep).
func (p *prophet) sameEffect(st sched.Stmt, h *Heap) *Heap {
	if p.reuse == nil {
		return h
	}
	prev, ok := p.reuse.prev.effects[st]
	if !ok || prev == h || prev.simplified != h.simplified {
		return h
	}
	a, b := prev.u.Maps(), h.u.Maps()
	if len(a) != len(b) {
		return h
	}
	for i := range a {
		if a[i] != b[i] {
			return h
		}
	}
	return prev
}

// reuseStep returns the previous round's h ▷ d of the block step at st,
// when it was computed from the same objects.
func (p *prophet) reuseStep(st sched.Stmt, h, d *Heap) (*Heap, bool) {
	if p.reuse == nil {
		return nil, false
	}
	m, ok := p.reuse.prev.steps[st]
	if !ok || m.in != h || m.delta != d || m.out == nil {
		return nil, false
	}
	return m.out, true
}

// stepMemo records one step h ▷ d of a block's heap, by identity.
type stepMemo struct {
	in, delta, out *Heap
}

// walkRecord is what a walk records of a statement for the next round's.
type walkRecord struct {
	// in is the heap of the enclosing block before the statement (before
	// it is cut down to the arrays the statement reads), kept the heap
	// cut down.
	in, kept *Heap
	// from and to delimit the statement's assignments and loops in the
	// walk's order.
	from, to int
	// step is the update of the block's heap by the statement's effect.
	step stepMemo
	// body is the heap the body of a loop starts from, computed from
	// loopIn and, for a sequential loop, its iteration effect loopDelta.
	loopIn, loopDelta, body *Heap
}

// reuseWalk copies into w the previous walk of st, which started from the
// heap h, when st is clean and the previous walk started it from the
// same object. It reports whether it did.
func (w *heapWalker) reuseWalk(st sched.Stmt, h *Heap) bool {
	pw := w.prev
	if pw == nil || w.reuse == nil || !w.reuse.cleanStmt(st) {
		return false
	}
	rec, ok := pw.recs[st]
	if !ok || rec.in != h {
		return false
	}
	shift := len(w.order) - rec.from
	for _, x := range pw.order[rec.from:rec.to] {
		switch x := x.(type) {
		case *sched.Assign:
			w.out[x] = pw.out[x]
		case *sched.Loop:
			w.loops[x] = pw.loops[x]
		}
		w.order = append(w.order, x)
	}
	walkStmt(st, func(x sched.Stmt) bool {
		if r, ok := pw.recs[x]; ok {
			c := *r
			c.from += shift
			c.to += shift
			w.recs[x] = &c
		}
		return true
	})
	if w.trace != nil {
		w.tracef("%s  (at %s): as in the previous round", sched.StmtLine(st), st.Pos())
	}
	w.reused++
	return true
}

// reuseKept returns the previous walk's heap h cut down to the arrays st
// reads, when the previous walk cut down the same object.
func (w *heapWalker) reuseKept(st sched.Stmt, h *Heap) (*Heap, bool) {
	if w.prev == nil {
		return nil, false
	}
	rec, ok := w.prev.recs[st]
	if !ok || rec.in != h || rec.kept == nil {
		return nil, false
	}
	return rec.kept, true
}

// reuseStep returns the previous walk's h ▷ d of the block step at st,
// when it was computed from the same objects.
func (w *heapWalker) reuseStep(st sched.Stmt, h, d *Heap) (*Heap, bool) {
	if w.prev == nil {
		return nil, false
	}
	rec, ok := w.prev.recs[st]
	if !ok || rec.step.in != h || rec.step.delta != d || rec.step.out == nil {
		return nil, false
	}
	return rec.step.out, true
}

// reuseBody returns the previous walk's starting heap of the body of loop
// l, when it was computed from the same objects.
func (w *heapWalker) reuseBody(l *sched.Loop, h, delta *Heap) (*Heap, bool) {
	if w.prev == nil {
		return nil, false
	}
	rec, ok := w.prev.recs[l]
	if !ok || rec.loopIn != h || rec.loopDelta != delta || rec.body == nil {
		return nil, false
	}
	return rec.body, true
}

// record returns the record of st in w, created on first use.
func (w *heapWalker) record(st sched.Stmt) *walkRecord {
	r, ok := w.recs[st]
	if !ok {
		r = &walkRecord{}
		w.recs[st] = r
	}
	return r
}

// sameSite reports whether the site of the assignment st in w is the one
// of the previous walk (by identity): its undefined reads are then the
// previous round's.
func (w *heapWalker) sameSite(st *sched.Assign) bool {
	if w.prev == nil {
		return false
	}
	a, ok := w.out[st]
	b, ok2 := w.prev.out[st]
	return ok && ok2 && a.heap == b.heap && a.scope == b.scope
}

// prophecy returns the prophecy of the walk w, or nil when w is nil.
func (w *heapWalker) prophecy() *Prophecy {
	if w == nil {
		return nil
	}
	return w.pr
}
