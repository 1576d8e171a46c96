package symeval

import (
	"context"
	"errors"
	"fmt"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// This file implements prophetic evaluation (Clément, Translation Validation of Tensor Compilers, 2022, section 5.3,
// Fig. 5.3): the symbolic heap of the writes of a statement, assuming that
// every assignment stores the value of its annotation.

// Options tune the evaluation.
type Options struct {
	// Budget bounds every presburger operation (see presburger.Budget);
	// the zero value keeps the budget the context carries, or the
	// engine's default.
	Budget presburger.Budget
	// HeapAnnot gives, for some assignments, the annotation their write
	// puts in the prophetic heap in place of their own, which their value
	// obligation is still against. The validation of reductions records
	// the reduction element T(x) for an accumulation annotated with the
	// body at its position (Clément 2022, Section 7.5).
	HeapAnnot map[*sched.Assign]syntax.Expr
	// NoValue lists assignments whose value obligations are decided
	// elsewhere (the initialisations and merges of reductions).
	NoValue map[*sched.Assign]bool
	// Accumulates lists assignments that read the cell they write besides
	// their value: the accumulations and merges of reductions, which the
	// validation of reductions turns into plain writes of the reduction
	// element. With garbage writes, an iteration at which that cell holds
	// ⊥ is a garbage iteration (garbage.go): ⊥ accumulated into a partial
	// result stays there.
	Accumulates map[*sched.Assign]bool
	// NoGarbageWrites turns off the garbage writes of Analyze (Clément
	// 2022, section 9.9; see garbage.go): every read of an unwritten cell
	// is then an undefined read, as in the rules of chapter 5.
	NoGarbageWrites bool
	// GarbageRounds bounds the prophetic evaluations that Analyze repeats
	// to find the garbage writes (0: maxGarbageRounds).
	GarbageRounds int
	// Assumptions, when set, is the kernel's assumption domain as
	// Assumptions computes it, which the evaluation then takes as is
	// instead of computing it again.
	Assumptions *presburger.Map

	// garbage gives, for some assignments, the iterations (a parameter
	// domain over the assignment's scope) at which they write the
	// garbage value ⊥ instead of their annotation.
	garbage map[*sched.Assign]*presburger.Map
	// prev is the prophecy of the previous round of the garbage writes,
	// whose results this one may take (rounds.go); nil: none.
	prev *Prophecy
	// noRoundReuse makes every round of the garbage writes start from
	// scratch (for tests: the rounds must give the same conditions).
	noRoundReuse bool
	// fixpointValueHeap generates the value obligations at the garbage
	// writes' fixpoint in the fixpoint's heaps rather than the ordinary
	// prophecy's (valueSite; for tests: both give the same points).
	fixpointValueHeap bool
	// defined gives, for computed tensors that in bindings load, the
	// points the specification analysis proved defined (specAnalysis):
	// the initial heap holds such a binding's cells there only, the
	// others holding no value, as the interpreter's hold ⊥.
	defined map[string]*presburger.Map
}

// Prophecy is the result of the prophetic evaluation of a kernel.
type Prophecy struct {
	// Contexts interns the expression contexts the heaps refer to.
	Contexts *Contexts
	// Assumptions is the parameter domain of the kernel's assume lines.
	Assumptions *presburger.Map
	// Initial is the heap described by the in bindings: each in-bounds
	// cell satisfying its binding's where clause holds its tensor element.
	Initial *Heap
	// Delta is Δh of the kernel's body (Clément 2022, Fig. 5.3): every cell the body
	// writes, mapped to the annotation of its last write.
	Delta *Heap
	// Final is Initial ▷ Delta restricted to the assumptions: the
	// prophetic heap of the kernel when it ends, parametric in the
	// kernel's parameters. Under assumptions of several conjunctions,
	// its pieces that several meet keep only their common constraints
	// (finalHeap): it equals Initial ▷ Delta where the assumptions hold.
	Final *Heap

	effects map[sched.Stmt]*Heap
	bodies  map[*sched.Loop]loopBody

	// For the next round of the garbage writes (rounds.go): the kernel's
	// own assumptions (Assumptions may be narrowed by the caller), the
	// garbage iterations the prophecy was computed with, the steps of its
	// blocks, and what it took from the previous round's prophecy.
	kernelAssumptions *presburger.Map
	garbage           map[*sched.Assign]*presburger.Map
	steps             map[sched.Stmt]stepMemo
	operands          map[sched.Stmt]operands
	reuse             *roundReuse
	// reused counts the statements whose effects were taken from the
	// previous round's prophecy.
	reused int
	// accumulates is Options.Accumulates when some assignment writes ⊥
	// (garbage), else nil: the heaps before those assignments then keep
	// the cells they write (heapWalker.arraysRead), which may hold ⊥.
	accumulates map[*sched.Assign]bool
}

// loopBody is the prophetic effect of one iteration of a loop.
type loopBody struct {
	param string // the presburger parameter standing for the loop variable
	delta *Heap
	// cells holds, for a sequential loop, the cells of the arrays that
	// several components of delta write, as its iterated update computed
	// them (Heap.iterateCells), over delta's parameters.
	cells map[string]*presburger.Map
}

// Effect returns Δh of statement s of the kernel (Clément 2022, Fig. 5.3): a heap whose
// parameters are the kernel's and the enclosing loops' variables, or nil
// if s is not a statement of the kernel (or a let, which has no effect).
// Writes are restricted to the constraints that the conjunctions of the
// facts of their scope have in common (Γ: the ranges of the enclosing
// loops and the conditions of the enclosing ifs; commonFacts), which
// changes nothing in the environments where the statement runs.
func (p *Prophecy) Effect(s sched.Stmt) *Heap { return p.effects[s] }

// IterationEffect returns Δh of one iteration of loop l, parametric in the
// loop variable, and the name of the presburger parameter standing for the
// variable (its name, primed if it shadows a parameter). This is the
// summary that the symbolic evaluation of a sequential loop (rule
// S-SEQLOOP) plugs into the heap before each iteration.
func (p *Prophecy) IterationEffect(l *sched.Loop) (delta *Heap, param string, ok bool) {
	b, ok := p.bodies[l]
	return b.delta, b.param, ok
}

// iterationCells returns the cells of the arrays that several components
// of the iteration effect of the sequential loop l write, by array, as
// the loop's iterated update computed them (nil when it did not).
func (p *Prophecy) iterationCells(l *sched.Loop) map[string]*presburger.Map {
	return p.bodies[l].cells
}

// Prophesy computes the prophetic heap of the checked kernel k (kinfo is
// sched.Check's result against spec). It follows the rules of Clément 2022, Fig. 5.3
// statement by statement: T-SKIP, T-SEQ (update), T-ASSIGN (the
// annotation becomes the written value), T-IF, let (the variable stands
// for its value), T-ALLOCATE (the local array's cells are dropped),
// T-SEQLOOP (iterated update) and T-PARLOOP (union over the iterations,
// made single-valued by ν).
//
// Every write is restricted to the facts of its scope (loop ranges and if
// conditions, Γ in the rules), or to their common constraints when they
// have several conjunctions, which keeps heaps small and changes nothing
// where the statement runs; the kernel's assumptions restrict Final only.
//
// Prophetic evaluation assumes what the verifier has yet to prove: that
// annotations are true, writes in bounds and parallel loops free of
// races. Its result is therefore no verdict on the kernel.
func Prophesy(ctx context.Context, k *sched.Kernel, kinfo *sched.Info, spec *sare.Spec, opts Options) (p *Prophecy, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("prophetic evaluation of kernel %s: internal error: %v", kernelName(k), r)
		}
	}()
	if k == nil || kinfo == nil || spec == nil {
		return nil, fmt.Errorf("prophetic evaluation: missing kernel, check information or specification")
	}
	if opts.Budget != (presburger.Budget{}) {
		ctx = presburger.WithBudget(ctx, opts.Budget)
	}
	var params []string
	for _, id := range k.Params {
		params = append(params, id.Name)
	}
	res := &Prophecy{effects: map[sched.Stmt]*Heap{}, bodies: map[*sched.Loop]loopBody{}, garbage: opts.garbage,
		steps: map[sched.Stmt]stepMemo{}, operands: map[sched.Stmt]operands{}, reuse: newRoundReuse(opts.prev, opts.garbage),
		accumulates: opts.Accumulates}
	res.Contexts = NewContexts()
	if res.reuse != nil {
		res.Contexts = opts.prev.Contexts
	}
	if len(opts.garbage) > 0 {
		res.accumulates = opts.Accumulates
	}
	ev := &prophet{ctx: ctx, cs: res.Contexts, info: kinfo.Types, spec: spec, defined: opts.defined,
		effects: res.effects, bodies: res.bodies, heapAnnot: opts.HeapAnnot,
		garbage: opts.garbage, steps: res.steps, operands: res.operands, reuse: res.reuse, res: res}
	scope := NewScope(params).charging(ctx)
	if res.reuse != nil {
		// The assumptions and the initial heap do not depend on the
		// garbage iterations.
		res.Assumptions, res.kernelAssumptions, res.Initial = opts.prev.kernelAssumptions, opts.prev.kernelAssumptions, opts.prev.Initial
		return ev.finish(res, scope.WithAssumptions(res.Assumptions), k)
	}
	res.Assumptions = opts.Assumptions
	if res.Assumptions == nil {
		if res.Assumptions, err = assumptionDomain(ctx, scope, k); err != nil {
			return nil, err
		}
	}
	res.kernelAssumptions = res.Assumptions
	scope = scope.WithAssumptions(res.Assumptions)
	if res.Initial, err = ev.initial(scope, k); err != nil {
		return nil, fmt.Errorf("kernel %s: %w", kernelName(k), err)
	}
	return ev.finish(res, scope, k)
}

// finish completes the prophecy res, whose assumptions and initial heap
// are known, in the kernel's scope: the effect of its body and the final
// heap.
func (ev *prophet) finish(res *Prophecy, scope *Scope, k *sched.Kernel) (_ *Prophecy, err error) {
	ctx := ev.ctx
	if res.Delta, err = ev.block(scope, k.Body); err != nil {
		return nil, fmt.Errorf("kernel %s: %w", kernelName(k), err)
	}
	if r := ev.reuse; r != nil && r.prev.Delta == res.Delta {
		res.Final = r.prev.Final
		return res, nil
	}
	final, err := res.Initial.Update(ctx, res.Delta)
	if err != nil {
		return nil, fmt.Errorf("kernel %s: final heap: %w", kernelName(k), err)
	}
	if res.Final, err = finalHeap(ctx, final, res.Assumptions); err != nil {
		return nil, fmt.Errorf("kernel %s: final heap: %w", kernelName(k), err)
	}
	return res, nil
}

// finalHeap returns h restricted to the assumptions and simplified. Under
// assumptions of several conjunctions (a compiler's specialisations), the
// heap is simplified first and each of its pieces is restricted to the
// one conjunction that meets it, or, when several do, to the constraints
// they all have in common (keepAssumed): restricted to the conjunctions,
// the pieces are multiplied by them (resize's output, 1,506 pieces each
// meeting 3 to 93 of 111 conjunctions, held 95,664 pieces before the
// memory ran out). The heap is then within h and its points where the
// assumptions hold are exactly those of h's: every user of the final
// heap restricts it to the assumptions (outputCells, outputObligations).
// The tests of the pieces are charged against the allowance of ctx.
func finalHeap(ctx context.Context, h *Heap, assumptions *presburger.Map) (_ *Heap, err error) {
	defer guard(&err, "final heap")
	if assumptions.NumBasics() <= 1 {
		r, err := h.Restrict(assumptions)
		if err != nil {
			return nil, err
		}
		return r.Simplify(ctx)
	}
	if h, err = h.Simplify(ctx); err != nil {
		return nil, err
	}
	var out []*presburger.Map
	for _, m := range h.u.Maps() {
		if m, _, err = keepAssumed(ctx, m, assumptions, nil); err != nil {
			return nil, fmt.Errorf("restriction to the assumptions: %w", err)
		}
		if m.NumBasics() > 0 {
			out = append(out, m)
		}
	}
	return &Heap{u: presburger.NewUnionMap(out...)}, nil
}

// restrictEach returns m ∩ p, p a parameter domain, without its empty
// pieces: the same set as m.IntersectParams(p), built one piece of m at a
// time. Each piece's intersections with p's conjunctions are charged
// (chargeBuilt: a step per pair and per constraint built) before their
// empty pieces are dropped, so that only the non-empty pieces found so far
// and one piece's intersections are held at once, and the step budget
// stops the restriction before the pieces it would build can exhaust the
// memory (resize's held 19 GB built all at once). size, when not nil,
// counts the matrix entries of the pieces kept against the bound of one
// value's products (productSize.addEntries): a restriction past it fails
// with an error wrapping presburger.ErrBudget before it holds more.
func restrictEach(ctx context.Context, m, p *presburger.Map, size *productSize) (*presburger.Map, error) {
	return intersectEach(ctx, m, p, func(r *presburger.Map) (*presburger.Map, error) {
		r, err := dropEmptyPieces(ctx, r)
		if err != nil {
			return nil, err
		}
		if err := size.addEntries(r); err != nil {
			return nil, err
		}
		return r, nil
	})
}

// dropEmptyPieces returns m without its empty pieces, each tested by
// Map.IsEmpty: a rational tableau first, whose integral vertex or short
// branch and bound finds a point of most of the pieces kept, and the
// Omega test for the others (DropEmpty runs the Omega test on every
// piece). The result is the same set.
func dropEmptyPieces(ctx context.Context, m *presburger.Map) (*presburger.Map, error) {
	ps := m.Pieces()
	keep := ps[:0]
	for _, p := range ps {
		empty, err := p.IsEmpty(ctx)
		if err != nil {
			return nil, fmt.Errorf("drop empty pieces: %w", err)
		}
		if !empty {
			keep = append(keep, p)
		}
	}
	if len(keep) == m.NumBasics() {
		return m, nil
	}
	return presburger.UnionPieces(m.Space(), keep...)
}

func kernelName(k *sched.Kernel) string {
	if k == nil || k.Name == nil {
		return "?"
	}
	return k.Name.Name
}

// prophet carries what the rules share.
type prophet struct {
	ctx     context.Context
	cs      *Contexts
	info    *expr.Info
	spec    *sare.Spec
	effects map[sched.Stmt]*Heap
	bodies  map[*sched.Loop]loopBody
	// heapAnnot is Options.HeapAnnot.
	heapAnnot map[*sched.Assign]syntax.Expr
	// garbage is Options.garbage.
	garbage map[*sched.Assign]*presburger.Map
	// steps records the steps of the blocks, reuse what may be taken from
	// the previous round's prophecy (rounds.go).
	steps map[sched.Stmt]stepMemo
	// operands records the heaps the effects of loops and conditionals
	// were computed from (rounds.go).
	operands map[sched.Stmt]operands
	reuse    *roundReuse
	// res is the prophecy under construction.
	res *Prophecy
	// defined is Options.defined.
	defined map[string]*presburger.Map
}

// initial returns the heap of the in bindings.
func (p *prophet) initial(s *Scope, k *sched.Kernel) (*Heap, error) {
	h := EmptyHeap()
	for _, b := range k.Bindings {
		if b.Dir != sched.In {
			continue
		}
		m, err := p.binding(s, b)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", b.Pos(), sched.BindingString(b), err)
		}
		h = h.Union(NewHeap(presburger.NewUnionMap(m)))
	}
	return h, nil
}

// binding returns { a[vars] -> T(□...)[args] : 0 <= vars < extents and where }.
func (p *prophet) binding(s *Scope, b *sched.Binding) (*presburger.Map, error) {
	if len(b.Vars) != len(b.Extents) {
		return nil, fmt.Errorf("%d variables for %d extents", len(b.Vars), len(b.Extents))
	}
	t := p.spec.Tensor(b.Tensor.Fun.Name)
	if t == nil {
		return nil, fmt.Errorf("unknown tensor %s", b.Tensor.Fun.Name)
	}
	dims := make([]string, len(b.Vars))
	for i, v := range b.Vars {
		dims[i] = v.Name
	}
	tr := s.withDims(dims)
	sv, err := p.cs.tensorValue(b.Tensor, t.Type, tr)
	if err != nil {
		return nil, err
	}
	// Bounds 0 <= v < extent (extents over the parameters only).
	bounds, err := extentBounds(s, b.Extents, presburger.InVar)
	if err != nil {
		return nil, err
	}
	if b.Where != nil {
		w, err := tr.cond(b.Where, false)
		if err != nil {
			return nil, err
		}
		if bounds, err = bounds.and(tr.w, w); err != nil {
			return nil, err
		}
	}
	m, err := p.cellMap(s, b.Array.Name, dims, nil, sv, bounds)
	if err != nil {
		return nil, err
	}
	if def := p.defined[t.Name.Name]; def != nil && !t.Input {
		cells, err := definedCells(s, tr, b, dims, bounds, def)
		if err != nil {
			return nil, err
		}
		return m.IntersectDomain(cells)
	}
	return m, nil
}

// definedCells returns the cells { a[vars] : bounds } of the in binding b
// whose tensor element is in def, the tensor's defined points.
func definedCells(s *Scope, tr *translator, b *sched.Binding, dims []string, bounds dnf, def *presburger.Map) (*presburger.Map, error) {
	vs := make([]presburger.Var, len(b.Tensor.Args))
	pws := make([]pwExpr, len(b.Tensor.Args))
	for k, x := range b.Tensor.Args {
		vs[k] = presburger.OutVar(k)
		var err error
		if pws[k], err = tr.index(x); err != nil {
			return nil, err
		}
	}
	d, err := tr.w.equalities(vs, pws)
	if err != nil {
		return nil, err
	}
	if d, err = d.and(tr.w, bounds); err != nil {
		return nil, err
	}
	sp := presburger.MapSpace(s.Params(), presburger.FlatTuple(b.Array.Name, dims...), def.Space().Out)
	r, err := lowerDNF(sp, d, nil)
	if err != nil {
		return nil, err
	}
	if r, err = r.IntersectRange(def); err != nil {
		return nil, err
	}
	return r.Domain(), nil
}

// cellMap returns { a[idx] -> E[holes] : cond } in scope s, where idx
// are the cell's index expressions (nil: the cell is the input tuple
// itself, named by dims) and sv the symbolic value.
func (p *prophet) cellMap(s *Scope, array string, dims []string, idx []pwExpr, sv *SymbolicValue, cond dnf) (*presburger.Map, error) {
	n := len(dims)
	if idx != nil {
		n = len(idx)
	}
	in := make([]string, n)
	for i := range in {
		if dims != nil {
			in[i] = dims[i]
		} else {
			in[i] = fmt.Sprintf("i%d", i)
		}
	}
	out := make([]string, sv.Context.Holes)
	for i := range out {
		out[i] = fmt.Sprintf("h%d", i+1)
	}
	sp := presburger.MapSpace(s.Params(), presburger.FlatTuple(array, in...), presburger.FlatTuple(sv.Context.Name, out...))
	var vs []presburger.Var
	var es []pwExpr
	for i, e := range idx {
		vs = append(vs, presburger.InVar(i))
		es = append(es, e)
	}
	for i, e := range sv.holes {
		vs = append(vs, presburger.OutVar(i))
		es = append(es, e)
	}
	eqs, err := s.w.equalities(vs, es)
	if err != nil {
		return nil, err
	}
	if cond != nil {
		if eqs, err = eqs.and(s.w, cond); err != nil {
			return nil, err
		}
	}
	return lowerDNF(sp, eqs, nil)
}

// block evaluates a block: T-SEQ over its statements, lets scoped to it.
func (p *prophet) block(s *Scope, b *sched.Block) (*Heap, error) {
	h := EmptyHeap()
	start := s
	for _, st := range b.Stmts {
		if l, ok := st.(*sched.Let); ok {
			ns, err := s.Let(p.ctx, l.Var.Name, l.Value)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", l.Pos(), err)
			}
			s = ns
			continue
		}
		d, err := p.stmt(s, st)
		if err != nil {
			return nil, err
		}
		in := h
		if m, ok := p.reuseStep(st, h, d); ok {
			h = m
		} else if h, err = h.Update(p.ctx, d); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", st.Pos(), sched.StmtLine(st), err)
		}
		p.steps[st] = stepMemo{in: in, delta: d, out: h}
	}
	// The block's lets inside a loop kept as symbols end with it
	// (opaque.go).
	h, err := s.withoutLoopLets(p.ctx, start, h)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.Pos(), err)
	}
	return h, nil
}

// stmt returns Δh of one statement (a let is handled by block) and
// records it.
func (p *prophet) stmt(s *Scope, st sched.Stmt) (*Heap, error) {
	if h, ok := p.reuseEffects(st); ok {
		return h, nil
	}
	h, err := p.rule(s, st)
	if err == nil {
		h = p.sameEffect(st, h)
		p.effects[st] = h
	}
	return h, err
}

// rule applies the rule of Clément 2022, Fig. 5.3, for st.
func (p *prophet) rule(s *Scope, st sched.Stmt) (*Heap, error) {
	if err := p.ctx.Err(); err != nil {
		return nil, err
	}
	wrap := func(err error) error {
		return fmt.Errorf("%s: %s: %w", st.Pos(), sched.StmtLine(st), err)
	}
	switch st := st.(type) {
	case *sched.Skip:
		return EmptyHeap(), nil
	case *sched.Block:
		return p.block(s, st)
	case *sched.Let:
		return nil, wrap(fmt.Errorf("let outside a block"))
	case *sched.Assign:
		h, err := p.assign(s, st)
		if err != nil {
			return nil, wrap(err)
		}
		return h, nil
	case *sched.If:
		c, err := s.constraint(st.Cond, false)
		if err != nil {
			return nil, wrap(err)
		}
		nc, err := s.constraint(st.Cond, true)
		if err != nil {
			return nil, wrap(err)
		}
		sThen, err := s.Assume(c)
		if err != nil {
			return nil, wrap(err)
		}
		sElse, err := s.Assume(nc)
		if err != nil {
			return nil, wrap(err)
		}
		h1, err := p.block(sThen, st.Then)
		if err != nil {
			return nil, err
		}
		var h2 *Heap
		if st.Else != nil {
			if h2, err = p.stmt(sElse, st.Else); err != nil {
				return nil, err
			}
		}
		if h, ok := p.reuseRule(st, operands{h1, h2}); ok {
			return h, nil
		}
		if h2 == nil {
			h2 = EmptyHeap()
		}
		if h1, err = h1.Restrict(c); err != nil {
			return nil, wrap(err)
		}
		if h2, err = h2.Restrict(nc); err != nil {
			return nil, wrap(err)
		}
		h, err := h1.Union(h2).Simplify(p.ctx)
		if err != nil {
			return nil, wrap(err)
		}
		return h, nil
	case *sched.Alloc:
		h, err := p.block(s, st.Body)
		if err != nil {
			return nil, err
		}
		return h.Drop(st.Array.Name), nil
	case *sched.Loop:
		inner, x := s.With(st.Var.Name)
		lo, hi := st.Bounds()
		bound, err := inner.Range(x, lo, hi)
		if err != nil {
			return nil, wrap(s.rangeLets(err, lo, hi))
		}
		if inner, err = inner.Assume(bound); err != nil {
			return nil, wrap(err)
		}
		body, err := p.block(inner, st.Body)
		if err != nil {
			return nil, err
		}
		if h, ok := p.reuseRule(st, operands{body, nil}); ok {
			p.bodies[st] = p.reuse.prev.bodies[st]
			return h, nil
		}
		if body, err = body.Simplify(p.ctx); err != nil {
			return nil, wrap(err)
		}
		lb := loopBody{param: x, delta: body}
		var h *Heap
		if st.Par {
			if h, err = body.UnionOver(x, bound); err == nil {
				h, err = h.SingleValued(p.ctx)
			}
		} else {
			h, lb.cells, err = body.iterateCells(p.ctx, x, bound)
		}
		p.bodies[st] = lb
		if err == nil {
			h, err = h.Simplify(p.ctx)
		}
		if err != nil {
			return nil, wrap(err)
		}
		return h, nil
	}
	return nil, wrap(fmt.Errorf("unknown statement %T", st))
}

// assign is T-ASSIGN: { a[indices] -> decompose(annotation) }.
func (p *prophet) assign(s *Scope, st *sched.Assign) (*Heap, error) {
	tr := s.translator()
	idx := make([]pwExpr, len(st.Indices))
	annot := st.Annot
	if a, ok := p.heapAnnot[st]; ok {
		annot = a
	}
	// Out of pieces over lets of many: evaluate again with them kept as
	// symbols (opaque.go, storeLets).
	keep := func(err error) error { return s.storeLets(err, append([]syntax.Expr{annot}, st.Indices...)...) }
	for i, x := range st.Indices {
		v, err := tr.index(x)
		if err != nil {
			return nil, keep(err)
		}
		// A carry the scope fixes to 0 (carry.go).
		if idx[i], _, err = s.fixedDivisions(p.ctx, v); err != nil {
			return nil, err
		}
	}
	sv, err := p.cs.Decompose(annot, p.info, s)
	if err != nil {
		return nil, keep(fmt.Errorf("annotation: %w", err))
	}
	// And in the annotation's holes, where the carry of a delinearised
	// column repeats (a boundary condition's coordinate).
	if sv, err = s.fixedHoles(p.ctx, sv); err != nil {
		return nil, err
	}
	m, err := p.cellMap(s, st.Array.Name, nil, idx, sv, nil)
	if outOfPieces(err) {
		// Over lets of many conjunctions, keep them (storeLets): their
		// pruning would cost more than the evaluation again.
		var ll *loopLets
		if kept := keep(err); errors.As(kept, &ll) {
			return nil, kept
		}
		m, err = p.prunedCellMap(s, st.Array.Name, idx, sv)
	}
	if err != nil {
		return nil, keep(err)
	}
	ms := []*presburger.Map{m}
	if g, ok := p.garbage[st]; ok {
		// At its garbage iterations the assignment writes ⊥ (garbage.go).
		if ms, err = p.garbageWrite(s, m, g); err != nil {
			return nil, err
		}
	}
	// The write happens only in environments compatible with the scope
	// (Γ): restricting it there early keeps the heaps small. Only the
	// facts' common constraints are taken (commonFacts), as the walk does
	// for the heap of a loop's body: facts of several conjunctions (the
	// pieces of the mins in a compiler's tile bounds) split every write
	// once per conjunction, and every heap after it, where the rest of
	// the facts changes nothing. The write is only ever read where the
	// statement runs: the rules of the enclosing statements restrict it
	// to their conditions and loop ranges themselves (T-IF, the iterated
	// update and union over a loop's range), and so do the walk and the
	// conditions. This also holds of the split into garbage and values
	// (garbageWrite), whose garbage iterations are exact only under the
	// facts (compactGarbage).
	if f := s.Facts(); f != nil {
		f = commonFacts(f)
		for i := range ms {
			if ms[i], err = ms[i].IntersectParams(f); err != nil {
				return nil, err
			}
		}
	}
	return NewHeap(presburger.NewUnionMap(ms...)), nil
}

// compactDomain simplifies and coalesces a parameter domain as it is
// built, assumption by assumption. Compilers' assumptions are full of
// min, max and floor division (Halide's checks on buffer sizes), each of
// which splits the domain into pieces: conjoined as they come, eight of
// Halide's checks make some thousand pieces that every later intersection
// multiplies, where simplified at each step they stay a handful. A
// coalescing that runs out of its budget leaves the simplified domain as
// it is: the same set.
// Assumptions returns the parameter domain of the kernel's assume lines,
// compacted as the prophetic evaluation computes it (Prophecy.Assumptions).
func Assumptions(ctx context.Context, k *sched.Kernel) (_ *presburger.Map, err error) {
	defer guard(&err, "assumptions")
	var params []string
	for _, id := range k.Params {
		params = append(params, id.Name)
	}
	return assumptionDomain(ctx, NewScope(params).charging(ctx), k)
}

// assumptionDomain conjoins the kernel's assumptions in scope
// (conjoinAssumptions).
func assumptionDomain(ctx context.Context, scope *Scope, k *sched.Kernel) (*presburger.Map, error) {
	cs := make([]*presburger.Map, len(k.Assumes))
	for i, a := range k.Assumes {
		var err error
		if cs[i], err = scope.Constraint(a.Cond); err != nil {
			return nil, fmt.Errorf("kernel %s: assume: %w", kernelName(k), err)
		}
	}
	dom, err := conjoinAssumptions(ctx, presburger.ParamSpace(scope.params), cs)
	if err != nil {
		return nil, fmt.Errorf("kernel %s: assume: %w", kernelName(k), err)
	}
	return dom, nil
}

func compactDomain(ctx context.Context, m *presburger.Map) (*presburger.Map, error) {
	m, err := m.Simplify(ctx)
	if err != nil {
		return nil, err
	}
	if m.NumBasics() < 2 {
		return m, nil
	}
	c, err := presburger.Coalesce(ctx, m)
	switch {
	case err == nil:
		return c, nil
	case errors.Is(err, presburger.ErrBudget):
		return m, nil
	}
	return nil, err
}
