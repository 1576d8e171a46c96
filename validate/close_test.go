package validate

import (
	"errors"
	"testing"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/smt/encode"
)

// TestCloseDeepUnfolding: once a condition is decided, its context is
// deleted with the references of its terms, held by the encoder (a scan
// of 300 steps unfolded into its definitions), given back first: Z3
// deletes the terms still referenced in rounds, one level of their graph
// a round, each over all of them (48 s of CPU for hist's output). The
// solver's wrappers hold nothing after close, and the context is gone.
func TestCloseDeepUnfolding(t *testing.T) {
	v, x, types := scanValidation(t, Unlimited)
	s, err := newSolver(v)
	if err != nil {
		t.Fatal(err)
	}
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
