package validate

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"time"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/symeval"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// The definedness probe. A conversion from a float to an integer type is
// undefined when its operand leaves the type's range (docs/formats.md),
// which an extreme input (a scale near zero) can make it do whatever the
// schedule. Where an assignment converts floats, the definedness of each
// such conversion of its value is asked first, before any value condition
// is discharged: one cheap query a piece, nothing unfolded, within
// lookResources units, on the first probePieces pieces of each condition.
// A model is confirmed at points drawn as the quick tests draw theirs
// (probePoints), on the conversion alone, in the real model exactly and by
// the reference evaluator (solver.defOnly, solverInputs); a query left
// undecided is asked again at those points with its float inputs fixed
// (probeCandidates), which makes a product of them linear; a confirmed
// failure that the interpreter replays refutes the kernel before the solve
// phase spends its budget on conditions that cannot settle the verdict any
// more: the other value conditions are left undischarged, as after a
// failure found over Presburger sets (refuteEarly). The probe proves
// nothing; what it does not refute is discharged as usual.

// probePieces bounds the pieces of a condition the probe asks about.
const probePieces = 4

// probeSolver names the probe in a refuted condition's result.
const probeSolver = "z3, definedness of the sides first"

// conversions returns the conversions from a float to an integer type in
// x, whose value nodes have the types in types, each distinct one once.
func conversions(x syntax.Expr, types map[syntax.Expr]syntax.Type) []*syntax.Call {
	var out []*syntax.Call
	seen := map[string]bool{}
	syntax.Inspect(x, func(e syntax.Expr) bool {
		if c, ok := e.(*syntax.Call); ok && c.Fun != nil && len(c.Args) == 1 {
			if to := syntax.TypeByName(c.Fun.Name); to.IsInteger() && types[c.Args[0]].IsFloat() {
				if k := syntax.ExprString(c); !seen[k] {
					seen[k] = true
					out = append(out, c)
				}
			}
		}
		return true
	})
	return out
}

// divisors returns the divisors of the float divisions (and remainders)
// in x, whose value nodes have the types in types.
func divisors(x syntax.Expr, types map[syntax.Expr]syntax.Type) []syntax.Expr {
	var out []syntax.Expr
	syntax.Inspect(x, func(e syntax.Expr) bool {
		if b, ok := e.(*syntax.Binary); ok && (b.Op == syntax.OpDiv || b.Op == syntax.OpRem) && types[b.Y].IsFloat() {
			out = append(out, b.Y)
		}
		return true
	})
	return out
}

// factors returns the factors of the products xs, each factor once: a
// product is zero exactly when one of them is, and a factor's
// disequality is a far simpler constraint than the product's.
func factors(xs []syntax.Expr) []syntax.Expr {
	var out []syntax.Expr
	seen := map[string]bool{}
	var walk func(x syntax.Expr)
	walk = func(x syntax.Expr) {
		if b, ok := x.(*syntax.Binary); ok && b.Op == syntax.OpMul {
			walk(b.X)
			walk(b.Y)
			return
		}
		if k := syntax.ExprString(x); !seen[k] {
			seen[k] = true
			out = append(out, x)
		}
	}
	for _, x := range xs {
		walk(x)
	}
	return out
}

// probeDefinedness asks, in program order, whether a conversion from a
// float to an integer type on the kernel's side of one of the value
// conditions todo (indices into the analysis's conditions) can be
// undefined, and returns the index and the confirmed failed outcome of
// the first that is; -1 and nil when none is confirmed.
func (v *validation) probeDefinedness(todo []int) (int, *outcome) {
	for _, i := range todo {
		if v.ctx.Err() != nil {
			return -1, nil
		}
		c := v.an.Conditions[i]
		ob := c.Obligation
		// The value conditions of assignments: the kernel's side is the
		// value stored.
		if _, assign := c.Stmt.(*sched.Assign); !assign || ob == nil || ob.Impl.Type != ob.Spec.Type {
			continue
		}
		convs := conversions(ob.Impl.Expr, ob.Impl.Types())
		if len(convs) == 0 {
			continue
		}
		s, err := newSolver(v)
		if err != nil {
			return -1, nil
		}
		start := time.Now()
		o := v.probeSafely(s, c, convs)
		s.close()
		if o != nil {
			o.seconds = time.Since(start).Seconds()
			return i, o
		}
	}
	return -1, nil
}

// probeSafely is s.probe with a panic turned into no refutation and an
// internal error on the report.
func (v *validation) probeSafely(s *solver, c *symeval.Condition, convs []*syntax.Call) (o *outcome) {
	defer func() {
		if r := recover(); r != nil {
			v.internalError(fmt.Sprintf("definedness probe of C%d: %v", c.ID, r), debug.Stack())
			o = nil
		}
	}()
	return s.probe(c, convs)
}

// probe asks whether one of the conversions convs of the kernel's side of
// condition c can be undefined on one of c's first probePieces pieces,
// with nothing unfolded, and returns the failed outcome of the first
// model confirmed, or nil. A model is confirmed on the conversion alone
// (solver.defOnly): the kernel's side is undefined wherever it is.
func (s *solver) probe(c *symeval.Condition, convs []*syntax.Call) *outcome {
	ob := c.Obligation
	st := s.strategies(ob)[0]
	pieces := ob.Points.Basics()
	s.used = 0
	s.meter.reset(s.z)
	for _, conv := range convs {
		sub, err := ob.Impl.Sub(conv)
		if err != nil {
			continue
		}
		// The condition as the confirmation sees it: the conversion for
		// the kernel's side, whose definedness alone is checked.
		dc := *c
		dc.Obligation = ob.WithImpl(sub)
		earlier := map[string]*query{}
		for pi := range min(len(pieces), probePieces) {
			s.enc.ResetUnfoldings()
			q, err := s.encode(ob, st, pieces[pi], earlier)
			if err != nil || q.points == nil {
				// Closed with an earlier piece's sides: both defined.
				continue
			}
			param := func(name string) (*smt.Term, bool) { t, ok := q.params[name]; return t, ok }
			_, def, err := s.enc.Expr(sub.Expr, sub.Types(), holeIndex(q.iholes, param), st.impl)
			if err != nil {
				continue
			}
			if def.Not().Simplify().IsFalse() {
				continue
			}
			// Where a divisor is zero the real model leaves the quotient
			// unspecified: such a model is no counterexample, and it
			// would do at any point, whether the operand can leave the
			// range there or not.
			bad := []*smt.Term{def.Not()}
			for _, d := range factors(divisors(conv, sub.Types())) {
				dv, _, err := s.enc.Expr(d, sub.Types(), holeIndex(q.iholes, param), st.impl)
				if err != nil {
					continue
				}
				zero, err := s.enc.Constant(value.Float(sub.Types()[d], 0))
				if err != nil {
					continue
				}
				bad = append(bad, dv.Eq(zero).Not())
			}
			pq := *q
			pq.idef, pq.sdef, pq.bad = def, s.z.True(), s.z.And(bad...)
			pq.axioms, pq.ranged = s.enc.Axioms(), s.enc.RangeFacts() > 0
			hyps, err := derivedAxioms(s.enc, s.v.derived, q.params)
			if err != nil {
				continue
			}
			pq.axioms = append(pq.axioms, hyps...)
			res, sol, err := s.checkLimit(&pq, nil, lookResources)
			if s.v.opts.Trace != nil {
				s.v.trace(fmt.Sprintf("C%d: definedness probe of %s, piece %d of %d: %s", c.ID, syntax.ExprString(conv), pi+1, len(pieces), res))
			}
			if sol != nil {
				sol.Close()
			}
			var fixings [][]*smt.Term
			switch {
			case err == nil && res == smt.Sat:
				fixings = [][]*smt.Term{nil}
			case res == smt.Unknown && s.ctx.Err() == nil && !errors.Is(err, errConditionBudget):
				// Undecided: perhaps nonlinear, which the float inputs'
				// candidate values make linear (probeCandidates).
				fixings = s.probeCandidates(&pq)
			}
			if len(fixings) == 0 {
				continue
			}
			s.lookLimit, s.defOnly = lookResources, true
			out := s.probePoints(&dc, &pq, pieces[pi], fixings)
			s.lookLimit, s.defOnly = 0, false
			if out.status == symeval.Failed {
				out.solver = probeSolver
				s.meter.charge(s)
				out.resources = s.used
				return out
			}
			if s.v.opts.Trace != nil {
				s.v.trace(fmt.Sprintf("C%d: definedness probe, piece %d: not confirmed: %s", c.ID, pi+1, out.reason))
			}
		}
	}
	return nil
}

// probePoints looks for a confirmed failure of the probe's query q (of
// the condition c as the confirmation sees it) at a few points of piece,
// one for each of the quick tests' ranges: the parameters and loop
// variables drawn at random as the quick tests draw them (quickPoint),
// the rest (holes, inputs) left to the solver but for the constraints of
// one of fixings, each set tried in turn. The solver's own points
// are degenerate where it can be (an image of one pixel, a patch of no
// element, a pixel compared with itself), and there no input makes the
// operand of a conversion leave its range. It returns the first failure
// confirmed (solver.readModel), or the last outcome otherwise.
func (s *solver) probePoints(c *symeval.Condition, q *query, piece *presburger.BasicMap, fixings [][]*smt.Term) *outcome {
	sp := c.Obligation.Points.Space()
	dom := presburger.NewMap(sp, piece)
	ctx := presburger.WithBudget(s.ctx, s.v.opts.Budget)
	rng := rand.New(rand.NewPCG(uint64(c.ID), 0x70726f6265))
	last := &outcome{status: symeval.Undecided, reason: "no point of the piece within the quick tests' ranges"}
	for _, hi := range quickRanges {
		if s.ctx.Err() != nil {
			break
		}
		params, err := quickPoint(ctx, dom, sp.Params, rng, hi)
		if err != nil || params == nil {
			continue
		}
		var fix []*smt.Term
		for _, name := range q.names {
			if x, ok := params[name]; ok {
				fix = append(fix, q.params[name].Eq(s.z.Int(x)))
			}
		}
		for _, more := range fixings {
			if s.ctx.Err() != nil {
				break
			}
			res, sol, err := s.checkLimit(q, append(fix[:len(fix):len(fix)], more...), lookResources)
			if err != nil || res != smt.Sat {
				if sol != nil {
					sol.Close()
				}
				continue
			}
			out := s.readModel(c, q, sol)
			sol.Close()
			if out.status == symeval.Failed {
				return out
			}
			if s.v.opts.Trace != nil {
				s.v.trace(fmt.Sprintf("C%d: definedness probe at %v: not confirmed: %s", c.ID, params, out.reason))
			}
			last = out
		}
	}
	return last
}

// probeScales returns the values the bounded search of the definedness probe
// (probeCandidates) gives the float inputs its query reads: a scale near
// zero, then a large one, of either sign. Each is exact in f32 and f64,
// and a product of two of them is a normal f32.
func probeScales() [4]float64 {
	return [...]float64{0x1p-40, 0x1p40, -0x1p-40, -0x1p40}
}

// probeCandidates returns the constraints of the probe's bounded search
// for the query q, which Z3 left undecided: one set for each of
// probeScales, fixing every float input element that q reads to it; nil
// when q reads none. With the parameters fixed too (probePoints), a
// product of floats and parameters, such as nl_means's
// blur_d · (-1 / (sigma² · patch_size²)), is a constant times a tensor
// element: linear, where the query itself needs Z3's procedure for
// nonlinear reals, which counts no resource units
// (smt.Solver.UseBoundedNonlinear). Each check counts its units as any
// other; the model is confirmed as any other, the scale among the
// solver's values of the inputs (solverInputs).
func (s *solver) probeCandidates(q *query) [][]*smt.Term {
	terms := append([]*smt.Term{q.points, q.bad}, q.axioms...)
	var apps []*smt.Term
	var types []syntax.Type
	for _, t := range s.v.in.spec.Tensors {
		if !t.Input || !t.Type.IsFloat() {
			continue
		}
		f, err := s.enc.Tensor(t.Name.Name)
		if err != nil {
			return nil
		}
		args, err := f.Applications(terms...)
		if err != nil {
			return nil
		}
		for _, a := range args {
			apps = append(apps, f.Apply(a...))
			types = append(types, t.Type)
		}
	}
	if len(apps) == 0 {
		return nil
	}
	var out [][]*smt.Term
	for _, x := range probeScales() {
		var fix []*smt.Term
		for i, a := range apps {
			k, err := s.enc.Constant(value.Float(types[i], x))
			if err != nil {
				return nil
			}
			fix = append(fix, a.Eq(k))
		}
		out = append(out, fix)
	}
	return out
}
