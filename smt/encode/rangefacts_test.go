package encode

import (
	"math/big"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

const ranges = `
input Q(i) : u8
tensor St(i) : f32
St(i) = f32(Q(i)) * 0.00390625
tensor Pl(i) : f32
Pl(i) = St(i) * (1.01 - St(i)) * 4
tensor Ct(i) : f32
Ct(i) = min(Pl(i) * Pl(i) * (Pl(i) * Pl(i)), 1)
tensor Uncapped(i) : f32
Uncapped(i) = Pl(i) * Pl(i) * (Pl(i) * Pl(i)) + 2
tensor FromA(i, k) : f32
FromA(i, k) = clamp(A(i, k), 0, 1)
tensor Rec(i) : f32
Rec(i) = select(i > 0, Rec(i - 1) * 0.5, 1.0)
tensor Byte(i) : u8
Byte(i) = u8(Ct(i) * 255)
tensor ByteWide(i) : u8
ByteWide(i) = u8(Ct(i) * 256)
tensor ByteUncapped(i) : u8
ByteUncapped(i) = u8(Uncapped(i) * 255)
`

// TestTensorRange: interval arithmetic bounds a contour, a polynomial of
// a byte's fraction squared twice and capped, in [0, 1] in both models;
// an input float tensor (NaN, infinities) and a recursive tensor have no
// range, nor has a clamp of an input float (conservatively).
func TestTensorRange(t *testing.T) {
	spec, info := loadMatmul(t, ranges)
	for _, model := range []Model{Real, IEEE} {
		e := New(newContext(t), spec, info, model)
		iv, ok := e.TensorRange("Ct")
		if !ok || iv.Lo.Sign() != 0 || iv.Hi.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("%s: range of Ct = %v %v, %v; want [0, 1]", model, iv.Lo, iv.Hi, ok)
		}
		iv, ok = e.TensorRange("St")
		if !ok || iv.Lo.Sign() != 0 || iv.Hi.Cmp(big.NewRat(255, 256)) != 0 {
			t.Errorf("%s: range of St = %v %v, %v; want [0, 255/256]", model, iv.Lo, iv.Hi, ok)
		}
		for _, name := range []string{"A", "FromA", "Rec", "Byte"} {
			if iv, ok := e.TensorRange(name); ok {
				t.Errorf("%s: range of %s = [%v, %v], want none", model, name, iv.Lo, iv.Hi)
			}
		}
	}
}

// TestTruncationFits: a byte of a contour times 255 is defined without the
// solver; times 256 (1 × 256 = 256) or uncapped (up to 2 + (1.01²)⁴ × 255)
// it is not decided so, and the solver finds it undefined.
func TestTruncationFits(t *testing.T) {
	spec, info := loadMatmul(t, ranges)
	for _, model := range []Model{Real, IEEE} {
		e := New(newContext(t), spec, info, model)
		for name, want := range map[string]bool{"Byte": true, "ByteWide": false, "ByteUncapped": false} {
			conv := rhs(t, spec, name).(*syntax.Call)
			if got := e.truncationFits(conv.Args[0], info.Types, syntax.U8); got != want {
				t.Errorf("%s: truncationFits(%s) = %v, want %v", model, name, got, want)
			}
			_, def, err := e.Expr(conv, info.Types, names(e.z), ExprOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if want != def.Simplify().Equal(e.z.True()) {
				t.Errorf("%s: definedness of %s: %v", model, name, def)
			}
			// The facts come with a conversion left to the solver.
			if facts := e.RangeFacts(); (facts == 0) != want || len(e.Axioms()) != facts {
				t.Errorf("%s: %s: %d range facts among %d axioms", model, name, facts, len(e.Axioms()))
			}
			e.ResetUnfoldings()
		}
	}
}
