package smt

import (
	"context"
	"testing"
)

// hardFactoring asserts that a 64-bit constant is a product of two
// factors greater than one, a query Z3 needs many steps for.
func hardFactoring(t *testing.T, c *Context, s *Solver) {
	t.Helper()
	x, y := c.BVConst("x", 64), c.BVConst("y", 64)
	if err := s.Assert(x.BVMul(y).Eq(c.BV(0x1234567890abcdef, 64)), c.BV(1, 64).BVULt(x), x.BVULt(y)); err != nil {
		t.Fatal(err)
	}
}

// TestResourceLimit checks that a resource limit stops a check with
// ReasonResourceLimit, at the same point every time, and that a check
// within the limit answers normally.
func TestResourceLimit(t *testing.T) {
	c, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var used []uint64
	for i := 0; i < 2; i++ {
		s, err := c.NewSolver()
		if err != nil {
			t.Fatal(err)
		}
		hardFactoring(t, c, s)
		if err := s.SetResourceLimit(5000); err != nil {
			t.Fatal(err)
		}
		before := s.ResourcesUsed()
		r, err := s.Check(context.Background())
		if err != nil || r != Unknown || s.ReasonUnknown() != ReasonResourceLimit || s.OutOfMemory() {
			t.Fatalf("got %s, %v, reason %q, out of memory %v; want unknown for lack of resources", r, err, s.ReasonUnknown(), s.OutOfMemory())
		}
		used = append(used, s.ResourcesUsed()-before)
		s.Close()
	}
	if used[0] != used[1] || used[0] < 5000 {
		t.Errorf("resources used by the two identical checks: %v, want equal and at least the limit", used)
	}

	c2, err := NewContext(WithResourceLimit(1_000_000))
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	s, err := c2.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Assert(c2.BVConst("x", 8).Eq(c2.BV(3, 8))); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Check(context.Background()); err != nil || r != Sat {
		t.Fatalf("got %s, %v; want sat within the limit", r, err)
	}
}

// Z3's ways of saying that it ran out of memory, and only those, are
// OutOfMemory's.
func TestMemoryReason(t *testing.T) {
	for r, want := range map[string]bool{
		"max. memory exceeded":   true,
		"memout":                 true,
		"(sat.max.memory)":       true,
		ReasonResourceLimit:      false,
		"timeout":                false,
		"canceled":               false,
		"incomplete quantifiers": false,
		"":                       false,
	} {
		if got := memoryReason(r); got != want {
			t.Errorf("memoryReason(%q) = %v, want %v", r, got, want)
		}
	}
}
