package symeval

import (
	"context"
	"fmt"
	"slices"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// This file walks the kernel as the symbolic evaluation of Clément 2022,
// Fig. 5.4, does: it computes the heap h in which each assignment runs
// (rules S-SEQ, S-SEQLOOP with the prophetic summary of the earlier
// iterations, S-PARLOOP, S-IF, S-ALLOCATE), and the Presburger side
// conditions of S-ASSIGN and of the out bindings: reads of undefined
// cells, writes out of bounds, out cells never written. Analyze
// (verify.go) turns them into conditions; races are in race.go.

// renameParam returns m with its parameter x renamed to z (the constraints
// are unchanged: only the column's name changes).
func renameParam(m *presburger.Map, x, z string) (*presburger.Map, error) {
	sp := m.Space().Copy()
	found := false
	for i, p := range sp.Params {
		if p == z {
			return nil, fmt.Errorf("rename %s to %s: %s is already a parameter", x, z, z)
		}
		if p == x {
			sp.Params[i] = z
			found = true
		}
	}
	if !found {
		return m, nil
	}
	return m.Relabel(sp)
}

// renameCells renames parameter x to z in the cells of the arrays named
// in arrays, by array; the other arrays are left out.
func renameCells(cells map[string]*presburger.Map, arrays map[string]bool, x, z string) (map[string]*presburger.Map, error) {
	if len(cells) == 0 {
		return nil, nil
	}
	out := make(map[string]*presburger.Map, len(cells))
	for a, c := range cells {
		if !arrays[a] {
			continue
		}
		r, err := renameParam(c, x, z)
		if err != nil {
			return nil, fmt.Errorf("cells of %s: %w", a, err)
		}
		out[a] = r
	}
	return out, nil
}

// renameHeapParam renames parameter x to z in every component of h.
func renameHeapParam(h *Heap, x, z string) (*Heap, error) {
	var out []*presburger.Map
	for _, m := range h.u.Maps() {
		r, err := renameParam(m, x, z)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return &Heap{u: presburger.NewUnionMap(out...)}, nil
}

// site is an assignment with the scope and the symbolic heap in which it
// runs.
type site struct {
	scope  *Scope
	heap   *Heap
	bounds *presburger.Map      // the in-bounds cells of the array written, over the scope
	arrays map[string]arrayDecl // the arrays in scope
}

// heapsBefore returns, for every assignment of k, its scope and the
// symbolic heap in which rule S-ASSIGN evaluates its right-hand side: the initial heap
// updated by the effects of everything that runs before it, with, for an
// enclosing sequential loop on x from lo, the effects of its iterations
// lo <= z < x (h ▷ ▶_{lo <= z < x} Δh[x := z], rule S-SEQLOOP), and for an
// enclosing parallel loop only the heap at the loop's start (S-PARLOOP).
// The heaps' parameters are the kernel's and the enclosing loops'
// variables (as named by pr).
func heapsBefore(ctx context.Context, pr *Prophecy, k *sched.Kernel) (_ map[*sched.Assign]site, err error) {
	defer guard(&err, "heaps before assignments")
	var params []string
	for _, id := range k.Params {
		params = append(params, id.Name)
	}
	w := newHeapWalker(ctx, pr)
	s := NewScope(params).charging(ctx).WithAssumptions(pr.Assumptions)
	for _, b := range k.Bindings {
		if _, ok := w.arrays[b.Array.Name]; !ok {
			w.arrays[b.Array.Name] = arrayDecl{extents: b.Extents, scope: s}
		}
	}
	if err := w.block(s, pr.Initial, k.Body); err != nil {
		return nil, err
	}
	return w.out, nil
}

func newHeapWalker(ctx context.Context, pr *Prophecy) *heapWalker {
	return &heapWalker{ctx: ctx, pr: pr, out: map[*sched.Assign]site{}, arrays: map[string]arrayDecl{},
		loops: map[*sched.Loop]*Scope{}, readMemo: map[sched.Stmt]map[string]bool{}, recs: map[sched.Stmt]*walkRecord{}}
}

type heapWalker struct {
	ctx    context.Context
	pr     *Prophecy
	out    map[*sched.Assign]site
	arrays map[string]arrayDecl   // arrays in scope
	loops  map[*sched.Loop]*Scope // the scope around every loop
	order  []sched.Stmt           // assignments and loops in program order
	trace  func(depth int, format string, args ...any)
	depth  int
	// readMemo memoises arraysRead.
	readMemo map[sched.Stmt]map[string]bool
	// prev is the walk of the previous round of the garbage writes, whose
	// results the walk may take (rounds.go), with reuse, pr's reuse of
	// prev's prophecy; recs records this walk for the next round's.
	prev  *heapWalker
	reuse *roundReuse
	recs  map[sched.Stmt]*walkRecord
	// reused counts the statements whose walk was prev's.
	reused int
}

// snapshot copies the arrays in scope.
func (w *heapWalker) snapshot() map[string]arrayDecl {
	m := make(map[string]arrayDecl, len(w.arrays))
	for k, v := range w.arrays {
		m[k] = v
	}
	return m
}

func (w *heapWalker) tracef(format string, args ...any) {
	if w.trace != nil {
		w.trace(w.depth, format, args...)
	}
}

// arrayDecl is an array's extents with the scope they are written in.
type arrayDecl struct {
	extents []syntax.Expr
	scope   *Scope
}

// boundsIn returns { a[v] : 0 <= v < extents } over the parameters of s,
// for array a declared in an enclosing scope.
func (w *heapWalker) boundsIn(s *Scope, a string) (*presburger.Map, error) {
	d, ok := w.arrays[a]
	if !ok {
		return nil, fmt.Errorf("unknown array %s", a)
	}
	return arrayBounds(s, a, d)
}

// extentBounds returns the constraint 0 <= v_i < extents[i] on the
// dimensions dim(i), the extents translated in scope s (one alternative
// per piece of a piecewise extent).
func extentBounds(s *Scope, extents []syntax.Expr, dim func(int) presburger.Var) (dnf, error) {
	c := dnfTrue()
	one := presburger.NewInt(1)
	for i, e := range extents {
		ext, err := s.translator().index(e)
		if err != nil {
			return nil, err
		}
		v := varLinear(dim(i))
		var alts dnf
		for _, p := range ext {
			cc, err := p.cond.and(s.w, dnf{conj{{e: v}, {e: p.e.add(v, one.Neg()).add(constLinear(-1), one)}}})
			if err != nil {
				return nil, err
			}
			alts = append(alts, cc...)
		}
		if c, err = c.and(s.w, alts); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// arrayBounds returns { a[v] : 0 <= v < extents } over the parameters of
// s, for array a declared by d in an enclosing scope.
func arrayBounds(s *Scope, a string, d arrayDecl) (*presburger.Map, error) {
	dims := make([]string, len(d.extents))
	for i := range dims {
		dims[i] = fmt.Sprintf("i%d", i)
	}
	c, err := extentBounds(s, d.extents, presburger.OutVar)
	if err != nil {
		return nil, err
	}
	return lowerDNF(presburger.SetSpace(s.Params(), presburger.FlatTuple(a, dims...)), c, nil)
}

// The heap of a site only serves to evaluate the assignment's right-hand
// side and to find the cells it reads undefined: only the cells of the
// arrays it reads matter. The walker therefore carries into each statement
// only the components of the arrays read somewhere inside it, and past it
// only those read by the statements after it in its block. Components of
// different arrays never interact in an update or an iterated update (a
// cell's contents come from the writes to that cell), so dropping the
// others changes nothing in the components kept: it only spares computing
// heaps that nothing reads (a kernel's output array, written by every tile
// and read by none, was most of the work of Halide's sgemm).

// arraysRead returns the names of the arrays read by the assignments
// within st (memoised): those their values read, and those they write
// when they read the cell they write (Options.Accumulates).
func (w *heapWalker) arraysRead(st sched.Stmt) map[string]bool {
	if r, ok := w.readMemo[st]; ok {
		return r
	}
	r := map[string]bool{}
	visit := func(x sched.Stmt) bool {
		if a, ok := x.(*sched.Assign); ok {
			if w.pr.accumulates[a] {
				r[a.Array.Name] = true
			}
			syntax.Inspect(a.Value, func(e syntax.Expr) bool {
				if ix, ok := e.(*syntax.Index); ok {
					r[ix.Array.Name] = true
				}
				return true
			})
		}
		return true
	}
	if b, ok := st.(*sched.Block); ok {
		sched.Walk(b, visit)
	} else {
		sched.Walk(&sched.Block{Stmts: []sched.Stmt{st}}, visit)
	}
	w.readMemo[st] = r
	return r
}

// readAfter returns, for every statement of b, the names of the arrays
// read by the statements after it in b.
func (w *heapWalker) readAfter(b *sched.Block) []map[string]bool {
	out := make([]map[string]bool, len(b.Stmts))
	acc := map[string]bool{}
	for i := len(b.Stmts) - 1; i >= 0; i-- {
		out[i] = acc
		if r := w.arraysRead(b.Stmts[i]); len(r) > 0 {
			next := make(map[string]bool, len(acc)+len(r))
			for k := range acc {
				next[k] = true
			}
			for k := range r {
				next[k] = true
			}
			acc = next
		}
	}
	return out
}

func (w *heapWalker) block(s *Scope, h *Heap, b *sched.Block) error {
	after := w.readAfter(b)
	for i, st := range b.Stmts {
		if l, ok := st.(*sched.Let); ok {
			ns, err := s.letScope(w.ctx, l)
			if err != nil {
				return fmt.Errorf("%s: %w", l.Pos(), err)
			}
			s = ns
			continue
		}
		// A round of the garbage writes may take the walk of st from the
		// previous round's (rounds.go).
		from := len(w.order)
		if !w.reuseWalk(st, h) {
			hk, ok := w.reuseKept(st, h)
			if !ok {
				hk = h.keep(w.arraysRead(st))
			}
			rec := w.record(st)
			rec.in, rec.kept = h, hk
			if err := w.stmt(s, hk, st); err != nil {
				return err
			}
		}
		rec := w.record(st)
		rec.from, rec.to = from, len(w.order)
		d := w.pr.Effect(st)
		if d == nil {
			return fmt.Errorf("%s: %s: no prophetic effect", st.Pos(), sched.StmtLine(st))
		}
		in := h
		if next, ok := w.reuseStep(st, h, d); ok {
			h = next
		} else {
			var err error
			if h, err = h.keep(after[i]).Update(w.ctx, d.keep(after[i])); err != nil {
				return fmt.Errorf("%s: %s: %w", st.Pos(), sched.StmtLine(st), err)
			}
		}
		rec.step = stepMemo{in: in, delta: d, out: h}
	}
	return nil
}

func (w *heapWalker) stmt(s *Scope, h *Heap, st sched.Stmt) error {
	wrap := func(err error) error { return fmt.Errorf("%s: %s: %w", st.Pos(), sched.StmtLine(st), err) }
	switch st := st.(type) {
	case *sched.Skip:
	case *sched.Block:
		return w.block(s, h, st)
	case *sched.Assign:
		b, err := w.boundsIn(s, st.Array.Name)
		if err != nil {
			return wrap(err)
		}
		w.out[st] = site{scope: s, heap: h, bounds: b, arrays: w.snapshot()}
		w.order = append(w.order, st)
		if w.trace != nil {
			w.tracef("%s  (at %s)", sched.StmtLine(st), st.Pos())
			w.tracef("  h = %s", h) // printed only when traced
		}
	case *sched.If:
		sThen, sElse, err := s.ifScopes(st)
		if err != nil {
			return wrap(err)
		}
		if err := w.block(sThen, h, st.Then); err != nil {
			return err
		}
		if st.Else != nil {
			return w.stmt(sElse, h, st.Else)
		}
	case *sched.Alloc:
		old, had := w.arrays[st.Array.Name]
		w.arrays[st.Array.Name] = arrayDecl{extents: st.Extents, scope: s}
		err := w.block(s, h, st.Body)
		if had {
			w.arrays[st.Array.Name] = old
		} else {
			delete(w.arrays, st.Array.Name)
		}
		return err
	case *sched.Loop:
		w.loops[st] = s
		w.order = append(w.order, st)
		if w.trace != nil {
			w.tracef("%s  (at %s)", sched.StmtLine(st), st.Pos())
		}
		w.depth++
		defer func() { w.depth-- }()
		inner, x, err := s.loopScope(st)
		if err != nil {
			return wrap(err)
		}
		var delta *Heap
		if !st.Par {
			d, px, ok := w.pr.IterationEffect(st)
			if !ok || px != x {
				return wrap(fmt.Errorf("no prophetic summary of the loop"))
			}
			delta = d
		}
		body, ok := w.reuseBody(st, h, delta)
		if !ok {
			var err error
			if body, err = w.loopBody(st, inner, x, h, delta); err != nil {
				return wrap(err)
			}
		}
		rec := w.record(st)
		rec.loopIn, rec.loopDelta, rec.body = h, delta, body
		return w.block(inner, body, st.Body)
	default:
		return wrap(fmt.Errorf("unknown statement %T", st))
	}
	return nil
}

// loopBody returns the heap in which the body of loop l (variable x,
// inner its scope) starts, from the heap h before the loop and, for a
// sequential loop, its iteration effect delta.
func (w *heapWalker) loopBody(l *sched.Loop, inner *Scope, x string, h, delta *Heap) (*Heap, error) {
	// The heap is only read where the loop runs (Γ): restricting it
	// there keeps it small, as long as the facts do not split it
	// (commonFacts).
	body, err := h.Restrict(commonFacts(inner.Facts()))
	if err != nil || l.Par {
		return body, err
	}
	// The iterations before x: lo <= z < x, with z fresh.
	lo, _ := l.Bounds()
	z := x + "'"
	for inner.isParam(z) {
		z += "'"
	}
	zs := inner.withParam(z)
	below, err := zs.rangeBelow(z, x, lo)
	if err != nil {
		return nil, err
	}
	// Only the arrays the body reads matter (see arraysRead).
	dz, err := renameHeapParam(delta.keep(w.arraysRead(l)), x, z)
	if err != nil {
		return nil, err
	}
	// The cells that several components of delta write are those the
	// loop's iterated update found in the prophecy, over the same
	// components (keep drops whole arrays) with x renamed z: the same
	// sets, not computed again.
	known, err := renameCells(w.pr.iterationCells(l), w.arraysRead(l), x, z)
	if err != nil {
		return nil, err
	}
	prefix, written, err := dz.iterateCellsFrom(w.ctx, z, below, known)
	if err != nil {
		return nil, err
	}
	// body ▷ prefix, with the cells prefix writes found by a projection
	// (cellsOver): the same set as the domain of prefix, whose pieces
	// follow the last writes and, after a garbage write, the split
	// into ⊥ and values, and would split the older contents of the
	// accumulator by all of them (Halide's sgemm with a transposed
	// operand: 4 pieces became 109).
	cells, err := dz.cellsOver(w.ctx, z, below, written)
	if err != nil {
		return nil, err
	}
	if body, err = body.updateCells(w.ctx, prefix, cells); err != nil {
		return nil, err
	}
	// Only the components the earlier iterations write changed; the
	// others are h's restricted to the loop's facts, as in a par loop's
	// body, and simplifying them again at every loop of a nest was a
	// third of the walk's simplification (sqsgemm).
	return body.simplifyArrays(w.ctx, prefix.arrays())
}

// undefinedReads returns the cells that the right-hand side of the
// assignment at st reads while its heap holds nothing there (a premise of
// S-ASSIGN is reads(e) ⊆ dom(h)), as a union of sets over the scope's
// parameters, restricted to the scope's facts: empty exactly where every
// read is defined.
func undefinedReads(ctx context.Context, st *sched.Assign, at site) (_ *presburger.UnionMap, err error) {
	defer guard(&err, "undefined reads")
	// Reads at clamped indices: first the clamps' ranges, a superset of
	// the cells read in a few pieces, which the cells of a boundary
	// condition's array usually contain under the assumptions (the
	// conditions only matter there, and the pieces of a read's location
	// are pruned under them: readLocation). Not where the heap holds an
	// array it reads in many pieces (coarseFits).
	if c, ok, err := coarseReads(at.scope, st.Value); err != nil || ok {
		if err != nil {
			return nil, err
		}
		if coarseFits(c, at.heap) {
			if all, err := allDefined(ctx, c, at); err != nil || all {
				if err != nil {
					return nil, fmt.Errorf("%s: undefined reads: %w", st.Pos(), err)
				}
				return presburger.NewUnionMap(), nil
			}
		}
	}
	// Accesses that differ in constant offsets (a stencil's): first their
	// ranges, a superset of the cells read in a few pieces (offsetReads).
	// A failure here only costs the shortcut.
	if c, ok, err := offsetReads(ctx, at.scope, st.Value); err == nil && ok {
		if all, err := allDefined(ctx, c, at); err == nil && all {
			return presburger.NewUnionMap(), nil
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r, err := reads(ctx, at.scope, st.Value)
	if err != nil {
		return nil, err
	}
	u, err := undefinedIn(ctx, r, at)
	if err != nil {
		return nil, fmt.Errorf("%s: undefined reads: %w", st.Pos(), err)
	}
	return u, nil
}

// maxCoarsePieces bounds the pieces of an array's cells in a heap up to
// which undefinedReads first tries the clamps' ranges of its reads
// (coarseFits).
const maxCoarsePieces = 64

// coarseFits reports whether the heap h holds the cells of every array of
// c, the clamps' ranges of an assignment's reads (coarseReads), in at most
// maxCoarsePieces pieces. The shortcut pays where it succeeds, for a
// boundary condition's array, an input or a stage written whole; where
// the heap holds an array in many pieces (the unrolled copies of a tile's
// stores) the wider ranges meet more of them than the reads do, and where
// some cells read are never written (garbage writes) it fails after it
// has cost more than the exact reads: in sgemmTB's final stage, `B`'s
// cells in 312 to 602 pieces, two thirds of the steps of each update of
// `AB`'s undefined reads. Either way the undefined reads are the same.
func coarseFits(c *presburger.UnionMap, h *Heap) bool {
	n := map[string]int{}
	for _, m := range h.u.Maps() {
		if in := m.Space().In; in != nil {
			n[in.Name] += m.NumBasics()
		}
	}
	for _, m := range c.Maps() {
		if n[m.Space().Out.Name] > maxCoarsePieces {
			return false
		}
	}
	return true
}

// allDefined reports whether the heap of at holds every cell of c, a
// superset of the cells an assignment reads, where the scope's facts and
// the kernel's assumptions hold.
func allDefined(ctx context.Context, c *presburger.UnionMap, at site) (bool, error) {
	u, err := undefinedIn(ctx, c, at)
	if err != nil {
		return false, err
	}
	if at.scope.assumed == nil {
		return u.IsEmpty(ctx)
	}
	return emptyWhereAssumed(ctx, u, at.scope.assumed)
}

// emptyWhereAssumed reports whether u has no point where the parameter
// domain a holds: u ∩ a is empty, tested piece by piece of u
// (knownDomain.excludes), never built whole: u ∩ a has a piece per pair,
// each normalised with the local variables of both (the quotients of the
// assumptions' bounds, written as cases over a divisor, times the floors
// of the reads' tiles), too many to hold at once.
func emptyWhereAssumed(ctx context.Context, u *presburger.UnionMap, a *presburger.Map) (bool, error) {
	k := &knownDomain{parts: []*presburger.Map{a}}
	for _, m := range u.Maps() {
		for _, b := range m.Basics() {
			empty, err := k.excludes(ctx, presburger.NewMap(m.Space(), b))
			if err != nil || !empty {
				return false, err
			}
		}
	}
	return true, nil
}

// knownDomain is what a scope knows of its parameters, the intersection
// of its facts and the kernel's assumptions (Scope.prune): built whole
// when the product of their pieces is small, otherwise kept as its parts,
// which excludes meets one pair of pieces at a time.
type knownDomain struct {
	whole *presburger.Map   // the intersection, or nil
	parts []*presburger.Map // its parts, when whole is nil
	// pieces holds the pieces of every part over the parameters params
	// (those of the sets excludes was last given), doms their bounds
	// (pieceDomains): built when excludes first needs them, so that the
	// intersections it builds neither copy nor align them again (a
	// knownDomain is built for one test of a scope, in one goroutine).
	pieces [][]*presburger.Map
	doms   [][]*pieceDomain
	params []string
}

// maxKnownProduct bounds the pairs of pieces of a scope's facts and the
// kernel's assumptions that knownDomain intersects whole: a kernel whose
// assumptions have many pieces (a divisor's cases times Halide's
// specializations) keeps them apart.
const maxKnownProduct = 64

// newKnownDomain returns the intersection of facts and assumed, either of
// them nil for none; nil when both are.
func newKnownDomain(facts, assumed *presburger.Map) (*knownDomain, error) {
	switch {
	case facts == nil && assumed == nil:
		return nil, nil
	case facts == nil:
		return &knownDomain{whole: assumed}, nil
	case assumed == nil:
		return &knownDomain{whole: facts}, nil
	case facts.NumBasics()*assumed.NumBasics() > maxKnownProduct:
		return &knownDomain{parts: []*presburger.Map{facts, assumed}}, nil
	}
	w, err := facts.Intersect(assumed)
	if err != nil {
		return nil, err
	}
	return &knownDomain{whole: w}, nil
}

// excludes reports whether m, over the same parameters, has no point in
// k. Kept as parts, m meets each piece of the first part, and what is
// left each piece of the next, one intersection at a time, each charged a
// step of the allowance of ctx before it is built, until a point is found.
// A piece whose parameter bounds contradict those met so far (two
// opposite inequalities, pieceDomain.contradicts) is charged its step
// and not built: that intersection is empty.
func (k *knownDomain) excludes(ctx context.Context, m *presburger.Map) (bool, error) {
	if k.whole != nil {
		x, err := m.Intersect(k.whole)
		if err != nil {
			return false, err
		}
		return x.IsEmpty(ctx)
	}
	if err := k.index(m.Space().Params); err != nil {
		return false, err
	}
	dom := m
	if !m.Space().IsParams() {
		// Bounds over parameters only: pieceDomain names no tuple
		// dimension.
		dom = m.Params()
	}
	empty, err := excludedBy(ctx, m, newPieceDomain(dom), k.pieces, k.doms)
	if err != nil {
		return false, fmt.Errorf("pieces of the facts and assumptions: %w", err)
	}
	return empty, nil
}

// index builds k.pieces and k.doms over the parameters params, unless
// they are built over them already.
func (k *knownDomain) index(params []string) error {
	if k.pieces != nil && slices.Equal(k.params, params) {
		return nil
	}
	k.pieces, k.doms, k.params = make([][]*presburger.Map, len(k.parts)), make([][]*pieceDomain, len(k.parts)), params
	all := presburger.Universe(presburger.ParamSpace(params))
	for i, p := range k.parts {
		for _, q := range p.Pieces() {
			if slices.Equal(q.Space().Params, params) {
				k.pieces[i] = append(k.pieces[i], q)
				continue
			}
			a, err := all.IntersectParams(q)
			if err != nil {
				return err
			}
			k.pieces[i] = append(k.pieces[i], a)
		}
		k.doms[i] = pieceDomains(p)
	}
	return nil
}

// excludedBy reports whether m, whose parameter bounds dm indexes, has
// no point in the intersection of the parameter domains whose pieces
// are ds, their bounds doms (knownDomain.excludes).
//
// Soundness: a piece is skipped only when its bounds and m's contradict
// each other, two inequalities c·t + k1 >= 0 and -c·t + k2 >= 0 with
// k1 + k2 < 0, whose sum has no point: m meets that piece nowhere.
func excludedBy(ctx context.Context, m *presburger.Map, dm *pieceDomain, ds [][]*presburger.Map, doms [][]*pieceDomain) (bool, error) {
	if len(ds) == 0 {
		return m.IsEmpty(ctx)
	}
	for i, piece := range ds[0] {
		if err := presburger.Charge(ctx, 1); err != nil {
			return false, err
		}
		if dm.contradicts(doms[0][i]) {
			continue
		}
		x, err := m.IntersectParams(piece)
		if err != nil {
			return false, err
		}
		if empty, err := x.IsEmpty(ctx); err != nil || empty {
			if err != nil {
				return false, err
			}
			continue
		}
		if len(ds) == 1 {
			return false, nil
		}
		empty, err := excludedBy(ctx, x, dm.meet(doms[0][i], x), ds[1:], doms[1:])
		if err != nil || !empty {
			return false, err
		}
	}
	return true, nil
}

// undefinedIn returns the cells of r, read at site at, that its heap does
// not hold, where the scope's facts hold.
func undefinedIn(ctx context.Context, r *presburger.UnionMap, at site) (*presburger.UnionMap, error) {
	f := at.scope.Facts()
	if f == nil {
		return r.Subtract(ctx, at.heap.u.Domain())
	}
	if f.NumBasics() < 2 {
		r, err := r.IntersectParams(f)
		if err != nil {
			return nil, err
		}
		return r.Subtract(ctx, at.heap.u.Domain())
	}
	dom := at.heap.u.Domain()
	cf := commonFacts(f)
	var hf *presburger.Map // factsHull, for the first array of many pieces
	var out []*presburger.Map
	for _, m := range r.Maps() {
		d, c := dom.MapOf(m.Space()), cf
		if d.NumBasics() > maxHullPieces {
			if hf == nil {
				var err error
				if hf, err = factsHull(ctx, f, cf); err != nil {
					return nil, err
				}
			}
			c = hf
		}
		u, err := undefinedUnder(ctx, m, d, f, c)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return presburger.NewUnionMap(out...), nil
}

// maxHullPieces bounds the pieces of an array's cells in a heap up to
// which undefinedIn subtracts them under the facts' common constraints
// alone: past it, under their hull as well (factsHull), whose cost, a few
// emptiness tests per constraint of the facts, the suite's pipelines
// before flattening, of fewer pieces, do not get back.
const maxHullPieces = 64

// factsHull returns the constraints that every conjunction of the facts f
// satisfies, cf = commonFacts(f) and those of their simple hull
// (presburger.SimpleHull): the constraints of the first that the others
// imply without writing them alike, such as a bound on a tile's index
// that each conjunction has in another form. It contains f, so
// undefinedUnder may subtract under it; where the heap holds an array in
// many pieces, a tighter set to subtract from leaves fewer pieces to meet
// each conjunction of f (in sgemmTB's final stage, the reads of `B` in
// AB's updates: a fifth of the steps, and half of them for some).
func factsHull(ctx context.Context, f, cf *presburger.Map) (*presburger.Map, error) {
	h, err := presburger.SimpleHull(ctx, f)
	if err != nil {
		return nil, err
	}
	return h.Intersect(cf)
}

// undefinedUnder returns (r ∩ f) \ d for a read r of one array, the cells
// d its heap holds and facts f of several conjunctions, whose common
// constraints are cf, a conjunction that contains f (commonFacts(f), or
// factsHull).
//
// Subtracting d from r ∩ f subtracts it from every piece of r once per
// conjunction of f, each with the divisions of f (the floors of the tile
// bases) as local variables, and the emptiness tests of the subtraction,
// exponential in the number of local variables, can dominate (Halide's
// sgemm tiles an operand with indices i % 16 and i / 16, under 8
// conjunctions of facts). As f ⊆ cf,
//
//	((r ∩ cf) \ d) ∩ f = (r ∩ f) \ d,
//
// the same set exactly, and subtracting from r ∩ cf subtracts once,
// without those local variables; what is left per conjunction of f is an
// intersection and the emptiness test that drops it when empty. When d
// splits r ∩ cf in many pieces,
// though, each is intersected with every conjunction of f, mostly to
// find it empty, and the direct way can be cheaper: it is taken when the
// difference has more pieces than a limit (given up on the way past some
// more). For d of at most maxUnderPieces pieces the limit is twice the
// pieces of r ∩ cf; for more, it is the pairs of a piece of r ∩ cf and
// one of d, as the direct way subtracts each piece of d from each piece
// of r ∩ f, |f| times as many pairs, and what is left here is one
// intersection per piece and conjunction of f. Both ways give the same
// set; only the cost and the pieces differ.
//
// Of d's pieces, when it has more than maxUnderPieces, only those that
// meet r ∩ cf matter: the others are dropped first (Map.Meeting), an
// emptiness test each at most, fewer than the pairs the subtraction
// would test (with r ∩ f, of a piece of r per conjunction of f). A heap
// of many pieces mostly holds cells that a read does not reach: in
// sgemmTB's final stage, 115 of the 312 pieces of `B`'s cells meet the
// reads of `AB`'s update.
func undefinedUnder(ctx context.Context, r, d, f, cf *presburger.Map) (*presburger.Map, error) {
	c, err := r.IntersectParams(cf)
	if err != nil {
		return nil, err
	}
	limit := 2 * c.NumBasics()
	if d.NumBasics() > maxUnderPieces {
		if d, err = d.Meeting(ctx, c); err != nil {
			return nil, err
		}
		if d.NumBasics() > maxUnderPieces {
			limit = max(limit, c.NumBasics()*d.NumBasics())
		}
	}
	// d's pieces one at a time, to give up early on a difference in too
	// many pieces; a few more than at the end are allowed on the way,
	// as later pieces of d can empty some.
	u := c
	for _, b := range d.Basics() {
		if u, err = u.Subtract(ctx, presburger.NewMap(d.Space(), b)); err != nil {
			return nil, err
		}
		if u.NumBasics() > 4*limit+8 {
			break
		}
	}
	if u.NumBasics() <= limit {
		if u, err = u.IntersectParams(f); err != nil {
			return nil, err
		}
		return u.DropEmpty(ctx)
	}
	return undefinedDirect(ctx, r, d, f)
}

// undefinedDirect returns (r ∩ f) \ d.
func undefinedDirect(ctx context.Context, r, d, f *presburger.Map) (*presburger.Map, error) {
	r, err := r.IntersectParams(f)
	if err != nil {
		return nil, err
	}
	return r.Subtract(ctx, d)
}

// maxUnderPieces bounds the pieces of the cells a heap holds up to which
// undefinedUnder keeps them all and bounds the difference by twice the
// pieces of the read: past it, it drops the pieces the read does not
// meet and bounds the difference by the pairs of pieces.
const maxUnderPieces = 8

// outOfBoundsWrites returns the cells the assignment at st writes outside
// its array (a premise of S-ASSIGN), over the scope's parameters and
// restricted to the scope's facts: empty exactly where the write is in
// bounds.
func outOfBoundsWrites(ctx context.Context, st *sched.Assign, at site) (_ *presburger.Map, err error) {
	defer guard(&err, "out-of-bounds writes")
	loc, err := location(at.scope, &syntax.Index{Array: st.Array, Indices: st.Indices})
	if err != nil {
		return nil, err
	}
	if f := at.scope.Facts(); f != nil {
		if loc, err = loc.IntersectParams(f); err != nil {
			return nil, err
		}
	}
	out, err := loc.Subtract(ctx, at.bounds)
	if err != nil {
		return nil, fmt.Errorf("%s: out-of-bounds writes: %w", st.Pos(), err)
	}
	return out, nil
}

// missingOutputs returns the cells of the kernel's out bindings (in
// bounds, where clause) that the final prophetic heap leaves without
// content, under the kernel's assumptions: empty exactly when every out
// cell is written (or kept from an in binding).
func missingOutputs(ctx context.Context, pr *Prophecy, k *sched.Kernel) (_ *presburger.UnionMap, err error) {
	defer guard(&err, "missing outputs")
	cells, err := outputCells(pr, k)
	if err != nil {
		return nil, err
	}
	miss, err := cells.Subtract(ctx, pr.Final.u.Domain())
	if err != nil {
		return nil, fmt.Errorf("missing outputs: %w", err)
	}
	return miss, nil
}

// outputCells returns the cells of the kernel's out bindings (in bounds,
// where clause) under the kernel's assumptions.
func outputCells(pr *Prophecy, k *sched.Kernel) (*presburger.UnionMap, error) {
	var params []string
	for _, id := range k.Params {
		params = append(params, id.Name)
	}
	s := NewScope(params)
	var cells []*presburger.Map
	for _, b := range k.Bindings {
		if b.Dir != sched.Out {
			continue
		}
		dims := make([]string, len(b.Vars))
		for i, v := range b.Vars {
			dims[i] = v.Name
		}
		c, err := extentBounds(s, b.Extents, presburger.OutVar)
		if err != nil {
			return nil, err
		}
		if b.Where != nil {
			tr := &translator{lookup: func(name string) (binding, bool) {
				for i, d := range dims {
					if d == name {
						return binding{v: presburger.OutVar(i)}, true
					}
				}
				bd, ok := s.names[name]
				return bd, ok
			}, w: s.w}
			wh, err := tr.cond(b.Where, false)
			if err != nil {
				return nil, err
			}
			if c, err = c.and(s.w, wh); err != nil {
				return nil, err
			}
		}
		m, err := lowerDNF(presburger.SetSpace(params, presburger.FlatTuple(b.Array.Name, dims...)), c, nil)
		if err != nil {
			return nil, err
		}
		if m, err = m.IntersectParams(pr.Assumptions); err != nil {
			return nil, err
		}
		cells = append(cells, m)
	}
	return presburger.NewUnionMap(cells...), nil
}
