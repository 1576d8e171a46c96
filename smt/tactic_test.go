package smt

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"
)

// TestTacticString checks the SMT-LIB2 syntax of tactics.
func TestTacticString(t *testing.T) {
	tac := Then(NamedTactic("simplify"), OrElse(NamedTactic("bit-blast"), NamedTactic("skip")), NamedTactic("smt").With("arith.solver", 6).With("random_seed", 0))
	want := "(then simplify (or-else bit-blast skip) (using-params smt :arith.solver 6 :random_seed 0))"
	if got := tac.String(); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestSolverFromTactic decides a bit-vector query by a bit-blasting
// tactic, a satisfiable one with a model, and reports a tactic Z3 does not
// know.
func TestSolverFromTactic(t *testing.T) {
	c := newCtx(t, WithModels(true))
	x := c.BVConst("x", 16)
	qfbv := Then(NamedTactic("simplify"), NamedTactic("propagate-values"), NamedTactic("solve-eqs"), NamedTactic("bit-blast"), NamedTactic("sat"))
	// x * 3 == x + x + x for every x: its negation is unsatisfiable.
	s, err := c.NewSolverFromTactic(qfbv)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Assert(x.BVMul(c.BV(3, 16)).Ne(x.BVAdd(x).BVAdd(x))); err != nil {
		t.Fatal(err)
	}
	if err := s.SetResourceLimit(1_000_000); err != nil {
		t.Fatal(err)
	}
	if res, err := s.Check(context.Background()); err != nil || res != Unsat {
		t.Errorf("got %s, %v; want unsat", res, err)
	}
	if s.ResourcesUsed() == 0 {
		t.Errorf("no resource units counted")
	}
	s2, err := c.NewSolverFromTactic(qfbv)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if err := s2.Assert(x.BVMul(c.BV(3, 16)).Eq(c.BV(9, 16))); err != nil {
		t.Fatal(err)
	}
	if res, err := s2.Check(context.Background()); err != nil || res != Sat {
		t.Fatalf("got %s, %v; want sat", res, err)
	}
	m, err := s2.Model()
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if v, err := m.Uint64(x); err != nil || v != 3 {
		t.Errorf("x = %v, want 3", v)
	}
	if _, err := c.NewSolverFromTactic(NamedTactic("no-such-tactic")); err == nil || !strings.Contains(err.Error(), "no-such-tactic") {
		t.Errorf("unknown tactic: err %v", err)
	}
}

// TestTacticResourceLimit checks that a tactic's solver stops at its
// resource limit with the reason that says so.
func TestTacticResourceLimit(t *testing.T) {
	c := newCtx(t)
	x, y := c.BVConst("x", 64), c.BVConst("y", 64)
	// Factoring a 64-bit number: far beyond a few thousand units.
	s, err := c.NewSolverFromTactic(Then(NamedTactic("simplify"), NamedTactic("bit-blast"), NamedTactic("sat")))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	one := c.BV(1, 64)
	if err := s.Assert(x.BVMul(y).Eq(c.BV(0xfffffffb_00000005, 64)), x.BVUGt(one), y.BVUGt(one), x.BVULt(c.BV(1<<32, 64)), y.BVULt(c.BV(1<<32, 64))); err != nil {
		t.Fatal(err)
	}
	if err := s.SetResourceLimit(5000); err != nil {
		t.Fatal(err)
	}
	res, err := s.Check(context.Background())
	if err != nil || res != Unknown {
		t.Fatalf("got %s, %v; want unknown", res, err)
	}
	if why := s.ReasonUnknown(); why != ReasonResourceLimit {
		t.Errorf("reason %q, want %q", why, ReasonResourceLimit)
	}
}

// TestBoundedToBVExact checks that BoundedToBV translates bounded integer
// and real arithmetic exactly: at each value of a byte, the translation
// of each term equals the value computed in Go, and differs from any
// other (Euclidean div and mod by negative and positive numerals, floors
// of halves and quarters, int2bv of a product, comparisons at different
// scales).
func TestBoundedToBVExact(t *testing.T) {
	c := newCtx(t)
	x := c.BVConst("x", 8)
	sx := x.BVToInt(true) // in [-128, 127]
	rx := sx.ToReal()
	type tc struct {
		name string
		term *Term
		want func(v int64) int64
	}
	euclid := func(a, d int64) (int64, int64) {
		q, r := new(big.Int).DivMod(big.NewInt(a), big.NewInt(d), new(big.Int))
		return q.Int64(), r.Int64()
	}
	cases := []tc{
		{"(3x - 7) div -5", sx.Mul(c.Int(3)).Sub(c.Int(7)).Div(c.Int(-5)), func(v int64) int64 { q, _ := euclid(3*v-7, -5); return q }},
		{"x mod -6", sx.Mod(c.Int(-6)), func(v int64) int64 { _, r := euclid(v, -6); return r }},
		{"to_int(x / 4)", rx.Mul(c.Real(1, 4)).ToInt(), func(v int64) int64 { q, _ := euclid(v, 4); return q }},
		{"to_int(x * -0.5 + 1/8)", rx.Mul(c.Real(-1, 2)).Add(c.Real(1, 8)).ToInt(), func(v int64) int64 {
			// floor((-4v + 1) / 8)
			q, _ := euclid(-4*v+1, 8)
			return q
		}},
		{"ite(x >= 1/2, x * x, -x)", rx.Ge(c.Real(1, 2)).Ite(sx.Mul(sx), sx.Neg()), func(v int64) int64 {
			if v >= 1 {
				return v * v
			}
			return -v
		}},
	}
	for _, k := range cases {
		for _, v := range []int64{-128, -127, -9, -5, -1, 0, 1, 3, 8, 127} {
			want := k.want(v)
			xv := c.BV(uint64(v)&0xff, 8)
			for _, eq := range []bool{true, false} {
				f := k.term.Eq(c.Int(want))
				if !eq {
					f = f.Not()
				}
				abs, kept, err := c.BoundedToBV(x.Eq(xv), f)
				if err != nil {
					t.Fatal(err)
				}
				if kept == 0 || abs.Replaced != 0 {
					t.Fatalf("%s: kept %d, replaced %d; want all kept", k.name, kept, abs.Replaced)
				}
				s, err := c.NewSolverFromTactic(Then(NamedTactic("simplify"), NamedTactic("bit-blast"), NamedTactic("sat")))
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Assert(abs.Terms...); err != nil {
					t.Fatal(err)
				}
				res, err := s.Check(context.Background())
				s.Close()
				if wantRes := map[bool]Result{true: Sat, false: Unsat}[eq]; err != nil || res != wantRes {
					t.Errorf("%s at x = %d, equal to %d: %v: %s, %v; want %s", k.name, v, want, eq, res, err, wantRes)
				}
			}
		}
	}
}

// TestBoundedToBVAbstracts checks what BoundedToBV leaves to the
// abstraction: an unbounded index, an application of a function to it, a
// real numeral whose denominator is not a power of two; and that int2bv of
// a bounded sum is its low bits.
func TestBoundedToBVAbstracts(t *testing.T) {
	c := newCtx(t)
	i := c.IntConst("i")
	b := c.FuncDecl("B", []*Sort{c.IntSort()}, c.BVSort(8)).Apply(i)
	bi := b.BVToInt(false)
	third := bi.ToReal().Mul(c.Real(1, 3)).ToInt()
	// (_ int2bv 8)(B(i) + 256) is B(i); i >= 0 and a third of B(i) below
	// 100 are abstracted.
	terms := []*Term{i.Ge(c.Int(0)), third.Lt(c.Int(100)), bi.Add(c.Int(256)).ToBV(8).Ne(b)}
	abs, kept, err := c.BoundedToBV(terms...)
	if err != nil {
		t.Fatal(err)
	}
	if kept == 0 || abs.Replaced != 3 || !abs.Bits {
		t.Errorf("kept %d, replaced %d (B(i), i >= 0, the third), bits %v; want > 0, 3, true", kept, abs.Replaced, abs.Bits)
	}
	s, err := c.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Assert(abs.Terms...); err != nil {
		t.Fatal(err)
	}
	if res, err := s.Check(context.Background()); err != nil || res != Unsat {
		t.Errorf("got %s, %v; want unsat", res, err)
	}
}

// TestTranslate copies a query into another context, where it is decided
// alike, and rejects terms of two contexts.
func TestTranslate(t *testing.T) {
	src, dst := newCtx(t), newCtx(t)
	x := src.BVConst("x", 8)
	f := x.BVAdd(x).Ne(x.BVMul(src.BV(2, 8)))
	ts, err := dst.Translate(f)
	if err != nil {
		t.Fatal(err)
	}
	s, err := dst.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Assert(ts...); err != nil {
		t.Fatal(err)
	}
	if res, err := s.Check(context.Background()); err != nil || res != Unsat {
		t.Errorf("got %s, %v; want unsat", res, err)
	}
	if _, err := dst.Translate(f, dst.BoolConst("b")); err == nil {
		t.Errorf("terms of two contexts translated without error")
	}
}

// TestTacticSolverInterrupted checks that cancelling the context of a
// check by a tactic's solver stops the tactic (Z3_interrupt reaches it):
// the check returns context.Canceled, without abandoning the context.
func TestTacticSolverInterrupted(t *testing.T) {
	c := newCtx(t)
	s, err := c.NewSolverFromTactic(Then(NamedTactic("simplify"), NamedTactic("solve-eqs"), NamedTactic("bit-blast"), NamedTactic("sat")))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Assert(factor(c)...); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(300 * time.Millisecond)
		cancel()
	}()
	res, err := s.Check(ctx)
	if res != Unknown || !errors.Is(err, context.Canceled) {
		t.Fatalf("Check = %v, %v; want unknown, context.Canceled", res, err)
	}
	if c.Abandoned() {
		t.Fatal("the check was abandoned")
	}
}
