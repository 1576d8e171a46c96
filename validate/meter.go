package validate

import (
	"errors"
	"fmt"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/symeval"
)

// The meter of the work that Z3's resource units miss: a condition's
// encodings (the unfolding of both sides' tensors builds their terms,
// which no solver counts) and its concrete evaluations (the confirmation
// of a model evaluates both sides over the model's inputs). Each is
// charged, at a fixed rate, to the condition's resource units (solver.used),
// so to its budget (Options.ConditionResources) and, through its outcome,
// to the validation's (Options.TotalResources). The charge counts steps
// of the work, not time, so it does not depend on the machine's load;
// work that would spend the condition's budget stops there, and the
// condition is undecided with the budget as its reason.

// encodeNodeUnits is the charge, in resource units, of encoding one node
// of a value expression (encode.Encoder.SetMeter), each node of each
// unfolded equation's body included: the Go side of building its terms.
// Measured on the corpus, an encoding takes 5 to 30 microseconds a node,
// where Z3 searches at 1 to 3 million units a second. What Z3 counts
// while the terms are built (their simplifications) is charged on top
// (contextMeter).
const encodeNodeUnits = 20

// evalPointUnits is the charge, in resource units, of one tensor element
// that a concrete evaluation computes (sare.Evaluator.Points): evaluating
// an equation's body over the elements it reads and memoising it, about
// 4 microseconds on the corpus.
const evalPointUnits = 20

// errBudgetSpent is the condition's spent budget as an error, which makes
// the work that met it stop and the condition undecided with the budget
// as its reason (strategyRun.fail).
func (s *solver) errBudgetSpent() error {
	if s.termsSpent {
		return fmt.Errorf("%w: %s", errConditionBudget, s.termsReason())
	}
	return fmt.Errorf("%w (%d units)", errConditionBudget, s.v.opts.ConditionResources)
}

// termsOver reports whether the condition's encodings hold more Z3 terms
// than Options.ConditionTerms (the references that the wrappers of the
// solver's contexts hold, reachable or not: with manual release, the
// unreachable ones are given back only when the condition is decided).
// Once over, it stays so for the condition (solver.termsSpent): its
// budget is then spent as if its resource units were (conditionLeft).
func (s *solver) termsOver() bool {
	if s.termsSpent {
		return true
	}
	b := s.v.opts.ConditionTerms
	if b == 0 || b == Unlimited {
		return false
	}
	var n uint64
	if s.z != nil {
		n = uint64(s.z.Held())
	}
	if s.side != nil {
		n += uint64(s.side.Held())
	}
	if n > b {
		s.termsSpent = true
	}
	return s.termsSpent
}

// shed starts the condition afresh in a new Z3 context, at a boundary
// between two pieces of its points, once its context holds more than
// half of Options.ConditionTerms: the terms of the pieces decided are
// given back with the old context, so that a condition of thousands of
// pieces holds the terms of the pieces since the last renewal, not of
// all of them. Nothing may hold terms of the old context past the call:
// its callers drop their queries of earlier pieces (encode's earlier),
// and call it only without deferred models (strategyRun.cands). Being
// decided by the count of terms held, not by time, the renewals fall at
// the same pieces on any machine. It reports whether it renewed the
// context; what was made in it is the callers' to drop.
func (s *solver) shed(c *symeval.Condition, pi, n int) bool {
	b := s.v.opts.ConditionTerms
	if b == 0 || b == Unlimited || s.termsSpent {
		return false
	}
	held := s.z.Held()
	if uint64(held) <= b/2 {
		return false
	}
	z, err := smt.NewContext(smt.WithModels(true), smt.WithManualRelease())
	if err != nil {
		return false
	}
	s.meter.charge(s)
	s.meter.close()
	old := s.z
	s.z, s.enc = z, s.newEncoder(z)
	s.meter.reset(s.z)
	old.Close()
	if s.side != nil {
		s.side.Close()
		s.side = nil
	}
	if s.v.opts.Trace != nil {
		s.v.trace(fmt.Sprintf("C%d: a fresh Z3 context before piece %d of %d (%d terms held)", c.ID, pi+1, n, held))
	}
	return true
}

// termsReason is the reason of a condition whose encodings held more
// terms than Options.ConditionTerms.
func (s *solver) termsReason() string {
	return fmt.Sprintf("its encodings hold more than %d Z3 terms (the condition's bound on terms)", s.v.opts.ConditionTerms)
}

// meterEncoding charges the encoding of one expression node: the meter of
// the solver's encoder (encode.Encoder.SetMeter). It fails once the
// condition's budget is spent.
func (s *solver) meterEncoding() error {
	s.used += encodeNodeUnits
	if s.meter.nodes++; s.meter.nodes%contextReadNodes == 0 {
		s.meter.charge(s)
	}
	if left, ok := s.conditionLeft(); ok && left == 0 {
		return s.errBudgetSpent()
	}
	return nil
}

// evalBound returns the bound on the elements of a concrete evaluation:
// limit, or fewer when what is left of the condition's budget pays for
// fewer (capped then reports it).
func (s *solver) evalBound(limit int) (bound int, capped bool) {
	left, ok := s.conditionLeft()
	if !ok {
		return limit, false
	}
	if n := left / evalPointUnits; n < uint64(limit) {
		return int(n), true
	}
	return limit, false
}

// chargeEvaluation charges the elements that ev computed, and those it
// would have had to compute when it stopped at its bound (err is then
// sare.ErrMaxPoints). A stop at a bound that the condition's budget set
// (capped) is the budget's error.
func (s *solver) chargeEvaluation(ev *sare.Evaluator, capped bool, err error) error {
	n := ev.Points()
	stopped := err != nil && errors.Is(err, sare.ErrMaxPoints)
	if stopped {
		n = max(n, ev.MaxPoints)
	}
	s.used += uint64(n) * evalPointUnits
	if stopped && capped {
		return s.errBudgetSpent()
	}
	return nil
}

// contextReadNodes is how often, in expression nodes encoded, the meter
// of an encoding reads the Z3 context's count of resource units: each
// read builds the statistics of a solver (a few microseconds), and the
// work between two reads is charged at the second.
const contextReadNodes = 16

// A contextMeter charges the work that a Z3 context counts outside the
// solver's checks: Z3 advances a context's count of resource units (the
// "rlimit count" of its solvers' statistics) in its simplifications as
// in its searches, and an encoding simplifies each unfolded equation's
// domain and arguments, terms that grow with the data-dependent indices
// of a deep unfolding (the ground check of a model of Halide's
// max_filter built gigabytes of them in minutes, in no check). What the
// count advanced by beyond the checks' units, which solve charges
// itself, is charged to the condition.
type contextMeter struct {
	z *smt.Context
	// reader is a solver of z made only to read the count.
	reader *smt.Solver
	// base is the count at the last charge; checked, the units of the
	// checks in z since then (charged by solve); nodes, the nodes
	// encoded since the solver was made.
	base, checked uint64
	nodes         uint64
	broken        bool
}

// count returns z's count of resource units, or ok false when it cannot
// be read.
func (m *contextMeter) count() (uint64, bool) {
	if m.broken || m.z == nil {
		return 0, false
	}
	if m.reader == nil {
		r, err := m.z.NewSimpleSolver()
		if err != nil {
			m.broken = true
			return 0, false
		}
		m.reader = r
	}
	return m.reader.ResourcesUsed(), true
}

// reset starts metering z (a solver's context) from its current count.
func (m *contextMeter) reset(z *smt.Context) {
	if m.z != z {
		m.close()
		m.z, m.broken = z, false
	}
	m.base, m.checked = 0, 0
	if n, ok := m.count(); ok {
		m.base = n
	}
}

// charge adds to s.used what the context counted since the last charge
// beyond the units of the checks, which solve charged.
func (m *contextMeter) charge(s *solver) {
	if m.z != s.z {
		m.reset(s.z)
		return
	}
	n, ok := m.count()
	if !ok {
		return
	}
	// A count that went down (statistics read 0 after an interrupted
	// check) charges nothing.
	if n >= m.base+m.checked {
		s.used += n - m.base - m.checked
	}
	m.base, m.checked = n, 0
}

// close releases the reader.
func (m *contextMeter) close() {
	if m.reader != nil {
		m.reader.Close()
		m.reader = nil
	}
}
