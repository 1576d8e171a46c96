package smt

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"
)

// waitFor polls cond until it holds or a minute passes, and reports
// whether it held. It bounds a wait on another thread, not a duration
// under test.
func waitFor(cond func() bool) bool {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		if cond() {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cond()
}

// settleContexts lets the collector delete the contexts that earlier
// tests left unreachable without closing them, so that LiveContexts
// counts this test's.
func settleContexts() {
	for range 3 {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
	}
}

// A cancellation that comes before Z3 has begun the check, when Z3 would
// forget an interrupt, still stops it: the interrupt is sent again until
// the check returns. Without that, the check below (a 128-bit
// multiplier to invert) ran on, and was abandoned.
func TestCancelBeforeZ3Begins(t *testing.T) {
	running := RunningChecks() // an abandoned check of another test may run on
	c := newCtx(t)
	c.h.grace = 5 * time.Second
	s, _ := c.NewSolver()
	s.Assert(factor(c)...)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c.h.beforeCheck = func() {
		cancel()
		// The watching goroutine sends its first interrupt now, while
		// no check is running.
		time.Sleep(200 * time.Millisecond)
	}
	r, err := s.Check(ctx)
	c.h.beforeCheck = nil
	if r != Unknown || !errors.Is(err, context.Canceled) {
		t.Fatalf("Check = %v, %v (%s); want unknown, context.Canceled", r, err, s.ReasonUnknown())
	}
	if c.Abandoned() {
		t.Fatal("the check was abandoned")
	}
	if n := RunningChecks(); n != running {
		t.Errorf("%d checks still running after Check returned, want %d", n, running)
	}
}

// A check abandoned because Z3 did not stop within the grace is still
// accounted for (RunningChecks), and its context is deleted, its memory
// given back, once Z3 returns.
func TestAbandonedContextDeletedWhenZ3Returns(t *testing.T) {
	settleContexts()
	// An abandoned check of another test may run on.
	running, before := RunningChecks(), LiveContexts()
	c, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if LiveContexts() != before+1 {
		t.Fatalf("LiveContexts %d after NewContext, want %d", LiveContexts(), before+1)
	}
	c.h.grace = 50 * time.Millisecond
	s, _ := c.NewSolver()
	x := c.IntConst("x")
	s.Assert(x.Gt(c.Int(1)))
	// Z3 begins only after the check was abandoned: a check that did
	// not stop when interrupted.
	release := make(chan struct{})
	c.h.beforeCheck = func() { <-release }
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	r, err := s.Check(ctx)
	if r != Unknown || !errors.Is(err, ErrUnresponsive) {
		t.Fatalf("Check = %v, %v; want unknown, ErrUnresponsive", r, err)
	}
	if RunningChecks() != running+1 {
		t.Errorf("RunningChecks %d while the abandoned check runs, want %d", RunningChecks(), running+1)
	}
	if LiveContexts() != before+1 {
		t.Errorf("LiveContexts %d while the abandoned check runs, want %d", LiveContexts(), before+1)
	}
	close(release)
	if !waitFor(func() bool { return RunningChecks() == running }) {
		t.Fatalf("RunningChecks %d after Z3 returned", RunningChecks())
	}
	if n := LiveContexts(); n != before {
		t.Errorf("LiveContexts %d after the abandoned check returned, want %d: its context was not deleted", n, before)
	}
	if _, err := c.NewSolver(); !errors.Is(err, ErrUnresponsive) {
		t.Errorf("the abandoned context still works: %v", err)
	}
	c.Close() // nothing left to delete
	if n := LiveContexts(); n != before {
		t.Errorf("LiveContexts %d after Close, want %d", n, before)
	}
}

// An interrupt that lands as a check ends (the watcher's tick racing
// Z3's return, which afterCheck holds open here) is forgotten when Check
// returns: the Simplify after it rewrites its term instead of failing as
// "canceled", which made a condition's reason name the cancellation
// rather than the wall-clock guard that stopped its check.
func TestSimplifyAfterLateInterrupt(t *testing.T) {
	c := newCtx(t)
	x := c.BVConst("x", 32)
	e, _ := c.NewSolver()
	e.Assert(x.BVUGt(c.BV(5, 32)))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c.h.afterCheck = func() {
		cancel()
		time.Sleep(3 * interruptRepeat)
	}
	r, err := e.Check(ctx)
	c.h.afterCheck = nil
	if r != Sat || err != nil {
		t.Fatalf("Check = %v, %v; want sat (Z3 finished before the cancellation)", r, err)
	}
	want := "(bvadd #x00000003 x)"
	if got := x.BVAdd(c.BV(1, 32)).BVAdd(c.BV(2, 32)).Simplify(); got.Err() != nil || got.String() != want {
		t.Errorf("Simplify after an interrupt sent as the check ended = %v, want %s", got, want)
	}
}
