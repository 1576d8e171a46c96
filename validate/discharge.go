package validate

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/symeval"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// outcome is the result of discharging one value condition.
type outcome struct {
	status    symeval.Status
	reason    string
	solver    string
	seconds   float64
	resources uint64
	smt       string

	// For a failure: the kind (refined: an undefined value stored or an
	// undefined annotation), the values of the parameters (the kernel's
	// and the loop variables, by presburger name), of the holes, of
	// both sides, and of the inputs read.
	kind        sched.Kind
	params      map[string]int64
	implHoles   []int64
	specHoles   []int64
	implValue   string
	specValue   string
	inputs      []InputValue // the model's inputs read by the concrete evaluation
	seed        uint64       // when confirmed on random inputs instead: their seed
	groundKind  sched.Kind   // the kind found by the real-arithmetic check
	confirmNote string
}

// solver is a worker's Z3 context with its encoder.
type solver struct {
	v   *validation
	z   *smt.Context
	enc *encode.Encoder
	// ctx cancels the solver's checks: the validation's context, or the
	// narrower one of the conditions decided ahead (ahead.go).
	ctx context.Context
	// guard records that a check reached the wall-clock guard: the
	// validation's guardHit, or the flag of a condition decided ahead,
	// which counts only if its outcome is used.
	guard *atomic.Bool
	// used counts the resource units of every check of the condition
	// being decided.
	used uint64
	// lookLimit, when not zero, bounds the checks of a counterexample
	// search (check, groundCheck) below the query's resource limit.
	lookLimit uint64
	// ground is the solver of the ground checks (groundSolver).
	ground *solver
	// defOnly: the kernel's side of the condition being confirmed is a
	// subexpression of the stored value (the definedness probe), whose
	// undefinedness alone is the failure: a ground check and a
	// concrete evaluation consider neither the specification's side nor
	// the equality of the two.
	defOnly bool
	// releaseAt is the number of references held by the context's
	// wrappers from which decide gives back the unreachable ones
	// (release).
	releaseAt int
}

// releaseFloor is the least number of Z3 references held by wrappers at
// which decide forces a collection to give back the unreachable ones. A
// condition leaves some 5,000 to 10,000 (the 25-point stencils); a
// forced collection marks the whole Go heap, which holds every
// condition, so collecting after each one made the solve phase quadratic
// in the number of conditions (the 32-stage stencil chain: 33 forced
// collections of 22 MB).
const releaseFloor = 1 << 16

// lookResources bounds each check of the first, quick look at the model
// of an encoding that leaves specification elements uninterpreted: a
// wrong kernel's counterexample is usually confirmed well within it.
const lookResources = 1_000_000

// lookGuard is the wall-clock guard of the quick look's checks: far above
// what lookResources allows (a fraction of a second), it only stops the
// checks on which Z3 ignores its resource limit.
const lookGuard = 10 * time.Second

// searchLimit is the resource limit of a counterexample search's checks.
func (s *solver) searchLimit() uint64 {
	if s.lookLimit > 0 {
		return min(s.lookLimit, s.v.opts.Resources)
	}
	return s.v.opts.Resources
}

func newSolver(v *validation) (*solver, error) {
	return v.newSolverIn(v.ctx, &v.guardHit)
}

// newSolverIn is newSolver with the checks cancelled by ctx and the
// wall-clock guard's hits recorded in guard.
func (v *validation) newSolverIn(ctx context.Context, guard *atomic.Bool) (*solver, error) {
	z, err := smt.NewContext(smt.WithModels(true))
	if err != nil {
		return nil, err
	}
	return &solver{v: v, z: z, enc: v.encoder(z), ctx: ctx, guard: guard}, nil
}

// encoder is an encoder of the specification into z, in the value model
// of the options, reading the kernel's derived literals (literals.go).
func (v *validation) encoder(z *smt.Context) *encode.Encoder {
	e := encode.New(z, v.in.spec, v.in.sinfo, v.opts.ValueModel)
	e.SetReadings(v.readings)
	return e
}

// renew replaces a context that a check abandoned (smt.ErrUnresponsive)
// with a fresh one, so that the condition's next strategies can run: the
// terms of the old one are gone with it. It reports whether the context
// was renewed.
func (s *solver) renew() (bool, error) {
	if !s.z.Abandoned() {
		return false, nil
	}
	z, err := smt.NewContext(smt.WithModels(true))
	if err != nil {
		return false, err
	}
	s.z, s.enc = z, s.v.encoder(z)
	return true, nil
}

func (s *solver) close() {
	if s.ground != nil {
		s.ground.close()
	}
	s.z.Close()
}

// groundApart reports whether the ground checks of obligation ob run in a
// Z3 context apart (solver.groundSolver): in the real value model, when
// its sides or the specification's equations call a builtin that the
// encoding leaves uninterpreted (exp, sqrt, bit casts, ...), whose values
// the ground terms multiply.
func (v *validation) groundApart(ob *symeval.Obligation) bool {
	if v.opts.ValueModel != encode.Real {
		return false
	}
	v.opaqueOnce.Do(func() {
		for _, t := range v.in.spec.Tensors {
			for _, eq := range t.Eqs {
				v.specOpaque = v.specOpaque || callsOpaque(eq.RHS) || callsOpaque(eq.Where)
			}
		}
	})
	return v.specOpaque || callsOpaque(ob.Impl.Expr) || callsOpaque(ob.Spec.Expr)
}

// callsOpaque reports whether x calls a float builtin (exp, sqrt, ...:
// those the real model leaves uninterpreted, and floor, ceil and round)
// or a bit cast.
func callsOpaque(x syntax.Expr) bool {
	if x == nil {
		return false
	}
	found := false
	syntax.Inspect(x, func(e syntax.Expr) bool {
		if c, ok := e.(*syntax.Call); ok && c.Fun != nil {
			b, builtin := value.LookupBuiltin(c.Fun.Name)
			if builtin && b.FloatOnly || strings.HasPrefix(c.Fun.Name, "reinterpret_") {
				found = true
			}
		}
		return !found
	})
	return found
}

// groundSolver returns the solver of the ground checks (groundReal), in a
// Z3 context of its own, made on first use and again after a check
// abandoned the previous one.
func (s *solver) groundSolver() (*solver, error) {
	if s.ground != nil && !s.ground.z.Abandoned() {
		return s.ground, nil
	}
	if s.ground != nil {
		s.ground.close()
	}
	g, err := s.v.newSolverIn(s.ctx, s.guard)
	if err != nil {
		return nil, err
	}
	s.ground = g
	return g, nil
}

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

// query is an encoded obligation.
type query struct {
	params map[string]*smt.Term // presburger parameter name -> constant
	names  []string             // the parameters in order
	iholes []*smt.Term
	sholes []*smt.Term
	points *smt.Term
	iv, sv *smt.Term
	idef   *smt.Term
	sdef   *smt.Term
	bad    *smt.Term
	axioms []*smt.Term // definitions of unfolded tensor elements
	opaque int         // computed tensor elements left uninterpreted

	// key names the terms the piece substitutes for the parameters and
	// holes (substitutionKey); pointDependent records that the
	// encoding consulted the points (to resolve an equation's guard),
	// so that it is a function of the key alone only when false.
	key            string
	pointDependent bool
	// same: an earlier piece had the same key and its sides were
	// reused (see encode).
	same bool
}

// encode builds the query "some point of the obligation where a side is
// undefined or the two sides differ".
//
// earlier holds, by key (query.key), the queries of earlier pieces under
// the same strategy whose encoding did not consult their points: a piece
// with the same key would get the same sides again, so it takes them
// over and only its points are encoded (nothing at all when the sides
// were closed without the solver: q.bad is false).
func (s *solver) encode(o *symeval.Obligation, st strategy, piece *presburger.BasicMap, earlier map[string]*query) (*query, error) {
	return s.encodePieces(o, st, s.substitute(o, piece), []*presburger.BasicMap{piece}, earlier)
}

// substitute returns the query of piece with only its substitution made:
// the terms of its parameters and holes (solveParams, solveHoles) and its
// key (substitutionKey).
func (s *solver) substitute(o *symeval.Obligation, piece *presburger.BasicMap) *query {
	q := &query{params: map[string]*smt.Term{}}
	sp := o.Points.Space()
	for _, p := range sp.Params {
		q.params[p] = s.z.IntConst(p)
		q.names = append(q.names, p)
	}
	// Parameters (loop variables) that the piece fixes, such as x = 0 in
	// a peeled first iteration, become their values.
	for name, t := range s.solveParams(piece, sp, q.params) {
		q.params[name] = t
	}
	// Holes that the piece defines by an equality become that affine
	// expression of the parameters: both sides then read the same terms,
	// which the solver recognises without bit-blasting anything.
	defs := s.solveHoles(piece, sp, q.params)
	for k := 1; k <= o.Impl.Holes; k++ {
		t := defs[k-1]
		if t == nil {
			t = s.z.IntConst(fmt.Sprintf("i%d", k))
		}
		q.iholes = append(q.iholes, t)
	}
	for k := 1; k <= o.Spec.Holes; k++ {
		t := defs[o.Impl.Holes+k-1]
		if t == nil {
			t = s.z.IntConst(fmt.Sprintf("s%d", k))
		}
		q.sholes = append(q.sholes, t)
	}
	q.key = substitutionKey(q)
	return q
}

// encodePieces completes the query q of the substitution that every one
// of pieces makes (substitute): its points are their union, so that the
// guards decided over them, and the query's answer, hold for each.
func (s *solver) encodePieces(o *symeval.Obligation, st strategy, q *query, pieces []*presburger.BasicMap, earlier map[string]*query) (*query, error) {
	sp := o.Points.Space()
	e := earlier[q.key]
	if e != nil && e.bad.IsFalse() {
		q.same, q.bad = true, e.bad
		return q, nil
	}
	var err error
	dims := append(append([]*smt.Term(nil), q.iholes...), q.sholes...)
	if q.points, err = s.enc.Set(presburger.NewMap(sp, pieces...), func(name string) (*smt.Term, bool) {
		t, ok := q.params[name]
		return t, ok
	}, dims); err != nil {
		return nil, fmt.Errorf("points: %w", err)
	}
	q.points = q.points.Simplify()
	if e != nil {
		q.same = true
		q.iv, q.sv, q.idef, q.sdef, q.bad, q.axioms, q.opaque = e.iv, e.sv, e.idef, e.sdef, e.bad, e.axioms, e.opaque
		return q, nil
	}
	defer func() {
		if q.bad != nil && !q.pointDependent {
			earlier[q.key] = q
		}
	}()
	// Unfolded equations whose domain the points decide keep only the
	// equation that applies: the two sides then meet in one normal form
	// instead of under guards the solver would case-split on.
	decider, closeDecider := s.decider(q.points)
	defer closeDecider()
	decide := func(cond *smt.Term) (bool, bool) {
		q.pointDependent = true
		return decider(cond)
	}
	if st.impl.Unfold != nil {
		st.impl.Decide = decide
	}
	if st.spec.Unfold != nil {
		st.spec.Decide = decide
	}
	param := func(name string) (*smt.Term, bool) { t, ok := q.params[name]; return t, ok }
	holeIdx := func(hs []*smt.Term) encode.Index { return holeIndex(hs, param) }
	if q.iv, q.idef, err = s.enc.Expr(o.Impl.Expr, o.Impl.Types(), holeIdx(q.iholes), st.impl); err != nil {
		return nil, fmt.Errorf("%s: %w", o.Impl, err)
	}
	if st.match {
		iv := q.iv.SimplifyArith()
		named, err := q.iv.SubtermIDs()
		if err != nil {
			return nil, err
		}
		simplified, err := iv.SubtermIDs()
		if err != nil {
			return nil, err
		}
		maps.Copy(named, simplified)
		keep := func(t *smt.Term) bool { return named[t.ID()] }
		// prev is the previous depth's term itself, not its identifier:
		// Z3 gives a freed term's identifier to a later term, so an
		// identifier outliving its term could match a different term.
		var prev *smt.Term
		for d := 1; d <= maxMatchDepth; d++ {
			opts := st.spec
			opts.Depth, opts.Keep = d, keep
			s.enc.ForgetUnfoldings()
			sv, sdef, err := s.enc.Expr(o.Spec.Expr, o.Spec.Types(), holeIdx(q.sholes), opts)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", o.Spec, err)
			}
			cur := sv.SimplifyArith()
			id := cur.ID()
			// A match, or a fixed point: one level more unfolds nothing,
			// so the side is substituted down to the inputs and the
			// tensors the implementation depends on (a chain of wrappers
			// such as Halide's boundary conditions ends this way), and
			// the solver gets the whole definition.
			if id == iv.ID() || (prev != nil && id == prev.ID()) {
				q.sv, q.sdef = sv, sdef
				break
			}
			prev = cur
		}
		if q.sv == nil {
			s.enc.ForgetUnfoldings()
		}
	}
	if q.sv == nil {
		if q.sv, q.sdef, err = s.enc.Expr(o.Spec.Expr, o.Spec.Types(), holeIdx(q.sholes), st.spec); err != nil {
			return nil, fmt.Errorf("%s: %w", o.Spec, err)
		}
	}
	// Polynomials in normal form: (h*31 + a)*31 and 961*h + 31*a, or a
	// reassociated real sum, become the same term.
	q.iv, q.sv = q.iv.SimplifyArith(), q.sv.SimplifyArith()
	eq, err := s.enc.Equal(q.iv, q.sv, o.Impl.Type)
	if err != nil {
		return nil, err
	}
	q.bad = s.z.Or(q.idef.Not(), q.sdef.Not(), eq.Not()).Simplify()
	for _, a := range s.enc.Axioms() {
		q.axioms = append(q.axioms, a.SimplifyArith())
	}
	q.opaque = s.enc.CutOffs()
	return q, nil
}

// substitutionKey names the terms q substitutes for the parameters and
// the holes, by their Z3 identifiers: two pieces with the same key have
// their sides encoded to the same terms, unless an encoding consults the
// points themselves. The identifiers are safe as a key because every
// query kept under its key (encode's earlier) holds its terms alive: no
// other term can take their identifiers over.
func substitutionKey(q *query) string {
	b := make([]byte, 0, 8*(len(q.names)+len(q.iholes)+len(q.sholes)+2))
	for _, name := range q.names {
		b = strconv.AppendUint(b, uint64(q.params[name].ID()), 36)
		b = append(b, ',')
	}
	for _, hs := range [][]*smt.Term{q.iholes, q.sholes} {
		b = append(b, '|')
		for _, h := range hs {
			b = strconv.AppendUint(b, uint64(h.ID()), 36)
			b = append(b, ',')
		}
	}
	return string(b)
}

// decider returns a function telling whether a condition always or never
// holds at the points (quick linear-arithmetic checks, cached), and a
// function that releases its solver, to call once the encoding is done.
//
// A condition that simplifies to a constant is decided without a check.
// The others are first checked by Z3's plain SMT kernel, which holds the
// points once for all of them (each check in a scope of its own, within
// decideResources): setting up a solver and asserting the points again
// for every condition cost most of the encoding of an obligation of many
// small pieces (Halide's boundary conditions). An answer it leaves
// unknown is asked again of a fresh solver with Z3's preprocessing, as
// before: every decision that solver makes is still made.
func (s *solver) decider(points *smt.Term) (func(*smt.Term) (bool, bool), func()) {
	// The cache is keyed by Z3's identifier of the condition and keeps
	// the condition alive with its answer: while it is alive, no other
	// term can take its identifier over.
	type decided struct {
		cond *smt.Term
		r    [2]bool
	}
	cache := map[uint]decided{}
	inc := &incrementalDecider{s: s, points: points}
	fresh := func(f *smt.Term) bool { // points ⇒ f, by a general solver of its own
		res, sol, err := s.checkTerms([]*smt.Term{points, f.Not()}, decideResources, false)
		if sol != nil {
			sol.Close()
		}
		return err == nil && res == smt.Unsat
	}
	holds := func(f *smt.Term) bool {
		switch inc.check(f.Not()) {
		case smt.Unsat:
			return true
		case smt.Sat:
			return false
		}
		return fresh(f)
	}
	decide := func(cond *smt.Term) (bool, bool) {
		cond = cond.Simplify()
		if d, ok := cache[cond.ID()]; ok {
			return d.r[0], d.r[1]
		}
		var r [2]bool
		switch {
		case cond.Not().Simplify().IsFalse():
			r = [2]bool{true, true}
		case cond.IsFalse():
			r = [2]bool{false, true}
		case holds(cond):
			r = [2]bool{true, true}
		case holds(cond.Not()):
			r = [2]bool{false, true}
		}
		cache[cond.ID()] = decided{cond, r}
		return r[0], r[1]
	}
	return decide, inc.close
}

// incrementalDecider checks formulas together with fixed points in one
// plain SMT solver (smt.Context.NewSimpleSolver), set up at the first
// check: the points are asserted once, each formula in a scope of its
// own. After an error it answers Unknown.
type incrementalDecider struct {
	s      *solver
	points *smt.Term
	sol    *smt.Solver
	broken bool
}

// check reports whether the points and f are satisfiable, within
// decideResources units; Unknown when the solver could not tell.
func (d *incrementalDecider) check(f *smt.Term) smt.Result {
	if d.broken {
		return smt.Unknown
	}
	if d.sol == nil {
		sol, err := d.s.z.NewSimpleSolver()
		if err != nil {
			d.broken = true
			return smt.Unknown
		}
		d.sol = sol
		if d.sol.Assert(d.points) != nil {
			d.broken = true
			return smt.Unknown
		}
	}
	if d.sol.Push() != nil {
		d.broken = true
		return smt.Unknown
	}
	defer func() {
		if d.sol.Pop(1) != nil {
			d.broken = true
		}
	}()
	if d.sol.Assert(f) != nil {
		return smt.Unknown
	}
	res, err := d.s.solve(d.sol, decideResources)
	if err != nil {
		return smt.Unknown
	}
	return res
}

// close releases the solver.
func (d *incrementalDecider) close() {
	if d.sol != nil {
		d.sol.Close()
		d.sol = nil
	}
}

// solveParams returns the parameters that the equalities of the piece
// over the parameters alone define, as terms of the others: Gaussian
// elimination over the integers, each pivot a parameter with coefficient
// ±1 (the last such, loop variables coming after the kernel's
// parameters), eliminated from the equalities before and after it, so
// that chains such as result_extent_0 = A__extent_0 = C__extent_1 all
// end at one parameter and both sides of an obligation name it alike.
// An equality whose coefficients leave 64 bits is left to the points.
func (s *solver) solveParams(b *presburger.BasicMap, sp presburger.Space, params map[string]*smt.Term) map[string]*smt.Term {
	np := b.Dims(presburger.DimParam)
	pivots := map[int][]int64{} // pivot column -> row: 1 there, 0 on the other pivots
	var order []int
	for _, row := range b.Eqs() {
		if len(row) != b.NumCols() {
			continue
		}
		onlyParams := true
		for j := b.Offset(presburger.DimIn); j < b.ConstCol(); j++ {
			if !row[j].IsZero() {
				onlyParams = false
				break
			}
		}
		if !onlyParams {
			continue
		}
		// r: the parameters' coefficients, then the constant.
		r := make([]int64, np+1)
		fits := true
		for j := 0; j < np && fits; j++ {
			r[j], fits = row[j].Int64()
		}
		if fits {
			r[np], fits = row[b.ConstCol()].Int64()
		}
		for _, p := range order {
			if !fits {
				break
			}
			if r[p] != 0 {
				r, fits = axpy(r, -r[p], pivots[p])
			}
		}
		if !fits {
			continue
		}
		k := -1
		for j := np - 1; j >= 0; j-- {
			if r[j] == 1 || r[j] == -1 {
				k = j
				break
			}
		}
		if k < 0 {
			continue
		}
		if r[k] == -1 {
			for j := range r {
				r[j] = -r[j]
			}
		}
		// Eliminate the new pivot from the earlier rows; an overflow
		// there drops the new row, leaving the earlier ones as they
		// were.
		updated := map[int][]int64{}
		for _, p := range order {
			if c := pivots[p][k]; c != 0 {
				if updated[p], fits = axpy(pivots[p], -c, r); !fits {
					break
				}
			}
		}
		if !fits {
			continue
		}
		maps.Copy(pivots, updated)
		pivots[k] = r
		order = append(order, k)
	}
	out := map[string]*smt.Term{}
	for _, k := range order {
		r := pivots[k]
		// p_k + Σ r_j p_j + r_c = 0, so p_k = -Σ r_j p_j - r_c.
		var terms []*smt.Term
		for j := 0; j < np; j++ {
			if j != k && r[j] != 0 {
				terms = append(terms, s.z.Int(-r[j]).Mul(params[sp.Params[j]]))
			}
		}
		terms = append(terms, s.z.Int(-r[np]))
		out[sp.Params[k]] = s.z.Add(terms...).Simplify()
	}
	return out
}

// axpy returns x + a*y, and false when a coefficient overflows 64 bits.
func axpy(x []int64, a int64, y []int64) ([]int64, bool) {
	out := make([]int64, len(x))
	for j := range x {
		p, ok := mul64(a, y[j])
		if !ok {
			return nil, false
		}
		sum := x[j] + p
		if (p > 0 && sum < x[j]) || (p < 0 && sum > x[j]) {
			return nil, false
		}
		out[j] = sum
	}
	return out, true
}

// mul64 returns a*b, and false when it overflows 64 bits.
func mul64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return p, true
}

// solveHoles returns, for each dimension of the piece, its value as a
// quasi-affine term of the parameters when an equality of the piece
// defines it (coefficient ±1 on it, no other dimension, divisions of the
// parameters allowed), else nil.
func (s *solver) solveHoles(b *presburger.BasicMap, sp presburger.Space, params map[string]*smt.Term) []*smt.Term {
	// The holes are the dimensions, in and out, from column np on.
	np, nd := b.Offset(presburger.DimIn), b.Dims(presburger.DimIn)+b.Dims(presburger.DimOut)
	out := make([]*smt.Term, nd)
	// The divisions of the parameters only, as Int terms.
	locals := make([]*smt.Term, b.NumLocals())
	for i := range locals {
		num, den := b.Local(i)
		if den.IsZero() {
			continue // an existential
		}
		d, ok := den.Int64()
		if !ok || d <= 0 {
			continue
		}
		t := s.linear(num, np, nd, sp, params, locals)
		if t == nil {
			continue
		}
		locals[i] = t.Div(s.z.Int(d)) // floor, the divisor being positive
	}
	for _, row := range b.Eqs() {
		d := -1
		ok := true
		for j := np; j < np+nd; j++ {
			if row[j].IsZero() {
				continue
			}
			if d >= 0 {
				ok = false
				break
			}
			d = j - np
		}
		if !ok || d < 0 || out[d] != nil {
			continue
		}
		c, _ := row[np+d].Int64()
		if c != 1 && c != -1 {
			continue
		}
		// c*h + rest = 0, so h = -c * rest.
		rest := append([]presburger.Int(nil), row...)
		rest[np+d] = presburger.NewInt(0)
		t := s.linear(rest, np, nd, sp, params, locals)
		if t == nil {
			continue
		}
		out[d] = s.z.Int(-c).Mul(t).Simplify()
	}
	return out
}

// linear returns the Int term of the row Σ a_k x_k + a_0 over the
// parameters and the known locals (columns [params | dims | locals |
// constant]), or nil when it involves a dimension, an unknown local or a
// coefficient beyond 64 bits.
func (s *solver) linear(row []presburger.Int, np, nd int, sp presburger.Space, params map[string]*smt.Term, locals []*smt.Term) *smt.Term {
	var terms []*smt.Term
	for k := 0; k < len(row)-1; k++ {
		if row[k].IsZero() {
			continue
		}
		a, ok := row[k].Int64()
		if !ok {
			return nil
		}
		switch {
		case k < np:
			terms = append(terms, s.z.Int(a).Mul(params[sp.Params[k]]))
		case k < np+nd:
			return nil
		default:
			l := k - np - nd
			if l >= len(locals) || locals[l] == nil {
				return nil
			}
			terms = append(terms, s.z.Int(a).Mul(locals[l]))
		}
	}
	a0, ok := row[len(row)-1].Int64()
	if !ok {
		return nil
	}
	terms = append(terms, s.z.Int(a0))
	return s.z.Add(terms...)
}

// decide discharges the value condition c.
func (s *solver) decide(c *symeval.Condition) *outcome {
	start := time.Now()
	s.used = 0
	o := s.decideStrategies(c)
	o.seconds = time.Since(start).Seconds()
	o.resources = s.used
	s.release()
	return o
}

// release gives Z3 back the references of the unreachable wrappers once
// the wrappers hold releaseFloor references, or twice what they held
// after the last release, whichever is more: like the collector's own
// pacing, the forced collections then cost in proportion to the terms
// made, not to the conditions decided, and Z3 holds at most about twice
// the terms in use (or releaseFloor more).
func (s *solver) release() {
	if s.z.Held() < max(s.releaseAt, releaseFloor) {
		return
	}
	s.z.ReleaseUnused()
	s.releaseAt = 2 * s.z.Held()
}

func (s *solver) decideStrategies(c *symeval.Condition) *outcome {
	ob := c.Obligation
	if ob.Impl.Type != ob.Spec.Type {
		return &outcome{status: symeval.Failed, kind: c.Kind, reason: fmt.Sprintf("the two sides have different types: %s and %s", ob.Impl.Type, ob.Spec.Type)}
	}
	var reasons []string
	var firstSMT string
	pieces := ob.Points.Basics()
	strategies := s.strategies(ob)
	// Matching first, on its own, when the strategies before it cannot
	// prove the obligation (matchFirst); otherwise at the first model of
	// those strategies that leaves specification elements free. Not in
	// the ieee model: there the terms it makes change the course of the
	// context's later bit-blasted searches (a wrong kernel of the corpus,
	// separable_two_pass, took four times as long to refute), and its
	// queries are rarely closed within its small limit.
	matchIdx := slices.IndexFunc(strategies, func(st strategy) bool { return st.match })
	matchTried := s.v.opts.ValueModel == encode.IEEE
	if !matchTried && s.readsFreeTensor(ob) {
		matchTried = true
		if out := s.matchFirst(c, strategies, pieces); out != nil {
			return out
		}
	}
	// Every strategy, cheapest first, within a small resource limit,
	// then again within larger ones those that ran out of it: a cheap
	// proof (or a model) by a later strategy is found before an earlier
	// one spends the full limit failing.
	limits := resourceSteps(s.v.opts.Resources)
	live := make([]bool, len(strategies))
	// resume[i]: the first piece strategy i has not proved yet.
	resume := make([]int, len(strategies))
	for i := range live {
		live[i] = true
	}
	// The satisfiable queries of strategies that left specification
	// elements uninterpreted, with their solvers (and models), looked at
	// once every strategy has been tried within a limit (tryCandidates).
	var cands []candidate
	defer func() {
		for _, k := range cands {
			k.sol.Close()
		}
	}()
	for li := 0; li < len(limits)*len(strategies); li++ {
		si, limit := li%len(strategies), limits[li/len(strategies)]
		if !live[si] {
			continue
		}
		// A check Z3 would not stop took the context with it: the
		// strategies left go on in a new one, without the deferred
		// models (their terms were in the old one).
		if renewed, err := s.renew(); err != nil {
			return &outcome{status: symeval.Undecided, reason: strings.Join(append(reasons, "solver unavailable: "+err.Error()), "; ")}
		} else if renewed {
			cands = nil
		}
		if si == 0 && li > 0 || strategies[si].candidatesFirst {
			// The cheap strategies (or, at a larger limit, all of them)
			// did not prove the obligation: the deferred models are
			// looked at before the costlier attempts, so that a wrong
			// kernel's counterexample costs little more than it did
			// when each model was looked at as soon as it was found.
			if out := s.tryCandidates(c, &cands, &reasons); out != nil {
				return out
			}
		}
		live[si] = false
		st := strategies[si]
		last := li/len(strategies) == len(limits)-1
		if err := s.ctx.Err(); err != nil {
			return &outcome{status: symeval.Undecided, reason: "cancelled"}
		}
		proved := true
		var scripts []string
		earlier := map[string]*query{}
	pieceLoop:
		for pi := resume[si]; pi < len(pieces); pi++ {
			piece := pieces[pi]
			s.enc.ResetUnfoldings()
			q, err := s.encode(ob, st, piece, earlier)
			if err != nil {
				reasons = append(reasons, st.name+": cannot encode: "+err.Error())
				proved = false
				break
			}
			if q.same && q.bad.IsFalse() {
				if s.v.opts.Trace != nil {
					s.v.trace(fmt.Sprintf("C%d: %s, piece %d of %d: the terms of an earlier piece, closed", c.ID, st.name, pi+1, len(pieces)))
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
				scripts = append(scripts, s.pieceScript(q, pi, len(pieces), note))
			}
			// The two sides met in one term (and are defined): nothing
			// for the solver to do.
			if q.bad.IsFalse() {
				if s.v.opts.Trace != nil {
					s.v.trace(fmt.Sprintf("C%d: %s, piece %d of %d: both sides the same term, closed", c.ID, st.name, pi+1, len(pieces)))
				}
				continue
			}
			before := s.used
			res, sol, err := s.checkLimit(q, nil, limit)
			if res == smt.Unknown && !last && errors.Is(err, errResources) {
				// Again within the next limit, from this piece: the
				// pieces before it are proved, and the strategy cannot
				// prove the obligation within this limit, so its other
				// pieces wait for that round too.
				live[si] = true
				resume[si] = pi
				if s.v.opts.Trace != nil {
					s.v.trace(fmt.Sprintf("C%d: %s, piece %d of %d: %s, %d resource units; the pieces after it wait for the next limit", c.ID, st.name, pi+1, len(pieces), res, s.used-before))
				}
				if sol != nil {
					sol.Close()
				}
				proved = false
				break pieceLoop
			}
			if s.v.opts.Trace != nil {
				s.v.trace(fmt.Sprintf("C%d: %s, piece %d of %d: %s, %d resource units", c.ID, st.name, pi+1, len(pieces), res, s.used-before))
			}
			if err != nil {
				reasons = append(reasons, st.name+": "+err.Error())
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
				if q.opaque > 0 && si < len(strategies)-1 {
					// The model may only exploit the freedom of the
					// uninterpreted elements, which a later strategy
					// unfolds. Matching first, within a small resource
					// limit (matchFirst), when it comes later: the look
					// at the model unfolds both sides to the inputs at
					// its point, which costs far more than matching's
					// proof of a right kernel (an update whose previous
					// element both sides read).
					if !matchTried && si < matchIdx {
						matchTried = true
						if out := s.matchFirst(c, strategies, pieces); out != nil {
							sol.Close()
							return out
						}
					}
					// One quick look at it, within a small
					// resource limit (a wrong kernel's counterexample
					// is usually found this way); the full search
					// (every tensor unfolded to the inputs, at each
					// point tried, within the query's limit) waits
					// until no strategy proves the obligation: it
					// costs far more than the later strategies' proofs.
					s.lookLimit = lookResources
					out := s.failure(c, q, sol, 1)
					s.lookLimit = 0
					if out.status == symeval.Failed {
						sol.Close()
						out.smt = queryScript(ob, st.name, scripts)
						out.solver = st.name
						return out
					}
					cands = append(cands, candidate{strategy: st.name, q: q, sol: sol, scripts: append([]string(nil), scripts...)})
					proved = false
					break pieceLoop
				}
				out := s.failure(c, q, sol, 3)
				sol.Close()
				out.smt = queryScript(ob, st.name, scripts)
				if out.status == symeval.Failed {
					out.solver = st.name
					return out
				}
				reasons = append(reasons, st.name+": counterexample not confirmed: "+out.reason)
				proved = false
				break pieceLoop
			default:
				why := sol.ReasonUnknown()
				sol.Close()
				if why == "" {
					why = "unknown"
				}
				reasons = append(reasons, st.name+": "+why)
				proved = false
			}
		}
		// Keep the scripts of the strongest encoding tried.
		firstSMT = queryScript(ob, st.name, scripts)
		if proved {
			return &outcome{status: symeval.Proved, solver: st.name, smt: firstSMT}
		}
	}
	if out := s.tryCandidates(c, &cands, &reasons); out != nil {
		return out
	}
	return &outcome{status: symeval.Undecided, reason: strings.Join(reasons, "; "), smt: firstSMT}
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
	// query over their union (closeGroup), each alone only if that fails.
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

// quickCheck checks the conjunction of terms in a fresh solver within
// limit resource units, with Z3's plain SMT kernel alone: no
// preprocessing, for the small queries that a short answer settles.
func (s *solver) quickCheck(terms []*smt.Term, limit uint64) (smt.Result, error) {
	sol, err := s.z.NewSimpleSolver()
	if err != nil {
		return smt.Unknown, err
	}
	defer sol.Close()
	if err := sol.Assert(terms...); err != nil {
		return smt.Unknown, err
	}
	return s.solve(sol, limit)
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

// check asserts the query (and extra facts) in a fresh solver and checks
// it under the per-query timeout.
func (s *solver) check(q *query, extra []*smt.Term) (smt.Result, *smt.Solver, error) {
	return s.checkLimit(q, extra, s.searchLimit())
}

// errResources is the error of a query that ran out of its resource
// limit.
var errResources = errors.New("resource limit")

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

// checkLimit is check within limit resource units.
func (s *solver) checkLimit(q *query, extra []*smt.Term, limit uint64) (smt.Result, *smt.Solver, error) {
	terms := append([]*smt.Term{q.points, q.bad}, q.axioms...)
	return s.checkTerms(append(terms, extra...), limit, true)
}

// simpleLimit is the resource limit of the plain SMT kernel's attempt at
// a query (Context.NewSimpleSolver), before Z3's general solver: the
// verifier's easy queries take a few thousand units at most.
const simpleLimit = 200_000

// checkTerms checks the conjunction of terms in a fresh solver within
// limit resource units. Z3's plain SMT kernel tries first, within
// simpleLimit: setting it up costs a fraction of a millisecond where the
// general solver's preprocessing tactics cost tens, and it decides most
// of the verifier's conditions. What it leaves undecided goes to the
// general solver. Both are fresh and bounded in resources, so the answer
// does not depend on what was asked before or on the machine's load. In
// the ieee model the general solver goes first and alone when the
// specification or the kernel computes with floats: its bit-blasting of
// floating-point terms is far faster than the kernel's (without floats
// the two models encode alike). So it does when simple is false: for
// queries the kernel may not stop on (groundCheck). Before either, the
// query's abstraction over bit-vectors may prove it (checkAbstracted).
func (s *solver) checkTerms(terms []*smt.Term, limit uint64, simple bool) (smt.Result, *smt.Solver, error) {
	if sol, proved := s.checkAbstracted(terms, limit); proved {
		return smt.Unsat, sol, nil
	}
	if lim := min(limit, simpleLimit); simple && lim > 0 && (s.v.opts.ValueModel != encode.IEEE || !s.v.usesFloats()) {
		sol, err := s.z.NewSimpleSolver()
		if err != nil {
			return smt.Unknown, nil, err
		}
		if err := sol.Assert(terms...); err != nil {
			return smt.Unknown, sol, err
		}
		res, err := s.solve(sol, lim)
		if res != smt.Unknown || s.ctx.Err() != nil {
			return res, sol, err
		}
		sol.Close()
	}
	sol, err := s.z.NewSolver()
	if err != nil {
		return smt.Unknown, nil, err
	}
	if err := sol.Assert(terms...); err != nil {
		return smt.Unknown, sol, err
	}
	res, err := s.solve(sol, limit)
	return res, sol, err
}

// abstractedLimit bounds the check of a query's abstraction
// (checkAbstracted): bit-blasted, the queries it proves take a few
// million units.
const abstractedLimit = 20_000_000

// checkAbstracted tries to prove the conjunction of terms unsatisfiable
// by its abstraction over booleans, bit-vectors and floats alone
// (smt.Context.AbstractArith: the uninterpreted functions' applications
// to indices, the conversions and comparisons of indices become fresh
// constants), which Z3's general solver then bit-blasts, within
// min(limit, abstractedLimit) units. The abstraction is implied by the
// terms, so its unsatisfiability proves theirs; proved reports it, with
// the solver to close. Any other answer proves nothing, and the query
// goes on as if this had not been tried: the integer arithmetic of the
// indices sends a query with bit-vectors to Z3's general SMT kernel,
// which is far slower on them than bit-blasting (a division of i16
// values by a constant: 20 million units against half a million).
//
// It is tried only when neither the specification nor the kernel
// computes with floats. In the real value model floats are reals, of
// which an abstraction keeps nothing; in the ieee model the general
// solver bit-blasts floating-point terms itself, and the abstraction's
// terms, made in the condition's context, change the course of its later
// searches (a wrong blur of the corpus took five times as long to
// refute).
func (s *solver) checkAbstracted(terms []*smt.Term, limit uint64) (*smt.Solver, bool) {
	if s.v.usesFloats() {
		return nil, false
	}
	abs, err := s.z.AbstractArith(terms...)
	if err != nil || abs.Replaced == 0 || !abs.Bits || abs.Floats {
		return nil, false
	}
	sol, err := s.z.NewSolver()
	if err != nil {
		return nil, false
	}
	if err := sol.Assert(abs.Terms...); err != nil {
		sol.Close()
		return nil, false
	}
	res, err := s.solve(sol, min(limit, abstractedLimit))
	if err == nil && res == smt.Unsat {
		return sol, true
	}
	sol.Close()
	return nil, false
}

// solve checks sol within limit resource units, under the outer
// wall-clock guard. Running out of resources is a plain Unknown with an
// error saying so, as is reaching the guard, which is also recorded: the
// verdict then depends on the machine's speed.
func (s *solver) solve(sol *smt.Solver, limit uint64) (smt.Result, error) {
	if err := sol.SetResourceLimit(limit); err != nil {
		return smt.Unknown, err
	}
	guard := s.v.opts.Timeout
	if s.lookLimit > 0 {
		guard = min(guard, lookGuard)
	}
	ctx, cancel := context.WithTimeout(s.ctx, guard)
	defer cancel()
	before := sol.ResourcesUsed()
	res, err := sol.Check(ctx)
	s.used += sol.ResourcesUsed() - before
	if sol.OutOfMemory() {
		s.v.memoryHit.Store(true)
	}
	switch {
	case res != smt.Unknown:
		return res, nil
	case s.ctx.Err() != nil:
		return res, s.ctx.Err()
	case ctx.Err() == context.DeadlineExceeded:
		s.guard.Store(true)
		return res, fmt.Errorf("wall-clock guard of %s reached before the resource limit", guard)
	case err != nil:
		return res, err
	case sol.ReasonUnknown() == smt.ReasonResourceLimit:
		return res, fmt.Errorf("%w of %d units reached", errResources, limit)
	}
	return res, nil
}

// failure turns a satisfying model into a failed outcome, after looking
// for a model with small parameters and confirming it by concrete
// evaluation of both sides over the model's inputs.
func (s *solver) failure(c *symeval.Condition, q *query, sol *smt.Solver, maxTries int) *outcome {
	// The model at hand first: confirmed with small parameters, it is
	// the counterexample. (Parameters beyond 64 are not evaluated
	// concretely before a smaller model was looked for.)
	var first *outcome
	large := false
	if m, err := s.peekParams(q, sol); err == nil && small(m, s.v.params, 64) {
		first = s.readModel(c, q, sol)
	} else {
		// Evaluated last, if no smaller model shows the failure: its
		// concrete evaluation reads only the cells involved, within
		// the evaluator's bound.
		first = &outcome{status: symeval.Undecided, reason: "the solver's parameters are too large to evaluate"}
		large = err == nil
	}
	if first.status == symeval.Failed && small(first.params, s.v.params, 64) {
		return s.shrink(c, q, first, -1, nil)
	}
	// Otherwise prefer small parameter values (readable counterexamples
	// that the interpreter can replay), and block the points that
	// concrete evaluation did not confirm: the solver may have picked
	// one where the two sides happen to agree.
	var blocked []*smt.Term
	block := func(o *outcome) {
		var diff []*smt.Term
		for _, name := range q.names {
			if v, ok := o.params[name]; ok {
				diff = append(diff, q.params[name].Ne(s.z.Int(v)))
			}
		}
		if len(diff) > 0 {
			blocked = append(blocked, s.z.Or(diff...))
		}
	}
	if first.status != symeval.Failed && first.params != nil {
		block(first)
	}
	tries := 0
	lo := int64(-1) // the bound of the last box tried
	for _, bound := range []int64{4, 64, 1024} {
		for try := 0; try < 2 && (tries < maxTries || try == 0); try++ {
			tries++
			box := append([]*smt.Term(nil), blocked...)
			for _, name := range s.v.params {
				t := q.params[name]
				box = append(box, t.Le(s.z.Int(bound)), t.Ge(s.z.Int(-bound)))
			}
			res, sm, err := s.check(q, box)
			if err != nil || res != smt.Sat {
				if sm != nil {
					sm.Close()
				}
				break
			}
			o := s.readModel(c, q, sm)
			sm.Close()
			if o.status == symeval.Failed {
				return s.shrink(c, q, o, lo, blocked)
			}
			if o.params == nil {
				break
			}
			block(o)
		}
		lo = bound
	}
	if large {
		if o := s.readModel(c, q, sol); o.status == symeval.Failed || o.params != nil {
			if o.status == symeval.Failed {
				return s.shrink(c, q, o, lo, blocked)
			}
			return o
		}
	}
	return first
}

// maxShrinkSteps bounds the queries of shrink: enough to bisect a bound
// of 2^20 down to one.
const maxShrinkSteps = 20

// shrink returns a confirmed failure of condition c whose parameters are
// as small as bisection finds: the smallest bound b on their absolute
// values within which the solver finds a model of q that concrete
// evaluation confirms, searched between lo (a bound within which none was
// found, -1 when none was tried) and the largest parameter of o, the
// failure at hand. A bug that shows only for N >= 200 is reported at
// N = 200, not at whatever the solver picked below 1024. The points in
// blocked (models that evaluation did not confirm) stay excluded. A
// query that finds no model, or one not confirmed, counts as no failure
// within its bound: the result is o or a smaller confirmed failure,
// never an unconfirmed one.
func (s *solver) shrink(c *symeval.Condition, q *query, o *outcome, lo int64, blocked []*smt.Term) *outcome {
	hi := maxAbs(o.params, s.v.params)
	for i := 0; i < maxShrinkSteps && hi-lo > 1 && s.ctx.Err() == nil; i++ {
		mid := lo + (hi-lo)/2
		box := append([]*smt.Term(nil), blocked...)
		for _, name := range s.v.params {
			t := q.params[name]
			box = append(box, t.Le(s.z.Int(mid)), t.Ge(s.z.Int(-mid)))
		}
		res, sm, err := s.check(q, box)
		if err != nil || res != smt.Sat {
			if sm != nil {
				sm.Close()
			}
			lo = mid
			continue
		}
		n := s.readModel(c, q, sm)
		sm.Close()
		if n.status != symeval.Failed || maxAbs(n.params, s.v.params) > mid {
			lo = mid
			continue
		}
		o, hi = n, maxAbs(n.params, s.v.params)
	}
	return o
}

// maxAbs returns the largest absolute value of the named parameters.
func maxAbs(vals map[string]int64, names []string) int64 {
	m := int64(0)
	for _, n := range names {
		v := vals[n]
		if v < 0 {
			v = -v
		}
		m = max(m, v)
	}
	return m
}

// peekParams reads the parameters of the model of sol.
func (s *solver) peekParams(q *query, sol *smt.Solver) (map[string]int64, error) {
	m, err := sol.Model()
	if err != nil {
		return nil, err
	}
	defer m.Close()
	out := map[string]int64{}
	for _, name := range q.names {
		v, err := m.Eval(q.params[name], true)
		if err != nil {
			return nil, err
		}
		if out[name], err = v.Int64Value(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// small reports whether the named parameters are all within [-bound, bound].
func small(vals map[string]int64, names []string, bound int64) bool {
	for _, n := range names {
		if v := vals[n]; v > bound || v < -bound {
			return false
		}
	}
	return true
}

// readModel reads the counterexample of the model of sol and confirms it.
func (s *solver) readModel(c *symeval.Condition, q *query, sol *smt.Solver) *outcome {
	out := &outcome{status: symeval.Failed, kind: c.Kind, params: map[string]int64{}}
	m, err := sol.Model()
	if err != nil {
		return &outcome{status: symeval.Undecided, reason: "no model: " + err.Error()}
	}
	defer m.Close()
	intOf := func(t *smt.Term) (int64, error) {
		v, err := m.Eval(t, true)
		if err != nil {
			return 0, err
		}
		return v.Int64Value()
	}
	for _, name := range q.names {
		v, err := intOf(q.params[name])
		if err != nil {
			return &outcome{status: symeval.Undecided, reason: "model: " + err.Error()}
		}
		out.params[name] = v
	}
	for _, h := range q.iholes {
		v, err := intOf(h)
		if err != nil {
			return &outcome{status: symeval.Undecided, reason: "model: " + err.Error()}
		}
		out.implHoles = append(out.implHoles, v)
	}
	for _, h := range q.sholes {
		v, err := intOf(h)
		if err != nil {
			return &outcome{status: symeval.Undecided, reason: "model: " + err.Error()}
		}
		out.specHoles = append(out.specHoles, v)
	}
	boolOf := func(t *smt.Term) bool {
		v, err := m.Eval(t, true)
		if err != nil {
			return true
		}
		b, err := v.BoolValue()
		return err != nil || b
	}
	switch {
	case !boolOf(q.idef):
		out.kind = sched.UndefinedStore
	case !boolOf(q.sdef):
		out.kind = sched.UndefinedAnnotation
	}
	// Inputs from the model, for the concrete evaluation.
	inputs := s.modelInputs(m)
	var modelInputs sare.Inputs = inputs
	if s.enc.Model() == encode.Real && s.v.usesFloats() {
		// Concrete evaluation rounds floats: in the real model it can
		// neither confirm nor refute a difference. The point is checked
		// in real arithmetic instead, with every tensor unfolded down to
		// the inputs; the concrete values are only shown.
		//
		// The ground checks run in a Z3 context of their own: should Z3
		// loop on one and ignore its interruption, the check is abandoned
		// with its context (smt.ErrUnresponsive), and the condition's own
		// context goes on with the next strategy.
		// (Only where nonlinear arithmetic over uninterpreted builtins
		// can arise: making and deleting a context costs milliseconds.)
		g := s
		if s.v.groundApart(c.Obligation) {
			var err error
			if g, err = s.groundSolver(); err != nil {
				out.status, out.reason = symeval.Undecided, "solver unavailable: "+err.Error()
				return out
			}
			g.lookLimit, g.defOnly = s.lookLimit, s.defOnly
			g.used = 0
		}
		used := g.used
		var given map[string]fixedInput
		if s.defOnly {
			given = s.queryInputs(q, m)
		}
		ground, err := g.groundReal(c, out, given)
		if g != s {
			s.used += g.used - used
		}
		if err != nil {
			out.status, out.reason = symeval.Undecided, err.Error()
			return out
		}
		if out.seed != 0 {
			_ = s.confirmWith(c, out, ground) // the values, for display
		} else {
			_ = s.confirmWith(c, out, recording(ground, out))
		}
		out.kind = out.groundKind
		switch {
		case out.confirmNote != "":
			// Set by groundReal: the solver's values of some inputs.
		case out.seed != 0:
			out.confirmNote = fmt.Sprintf("random inputs of seed %d, the difference checked exactly in the real value model", out.seed)
		default:
			out.confirmNote = "the solver's inputs, the difference checked exactly in the real value model"
		}
		return out
	}
	if err := s.confirm(c, out, modelInputs); err != nil {
		out.status = symeval.Undecided
		out.reason = err.Error()
	}
	return out
}

// usesFloats reports whether the specification computes with floats
// anywhere (otherwise the real model changes nothing and concrete
// evaluation is exact).
func (v *validation) usesFloats() bool {
	for _, t := range v.in.spec.Tensors {
		if t.Type.IsFloat() {
			return true
		}
	}
	for _, t := range v.in.sinfo.Types {
		if t.IsFloat() {
			return true
		}
	}
	for _, t := range v.in.kinfo.Types.Types {
		if t.IsFloat() {
			return true
		}
	}
	return false
}

// groundReal decides, in real arithmetic, whether the obligation fails at
// the point of out (its parameters and holes): both sides are unfolded
// down to the inputs, which stay free, and the solver looks for inputs
// that make them differ (or one undefined). It returns those inputs, or
// an error when the point is no counterexample or cannot be decided.
//
// given holds the values that the model of the query gives the input
// elements the query reads (queryInputs), for the definedness probe's
// failures: when random inputs do not show the failure, those values are
// tried with random ones for the other elements (solverInputs).
func (s *solver) groundReal(c *symeval.Condition, out *outcome, given map[string]fixedInput) (sare.Inputs, error) {
	ob := c.Obligation
	// Unfolding asks for the parameters at every access: their numerals
	// are made once.
	params := map[string]*smt.Term{}
	param := func(name string) (*smt.Term, bool) {
		v, ok := out.params[name]
		t, made := params[name]
		if !made {
			t = s.z.Int(v)
			params[name] = t
		}
		return t, ok
	}
	idx := func(holes []int64) encode.Index {
		ts := make([]*smt.Term, len(holes))
		for i, h := range holes {
			ts[i] = s.z.Int(h)
		}
		return holeIndex(ts, param)
	}
	// Deep enough for the small parameters counterexamples have; deeper
	// recursions are left undecided (CutOffs) rather than unfolded for
	// minutes.
	all := encode.ExprOptions{Unfold: func(string) bool { return true }, Axioms: true, Depth: 512}
	s.enc.ResetUnfoldings()
	defer s.enc.ResetUnfoldings()
	iv, idef, err := s.enc.Expr(ob.Impl.Expr, ob.Impl.Types(), idx(out.implHoles), all)
	if err != nil {
		return nil, fmt.Errorf("ground encoding: %w", err)
	}
	sv, sdef, eq := iv, s.z.True(), s.z.True()
	if !s.defOnly {
		if sv, sdef, err = s.enc.Expr(ob.Spec.Expr, ob.Spec.Types(), idx(out.specHoles), all); err != nil {
			return nil, fmt.Errorf("ground encoding: %w", err)
		}
	}
	if n := s.enc.CutOffs(); n > 0 {
		return nil, fmt.Errorf("the specification's recursion is too deep to unfold at the counterexample (%d elements left)", n)
	}
	if !s.defOnly {
		if eq, err = s.enc.Equal(iv, sv, ob.Impl.Type); err != nil {
			return nil, err
		}
	}
	// With sqrt, exp and the like uninterpreted, a model is no
	// evaluation: it may only have chosen values of the functions that
	// no real function takes. On given inputs, the difference counts
	// only when no interpretation of the functions at all makes the two
	// sides equal (and defined); the real one is among them. A rounding
	// difference of a concrete evaluation counts for nothing here.
	//
	// The definedness probe's failures are held to the same test, the
	// solver's search for inputs included: a division by zero, which
	// the real model leaves unspecified, must not count as an operand out
	// of range. The reference evaluator, in binary floating point, must
	// find the conversion undefined on the same inputs, so that augur run
	// replays the failure.
	opaque := s.enc.UninterpretedBuiltins() > 0 || s.defOnly
	good := s.z.And(idef, sdef, eq)
	bad := s.z.Or(idef.Not(), sdef.Not(), eq.Not())
	axioms := s.enc.Axioms()
	terms := append([]*smt.Term{bad}, axioms...)
	// The input elements the two sides reach, with ground indices.
	var elems []groundElem
	for _, t := range s.v.in.spec.Tensors {
		if !t.Input {
			continue
		}
		f, err := s.enc.Tensor(t.Name.Name)
		if err != nil {
			return nil, err
		}
		apps, err := f.Applications(terms...)
		if err != nil {
			return nil, err
		}
		for _, args := range apps {
			idx := make([]int64, len(args))
			for i, a := range args {
				if idx[i], err = a.Simplify().Int64Value(); err != nil {
					return nil, fmt.Errorf("ground encoding: index %s is not constant", a)
				}
			}
			elems = append(elems, groundElem{t, idx, f.Apply(args...)})
		}
	}
	check := func(fixed []*smt.Term) (*smt.Model, smt.Result, error) {
		return s.groundCheck(append(append([]*smt.Term(nil), terms...), fixed...))
	}
	// independent reports whether, on the fixed inputs, every
	// interpretation of the uninterpreted functions leaves the sides
	// different.
	independent := func(fixed []*smt.Term) bool {
		_, res, err := s.groundCheck(append(append([]*smt.Term{good}, axioms...), fixed...))
		return err == nil && res == smt.Unsat
	}
	// Random inputs first (evaluation, no search): the interpreter's own
	// (replayable with --seed), then floats with full mantissas; then
	// let the solver search for inputs.
	var m *smt.Model
	var chosen sare.Inputs
	for _, k := range []uint64{1, 2, 3, 4, 5, 6} {
		in := sare.RandomInputs(k)
		if k > 3 {
			in = denseInputs(k)
		}
		var fixed []*smt.Term
		for _, e := range elems {
			eq, err := s.fixElem(e, in)
			if err != nil {
				return nil, err
			}
			fixed = append(fixed, eq)
		}
		mm, res, err := check(fixed)
		if err == nil && res == smt.Sat {
			if opaque && !independent(fixed) {
				continue
			}
			if opaque {
				err := s.confirmWith(c, out, in) // the values, for display
				if err != nil && s.defOnly {
					continue
				}
			}
			m, chosen = mm, in
			if k <= 3 {
				out.seed = k
			}
			break
		}
	}
	if m == nil && opaque && len(given) > 0 {
		var err error
		m, chosen, err = s.solverInputs(c, out, given, elems, idef, sdef, check, independent)
		if err != nil {
			return nil, err
		}
	}
	if m == nil && opaque {
		return nil, errors.New("the difference depends on functions the real model leaves uninterpreted (sqrt, exp, ...): on the inputs tried, some interpretation of them makes the two sides equal")
	}
	if m == nil {
		mm, res, err := check(nil)
		switch {
		case err != nil:
			return nil, fmt.Errorf("checking the counterexample in real arithmetic: %w", err)
		case res == smt.Unsat:
			return nil, errors.New("in real arithmetic the two sides are equal at the solver's point")
		case res != smt.Sat:
			return nil, errors.New("checking the counterexample in real arithmetic: undecided")
		}
		m = mm
	}
	out.groundKind = groundKindOf(c, m, idef, sdef)
	if chosen != nil {
		return chosen, nil
	}
	// The inputs the solver found; the model is read right away by the
	// caller's concrete evaluation.
	return s.modelInputs(m), nil
}

// groundCheck checks the conjunction of terms within the query's
// resource limit and returns the model when it is satisfiable.
//
// With builtins left uninterpreted, the ground terms multiply unknown
// values of exp and the like (a blur's weights times a blur's weights):
// nonlinear real arithmetic, on which Z3 4.8.12's plain SMT kernel can
// loop with no regard for its resource limit or Z3_interrupt (a query of
// unsharp's counterexample search did, for half an hour). The general
// solver, whose preprocessing folds the fixed inputs into constants,
// decides those queries in milliseconds: it alone checks them.
func (s *solver) groundCheck(terms []*smt.Term) (*smt.Model, smt.Result, error) {
	res, sol, err := s.checkTerms(terms, s.searchLimit(), s.enc.UninterpretedBuiltins() == 0)
	if sol == nil {
		return nil, res, err
	}
	defer sol.Close()
	if err != nil || res != smt.Sat {
		return nil, res, err
	}
	m, err := sol.Model()
	return m, res, err
}

// holeIndex resolves the identifiers of an encoded context: hole □k to
// holes[k-1], any other name (a parameter, in an unfolded equation)
// through param.
func holeIndex(holes []*smt.Term, param func(string) (*smt.Term, bool)) encode.Index {
	return func(name string) (*smt.Term, bool) {
		if !strings.HasPrefix(name, "□") {
			return param(name)
		}
		var k int
		if _, err := fmt.Sscanf(strings.TrimPrefix(name, "□"), "%d", &k); err != nil || k < 1 || k > len(holes) {
			return nil, false
		}
		return holes[k-1], true
	}
}

// modelInputs reads the input tensors' elements from the model m (each
// element once), for the concrete evaluation of a counterexample; m must
// stay open while they are read.
func (s *solver) modelInputs(m *smt.Model) sare.Inputs {
	vals := map[string]value.Value{}
	return sare.InputFunc(func(t *sare.Tensor, idx []int64) (value.Value, error) {
		k := inputKey(t.Name.Name, idx)
		if v, ok := vals[k]; ok {
			return v, nil
		}
		f, err := s.enc.Tensor(t.Name.Name)
		if err != nil {
			return value.Value{}, err
		}
		args := make([]*smt.Term, len(idx))
		for i, x := range idx {
			args[i] = s.z.Int(x)
		}
		tv, err := m.Eval(f.Apply(args...), true)
		if err != nil {
			return value.Value{}, err
		}
		v, err := s.enc.Value(m, tv, t.Type)
		if err == nil {
			vals[k] = v
		}
		return v, err
	})
}

// confirm evaluates both sides of the obligation concretely at the
// counterexample, with the reference evaluator of the specification, first
// over the model's inputs, then over random inputs (the model interprets
// computed tensors freely, so its inputs may not explain the difference);
// it fails unless the sides differ (or one is undefined) on some inputs.
func (s *solver) confirm(c *symeval.Condition, out *outcome, model sare.Inputs) error {
	var last error
	for _, attempt := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 0} {
		var inputs sare.Inputs
		note := ""
		out.inputs, out.seed = nil, 0
		switch {
		case attempt == 0:
			// The solver's inputs last: they may be NaN or huge.
			if model == nil {
				continue
			}
			inputs = recording(model, out)
		case attempt <= 3:
			// The interpreter's own random inputs: augur run --seed
			// replays them.
			out.seed = uint64(attempt)
			inputs = sare.RandomInputs(out.seed)
			note = fmt.Sprintf("random inputs of seed %d", attempt)
		default:
			// Floats with full mantissas, which expose rounding
			// differences that the interpreter's inputs (multiples of
			// 1/8) hide; recorded so that augur run --input replays them.
			inputs = recording(denseInputs(uint64(attempt)), out)
			note = "random inputs with full mantissas"
		}
		err := s.confirmWith(c, out, inputs)
		if err == nil {
			out.confirmNote = note
			return nil
		}
		last = err
	}
	out.inputs, out.seed = nil, 0
	return last
}

// recording returns inputs that record in out every element they give.
func recording(in sare.Inputs, out *outcome) sare.Inputs {
	seen := map[string]bool{}
	return sare.InputFunc(func(t *sare.Tensor, idx []int64) (value.Value, error) {
		v, err := in.Input(t, idx)
		if err == nil {
			if k := inputKey(t.Name.Name, idx); !seen[k] {
				seen[k] = true
				out.inputs = append(out.inputs, InputValue{Tensor: t.Name.Name, Index: append([]int64(nil), idx...), Value: v.String(), v: v})
			}
		}
		return v, err
	})
}

// denseInputs draws floats uniformly in [-4, 4) with full mantissas (and
// other types as sare.RandomInputs does), deterministically per element.
func denseInputs(seed uint64) sare.Inputs {
	rest := sare.RandomInputs(seed)
	return sare.InputFunc(func(t *sare.Tensor, idx []int64) (value.Value, error) {
		if t.Type != syntax.F32 && t.Type != syntax.F64 {
			return rest.Input(t, idx)
		}
		h := fnv.New64a()
		fmt.Fprint(h, seed, t.Name.Name, idx)
		r := rand.New(rand.NewPCG(seed, h.Sum64()))
		return value.Float(t.Type, r.Float64()*8-4), nil
	})
}

// confirmMaxPoints bounds the specification elements a concrete
// confirmation evaluates; lookMaxPoints, those of the quick look's (a
// deep pipeline's output needs every earlier stage's elements around the
// point, on every value condition: a quick look that needs more leaves
// the model to the full search).
const (
	confirmMaxPoints = 1 << 20
	lookMaxPoints    = 1 << 10
)

// confirmWith evaluates both sides over the given inputs.
func (s *solver) confirmWith(c *symeval.Condition, out *outcome, inputs sare.Inputs) error {
	params := map[string]int64{}
	for _, p := range s.v.params {
		params[p] = out.params[p]
	}
	ev, err := sare.NewEvaluator(s.v.in.spec, s.v.in.sinfo, params, inputs)
	if err != nil {
		return fmt.Errorf("concrete evaluation: %w", err)
	}
	// The evaluator's element bound decides how much work a
	// confirmation may take; the wall clock is only an outer guard.
	ev.MaxPoints = confirmMaxPoints
	if s.lookLimit > 0 {
		ev.MaxPoints = lookMaxPoints
	}
	ctx, cancel := context.WithTimeout(s.ctx, 2*time.Minute)
	defer cancel()
	env := ev.Env(ctx)
	ob := c.Obligation
	iv, ierr := ob.Impl.Eval(out.implHoles, env)
	var sv value.Value
	var serr error
	if s.defOnly {
		// The kernel's side is a subexpression of the stored value:
		// only its definedness counts.
		switch {
		case ierr != nil:
			return fmt.Errorf("concrete evaluation of %s: %w", ob.Impl, ierr)
		case !iv.IsUndef():
			return fmt.Errorf("the computed value %s is defined", iv)
		}
		out.implValue, out.specValue = "undef", ""
		return nil
	}
	sv, serr = ob.Spec.Eval(out.specHoles, env)
	out.implValue, out.specValue = "", ""
	if ierr == nil {
		out.implValue = iv.String()
	}
	if serr == nil {
		out.specValue = sv.String()
	}
	kind := out.kind
	switch kind {
	case sched.UndefinedStore:
		if ierr == nil && !iv.IsUndef() {
			return fmt.Errorf("the computed value %s is defined", iv)
		}
		return nil
	case sched.UndefinedAnnotation:
		if serr == nil && !sv.IsUndef() {
			return fmt.Errorf("the annotation's value %s is defined", sv)
		}
		return nil
	}
	if ierr != nil {
		return fmt.Errorf("concrete evaluation of %s: %w", ob.Impl, ierr)
	}
	if serr != nil {
		return fmt.Errorf("concrete evaluation of %s: %w", ob.Spec, serr)
	}
	if iv.IsUndef() || sv.IsUndef() {
		if iv.IsUndef() {
			out.kind = sched.UndefinedStore
		} else {
			out.kind = sched.UndefinedAnnotation
		}
		return nil
	}
	if s.v.opts.ValueModel.Equality().Equal(iv, sv) {
		return fmt.Errorf("both sides evaluate to %s", iv)
	}
	return nil
}
