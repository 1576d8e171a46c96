package encode_test

import (
	"context"
	"fmt"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
)

// A verification condition of matmul's inner loop: for every point of
// { [i, j, k] : 0 <= k < P }, the value the kernel writes,
// R(i, j, k-1) + A(i, k) * B(k, j), equals the annotation R(i, j, k), bit for
// bit. It holds once R may be unfolded into its equations.
func Example() {
	src := `
param N, M, P
assume N >= 1 and M >= 1 and P >= 0
input  A(i, k) : f32
input  B(k, j) : f32
tensor R(i, j, k) : f32
R(i, j, k) = 0                                   where k == -1
R(i, j, k) = R(i, j, k - 1) + A(i, k) * B(k, j)  where 0 <= k < P
# Two expressions to compare, typed by the checker as equations.
tensor Impl(i, j, k) : f32
Impl(i, j, k) = R(i, j, k - 1) + A(i, k) * B(k, j)
tensor Spec(i, j, k) : f32
Spec(i, j, k) = R(i, j, k)
`
	spec, info, err := sare.Load(&syntax.Source{Name: "vc.sare", Text: src})
	if err != nil {
		fmt.Println(err)
		return
	}
	z, err := smt.NewContext()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer z.Close()
	e := encode.New(z, spec, info, encode.IEEE)

	// Every index name is an Int constant of the same name.
	idx := func(name string) (*smt.Term, bool) { return z.IntConst(name), true }
	opts := encode.ExprOptions{Unfold: func(t string) bool { return t == "R" }}
	impl, implDef, err := e.Expr(spec.Tensor("Impl").Eqs[0].RHS, info.Types, idx, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	want, wantDef, err := e.Expr(spec.Tensor("Spec").Eqs[0].RHS, info.Types, idx, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	eq, err := e.Equal(impl, want, syntax.F32)
	if err != nil {
		fmt.Println(err)
		return
	}

	// The points, with the parameter P: asserted positively, as Set requires.
	points, err := presburger.ParseSet("[P] -> { [i, j, k] : 0 <= k < P }")
	if err != nil {
		fmt.Println(err)
		return
	}
	in, err := e.Set(points, idx, []*smt.Term{z.IntConst("i"), z.IntConst("j"), z.IntConst("k")})
	if err != nil {
		fmt.Println(err)
		return
	}

	s, err := z.NewSolver()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	// A counterexample is a point where the two differ or one is undefined.
	if err := s.Assert(in, z.And(implDef, wantDef, eq).Not()); err != nil {
		fmt.Println(err)
		return
	}
	r, err := s.Check(context.Background())
	fmt.Println(r, err)
	// Output: unsat <nil>
}
