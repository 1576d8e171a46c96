package validate

import (
	"fmt"
	"sort"

	"github.com/augur-verify/augur/symeval"
)

// Refuting early and concluding: the failures found over Presburger
// sets are confirmed before the solver runs (refuteEarly), and the
// verdict is set from every condition's result (conclude): INVALID with a
// confirmed counterexample, VALID only when every condition is proved,
// UNKNOWN otherwise.

// refuteEarly confirms, before any value condition is discharged, the
// failures that symbolic evaluation found over Presburger sets, in program
// order. When one is confirmed, the value conditions after it are left
// undecided with that reason (Options.AllConditions decides them anyway):
// the verdict is INVALID, and the first failure in program order, the one
// conclude reports, is that one or a value condition before it. The
// others are discharged as usual. A failure it cannot confirm becomes
// undecided, as conclude would make it.
func (v *validation) refuteEarly(results []ConditionResult) {
	for _, i := range v.failures(results) {
		if v.ctx.Err() != nil {
			return
		}
		if _, err := v.counterexampleOf(i); err != nil {
			results[i].Status = "undecided"
			results[i].Reason = "counterexample not confirmed: " + err.Error()
			continue
		}
		for j := i + 1; j < len(v.an.Conditions); j++ {
			if v.an.Conditions[j].Status == symeval.Pending {
				results[j].Status = "undecided"
				results[j].Reason = fmt.Sprintf("not discharged: C%d already refutes the kernel", v.an.Conditions[i].ID)
				v.skipped[j] = true
			}
		}
		return
	}
}

// failures returns the indices of the failed conditions, in program
// order.
func (v *validation) failures(results []ConditionResult) []int {
	var failed []int
	for i := range v.an.Conditions {
		if results[i].Status == "failed" {
			failed = append(failed, i)
		}
	}
	sort.Ints(failed)
	return failed
}

// confirmFirst tries the failed conditions in program order until one is
// confirmed by concrete evaluation and replay; that one sets the verdict
// to INVALID with its counterexample, and the later ones get their own
// (otherCounterexamples). A failure not confirmed becomes undecided. It
// reports whether one was confirmed.
func (v *validation) confirmFirst(rep *Report, results []ConditionResult, failed []int) bool {
	for _, i := range failed {
		if v.ctx.Err() != nil {
			return false
		}
		cx, err := v.counterexampleOf(i)
		if err != nil {
			results[i].Status = "undecided"
			results[i].Reason = "counterexample not confirmed: " + err.Error()
			continue
		}
		rep.Verdict = Invalid
		rep.Reason = cx.Kind
		rep.Counterexample = cx
		results[i].Counterexample = cx
		v.otherCounterexamples(results, failed, i)
		return true
	}
	return false
}

// conclude sets the verdict from the conditions' results, confirming
// failures by concrete evaluation and replay. VALID is a proof: it needs
// every condition proved. A condition in any other status (undecided,
// or pending, never decided) makes the verdict UNKNOWN, with a reason
// naming the first such condition.
func (v *validation) conclude(rep *Report, results []ConditionResult) {
	if v.confirmFirst(rep, results, v.failures(results)) {
		return
	}
	if n, first := unproved(results); n > 0 {
		rep.Verdict = Unknown
		rep.Reason = fmt.Sprintf("%d condition%s not proved, the first %s", n, plural(n), describeUnproved(first))
		return
	}
	rep.Verdict = Valid
	if rep.Vacuous {
		rep.Reason = "vacuous: no parameter values satisfy the assumptions"
	}
}

// unproved counts the results whose status is not proved and returns
// the first of them in program order.
func unproved(results []ConditionResult) (int, *ConditionResult) {
	n := 0
	var first *ConditionResult
	for i := range results {
		if results[i].Status == symeval.Proved.String() {
			continue
		}
		if n == 0 {
			first = &results[i]
		}
		n++
	}
	return n, first
}

// describeUnproved names a condition that is not proved, where it is and
// its status: "C7 (annotation mismatch, k.sched:8:5) is undecided:
// resource limit reached".
func describeUnproved(r *ConditionResult) string {
	s := fmt.Sprintf("C%d (%s, %s:%d:%d) is %s", r.ID, r.Kind, r.File, r.Line, r.Col, r.Status)
	if r.Reason != "" {
		s += ": " + clipReason(r.Reason)
	}
	return s
}

// clipReason shortens a condition's reason to a line of a verdict's
// reason.
func clipReason(s string) string {
	const max = 200
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max]) + "..."
}

// maxOtherCounterexamples bounds how many failed conditions besides the
// first get a counterexample of their own: each is confirmed by concrete
// evaluation and a replay.
const maxOtherCounterexamples = 16

// otherCounterexamples gives the failed conditions after the first
// confirmed one, first, their own counterexamples, so that every failure
// can be reported with its own (SARIF, JUnit). A failure that concrete
// evaluation does not confirm becomes undecided, as before the first.
func (v *validation) otherCounterexamples(results []ConditionResult, failed []int, first int) {
	n := 0
	for _, i := range failed {
		if i <= first || results[i].Status != "failed" {
			continue
		}
		if n == maxOtherCounterexamples || v.ctx.Err() != nil {
			return
		}
		n++
		cx, err := v.counterexampleOf(i)
		if err != nil {
			results[i].Status = "undecided"
			results[i].Reason = "counterexample not confirmed: " + err.Error()
			continue
		}
		results[i].Counterexample = cx
	}
}
