package smt

import (
	"context"
	"errors"
	"testing"
	"time"
)

func newCtx(t testing.TB, opts ...Option) *Context {
	t.Helper()
	c, err := NewContext(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// solve checks the conjunction of fs in a fresh solver.
func solve(t testing.TB, c *Context, fs ...*Term) (Result, *Solver) {
	t.Helper()
	s, err := c.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Assert(fs...); err != nil {
		t.Fatal(err)
	}
	// No test query should take long: a deadline turns a hang into a
	// failure.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r, err := s.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return r, s
}

func wantResult(t *testing.T, c *Context, want Result, fs ...*Term) *Solver {
	t.Helper()
	got, s := solve(t, c, fs...)
	if got != want {
		t.Fatalf("check(%v) = %v (%s), want %v", fs, got, s.ReasonUnknown(), want)
	}
	return s
}

func TestBVWrapsIntDoesNot(t *testing.T) {
	c := newCtx(t)
	x := c.BVConst("x", 8)
	s := wantResult(t, c, Sat, x.BVAdd(c.BV(1, 8)).BVULt(x))
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	v, err := m.Uint64(x)
	if err != nil {
		t.Fatal(err)
	}
	if v != 255 {
		t.Errorf("x = %d, want 255, the only 8-bit x with x+1 < x", v)
	}
	n := c.IntConst("n")
	wantResult(t, c, Unsat, n.Add(c.Int(1)).Lt(n))
}

func TestSortErrorIsAnError(t *testing.T) {
	c := newCtx(t)
	bad := c.IntConst("i").Add(c.BVConst("b", 8))
	if bad.Err() == nil {
		t.Fatal("Int + BV8 built without error")
	}
	var ze *Error
	if !errors.As(bad.Err(), &ze) || ze.Code == 0 {
		t.Errorf("error %v is not a Z3 error with a code", bad.Err())
	}
	// The error propagates through later constructions and into Assert.
	f := bad.Gt(c.Int(0)).And(c.True())
	if !errors.Is(f.Err(), bad.Err()) {
		t.Errorf("propagated error = %v, want %v", f.Err(), bad.Err())
	}
	s, _ := c.NewSolver()
	if err := s.Assert(f); err == nil {
		t.Error("Assert accepted a term carrying an error")
	}
	// The context still works.
	wantResult(t, c, Sat, c.IntConst("i").Gt(c.Int(3)))
}

// TestIteParts: the parts of an if-then-else, in order; any other term
// has none.
func TestIteParts(t *testing.T) {
	c := newCtx(t)
	x, y := c.IntConst("x"), c.IntConst("y")
	g := x.Lt(y)
	cond, then, els, ok := g.Ite(x, y.Add(c.Int(1))).IteParts()
	if !ok {
		t.Fatal("no parts of an ite")
	}
	for _, p := range []struct{ got, want *Term }{{cond, g}, {then, x}, {els, y.Add(c.Int(1))}} {
		if p.got.ID() != p.want.ID() {
			t.Errorf("part %s, want %s", p.got, p.want)
		}
	}
	for _, u := range []*Term{x, x.Add(y), g, c.True()} {
		if _, _, _, ok := u.IteParts(); ok {
			t.Errorf("%s: parts of a term that is no ite", u)
		}
	}
}

func TestIsFalse(t *testing.T) {
	c := newCtx(t)
	x := c.IntConst("x")
	for _, tc := range []struct {
		t    *Term
		want bool
	}{
		{c.False(), true},
		{c.True(), false},
		{x.Lt(x), false}, // false only once simplified
		{x.Lt(x).Simplify(), true},
		{x, false},
	} {
		if got := tc.t.IsFalse(); got != tc.want {
			t.Errorf("%s: IsFalse() = %v, want %v", tc.t, got, tc.want)
		}
	}
}
