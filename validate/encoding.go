package validate

import (
	"fmt"
	"maps"
	"math"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/symeval"
)

// Encoding an obligation into a query (package smt/encode): the
// parameters and holes that a piece of its points fixes become terms
// (substitute, solveParams, solveHoles), the two sides are encoded under
// a strategy with the guards the points decide resolved (decider), and
// the query asserts that a side is undefined or the two differ.

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
	sfree  *smt.Term // where the specification's side is unconstrained
	bad    *smt.Term
	axioms []*smt.Term // definitions of unfolded tensor elements
	opaque int         // computed tensor elements left uninterpreted
	// ranged: the axioms hold range facts of float tensors
	// (encode.Encoder.RangeFacts), which the query's abstraction may
	// decide in the ieee model (abstractionLimit).
	ranged bool

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
	if left, ok := s.conditionLeft(); ok && left == 0 {
		// No query would be made: spare the encoding, which can cost
		// more than the queries (unfolding both sides).
		return nil, s.errBudgetSpent()
	}
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

// assumed returns the points of the query q, simplified, conjoined with
// the assumptions that o keeps apart from them (Obligation.Assumed).
func (s *solver) assumed(o *symeval.Obligation, q *query, points *smt.Term) (*smt.Term, error) {
	if o.Assumed != nil {
		a, err := s.enc.Set(o.Assumed, func(name string) (*smt.Term, bool) {
			t, ok := q.params[name]
			return t, ok
		}, nil)
		if err != nil {
			return nil, fmt.Errorf("assumptions: %w", err)
		}
		points = s.z.And(points, a)
	}
	return points.Simplify(), nil
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
	// Piece by piece: a map of all the pieces, and the encoder's copy
	// of its pieces, held thousands of them at once (two copies of a
	// mismatch of 9,110 pieces, a gigabyte).
	disjuncts := make([]*smt.Term, 0, len(pieces))
	for _, piece := range pieces {
		t, err := s.enc.Set(presburger.NewMap(sp, piece), func(name string) (*smt.Term, bool) {
			t, ok := q.params[name]
			return t, ok
		}, dims)
		if err != nil {
			return nil, fmt.Errorf("points: %w", err)
		}
		disjuncts = append(disjuncts, t)
	}
	if q.points, err = s.assumed(o, q, s.z.Or(disjuncts...)); err != nil {
		return nil, err
	}
	if e != nil {
		q.same = true
		q.iv, q.sv, q.idef, q.sdef, q.sfree, q.bad, q.axioms, q.opaque, q.ranged = e.iv, e.sv, e.idef, e.sdef, e.sfree, e.bad, e.axioms, e.opaque, e.ranged
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
			sv, sdef, sfree, err := s.enc.ExprFree(o.Spec.Expr, o.Spec.Types(), holeIdx(q.sholes), opts)
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
				q.sv, q.sdef, q.sfree = sv, sdef, sfree
				break
			}
			prev = cur
		}
		if q.sv == nil {
			s.enc.ForgetUnfoldings()
		}
	}
	if q.sv == nil {
		if q.sv, q.sdef, q.sfree, err = s.enc.ExprFree(o.Spec.Expr, o.Spec.Types(), holeIdx(q.sholes), st.spec); err != nil {
			return nil, fmt.Errorf("%s: %w", o.Spec, err)
		}
	}
	if err := s.badPoints(o, q); err != nil {
		return nil, err
	}
	for _, a := range s.enc.Axioms() {
		q.axioms = append(q.axioms, a.SimplifyArith())
	}
	hyps, err := derivedAxioms(s.enc, s.v.derived, q.params)
	if err != nil {
		return nil, err
	}
	q.axioms = append(q.axioms, hyps...)
	q.ranged = s.enc.RangeFacts() > 0
	q.opaque = s.enc.CutOffs()
	return q, nil
}

// badPoints sets q.bad, the points where a side of the obligation o is
// undefined or the two sides differ, from the sides and their
// definedness (and freedom), each put in normal form first.
func (s *solver) badPoints(o *symeval.Obligation, q *query) error {
	// Polynomials in normal form: (h*31 + a)*31 and 961*h + 31*a, or a
	// reassociated real sum, become the same term.
	q.iv, q.sv = q.iv.SimplifyArith(), q.sv.SimplifyArith()
	// The definedness terms in the same normal form: the casts' range
	// conditions repeat the values' subterms (a u8 cast's operand, a
	// read's index), which otherwise stay in the order the encoding made
	// them, and the solver would have to find by arithmetic that the
	// reads at an index written two ways are one read.
	q.idef, q.sdef, q.sfree = q.idef.SimplifyArith(), q.sdef.SimplifyArith(), q.sfree.SimplifyArith()
	eq, err := s.enc.Equal(q.iv, q.sv, o.Impl.Type)
	if err != nil {
		return err
	}
	differ := eq.Not()
	if o.SpecValue && !q.sfree.IsFalse() {
		// Where the specification's value is unconstrained, any kernel
		// value satisfies it (value.OverflowUnconstrained).
		differ = s.z.And(q.sfree.Not(), assumeFalse(differ, q.sfree))
	}
	q.bad = s.z.Or(q.idef.Not(), q.sdef.Not(), differ).Simplify()
	return nil
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

// assumeFalse is x where f is false: f itself, and each disjunct of f,
// replaced in x by false. Where f
// is false, the two are equal, so that f.Not() and x, and f.Not() and the
// result, hold at the same points. The specification's side of an
// obligation under value.OverflowUnconstrained chooses between a tensor's
// application where its body overflows and the body elsewhere, on the
// very terms of the overflow that its free term collects: past the
// overflow's negation, the body alone stays, which the kernel's side
// can be the same term as.
func assumeFalse(x, f *smt.Term) *smt.Term {
	from := []*smt.Term{f}
	to := []*smt.Term{f.Context().False()}
	seen := map[uint]bool{f.ID(): true}
	for _, d := range f.Disjuncts() {
		if seen[d.ID()] {
			continue
		}
		seen[d.ID()] = true
		from, to = append(from, d), append(to, f.Context().False())
	}
	return x.Substitute(from, to).Simplify()
}
