package validate

import (
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/smt/encode"
)

// The portfolio: the ways a query is checked, one after the other, each
// within a fixed share of the query's resource limit, the first definite
// answer winning (checkTerms). The members, in order:
//
//  1. the query's bit-vector abstraction (smt.Context.BoundedToBV: the
//     bounded integer and fixed-point arithmetic translated exactly, the
//     rest abstracted), decided by a Z3 tactic chosen by its logic
//     (tacticFor); only its unsat counts, which proves the query;
//  2. Z3's plain SMT kernel, within simpleLimit;
//  3. Z3's general solver, within the query's limit.
//
// Being run in sequence and bounded in resource units, not raced on the
// clock, the portfolio answers the same on any machine; each member runs
// inside Solver.Check, so a cancellation interrupts whichever is running.

// Tactics of the abstraction's logics. Each simplifies, propagates
// values and solves equations before bit-blasting, which removes most of
// the verifier's definitions (a side equal to a hole, a hole equal to an
// annotation) before the SAT solver sees them.
var (
	preprocess = []smt.Tactic{smt.NamedTactic("simplify"), smt.NamedTactic("propagate-values"), smt.NamedTactic("solve-eqs")}
	// qfbvTactic decides booleans and bit-vectors alone: Z3's QF_BV
	// strategy, which bit-blasts (with its own reductions of the
	// bit-vectors' sizes first; a plain bit-blast and sat took six times
	// the units on an i16 remainder of the corpus).
	qfbvTactic = smt.Then(append(preprocess, smt.NamedTactic("qfbv"))...)
	// qfufbvTactic adds uninterpreted functions of bit-vectors: Z3's
	// QF_UFBV strategy.
	qfufbvTactic = smt.Then(append(preprocess, smt.NamedTactic("qfufbv"))...)
	// qffpbvTactic adds floating point, which Z3's QF_FPBV strategy
	// bit-blasts.
	qffpbvTactic = smt.Then(append(preprocess, smt.NamedTactic("qffpbv"))...)
)

// tacticFor is the tactic that decides the abstraction abs, by its
// logic; ok is false when abs needs Z3's general solver (floating point
// with uninterpreted functions).
func tacticFor(abs *smt.Abstraction) (t smt.Tactic, ok bool) {
	switch {
	case abs.Floats && abs.Functions:
		return smt.Tactic{}, false
	case abs.Floats:
		return qffpbvTactic, true
	case abs.Functions:
		return qfufbvTactic, true
	}
	return qfbvTactic, true
}

// boundedLimit bounds the check of a query's bit-vector abstraction in
// the real model when the specification or the kernel computes with
// floats: the abstraction then keeps only the floats converted from
// integers and back (a byte halved and truncated), whose bit-blasted
// queries take a few thousand units; one that keeps real arithmetic of
// the inputs is abstracted, and rarely proved.
const boundedLimit = 2_000_000

// abstractionLimit is the share of the query's limit given to its
// bit-vector abstraction, zero when the abstraction is not tried: in the
// ieee model with floats (the general solver bit-blasts floating-point
// terms itself, and the abstraction's terms, made in the condition's
// context, change the course of its later searches: a wrong blur of the
// corpus took five times as long to refute).
func (s *solver) abstractionLimit(limit uint64) uint64 {
	switch {
	case !s.v.usesFloats():
		return min(limit, abstractedLimit)
	case s.v.opts.ValueModel == encode.Real:
		return min(limit, boundedLimit)
	case s.ranged:
		return min(limit, rangedLimit)
	}
	return 0
}

// rangedLimit bounds the check of a query's abstraction in the ieee model
// when its axioms hold range facts (encode.Encoder.RangeFacts): the
// definedness of float-to-integer conversions of bounded floats (a
// contour in [0, 1] times 255 into a u32), which Z3's general solver
// decides poorly with the tensors' functions of integer indices (no
// answer within 20 million units), and the QF_FPBV tactic within a few
// million once the applications are constants.
const rangedLimit = 10_000_000

// rangedFloats reports whether the ieee abstraction abs, which keeps
// floats, is to be checked: when the query holds range facts and abs is
// over booleans, bit-vectors and floats alone, the logic of the QF_FPBV
// tactic.
func (s *solver) rangedFloats(abs *smt.Abstraction) bool {
	return s.ranged && s.v.opts.ValueModel == encode.IEEE && !abs.Functions
}
