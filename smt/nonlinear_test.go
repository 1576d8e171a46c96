package smt

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// truncatedProduct is a counterexample search of bilateral_grid's
// histogram (testdata/truncated_product.smt2): the bin
// to_int(x · (1 / r_sigma) + 1/2) against the grid's bounds.
func truncatedProduct(t *testing.T, c *Context) []*Term {
	t.Helper()
	return parseTestdata(t, c, "truncated_product.smt2")
}

// parseTestdata parses the SMT-LIB script testdata/name in c.
func parseTestdata(t *testing.T, c *Context, name string) []*Term {
	t.Helper()
	script, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := c.ParseSMTLIB2(string(script))
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// TestTruncatesNonlinear: a truncation beside a product of two reals is
// the mix; either alone, or a product by a numeral, is not.
func TestTruncatesNonlinear(t *testing.T) {
	t.Parallel()
	c := newCtx(t)
	x, y := c.RealConst("x"), c.RealConst("y")
	half := c.Real(1, 2)
	n := c.IntConst("n")
	cases := []struct {
		name string
		ts   []*Term
		want bool
	}{
		{"to_int of a product", []*Term{n.Eq(x.Mul(y).ToInt())}, true},
		{"to_int beside a quotient", []*Term{n.Eq(x.ToInt()), c.Real(1, 1).Div(y).Gt(half)}, true},
		{"to_int of a linear term", []*Term{n.Eq(x.Mul(half).ToInt())}, false},
		{"a product without to_int", []*Term{x.Mul(y).Gt(half)}, false},
		{"a quotient by a numeral", []*Term{n.Eq(x.Div(c.Real(3, 1)).ToInt())}, false},
	}
	for _, k := range cases {
		if got := c.TruncatesNonlinear(k.ts...); got != k.want {
			t.Errorf("%s: %v, want %v", k.name, got, k.want)
		}
	}
	if c.TruncatesNonlinear(truncatedProduct(t, c)...) != true {
		t.Error("bilateral_grid's query: not the mix")
	}
}

// TestLegacyArithmeticStops: bilateral_grid's query, on which Z3 4.8.12's
// default arithmetic solver ran past its limit of 10,000,000 units for
// minutes, is decided (sat) within that limit by the legacy solver.
func TestLegacyArithmeticStops(t *testing.T) {
	t.Parallel()
	c := newCtx(t)
	ts := truncatedProduct(t, c)
	s, err := c.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.UseLegacyArithmetic(); err != nil {
		t.Fatal(err)
	}
	if err := s.SetResourceLimit(10_000_000); err != nil {
		t.Fatal(err)
	}
	if err := s.Assert(ts...); err != nil {
		t.Fatal(err)
	}
	res, err := s.Check(context.Background())
	if err != nil || res != Sat {
		t.Fatalf("check: %s, %v (%s), want sat", res, err, s.ReasonUnknown())
	}
	if used := s.ResourcesUsed(); used > 10_000_000 {
		t.Errorf("%d units used, limit 10,000,000", used)
	}
}

// TestBoundedNonlinearStops: nl_means's definedness probe, on which Z3
// 4.8.12's default arithmetic solver runs past its resource limit in its
// nonlinear procedure (arith.nl.nra), ends within the limit without it.
// The guard on the check's CPU time only keeps a regression from running
// for minutes: without UseBoundedNonlinear the check reaches it.
func TestBoundedNonlinearStops(t *testing.T) {
	t.Parallel()
	c := newCtx(t)
	ts := parseTestdata(t, c, "probe_nonlinear.smt2")
	s, err := c.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, set := range []func() error{s.UseBoundedNonlinear, func() error { return s.SetResourceLimit(1_000_000) },
		func() error { return s.SetCPUGuard(20 * time.Second) }, func() error { return s.Assert(ts...) }} {
		if err := set(); err != nil {
			t.Fatal(err)
		}
	}
	res, err := s.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if s.CPUGuardReached() {
		t.Fatalf("check: %s at the CPU guard, %d units used", res, s.ResourcesUsed())
	}
	if res == Unknown && !strings.Contains(s.ReasonUnknown(), "incomplete") {
		t.Errorf("check: unknown (%s), want an answer or incomplete", s.ReasonUnknown())
	}
}
