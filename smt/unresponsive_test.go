package smt

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"
)

// TestUnresponsiveCheckAbandoned: a check that ignores its resource limit
// and the interruption returns Unknown with ErrUnresponsive soon after its
// deadline, instead of hanging, and its context refuses further use.
func TestUnresponsiveCheckAbandoned(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a check that Z3 does not stop")
	}
	script, err := os.ReadFile("testdata/unresponsive.smt2")
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.h.grace = 2 * time.Second
	ts, err := c.ParseSMTLIB2(string(script))
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.NewSimpleSolver()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetResourceLimit(200_000); err != nil {
		t.Fatal(err)
	}
	if err := s.Assert(ts...); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	start := time.Now()
	res, err := s.Check(ctx)
	took := time.Since(start)
	switch {
	case res != Unknown:
		// A later Z3 may decide it: then there is nothing to abandon.
		t.Skipf("Z3 decided the query (%s) in %s", res, took)
	case err == nil:
		t.Skipf("Z3 stopped by itself in %s (%s)", took, s.ReasonUnknown())
	case errors.Is(err, context.DeadlineExceeded):
		t.Skipf("Z3 stopped when interrupted, in %s", took)
	case !errors.Is(err, ErrUnresponsive):
		t.Fatalf("check: %v, want ErrUnresponsive", err)
	}
	if took > time.Minute {
		t.Errorf("abandoned after %s", took)
	}
	if _, err := c.NewSolver(); !errors.Is(err, ErrUnresponsive) {
		t.Errorf("the abandoned context still works: %v", err)
	}
}
