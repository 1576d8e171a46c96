package validate

import (
	"fmt"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/symeval"
	"github.com/augur-verify/augur/value"
)

// Models: a satisfying model of a query is read as a candidate
// counterexample (its parameters, holes and inputs), preferably with small
// parameters, shrunk by bisection, and kept only once confirmed
// (confirm.go).

// failure turns a satisfying model into a failed outcome, after looking
// for a model with small parameters and confirming it by concrete
// evaluation of both sides over the model's inputs.
func (s *solver) failure(c *symeval.Condition, q *query, sol *smt.Solver, maxTries int) *outcome {
	o := s.smallestFailure(c, q, sol, maxTries)
	if o.status == symeval.Failed && len(o.larger) == 0 {
		if g := s.grown(c, q, o); g != nil {
			o.larger = []*outcome{g}
		}
	}
	return o
}

// grown looks for a confirmed failure of c with every parameter at least
// twice (and at least 4 more than) its value in o: a failure in cells
// past a small output may reach an output only in a larger one (harm.go
// asks). Nil when there is none, or when o's parameters are not small.
func (s *solver) grown(c *symeval.Condition, q *query, o *outcome) *outcome {
	if len(s.v.params) == 0 || !small(o.params, s.v.params, 16) {
		return nil
	}
	var box []*smt.Term
	for _, name := range s.v.params {
		v, ok := o.params[name]
		if !ok {
			return nil
		}
		box = append(box, q.params[name].Ge(s.z.Int(v+max(v, 0)+4)))
	}
	res, sm, err := s.check(q, box)
	if sm != nil {
		defer sm.Close()
	}
	if err != nil || res != smt.Sat {
		return nil
	}
	if g := s.readModel(c, q, sm); g.status == symeval.Failed {
		return g
	}
	return nil
}

// smallestFailure is failure's search for a confirmed model with small
// parameters.
func (s *solver) smallestFailure(c *symeval.Condition, q *query, sol *smt.Solver, maxTries int) *outcome {
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
		s.refining = true
		res, sm, err := s.check(q, box)
		s.refining = false
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
		n.larger = append(o.larger[:len(o.larger):len(o.larger)], o)
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
			// The ground solver spends the condition's budget.
			g.used = s.used
			g.meter.reset(g.z)
		}
		var given map[string]fixedInput
		if s.defOnly {
			given = s.queryInputs(q, m)
		}
		ground, err := g.groundReal(c, out, given)
		if g != s {
			g.meter.charge(g)
			s.used = g.used
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
