package validate

import (
	"errors"
	"fmt"
	"strings"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/smt/encode"
)

// Checking a query with Z3: a fresh solver per check, bounded in
// resource units (what decides that a query is undecided) under an outer
// guard on its CPU time (smt.Solver.SetCPUGuard); the query's abstraction over bit-vectors first, then
// Z3's plain SMT kernel, then its general solver.

// quickCheck tries to prove the conjunction of terms unsatisfiable in a
// fresh solver within limit resource units, with Z3's plain SMT kernel
// alone: no preprocessing, for the small queries that a short answer
// settles. It answers Unsat (a proof) or Unknown, never Sat: the kernel
// checks the terms with their nonlinear real products and quotients
// uninterpreted (smt.Context.AbstractProducts), an abstraction implied by
// the terms, so that its unsat is theirs, and a model of it need not be
// one of them. The quick checks of matching need the products of tensor
// elements (sgemm's As(...) * B_(...)) only as terms equal to terms.
// With the products real, Z3 4.8.12's kernel looped on quick checks of
// sgemm's update at --stage final (queries whose only nonlinear terms are
// those products), heeding neither the resource limit nor the
// interruption, where the same queries copied into a fresh context stop
// within their limit (most decided in 5,000 to 15,000 units): the loops
// depend on the state of the context, so no small query reproduces them;
// TestLongFinalStageSgemm validates sgemm at that stage, where they were.
func (s *solver) quickCheck(terms []*smt.Term, limit uint64) (smt.Result, error) {
	abs, _, err := s.z.AbstractProducts(terms...)
	if err != nil {
		return smt.Unknown, err
	}
	sol, err := s.z.NewSimpleSolver()
	if err != nil {
		return smt.Unknown, err
	}
	defer sol.Close()
	if err := sol.Assert(abs...); err != nil {
		return smt.Unknown, err
	}
	res, err := s.solve(sol, limit)
	if res == smt.Sat {
		return smt.Unknown, nil
	}
	return res, err
}

// check asserts the query (and extra facts) in a fresh solver and checks
// it under the per-query timeout.
func (s *solver) check(q *query, extra []*smt.Term) (smt.Result, *smt.Solver, error) {
	return s.checkLimit(q, extra, s.searchLimit())
}

// errResources is the error of a query that ran out of its resource
// limit.
var errResources = errors.New("resource limit")

// errConditionBudget is the error of a query not made because its
// condition has spent Options.ConditionResources.
var errConditionBudget = errors.New("the condition's budget of resource units is spent")

// conditionLeft is what is left of the condition's budget
// (Options.ConditionResources) for the next query, or ok false when
// there is no such budget (Unlimited, or zero in a solver made without
// Options.defaults).
func (s *solver) conditionLeft() (left uint64, ok bool) {
	if s.termsOver() {
		return 0, true
	}
	b := s.v.opts.ConditionResources
	if b == 0 || b == Unlimited {
		return 0, false
	}
	if s.used >= b {
		return 0, true
	}
	return b - s.used, true
}

// checkLimit is check within limit resource units.
func (s *solver) checkLimit(q *query, extra []*smt.Term, limit uint64) (smt.Result, *smt.Solver, error) {
	terms := append([]*smt.Term{q.points, q.bad}, q.axioms...)
	s.ranged = q.ranged
	defer func() { s.ranged = false }()
	return s.checkTerms(append(terms, extra...), limit, true)
}

// simpleLimit is the resource limit of the plain SMT kernel's attempt at
// a query (Context.NewSimpleSolver), before Z3's general solver: the
// verifier's easy queries take a few thousand units at most.
const simpleLimit = 200_000

// simpleFirstLimit is the resource limit of the plain SMT kernel's first
// attempt at a query, before its abstraction (checkAbstracted): the
// definedness probe's queries of hist's conversions, which the
// abstraction does not prove (it keeps nothing of the floats' clamps)
// after 60,000 to 270,000 units of bit-blasting, the kernel proves in 3,000
// to 15,000.
const simpleFirstLimit = 30_000

// checkTerms checks the conjunction of terms in a fresh solver within
// limit resource units. Z3's plain SMT kernel tries first, within
// simpleFirstLimit: setting it up costs a fraction of a millisecond where
// the general solver's preprocessing tactics cost tens, and it decides
// most of the verifier's conditions within a few thousand units. Then
// the query's abstraction over bit-vectors may prove it
// (checkAbstracted); then the kernel tries again, within simpleLimit.
// What it leaves undecided goes to the general solver. All are fresh and
// bounded in resources, so the answer does not depend on what was asked
// before or on the machine's load. In the ieee model the general solver
// goes first and alone, after the abstraction, when the specification or
// the kernel computes with floats: its bit-blasting of floating-point
// terms is far faster than the kernel's (without floats the two models
// encode alike). So it does when simple is false: for queries the kernel
// may not stop on (groundCheck).
//
// A query that truncates nonlinear real terms to integers
// (smt.Context.TruncatesNonlinear: bilateral_grid's bins,
// to_int(x · (1 / r_sigma))) goes to Z3's legacy arithmetic solver in
// both (legacyArith): on such queries Z3 4.8.12's default one ran for
// minutes past its resource limit, until the guard stopped it. What the
// legacy one gives up on as incomplete the default one tries after it,
// within defaultRetryLimit (retryDefault).
func (s *solver) checkTerms(terms []*smt.Term, limit uint64, simple bool) (smt.Result, *smt.Solver, error) {
	legacy := s.z.TruncatesNonlinear(terms...)
	simple = simple && (s.v.opts.ValueModel != encode.IEEE || !s.v.usesFloats())
	if simple {
		if res, sol, done, err := s.checkSimple(terms, min(limit, simpleFirstLimit), legacy); done {
			return res, sol, err
		}
	}
	if sol, proved := s.checkAbstracted(terms, limit); proved {
		return smt.Unsat, sol, nil
	}
	if simple && limit > simpleFirstLimit {
		if res, sol, done, err := s.checkSimple(terms, min(limit, simpleLimit), legacy); done {
			return res, sol, err
		}
	}
	res, sol, err := s.checkIn(s.z.NewSolver, terms, limit, legacy)
	if legacy && !s.refining && res == smt.Unknown && s.ctx.Err() == nil && sol != nil && strings.Contains(sol.ReasonUnknown(), "incomplete") {
		// The legacy solver gave up without running out (on
		// i32(a · (-1 / (s · s))), TestProbeConversion): the default one
		// may find the model it did not. Not to refine a counterexample
		// (solver.refining): the one found stands, and on one of
		// bilateral_grid's the default solver ran to the guard.
		sol.Close()
		res, sol, err = s.retryDefault(terms, limit)
	}
	return res, sol, err
}

// retryDefault checks the conjunction of terms, which the legacy
// arithmetic solver gave up on as incomplete, with Z3's default one
// (checkTerms), within limit resource units but at most
// defaultRetryLimit, without its complete procedure for nonlinear reals.
func (s *solver) retryDefault(terms []*smt.Term, limit uint64) (smt.Result, *smt.Solver, error) {
	return s.checkIn(s.boundedNonlinearSolver, terms, min(limit, defaultRetryLimit), false)
}

// boundedNonlinearSolver is a fresh general solver without Z3's complete
// procedure for nonlinear real arithmetic (smt.Solver.UseBoundedNonlinear),
// which counts no resource units and heeds no interruption: in it, the
// default solver's try at nl_means's definedness probe ran for minutes
// past its limit.
func (s *solver) boundedNonlinearSolver() (*smt.Solver, error) {
	sol, err := s.z.NewSolver()
	if err != nil {
		return nil, err
	}
	if err := sol.UseBoundedNonlinear(); err != nil {
		sol.Close()
		return nil, err
	}
	return sol, nil
}

// defaultRetryLimit bounds the default arithmetic solver's try at a query
// that truncates nonlinear real terms after the legacy one gave it up as
// incomplete (checkTerms). On such queries Z3 4.8.12's default solver
// spends ever more CPU time on each resource unit as its arithmetic's
// numbers grow (smt/testdata/truncated_product.smt2 on Z3's command line:
// 1,000,000 units in 1.9 s, 3,000,000 in 22.5 s), so that at a
// condition's limit of 100,000,000 units it reaches the CPU-time guard
// first: in bilateral_grid's bench, two such tries, of its condition C56
// and of another, ran on until the bench's 40-minute bound, having
// counted 11 and 52 million units, where the models it found, in the
// app's definedness probe and its condition C52, took 28,000 to 549,000
// units.
const defaultRetryLimit = 1_000_000

// checkSimple checks the conjunction of terms with Z3's plain SMT kernel
// within lim resource units (checkTerms), and reports done unless the
// kernel left it undecided, nothing cancelled: the caller then goes on
// with its next attempt.
func (s *solver) checkSimple(terms []*smt.Term, lim uint64, legacy bool) (smt.Result, *smt.Solver, bool, error) {
	if lim == 0 {
		return smt.Unknown, nil, false, nil
	}
	res, sol, err := s.checkIn(s.z.NewSimpleSolver, terms, lim, legacy)
	if res != smt.Unknown || s.ctx.Err() != nil || sol == nil {
		return res, sol, true, err
	}
	sol.Close()
	return res, nil, false, nil
}

// checkIn checks the conjunction of terms in a fresh solver made by mk,
// within lim resource units, with Z3's legacy arithmetic solver when
// legacy is set (legacyArith).
func (s *solver) checkIn(mk func() (*smt.Solver, error), terms []*smt.Term, lim uint64, legacy bool) (smt.Result, *smt.Solver, error) {
	sol, err := mk()
	if err != nil {
		return smt.Unknown, nil, err
	}
	if err := legacyArith(sol, legacy); err != nil {
		return smt.Unknown, sol, err
	}
	if err := sol.Assert(terms...); err != nil {
		return smt.Unknown, sol, err
	}
	res, err := s.solve(sol, lim)
	return res, sol, err
}

// legacyArith sets sol to Z3's legacy arithmetic solver when legacy is
// true (smt.Solver.UseLegacyArithmetic), which counts its resource units
// on the truncations of nonlinear real terms where Z3 4.8.12's default
// one need not.
func legacyArith(sol *smt.Solver, legacy bool) error {
	if !legacy {
		return nil
	}
	return sol.UseLegacyArithmetic()
}

// abstractedLimit bounds the check of a query's abstraction
// (checkAbstracted) when neither side computes with floats: bit-blasted,
// the queries it proves take a few million units.
const abstractedLimit = 20_000_000

// checkAbstracted tries to prove the conjunction of terms unsatisfiable
// by its abstraction, in a context apart (solver.sideContext), over booleans, bit-vectors and floats alone
// (smt.Context.BoundedToBV: the bounded arithmetic of the conversions
// between integers and bit-vectors or reals translated to bit-vectors
// exactly, the uninterpreted functions' applications to indices, the
// indices and their comparisons become fresh constants), which a tactic
// chosen by its logic then bit-blasts (portfolio.go), within
// abstractionLimit's share of limit. The abstraction is implied by the
// terms, so its unsatisfiability proves theirs; proved reports it, with
// the solver to close. Any other answer proves nothing, and the query
// goes on as if this had not been tried: the integer arithmetic of the
// indices sends a query with bit-vectors to Z3's general SMT kernel,
// which is far slower on them than bit-blasting (a division of i16
// values by a constant: 20 million units against half a million).
//
// In the real value model with floats, it is tried only when the
// abstraction keeps some arithmetic (floats are reals, of which the
// abstraction otherwise keeps nothing).
func (s *solver) checkAbstracted(terms []*smt.Term, limit uint64) (*smt.Solver, bool) {
	lim := s.abstractionLimit(limit)
	if lim == 0 {
		return nil, false
	}
	// What the abstraction would be refused for below, seen on the
	// terms themselves: no bits (Abstraction.Bits), or, in the real
	// model with floats, no conversion of bits to an integer to keep
	// arithmetic from (kept is then zero). The context apart, the
	// translation and the abstraction cost more than the query's own
	// check for most of the conditions of a float pipeline (fft's).
	bits, conv := s.z.Mentions(terms...)
	if !bits || !conv && s.v.usesFloats() && s.v.opts.ValueModel == encode.Real {
		return nil, false
	}
	side, err := s.sideContext()
	if err != nil {
		return nil, false
	}
	moved, err := side.Translate(terms...)
	if err != nil {
		return nil, false
	}
	abs, kept, err := side.BoundedToBV(moved...)
	if err != nil || abs.Replaced == 0 && kept == 0 || !abs.Bits || abs.Floats && s.v.usesFloats() && !s.rangedFloats(abs) {
		return nil, false
	}
	if kept == 0 && s.v.usesFloats() && !s.rangedFloats(abs) {
		return nil, false
	}
	var sol *smt.Solver
	if t, ok := tacticFor(abs); ok {
		sol, err = side.NewSolverFromTactic(t)
	} else {
		sol, err = side.NewSolver()
	}
	if err != nil {
		return nil, false
	}
	if err := sol.Assert(abs.Terms...); err != nil {
		sol.Close()
		return nil, false
	}
	res, err := s.solve(sol, lim)
	if err == nil && res == smt.Unsat {
		return sol, true
	}
	sol.Close()
	return nil, false
}

// solve checks sol within limit resource units, under the outer guard on
// the CPU time of the thread running the check (smt.Solver.SetCPUGuard):
// the time the check works, which a loaded machine does not shorten as it
// does the wall-clock time (two of bilateral_grid's checks, stopped by a
// wall-clock guard of 5 minutes under a load average of 20, had counted
// 59 and 83 million of their 100 million units). Running out of
// resources is a plain Unknown with an error saying so, as is reaching
// the guard, which is also recorded: the verdict then depends on the
// machine's speed.
func (s *solver) solve(sol *smt.Solver, limit uint64) (smt.Result, error) {
	s.meter.charge(s)
	if left, ok := s.conditionLeft(); ok {
		if left == 0 {
			return smt.Unknown, s.errBudgetSpent()
		}
		limit = min(limit, left)
	}
	if err := sol.SetResourceLimit(limit); err != nil {
		return smt.Unknown, err
	}
	guard := s.v.opts.Timeout
	if s.lookLimit > 0 {
		guard = min(guard, lookGuard)
	}
	if err := sol.SetCPUGuard(guard); err != nil {
		return smt.Unknown, err
	}
	before := sol.ResourcesUsed()
	res, err := sol.Check(s.ctx)
	// Z3's statistics read 0 when the query was interrupted: a count that
	// went down is no count, and must not wrap around.
	if after := sol.ResourcesUsed(); after >= before {
		s.used += after - before
		if sol.Context() == s.z {
			s.meter.checked += after - before
		}
	}
	if sol.OutOfMemory() {
		s.v.memoryHit.Store(true)
	}
	switch {
	case res != smt.Unknown:
		return res, nil
	case s.ctx.Err() != nil:
		return res, s.ctx.Err()
	case sol.CPUGuardReached():
		s.guard.Store(true)
		return res, fmt.Errorf("CPU-time guard of %s reached before the resource limit", guard)
	case err != nil:
		return res, err
	case sol.ReasonUnknown() == smt.ReasonResourceLimit:
		return res, fmt.Errorf("%w of %d units reached", errResources, limit)
	}
	return res, nil
}
