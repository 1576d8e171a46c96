package smt_test

import (
	"context"
	"fmt"

	"github.com/augur-verify/augur/smt"
)

// Incrementing an 8-bit integer can make it smaller; incrementing a
// mathematical integer cannot.
func Example() {
	c, err := smt.NewContext()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	s, err := c.NewSolver()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()

	x := c.BVConst("x", 8)
	s.Push()
	s.Assert(x.BVAdd(c.BV(1, 8)).BVULt(x))
	r, _ := s.Check(context.Background())
	m, _ := s.Model()
	v, _ := m.Uint64(x)
	fmt.Println("bv8:", r, "x =", v)
	s.Pop(1)

	n := c.IntConst("n")
	s.Assert(n.Add(c.Int(1)).Lt(n))
	r, _ = s.Check(context.Background())
	fmt.Println("int:", r)
	// Output:
	// bv8: sat x = 255
	// int: unsat
}

// A Float32 sum rounds as Go's float32 arithmetic does.
func ExampleTerm_FPAdd() {
	c, _ := smt.NewContext()
	defer c.Close()
	sum := c.Float32(0.1).FPAdd(smt.RNE, c.Float32(0.2))
	v, _ := sum.Simplify().Float32Value()
	fmt.Println(v == float32(0.1)+float32(0.2), v == 0.3)
	d, _ := c.Float64(0.1).FPAdd(smt.RNE, c.Float64(0.2)).Simplify().Float64Value()
	fmt.Println(d, d == 0.3)
	// Output:
	// true true
	// 0.30000000000000004 false
}
