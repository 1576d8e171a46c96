package smt

import (
	"context"
	"testing"
	"time"
)

// The CPU-time guard counts the time the check's thread works, not the
// time that passes: a check that waits (as one does on a loaded machine,
// its thread off the core) longer than its guard, then answers at once,
// answers; a wall-clock bound of the same length would have stopped it.
func TestCPUGuardIgnoresWaiting(t *testing.T) {
	c := newCtx(t)
	s, _ := c.NewSolver()
	x := c.IntConst("x")
	s.Assert(x.Gt(c.Int(1)))
	if err := s.SetCPUGuard(20 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	c.h.beforeCheck = func() { time.Sleep(10 * cpuGuardPoll) }
	r, err := s.Check(context.Background())
	c.h.beforeCheck = nil
	if r != Sat || err != nil || s.CPUGuardReached() {
		t.Fatalf("Check = %v, %v (%s), guard reached %v; want sat", r, err, s.ReasonUnknown(), s.CPUGuardReached())
	}
}

// A check that works past its CPU-time guard stops there, Unknown with
// reason "timeout", the guard reported.
func TestCPUGuardStopsWork(t *testing.T) {
	c := newCtx(t)
	s, _ := c.NewSolver()
	s.Assert(factor(c)...)
	if err := s.SetCPUGuard(time.Millisecond); err != nil {
		t.Fatal(err)
	}
	r, err := s.Check(context.Background())
	if r != Unknown || err != nil || !s.CPUGuardReached() || s.ReasonUnknown() != "timeout" {
		t.Fatalf("Check = %v, %v (%s), guard reached %v; want unknown at the guard", r, err, s.ReasonUnknown(), s.CPUGuardReached())
	}
	if err := s.SetCPUGuard(-time.Second); err == nil {
		t.Error("SetCPUGuard accepted a negative guard")
	}
}
