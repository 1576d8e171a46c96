package encode

import (
	"testing"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

const definedness = `
tensor Big() : i32
Big() = i32(f32(3e9))
tensor Small() : i32
Small() = i32(f32(3.7))
tensor NegSmall() : i32
NegSmall() = i32(f32(-3.7))
tensor Edge() : i8
Edge() = i8(f32(-128.9))
tensor Over() : i8
Over() = i8(f32(128.0))
tensor Zero() : u8
Zero() = u8(f64(-0.5))
tensor Prop() : i32
Prop() = select(true, 1, i32(f32(3e9)))
tensor Times() : i32
Times() = i32(f32(3e9)) * 0
tensor NaN() : i32
NaN() = i32(f32(0.0) / f32(0.0))
tensor Sym(i, k) : i32
Sym(i, k) = i32(A(i, k))
`

// TestDefinedness: float-to-integer casts out of range are undefined in both
// models, and so is everything computed from them.
func TestDefinedness(t *testing.T) {
	spec, info := loadMatmul(t, definedness)
	for _, model := range []Model{IEEE, Real} {
		z := newContext(t)
		e := New(z, spec, info, model)
		m := emptyModel(t, z)
		for name, want := range map[string]value.Value{
			"Big": {}, "Small": value.Int(syntax.I32, 3), "NegSmall": value.Int(syntax.I32, -3),
			"Edge": value.Int(syntax.I8, -128), "Over": {}, "Zero": value.Int(syntax.U8, 0),
			"Prop": {}, "Times": {}, "NaN": {},
		} {
			if name == "NaN" && model == Real {
				continue // no NaN among the reals: 0/0 is unspecified
			}
			typ := spec.Tensor(name).Type
			val, def, err := e.Expr(rhs(t, spec, name), info.Types, names(z), ExprOptions{})
			if err != nil {
				t.Fatal(err)
			}
			isDef, err := m.Bool(def)
			if err != nil {
				t.Fatal(err)
			}
			got := value.Undef(typ)
			if isDef {
				if got, err = e.Value(m, val, typ); err != nil {
					t.Fatal(err)
				}
			}
			if want.Type() == 0 {
				want = value.Undef(typ)
			}
			if !got.Equal(want) {
				t.Errorf("%v: %s() = %#v, want %#v", model, name, got, want)
			}
		}

		// i32(A(i, k)) is defined exactly when A(i, k) truncates into
		// [-2^31, 2^31): neither always nor never.
		val, def, err := e.Expr(rhs(t, spec, "Sym"), info.Types, names(z), ExprOptions{})
		if err != nil || val == nil {
			t.Fatal(err)
		}
		f, _ := e.Tensor("A")
		a := f.Apply(z.IntConst("i"), z.IntConst("k"))
		var inRange *smt.Term
		if model == IEEE {
			inRange = a.FPGe(z.Float32(-1 << 31)).And(a.FPLt(z.Float32(1 << 31)))
		} else {
			inRange = a.Gt(z.Int(-1 << 31).Sub(z.Int(1)).ToReal()).And(a.Lt(z.Int(1 << 31).ToReal()))
		}
		s, err := z.NewSolver()
		if err != nil {
			t.Fatal(err)
		}
		if r := check(t, s, def.Iff(inRange).Not()); r != smt.Unsat {
			t.Errorf("%v: definedness of i32(A(i, k)) is not the range check: %v", model, r)
		}
		if r := check(t, s, def.Not()); r != smt.Sat {
			t.Errorf("%v: i32(A(i, k)) always defined: %v", model, r)
		}
		s.Close()
	}
}
