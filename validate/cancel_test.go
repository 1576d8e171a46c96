package validate

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
)

// busyPair is the pair of testdata/busy: the counterexample of its value
// condition C5 is a factorisation, which keeps Z3 busy for minutes.
func busyPair(t *testing.T) (spec, prog *syntax.Source) {
	return source(t, "testdata/busy/factor.sare"), source(t, "testdata/busy/factor.sched")
}

// z3Held waits for the collector to delete the Z3 contexts left
// unreachable, and returns the checks running in Z3 and the contexts it
// holds.
func z3Held() (checks, contexts int) {
	for range 3 {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
	}
	return smt.RunningChecks(), smt.LiveContexts()
}

// statuses counts the conditions by status, and returns C5's result.
func statuses(t *testing.T, rep *Report) (map[Status]int, ConditionResult) {
	t.Helper()
	var c5 ConditionResult
	for _, c := range rep.Conditions {
		if c.ID == 5 {
			c5 = c
		}
	}
	if c5.ID != 5 {
		t.Fatalf("no condition C5 in %+v", rep.Conditions)
	}
	return rep.Counts(), c5
}

// A validation cancelled while Z3 decides a condition returns the report
// so far, UNKNOWN with the reason "cancelled", the conditions decided
// before and the one being decided undecided; no check is left running
// in Z3 and every context is deleted.
func TestCancelledValidationReportsSoFar(t *testing.T) {
	checks, contexts := z3Held()
	spec, prog := busyPair(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := Options{Jobs: 1, NoQuickTest: true, beforeDecide: func(id int) {
		if id == 5 {
			// Once Z3 works on C5.
			time.AfterFunc(300*time.Millisecond, cancel)
		}
	}}
	rep, err := Validate(ctx, spec, prog, opts)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Validate: %v, want context.Canceled", err)
	}
	if rep == nil {
		t.Fatal("no report")
	}
	if rep.Verdict != Unknown || rep.Reason != "cancelled during the solving" || !rep.TimeBound {
		t.Errorf("verdict %s, reason %q, time bound %v; want unknown, \"cancelled during the solving\", true", rep.Verdict, rep.Reason, rep.TimeBound)
	}
	counts, c5 := statuses(t, rep)
	if counts["proved"] != 6 || counts["undecided"] != 1 || len(rep.Conditions) != 7 {
		t.Errorf("conditions %v, want 6 proved and C5 undecided", counts)
	}
	if c5.Status != "undecided" || !strings.HasPrefix(c5.Reason, ReasonCancelled) {
		t.Errorf("C5 %s (%s), want undecided (cancelled)", c5.Status, c5.Reason)
	}
	if c, n := z3Held(); c != checks || n != contexts {
		t.Errorf("after the cancelled validation Z3 runs %d checks and holds %d contexts, want %d and %d", c, n, checks, contexts)
	}
}

// The report of a validation cancelled with a cause names it.
func TestCancelReasonNamesCause(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("terminated signal received"))
	if got, want := cancelReason(ctx, "the solving"), "cancelled during the solving: terminated signal received"; got != want {
		t.Errorf("cancelReason = %q, want %q", got, want)
	}
	ctx, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if got, want := cancelReason(ctx, "the symbolic evaluation"), "cancelled during the symbolic evaluation"; got != want {
		t.Errorf("cancelReason = %q, want %q", got, want)
	}
}

// When the CPU-time guard stops the checks of a condition, each is
// interrupted and waited for: once the validation is over, no check is
// left running in Z3 and every context is deleted. The verdict is
// UNKNOWN and marked as time-bound.
func TestGuardLeavesNoCheckRunning(t *testing.T) {
	checks, contexts := z3Held()
	spec, prog := busyPair(t)
	rep, err := Validate(context.Background(), spec, prog, Options{Jobs: 2, NoQuickTest: true, Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	counts, c5 := statuses(t, rep)
	if rep.Verdict != Unknown || !rep.TimeBound || counts["proved"] != 6 || c5.Status != "undecided" {
		t.Errorf("verdict %s (%s), time bound %v, conditions %v; want unknown, time-bound, C5 undecided", rep.Verdict, rep.Reason, rep.TimeBound, counts)
	}
	if !strings.Contains(c5.Reason, "CPU-time guard") {
		t.Errorf("C5's reason %q does not name the guard", c5.Reason)
	}
	if c, n := z3Held(); c != checks || n != contexts {
		t.Errorf("after the guard Z3 runs %d checks and holds %d contexts, want %d and %d", c, n, checks, contexts)
	}
}
