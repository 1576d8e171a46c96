package symeval

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// This file finds the dead stores of a kernel: the iterations of an
// assignment whose written cell no read of the kernel reads and no out
// binding covers. Nothing uses the value such a store writes, so a
// difference between that value and the assignment's annotation says
// nothing about the kernel's outputs: a compiler that computes a vector's
// lanes past the rows it needs (Halide's sum over the lanes of a
// transposed product) writes values its translator annotates with
// tensor elements that were never meant there.
//
// The set is an under-approximation of the truly dead stores: the cells
// read are those of every read of the array in the same allocation (the
// alloc statement, in the same instance of the loops around it), at any
// time (the reads are not ordered with the write, and the loop
// variables within the allocation are projected out). An iteration it
// calls dead is dead; one it calls live may be dead too.

// deadBudget bounds the Presburger work of one DeadPoints.
var deadBudget = presburger.Budget{MaxSteps: 2_000_000, MaxDisjuncts: 256}

// deadStores holds what DeadPoints needs from the symbolic evaluation:
// the site of every assignment, and the cells read of each allocation
// once computed.
type deadStores struct {
	kernel *sched.Kernel
	params []string
	sites  map[*sched.Assign]site
	// order lists the assignments in program order, for a deterministic
	// union of the cells read.
	order []*sched.Assign
	mu    sync.Mutex
	read  map[allocation]*presburger.UnionMap
}

// allocation identifies the instances of an array: its name and the
// scope of its declaration (an alloc statement's, the kernel's for a
// bound array). Two alloc statements of one name in different branches
// or loops are different allocations.
type allocation struct {
	array string
	scope *Scope
}

// allocationOf returns the allocation of the array that the assignment at
// site at sees.
func allocationOf(array string, at site) allocation {
	return allocation{array: array, scope: at.arrays[array].scope}
}

// record keeps the site of every assignment walked by w.
func (d *deadStores) record(w *heapWalker) {
	d.sites = map[*sched.Assign]site{}
	d.order = nil
	d.read = nil
	for _, st := range w.order {
		if a, ok := st.(*sched.Assign); ok {
			d.sites[a] = w.out[a]
			d.order = append(d.order, a)
		}
	}
}

// SplitDead sets apart the dead stores of the annotation mismatch
// condition c (DeadPoints): it returns dead, the points of c's obligation
// at dead stores, and live, a copy of c whose obligation has the other
// points (nil when there are none). Both are nil when c has no dead
// store.
func (a *Analysis) SplitDead(ctx context.Context, c *Condition) (live *Condition, dead *presburger.Map, err error) {
	dead, err = a.DeadPoints(ctx, c)
	if err != nil || dead == nil {
		return nil, nil, err
	}
	rest, err := c.Obligation.Points.Subtract(presburger.WithBudget(ctx, deadBudget), dead)
	if err != nil {
		if errors.Is(err, presburger.ErrBudget) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	if empty, err := rest.IsEmpty(ctx); err != nil || empty {
		return nil, dead, err
	}
	l := *c
	l.Obligation = &Obligation{Impl: c.Obligation.Impl, Spec: c.Obligation.Spec, Points: rest, Assumed: c.Obligation.Assumed, SpecValue: c.Obligation.SpecValue}
	return &l, dead, nil
}

// DeadPoints returns the points of the value obligation of c, an
// annotation mismatch condition, at iterations of its assignment whose
// written cell no read of the kernel reads and no out binding covers
// (dead stores); nil when there are none, when c is no such condition,
// or when the analysis exceeds its Presburger budget. The result is a
// subset of c.Obligation.Points.
func (a *Analysis) DeadPoints(ctx context.Context, c *Condition) (_ *presburger.Map, err error) {
	defer guard(&err, "dead stores")
	st, ok := c.Stmt.(*sched.Assign)
	if !ok || c.Kind != sched.WrongValue || c.Obligation == nil || a.dead == nil {
		return nil, nil
	}
	d := a.dead
	at, ok := d.sites[st]
	if !ok || d.output(st.Array.Name) {
		return nil, nil
	}
	ctx = presburger.WithBudget(ctx, deadBudget)
	dead, err := d.deadIterations(ctx, st, at)
	if err != nil || dead == nil {
		if errors.Is(err, presburger.ErrBudget) {
			return nil, nil
		}
		return nil, err
	}
	if !slices.Equal(dead.Space().Params, c.Obligation.Points.Space().Params) {
		return nil, nil
	}
	// An obligation of many pieces (interpolate3's upsampling of its
	// coarsest level has some 13,000) times the dead iterations' pieces
	// is built a pair at a time against the budget (intersectAssumed),
	// its empty pairs dropped: built at once, that product ran out of
	// memory before the budget saw a step of it.
	pts, err := intersectAssumed(ctx, c.Obligation.Points, dead)
	if err != nil {
		if errors.Is(err, presburger.ErrBudget) {
			return nil, nil
		}
		return nil, err
	}
	if empty, err := pts.IsEmpty(ctx); err != nil || empty {
		if errors.Is(err, presburger.ErrBudget) {
			return nil, nil
		}
		return nil, err
	}
	return pts, nil
}

// output reports whether the kernel has an out binding of the array.
func (d *deadStores) output(array string) bool {
	for _, b := range d.kernel.Bindings {
		if b.Dir == sched.Out && b.Array.Name == array {
			return true
		}
	}
	return false
}

// deadIterations returns the iterations of st, a parameter domain over
// the scope of its site at, whose written cell is among no cells read of
// its allocation; nil when there are none.
func (d *deadStores) deadIterations(ctx context.Context, st *sched.Assign, at site) (*presburger.Map, error) {
	s := at.scope
	w, err := location(s, &syntax.Index{Array: st.Array, Indices: st.Indices})
	if err != nil {
		return nil, err
	}
	read, err := d.cellsRead(ctx, allocationOf(st.Array.Name, at))
	if err != nil {
		return nil, err
	}
	live := presburger.Empty(presburger.ParamSpace(s.Params()))
	for _, r := range read.Maps() {
		if r.Space().Out.Name != w.Space().Out.Name || r.Space().Out.Dim() != w.Space().Out.Dim() {
			continue
		}
		r, err := respace(r, w.Space())
		if err != nil {
			return nil, err
		}
		hit, err := w.Intersect(r)
		if err != nil {
			return nil, err
		}
		if live, err = live.Union(hit.Params()); err != nil {
			return nil, err
		}
	}
	all := presburger.Universe(presburger.ParamSpace(s.Params()))
	if f := s.Facts(); f != nil {
		all = f
	}
	dead, err := all.Subtract(ctx, live)
	if err != nil {
		return nil, err
	}
	if empty, err := dead.IsEmpty(ctx); err != nil || empty {
		return nil, err
	}
	return dead, nil
}

// cellsRead returns the cells of the allocation al that some read of
// the kernel in it reads, sets over the parameters of its declaration's
// scope (the loop variables within it projected out), computed once per
// allocation.
func (d *deadStores) cellsRead(ctx context.Context, al allocation) (*presburger.UnionMap, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if r, ok := d.read[al]; ok {
		return r, nil
	}
	keep := d.params
	if al.scope != nil {
		keep = al.scope.Params()
	}
	out := presburger.NewUnionMap()
	for _, st := range d.order {
		at := d.sites[st]
		if allocationOf(al.array, at) != al {
			continue
		}
		r, err := readsOf(ctx, at.scope, st.Value, map[string]bool{al.array: true})
		if err != nil {
			return nil, fmt.Errorf("%s: reads of %s: %w", st.Pos(), al.array, err)
		}
		for _, m := range r.Maps() {
			if f := at.scope.Facts(); f != nil {
				if m, err = m.IntersectParams(f); err != nil {
					return nil, err
				}
			}
			p, err := projectParams(m, keep)
			if err != nil {
				return nil, err
			}
			out = out.Union(presburger.NewUnionMap(p))
		}
	}
	if d.read == nil {
		d.read = map[allocation]*presburger.UnionMap{}
	}
	d.read[al] = out
	return out, nil
}

// projectParams projects out of m the parameters not in keep.
func projectParams(m *presburger.Map, keep []string) (*presburger.Map, error) {
	ps := m.Space().Params
	for i := len(ps) - 1; i >= 0; i-- {
		if slices.Contains(keep, ps[i]) {
			continue
		}
		var err error
		if m, err = m.ProjectOut(presburger.DimParam, i, 1); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// DeadStores finds the dead stores of a kernel without its symbolic
// evaluation: the scopes of its statements only, for a failure of a
// concrete run (DeadStores.DeadAt).
type DeadStores struct {
	d *deadStores
}

// NewDeadStores walks the checked kernel k and returns what DeadAt
// needs. assumptions is its parameter domain (Assumptions), or nil.
func NewDeadStores(ctx context.Context, k *sched.Kernel, assumptions *presburger.Map) (_ *DeadStores, err error) {
	defer guard(&err, "dead stores")
	var params []string
	for _, id := range k.Params {
		params = append(params, id.Name)
	}
	s := NewScope(params).charging(ctx)
	if assumptions != nil {
		s = s.WithAssumptions(assumptions)
	}
	d := &deadStores{kernel: k, params: params, sites: map[*sched.Assign]site{}}
	arrays := map[string]arrayDecl{}
	for _, b := range k.Bindings {
		arrays[b.Array.Name] = arrayDecl{extents: b.Extents, scope: s}
	}
	if err := d.walk(ctx, s, arrays, k.Body); err != nil {
		return nil, err
	}
	return &DeadStores{d: d}, nil
}

// walk records the sites of the assignments of st, in scope s with the
// arrays declared around it.
func (d *deadStores) walk(ctx context.Context, s *Scope, arrays map[string]arrayDecl, st sched.Stmt) error {
	switch st := st.(type) {
	case *sched.Block:
		for _, x := range st.Stmts {
			if l, ok := x.(*sched.Let); ok {
				ns, err := s.letScope(ctx, l)
				if err != nil {
					return fmt.Errorf("%s: %w", l.Pos(), err)
				}
				s = ns
				continue
			}
			if err := d.walk(ctx, s, arrays, x); err != nil {
				return err
			}
		}
	case *sched.Assign:
		snap := make(map[string]arrayDecl, len(arrays))
		for k, v := range arrays {
			snap[k] = v
		}
		d.sites[st] = site{scope: s, arrays: snap}
		d.order = append(d.order, st)
	case *sched.If:
		then, els, err := s.ifScopes(st)
		if err != nil {
			return fmt.Errorf("%s: %w", st.Pos(), err)
		}
		if err := d.walk(ctx, then, arrays, st.Then); err != nil {
			return err
		}
		if st.Else != nil {
			return d.walk(ctx, els, arrays, st.Else)
		}
	case *sched.Alloc:
		old, had := arrays[st.Array.Name]
		arrays[st.Array.Name] = arrayDecl{extents: st.Extents, scope: s}
		err := d.walk(ctx, s, arrays, st.Body)
		if had {
			arrays[st.Array.Name] = old
		} else {
			delete(arrays, st.Array.Name)
		}
		return err
	case *sched.Loop:
		inner, _, err := s.loopScope(st)
		if err != nil {
			return fmt.Errorf("%s: %w", st.Pos(), err)
		}
		return d.walk(ctx, inner, arrays, st.Body)
	}
	return nil
}

// DeadAt reports whether the store of the assignment at pos, at the
// parameter and loop variable values of values (by source name), writes
// a cell that no read of the kernel in its allocation reads and no out
// binding covers. False when it cannot tell (no such assignment, a value
// missing, the Presburger budget).
func (ds *DeadStores) DeadAt(ctx context.Context, pos syntax.Pos, values map[string]int64) (dead bool, err error) {
	defer guard(&err, "dead stores")
	d := ds.d
	for _, st := range d.order {
		if st.Pos() != pos || d.output(st.Array.Name) {
			continue
		}
		ctx := presburger.WithBudget(ctx, deadBudget)
		m, err := d.deadIterations(ctx, st, d.sites[st])
		if err != nil || m == nil {
			if errors.Is(err, presburger.ErrBudget) {
				err = nil
			}
			return false, err
		}
		pt := map[string]presburger.Int{}
		for _, p := range m.Space().Params {
			x, ok := values[strings.TrimRight(p, "'")]
			if !ok {
				return false, nil
			}
			pt[p] = presburger.NewInt(x)
		}
		b, err := m.BindParams(pt)
		if err != nil {
			return false, err
		}
		empty, err := b.IsEmpty(ctx)
		if errors.Is(err, presburger.ErrBudget) {
			return false, nil
		}
		return err == nil && !empty, err
	}
	return false, nil
}
