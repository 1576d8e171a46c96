package smt

import (
	"context"
	"testing"
)

// TestAbstractArith checks the abstraction of a query mixing indices and
// bit-vectors: applications of a function to one index become one
// constant, a comparison of indices a boolean constant, and the result
// is a formula over bit-vectors alone that Z3 proves unsatisfiable.
func TestAbstractArith(t *testing.T) {
	c := newCtx(t)
	i := c.IntConst("i")
	a := c.FuncDecl("A", []*Sort{c.IntSort()}, c.BVSort(16))
	ai := a.Apply(i)
	wide := ai.SignExt(16)
	seven := c.BV(7, 32)
	// (sext(A(i)) / 7) * 7 + sext(A(i)) % 7 is sext(A(i)) (bvsdiv and
	// bvsrem truncate alike), at every i >= 0.
	q := wide.BVSDiv(seven).BVMul(seven).BVAdd(wide.BVSRem(seven))
	terms := []*Term{i.Ge(c.Int(0)), q.Ne(a.Apply(i).SignExt(16))}
	abs, err := c.AbstractArith(terms...)
	if err != nil {
		t.Fatal(err)
	}
	if abs.Replaced != 2 || !abs.Bits || abs.Functions || abs.Floats {
		t.Errorf("replaced %d, bits %v, functions %v, floats %v; want 2, true, false, false", abs.Replaced, abs.Bits, abs.Functions, abs.Floats)
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
		t.Errorf("abstraction: %s, %v; want unsat", res, err)
	}
	if _, err := c.AbstractArith(i.Add(c.Int(1))); err == nil {
		t.Errorf("an integer term abstracted without error")
	}
}

// TestMentions: Mentions finds a bit-vector subterm and a bv2int however
// deep, and neither in integer and real arithmetic with uninterpreted
// functions; where it finds no bits, BoundedToBV's abstraction keeps
// none, and where it finds no bv2int, BoundedToBV keeps no arithmetic.
func TestMentions(t *testing.T) {
	c := newCtx(t)
	i, r := c.IntConst("i"), c.RealConst("r")
	f := c.FuncDecl("F", []*Sort{c.IntSort()}, c.RealSort())
	g := c.FuncDecl("G", []*Sort{c.IntSort()}, c.BVSort(8))
	plain := f.Apply(i.Add(c.Int(1))).Lt(r).Or(i.Ge(c.Int(3)))
	withBits := plain.And(g.Apply(i).Eq(c.BV(3, 8)))
	withConv := plain.And(g.Apply(i).BVToInt(false).Le(i))
	for _, tc := range []struct {
		name       string
		x          *Term
		bits, conv bool
	}{
		{"plain", plain, false, false},
		{"bits", withBits, true, false},
		{"conversion", withConv, true, true},
	} {
		bits, conv := c.Mentions(c.True(), tc.x)
		if bits != tc.bits || conv != tc.conv {
			t.Errorf("%s: bits %v, conv %v; want %v, %v", tc.name, bits, conv, tc.bits, tc.conv)
		}
		abs, kept, err := c.BoundedToBV(tc.x)
		if err != nil {
			t.Fatal(err)
		}
		if !bits && abs.Bits {
			t.Errorf("%s: no bits seen, but the abstraction keeps some", tc.name)
		}
		if !conv && kept > 0 {
			t.Errorf("%s: no bv2int seen, but the abstraction keeps %d arithmetic terms", tc.name, kept)
		}
	}
}
