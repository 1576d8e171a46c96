package smt

import (
	"context"
	"errors"
	"math/big"
	"testing"
	"time"
)

// fermat3 asserts x³ + y³ = z³ over positive integers: unsatisfiable
// (Euler), but far beyond Z3's nonlinear integer reasoning, so a check
// runs until it is stopped.
func fermat3(c *Context) []*Term {
	x, y, z := c.IntConst("x"), c.IntConst("y"), c.IntConst("z")
	cube := func(v *Term) *Term { return c.Mul(v, v, v) }
	one := c.Int(1)
	return []*Term{x.Ge(one), y.Ge(one), z.Ge(one), cube(x).Add(cube(y)).Eq(cube(z))}
}

// factor asserts that p·q is the product of two 31-bit primes, p ≤ q,
// both above 1: a 128-bit multiplier that bit-blasting cannot invert in
// reasonable time.
func factor(c *Context) []*Term {
	p, q := c.BVConst("p", 64), c.BVConst("q", 64)
	n := uint64(2147483647) * uint64(2147483629)
	return []*Term{
		p.ZeroExt(64).BVMul(q.ZeroExt(64)).Eq(c.BV(n, 128)),
		p.BVUGt(c.BV(1, 64)), q.BVUGt(c.BV(1, 64)), p.BVULe(q),
	}
}

func TestModelValues(t *testing.T) {
	c := newCtx(t)
	x, y, big1 := c.IntConst("x"), c.RealConst("y"), c.IntConst("big")
	p, b := c.BoolConst("p"), c.BVConst("b", 16)
	two100 := new(big.Int).Lsh(big.NewInt(1), 100)
	s := wantResult(t, c, Sat,
		x.Mul(c.Int(3)).Eq(c.Int(-21)),
		y.Mul(c.Real(3, 1)).Eq(c.Real(1, 1)),
		big1.Eq(c.BigInt(two100).Add(c.Int(1))),
		p.Iff(x.Lt(c.Int(0))),
		b.Eq(c.BV(0xabcd, 16)),
	)
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	if v, err := m.Int64(x); err != nil || v != -7 {
		t.Errorf("x = %d, %v; want -7", v, err)
	}
	if v, err := m.Rat(y); err != nil || v.Cmp(big.NewRat(1, 3)) != 0 {
		t.Errorf("y = %v, %v; want 1/3", v, err)
	}
	want := new(big.Int).Add(two100, big.NewInt(1))
	if v, err := m.Int(big1); err != nil || v.Cmp(want) != 0 {
		t.Errorf("big = %v, %v; want %v", v, err, want)
	}
	if _, err := m.Int64(big1); err == nil {
		t.Error("Int64 of 2^100+1 gave no error")
	}
	if v, err := m.Bool(p); err != nil || !v {
		t.Errorf("p = %v, %v; want true", v, err)
	}
	if v, err := m.Uint64(b); err != nil || v != 0xabcd {
		t.Errorf("b = %#x, %v; want 0xabcd", v, err)
	}
	// A term over the model's constants, evaluated.
	if v, err := m.Int64(x.Mul(x).Add(c.Int(1))); err != nil || v != 50 {
		t.Errorf("x*x+1 = %d, %v; want 50", v, err)
	}
	// Without completion, a constant the model does not mention stays
	// symbolic; with completion it gets a value.
	free := c.IntConst("free")
	if v, err := m.Eval(free, false); err != nil || v.String() != "free" {
		t.Errorf("Eval(free, false) = %v, %v; want the constant itself", v, err)
	}
	if _, err := m.Int64(free); err != nil {
		t.Errorf("Eval(free, true) gave no value: %v", err)
	}
	// The model's constants, listed.
	decls, err := m.Consts()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, d := range decls {
		names[d.Name()] = true
		if v, err := m.ConstValue(d); err != nil || v.Err() != nil {
			t.Errorf("ConstValue(%s) = %v, %v", d.Name(), v, err)
		}
	}
	for _, n := range []string{"x", "y", "big", "p", "b"} {
		if !names[n] {
			t.Errorf("model constants %v lack %s", names, n)
		}
	}
}

func TestPushPop(t *testing.T) {
	c := newCtx(t)
	s, err := c.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	x := c.IntConst("x")
	ctx := context.Background()
	s.Assert(x.Gt(c.Int(0)))
	if err := s.Push(); err != nil {
		t.Fatal(err)
	}
	s.Assert(x.Lt(c.Int(0)))
	if r, _ := s.Check(ctx); r != Unsat {
		t.Fatalf("x>0, x<0: %v, want unsat", r)
	}
	if s.NumScopes() != 1 {
		t.Errorf("NumScopes = %d, want 1", s.NumScopes())
	}
	if err := s.Pop(1); err != nil {
		t.Fatal(err)
	}
	if r, _ := s.Check(ctx); r != Sat {
		t.Fatalf("after pop: %v, want sat", r)
	}
	if err := s.Pop(1); err == nil {
		t.Error("popping a scope that is not open gave no error")
	}
	as, err := s.Assertions()
	if err != nil || len(as) != 1 {
		t.Errorf("Assertions = %v, %v; want one", as, err)
	}
	p := c.BoolConst("p")
	s.Assert(p.Implies(x.Lt(c.Int(0))))
	if r, _ := s.CheckAssumptions(ctx, p); r != Unsat {
		t.Errorf("assuming p: %v, want unsat", r)
	}
	if r, _ := s.CheckAssumptions(ctx, p.Not()); r != Sat {
		t.Errorf("assuming not p: %v, want sat", r)
	}
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	if as, _ := s.Assertions(); len(as) != 0 {
		t.Errorf("after Reset: %d assertions", len(as))
	}
	if _, err := s.Model(); err != nil {
		// After Reset there is no check and no model: an error, not a crash.
		t.Logf("Model after Reset: %v", err)
	}
}

func TestTimeoutGivesUnknown(t *testing.T) {
	// Repeated, because the failure this guards against was intermittent:
	// Z3's own timer (its "timeout" parameter) deadlocked about one check
	// in forty in Z3 4.8.12.
	for range 10 {
		c := newCtx(t)
		s, _ := c.NewSolver()
		s.Assert(fermat3(c)...)
		if err := s.SetTimeout(100 * time.Millisecond); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		r, err := s.Check(context.Background())
		el := time.Since(start)
		if r != Unknown || err != nil || s.ReasonUnknown() != "timeout" {
			t.Fatalf("Check = %v, %v, reason %q; want unknown, nil, timeout", r, err, s.ReasonUnknown())
		}
		if el > 5*time.Second {
			t.Errorf("a 100ms timeout took %v", el)
		}
		c.Close()
	}
	if err := (&Solver{}).SetTimeout(time.Second); err == nil {
		t.Error("SetTimeout on a zero Solver gave no error")
	}

	// The context-wide default applies to new solvers.
	c2 := newCtx(t, WithTimeout(100*time.Millisecond))
	s2, _ := c2.NewSolver()
	s2.Assert(fermat3(c2)...)
	if r, err := s2.Check(context.Background()); r != Unknown || err != nil || s2.ReasonUnknown() != "timeout" {
		t.Fatalf("with a context timeout: %v, %v, %q; want unknown, timeout", r, err, s2.ReasonUnknown())
	}
	if err := s2.SetTimeout(-time.Second); err == nil {
		t.Error("a negative timeout gave no error")
	}
	// The caller's deadline, when shorter, is reported as the caller's.
	dctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	s2.SetTimeout(time.Hour)
	if r, err := s2.Check(dctx); r != Unknown || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("caller's deadline: %v, %v", r, err)
	}
	// And the solver still answers easy queries.
	s2.Reset()
	s2.Assert(c2.IntConst("x").Gt(c2.Int(1)))
	if r, _ := s2.Check(context.Background()); r != Sat {
		t.Errorf("easy query after a timeout: %v", r)
	}
}

func TestCancellation(t *testing.T) {
	c := newCtx(t)
	s, _ := c.NewSolver()
	s.Assert(factor(c)...)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	r, err := s.Check(ctx)
	el := time.Since(start)
	if r != Unknown || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Check = %v, %v; want unknown, context.Canceled", r, err)
	}
	t.Logf("returned %v after the start, reason %q", el, s.ReasonUnknown())
	if el > 2*time.Second {
		t.Errorf("cancellation after 100ms took %v", el)
	}

	// A deadline works the same way.
	dctx, dcancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer dcancel()
	if r, err := s.Check(dctx); r != Unknown || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Check past its deadline = %v, %v", r, err)
	}

	// An already cancelled context does not start the check.
	if r, err := s.Check(ctx); r != Unknown || !errors.Is(err, context.Canceled) {
		t.Errorf("Check with a cancelled context = %v, %v", r, err)
	}

	// Z3 forgets an interrupt that arrives when no check is running (the
	// watching goroutine never sends one then, but the window between Z3
	// finishing and Check noticing it is cleared before Check returns:
	// TestSimplifyAfterLateInterrupt).
	x0 := c.IntConst("x0")
	c.h.interrupt()
	if r, s := solve(t, c, x0.Gt(c.Int(2))); r != Sat {
		t.Fatalf("check after a stray interrupt: %v (%s)", r, s.ReasonUnknown())
	}

	// The interruption does not reach later checks: easy queries checked
	// under contexts cancelled right after (or while) they run still get
	// their answer.
	x := c.IntConst("x")
	e, _ := c.NewSolver()
	e.Assert(x.Gt(c.Int(5)), x.Lt(c.Int(7)))
	for i := range 300 {
		qctx, qcancel := context.WithCancel(context.Background())
		if i%2 == 0 {
			go qcancel()
		}
		r, err := e.Check(qctx)
		qcancel()
		if err != nil && r == Unknown {
			continue // this check itself was cancelled: allowed
		}
		if r != Sat {
			t.Fatalf("query %d: %v, %v", i, r, err)
		}
		if r, err := e.Check(context.Background()); r != Sat || err != nil {
			t.Fatalf("check after query %d: %v, %v (%s)", i, r, err, e.ReasonUnknown())
		}
	}
}

func TestOptions(t *testing.T) {
	if v := Version(); v == "" || v[0] < '4' {
		t.Errorf("Version() = %q", v)
	}
	c := newCtx(t, WithModels(false))
	s, _ := c.NewSolver()
	s.Assert(c.IntConst("x").Gt(c.Int(0)))
	if r, err := s.Check(context.Background()); r != Sat || err != nil {
		t.Fatal(r, err)
	}
	if m, err := s.Model(); err == nil {
		t.Errorf("with models off, Model gave\n%v", m)
	}
	if _, err := NewContext(WithTimeout(-time.Second)); err == nil {
		t.Error("a negative timeout gave no error")
	}
}

// TestSimpleSolver checks that the plain SMT kernel decides, gives models
// and honours its resource limit like the general solver.
func TestSimpleSolver(t *testing.T) {
	c := newCtx(t)
	ctx := context.Background()
	x, y := c.IntConst("x"), c.IntConst("y")
	s, err := c.NewSimpleSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Assert(x.Gt(c.Int(3)), y.Eq(x.Add(c.Int(2))))
	if r, err := s.Check(ctx); r != Sat || err != nil {
		t.Fatalf("x > 3, y = x + 2: %v, %v; want sat", r, err)
	}
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	xi, err1 := m.Int64(x)
	yi, err2 := m.Int64(y)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if xi <= 3 || yi != xi+2 {
		t.Errorf("model x = %d, y = %d", xi, yi)
	}
	m.Close()
	s.Assert(y.Lt(c.Int(5)))
	if r, _ := s.Check(ctx); r != Unsat {
		t.Errorf("with y < 5: %v, want unsat", r)
	}

	// A query past a tiny resource limit is undecided. (Z3 4.8.12's plain
	// kernel gives the reason "unknown", not the general solver's.)
	h, err := c.NewSimpleSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := h.SetResourceLimit(1); err != nil {
		t.Fatal(err)
	}
	a, b := c.IntConst("a"), c.IntConst("b")
	h.Assert(a.Mul(c.Int(3)).Add(b.Mul(c.Int(5))).Eq(c.Int(1_000_003)), a.Gt(b), b.Gt(c.Int(1000)))
	if r, _ := h.Check(ctx); r != Unknown {
		t.Errorf("within 1 resource unit: %v, want unknown", r)
	}
	if err := h.SetResourceLimit(0); err != nil {
		t.Fatal(err)
	}
	if r, _ := h.Check(ctx); r != Sat {
		t.Errorf("without a limit: %v, want sat", r)
	}
}
