package validate

import (
	"fmt"
	"slices"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/symeval"
)

// proveFirstResources bounds each query of proveFirst: the unfolding
// strategies' proofs of a right kernel's obligations that the cheaper
// strategies leave satisfiable (a twiddle factor's read, whose table the
// kernel computes and the specification inlines) take a few tens of
// thousands of units; a query that needs more is left to the strategies
// in their order.
const proveFirstResources = 200_000

// proveFirst tries the strategies after si (but matching, which
// matchFirst tried), within proveFirstResources units each, ahead of the
// look at a model of si that leaves specification elements
// uninterpreted: that look unfolds both sides to the inputs at the
// model's point, at each point tried, and costs far more than their
// proof of a right kernel (the fft's passes, whose every stage reads the
// previous one through the twiddle factors' table; a histogram's update,
// whose cell the specification's count after the update unfolded once
// gives, where the look unfolds the count along the whole row). It is
// tried when some strategy unfolds both sides (candidatesFirst).
//
// Each strategy is sound on its own (see strategies), so the first whose
// every piece closes (its sides one term, or its query unsatisfiable)
// proves the obligation. It returns that proved outcome, or nil: then the
// strategies go on in their order as if proveFirst had not been tried,
// and a wrong kernel's models are looked at as before, at the cost of
// these bounded queries. Not in the ieee model, for the reason matching
// is not tried first there (newStrategyRun).
func (r *strategyRun) proveFirst(si int) *outcome {
	s, c := r.s, r.c
	if s.v.opts.ValueModel == encode.IEEE {
		return nil
	}
	if !slices.ContainsFunc(r.strategies, func(st strategy) bool { return st.candidatesFirst }) {
		return nil
	}
	for i := si + 1; i < len(r.strategies); i++ {
		if s.ctx.Err() != nil {
			return nil
		}
		if r.strategies[i].match && r.matchTried {
			continue // matchFirst tried it
		}
		if scripts, ok := r.closeAll(i); ok {
			st := r.strategies[i]
			return &outcome{status: symeval.Proved, solver: st.name, smt: queryScript(c.Obligation, st.name, scripts)}
		}
	}
	return nil
}

// closeAll reports whether every piece of the obligation closes under
// strategy si within proveFirstResources units (proveFirst), with the
// pieces' scripts (Options.KeepSMT).
func (r *strategyRun) closeAll(si int) ([]string, bool) {
	s, c, st := r.s, r.c, r.strategies[si]
	var scripts []string
	earlier := map[string]*query{}
	for pi, piece := range r.pieces {
		s.enc.ResetUnfoldings()
		q, err := s.encode(c.Obligation, st, piece, earlier)
		if err != nil {
			return nil, false
		}
		if q.same && q.bad.IsFalse() {
			continue
		}
		note := ""
		if q.bad.IsFalse() {
			note = sameTermsNote
		} else {
			res, sol, err := s.checkLimit(q, nil, proveFirstResources)
			if sol != nil {
				sol.Close()
			}
			if s.v.opts.Trace != nil {
				s.v.trace(fmt.Sprintf("C%d: %s, ahead of the models, piece %d of %d: %s", c.ID, st.name, pi+1, len(r.pieces), res))
			}
			if err != nil || res != smt.Unsat {
				return nil, false
			}
		}
		if s.v.opts.KeepSMT {
			scripts = append(scripts, s.pieceScript(q, pi, len(r.pieces), note))
		}
	}
	return scripts, true
}
