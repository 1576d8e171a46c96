package symeval

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// This file assembles the symbolic evaluation of Clément 2022, Fig. 5.4,
// into the list of verification conditions of a kernel: the Presburger
// side conditions, decided here, and the value obligations, left to a
// solver (package validate discharges them). A kernel is correct when every
// condition holds; this package decides none of the value obligations and
// gives no verdict.

// Status is the state of a condition.
type Status int

// Statuses of a condition.
const (
	// Pending: a value obligation not yet discharged.
	Pending Status = iota
	// Proved: the condition holds for every parameter value satisfying
	// the assumptions.
	Proved
	// Failed: the condition fails for some parameter values.
	Failed
	// Undecided: the condition could be decided neither way.
	Undecided
)

var statusNames = [...]string{"pending", "proved", "failed", "undecided"}

// String names the status ("proved").
func (s Status) String() string {
	if s >= 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// LoopVar is a loop variable in scope at a condition: its name in the
// kernel and the name of the presburger parameter standing for it (the
// same, or primed when it shadows a parameter).
type LoopVar struct {
	Name  string
	Param string
}

// Obligation is a value obligation: for every value of the parameters
// (the kernel's, then the loop variables in scope) satisfying the
// assumptions and every point (i, s) of Points, Impl⟨i⟩ equals Spec⟨s⟩
// (i fills Impl's holes and s Spec's, in that order).
type Obligation struct {
	Impl, Spec *Context
	Points     *presburger.Map
	// Assumed, when not nil, is a parameter domain that the points are
	// not restricted to: the assumptions of several conjunctions, kept
	// apart from the points rather than multiplying their pieces. Points
	// then holds points where it does not hold, which are no
	// obligation's: a check of the obligation conjoins it.
	Assumed *presburger.Map
	// SpecValue is set when Spec is the specification's value of the cell
	// (an annotation, an output's element), which any kernel value
	// satisfies where it is unconstrained (value.Value.IsUnconstrained);
	// unset when Spec is a kernel value or a condition.
	SpecValue bool
}

// WithImpl returns the obligation with its kernel side replaced by impl
// (a part of Impl, such as one of its subterms), over the same points and
// against the same specification side.
func (o *Obligation) WithImpl(impl *Context) *Obligation {
	return &Obligation{Impl: impl, Spec: o.Spec, Points: o.Points, Assumed: o.Assumed, SpecValue: o.SpecValue}
}

// String prints the obligation as "Impl = Spec : points", the holes of
// Impl named i1..in and those of Spec s1..sm.
func (o *Obligation) String() string {
	return fmt.Sprintf("%s = %s  for %s", o.ImplExpr(), o.SpecExpr(), o.Points)
}

// ImplExpr prints Impl with its holes named i1, i2, ...
func (o *Obligation) ImplExpr() string { return fillNames(o.Impl, "i") }

// SpecExpr prints Spec with its holes named s1, s2, ...
func (o *Obligation) SpecExpr() string { return fillNames(o.Spec, "s") }

func fillNames(c *Context, prefix string) string {
	x := substHoles(c.Expr, func(k int) syntax.Expr { return &syntax.Ident{Name: fmt.Sprintf("%s%d", prefix, k)} })
	return syntax.ExprString(x)
}

// Condition is one verification condition of a kernel.
type Condition struct {
	// ID numbers the conditions from 1, in program order.
	ID int
	// Kind is the failure the condition rules out.
	Kind sched.Kind
	// Pos and Text locate the condition: the assignment, the par loop
	// (races, conflicts), the out binding (outputs) or the equation
	// (ill-defined specification).
	Pos  syntax.Pos
	Text string
	// InSpec is set when Pos is in the specification rather than the
	// kernel.
	InSpec bool
	// Stmt is the statement concerned, or nil.
	Stmt sched.Stmt
	// Loops are the loop variables in scope, outermost first.
	Loops []LoopVar
	// Status is Proved, Failed or Undecided for the conditions decided
	// over Presburger sets, Pending for value obligations.
	Status Status
	// Violations are the points where a Presburger condition fails (for
	// Failed): sets over the kernel's parameters and the loop variables
	// in scope, whose tuples name the cells concerned.
	Violations *presburger.UnionMap
	// Obligation is the value obligation of a Pending condition.
	Obligation *Obligation
	// Reason explains an Undecided status.
	Reason string
	// Detail completes the description (for instance the two equations
	// that overlap).
	Detail string
}

// Analysis is the result of the symbolic evaluation of a kernel.
type Analysis struct {
	// Params are the kernel's parameters.
	Params []string
	// Assumptions is the parameter domain of the kernel's and the
	// specification's assume lines: the conditions hold under it.
	Assumptions *presburger.Map
	// Prophecy is the prophetic evaluation the conditions rest on.
	Prophecy *Prophecy
	// Conditions lists every condition in program order.
	Conditions []*Condition
	// Garbage says how the garbage writes went (Clément 2022, section
	// 9.9; see garbage.go).
	Garbage GarbageSummary
	// Steps is the number of Presburger steps that the evaluation took
	// (AnalyzeOptions.Steps).
	Steps int64
	// dead finds the dead stores of the kernel (DeadPoints).
	dead *deadStores
}

// AnalyzeOptions tune Analyze.
type AnalyzeOptions struct {
	Options
	// Trace, when set, receives a description of the evaluation as it
	// goes: the heap before every assignment and every condition, with
	// the nesting depth of the statement.
	Trace func(depth int, line string)
	// Refutes, when set, is asked about the conditions over Presburger
	// sets that fail, in program order as they are generated, until it
	// reports that one refutes the kernel (the caller confirmed a
	// counterexample at its violations). The value obligations after
	// that one are then not computed, since no one discharges them: each
	// assignment, par loop and the out bindings get one Undecided
	// condition instead, "not discharged: Cn already refutes the kernel".
	// The condition's ID is set when it is asked. It is not asked while
	// the conditions are those of the garbage writes' fixpoint, which
	// may yet be given up for the ordinary ones.
	Refutes func(c *Condition) bool
	// Pending, when set, is given every value condition left for the
	// solver (status Pending, with its obligation) as soon as it is
	// generated, on the evaluation's goroutine, so that the caller may
	// start deciding it while the evaluation goes on. The condition is
	// not final: its ID is not set yet, and it may be dropped (the
	// garbage writes' fallback generates the conditions afresh). The
	// callee must not modify it, and must copy what it reads after
	// returning.
	Pending func(c *Condition)
	// Steps bounds the work of the whole evaluation, in the elementary
	// steps of the Presburger engine (presburger.Allowance) that every
	// operation of the evaluation counts, besides its own bound
	// (Options.Budget): 0 means DefaultSteps, a negative value no bound.
	// Past it, Analyze stops with an error wrapping
	// presburger.ErrAllowance, whatever the machine and its load. The
	// steps of Refutes and Pending, which run on the caller's contexts,
	// are not counted.
	Steps int64
	// ProductCoefficients bounds the coefficients (constraints times
	// columns) of the products of pieces that the evaluation of one
	// statement's value builds (productSize): 0 means
	// DefaultProductCoefficients. Past it, that statement's value
	// obligations are one Undecided condition naming the bound, and the
	// evaluation goes on with the next statement. The step budget bounds
	// the work; this bounds the memory a value holds.
	ProductCoefficients int
}

// DefaultProductCoefficients is the default bound on the coefficients of
// the products of one value's pieces (AnalyzeOptions.ProductCoefficients):
// 2^25 coefficients of 16 bytes, half a gigabyte.
const DefaultProductCoefficients = 1 << 25

// DefaultSteps is the default bound on the Presburger steps of one
// symbolic evaluation (AnalyzeOptions.Steps).
const DefaultSteps = 20_000_000

// Analyze runs the prophetic and symbolic evaluations of the checked
// kernel k against its checked specification and returns every
// verification condition: the value obligations of S-ASSIGN, of the
// write-write conflicts of S-PARLOOP and of the out bindings; and,
// decided over Presburger sets, the reads of undefined cells and out of
// bounds, the writes out of bounds, the read-write races, the out cells
// never written, the annotations naming undefined tensor elements and the
// sanity of the specification (disjoint equation domains).
//
// A Presburger condition that exceeds the budget is Undecided, not an
// error; errors are malformed input or internal failures.
func Analyze(ctx context.Context, k *sched.Kernel, kinfo *sched.Info, spec *sare.Spec, sinfo *expr.Info, opts AnalyzeOptions) (a *Analysis, err error) {
	defer guard(&err, "symbolic evaluation")
	if opts.Budget != (presburger.Budget{}) {
		ctx = presburger.WithBudget(ctx, opts.Budget)
	}
	steps := opts.Steps
	if steps == 0 {
		steps = DefaultSteps
	}
	allow := presburger.NewAllowance(steps)
	ctx = presburger.WithAllowance(ctx, allow)
	if opts.ProductCoefficients > 0 {
		ctx = withProductBound(ctx, opts.ProductCoefficients)
	}
	defer func() {
		if a != nil {
			a.Steps = allow.Used()
		}
		if errors.Is(err, presburger.ErrAllowance) {
			err = fmt.Errorf("symbolic evaluation: %w (%d used)", err, allow.Used())
		}
	}()
	// The specification is analysed first when an in binding loads a
	// computed tensor: the initial heap holds such a binding's defined
	// elements only.
	var an *specAnalysis
	if loadsComputed(k, spec) {
		if an, err = analyzeSpec(ctx, spec, sinfo); err != nil && !undecidable(err) {
			return nil, err
		}
		if an != nil {
			opts.defined = an.defined
		}
	}
	pr, err := Prophesy(ctx, k, kinfo, spec, opts.Options)
	for tries := 0; err != nil && tries < maxOpaqueRetries; tries++ {
		// A loop's range ran out of pieces over lets that can be kept
		// as symbols: evaluate again with those kept (opaque.go).
		var ll *loopLets
		if !errors.As(err, &ll) {
			break
		}
		ctx = withOpaqueLets(ctx, append(ll.names, ll.kept...))
		pr, err = Prophesy(ctx, k, kinfo, spec, opts.Options)
	}
	if err != nil {
		return nil, err
	}
	// The rounds of garbage writes evaluate the kernel again under the
	// same assumptions.
	opts.Assumptions = pr.Assumptions
	var params []string
	for _, id := range k.Params {
		params = append(params, id.Name)
	}
	// The specification's assumptions hold too.
	top := NewScope(params).charging(ctx)
	for _, as := range spec.Assumes {
		c, err := top.Constraint(as.Cond)
		if err != nil {
			return nil, fmt.Errorf("specification: assume: %w", err)
		}
		if pr.Assumptions, err = pr.Assumptions.Intersect(c); err != nil {
			return nil, err
		}
	}
	a = &Analysis{Params: params, Assumptions: pr.Assumptions, Prophecy: pr}
	g := &gen{ctx: ctx, a: a, pr: pr, k: k, kinfo: kinfo, spec: spec, sinfo: sinfo, trace: opts.Trace, noValue: opts.NoValue,
		opts: opts.Options, undMemo: map[*Prophecy]map[*sched.Assign]*presburger.UnionMap{}, refutes: opts.Refutes, pending: opts.Pending, early: an,
		copies: copyEquations(spec)}
	if err := g.run(); err != nil {
		return nil, err
	}
	for i, c := range a.Conditions {
		c.ID = i + 1
	}
	return a, nil
}

// gen generates the conditions of one kernel.
type gen struct {
	ctx   context.Context
	a     *Analysis
	pr    *Prophecy
	k     *sched.Kernel
	kinfo *sched.Info
	spec  *sare.Spec
	sinfo *expr.Info
	trace func(depth int, line string)
	spc   specReads
	// noValue is Options.NoValue.
	noValue map[*sched.Assign]bool
	// opts are the options of the prophetic evaluation.
	opts Options
	// garbage holds the garbage iterations of the assignments that write
	// ⊥ at the fixpoint of the garbage writes (garbage.go); nil without.
	garbage map[*sched.Assign]*presburger.Map
	// ordinary is the walk of the ordinary prophecy when the conditions
	// are those of the garbage writes' fixpoint (valueSite), else nil.
	ordinary *heapWalker
	// undMemo holds, for a prophecy, the undefined reads of the
	// assignments at all their iterations, in the heaps without ⊥,
	// computed when looking for garbage writes.
	undMemo map[*Prophecy]map[*sched.Assign]*presburger.UnionMap
	// copies are the specification's copy equations (copyEquations).
	copies map[string][]specCopy
	// garbageHarm says where ⊥ does harm (an out cell, a write-write
	// conflict), when a condition on it failed.
	garbageHarm string
	// rests memoises the complements of garbage iterations, by identity
	// (garbageRest).
	rests map[*presburger.Map]*presburger.Map
	// grewIn gives the round in which each garbage set last grew;
	// grewBefore, the same before the current round.
	grewIn, grewBefore map[*sched.Assign]int
	// widened holds the assignments whose garbage iterations were
	// widened to all their iterations: their sets cannot grow.
	widened map[*sched.Assign]bool
	// slid counts the widenings of the assignments' garbage iterations
	// along a loop (grow): past maxSlides, the next growth widens them
	// to all.
	slid map[*sched.Assign]int
	// cycles relates the assignments whose writes others may read
	// (garbageCycles): grow widens the garbage sets of those on a cycle
	// only.
	cycles *cycles
	// harmful holds the garbage iterations of the fixpoint given up
	// because ⊥ does harm (garbageFallback).
	harmful map[*sched.Assign]*presburger.Map
	// hull is the simple hull of the assumptions, once hullDone
	// (assumedHull).
	hull     *presburger.Map
	hullDone bool
	// refutes is AnalyzeOptions.Refutes; refutedBy is the ID of the
	// condition it confirmed, 0 before.
	refutes func(c *Condition) bool
	// pending is AnalyzeOptions.Pending.
	pending   func(c *Condition)
	refutedBy int
	// early is the specification's analysis when Analyze made it before
	// the prophetic evaluation (loadsComputed), nil otherwise.
	early *specAnalysis
	// root is the scope of the kernel's body, the root of the scopes of
	// every walk (walkAfter): the walks derive the same scopes from it,
	// and share their read locations.
	root *Scope
}

// specReads finds the undefined specification elements an annotation
// names (implemented by the specification analysis).
type specReads interface {
	undefinedSpecReads(ctx context.Context, sv *SymbolicValue, s *Scope) (*presburger.UnionMap, bool, error)
}

func (g *gen) tracef(depth int, format string, args ...any) {
	if g.trace != nil {
		g.trace(depth, fmt.Sprintf(format, args...))
	}
}

// undecidable reports whether err means that a Presburger computation
// gave up (budget, cancellation) rather than failed on bad input.
func undecidable(err error) bool {
	return errors.Is(err, presburger.ErrBudget)
}

// traceBudget bounds each Presburger operation that prints an obligation
// for the trace: a trace must not cost more than the validation, and
// printing an obligation of hundreds of pieces in its simplest form can
// cost more than deciding it.
var traceBudget = presburger.Budget{MaxSteps: 20_000, MaxDisjuncts: 64}

func (g *gen) add(c *Condition) {
	if g.root != nil {
		// An obligation over a let inside a loop kept as a symbol
		// (opaque.go).
		if err := g.root.opaque.settle(g.ctx, c); err != nil {
			c.Status, c.Reason = Undecided, "the value over a let kept as a symbol: "+err.Error()
		}
	}
	g.a.Conditions = append(g.a.Conditions, c)
	if c.Status == Failed && g.refutes != nil && g.refutedBy == 0 && g.garbage == nil {
		// IDs are positions (Analyze numbers the conditions in order).
		c.ID = len(g.a.Conditions)
		if g.refutes(c) {
			g.refutedBy = c.ID
		}
	}
	if g.pending != nil && c.Status == Pending && c.Obligation != nil {
		g.pending(c)
	}
	if g.trace != nil {
		switch {
		case c.Obligation != nil:
			for _, l := range c.Obligation.Pretty(presburger.WithBudget(g.ctx, traceBudget)) {
				g.tracef(0, "  C%d %s: %s", len(g.a.Conditions), c.Kind, l)
			}
		case c.Status == Failed:
			g.tracef(0, "  C%d %s: FAILS at %s", len(g.a.Conditions), c.Kind, c.Violations)
		default:
			g.tracef(0, "  C%d %s: %s %s", len(g.a.Conditions), c.Kind, c.Status, c.Reason)
		}
	}
}

// notDischarged records, once a condition refutes the kernel
// (AnalyzeOptions.Refutes), the value conditions of an assignment at
// base as one Undecided condition, and reports whether it did: their
// obligations, the costliest part of the symbolic evaluation of a
// large kernel, are then not computed. (Those of the par loops and the
// out bindings cost little: obligations records them undecided.)
func (g *gen) notDischarged(base Condition) bool {
	if g.refutedBy == 0 {
		return false
	}
	c := base
	c.Kind, c.Status, c.Reason = sched.WrongValue, Undecided, g.refutedReason()
	g.add(&c)
	return true
}

// refutedReason is the reason of the value conditions left undecided
// once the condition g.refutedBy refutes the kernel.
func (g *gen) refutedReason() string {
	return fmt.Sprintf("not discharged: C%d already refutes the kernel", g.refutedBy)
}

// decided records a Presburger condition whose violations are u (nil
// with err when it could not be computed).
func (g *gen) decided(base Condition, u *presburger.UnionMap, err error) error {
	c := base
	if err != nil {
		if !undecidable(err) {
			return err
		}
		c.Status, c.Reason = Undecided, "presburger budget exceeded: "+err.Error()
		g.add(&c)
		return nil
	}
	// The conditions only matter under the assumptions; the pieces
	// that their hull rules out cost one emptiness test each.
	if u, err = g.dropOutsideHull(u); err != nil {
		return err
	}
	if u, err = u.IntersectParams(g.a.Assumptions); err != nil {
		return err
	}
	if g.root != nil {
		if u, err = g.root.opaque.withFacts(u); err != nil {
			return err
		}
	}
	empty, err := u.IsEmpty(g.ctx)
	if err != nil {
		if !undecidable(err) {
			return err
		}
		c.Status, c.Reason = Undecided, "presburger budget exceeded: "+err.Error()
		g.add(&c)
		return nil
	}
	if empty {
		c.Status = Proved
		g.add(&c)
		return nil
	}
	if g.root != nil && len(g.root.opaque.lets()) > 0 {
		// The violations may be at values of the lets kept as symbols
		// that they do not take (opaque.go).
		r, names, ok, err := g.root.opaque.restrictToDefined(g.ctx, u, g.a.Params)
		if err != nil && !undecidable(err) {
			return err
		}
		if err != nil || !ok {
			c.Status = Undecided
			c.Reason = fmt.Sprintf("violated at a point where a let kept as a symbol (its value of more than %d pieces, or of more than %d steps to translate inside a loop: %s) may not have its value", maxPieces, maxLetSteps, names)
			g.add(&c)
			return nil
		}
		u = r
	}
	c.Status = Failed
	if s, err := u.Simplify(g.ctx); err == nil {
		u = s
	}
	c.Violations = u
	g.add(&c)
	return nil
}

// loopsOf lists the loop variables of scope s (its parameters beyond the
// kernel's), with their source names.
func (g *gen) loopsOf(s *Scope) []LoopVar {
	var out []LoopVar
	for _, p := range s.Params()[len(g.a.Params):] {
		if s.opaque.isOpaque(p) {
			continue
		}
		out = append(out, LoopVar{Name: strings.TrimRight(p, "'"), Param: p})
	}
	return out
}

// walk walks the kernel with the prophecy pr: the heap before every
// assignment.
func (g *gen) walk(pr *Prophecy) (*heapWalker, error) {
	return g.walkAfter(pr, nil)
}

// walkAfter is walk for a round of the garbage writes, which may take
// what did not change from prev, the walk of the previous round, when pr
// was computed from prev's prophecy (rounds.go).
func (g *gen) walkAfter(pr *Prophecy, prev *heapWalker) (*heapWalker, error) {
	w := newHeapWalker(g.ctx, pr)
	if prev != nil && pr.reuse != nil && pr.reuse.prev == prev.pr {
		w.prev, w.reuse = prev, pr.reuse
	}
	if g.trace != nil {
		w.trace = func(depth int, format string, args ...any) { g.tracef(depth, format, args...) }
	}
	if g.root == nil {
		g.root = NewScope(g.a.Params).charging(g.ctx).WithAssumptions(g.a.Assumptions)
	}
	s := g.root
	for _, b := range g.k.Bindings {
		if _, ok := w.arrays[b.Array.Name]; !ok {
			w.arrays[b.Array.Name] = arrayDecl{extents: b.Extents, scope: s}
		}
	}
	g.tracef(0, "initial heap: %s", pr.Initial)
	if err := w.block(s, pr.Initial, g.k.Body); err != nil {
		return nil, err
	}
	return w, nil
}

func (g *gen) run() error {
	w0, err := g.walk(g.pr)
	if err != nil {
		return err
	}
	w, pr0 := w0, g.pr
	if !g.opts.NoGarbageWrites {
		if w, err = g.garbageWrites(w0); err != nil {
			return err
		}
		if g.garbage != nil {
			g.ordinary = w0
		}
	}
	if err := g.specChecks(); err != nil {
		return err
	}
	n := len(g.a.Conditions)
	if err := g.kernelConditions(w); err != nil {
		return err
	}
	if g.garbage != nil && g.garbageHarm != "" {
		return g.garbageFallback(w0, pr0, n)
	}
	return nil
}

// kernelConditions generates the conditions of the kernel's statements
// and out bindings from the walk w.
func (g *gen) kernelConditions(w *heapWalker) error {
	g.a.dead = &deadStores{kernel: g.k, params: g.a.Params}
	g.a.dead.record(w)
	for _, st := range w.order {
		switch st := st.(type) {
		case *sched.Assign:
			if err := g.assign(st, w.out[st]); err != nil {
				return err
			}
		case *sched.Loop:
			if st.Par {
				if err := g.parLoop(st, w.loops[st]); err != nil {
					return err
				}
			}
		}
	}
	return g.outputs()
}

// assign generates the conditions of rule S-ASSIGN.
func (g *gen) assign(st *sched.Assign, at site) error {
	base := Condition{Pos: st.Pos(), Text: sched.StmtLine(st), Stmt: st, Loops: g.loopsOf(at.scope)}
	// With garbage writes, at is the site of the bounds checks and good
	// that of the other conditions (garbage.go).
	at, good, detail, err := g.garbageSites(st, at)
	if err != nil {
		return err
	}
	// Reads: out of bounds, then undefined.
	oob, und, err := g.reads(st, at, good)
	if err != nil && !undecidable(err) {
		return err
	}
	c := base
	c.Kind = sched.OutOfBoundsRead
	if err := g.decided(c, oob, err); err != nil {
		return err
	}
	c.Kind = sched.UndefinedRead
	c.Detail = detail
	if err := g.decided(c, und, err); err != nil {
		return err
	}
	c.Detail = ""
	// Reads at data-dependent indices: out of bounds, then undefined.
	if err := g.dataReadConditions(base, st, at, good); err != nil {
		return err
	}
	// The written cell.
	ob, err := outOfBoundsWrites(g.ctx, st, at)
	c.Kind = sched.OutOfBoundsWrite
	var obu *presburger.UnionMap
	if err == nil {
		obu = presburger.NewUnionMap(ob)
	}
	if err := g.decided(c, obu, err); err != nil {
		return err
	}
	// The annotation names defined tensor elements.
	if g.spc != nil {
		sv, err := g.pr.Contexts.Decompose(st.Annot, g.kinfo.Types, good.scope)
		if err != nil {
			return fmt.Errorf("%s: %w", st.Pos(), err)
		}
		c.Kind = sched.UndefinedAnnotation
		u, ok, err := g.spc.undefinedSpecReads(g.ctx, sv, good.scope)
		if err == nil && ok {
			if err := g.decided(c, u, nil); err != nil {
				return err
			}
		} else if err != nil && !undecidable(err) {
			return err
		} else {
			c.Status, c.Reason = Undecided, "the specification could not be proved defined at the annotated elements"
			g.add(&c)
		}
	}
	// The value.
	if g.noValue[st] || g.notDischarged(base) {
		return nil
	}
	obs, err := valueObligations(g.ctx, g.pr.Contexts, g.pr, st, g.valueSite(st, good), g.kinfo.Types, g.copies)
	if err != nil {
		c := base
		c.Kind = sched.WrongValue
		_, err := g.undecidedData(c, err)
		return err
	}
	return g.obligations(base, sched.WrongValue, obs)
}

// obligations records value obligations, dropping those without points
// and those whose two sides are the same context at the same holes.
func (g *gen) obligations(base Condition, kind sched.Kind, obs []obligation) error {
	for _, o := range obs {
		empty, err := o.Points.IsEmpty(g.ctx)
		if err != nil {
			if !undecidable(err) {
				return err
			}
			empty = false
		}
		if empty {
			continue
		}
		c := base
		c.Kind = kind
		if o.Impl.IsGarbage() || o.Spec.IsGarbage() {
			if err := g.garbageObligation(c, o); err != nil {
				return err
			}
			continue
		}
		c.Status = Pending
		c.Obligation = &Obligation{Impl: o.Impl, Spec: o.Spec, Points: o.Points, Assumed: o.Assumed,
			SpecValue: kind == sched.WrongValue || kind == sched.OutputWrongValue}
		if o.Impl == o.Spec {
			// Equal contexts: the obligation holds where the holes agree.
			same, err := g.sameHoles(o)
			if err != nil && !undecidable(err) {
				return err
			}
			if err == nil && same {
				c.Status = Proved
				c.Reason = "both sides are the same expression"
			}
		}
		if c.Status == Pending && g.refutedBy != 0 {
			// No one discharges it (AnalyzeOptions.Refutes).
			c.Status, c.Reason, c.Obligation = Undecided, g.refutedReason(), nil
		}
		g.add(&c)
	}
	return nil
}

// sameHoles reports whether every point of o pairs equal hole values.
func (g *gen) sameHoles(o obligation) (bool, error) {
	n := o.Impl.Holes
	if n == 0 {
		return true, nil
	}
	var diff []*presburger.BasicMap
	sp := o.Points.Space()
	for i := 0; i < n; i++ {
		for _, sign := range []int64{1, -1} {
			// i-th impl hole minus i-th spec hole >= 1 (times sign).
			b := presburger.NewBasicMap(sp)
			row := b.NewRow()
			first := b.Offset(presburger.DimIn) // the point's first dimension
			row[first+i] = presburger.NewInt(sign)
			row[first+n+i] = presburger.NewInt(-sign)
			row[b.ConstCol()] = presburger.NewInt(-1)
			b.AddIneq(row)
			diff = append(diff, b)
		}
	}
	d, err := o.Points.Intersect(presburger.NewMap(sp, diff...))
	if err != nil {
		return false, err
	}
	if err := chargeBuilt(g.ctx, o.Points.NumBasics()*len(diff), d); err != nil {
		return false, fmt.Errorf("same holes: %w", err)
	}
	return d.IsEmpty(g.ctx)
}

// splitOutOfBounds splits undefined reads u into those outside their
// array's bounds and the others.
func (g *gen) splitOutOfBounds(u *presburger.UnionMap, at site) (oob, und *presburger.UnionMap, err error) {
	var in, out []*presburger.Map
	for _, m := range u.Maps() {
		name := m.Space().Out.Name
		d, ok := at.arrays[name]
		if !ok {
			out = append(out, m)
			continue
		}
		b, err := arrayBounds(at.scope, name, d)
		if err != nil {
			return nil, nil, err
		}
		if b.Space().NumOut() != m.Space().NumOut() {
			out = append(out, m)
			continue
		}
		o, err := m.Subtract(g.ctx, b)
		if err != nil {
			return nil, nil, err
		}
		i, err := m.Intersect(b)
		if err == nil {
			err = chargeBuilt(g.ctx, m.NumBasics()*b.NumBasics(), i)
		}
		if err != nil {
			return nil, nil, err
		}
		out = append(out, o)
		in = append(in, i)
	}
	return presburger.NewUnionMap(out...), presburger.NewUnionMap(in...), nil
}

// parLoop generates the conditions of rule S-PARLOOP: rw-safe and
// ww-covered.
func (g *gen) parLoop(l *sched.Loop, s *Scope) error {
	if s == nil {
		return fmt.Errorf("%s: no scope for the loop", l.Pos())
	}
	base := Condition{Pos: l.Pos(), Text: sched.StmtLine(l), Stmt: l, Loops: g.loopsOf(s)}
	races, err := readWriteRaces(g.ctx, g.pr, s, l)
	c := base
	c.Kind = sched.ReadWriteRace
	if err := g.decided(c, races, err); err != nil {
		return err
	}
	g.dataReadRaces(base, l)
	obs, err := writeConflicts(g.ctx, g.pr, s, l)
	if err != nil {
		c := base
		c.Kind = sched.WriteWriteConflict
		_, err := g.undecidedData(c, err)
		return err
	}
	return g.obligations(base, sched.WriteWriteConflict, obs)
}

// outputs generates the conditions of the out bindings: every out cell
// written, with its tensor element.
func (g *gen) outputs() error {
	var first *sched.Binding
	for _, b := range g.k.Bindings {
		if b.Dir == sched.Out {
			first = b
			break
		}
	}
	if first == nil {
		return nil
	}
	base := Condition{Pos: first.Pos(), Text: sched.BindingString(first)}
	miss, err := missingOutputs(g.ctx, g.pr, g.k)
	c := base
	c.Kind = sched.OutputNotWritten
	if err := g.decided(c, miss, err); err != nil {
		return err
	}
	if g.garbage != nil {
		bot, err := garbageOutputs(g.ctx, g.pr, g.k)
		c.Detail = "the out cells hold the undefined value ⊥ of a garbage write (Clément 2022, section 9.9): a value computed from cells never written"
		if err := g.decided(c, bot, err); err != nil {
			return err
		}
		if last := g.a.Conditions[len(g.a.Conditions)-1]; last.Status == Failed {
			g.garbageHarm = "out cells " + clip(last.Violations.String(), 300)
		}
	}
	obs, err := outputObligations(g.ctx, g.pr, g.k, g.spec)
	if err != nil {
		if !undecidable(err) {
			return err
		}
		c := base
		c.Kind, c.Status, c.Reason = sched.OutputWrongValue, Undecided, "presburger budget exceeded: "+err.Error()
		g.add(&c)
		return nil
	}
	// Each obligation is located at the binding whose cells it checks.
	for _, o := range obs {
		bc := base
		if b := o.Binding; b != nil {
			bc.Pos, bc.Text = b.Pos(), sched.BindingString(b)
		}
		if err := g.obligations(bc, sched.OutputWrongValue, []obligation{o}); err != nil {
			return err
		}
	}
	return nil
}

// specChecks records the sanity conditions of the specification: its
// equations' domains disjoint, its recursion well founded; and, for the
// kernel's in bindings, that the tensor elements they load are defined.
func (g *gen) specChecks() error {
	an, err := g.early, error(nil)
	if an == nil {
		an, err = analyzeSpec(g.ctx, g.spec, g.sinfo)
	}
	if err != nil {
		if !undecidable(err) {
			return err
		}
		g.add(&Condition{Kind: sched.IllDefinedSpec, InSpec: true, Text: "specification",
			Status: Undecided, Reason: "presburger budget exceeded: " + err.Error()})
		return nil
	}
	g.spc = an
	for _, is := range an.issues {
		if is.Kind == specUndefinedRead && !is.Definite {
			// Undefined points only matter where the kernel needs them:
			// the annotations' checks (undefinedSpecReads) decide.
			continue
		}
		c := &Condition{Kind: sched.IllDefinedSpec, InSpec: true, Pos: is.Pos, Text: is.Text, Detail: is.Msg}
		if c.Text == "" {
			c.Text = "tensor " + is.Tensor
		}
		switch {
		case is.Definite && is.Points != nil:
			if err := g.decided(*c, presburger.NewUnionMap(is.Points), nil); err != nil {
				return err
			}
			continue
		default:
			c.Status, c.Reason = Undecided, fmt.Sprintf("%s: %s", is.Kind, is.Msg)
		}
		g.add(c)
	}
	return g.inBindings()
}

// loadsComputed reports whether an in binding of k loads a computed
// tensor of spec.
func loadsComputed(k *sched.Kernel, spec *sare.Spec) bool {
	for _, b := range k.Bindings {
		if b.Dir != sched.In || b.Tensor == nil {
			continue
		}
		if t := spec.Tensor(b.Tensor.Fun.Name); t != nil && !t.Input {
			return true
		}
	}
	return false
}

// inBindings checks that the in bindings load defined tensor elements.
// Where the specification analysis proved the tensor's defined points
// (Options.defined), the initial heap holds the binding's cells there
// only: a cell whose element is undefined holds no value, as in the
// interpreter, and only a read of it fails (an undefined read, or a
// garbage write), so the binding itself is proved. Otherwise a binding
// that may load an undefined element makes the verdict unknown: the
// conditions cannot tell which such cells are read.
func (g *gen) inBindings() error {
	for _, b := range g.k.Bindings {
		if b.Dir != sched.In {
			continue
		}
		t := g.spec.Tensor(b.Tensor.Fun.Name)
		if t == nil || t.Input {
			continue
		}
		if g.opts.defined[t.Name.Name] != nil {
			g.add(&Condition{Kind: sched.UndefinedRead, Pos: b.Pos(), Text: sched.BindingString(b), Status: Proved,
				Detail: "the cells whose element of " + t.Name.Name + " is undefined hold no value: their reads are checked as undefined reads"})
			continue
		}
		s := NewScope(g.a.Params).charging(g.ctx)
		var err error
		for i, v := range b.Vars {
			var x string
			s, x = s.With(v.Name)
			r, err := s.Range(x, &syntax.Lit{Kind: syntax.IntLiteral, Text: "0"}, b.Extents[i])
			if err != nil {
				return fmt.Errorf("%s: %w", b.Pos(), err)
			}
			if s, err = s.Assume(r); err != nil {
				return err
			}
		}
		if b.Where != nil {
			w, err := s.Constraint(b.Where)
			if err != nil {
				return fmt.Errorf("%s: %w", b.Pos(), err)
			}
			if s, err = s.Assume(w); err != nil {
				return err
			}
		}
		info := expr.NewInfo()
		info.Types[b.Tensor] = t.Type
		sv, err := g.pr.Contexts.Decompose(b.Tensor, info, s)
		if err != nil {
			return fmt.Errorf("%s: %w", b.Pos(), err)
		}
		c := Condition{Kind: sched.UndefinedRead, Pos: b.Pos(), Text: sched.BindingString(b), Loops: g.loopsOf(s)}
		u, ok, err := g.spc.undefinedSpecReads(g.ctx, sv, s)
		if err != nil && !undecidable(err) {
			return err
		}
		if err == nil && ok {
			if u, err = u.IntersectParams(g.a.Assumptions); err == nil {
				var empty bool
				if empty, err = u.IsEmpty(g.ctx); err == nil && empty {
					c.Status = Proved
					g.add(&c)
					continue
				}
			}
			if err != nil && !undecidable(err) {
				return err
			}
		}
		c.Status, c.Reason = Undecided, "the in binding may load undefined elements of "+t.Name.Name+", and Augur does not track whether those cells are read"
		g.add(&c)
	}
	return nil
}

// Pretty prints the obligation as Clément 2022, Fig. 5.5, does: for each
// piece of the holes' values as functions of the parameters and loop
// variables, the equality with the holes filled in and the piece's domain,
// e.g. "R(i, j, k - 1) + A(i, k) * B(k, j) = R(i, j, k)  for 0 <= k < P
// ...". When the holes are not functions of the parameters (a reduction
// over a hole), it falls back to String.
func (o *Obligation) Pretty(ctx context.Context) (lines []string) {
	const prettyMaxPoints = 32 // pieces of the points past which String is used
	defer func() {
		if recover() != nil {
			lines = []string{o.String()}
		}
	}()
	if o.Points.NumBasics() > prettyMaxPoints {
		// Hardly ever at most 8 functions in the end, and costly to find.
		return []string{o.String()}
	}
	pw, err := presburger.PwMultiAffFromMap(ctx, o.Points)
	reduced := false
	if err != nil || pw.NumPieces() == 0 || pw.NumPieces() > 8 {
		// Clément 2022, section 6.2: the implementation's holes as functions
		// of the specification's.
		if pw, err = o.reduced(ctx); err != nil || pw.NumPieces() == 0 || pw.NumPieces() > 8 {
			return []string{o.String()}
		}
		reduced = true
	}
	for _, pc := range pw.Pieces() {
		affs := pc.Func.Affs()
		if reduced {
			if len(affs) != o.Impl.Holes {
				return []string{o.String()}
			}
			for k := 1; k <= o.Spec.Holes; k++ {
				affs = append(affs, nil)
			}
		} else if len(affs) != o.Impl.Holes+o.Spec.Holes {
			return []string{o.String()}
		}
		texts := make([]string, len(affs))
		for i, a := range affs {
			if a == nil {
				texts[i] = fmt.Sprintf("s%d", i-o.Impl.Holes+1)
				continue
			}
			texts[i] = affText(a.String())
		}
		fill := func(c *Context, off int) string {
			return syntax.ExprString(substHoles(c.Expr, func(k int) syntax.Expr { return &syntax.Ident{Name: texts[off+k-1]} }))
		}
		dom := pc.Domain.String()
		if i := strings.Index(dom, ":"); i >= 0 {
			dom = strings.TrimSuffix(strings.TrimSpace(dom[i+1:]), "}")
		} else {
			dom = "true"
		}
		lines = append(lines, fmt.Sprintf("%s = %s  for %s", fill(o.Impl, 0), fill(o.Spec, o.Impl.Holes), strings.TrimSpace(dom)))
	}
	return lines
}

// reduced returns the implementation's holes as a piecewise function of
// the parameters and the specification's holes (named s1, s2, ...).
func (o *Obligation) reduced(ctx context.Context) (*presburger.PwMultiAff, error) {
	idims := make([]string, o.Impl.Holes)
	for i := range idims {
		idims[i] = fmt.Sprintf("i%d", i+1)
	}
	sdims := make([]string, o.Spec.Holes)
	for i := range sdims {
		sdims[i] = fmt.Sprintf("s%d", i+1)
	}
	sp := presburger.MapSpace(o.Points.Space().Params, presburger.FlatTuple("", idims...), presburger.FlatTuple("", sdims...))
	m, err := respace(o.Points, sp)
	if err != nil {
		return nil, err
	}
	return presburger.PwMultiAffFromMap(ctx, m.Reverse())
}

// affText extracts the expression of a one-dimensional affine function
// printed as "[params] -> { [(e)] }".
func affText(s string) string {
	if i := strings.Index(s, "[("); i >= 0 {
		s = s[i+2:]
		if j := strings.LastIndex(s, ")]"); j >= 0 {
			return s[:j]
		}
	}
	return s
}
