package validate

import (
	"fmt"
	"sort"

	"github.com/augur-verify/augur/symeval"
)

// The refute early phase: the failures that the symbolic evaluation
// found over Presburger sets are confirmed before the solver runs, and
// the first confirmed spares the value conditions after it.

// refuteEarly is the refute early phase: it confirms, before any value
// condition is discharged, the failures that symbolic evaluation found
// over Presburger sets, in program order. When one is confirmed, the
// value conditions after it are left undecided with that reason, and
// marked skipped in l: the verdict is INVALID, and the first failure in
// program order, the one conclude reports, is that one or a value
// condition before it. The others are discharged as usual. A failure it
// cannot confirm becomes undecided, as conclude would make it. With
// Options.AllConditions it does nothing: every condition is decided.
func (v *validation) refuteEarly(l *ledger) {
	if v.opts.AllConditions {
		return
	}
	results := l.results
	for _, i := range v.failures(results) {
		if v.ctx.Err() != nil {
			return
		}
		if _, err := v.counterexampleOf(l, i); err != nil {
			results[i].Status = Undecided
			results[i].Reason = "counterexample not confirmed: " + err.Error()
			continue
		}
		for j := i + 1; j < len(v.an.Conditions); j++ {
			if v.an.Conditions[j].Status == symeval.Pending {
				results[j].Status = Undecided
				results[j].Reason = fmt.Sprintf("not discharged: C%d already refutes the kernel", v.an.Conditions[i].ID)
				l.skipped[j] = true
			}
		}
		return
	}
}

// failures returns the indices of the failed conditions, in program
// order.
func (v *validation) failures(results []ConditionResult) []int {
	var failed []int
	for i := range results {
		if results[i].Status == Failed {
			failed = append(failed, i)
		}
	}
	sort.Ints(failed)
	return failed
}
