package validate

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"time"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/symeval"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// Confirmation: a model is a counterexample only once evaluation shows
// the failure. Concrete evaluation of both sides with the reference
// evaluator (confirm, confirmWith), or, in the real value model where
// floats are reals, a ground check in real arithmetic with every tensor
// unfolded to the inputs (groundReal).

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
	s.enc.ResetUnfoldings()
	defer s.enc.ResetUnfoldings()
	g, err := s.encodeGround(c.Obligation, out)
	if err != nil {
		return nil, err
	}
	// Random inputs first (evaluation, no search), then let the solver
	// search for inputs.
	m, chosen, err := s.randomGround(c, out, g)
	if err != nil {
		return nil, err
	}
	if m == nil && g.opaque && len(given) > 0 {
		if m, chosen, err = s.solverInputs(c, out, given, g); err != nil {
			return nil, err
		}
	}
	if m == nil && g.opaque {
		return nil, errors.New("the difference depends on functions the real model leaves uninterpreted (sqrt, exp, ...): on the inputs tried, some interpretation of them makes the two sides equal")
	}
	if m == nil {
		mm, res, err := g.check(nil)
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
	out.groundKind = groundKindOf(c, m, g.idef, g.sdef)
	if chosen != nil {
		return chosen, nil
	}
	// The inputs the solver found; the model is read right away by the
	// caller's concrete evaluation.
	return s.modelInputs(m), nil
}

// groundQuery is the ground check of a point (groundReal): the two sides
// of an obligation unfolded down to the inputs at the point, and the
// input elements they read.
type groundQuery struct {
	s *solver
	// idef and sdef are the sides' definedness; good says that both are
	// defined and equal, bad the contrary.
	idef, sdef, good, bad *smt.Term
	// axioms are the definitions of the tensor elements unfolded; terms
	// are bad and the axioms.
	axioms, terms []*smt.Term
	// elems are the input elements the two sides reach, with ground
	// indices.
	elems []groundElem
	// opaque: the difference may depend on functions the real model
	// leaves uninterpreted (or it is the definedness probe's): a model
	// is then no evaluation (independent).
	opaque bool
}

// groundUnfoldings bounds the accesses a ground check unfolds
// (encode.ExprOptions.Unfoldings); lookUnfoldings, those of the quick
// look's (solver.lookLimit), which leaves a point that needs more to the
// full search, as lookMaxPoints does for its concrete evaluation: the
// output of a histogram equalisation reads, at a pixel, the cumulative
// sum of the histogram, whose unfolding down to the inputs (every row's
// count at every bin) took 25 s of CPU in the condition's two looks,
// where matching, the strategy after it, proves the condition in 6
// million resource units.
const (
	groundUnfoldings = 50_000
	lookUnfoldings   = 4_096
)

// groundLimit is the bound on the accesses of s's ground checks: that of
// the quick look (but for the definedness probe's, which goes before the
// discharge and confirms failures of the conversion alone), or
// groundUnfoldings.
func (s *solver) groundLimit() int {
	if s.lookLimit > 0 && !s.defOnly {
		return lookUnfoldings
	}
	return groundUnfoldings
}

// encodeGround encodes the ground check of obligation ob at the point of
// out (its parameters and holes), every tensor unfolded.
func (s *solver) encodeGround(ob *symeval.Obligation, out *outcome) (*groundQuery, error) {
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
	// recursions, and evaluations of more than groundUnfoldings accesses
	// (a recursion read at data-dependent indices, which no memo
	// shares), are left undecided (CutOffs) rather than unfolded without
	// bound.
	limit := s.groundLimit()
	all := encode.ExprOptions{Unfold: func(string) bool { return true }, Axioms: true, Depth: 512, Unfoldings: limit}
	iv, idef, err := s.enc.Expr(ob.Impl.Expr, ob.Impl.Types(), idx(out.implHoles), all)
	if err != nil {
		return nil, fmt.Errorf("ground encoding: %w", err)
	}
	sv, sdef, sfree, eq := iv, s.z.True(), s.z.False(), s.z.True()
	if !s.defOnly {
		if sv, sdef, sfree, err = s.enc.ExprFree(ob.Spec.Expr, ob.Spec.Types(), idx(out.specHoles), all); err != nil {
			return nil, fmt.Errorf("ground encoding: %w", err)
		}
	}
	if n := s.enc.CutOffs(); n > 0 {
		return nil, fmt.Errorf("the specification's recursion is too deep or too wide to unfold at the counterexample (%d elements left; at most %d unfolded)", n, limit)
	}
	if !s.defOnly {
		if eq, err = s.enc.Equal(iv, sv, ob.Impl.Type); err != nil {
			return nil, err
		}
		if ob.SpecValue {
			// An unconstrained specification's value accepts any.
			eq = s.z.Or(sfree, eq)
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
	g := &groundQuery{s: s, idef: idef, sdef: sdef, opaque: s.enc.UninterpretedBuiltins() > 0 || s.defOnly}
	g.good = s.z.And(idef, sdef, eq)
	g.bad = s.z.Or(idef.Not(), sdef.Not(), eq.Not())
	g.axioms = s.enc.Axioms()
	g.terms = append([]*smt.Term{g.bad}, g.axioms...)
	if g.elems, err = s.groundElems(g.terms); err != nil {
		return nil, err
	}
	return g, nil
}

// groundElems returns the input elements that terms read, with ground
// indices.
func (s *solver) groundElems(terms []*smt.Term) ([]groundElem, error) {
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
	return elems, nil
}

// check checks g's difference with the inputs fixed (the constraints
// fixed), returning the model when there is one.
func (g *groundQuery) check(fixed []*smt.Term) (*smt.Model, smt.Result, error) {
	return g.s.groundCheck(append(append([]*smt.Term(nil), g.terms...), fixed...))
}

// independent reports whether, on the fixed inputs, every interpretation
// of the uninterpreted functions leaves the sides different.
func (g *groundQuery) independent(fixed []*smt.Term) bool {
	_, res, err := g.s.groundCheck(append(append([]*smt.Term{g.good}, g.axioms...), fixed...))
	return err == nil && res == smt.Unsat
}

// fix returns the constraints that fix every input element of g to the
// value in gives it.
func (g *groundQuery) fix(in sare.Inputs) ([]*smt.Term, error) {
	var fixed []*smt.Term
	for _, e := range g.elems {
		eq, err := g.s.fixElem(e, in)
		if err != nil {
			return nil, err
		}
		fixed = append(fixed, eq)
	}
	return fixed, nil
}

// randomGround looks for random inputs on which g shows the failure at
// the point of out: the interpreter's own (replayable with --seed), then
// floats with full mantissas. It returns the model and the inputs, and
// records the seed in out; a nil model when none shows it.
func (s *solver) randomGround(c *symeval.Condition, out *outcome, g *groundQuery) (*smt.Model, sare.Inputs, error) {
	for _, k := range []uint64{1, 2, 3, 4, 5, 6} {
		in := sare.RandomInputs(k)
		if k > 3 {
			in = denseInputs(k)
		}
		fixed, err := g.fix(in)
		if err != nil {
			return nil, nil, err
		}
		mm, res, err := g.check(fixed)
		if err == nil && res == smt.Sat {
			if g.opaque && !g.independent(fixed) {
				continue
			}
			if g.opaque {
				err := s.confirmWith(c, out, in) // the values, for display
				if err != nil && s.defOnly {
					continue
				}
			}
			if k <= 3 {
				out.seed = k
			}
			return mm, in, nil
		}
	}
	return nil, nil, nil
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
		if errors.Is(err, errConditionBudget) {
			// No budget left for the next inputs.
			out.inputs, out.seed = nil, 0
			return err
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
func (s *solver) confirmWith(c *symeval.Condition, out *outcome, inputs sare.Inputs) (err error) {
	params := map[string]int64{}
	for _, p := range s.v.params {
		params[p] = out.params[p]
	}
	ev, err := sare.NewEvaluator(s.v.in.spec, s.v.in.sinfo, params, inputs)
	if err != nil {
		return fmt.Errorf("concrete evaluation: %w", err)
	}
	// The evaluator's element bound decides how much work a
	// confirmation may take; the wall clock is only an outer guard. The
	// elements evaluated are charged to the condition's resource units,
	// whose budget may lower the bound (meter.go).
	bound := confirmMaxPoints
	if s.lookLimit > 0 {
		bound = lookMaxPoints
	}
	var capped bool
	ev.MaxPoints, capped = s.evalBound(bound)
	var evalErr error
	defer func() {
		if berr := s.chargeEvaluation(ev, capped, evalErr); berr != nil {
			err = berr
		}
	}()
	ctx, cancel := context.WithTimeout(s.ctx, 2*time.Minute)
	defer cancel()
	env := ev.Env(ctx)
	ob := c.Obligation
	iv, ierr := ob.Impl.Eval(out.implHoles, env)
	evalErr = ierr
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
	evalErr = errors.Join(ierr, serr)
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
	if s.v.opts.ValueModel.Equality().Accepts(sv, iv, 0) {
		return fmt.Errorf("both sides evaluate to %s", iv)
	}
	return nil
}
