package symeval

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/syntax"
)

// This file checks, before the verifier uses a specification's equations
// as rewrite rules (Clément 2022, section 6.2: the SARE becomes mutually
// recursive functions, whose well-definedness the prototype assumed without
// checking), that the specification is well defined over every parameter
// value satisfying its assume lines:
//
//  1. Overlap: two equations of one tensor never share a point.
//  2. Defined sets: the points of each computed tensor whose equation only
//     reads points that are themselves in the defined sets (the greatest
//     fixpoint of that condition, found by iterated removal).
//  3. Well-foundedness: the dependences between defined points admit no
//     infinite descending chain (no cycle, no infinite descent), proved by
//     a lexicographic ranking function.
//
// 2 and 3 together make every point of a defined set truly defined: by
// well-founded induction on the dependences, a defined point lies in exactly
// one equation's domain and everything that equation reads there is an input
// (defined everywhere) or a defined point, defined by induction. Whatever is
// not proven is reported, never assumed.
//
// In presburger objects a tensor T of rank n is the tuple T[x1, ..., xn],
// with the specification's parameters as parameters.

// specRounds bounds the rounds of the defined-set fixpoint iteration.
const specRounds = 8

// specMaxPieces bounds the pieces of the sets the analysis computes, and
// specMaxLocals the local variables (divisions, existentials) of each
// piece: preimages through divisions add locals round after round.
const (
	specMaxPieces = 32
	specMaxLocals = 6
)

// specIssueKind classifies a specIssue.
type specIssueKind int

const (
	// specOverlap: two equations of one tensor share points.
	specOverlap specIssueKind = iota
	// specCycle: a point depends on itself.
	specCycle
	// specUnfounded: the dependences could not be proven well founded
	// (or the defined sets could not be computed).
	specUnfounded
	// specUndefinedRead: an equation reads, at some points of its domain,
	// points outside every defined set; those points are undefined.
	specUndefinedRead
)

func (k specIssueKind) String() string {
	switch k {
	case specOverlap:
		return "overlap"
	case specCycle:
		return "cycle"
	case specUnfounded:
		return "unfounded"
	case specUndefinedRead:
		return "undefined read"
	}
	return fmt.Sprintf("specIssueKind(%d)", int(k))
}

// specIssue is one problem found in a specification.
type specIssue struct {
	Kind   specIssueKind
	Tensor string
	// Eq holds the indices (in Tensor.Eqs) of the equations involved, the
	// second -1 when only one is (both -1 when the issue concerns a group
	// of tensors as a whole).
	Eq   [2]int
	Pos  syntax.Pos // position of the (second) equation involved, if any
	Text string     // that equation's canonical text (sare printer)
	// Points are the offending points, a set over the parameters in
	// Tensor's tuple; nil when the check could not tell (budget, no
	// ranking found). An issue is never reported with an empty set.
	Points *presburger.Map
	// Definite: the specification is certainly ill-defined (the verdict
	// is invalid); otherwise something is merely unproven (unknown), or,
	// for specUndefinedRead, only matters if a kernel needs those points.
	Definite bool
	Msg      string
}

func (i specIssue) String() string {
	s := fmt.Sprintf("%s: %s", i.Kind, i.Msg)
	if i.Pos.IsValid() {
		s = fmt.Sprintf("%s: %s (%s)", i.Pos, s, i.Text)
	}
	return s
}

// specAnalysis is what the verifier knows about a specification, computed
// by analyzeSpec.
type specAnalysis struct {
	spec   *sare.Spec
	params []string
	// assume is the parameter domain of the spec's assume lines.
	assume *presburger.Map
	// domains maps every computed tensor T to the union of its equations'
	// domains under assume, a set { T[x1..xn] : ... } over params.
	domains map[string]*presburger.Map
	// defined maps every computed tensor to the points proven defined
	// (a subset of its domain, under assume), or to nil when unproven.
	// Defined means that the equations give the point a value by a finite
	// derivation; the value itself may still be undefined where the
	// specification converts an out-of-range float to an integer, which
	// this analysis does not track.
	defined map[string]*presburger.Map
	issues  []specIssue
}

// definite reports whether some issue makes the specification certainly
// ill-defined.
func (a *specAnalysis) definite() bool {
	for _, i := range a.issues {
		if i.Definite {
			return true
		}
	}
	return false
}

// specTensor is a computed tensor under analysis.
type specTensor struct {
	t      *sare.Tensor
	space  presburger.Space // { T[x1..xn] } over the parameters
	eqs    []*specEq
	failed bool // defined set unproven
	def    *presburger.Map
	// approx is set when def may lack defined points: points were
	// removed through a data-dependent access (dataread_spec.go).
	approx bool
}

// specEq is one equation under analysis.
type specEq struct {
	index int
	eq    *sare.Equation
	dom   *presburger.Map // its domain under assume
	start *presburger.Map // dom without the points of other equations
	def   *presburger.Map // the points still believed defined
	reads []specRead
}

// specRead is one access of an equation's right-hand side to a computed
// tensor: { T[x] -> U[y] : x in dom, y = args(x) }, a function total on
// the equation's domain.
type specRead struct {
	tensor string
	acc    *presburger.Map
	// over is set for an access at a data-dependent index: acc relates
	// each point to every element the index's range reaches, and the
	// point is defined only if all of them are (dataread_spec.go).
	over bool
}

// specAnalyzer carries the state of analyzeSpec.
type specAnalyzer struct {
	ctx     context.Context
	info    *expr.Info // the specification's types
	a       *specAnalysis
	tensors map[string]*specTensor
	order   []string // computed tensors in declaration order
}

// analyzeSpec checks that the checked specification spec (info is
// sare.Check's result) is well defined under its assumptions: equations
// of one tensor are disjoint (overlap issues, definite), the defined sets
// of the computed tensors (points in exactly one equation's domain whose
// reads are all defined, undefinedRead issues for the points removed), and
// the well-foundedness of the dependences between defined points (cycle
// issues, definite; unfounded issues when no ranking is found). It fails
// only on a malformed specification or a cancelled context; budget
// exhaustion (ctx's presburger budget) becomes an issue that is not
// definite, and leaves the tensors concerned without defined set.
func analyzeSpec(ctx context.Context, spec *sare.Spec, info *expr.Info) (_ *specAnalysis, err error) {
	defer guard(&err, "specification analysis")
	if spec == nil || info == nil {
		return nil, fmt.Errorf("specification analysis: missing specification or check information")
	}
	an := &specAnalyzer{ctx: ctx, info: info, tensors: map[string]*specTensor{}, a: &specAnalysis{spec: spec,
		domains: map[string]*presburger.Map{}, defined: map[string]*presburger.Map{}}}
	a := an.a
	for _, p := range spec.Params {
		a.params = append(a.params, p.Name)
	}
	for _, phase := range []func() error{an.build, an.overlaps, an.fixpoint, an.markApprox, an.wellFounded} {
		// The engine checks ctx only now and then: check it between
		// phases too, so that a cancelled analysis never looks complete.
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("specification analysis: %w", err)
		}
		if err := phase(); err != nil {
			return nil, fmt.Errorf("specification analysis: %w", err)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("specification analysis: %w", err)
	}
	for _, name := range an.order {
		st := an.tensors[name]
		if st.failed || st.approx {
			a.defined[name] = nil
		} else {
			a.defined[name] = st.def
		}
	}
	return a, nil
}

// isBudget reports whether err is a budget exhaustion, or a limit of the
// engine (an existential it cannot eliminate): an unproven issue, not an
// error.
func isBudget(err error) bool {
	return errors.Is(err, presburger.ErrBudget) || errors.Is(err, presburger.ErrUnsupportedExistential)
}

// unproven records that a check ran out of budget or found no proof.
func (an *specAnalyzer) unproven(kind specIssueKind, st *specTensor, eq int, msg string) {
	is := specIssue{Kind: kind, Tensor: st.t.Name.Name, Eq: [2]int{eq, -1}, Msg: msg}
	if eq >= 0 {
		is.Pos, is.Text = st.t.Eqs[eq].Pos(), st.t.Eqs[eq].String()
	}
	an.a.issues = append(an.a.issues, is)
}

// lookup resolves the equation variables vars to the dimensions dim(k)
// and the specification's parameters to presburger parameters.
func (an *specAnalyzer) lookup(vars []*syntax.Ident, dim func(int) presburger.Var) func(string) (binding, bool) {
	return func(name string) (binding, bool) {
		// Equation variables shadow parameters, as in the evaluator.
		for k, v := range vars {
			if v.Name == name {
				return binding{v: dim(k)}, true
			}
		}
		if an.a.spec.IsParam(name) {
			return binding{v: presburger.ParamVar(name)}, true
		}
		return binding{}, false
	}
}

// tensorSpace returns the set space { T[x1..xn] } of a tensor.
func (an *specAnalyzer) tensorSpace(t *sare.Tensor) presburger.Space {
	dims := make([]string, t.Rank())
	seen := map[string]bool{}
	for i := range dims {
		d := fmt.Sprintf("x%d", i+1)
		if i < len(t.Vars) && !an.a.spec.IsParam(t.Vars[i].Name) && !seen[t.Vars[i].Name] {
			d = t.Vars[i].Name
		}
		seen[d] = true
		dims[i] = d
	}
	return presburger.SetSpace(an.a.params, presburger.FlatTuple(t.Name.Name, dims...))
}

// tensorAccesses returns the tensor accesses of a value expression,
// nested ones (inside select, casts, calls) included, in source order.
func tensorAccesses(x syntax.Expr, spec *sare.Spec) []*syntax.Call {
	var out []*syntax.Call
	syntax.Inspect(x, func(e syntax.Expr) bool {
		if c, ok := e.(*syntax.Call); ok && spec.Tensor(c.Fun.Name) != nil {
			out = append(out, c)
		}
		return true
	})
	return out
}

// build translates the assumptions, the equations' domains and their
// accesses to computed tensors.
func (an *specAnalyzer) build() error {
	a, spec := an.a, an.a.spec
	ptr := &translator{lookup: an.lookup(nil, nil)}
	a.assume = presburger.Universe(presburger.ParamSpace(a.params))
	for _, as := range spec.Assumes {
		d, err := ptr.cond(as.Cond, false)
		if err != nil {
			return fmt.Errorf("%s: assume: %w", as.Pos, err)
		}
		c, err := lowerDNF(presburger.ParamSpace(a.params), d, nil)
		if err != nil {
			return fmt.Errorf("%s: assume: %w", as.Pos, err)
		}
		if a.assume, err = a.assume.Intersect(c); err != nil {
			return fmt.Errorf("%s: assume: %w", as.Pos, err)
		}
	}
	for _, t := range spec.Tensors {
		if t.Input || an.tensors[t.Name.Name] != nil {
			continue
		}
		st := &specTensor{t: t, space: an.tensorSpace(t)}
		an.tensors[t.Name.Name] = st
		an.order = append(an.order, t.Name.Name)
		dom := presburger.Empty(st.space)
		for i, eq := range t.Eqs {
			se, err := an.equation(st, i, eq)
			if err != nil {
				return fmt.Errorf("%s: %s: %w", eq.Pos(), eq, err)
			}
			st.eqs = append(st.eqs, se)
			if dom, err = dom.Union(se.dom); err != nil {
				return err
			}
		}
		if simple, err := an.tidy(dom); err == nil {
			dom = simple
		} else if !isBudget(err) {
			return err
		} // else keep the unsimplified union: it has the same points
		a.domains[t.Name.Name] = dom
	}
	return nil
}

// equation translates one equation of st.
func (an *specAnalyzer) equation(st *specTensor, i int, eq *sare.Equation) (*specEq, error) {
	if len(eq.Vars) != st.t.Rank() {
		return nil, fmt.Errorf("%d variables for %d dimensions", len(eq.Vars), st.t.Rank())
	}
	where := dnfTrue()
	if eq.Where != nil {
		var err error
		if where, err = (&translator{lookup: an.lookup(eq.Vars, presburger.OutVar)}).cond(eq.Where, false); err != nil {
			return nil, err
		}
	}
	dom, err := lowerDNF(st.space, where, nil)
	if err != nil {
		return nil, err
	}
	if dom, err = dom.IntersectParams(an.a.assume); err != nil {
		return nil, err
	}
	se := &specEq{index: i, eq: eq, dom: dom}
	// The accesses, over the map space T[x] -> U[y].
	in := &translator{lookup: an.lookup(eq.Vars, presburger.InVar)}
	var inWhere dnf = dnfTrue()
	if eq.Where != nil {
		if inWhere, err = in.cond(eq.Where, false); err != nil {
			return nil, err
		}
	}
	for _, c := range tensorAccesses(eq.RHS, an.a.spec) {
		u := an.a.spec.Tensor(c.Fun.Name)
		if u.Input {
			continue // inputs are defined everywhere
		}
		if len(c.Args) != u.Rank() {
			return nil, fmt.Errorf("%s: %d indices for %s of rank %d", c.Pos(), len(c.Args), u.Name.Name, u.Rank())
		}
		d, over, err := an.accessDNF(c, in)
		if err != nil {
			return nil, err
		}
		if d, err = d.and(nil, inWhere); err != nil {
			return nil, err
		}
		usp := an.tensorSpace(u)
		sp := presburger.MapSpace(an.a.params, st.space.Out, usp.Out)
		acc, err := lowerDNF(sp, d, nil)
		if err != nil {
			return nil, err
		}
		if acc, err = acc.IntersectParams(an.a.assume); err != nil {
			return nil, err
		}
		se.reads = append(se.reads, specRead{tensor: u.Name.Name, acc: acc, over: over})
	}
	return se, nil
}

// tidy simplifies and coalesces m.
// Coalescing is best effort (a budget of coalesceSteps steps, past which
// m is kept as it is). A result of more than specMaxPieces pieces, or
// with a piece of more than specMaxLocals local variables, fails with an
// error wrapping presburger.ErrBudget: the analysis keeps its sets small
// rather than let them grow round after round.
func (an *specAnalyzer) tidy(m *presburger.Map) (*presburger.Map, error) {
	c, err := an.compact(m)
	if err != nil {
		return nil, err
	}
	if c.NumBasics() > specMaxPieces {
		return nil, fmt.Errorf("%w: a set of more than %d pieces", presburger.ErrBudget, specMaxPieces)
	}
	for _, b := range c.Basics() {
		if b.NumLocals() > specMaxLocals {
			return nil, fmt.Errorf("%w: a set with more than %d local variables", presburger.ErrBudget, specMaxLocals)
		}
	}
	return c, nil
}

// compact simplifies m and coalesces its pieces, within a budget of its
// own: past it, m simplified.
func (an *specAnalyzer) compact(m *presburger.Map) (*presburger.Map, error) {
	m, err := m.Simplify(an.ctx)
	if err != nil {
		return nil, err
	}
	c, err := presburger.Coalesce(presburger.WithBudget(an.ctx, presburger.Budget{MaxSteps: coalesceSteps}), m)
	switch {
	case errors.Is(err, presburger.ErrBudget):
		return m, nil
	case err != nil:
		return nil, err
	}
	return c, nil
}

// empty tests emptiness; a budget exhaustion is reported as err.
func (an *specAnalyzer) empty(m *presburger.Map) (bool, error) { return m.IsEmpty(an.ctx) }

// overlaps reports the points shared by two equations of a tensor and
// sets each equation's starting defined set: its domain without the
// points of the other equations.
func (an *specAnalyzer) overlaps() error {
	for _, name := range an.order {
		st := an.tensors[name]
		for _, se := range st.eqs {
			se.start = se.dom
		}
		for i := 0; i < len(st.eqs); i++ {
			for j := i + 1; j < len(st.eqs); j++ {
				ei, ej := st.eqs[i], st.eqs[j]
				o, err := ei.dom.Intersect(ej.dom)
				if err != nil {
					return err
				}
				o, err = an.tidy(o)
				var empty bool
				if err == nil {
					empty, err = an.empty(o)
				}
				if err != nil {
					if !isBudget(err) {
						return err
					}
					st.failed = true
					an.a.issues = append(an.a.issues, specIssue{Kind: specOverlap, Tensor: name, Eq: [2]int{i, j},
						Pos: ej.eq.Pos(), Text: ej.eq.String(),
						Msg: fmt.Sprintf("could not decide whether equations %d and %d of %s overlap: %v", i+1, j+1, name, err)})
					continue
				}
				if empty {
					continue
				}
				an.a.issues = append(an.a.issues, specIssue{Kind: specOverlap, Tensor: name, Eq: [2]int{i, j},
					Pos: ej.eq.Pos(), Text: ej.eq.String(), Points: o, Definite: true,
					Msg: fmt.Sprintf("the domains of equations %d (at %s) and %d of %s overlap at %s", i+1, ei.eq.Pos(), j+1, name, o)})
				// The shared points are defined by neither equation.
				if ei.start, err = ei.start.Subtract(an.ctx, o); err == nil {
					ej.start, err = ej.start.Subtract(an.ctx, o)
				}
				if err != nil {
					if !isBudget(err) {
						return err
					}
					st.failed = true
					an.unproven(specOverlap, st, j, fmt.Sprintf("removing the overlap of equations %d and %d of %s: %v", i+1, j+1, name, err))
				}
			}
		}
		for _, se := range st.eqs {
			se.def = se.start
		}
	}
	return nil
}

// readers returns, for every computed tensor, the tensors whose
// equations (syntactically) read it.
func (an *specAnalyzer) readers() map[string][]string {
	out := map[string][]string{}
	for _, name := range an.order {
		seen := map[string]bool{}
		for _, se := range an.tensors[name].eqs {
			for _, r := range se.reads {
				if !seen[r.tensor] {
					seen[r.tensor] = true
					out[r.tensor] = append(out[r.tensor], name)
				}
			}
		}
	}
	return out
}

// propagateFailures marks failed every tensor that (transitively) reads
// a failed one: its defined set rests on an unproven one.
func (an *specAnalyzer) propagateFailures() {
	rd := an.readers()
	var work []string
	for _, name := range an.order {
		if an.tensors[name].failed {
			work = append(work, name)
		}
	}
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		for _, t := range rd[u] {
			if st := an.tensors[t]; !st.failed {
				st.failed = true
				work = append(work, t)
			}
		}
	}
}

// union returns the union of the equations' current defined sets.
func (an *specAnalyzer) union(st *specTensor) (*presburger.Map, error) {
	d := presburger.Empty(st.space)
	for _, se := range st.eqs {
		var err error
		if d, err = d.Union(se.def); err != nil {
			return nil, err
		}
	}
	return an.tidy(d)
}

// fixpoint computes the defined sets: starting from the equations'
// domains (without overlaps), it removes, round after round, the points
// where an equation reads a computed tensor outside that tensor's current
// defined set, until nothing changes (the greatest fixpoint) or
// specRounds rounds have passed. Points removed are undefined (by
// induction on the rounds: each reads an undefined point); they are
// reported as undefinedRead issues, which only matter if a kernel needs
// them.
func (an *specAnalyzer) fixpoint() error {
	an.propagateFailures()
	for _, name := range an.order {
		st := an.tensors[name]
		if st.failed {
			continue
		}
		d, err := an.union(st)
		if err != nil {
			if err := an.budgetFailure(st, "defined set", err); err != nil {
				return err
			}
			continue
		}
		st.def = d
	}
	an.propagateFailures()
	changed := map[string]bool{}
	converged := false
	for round := 0; round < specRounds && !converged; round++ {
		changed = map[string]bool{}
		// Gauss-Seidel: each tensor, in declaration order, is restricted
		// against the sets of this round where they are already known, so
		// that a restriction crosses a chain of tensors declared in
		// dependence order in one round.
		for _, name := range an.order {
			st := an.tensors[name]
			next, err := an.restrictTensor(st)
			if err != nil {
				return err
			}
			an.propagateFailures()
			shrank, err := an.adoptTensor(st, next)
			if err != nil {
				return err
			}
			if shrank {
				changed[name] = true
			}
			an.propagateFailures()
		}
		converged = len(changed) == 0
	}
	if !converged {
		for _, name := range an.order {
			if st := an.tensors[name]; changed[name] && !st.failed {
				st.failed = true
				an.unproven(specUnfounded, st, -1, fmt.Sprintf("the defined set of %s did not reach a fixpoint in %d rounds", name, specRounds))
			}
		}
		an.propagateFailures()
	}
	return an.reportRemoved()
}

// budgetFailure marks st unproven after a budget exhaustion in computing
// what; any other error is returned.
func (an *specAnalyzer) budgetFailure(st *specTensor, what string, err error) error {
	if !isBudget(err) {
		return err
	}
	st.failed = true
	an.unproven(specUnfounded, st, -1, fmt.Sprintf("%s of %s: %v", what, st.t.Name.Name, err))
	return nil
}

// restrictTensor is one step of a round: the defined sets of the
// equations of st restricted against the tensors' current sets (nil when
// st failed).
func (an *specAnalyzer) restrictTensor(st *specTensor) (map[*specEq]*presburger.Map, error) {
	if st.failed {
		return nil, nil
	}
	next := map[*specEq]*presburger.Map{}
	for _, se := range st.eqs {
		d := se.def
		var err error
		for _, r := range se.reads {
			if r.over {
				if d, err = an.restrictOver(d, r); err != nil {
					break
				}
				continue
			}
			var ok *presburger.Map // { x : args(x) in D_U }
			if ok, err = an.tensors[r.tensor].def.Preimage(r.acc); err != nil {
				break
			}
			if d, err = an.intersect(d, ok); err != nil {
				break
			}
		}
		if err == nil {
			d, err = an.tidy(d)
		}
		if err != nil {
			if err := an.budgetFailure(st, "restricting the defined set", err); err != nil {
				return nil, err
			}
			break
		}
		next[se] = d
	}
	return next, nil
}

// intersect returns d ∩ ok within the budget, for an equation's defined
// set restricted by one read after another: an intersection pairs every
// piece of d with every piece of ok, so that an equation of many reads,
// each of a few pieces, would multiply its pieces read after read
// (bgu's histogram reads its input's tensor a dozen times, two pieces
// each, 2^k pieces unchecked). The pairs are charged to the allowance of
// the context, their number checked against its bound on disjuncts, and
// a result of more than specMaxPieces pieces is compacted at once (the
// bound on pieces applies to the set the reads leave, tidy's).
func (an *specAnalyzer) intersect(d, ok *presburger.Map) (*presburger.Map, error) {
	pairs := d.NumBasics() * ok.NumBasics()
	if err := presburger.CheckDisjuncts(an.ctx, pairs); err != nil {
		return nil, err
	}
	if err := presburger.Charge(an.ctx, pairs); err != nil {
		return nil, err
	}
	r, err := d.Intersect(ok)
	if err != nil || r.NumBasics() <= specMaxPieces {
		return r, err
	}
	return an.compact(r)
}

// adoptTensor makes next the defined sets of the equations of st and
// recomputes the tensor's, reporting whether it shrank.
func (an *specAnalyzer) adoptTensor(st *specTensor, next map[*specEq]*presburger.Map) (bool, error) {
	if st.failed {
		return false, nil
	}
	for _, se := range st.eqs {
		se.def = next[se]
	}
	d, err := an.union(st)
	var same bool
	if err == nil {
		// d ⊆ st.def by construction: equal iff st.def ⊆ d.
		same, err = st.def.IsSubset(an.ctx, d)
	}
	if err != nil {
		return false, an.budgetFailure(st, "comparing the defined set", err)
	}
	st.def = d
	return !same, nil
}

// reportRemoved reports the points the fixpoint removed from each
// equation's domain as undefinedRead issues.
func (an *specAnalyzer) reportRemoved() error {
	for _, name := range an.order {
		st := an.tensors[name]
		if st.failed {
			continue
		}
		for _, se := range st.eqs {
			gone, err := se.start.Subtract(an.ctx, se.def)
			var empty bool
			if err == nil {
				if gone, err = an.tidy(gone); err == nil {
					empty, err = an.empty(gone)
				}
			}
			if err != nil {
				if !isBudget(err) {
					return err
				}
				// The defined set itself is sound; only the report of
				// what was removed is missing.
				an.unproven(specUndefinedRead, st, se.index, fmt.Sprintf("could not compute the undefined points of equation %d of %s: %v", se.index+1, name, err))
				continue
			}
			if empty {
				continue
			}
			an.a.issues = append(an.a.issues, specIssue{Kind: specUndefinedRead, Tensor: name, Eq: [2]int{se.index, -1},
				Pos: se.eq.Pos(), Text: se.eq.String(), Points: gone,
				Msg: fmt.Sprintf("equation %d of %s reads undefined points at %s", se.index+1, name, gone)})
		}
	}
	return nil
}

// specEdge is a part of the dependence relation: the accesses of one
// equation of tensor from to tensor to, restricted to the equation's
// defined points.
type specEdge struct {
	from, to string
	eq       *specEq
	rel      *presburger.Map // { from[x] -> to[y] }
}

// wellFounded proves, for every strongly connected component of the
// dependences between defined points, that they admit no infinite
// descending chain; see rank.
func (an *specAnalyzer) wellFounded() error {
	// The dependence relation E between defined points.
	out := map[string][]*specEdge{}
	for _, name := range an.order {
		st := an.tensors[name]
		if st.failed {
			continue
		}
		for _, se := range st.eqs {
			for _, r := range se.reads {
				rel, err := r.acc.IntersectDomain(se.def)
				if err != nil {
					return err
				}
				var empty bool
				simple, err := rel.Simplify(an.ctx)
				if err == nil {
					rel = simple
					empty, err = an.empty(rel)
				}
				if err != nil {
					if !isBudget(err) {
						return err
					}
					// Keep the edge unsimplified (the same points), and
					// count it as an edge: assuming one is sound.
					empty = false
				}
				if !empty {
					out[name] = append(out[name], &specEdge{from: name, to: r.tensor, eq: se, rel: rel})
				}
			}
		}
	}
	for _, scc := range an.sccs(out) {
		in := map[string]bool{}
		for _, t := range scc {
			in[t] = true
		}
		var edges []*specEdge
		for _, t := range scc {
			for _, e := range out[t] {
				if in[e.to] {
					edges = append(edges, e)
				}
			}
		}
		if len(edges) == 0 {
			continue // no recursion
		}
		ok, err := an.rank(scc, edges)
		if err != nil {
			if !isBudget(err) {
				return err
			}
			an.unproven(specUnfounded, an.tensors[scc[0]], -1,
				fmt.Sprintf("could not prove the recursion of %v well founded: %v", scc, err))
			ok = false
		}
		if !ok {
			for _, t := range scc {
				an.tensors[t].failed = true
			}
		}
	}
	an.propagateFailures()
	return nil
}

// sccs returns the strongly connected components of the tensor graph
// (Tarjan's algorithm), each in declaration order.
func (an *specAnalyzer) sccs(out map[string][]*specEdge) [][]string {
	index := map[string]int{}
	low := map[string]int{}
	on := map[string]bool{}
	var stack []string
	var res [][]string
	var visit func(v string)
	visit = func(v string) {
		index[v] = len(index)
		low[v] = index[v]
		stack = append(stack, v)
		on[v] = true
		for _, e := range out[v] {
			w := e.to
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var c []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				c = append(c, w)
				if w == v {
					break
				}
			}
			pos := map[string]int{}
			for i, n := range an.order {
				pos[n] = i
			}
			sort.Slice(c, func(i, j int) bool { return pos[c[i]] < pos[c[j]] })
			res = append(res, c)
		}
	}
	for _, name := range an.order {
		if st := an.tensors[name]; !st.failed {
			if _, seen := index[name]; !seen {
				visit(name)
			}
		}
	}
	return res
}

// rank proves that the edges of one strongly connected component admit no
// infinite chain T0[x0] -> T1[x1] -> ... (each point reads the next),
// reporting an issue and returning false when it cannot.
//
// The ranking is lexicographic in x: every edge T[x] -> U[y] either keeps
// the index (y = x), or first differs from x at some position p where, for
// every edge first differing at p, y_p < x_p ("descending at p"; the
// mirror image, every such edge with y_p > x_p, is handled by negating
// coordinate p). Moreover, the sources x of the edges first differing at p
// must have x_p bounded below for each value of (parameters, x_1..x_{p-1}).
// Finally, chains of equal-index edges must all be finite, which is
// decided exactly (equalIndexChainsFinite); an infinite one is a definite
// cycle.
//
// Why no infinite chain exists: the parameters are fixed along a chain.
// x_1 changes only at edges first differing at position 1, where it
// strictly decreases from a value bounded below by a bound depending only
// on the parameters; so there are finitely many such edges, and after the
// last one x_1 is constant. From then on x_2 changes only at edges first
// differing at position 2, where it strictly decreases from a value bounded
// below by a bound depending on the parameters and the (now constant) x_1:
// again finitely many. By induction on p, after finitely many steps the
// chain only takes equal-index edges at one fixed x, and those chains are
// finite. Hence every chain is finite.
func (an *specAnalyzer) rank(scc []string, edges []*specEdge) (bool, error) {
	if ok, err := an.noSelfDependence(edges); err != nil || !ok {
		return false, err
	}
	if !an.sameRanks(scc) {
		return false, nil
	}
	n := an.tensors[scc[0]].t.Rank()
	anon, rels, err := an.anonymousEdges(edges, n)
	if err != nil {
		return false, err
	}
	if ok, err := an.equalIndexChainsFinite(scc, edges, rels, anon, n); err != nil || !ok {
		return false, err
	}
	for p := 0; p < n; p++ {
		if ok, err := an.descendsAt(scc, edges, rels, anon, n, p); err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// noSelfDependence reports whether no edge of a tensor to itself makes a
// point depend on itself (which the evaluator would find as a cycle); when
// one does, it reports the points as a definite issue.
func (an *specAnalyzer) noSelfDependence(edges []*specEdge) (bool, error) {
	for _, e := range edges {
		if e.from != e.to {
			continue
		}
		st := an.tensors[e.from]
		id, err := presburger.Identity(e.rel.Space())
		if err != nil {
			return false, err
		}
		self, err := e.rel.Intersect(id)
		if err != nil {
			return false, err
		}
		pts, err := an.tidy(self.Domain())
		if err != nil {
			return false, err
		}
		empty, err := an.empty(pts)
		if err != nil {
			return false, err
		}
		if !empty {
			an.a.issues = append(an.a.issues, specIssue{Kind: specCycle, Tensor: e.from, Eq: [2]int{e.eq.index, -1},
				Pos: e.eq.eq.Pos(), Text: e.eq.eq.String(), Points: pts, Definite: true,
				Msg: fmt.Sprintf("equation %d of %s makes points depend on themselves at %s", e.eq.index+1, st.t.Name.Name, pts)})
			return false, nil
		}
	}
	return true, nil
}

// sameRanks reports whether the tensors of the component all have the
// rank of the first (the lexicographic ranking compares their indices);
// when not, it reports the recursion unproven.
func (an *specAnalyzer) sameRanks(scc []string) bool {
	first := an.tensors[scc[0]]
	n := first.t.Rank()
	for _, t := range scc {
		if r := an.tensors[t].t.Rank(); r != n {
			an.unproven(specUnfounded, first, -1, fmt.Sprintf("cannot prove the mutual recursion of %v well founded: %s and %s have different ranks", scc, scc[0], t))
			return false
		}
	}
	return true
}

// anonymousEdges returns the edges' relations over anonymous tuples,
// anon = [x1..xn] -> [y1..yn], so that edges between different tensors
// can be compared index by index.
func (an *specAnalyzer) anonymousEdges(edges []*specEdge, n int) (presburger.Space, []*presburger.Map, error) {
	dims := func(p string) []string {
		d := make([]string, n)
		for i := range d {
			d[i] = fmt.Sprintf("%s%d", p, i+1)
		}
		return d
	}
	anon := presburger.MapSpace(an.a.params, presburger.FlatTuple("", dims("x")...), presburger.FlatTuple("", dims("y")...))
	rels := make([]*presburger.Map, len(edges))
	for i, e := range edges {
		r, err := respace(e.rel, anon)
		if err != nil {
			return presburger.Space{}, nil, err
		}
		rels[i] = r
	}
	return anon, rels, nil
}

// indexDiff is x_k - y_k over anonymous edges [x] -> [y].
func indexDiff(k int) linear {
	return varLinear(presburger.InVar(k)).add(varLinear(presburger.OutVar(k)), presburger.NewInt(-1))
}

// samePrefix is x_1 = y_1, ..., x_p = y_p over anonymous edges.
func samePrefix(p int) conj {
	var c conj
	for k := 0; k < p; k++ {
		c = append(c, atom{e: indexDiff(k), eq: true})
	}
	return c
}

// equalIndexChainsFinite reports whether every chain of equal-index edges
// T[x] -> U[x] is finite; when one is not, it reports the points that
// depend, through such edges, on a cycle, as a definite issue.
//
// At a fixed x the equal-index edges form a graph on the component's
// tensors; an infinite chain of them must go round a cycle of that graph,
// which is a point depending on itself. G^r_T, the points x from which a
// chain of r + 1 equal-index edges leaves T[x], reaches the points from
// which an infinite one leaves at r = len(scc): a chain of more than
// len(scc) edges at one x repeats a tensor. So G^len(scc) is empty iff
// every equal-index chain is finite (shorter than len(scc) edges), and
// otherwise holds the points that depend on themselves or on such a
// cycle: definite.
func (an *specAnalyzer) equalIndexChainsFinite(scc []string, edges []*specEdge, rels []*presburger.Map, anon presburger.Space, n int) (bool, error) {
	same, err := an.equalIndexEdges(edges, rels, anon, n)
	if err != nil {
		return false, err
	}
	if len(same) == 0 {
		return true, nil
	}
	g, err := an.equalIndexReach(scc, same, anon)
	if err != nil {
		return false, err
	}
	for _, q := range same {
		m, err := q.dom.Intersect(g[q.e.to])
		if err != nil {
			return false, err
		}
		if m, err = an.tidy(m); err != nil {
			return false, err
		}
		empty, err := an.empty(m)
		if err != nil {
			return false, err
		}
		if empty {
			continue
		}
		st := an.tensors[q.e.from]
		pts, err := respace(m, st.space)
		if err != nil {
			return false, err
		}
		an.a.issues = append(an.a.issues, specIssue{Kind: specCycle, Tensor: q.e.from, Eq: [2]int{q.e.eq.index, -1},
			Pos: q.e.eq.eq.Pos(), Text: q.e.eq.eq.String(), Points: pts, Definite: true,
			Msg: fmt.Sprintf("equation %d of %s makes points depend, through %v at the same index, on a cycle (points that depend on themselves) at %s", q.e.eq.index+1, q.e.from, scc, pts)})
		return false, nil
	}
	return true, nil
}

// eqEdge is an edge restricted to its equal-index part T[x] -> U[x].
type eqEdge struct {
	e   *specEdge
	dom *presburger.Map // its sources x, over [x1..xn]
}

// equalIndexEdges returns the edges that have an equal-index part, with
// the sources of that part.
func (an *specAnalyzer) equalIndexEdges(edges []*specEdge, rels []*presburger.Map, anon presburger.Space, n int) ([]eqEdge, error) {
	sel, err := lowerConj(anon, samePrefix(n))
	if err != nil {
		return nil, err
	}
	var same []eqEdge
	for i, r := range rels {
		part, err := r.Intersect(presburger.NewMap(anon, sel))
		if err != nil {
			return nil, err
		}
		if part, err = part.Simplify(an.ctx); err != nil {
			return nil, err
		}
		empty, err := an.empty(part)
		if err != nil {
			return nil, err
		}
		if !empty {
			same = append(same, eqEdge{e: edges[i], dom: part.Domain()})
		}
	}
	return same, nil
}

// equalIndexReach returns G^len(scc) (see equalIndexChainsFinite): per
// tensor T, the points x from which a chain of len(scc) + 1 equal-index
// edges leaves T[x].
func (an *specAnalyzer) equalIndexReach(scc []string, same []eqEdge, anon presburger.Space) (map[string]*presburger.Map, error) {
	var err error
	g := map[string]*presburger.Map{}
	for _, t := range scc {
		g[t] = presburger.Empty(anon.Domain())
	}
	for _, q := range same {
		if g[q.e.from], err = g[q.e.from].Union(q.dom); err != nil {
			return nil, err
		}
	}
	for r := 0; r < len(scc); r++ {
		next := map[string]*presburger.Map{}
		for _, t := range scc {
			next[t] = presburger.Empty(anon.Domain())
		}
		for _, q := range same {
			m, err := q.dom.Intersect(g[q.e.to])
			if err != nil {
				return nil, err
			}
			if next[q.e.from], err = next[q.e.from].Union(m); err != nil {
				return nil, err
			}
		}
		for _, t := range scc {
			if g[t], err = an.tidy(next[t]); err != nil {
				return nil, err
			}
		}
	}
	return g, nil
}

// descendsAt reports whether the edges first differing from their source
// at index p all descend there (or all ascend), from values bounded below
// (above) for each value of the parameters and x_1..x_{p-1}; when not, it
// reports the recursion unproven.
func (an *specAnalyzer) descendsAt(scc []string, edges []*specEdge, rels []*presburger.Map, anon presburger.Space, n, p int) (bool, error) {
	parts, who, err := an.edgesChangingAt(edges, rels, anon, p)
	if err != nil {
		return false, err
	}
	if len(parts[0]) > 0 && len(parts[1]) > 0 {
		e := who[1]
		an.unproven(specUnfounded, an.tensors[e.from], e.eq.index, fmt.Sprintf(
			"cannot prove the recursion of %v well founded: index %d decreases along some dependences and increases along others (equation %d of %s at %s, equation %d of %s at %s)",
			scc, p+1, who[0].eq.index+1, who[0].from, who[0].eq.eq.Pos(), e.eq.index+1, e.from, e.eq.eq.Pos()))
		return false, nil
	}
	for d := 0; d < 2; d++ {
		if len(parts[d]) == 0 {
			continue
		}
		ok, err := an.bounded(parts[d], n, p, d == 1)
		if err != nil {
			return false, err
		}
		if !ok {
			e := who[d]
			dir := "below"
			if d == 1 {
				dir = "above"
			}
			an.unproven(specUnfounded, an.tensors[e.from], e.eq.index, fmt.Sprintf(
				"cannot prove the recursion of %v well founded: index %d is not bounded %s where the dependences change it (an infinite descent, e.g. equation %d of %s)",
				scc, p+1, dir, e.eq.index+1, e.from))
			return false, nil
		}
	}
	return true, nil
}

// edgesChangingAt returns the non-empty parts of the edges that keep
// indices 1..p-1 and change index p: parts[0] those where it descends
// (y_p < x_p), parts[1] those where it ascends, and in who the first edge
// of each kind.
func (an *specAnalyzer) edgesChangingAt(edges []*specEdge, rels []*presburger.Map, anon presburger.Space, p int) (parts [2][]*presburger.Map, who [2]*specEdge, err error) {
	one := presburger.NewInt(1)
	for d := 0; d < 2; d++ {
		e := indexDiff(p)
		if d == 1 {
			e = e.scale(one.Neg())
		}
		sel, err := lowerConj(anon, append(samePrefix(p), atom{e: e.add(constLinear(-1), one)}))
		if err != nil {
			return parts, who, err
		}
		for i, r := range rels {
			part, err := r.Intersect(presburger.NewMap(anon, sel))
			if err != nil {
				return parts, who, err
			}
			empty, err := an.empty(part)
			if err != nil {
				return parts, who, err
			}
			if !empty {
				parts[d] = append(parts[d], part)
				if who[d] == nil {
					who[d] = edges[i]
				}
			}
		}
	}
	return parts, who, nil
}

// bounded reports whether, over the sources x of the relations parts
// (over [x1..xn] -> [y1..yn]), coordinate p is bounded below (above when
// up) for every value of the parameters and x_1..x_{p-1}.
//
// With S the sources projected on (x_1..x_p), let R = { (prefix, a) :
// some point of S with that prefix has x_p < a } and Q its complement:
// (prefix, a) is in Q iff a is a lower bound of the x_p of S at that
// prefix. The coordinate is bounded below iff every prefix of S has a
// point in Q.
func (an *specAnalyzer) bounded(parts []*presburger.Map, n, p int, up bool) (bool, error) {
	src := parts[0].Domain()
	for _, m := range parts[1:] {
		var err error
		if src, err = src.Union(m.Domain()); err != nil {
			return false, err
		}
	}
	s, err := src.ProjectOut(presburger.DimOut, p+1, n-p-1)
	if err != nil {
		return false, err
	}
	if s, err = an.tidy(s); err != nil {
		return false, err
	}
	dims := make([]string, p+1)
	adims := make([]string, p+1)
	for i := range dims {
		dims[i] = fmt.Sprintf("x%d", i+1)
		adims[i] = dims[i]
	}
	adims[p] = "a"
	sp := presburger.SetSpace(an.a.params, presburger.FlatTuple("", dims...))
	lsp := presburger.MapSpace(an.a.params, presburger.FlatTuple("", dims...), presburger.FlatTuple("", adims...))
	one := presburger.NewInt(1)
	var c conj
	for k := 0; k < p; k++ {
		c = append(c, atom{e: varLinear(presburger.InVar(k)).add(varLinear(presburger.OutVar(k)), one.Neg()), eq: true})
	}
	// a - x_p - 1 >= 0 (x_p < a), or x_p - a - 1 >= 0 (x_p > a).
	e := varLinear(presburger.OutVar(p)).add(varLinear(presburger.InVar(p)), one.Neg())
	if up {
		e = e.scale(one.Neg())
	}
	c = append(c, atom{e: e.add(constLinear(-1), one)})
	lb, err := lowerConj(lsp, c)
	if err != nil {
		return false, err
	}
	r, err := s.Apply(presburger.NewMap(lsp, lb))
	if err != nil {
		return false, err
	}
	q, err := presburger.Universe(sp).Subtract(an.ctx, r)
	if err != nil {
		return false, err
	}
	sPre, err := s.ProjectOut(presburger.DimOut, p, 1)
	if err != nil {
		return false, err
	}
	qPre, err := q.ProjectOut(presburger.DimOut, p, 1)
	if err != nil {
		return false, err
	}
	return sPre.IsSubset(an.ctx, qPre)
}

// undefinedSpecReads returns the elements of computed tensors that the
// symbolic value sv (decomposed in scope s, see Contexts.Decompose) reads
// outside the proven-defined points, as a union of sets { U[y] } over s's
// parameters restricted to s.Facts(): empty exactly when every element sv
// reads is defined wherever s's facts hold. The specification's parameters
// are the scope's presburger parameters of the same names; points where
// the specification's assumptions fail count as undefined (the caller
// puts the kernel's assumptions among s's facts). ok is false, and u nil,
// when some computed tensor that sv reads has no proven-defined set.
// Reads nested anywhere in the context (select branches, casts, calls)
// count, since select is eager. Budget exhaustion is an error wrapping
// presburger.ErrBudget, which the caller must turn into an unknown verdict.
func (a *specAnalysis) undefinedSpecReads(ctx context.Context, sv *SymbolicValue, s *Scope) (u *presburger.UnionMap, ok bool, err error) {
	defer guard(&err, "undefined specification reads")
	holes, pruned := sv.holes, false
	tr := &translator{lookup: func(name string) (binding, bool) {
		if k, isHole := holeIndex(name); isHole {
			if k > len(holes) {
				return binding{}, false
			}
			return binding{let: holes[k-1]}, true
		}
		b, found := s.names[name]
		return b, found
	}}
	var sets []*presburger.Map
	for _, c := range tensorAccesses(sv.Context.Expr, a.spec) {
		t := a.spec.Tensor(c.Fun.Name)
		if t.Input {
			continue
		}
		def, known := a.defined[t.Name.Name]
		if !known {
			return nil, false, fmt.Errorf("%s: no analysis of tensor %s", sv, t.Name.Name)
		}
		if def == nil {
			return nil, false, nil
		}
		if len(c.Args) != t.Rank() {
			return nil, false, fmt.Errorf("%s: %d indices for %s of rank %d", sv, len(c.Args), t.Name.Name, t.Rank())
		}
		d, over, err := accessDNF(c, tr, sv.Context.Types())
		if outOfPieces(err) && !pruned {
			// Again with the holes pruned under the scope's facts and
			// assumptions (prunedPieces): the read is restricted to the
			// facts below, and decided under the assumptions.
			if holes, err = s.prunedPieces(ctx, sv.holes); err == nil {
				pruned = true
				d, over, err = accessDNF(c, tr, sv.Context.Types())
			}
		}
		if err != nil {
			return nil, false, err
		}
		sp := presburger.SetSpace(s.Params(), def.Space().Out)
		read, err := lowerDNF(sp, d, nil)
		if err != nil {
			return nil, false, err
		}
		if f := s.Facts(); f != nil {
			if read, err = read.IntersectParams(f); err != nil {
				return nil, false, err
			}
		}
		bad, err := read.Subtract(ctx, def)
		if err != nil {
			return nil, false, fmt.Errorf("%s: undefined reads of %s: %w", sv, t.Name.Name, err)
		}
		if over {
			// The range of a data-dependent index over-approximates
			// the elements read: a point outside the defined set
			// proves nothing.
			empty, err := bad.IsEmpty(ctx)
			if err != nil || !empty {
				return nil, false, err
			}
		}
		sets = append(sets, bad)
	}
	u, err = presburger.NewUnionMap(sets...).Simplify(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("%s: undefined specification reads: %w", sv, err)
	}
	return u, true, nil
}
