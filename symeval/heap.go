package symeval

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/augur-verify/augur/presburger"
)

// Heap is a symbolic heap (Clément 2022, section 5.2): a presburger relation
// from array cells a[i1, ..., in] (the input tuple is named after the
// array) to symbolic values E[h1, ..., hm] (the output tuple is named after
// an expression context of a Contexts table, its coordinates fill the
// context's holes). Several contexts may share one array; the relation
// is a union of maps, one per (array, context) pair.
//
// The parameters of a heap are the kernel's parameters and the loop
// variables in scope where it was built. A Heap is immutable.
type Heap struct {
	u *presburger.UnionMap
	// simplified: h is what Simplify returned (or a part of it), which
	// simplifying again leaves as it is.
	simplified bool
}

// EmptyHeap returns the heap without cells.
func EmptyHeap() *Heap { return &Heap{u: presburger.NewUnionMap()} }

// NewHeap returns the heap whose relation is u.
func NewHeap(u *presburger.UnionMap) *Heap { return &Heap{u: u} }

// UnionMap returns the relation of h.
func (h *Heap) UnionMap() *presburger.UnionMap { return h.u }

// Maps returns the (array, context) components of h.
func (h *Heap) Maps() []*presburger.Map { return h.u.Maps() }

// String prints h in isl notation, contexts by their tuple names.
func (h *Heap) String() string { return h.u.String() }

// Describe prints h one component per line, with each context's tuple
// name followed by its template, e.g. "c[i, j] -> E1 = R(□1, □2, □3): ...".
func (h *Heap) Describe(cs *Contexts) string {
	var lines []string
	for _, m := range h.u.Maps() {
		name := m.Space().Out.Name
		tmpl := "?"
		if c := cs.Lookup(name); c != nil {
			tmpl = c.String()
		}
		lines = append(lines, fmt.Sprintf("%s = %s: %s", name, tmpl, m))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// Update returns h ▷ o (Clément 2022, Definition 5.2.2): the cells o writes
// take o's contents, the others keep h's.
func (h *Heap) Update(ctx context.Context, o *Heap) (_ *Heap, err error) {
	defer guard(&err, "update")
	if len(o.u.Maps()) == 0 {
		return h, nil
	}
	if len(h.u.Maps()) == 0 {
		return o, nil
	}
	u, err := presburger.Update(ctx, h.u, o.u)
	if err != nil {
		return nil, fmt.Errorf("update: %w", err)
	}
	return &Heap{u: u}, nil
}

// Union returns h ∪ o.
func (h *Heap) Union(o *Heap) *Heap { return &Heap{u: h.u.Union(o.u)} }

// Restrict returns h where the parameter domain p holds (h ∩ p).
func (h *Heap) Restrict(p *presburger.Map) (_ *Heap, err error) {
	defer guard(&err, "restrict heap")
	if len(h.u.Maps()) == 0 {
		return h, nil
	}
	u, err := h.u.IntersectParams(p)
	if err != nil {
		return nil, fmt.Errorf("restrict heap: %w", err)
	}
	return &Heap{u: u}, nil
}

// Drop returns h without the cells of array a (h \ a).
func (h *Heap) Drop(a string) *Heap {
	var keep []*presburger.Map
	for _, m := range h.u.Maps() {
		if m.Space().In != nil && m.Space().In.Name == a {
			continue
		}
		keep = append(keep, m)
	}
	return &Heap{u: presburger.NewUnionMap(keep...), simplified: h.simplified}
}

// keep returns h restricted to the cells of the arrays named in arrays
// (h itself when it has no other cells).
func (h *Heap) keep(arrays map[string]bool) *Heap {
	ms := h.u.Maps()
	for i, m := range ms {
		if m.Space().In != nil && arrays[m.Space().In.Name] {
			continue
		}
		out := append([]*presburger.Map(nil), ms[:i]...)
		for _, m := range ms[i+1:] {
			if m.Space().In != nil && arrays[m.Space().In.Name] {
				out = append(out, m)
			}
		}
		return &Heap{u: presburger.NewUnionMap(out...), simplified: h.simplified}
	}
	return h
}

// Iterate returns the iterated update ▶_{x in bound} h (Clément 2022,
// Definition 5.2.4): for every cell, the contents written by the last value
// of the parameter x within the parameter domain bound that writes it.
func (h *Heap) Iterate(ctx context.Context, x string, bound *presburger.Map) (_ *Heap, err error) {
	defer guard(&err, "iterated update")
	if len(h.u.Maps()) == 0 {
		return h, nil
	}
	u, err := presburger.IteratedUpdate(ctx, h.u, x, bound)
	if err != nil {
		return nil, fmt.Errorf("iterated update over %s: %w", x, err)
	}
	return &Heap{u: u}, nil
}

// iterateCells is Iterate that also returns, for the arrays that several
// components of h write, the union of those components' cells over h's
// parameters (x among them), coalesced: what cellsOver starts from.
func (h *Heap) iterateCells(ctx context.Context, x string, bound *presburger.Map) (_ *Heap, cells map[string]*presburger.Map, err error) {
	return h.iterateCellsFrom(ctx, x, bound, nil)
}

// iterateCellsFrom is iterateCells with the cells of some arrays known
// already, as presburger.IteratedUpdateCellsFrom takes them.
func (h *Heap) iterateCellsFrom(ctx context.Context, x string, bound *presburger.Map, known map[string]*presburger.Map) (_ *Heap, cells map[string]*presburger.Map, err error) {
	defer guard(&err, "iterated update")
	if len(h.u.Maps()) == 0 {
		return h, nil, nil
	}
	u, cells, err := presburger.IteratedUpdateCellsFrom(ctx, h.u, x, bound, known)
	if err != nil {
		return nil, nil, fmt.Errorf("iterated update over %s: %w", x, err)
	}
	return &Heap{u: u}, cells, nil
}

// UnionOver returns ∪_{x in bound} h, the union of h over the values of the
// parameter x in the parameter domain bound; x is no longer a parameter of
// the result.
func (h *Heap) UnionOver(x string, bound *presburger.Map) (_ *Heap, err error) {
	defer guard(&err, "union over "+x)
	var out []*presburger.Map
	for _, m := range h.u.Maps() {
		r, err := m.IntersectParams(bound)
		if err != nil {
			return nil, fmt.Errorf("union over %s: %w", x, err)
		}
		if i := paramIndex(r.Space(), x); i >= 0 {
			if r, err = r.ProjectOut(presburger.DimParam, i, 1); err != nil {
				return nil, fmt.Errorf("union over %s: %w", x, err)
			}
		}
		out = append(out, r)
	}
	return &Heap{u: presburger.NewUnionMap(out...)}, nil
}

func paramIndex(sp presburger.Space, x string) int {
	for i, p := range sp.Params {
		if p == x {
			return i
		}
	}
	return -1
}

// SingleValued returns ν(h) (Clément 2022, section 5.2): h itself when every
// cell has at most one content, otherwise a subset of h with the same
// cells and one content per cell, chosen arbitrarily (here: the first
// context in the order of the components, then the lexicographically
// smallest hole values). The choice is only meaningful where the
// contents of a cell all have the same value, which the verifier must
// establish separately (ww-covered, Clément 2022, Fig. 5.4).
func (h *Heap) SingleValued(ctx context.Context) (_ *Heap, err error) {
	defer guard(&err, "single-valued")
	ok, err := h.u.IsSingleValued(ctx)
	if err != nil {
		return nil, fmt.Errorf("single-valued: %w", err)
	}
	if ok {
		return h, nil
	}
	covered := map[string]*presburger.Map{} // array shape -> cells already given a content
	var out []*presburger.Map
	for _, m := range h.u.Maps() {
		lm := m
		sv, err := m.IsSingleValued(ctx)
		if err != nil {
			return nil, fmt.Errorf("single-valued: %w", err)
		}
		if !sv {
			if lm, err = presburger.LexMinMap(ctx, m); err != nil {
				return nil, fmt.Errorf("single-valued: %w", err)
			}
		}
		dom := lm.Domain()
		k := dom.Space().Key()
		if c, ok := covered[k]; ok {
			rest, err := dom.Subtract(ctx, c)
			if err != nil {
				return nil, fmt.Errorf("single-valued: %w", err)
			}
			if lm, err = lm.IntersectDomain(rest); err != nil {
				return nil, fmt.Errorf("single-valued: %w", err)
			}
			if covered[k], err = c.Union(dom); err != nil {
				return nil, fmt.Errorf("single-valued: %w", err)
			}
		} else {
			covered[k] = dom
		}
		out = append(out, lm)
	}
	return &Heap{u: presburger.NewUnionMap(out...)}, nil
}

// coalesceSteps bounds the work of coalescing one component of a heap;
// past it the component is kept as it is.
const coalesceSteps = 50_000

// simplifyPieceSteps bounds the work of simplifying one piece of a
// component too large (or too costly) to simplify as a whole; past it the
// piece is kept as it is.
const simplifyPieceSteps = 20_000

// coalescer returns presburger.CoalesceSimplified for a map whose pieces
// are simplified, none empty (simplified), and presburger.Coalesce,
// which drops empty pieces first, otherwise.
func coalescer(simplified bool) func(context.Context, *presburger.Map) (*presburger.Map, error) {
	if simplified {
		return presburger.CoalesceSimplified
	}
	return presburger.Coalesce
}

// Simplify returns h with empty components dropped and the others
// simplified and coalesced. Both are best effort, for they only change
// the representation: a component whose simplification exceeds its
// budget is simplified piece by piece, a piece past simplifyPieceSteps
// steps kept as it is (presburger.Map.SimplifyBestEffort); a component
// whose coalescing exceeds coalesceSteps steps is kept uncoalesced. The
// steps spent count against the evaluation's allowance either way.
func (h *Heap) Simplify(ctx context.Context) (_ *Heap, err error) {
	defer guard(&err, "simplify heap")
	if h.simplified {
		return h, nil
	}
	var out []*presburger.Map
	for _, m := range h.u.Maps() {
		m, done, err := m.SimplifyBestEffort(ctx, simplifyPieceSteps)
		if err != nil {
			return nil, fmt.Errorf("simplify heap: %w", err)
		}
		if m.NumBasics() == 0 {
			continue
		}
		// Pieces kept as they are (not done) may be empty: coalescing
		// drops them first.
		c, err := coalescer(done)(presburger.WithBudget(ctx, presburger.Budget{MaxSteps: coalesceSteps}), m)
		switch {
		case errors.Is(err, presburger.ErrBudget):
			// Coalescing only changes the representation: keep m, or
			// its pieces coalesced a form at a time when it has many.
			if c, err = coalesceFormsOf(ctx, m, done); err != nil {
				return nil, err
			}
			out = append(out, c)
			continue
		case err != nil:
			return nil, fmt.Errorf("coalesce heap: %w", err)
		}
		// Merged pieces may have duplicate constraints and equalities
		// written as two inequalities; simplify again (when nothing
		// merged, the pieces are m's, already simple).
		if c.NumBasics() == m.NumBasics() {
			out = append(out, m)
			continue
		}
		switch c, err = c.Simplify(ctx); {
		case errors.Is(err, presburger.ErrBudget):
			out = append(out, m)
			continue
		case err != nil:
			return nil, fmt.Errorf("simplify heap: %w", err)
		}
		out = append(out, c)
	}
	return &Heap{u: presburger.NewUnionMap(out...), simplified: true}, nil
}

// arrays returns the names of the arrays h has cells of.
func (h *Heap) arrays() map[string]bool {
	out := map[string]bool{}
	for _, m := range h.u.Maps() {
		if in := m.Space().In; in != nil {
			out[in.Name] = true
		}
	}
	return out
}

// simplifyArrays is Simplify for the components of the arrays named in
// arrays only: the others are kept as they are.
func (h *Heap) simplifyArrays(ctx context.Context, arrays map[string]bool) (*Heap, error) {
	var keep, sel []*presburger.Map
	for _, m := range h.u.Maps() {
		if in := m.Space().In; in != nil && arrays[in.Name] {
			sel = append(sel, m)
		} else {
			keep = append(keep, m)
		}
	}
	switch {
	case len(sel) == 0:
		return h, nil
	case len(keep) == 0:
		return h.Simplify(ctx)
	}
	s, err := NewHeap(presburger.NewUnionMap(sel...)).Simplify(ctx)
	if err != nil {
		return nil, err
	}
	return &Heap{u: presburger.NewUnionMap(append(keep, s.u.Maps()...)...)}, nil
}

// Content is one content of a cell in an instantiated heap: a context and
// the integer values of its holes.
type Content struct {
	Context string
	Holes   []presburger.Int
}

// Bind fixes every parameter of h to the given values (for instance the
// kernel's parameters at a concrete size) and removes them.
func (h *Heap) Bind(params map[string]int64) (_ *Heap, err error) {
	defer guard(&err, "bind heap")
	vals := map[string]presburger.Int{}
	for k, v := range params {
		vals[k] = presburger.NewInt(v)
	}
	var out []*presburger.Map
	for _, m := range h.u.Maps() {
		sub := map[string]presburger.Int{}
		for _, p := range m.Space().Params {
			v, ok := vals[p]
			if !ok {
				return nil, fmt.Errorf("bind heap: no value for parameter %s", p)
			}
			sub[p] = v
		}
		b, err := m.BindParams(sub)
		if err != nil {
			return nil, fmt.Errorf("bind heap: %w", err)
		}
		out = append(out, b)
	}
	return &Heap{u: presburger.NewUnionMap(out...)}, nil
}

// At returns the contents of cell array[idx] in a heap without
// parameters (see Bind), at most limit of them (an error past it).
func (h *Heap) At(ctx context.Context, array string, idx []int64, limit int) (_ []Content, err error) {
	defer guard(&err, "heap cell")
	var out []Content
	for _, m := range h.u.Maps() {
		sp := m.Space()
		if sp.In == nil || sp.In.Name != array || sp.NumIn() != len(idx) {
			continue
		}
		if sp.NumParams() != 0 {
			return nil, fmt.Errorf("cell %s: the heap still has parameters %v", array, sp.Params)
		}
		cell := m
		var err error
		for k, v := range idx {
			if cell, err = cell.FixDim(presburger.DimIn, k, presburger.NewInt(v)); err != nil {
				return nil, err
			}
		}
		for {
			pt, err := cell.Sample(ctx)
			if err != nil {
				return nil, fmt.Errorf("cell %s%v: %w", array, idx, err)
			}
			if pt == nil {
				break
			}
			holes := pt[len(idx):]
			out = append(out, Content{Context: sp.Out.Name, Holes: holes})
			if len(out) > limit {
				return nil, fmt.Errorf("cell %s%v has more than %d contents", array, idx, limit)
			}
			single := cell
			for k, v := range holes {
				if single, err = single.FixDim(presburger.DimOut, k, v); err != nil {
					return nil, err
				}
			}
			if cell, err = cell.Subtract(ctx, single); err != nil {
				return nil, fmt.Errorf("cell %s%v: %w", array, idx, err)
			}
		}
	}
	return out, nil
}

// cellsOver returns, by array, the cells that h writes for some value of
// its parameter x in the parameter domain bound, ∪_{x in bound} dom(h),
// in few pieces; x is no longer a parameter of the result.
// These are the cells of the iterated update ▶_{x in bound} h (Iterate),
// which writes every cell some iteration writes (Clément 2022,
// Definition 5.2.4), found by a projection instead of the last writes.
//
// known, if not nil, holds for some arrays the union of the cells of h's
// components, coalesced by presburger.CompactUnion, as iterateCells
// returns it for h: the same set and pieces as the compaction below, which
// is then not done again (it was most of the cost of cellsOver after a
// garbage write, whose two components write every array twice).
func (h *Heap) cellsOver(ctx context.Context, x string, bound *presburger.Map, known map[string]*presburger.Map) (_ map[string]*presburger.Map, err error) {
	defer guard(&err, "cells over "+x)
	out := map[string]*presburger.Map{}
	for _, m := range h.u.Maps() {
		in := m.Space().In
		if in == nil {
			return nil, fmt.Errorf("cells over %s: component %s is not a relation", x, m.Space())
		}
		d := m.Domain()
		if old, ok := out[in.Name]; ok {
			if d, err = old.Union(d); err != nil {
				return nil, fmt.Errorf("cells over %s: %w", x, err)
			}
		}
		out[in.Name] = d
	}
	for a, d := range out {
		// Compact before the projection, while the pieces have no
		// existential variable (coalescing merges none): the cells an
		// assignment writes, split between a value and ⊥ at its
		// garbage iterations (garbageWrite), are then one piece again.
		if k, ok := known[a]; ok {
			d = k
		} else if d, err = presburger.CompactUnion(ctx, d); err != nil {
			return nil, fmt.Errorf("cells over %s: %w", x, err)
		}
		if d, err = d.IntersectParams(bound); err != nil {
			return nil, fmt.Errorf("cells over %s: %w", x, err)
		}
		if i := paramIndex(d.Space(), x); i >= 0 {
			if d, err = d.ProjectOut(presburger.DimParam, i, 1); err != nil {
				return nil, fmt.Errorf("cells over %s: %w", x, err)
			}
		}
		if out[a], err = compactDomain(ctx, d); err != nil {
			return nil, fmt.Errorf("cells over %s: %w", x, err)
		}
	}
	return out, nil
}

// updateCells returns h ▷ o (Update) given, by array, the cells o writes:
// cells[a] must be exactly the cells of o's components of array a, for
// every array o writes. The cells of h there are dropped and o's
// contents added; a set of cells in fewer pieces than o's components
// (cellsOver) splits h's components less. The cells must be exact: more,
// and h would lose contents that o does not replace; fewer, and a cell
// would keep h's stale content beside o's (a wrong value could then be
// read). cellsOver computes them exactly.
//
// A component of h whose context has no hole (⊥, a constant) loses only
// the cells that o gives another content (see otherCells): the cells
// that o writes with the same context keep it, whatever their pieces.
func (h *Heap) updateCells(ctx context.Context, o *Heap, cells map[string]*presburger.Map) (_ *Heap, err error) {
	defer guard(&err, "update")
	res := append([]*presburger.Map(nil), o.u.Maps()...)
	for _, m := range h.u.Maps() {
		d, ok := cells[m.Space().In.Name]
		if !ok {
			res = append(res, m)
			continue
		}
		if m.Space().NumOut() == 0 {
			other, same, err := otherCells(o, m.Space())
			if err != nil {
				return nil, fmt.Errorf("update: %w", err)
			}
			switch {
			case !same:
			case other == nil:
				// o writes the array with m's content only.
				res = append(res, m)
				continue
			default:
				d = other
			}
		}
		kept, err := m.SubtractDomain(ctx, d)
		if err != nil {
			return nil, fmt.Errorf("update: %w", err)
		}
		res = append(res, kept)
	}
	return &Heap{u: presburger.NewUnionMap(res...)}, nil
}

// otherCells returns the cells of array sp.In that o writes with another
// context than sp's (nil: none), and whether o writes some with sp's.
//
// It serves updateCells' update of a component m of a heap whose
// context has no hole, such as the undefined value ⊥ of the garbage
// writes (Clément 2022, section 9.9): m relates each of its cells to the
// one tuple () of its context. h ▷ o keeps m \ cells(o), with cells(o)
// the cells o writes in m's array; keeping m \ other instead, where
// other ⊆ cells(o) are the cells o gives another context, keeps m's pairs
// (c, ()) for the cells c that o writes with m's context too, and those
// pairs are o's own already: the union with o is the same relation, each
// cell still with one content (the heap stays a function wherever it was
// one). Cells written ⊥ at the iterations before a loop's and at their
// own then no longer split the ⊥ cells that came before by the
// iterations' pieces: in Halide's sgemm with a transposed operand, the ⊥
// of the accumulation's buffer grew to 37 pieces (22 now) at the
// innermost sequential loop, most of its loop-body simplification.
func otherCells(o *Heap, sp presburger.Space) (other *presburger.Map, same bool, err error) {
	k := sp.Key()
	for _, c := range o.u.Maps() {
		csp := c.Space()
		if csp.In == nil || csp.In.Name != sp.In.Name {
			continue
		}
		if csp.Key() == k {
			same = true
			continue
		}
		d := c.Domain()
		if other != nil {
			if d, err = other.Union(d); err != nil {
				return nil, false, err
			}
		}
		other = d
	}
	return other, same, nil
}
