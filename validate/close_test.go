package validate

import (
	"context"
	"errors"
	"testing"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
)

// TestCloseDeepUnfolding: once a condition is decided, its context is
// deleted with the references of its terms, held by the encoder (a scan
// of 300 steps unfolded into its definitions), given back first: Z3
// deletes the terms still referenced in rounds, one level of their graph
// a round, each over all of them (48 s of CPU for hist's output). The
// solver's wrappers hold nothing after close, and the context is gone.
func TestCloseDeepUnfolding(t *testing.T) {
	spec := `param N
assume N >= 1
input A(i) : f32
tensor C(i) : f32
C(i) = A(0) where i == 0
C(i) = C(i - 1) + A(i) where i >= 1
output C
`
	prog := `kernel k(N)
assume N >= 1
in  a[i] : f32[N] = A(i)
out c[i] : f32[N] = C(i)
{
  for i < N {
    c[i] {C(i)} := a[i]
  }
}
`
	in, errs := loadInput(&syntax.Source{Name: "s.sare", Text: spec}, &syntax.Source{Name: "k.sched", Text: prog})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	sh := &shared{ctx: context.Background()}
	sh.opts.defaults()
	v := newValidation(sh, analysed{in: in}, nil)
	s, err := newSolver(v)
	if err != nil {
		t.Fatal(err)
	}
	x := &syntax.Call{Fun: &syntax.Ident{Name: "C"}, Args: []syntax.Expr{&syntax.Lit{Kind: syntax.IntLiteral, Text: "300"}}}
	types := map[syntax.Expr]syntax.Type{x: syntax.F32, x.Args[0]: syntax.I32}
	all := encode.ExprOptions{Unfold: func(string) bool { return true }, Axioms: true, Depth: 512}
	if _, _, err := s.enc.Expr(x, types, nil, all); err != nil {
		t.Fatal(err)
	}
	held := s.z.Held()
	if held < 600 {
		t.Fatalf("the unfolding holds %d references, want more than 2 a step", held)
	}
	s.close()
	if left := s.z.Held(); left != 0 {
		t.Errorf("%d references of %d left after close", left, held)
	}
	if err := s.z.IntConst("x").Err(); !errors.Is(err, smt.ErrClosed) {
		t.Errorf("a term made after close: %v, want smt.ErrClosed", err)
	}
}
