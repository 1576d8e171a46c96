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
