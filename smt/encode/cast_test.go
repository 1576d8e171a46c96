package encode

import (
	"math"
	"testing"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// TestIndexCastSymbolic: t(i) for a symbolic index i, fixed by an assertion
// rather than folded, is value.FromIndex in the IEEE model.
func TestIndexCastSymbolic(t *testing.T) {
	z, e, s := newEncoder(t, IEEE)
	i := z.IntConst("i")
	idx := func(name string) (*smt.Term, bool) { return i, name == "i" }
	for _, n := range []int64{0, -1, 255, -129, 1<<24 + 1, -(1<<24 + 3), 1<<53 + 1, math.MaxInt64, math.MinInt64} {
		for _, typ := range allTypes {
			x := &syntax.Call{Fun: &syntax.Ident{Name: typ.String()}, Args: []syntax.Expr{&syntax.Ident{Name: "i"}}}
			types := map[syntax.Expr]syntax.Type{x: typ}
			val, def, err := e.Expr(x, types, idx, ExprOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want, err := value.FromIndex(typ, n)
			if err != nil {
				t.Fatal(err)
			}
			k, err := e.constant(want)
			if err != nil {
				t.Fatal(err)
			}
			eq, _ := e.Equal(val, k, typ)
			if r := check(t, s, i.Eq(z.Int(n)), def.And(eq).Not()); r != smt.Unsat {
				t.Errorf("%s(%d) is not %#v: %v", typ, n, want, r)
			}
		}
	}
}

// TestReinterpret: bit casts in both models. In IEEE, fast_exp's 2^k built
// from its bits is proved equal to the same bits built by a product, a
// wrong shift or a wrong bit pattern is refuted, and bits of a float are
// undefined at NaN (so that not even the same expression is proved
// defined). In Real, the same bit cast of equal arguments is equal, and
// nothing else about it is proved.
func TestReinterpret(t *testing.T) {
	spec, info := loadMatmul(t, `
input I(i) : i32
tensor Shl(i) : f32
Shl(i) = reinterpret_f32(clamp(I(i) + 127, 0, 255) << 23)
tensor Mul(i) : f32
Mul(i) = reinterpret_f32(clamp(I(i) + 127, 0, 255) * 8388608)
tensor Shl22(i) : f32
Shl22(i) = reinterpret_f32(clamp(I(i) + 127, 0, 255) << 22)
tensor One() : f32
One() = 1.0
tensor OneBits() : f32
OneBits() = reinterpret_f32(1065353216)
tensor WrongBits() : f32
WrongBits() = reinterpret_f32(1065353217)
tensor Bits(i) : u32
Bits(i) = reinterpret_u32(A(i, i))
tensor SameBits(i) : u32
SameBits(i) = reinterpret_u32(A(i, i))
tensor BitsI(i) : u32
BitsI(i) = u32(reinterpret_i32(A(i, i)))
tensor RoundTrip(i) : i32
RoundTrip(i) = reinterpret_i32(reinterpret_f32(I(i) & 1073741823))
tensor NotNaN(i) : i32
NotNaN(i) = I(i) & 1073741823
tensor MaybeNaN(i) : i32
MaybeNaN(i) = reinterpret_i32(reinterpret_f32(I(i)))
tensor Same(i) : i32
Same(i) = I(i)
`)
	type pair struct {
		a, b string
		want map[Model]smt.Result
	}
	both := func(r smt.Result) map[Model]smt.Result { return map[Model]smt.Result{IEEE: r, Real: r} }
	for _, p := range []pair{
		{"Shl", "Mul", both(smt.Unsat)},
		{"Shl", "Shl22", both(smt.Sat)},
		{"OneBits", "One", map[Model]smt.Result{IEEE: smt.Unsat, Real: smt.Sat}},
		{"WrongBits", "One", both(smt.Sat)},
		{"Bits", "SameBits", map[Model]smt.Result{IEEE: smt.Sat, Real: smt.Unsat}},
		{"Bits", "BitsI", map[Model]smt.Result{IEEE: smt.Sat, Real: smt.Unsat}},
		// Bits with bit 30 clear are no NaN: they round trip in IEEE;
		// any bits may be a NaN's, whose bits are undefined. Real knows
		// nothing of the round trip.
		{"RoundTrip", "NotNaN", map[Model]smt.Result{IEEE: smt.Unsat, Real: smt.Sat}},
		{"MaybeNaN", "Same", both(smt.Sat)},
	} {
		for _, model := range []Model{IEEE, Real} {
			e := New(newContext(t), spec, info, model)
			r := proves(t, e, spec, info, "true", p.a, p.b, ExprOptions{})
			// A satisfiable IEEE query may run out of its time limit:
			// not proved is what matters (notProved).
			if r != p.want[model] && !(p.want[model] == smt.Sat && notProved(model, r)) {
				t.Errorf("%v: %s = %s: %v, want %v", model, p.a, p.b, r, p.want[model])
			}
		}
	}
}
