package validate

import (
	"context"
	"testing"

	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/symeval"
)

// TestConcludeNeedsEveryConditionProved checks that VALID is a proof, never
// a default: a condition left pending (never discharged), or in any other
// status but proved, makes the verdict UNKNOWN, and the reason names the
// first such condition.
func TestConcludeNeedsEveryConditionProved(t *testing.T) {
	for _, tc := range []struct {
		name     string
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := &validation{ctx: context.Background(), an: &symeval.Analysis{}}
			var results []ConditionResult
			for i, st := range tc.statuses {
				c := &symeval.Condition{ID: i + 1, Status: st}
				v.an.Conditions = append(v.an.Conditions, c)
				results = append(results, ConditionResult{ID: c.ID, Kind: sched.WrongValue, File: "k.sched", Line: i + 1, Col: 3, Status: statusOf(st)})
			}
			rep := &Report{}
			v.conclude(rep, results)
			if rep.Verdict != tc.verdict || rep.Reason != tc.reason {
				t.Errorf("verdict %s (%q), want %s (%q)", rep.Verdict, rep.Reason, tc.verdict, tc.reason)
			}
		})
	}
}
