package validate

import (
	"context"
	"testing"

	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/symeval"
	"github.com/augur-verify/augur/syntax"
)

// concludeOn returns the report whose verdict setVerdict gives conditions
// of the statuses given (as their results), each located at line i+1 of
// k.sched, under ctx.
func concludeOn(ctx context.Context, statuses []Status) *Report {
	v := &validation{shared: &shared{ctx: ctx}, an: &symeval.Analysis{},
		in: &input{specSrc: &syntax.Source{Name: "s.sare"}, progSrc: &syntax.Source{Name: "k.sched"}}}
	var results []ConditionResult
	for i, st := range statuses {
		c := &symeval.Condition{ID: i + 1}
		v.an.Conditions = append(v.an.Conditions, c)
		results = append(results, ConditionResult{ID: c.ID, Kind: sched.WrongValue, File: "k.sched", Line: i + 1, Col: 3, Status: st})
	}
	rep := &Report{}
	v.setVerdict(rep, &ledger{results: results, skipped: map[int]bool{}})
	return rep
}

// TestConcludeNeedsEveryConditionProved checks that VALID is a proof, never
// a default: a condition left pending (never discharged), or in any other
// status but proved, makes the verdict UNKNOWN, and the reason names the
// first such condition. A failure counts only with a counterexample: one
// without evidence, or whose confirmation the cancellation stopped, is no
// proof either.
func TestConcludeNeedsEveryConditionProved(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name     string
		ctx      context.Context
		statuses []symeval.Status
		verdict  Verdict
		reason   string
	}{
		{name: "all proved", statuses: []symeval.Status{symeval.Proved, symeval.Proved}, verdict: Valid},
		{name: "one pending", statuses: []symeval.Status{symeval.Proved, symeval.Pending, symeval.Proved}, verdict: Unknown,
			reason: "1 condition not proved, the first C2 (annotation mismatch, k.sched:2:3) is pending"},
		{name: "pending and undecided", statuses: []symeval.Status{symeval.Proved, symeval.Undecided, symeval.Pending}, verdict: Unknown,
			reason: "2 conditions not proved, the first C2 (annotation mismatch, k.sched:2:3) is undecided"},
		{name: "unknown status", statuses: []symeval.Status{symeval.Status(7)}, verdict: Unknown,
			reason: "1 condition not proved, the first C1 (annotation mismatch, k.sched:1:3) is Status(7)"},
		{name: "failed without evidence", statuses: []symeval.Status{symeval.Proved, symeval.Failed}, verdict: Unknown,
			reason: "1 condition not proved, the first C2 (annotation mismatch, k.sched:2:3) is undecided: counterexample not confirmed: no evidence"},
		{name: "failed, confirmation cancelled", ctx: cancelled, statuses: []symeval.Status{symeval.Failed, symeval.Proved}, verdict: Unknown,
			reason: "1 condition not proved, the first C1 (annotation mismatch, k.sched:1:3) is failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := tc.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			var statuses []Status
			for _, st := range tc.statuses {
				statuses = append(statuses, statusOf(st))
			}
			rep := concludeOn(ctx, statuses)
			if rep.Verdict != tc.verdict || rep.Reason != tc.reason {
				t.Errorf("verdict %s (%q), want %s (%q)", rep.Verdict, rep.Reason, tc.verdict, tc.reason)
			}
		})
	}
}

// TestConcludeOneUnprovedIsNeverValid: among conditions otherwise proved,
// one in any status but proved, wherever it is, makes the verdict
// anything but VALID.
func TestConcludeOneUnprovedIsNeverValid(t *testing.T) {
	for _, st := range []Status{statusOf(symeval.Pending), Undecided, Failed,
		statusOf(symeval.Status(4)), "", "Proved", "proved "} {
		for at := range 3 {
			statuses := []Status{Proved, Proved, Proved}
			statuses[at] = st
			if rep := concludeOn(context.Background(), statuses); rep.Verdict == Valid {
				t.Errorf("a condition %q at C%d: VALID (%s)", st, at+1, rep.Reason)
			}
		}
	}
}
