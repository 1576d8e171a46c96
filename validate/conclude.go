package validate

import "fmt"

// The conclude phase: the failures confirmed in program order, and the
// verdict set from every condition's result: INVALID with a confirmed
// counterexample, VALID only when every condition is proved, UNKNOWN
// otherwise.

// confirmFirst tries the failed conditions in program order until one is
// confirmed by concrete evaluation and replay; that one sets the verdict
// to INVALID with its counterexample, and the later ones get their own
// (otherCounterexamples). A failure not confirmed becomes undecided. It
// reports whether one was confirmed.
func (v *validation) confirmFirst(rep *Report, l *ledger, failed []int) bool {
	results := l.results
	for _, i := range failed {
		if v.ctx.Err() != nil {
			return false
		}
		cx, err := v.counterexampleOf(l, i)
		if err != nil {
			results[i].Status = Undecided
			results[i].Reason = "counterexample not confirmed: " + err.Error()
			continue
		}
		rep.Verdict = Invalid
		rep.Reason = cx.Kind.String()
		rep.Counterexample = cx
		results[i].Counterexample = cx
		v.otherCounterexamples(l, failed, i)
		return true
	}
	return false
}

// conclude is the conclude phase: the verdict set from the conditions'
// results (setVerdict), the conditions that are not proved put in
// readable form (explainUnproved), and the report completed. A
// cancellation during the confirmation of counterexamples ends the
// validation with the context's error.
func (p *pipeline) conclude(v *validation, l *ledger) (*Report, error) {
	all := len(l.results)
	p.progress(Event{Phase: "confirm", Done: all, Total: all})
	v.setVerdict(p.rep, l)
	v.explainUnproved(l)
	p.phase("confirm")
	p.rep.TimeBound = p.guardHit.Load()
	p.rep.MemoryBound = p.memoryHit.Load()
	p.rep.Vacuous = p.rep.Vacuous && p.rep.Verdict == Valid
	p.rep.Conditions = l.results
	p.progress(Event{Phase: "done", Done: all, Total: all})
	if p.ctx.Err() != nil {
		h := p.cancelled(l.results, "the confirmation of counterexamples")
		return h.rep, h.err
	}
	return p.rep, nil
}

// setVerdict sets the verdict from the conditions' results in l,
// confirming failures by concrete evaluation and replay: INVALID once a
// failure is confirmed (confirmFirst). VALID is a proof, never a default:
// it is set only when every condition's status is proved. A condition in
// any other status (undecided; pending, never decided; failed, when the
// confirmation was cancelled; any other) makes the verdict UNKNOWN, with
// a reason naming the first such condition.
func (v *validation) setVerdict(rep *Report, l *ledger) {
	results := l.results
	if v.confirmFirst(rep, l, v.failures(results)) {
		return
	}
	n, first := unproved(results)
	if n == 0 {
		rep.Verdict = Valid
		if rep.Vacuous {
			rep.Reason = "vacuous: no parameter values satisfy the assumptions"
		}
		return
	}
	rep.Verdict = Unknown
	rep.Reason = fmt.Sprintf("%d condition%s not proved, the first %s", n, plural(n), describeUnproved(first))
}

// explainUnproved puts the value conditions of l that are not proved in
// readable form (formula), for the report. The conditions left
// undischarged by an earlier failure (l.skipped) keep their plain form:
// the readable one can cost more than the verdict.
func (v *validation) explainUnproved(l *ledger) {
	results := l.results
	for i, c := range v.an.Conditions {
		if c.Obligation != nil && results[i].Formula == "" && results[i].Status != Proved && !l.skipped[i] {
			results[i].Formula = v.formula(c)
		}
	}
}

// unproved counts the results whose status is not proved and returns
// the first of them in program order.
func unproved(results []ConditionResult) (int, *ConditionResult) {
	n := 0
	var first *ConditionResult
	for i := range results {
		if results[i].Status == Proved {
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
func (v *validation) otherCounterexamples(l *ledger, failed []int, first int) {
	results := l.results
	n := 0
	for _, i := range failed {
		if i <= first || results[i].Status != Failed {
			continue
		}
		if n == maxOtherCounterexamples || v.ctx.Err() != nil {
			return
		}
		n++
		cx, err := v.counterexampleOf(l, i)
		if err != nil {
			results[i].Status = Undecided
			results[i].Reason = "counterexample not confirmed: " + err.Error()
			continue
		}
		results[i].Counterexample = cx
	}
}
