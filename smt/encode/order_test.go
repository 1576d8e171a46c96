package encode

import (
	"testing"

	"github.com/augur-verify/augur/smt"
)

// TestOperandOrderIgnoresHistory: the encoding of a sum does not depend on
// which terms the Z3 context made before. Z3's identifiers do (a term made
// earlier, or one taking over a freed term's identifier, gets a smaller
// one), so an operand order by identifier would encode A*B + A*B' one way
// in a fresh context and the other way in one that had made the second
// product before.
func TestOperandOrderIgnoresHistory(t *testing.T) {
	spec, info := loadMatmul(t, `
tensor Sum(i, j) : f32
Sum(i, j) = A(i, 0) * B(0, j) + A(i, 1) * B(1, j)
tensor Second(i, j) : f32
Second(i, j) = A(i, 1) * B(1, j)
`)
	encodeSum := func(z *smt.Context, e *Encoder) string {
		v, _, err := e.Expr(rhs(t, spec, "Sum"), info.Types, names(z), ExprOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return v.String()
	}
	for _, model := range []Model{IEEE, Real} {
		fresh := newContext(t)
		want := encodeSum(fresh, New(fresh, spec, info, model))

		used := newContext(t)
		e := New(used, spec, info, model)
		// The second product, made first, holds the smaller identifier.
		second, _, err := e.Expr(rhs(t, spec, "Second"), info.Types, names(used), ExprOptions{})
		if err != nil {
			t.Fatal(err)
		}
		e.ResetUnfoldings()
		if got := encodeSum(used, e); got != want {
			t.Errorf("%v: after another query the sum encodes as\n%s\nwant, as in a fresh context,\n%s", model, got, want)
		}
		_ = second.String() // kept alive until here
	}
}
