package api

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/validate"
)

// The workers' reports give every value condition its readable form,
// proved ones included, its solver time and its SMT-LIB2 script when it
// reached the solver, for the dashboard's table of conditions: blur's C6
// is proved by z3, C14 proved syntactically (its sides the same
// expression), without a script.
func TestRunnerReportsProvedConditions(t *testing.T) {
	v := &store.Validation{SpecName: "blur.sare", Spec: example(t, "blur/blur.sare"), ProgramName: "blur.sched", Program: example(t, "blur/blur.sched")}
	res, err := Runner(RunnerOptions{})(context.Background(), v, nil)
	if err != nil || res.Verdict != "valid" {
		t.Fatalf("run: %v %+v", err, res)
	}
	var rep validate.Report
	if err := json.Unmarshal(res.Report, &rep); err != nil {
		t.Fatal(err)
	}
	byID := map[int]validate.ConditionResult{}
	for _, c := range rep.Conditions {
		byID[c.ID] = c
	}
	c6, c14 := byID[6], byID[14]
	if c6.Status != validate.Proved || !strings.HasPrefix(c6.Solver, "z3") || c6.Seconds <= 0 || c6.SMT == "" ||
		!strings.Contains(c6.Formula, " = BH(") {
		t.Errorf("C6: status %s, solver %q, %g s, script %v, formula %q; want proved by z3, timed, with its script and formula",
			c6.Status, c6.Solver, c6.Seconds, c6.SMT != "", c6.Formula)
	}
	if c14.Status != validate.Proved || c14.Solver != "syntactic" || c14.SMT != "" || !strings.HasPrefix(c14.Formula, "Out(s1, s2) = Out(s1, s2)") {
		t.Errorf("C14: status %s, solver %q, script %v, formula %q; want proved syntactically, without a script, with its formula",
			c14.Status, c14.Solver, c14.SMT != "", c14.Formula)
	}
}
