package smt

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"
)

// TestMisuseGivesErrors drives every kind of misuse the package can see
// and checks that each gives an error and none crashes the process.
func TestMisuseGivesErrors(t *testing.T) {
	c := newCtx(t)
	other := newCtx(t)
	x, b8 := c.IntConst("x"), c.BVConst("b", 8)
	var nilTerm *Term
	cases := []struct {
		name string
		t    *Term
	}{
		{"int+bv", x.Add(b8)},
		{"bvadd widths", b8.BVAdd(c.BVConst("w", 16))},
		{"fp on ints", x.FPAdd(RNE, x)},
		{"bad rounding mode", c.Float32(1).FPAdd(RoundingMode(9), c.Float32(2))},
		{"extract beyond width", b8.Extract(12, 3)},
		{"extract lo > hi", b8.Extract(2, 3)},
		{"ite on int condition", x.Ite(x, x)},
		{"not of int", x.Not()},
		{"foreign operand", x.Add(other.IntConst("y"))},
		{"nil operand", x.Add(nil)},
		{"nil receiver", nilTerm.Add(x)},
		{"nil receiver unary", nilTerm.Not()},
		{"nil sort", c.Const("k", nil)},
		{"foreign sort", c.Const("k", other.IntSort())},
		{"bv width 0", c.BVConst("z", 0)},
		{"float sort too small", c.Const("f", c.FloatSort(1, 1))},
		{"float bits too wide", c.FloatBits(bigOne(40), c.Float32Sort())},
		{"float bits of int sort", c.FloatBits(bigOne(3), c.IntSort())},
		{"empty distinct", c.Distinct()},
		{"empty add", c.Add()},
		{"real 1/0", c.Real(1, 0)},
		{"apply nil decl", (*FuncDecl)(nil).Apply(x)},
		{"quantify over numeral", c.Forall([]*Term{c.Int(1)}, c.True())},
		{"quantify over nothing", c.Exists(nil, c.True())},
		{"bad pattern", c.Forall([]*Term{x}, c.True(), c.Pattern())},
		{"to_fp of bv of wrong width", b8.BVToFP(c.Float32Sort())},
	}
	for _, tc := range cases {
		if tc.t == nil {
			t.Errorf("%s: nil term", tc.name)
			continue
		}
		if tc.t.Err() == nil {
			t.Errorf("%s: built %v without error", tc.name, tc.t)
			continue
		}
		if s := tc.t.String(); !strings.HasPrefix(s, "<error") {
			t.Errorf("%s: String() = %q", tc.name, s)
		}
	}

	s, _ := c.NewSolver()
	if err := s.Assert(x); err == nil {
		t.Error("asserting an integer gave no error")
	}
	if err := s.Assert(c.BoolConst("p")); err != nil {
		t.Fatal(err)
	}
	s2, _ := c.NewSolver()
	s2.Assert(c.False())
	if r, _ := s2.Check(context.Background()); r != Unsat {
		t.Fatal(r)
	}
	if _, err := s2.Model(); err == nil {
		t.Error("Model after unsat gave no error")
	}
	sum := c.RecFuncDecl("s", []*Sort{c.IntSort()}, c.IntSort())
	if err := c.DefineRec(sum, []*Term{x, c.IntConst("y")}, x); err == nil {
		t.Error("DefineRec with two parameters for one argument gave no error")
	}
	if err := c.DefineRec(sum, []*Term{c.Int(0)}, x); err == nil {
		t.Error("DefineRec with a numeral parameter gave no error")
	}
	if err := c.DefineRec(sum, []*Term{x}, c.True()); err == nil {
		t.Error("DefineRec with a boolean body for an Int function gave no error")
	}
	if _, err := c.NewSolverForLogic(""); err == nil {
		t.Error("empty logic gave no error")
	}

	// After all that, the context still works.
	wantResult(t, c, Sat, x.Gt(c.Int(1)))

	// A closed solver, and a closed context, give errors.
	s.Close()
	if err := s.Assert(c.True()); err == nil {
		t.Error("Assert on a closed solver gave no error")
	}
	s.Close() // idempotent
	c.Close()
	if x.Add(x).Err() != ErrClosed {
		t.Errorf("building on a closed context: %v", x.Add(x).Err())
	}
	if _, err := s2.Check(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("Check on a closed context: %v", err)
	}
	if _, err := c.NewSolver(); !errors.Is(err, ErrClosed) {
		t.Errorf("NewSolver on a closed context: %v", err)
	}
	if got := x.String(); !strings.Contains(got, "closed") {
		t.Errorf("String on a closed context: %q", got)
	}
	c.Close() // idempotent
}

// TestZeroValues uses the zero value of every exported type: errors, never
// a crash.
func TestZeroValues(t *testing.T) {
	var (
		c  Context
		tm Term
		so Sort
		f  FuncDecl
		p  Pattern
		s  Solver
		m  Model
	)
	good := newCtx(t)
	if _, err := c.NewSolver(); err == nil {
		t.Error("NewSolver on a zero Context gave no error")
	}
	if c.IntConst("x").Err() == nil || tm.Not().Err() == nil || tm.Add(good.Int(1)).Err() == nil {
		t.Error("building on zero values gave no error")
	}
	if good.Int(1).Add(&tm).Err() == nil || good.Const("k", &so).Err() == nil || f.Apply().Err() == nil {
		t.Error("zero operands gave no error")
	}
	if good.Forall([]*Term{good.IntConst("x")}, good.True(), &p).Err() == nil {
		t.Error("a zero pattern gave no error")
	}
	if err := good.DefineRec(&f, nil, good.True()); err == nil {
		t.Error("defining a zero declaration gave no error")
	}
	if _, err := s.Check(context.Background()); err == nil {
		t.Error("Check on a zero Solver gave no error")
	}
	if _, err := m.Eval(good.True(), true); err == nil {
		t.Error("Eval on a zero Model gave no error")
	}
	_ = tm.String() + so.String() + f.String() + s.String() + m.String()
	s.Close()
	m.Close()
	c.Close()
	c.ReleaseUnused()
}

func bigOne(shift uint) *big.Int { return new(big.Int).Lsh(big.NewInt(1), shift) }
