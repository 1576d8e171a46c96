package validate

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/symeval"
	"github.com/augur-verify/augur/syntax"
)

// The strategies: the encodings of an obligation tried one after the
// other, cheapest first, within growing resource limits, until one proves
// it or a model confirmed by evaluation refutes it (decideStrategies);
// matching first ahead of its turn (matchFirst), and the models deferred
// until no strategy proves the obligation (tryCandidates).

// strategy is one way of encoding an obligation: which computed tensors
// may be unfolded into their equations on each side.
type strategy struct {
	name       string
	impl, spec encode.ExprOptions
	// match: substitute the specification side one level more at a
	// time, up to maxMatchDepth, until it is the implementation side's
	// term (then the query is trivial); spec.Depth when it never is.
	match bool
	// candidatesFirst: the models deferred by the cheaper strategies
	// are looked at for a counterexample before this one is tried
	// (tryCandidates): it unfolds both sides, so its queries cost more
	// than that search when the kernel is wrong.
	candidatesFirst bool
}

// maxMatchDepth bounds the levels a matching substitution tries: an
// update unrolled k times needs k.
const maxMatchDepth = 8

// strategies returns the encodings to try, cheapest first. Each is sound
// on its own (an unfolding replaces a tensor element by its definition,
// which the specification analysis proved well founded and defined), so
// the first that proves the obligation settles it.
func (s *solver) strategies(o *symeval.Obligation) []strategy {
	// Clément 2022, section 6.2: unfold the specification side's tensors
	// that the implementation side's tensors do not depend on.
	deps, reads := map[string]bool{}, map[string]bool{}
	for _, t := range tensorsOf(o.Impl.Expr) {
		deps[t], reads[t] = true, true
		for d := range s.enc.Dependencies(t) {
			deps[d] = true
		}
	}
	notDep := func(t string) bool { return !deps[t] }
	// Matching substitutes what the implementation side does not read,
	// however its reads depend on it: an update's previous element stays
	// an access on both sides, and the new term's product is unfolded
	// down to the elements the implementation reads.
	// The specification's own tensor unfolds recursively (an update
	// unrolled k times matches after k levels); Keep stops each unfolding
	// at the elements the implementation side names.
	var head string
	if ts := tensorsOf(o.Spec.Expr); len(ts) > 0 {
		head = ts[0]
	}
	notRead := func(t string) bool { return !reads[t] || t == head }
	all := func(string) bool { return true }
	// Unfolded accesses stay applications of the tensors' functions, with
	// their definitions as hypotheses (encode.ExprOptions.Axioms), so
	// that unfolding deeper never hides an equality.
	return []strategy{
		{name: "z3"},
		{name: "z3, specification side unfolded once", spec: encode.ExprOptions{Unfold: notDep, UnfoldTop: true, Axioms: true}},
		// Substituted in place, the unfolding meets the implementation's
		// unrolled arithmetic in one normal form.
		// The depth follows the obligation: an update unrolled three
		// times matches after three levels.
		{name: "z3, specification side substituted until it matches", spec: encode.ExprOptions{Unfold: notRead, UnfoldTop: true, Depth: 2}, match: true},
		{name: "z3, both sides unfolded 2 levels", impl: encode.ExprOptions{Unfold: all, Axioms: true, Depth: 2},
			spec: encode.ExprOptions{Unfold: all, Axioms: true, Depth: 2}, candidatesFirst: true},
		{name: "z3, both sides unfolded 4 levels", impl: encode.ExprOptions{Unfold: all, Axioms: true, Depth: 4},
			spec: encode.ExprOptions{Unfold: all, Axioms: true, Depth: 4}},
	}
}

// tensorsOf lists the tensors that x accesses.
func tensorsOf(x syntax.Expr) []string {
	seen := map[string]bool{}
	var out []string
	syntax.Inspect(x, func(e syntax.Expr) bool {
		if c, ok := e.(*syntax.Call); ok && c.Fun != nil && !seen[c.Fun.Name] {
			seen[c.Fun.Name] = true
			out = append(out, c.Fun.Name)
		}
		return true
	})
	return out
}

// decideStrategies decides the value condition c by the strategies, in
// order: the first that proves its obligation settles it, and so does a
// model of one that evaluation confirms (a failure); otherwise c is
// undecided, with each strategy's reason.
func (s *solver) decideStrategies(c *symeval.Condition) *outcome {
	ob := c.Obligation
	if ob.Impl.Type != ob.Spec.Type {
		return &outcome{status: symeval.Failed, kind: c.Kind, reason: fmt.Sprintf("the two sides have different types: %s and %s", ob.Impl.Type, ob.Spec.Type)}
	}
	r := s.newStrategyRun(c)
	defer r.closeCandidates()
	if !r.matchTried && s.readsFreeTensor(ob) {
		r.matchTried = true
		if out := s.matchFirst(c, r.strategies, r.pieces); out != nil {
			return out
		}
	}
	// Every strategy, cheapest first, within a small resource limit,
	// then again within larger ones those that ran out of it: a cheap
	// proof (or a model) by a later strategy is found before an earlier
	// one spends the full limit failing.
	limits := resourceSteps(s.v.opts.Resources)
	n := len(r.strategies)
	for li := 0; li < len(limits)*n; li++ {
		si, limit := li%n, limits[li/n]
		if !r.live[si] {
			continue
		}
		if left, ok := s.conditionLeft(); ok && left == 0 {
			r.spent = true
			break
		}
		if out := r.attempt(li, si, limit, li/n == len(limits)-1); out != nil {
			return out
		}
	}
	if out := s.tryCandidates(c, &r.cands, &r.reasons); out != nil {
		return out
	}
	return &outcome{status: symeval.Undecided, reason: r.undecided(), smt: r.firstSMT}
}

// undecided is the reason of a condition that no strategy decided: why
// each strategy tried did not, the condition's spent budget
// (Options.ConditionResources) said once, last.
func (r *strategyRun) undecided() string {
	out := r.reasons
	switch {
	case r.spent && r.s.termsSpent:
		out = append(out, r.s.termsReason())
	case r.spent:
		out = append(out, fmt.Sprintf("%s (%d units)", errConditionBudget, r.s.v.opts.ConditionResources))
	}
	return strings.Join(out, "; ")
}

// fail records why strategy name did not decide the condition: err, or,
// when err is the spent budget of the condition (errConditionBudget),
// that budget, said once by undecided.
func (r *strategyRun) fail(name string, err error) {
	if errors.Is(err, errConditionBudget) {
		r.spent = true
		return
	}
	r.reasons = append(r.reasons, name+err.Error())
}

// strategyRun is the state of decideStrategies for one condition.
type strategyRun struct {
	s          *solver
	c          *symeval.Condition
	pieces     []*presburger.BasicMap
	strategies []strategy
	// matchIdx is the index of the matching strategy. matchTried:
	// matching was tried first, on its own (matchFirst), or is not to
	// be.
	matchIdx   int
	matchTried bool
	// proofTried: the unfolding strategies were tried ahead of the
	// models (proveFirst).
	proofTried bool
	// live[i]: strategy i is still to be tried, within the current
	// limit or a larger one; resume[i]: the first piece strategy i has
	// not proved yet.
	live   []bool
	resume []int
	// cands are the satisfiable queries of strategies that left
	// specification elements uninterpreted, with their solvers (and
	// models), looked at once every strategy has been tried within a
	// limit (tryCandidates).
	cands []candidate
	// reasons say why each strategy tried did not decide c; spent: a
	// query or an encoding was not made because the condition's budget
	// (Options.ConditionResources) is spent.
	reasons []string
	spent   bool
	// firstSMT holds the scripts of the strongest encoding tried.
	firstSMT string
}

// newStrategyRun starts decideStrategies on c: every strategy live, from
// its first piece.
//
// Matching goes first, on its own, when the strategies before it cannot
// prove the obligation (matchFirst); otherwise at the first model of
// those strategies that leaves specification elements free. Not in the
// ieee model: there the terms it makes change the course of the
// context's later bit-blasted searches (a wrong kernel of the corpus,
// separable_two_pass, took four times as long to refute), and its
// queries are rarely closed within its small limit.
func (s *solver) newStrategyRun(c *symeval.Condition) *strategyRun {
	r := &strategyRun{s: s, c: c}
	r.pieces = c.Obligation.Points.Basics()
	r.strategies = s.strategies(c.Obligation)
	r.matchIdx = slices.IndexFunc(r.strategies, func(st strategy) bool { return st.match })
	r.matchTried = s.v.opts.ValueModel == encode.IEEE
	r.live = make([]bool, len(r.strategies))
	r.resume = make([]int, len(r.strategies))
	for i := range r.live {
		r.live[i] = true
	}
	return r
}

// closeCandidates closes the solvers of the deferred models.
func (r *strategyRun) closeCandidates() {
	for _, k := range r.cands {
		k.sol.Close()
	}
}

// attempt tries strategy si within limit resource units (its li-th
// attempt in decideStrategies' order; last: within the largest limit),
// from the first piece it has not proved. It returns the outcome that
// settles the condition (proved, a confirmed failure, or cancelled), or
// nil to go on.
func (r *strategyRun) attempt(li, si int, limit uint64, last bool) *outcome {
	s := r.s
	// A check Z3 would not stop took the context with it: the
	// strategies left go on in a new one, without the deferred models
	// (their terms were in the old one).
	if renewed, err := s.renew(); err != nil {
		return &outcome{status: symeval.Undecided, reason: strings.Join(append(r.reasons, "solver unavailable: "+err.Error()), "; ")}
	} else if renewed {
		r.cands = nil
	}
	if si == 0 && li > 0 || r.strategies[si].candidatesFirst {
		// The cheap strategies (or, at a larger limit, all of them)
		// did not prove the obligation: the deferred models are looked
		// at before the costlier attempts, so that a wrong kernel's
		// counterexample costs little more than it did when each model
		// was looked at as soon as it was found.
		if out := s.tryCandidates(r.c, &r.cands, &r.reasons); out != nil {
			return out
		}
	}
	r.live[si] = false
	st := r.strategies[si]
	if err := s.ctx.Err(); err != nil {
		return &outcome{status: symeval.Undecided, reason: "cancelled"}
	}
	proved, scripts, out := r.tryPieces(si, limit, last)
	if out != nil {
		return out
	}
	// Keep the scripts of the strongest encoding tried.
	r.firstSMT = queryScript(r.c.Obligation, st.name, scripts)
	if proved {
		return &outcome{status: symeval.Proved, solver: st.name, smt: r.firstSMT}
	}
	return nil
}

// tryPieces checks the queries of strategy si's pieces, from the first
// it has not proved, within limit resource units (last: the largest
// limit). It reports whether every piece is proved, with the scripts of
// the queries (Options.KeepSMT), or returns the outcome that settles the
// condition (a confirmed failure, or matching's proof). A piece that
// runs out of a limit before the last makes the strategy wait, from that
// piece, for the next limit.
func (r *strategyRun) tryPieces(si int, limit uint64, last bool) (bool, []string, *outcome) {
	s, c, ob, st := r.s, r.c, r.c.Obligation, r.strategies[si]
	proved := true
	var scripts []string
	earlier := map[string]*query{}
	for pi := r.resume[si]; pi < len(r.pieces); pi++ {
		if len(r.cands) == 0 && s.shed(c, pi, len(r.pieces)) {
			clear(earlier)
		}
		s.enc.ResetUnfoldings()
		q, err := s.encode(ob, st, r.pieces[pi], earlier)
		if err != nil {
			r.fail(st.name+": cannot encode: ", err)
			return false, scripts, nil
		}
		if q.same && q.bad.IsFalse() {
			if s.v.opts.Trace != nil {
				s.v.trace(fmt.Sprintf("C%d: %s, piece %d of %d: the terms of an earlier piece, closed", c.ID, st.name, pi+1, len(r.pieces)))
			}
			continue
		}
		if s.v.opts.KeepSMT {
			// Printing a script costs as much as a small query: only
			// when the report keeps it.
			note := ""
			if q.bad.IsFalse() {
				note = sameTermsNote
			}
			scripts = append(scripts, s.pieceScript(q, pi, len(r.pieces), note))
		}
		// The two sides met in one term (and are defined): nothing for
		// the solver to do.
		if q.bad.IsFalse() {
			if s.v.opts.Trace != nil {
				s.v.trace(fmt.Sprintf("C%d: %s, piece %d of %d: both sides the same term, closed", c.ID, st.name, pi+1, len(r.pieces)))
			}
			continue
		}
		before := s.used
		res, sol, err := s.checkLimit(q, nil, limit)
		if res == smt.Unknown && !last && errors.Is(err, errResources) {
			// Again within the next limit, from this piece: the pieces
			// before it are proved, and the strategy cannot prove the
			// obligation within this limit, so its other pieces wait
			// for that round too.
			r.live[si] = true
			r.resume[si] = pi
			if s.v.opts.Trace != nil {
				s.v.trace(fmt.Sprintf("C%d: %s, piece %d of %d: %s, %d resource units; the pieces after it wait for the next limit", c.ID, st.name, pi+1, len(r.pieces), res, s.used-before))
			}
			if sol != nil {
				sol.Close()
			}
			return false, scripts, nil
		}
		if s.v.opts.Trace != nil {
			s.v.trace(fmt.Sprintf("C%d: %s, piece %d of %d: %s, %d resource units", c.ID, st.name, pi+1, len(r.pieces), res, s.used-before))
		}
		if err != nil {
			r.fail(st.name+": ", err)
			if sol != nil {
				sol.Close()
			}
			proved = false
			continue
		}
		switch res {
		case smt.Unsat:
			sol.Close()
		case smt.Sat:
			return false, scripts, r.model(si, q, sol, scripts)
		default:
			why := sol.ReasonUnknown()
			sol.Close()
			if why == "" {
				why = "unknown"
			}
			r.reasons = append(r.reasons, st.name+": "+why)
			proved = false
		}
	}
	return proved, scripts, nil
}

// model looks at the model of the satisfiable query q of strategy si
// (its solver sol; scripts: those of the pieces so far) and returns the
// confirmed failure it shows, or matching's proof when matching, tried
// first at this point, proves the obligation; nil otherwise, the model
// being deferred (cands) or not confirmed (reasons). Either way the
// strategy stops at this piece.
func (r *strategyRun) model(si int, q *query, sol *smt.Solver, scripts []string) *outcome {
	s, c, ob, st := r.s, r.c, r.c.Obligation, r.strategies[si]
	if q.opaque > 0 && si < len(r.strategies)-1 {
		// The model may only exploit the freedom of the uninterpreted
		// elements, which a later strategy unfolds. Matching first,
		// within a small resource limit (matchFirst), when it comes
		// later: the look at the model unfolds both sides to the
		// inputs at its point, which costs far more than matching's
		// proof of a right kernel (an update whose previous element
		// both sides read).
		if !r.matchTried && si < r.matchIdx {
			r.matchTried = true
			if out := s.matchFirst(c, r.strategies, r.pieces); out != nil {
				sol.Close()
				return out
			}
		}
		// The unfolding strategies, within a small resource limit,
		// before the look at the model (proveFirst).
		if !r.proofTried {
			r.proofTried = true
			if out := r.proveFirst(si); out != nil {
				sol.Close()
				return out
			}
		}
		// One quick look at it, within a small resource limit (a wrong
		// kernel's counterexample is usually found this way); the full
		// search (every tensor unfolded to the inputs, at each point
		// tried, within the query's limit) waits until no strategy
		// proves the obligation: it costs far more than the later
		// strategies' proofs.
		s.lookLimit = lookResources
		out := s.failure(c, q, sol, 1)
		s.lookLimit = 0
		if out.status == symeval.Failed {
			sol.Close()
			out.smt = queryScript(ob, st.name, scripts)
			out.solver = st.name
			return out
		}
		r.cands = append(r.cands, candidate{strategy: st.name, q: q, sol: sol, scripts: append([]string(nil), scripts...)})
		return nil
	}
	out := s.failure(c, q, sol, 3)
	sol.Close()
	out.smt = queryScript(ob, st.name, scripts)
	if out.status == symeval.Failed {
		out.solver = st.name
		return out
	}
	r.reasons = append(r.reasons, st.name+": counterexample not confirmed: "+out.reason)
	return nil
}

// pieceScript prints the SMT-LIB2 script of q, the query of piece pi of
// n of an obligation's points, after note, a comment on what was decided
// before the solver ("" for none).
func (s *solver) pieceScript(q *query, pi, n int, note string) string {
	script, _ := s.z.SMTLIB2("ALL", append([]*smt.Term{q.points, q.bad}, q.axioms...)...)
	if note != "" {
		script = comment(note) + script
	}
	if n > 1 {
		script = fmt.Sprintf("; piece %d of %d of the points\n%s", pi+1, n, script)
	}
	return script
}

// matchFirstResources bounds each check of matchFirst: the queries it
// closes are linear integer arithmetic over the points (the guards and
// clamped indices of boundary conditions), a few hundred units each; a
// query that needs more is left to the strategies in their order.
const matchFirstResources = 50_000

// matchFirst tries the matching strategy on its own, within a small
// resource limit, ahead of its turn: before any strategy when the
// specification side reads a computed tensor that the implementation side
// does not read (a copy stage's annotation, a stage reading its producer
// through a boundary condition), since the strategies before matching
// leave that tensor uninterpreted and their queries are satisfiable;
// otherwise at the first satisfiable query of those strategies that
// leaves specification elements uninterpreted, before the look at its
// model (both sides unfolded to the inputs at the model's point), which
// costs far more than matching's proof of a right kernel.
//
// Every piece must close: its sides substituted to one term, or its query
// unsatisfiable within matchFirstResources units of Z3's plain SMT kernel. It returns the proved outcome,
// or nil at the first piece that does not close (any other answer, or an
// error): the strategies then run in their order as if matchFirst had not
// been tried. Being bounded in resource units, not time, what it closes
// does not depend on the machine's load.
func (s *solver) matchFirst(c *symeval.Condition, strategies []strategy, pieces []*presburger.BasicMap) *outcome {
	ob := c.Obligation
	si := slices.IndexFunc(strategies, func(st strategy) bool { return st.match })
	if si < 0 {
		return nil
	}
	st := strategies[si]
	var scripts []string
	earlier := map[string]*query{}
	// The pieces of one substitution are first closed together, by one
	// query over their union (closeGroups), each alone only if that fails.
	// The pieces of a copy of input tensors are first tried with the
	// specification side at its full depth at once (matchdeep.go), in
	// groups as the others.
	deep, useDeep := s.deepMatch(ob, st)
	earlierDeep := map[string]*query{}
	gst, gearlier := st, earlier
	if useDeep {
		gst, gearlier = deep, earlierDeep
	}
	groups := s.groupPieces(ob, pieces)
	closedGroups := s.closeGroups(c, gst, groups, pieces, gearlier, &scripts)
	for pi, piece := range pieces {
		if s.ctx.Err() != nil {
			return nil
		}
		if closedGroups[groups.key[pi]] {
			continue
		}
		if s.shed(c, pi, len(pieces)) {
			clear(earlier)
			clear(earlierDeep)
		}
		if useDeep {
			// The specification side at its full depth at once
			// (matchdeep.go); matching level by level if that fails.
			if closed, q := s.closeDeep(ob, deep, piece, earlierDeep); closed != "" {
				if s.v.opts.KeepSMT && q.points != nil {
					scripts = append(scripts, s.pieceScript(q, pi, len(pieces), closedNote(closed)))
				}
				if s.v.opts.Trace != nil {
					s.v.trace(fmt.Sprintf("C%d: %s, first, piece %d of %d, at full depth: %s", c.ID, st.name, pi+1, len(pieces), closed))
				}
				continue
			}
		}
		s.enc.ResetUnfoldings()
		q, err := s.encode(ob, st, piece, earlier)
		if err != nil {
			return nil
		}
		if q.same && q.bad.IsFalse() {
			continue
		}
		if q.bad.IsFalse() {
			if s.v.opts.KeepSMT {
				scripts = append(scripts, s.pieceScript(q, pi, len(pieces), sameTermsNote))
			}
			continue
		}
		closed, err := s.closeQuickly(ob, q)
		if s.v.opts.Trace != nil {
			s.v.trace(fmt.Sprintf("C%d: %s, first, piece %d of %d: %s", c.ID, st.name, pi+1, len(pieces), closed))
		}
		if err != nil || closed == "" {
			return nil
		}
		if s.v.opts.KeepSMT {
			scripts = append(scripts, s.pieceScript(q, pi, len(pieces), closedNote(closed)))
		}
	}
	return &outcome{status: symeval.Proved, solver: st.name, smt: queryScript(ob, st.name, scripts)}
}

// closeQuickly tries to prove the query q of obligation ob within
// matchFirstResources units: first with the guards that both sides share
// peeled off (peelGuards), a query with fewer points to refute, then as
// it is. It returns how it closed the query ("same terms" without a guard,
// "unsat" of either query), or "" when neither was proved.
func (s *solver) closeQuickly(ob *symeval.Obligation, q *query) (string, error) {
	x, y := peelGuards(q.iv, q.sv)
	if x.ID() != q.iv.ID() || y.ID() != q.sv.ID() {
		eq, err := s.enc.Equal(x, y, ob.Impl.Type)
		if err != nil {
			return "", err
		}
		relaxed := s.z.Or(q.idef.Not(), q.sdef.Not(), eq.Not()).Simplify()
		if relaxed.IsFalse() {
			return "same terms under shared guards", nil
		}
		res, err := s.quickCheck(append([]*smt.Term{q.points, relaxed}, q.axioms...), matchFirstResources)
		if err != nil {
			return "", err
		}
		if res == smt.Unsat {
			return "unsat under shared guards", nil
		}
	}
	res, err := s.quickCheck(append([]*smt.Term{q.points, q.bad}, q.axioms...), matchFirstResources)
	if err != nil || res != smt.Unsat {
		return "", err
	}
	return "unsat", nil
}

// peelGuards strips the if-then-else guards that the two sides share
// with one branch the same term: ite(g, a, x) and ite(g, a, y) can only
// differ where x and y do, and so can ite(g, x, a) and ite(g, y, a). The
// sides Halide's boundary conditions give a copy stage have that form,
// their guards comparing i32 casts of indices (bit-vectors, which cost the
// solver far more than the linear arithmetic that x = y needs). A query
// whose peeled sides are equal at every point is proved; a difference of
// the peeled sides need not be one of the sides themselves.
func peelGuards(x, y *smt.Term) (*smt.Term, *smt.Term) {
	for {
		gx, tx, ex, okx := x.IteParts()
		gy, ty, ey, oky := y.IteParts()
		if !okx || !oky || gx.ID() != gy.ID() {
			return x, y
		}
		switch {
		case tx.ID() == ty.ID():
			x, y = ex, ey
		case ex.ID() == ey.ID():
			x, y = tx, ty
		default:
			return x, y
		}
	}
}

// readsFreeTensor reports whether the specification side of ob reads a
// computed tensor that its implementation side does not read.
func (s *solver) readsFreeTensor(ob *symeval.Obligation) bool {
	reads := map[string]bool{}
	for _, t := range tensorsOf(ob.Impl.Expr) {
		reads[t] = true
	}
	for _, t := range tensorsOf(ob.Spec.Expr) {
		if tt := s.v.in.spec.Tensor(t); tt != nil && !tt.Input && !reads[t] {
			return true
		}
	}
	return false
}

// tryCandidates looks for a counterexample in the deferred models of
// cands, cheapest strategy first, when no strategy has proved the
// obligation within the current resource limit: failure confirms or
// refutes each by evaluation (in the real model exactly, with every
// tensor unfolded). It returns the first confirmed failure, or nil after
// adding a reason per model tried; cands is emptied either way.
func (s *solver) tryCandidates(c *symeval.Condition, cands *[]candidate, reasons *[]string) *outcome {
	defer func() {
		for _, k := range *cands {
			k.sol.Close()
		}
		*cands = nil
	}()
	for _, k := range *cands {
		if err := s.ctx.Err(); err != nil {
			return &outcome{status: symeval.Undecided, reason: "cancelled"}
		}
		out := s.failure(c, k.q, k.sol, 3)
		if out.status == symeval.Failed {
			out.smt = queryScript(c.Obligation, k.strategy, k.scripts)
			out.solver = k.strategy
			return out
		}
		*reasons = append(*reasons, k.strategy+": sat with uninterpreted specification elements")
	}
	return nil
}

// candidate is a satisfiable query of a strategy that left specification
// elements uninterpreted: its model may be a counterexample.
type candidate struct {
	strategy string
	q        *query
	sol      *smt.Solver
	scripts  []string
}

// resourceSteps returns the growing resource limits the strategies are
// tried within, ending with full.
func resourceSteps(full uint64) []uint64 {
	var out []uint64
	for _, l := range []uint64{2_000_000, 20_000_000} {
		if l < full {
			out = append(out, l)
		}
	}
	return append(out, full)
}
