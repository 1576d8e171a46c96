package value

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

var (
	i8, i16, i32, i64 = syntax.I8, syntax.I16, syntax.I32, syntax.I64
	u8, u16, u32, u64 = syntax.U8, syntax.U16, syntax.U32, syntax.U64
	f32, f64          = syntax.F32, syntax.F64
)

func lit(t *testing.T, ty syntax.Type, s string) Value {
	t.Helper()
	v, err := Literal(ty, s)
	if err != nil {
		t.Fatalf("Literal(%s, %q): %v", ty, s, err)
	}
	return v
}

func TestBinary(t *testing.T) {
	cases := []struct {
		ty      syntax.Type
		a       string
		op      syntax.Op
		b, want string
	}{
		// wrapping
		{i8, "127", syntax.OpAdd, "1", "-128"},
		{i8, "-128", syntax.OpSub, "1", "127"},
		{i8, "64", syntax.OpMul, "2", "-128"},
		{u8, "255", syntax.OpAdd, "1", "0"},
		{u8, "0", syntax.OpSub, "1", "255"},
		{u16, "300", syntax.OpMul, "300", "24464"},
		{i32, "2147483647", syntax.OpAdd, "1", "-2147483648"},
		{i64, "9223372036854775807", syntax.OpAdd, "1", "-9223372036854775808"},
		{u64, "0", syntax.OpSub, "1", "18446744073709551615"},
		// Euclidean division and remainder
		{i32, "7", syntax.OpDiv, "2", "3"},
		{i32, "-7", syntax.OpDiv, "2", "-4"},
		{i32, "-7", syntax.OpRem, "2", "1"},
		{i32, "7", syntax.OpDiv, "-2", "-3"},
		{i32, "7", syntax.OpRem, "-2", "1"},
		{i32, "-7", syntax.OpDiv, "-2", "4"},
		{i32, "-7", syntax.OpRem, "-2", "1"},
		{i32, "-8", syntax.OpRem, "4", "0"},
		{i8, "-128", syntax.OpDiv, "-1", "-128"},
		{i8, "-128", syntax.OpRem, "-1", "0"},
		{i64, "-9223372036854775808", syntax.OpDiv, "-1", "-9223372036854775808"},
		{u8, "200", syntax.OpDiv, "7", "28"},
		{u8, "200", syntax.OpRem, "7", "4"},
		{i32, "5", syntax.OpDiv, "0", "0"},
		{i32, "-5", syntax.OpRem, "0", "0"},
		{u32, "5", syntax.OpRem, "0", "0"},
		// shifts
		{i8, "1", syntax.OpShl, "7", "-128"},
		{i8, "1", syntax.OpShl, "8", "0"},
		{i8, "-128", syntax.OpShr, "7", "-1"},
		{i8, "-128", syntax.OpShr, "8", "-1"},
		{i8, "-128", syntax.OpShr, "-1", "-1"},
		{i8, "64", syntax.OpShr, "100", "0"},
		{i8, "3", syntax.OpShl, "-1", "0"},
		{u8, "128", syntax.OpShr, "7", "1"},
		{u8, "255", syntax.OpShr, "8", "0"},
		{u32, "1", syntax.OpShl, "31", "2147483648"},
		{u32, "1", syntax.OpShl, "32", "0"},
		{i64, "-16", syntax.OpShr, "2", "-4"},
		{u64, "1", syntax.OpShl, "63", "9223372036854775808"},
		{u64, "1", syntax.OpShl, "64", "0"},
		// bitwise
		{u8, "0xF0", syntax.OpBitAnd, "0x3C", "48"},
		{u8, "0xF0", syntax.OpBitOr, "0x0F", "255"},
		{i8, "-1", syntax.OpBitXor, "1", "-2"},
		// comparisons
		{i8, "-1", syntax.OpLt, "1", "true"},
		{u8, "255", syntax.OpLt, "1", "false"},
		{i32, "3", syntax.OpGe, "3", "true"},
		{f32, "1.5", syntax.OpGt, "2", "false"},
		// floats
		{f64, "0.1", syntax.OpAdd, "0.2", "0.30000000000000004"},
		{f32, "0.1", syntax.OpAdd, "0.2", "0.3"},
		{f32, "16777216", syntax.OpAdd, "1", "1.6777216e+07"},
		{f64, "16777216", syntax.OpAdd, "1", "1.6777217e+07"},
		{f64, "-7", syntax.OpRem, "2", "1"},
		{f64, "7", syntax.OpRem, "-2", "-1"},
		{f32, "1", syntax.OpDiv, "0", "+Inf"},
		{f64, "-1", syntax.OpDiv, "0", "-Inf"},
	}
	for _, c := range cases {
		a, b := lit(t, c.ty, c.a), lit(t, c.ty, c.b)
		got, err := Binary(c.op, a, b)
		if err != nil {
			t.Errorf("%s %s %s %s: %v", c.ty, c.a, c.op, c.b, err)
			continue
		}
		if got.String() != c.want {
			t.Errorf("%s: %s %s %s = %s, want %s", c.ty, c.a, c.op, c.b, got, c.want)
		}
	}
}

// TestEuclid checks the defining identity on many pairs of every signed
// type.
func TestEuclid(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, ty := range []syntax.Type{i8, i16, i32, i64} {
		for range 2000 {
			a, b := Random(ty, r), Random(ty, r)
			if r.IntN(4) == 0 {
				b = Int(ty, int64(r.IntN(9)-4))
			}
			q, _ := Binary(syntax.OpDiv, a, b)
			m, _ := Binary(syntax.OpRem, a, b)
			if b.Int64() == 0 {
				if q.Int64() != 0 || m.Int64() != 0 {
					t.Errorf("%v / 0 = %v, %% = %v", a, q, m)
				}
				continue
			}
			abs := b.Int64()
			if abs < 0 {
				abs = -abs
			}
			if m.Int64() < 0 || (abs > 0 && uint64(m.Int64()) >= uint64(abs)) {
				t.Errorf("%#v %% %#v = %v not in [0, |b|)", a, b, m)
			}
			qb, _ := Binary(syntax.OpMul, q, b)
			back, _ := Binary(syntax.OpAdd, qb, m)
			if !back.Equal(a) {
				t.Errorf("(%v / %v) * b + %% = %v, want a", a, b, back)
			}
		}
	}
}

func TestUnary(t *testing.T) {
	cases := []struct {
		ty      syntax.Type
		op      syntax.Op
		x, want string
	}{
		{i8, syntax.OpNeg, "-128", "-128"},
		{i8, syntax.OpNeg, "5", "-5"},
		{u8, syntax.OpNeg, "1", "255"},
		{u16, syntax.OpBitNot, "0", "65535"},
		{i32, syntax.OpBitNot, "0", "-1"},
		{f32, syntax.OpNeg, "0", "-0"},
		{syntax.Bool, syntax.OpNot, "true", "false"},
	}
	for _, c := range cases {
		got, err := Unary(c.op, lit(t, c.ty, c.x))
		if err != nil || got.String() != c.want {
			t.Errorf("%s %s%s = %v (%v), want %s", c.ty, c.op, c.x, got, err, c.want)
		}
	}
	if _, err := Unary(syntax.OpBitNot, lit(t, f32, "1")); err == nil {
		t.Error("~ on f32 accepted")
	}
}

func TestCast(t *testing.T) {
	cases := []struct {
		from  syntax.Type
		x     string
		to    syntax.Type
		want  string
		undef bool
	}{
		{i32, "300", u8, "44", false},
		{i32, "-1", u8, "255", false},
		{u8, "255", i8, "-1", false},
		{i8, "-1", u64, "18446744073709551615", false},
		{u64, "18446744073709551615", i64, "-1", false},
		{f32, "2.9", i32, "2", false},
		{f32, "-2.9", i32, "-2", false},
		{f64, "-0.5", u8, "0", false},
		{f64, "255.9", u8, "255", false},
		{f64, "256", u8, "", true},
		{f64, "-1", u8, "", true},
		{f64, "127.5", i8, "127", false},
		{f64, "128", i8, "", true},
		{f64, "-129", i8, "", true},
		{f64, "-128.9", i8, "-128", false},
		{f64, "9223372036854775807", i64, "", true},
		{f64, "-9223372036854775808", i64, "-9223372036854775808", false},
		{f64, "18446744073709551615", u64, "", true},
		{f64, "1e300", f32, "+Inf", false},
		{f64, "0.1", f32, "0.1", false},
		{i32, "16777217", f32, "1.6777216e+07", false},
		{i64, "9007199254740993", f64, "9.007199254740992e+15", false},
		{u64, "18446744073709551615", f32, "1.8446744e+19", false},
		{i32, "0", syntax.Bool, "false", false},
		{i32, "-3", syntax.Bool, "true", false},
		{syntax.Bool, "true", f32, "1", false},
	}
	for _, c := range cases {
		got, err := Cast(c.to, lit(t, c.from, c.x))
		if err != nil {
			t.Errorf("%s(%s %s): %v", c.to, c.from, c.x, err)
			continue
		}
		if got.Type() != c.to || got.IsUndef() != c.undef || !c.undef && got.String() != c.want {
			t.Errorf("%s(%s %s) = %#v, want %s (undef %v)", c.to, c.from, c.x, got, c.want, c.undef)
		}
	}
	nan, _ := Binary(syntax.OpDiv, lit(t, f64, "0"), lit(t, f64, "0"))
	inf, _ := Binary(syntax.OpDiv, lit(t, f32, "1"), lit(t, f32, "0"))
	for _, v := range []Value{nan, inf} {
		if c, _ := Cast(i32, v); !c.IsUndef() {
			t.Errorf("i32(%v) = %v, want undef", v, c)
		}
	}
	if v, _ := FromIndex(u8, -1); v.String() != "255" {
		t.Errorf("FromIndex(u8, -1) = %v", v)
	}
	if v, _ := FromIndex(f32, 16777217); v.String() != "1.6777216e+07" {
		t.Errorf("FromIndex(f32, 16777217) = %v", v)
	}
}

func TestF32Rounding(t *testing.T) {
	// 1 + 2^-24 is not representable in binary32; in binary64 it is.
	a, b := Float(f32, 1), Float(f32, math.Ldexp(1, -24))
	s, _ := Binary(syntax.OpAdd, a, b)
	if !s.Equal(Float(f32, 1)) {
		t.Errorf("f32 1 + 2^-24 = %v, want 1", s)
	}
	// Reassociation differs in f32.
	x, y, z := Float(f32, 1e8), Float(f32, -1e8), Float(f32, 1)
	l, _ := Binary(syntax.OpAdd, x, y)
	l, _ = Binary(syntax.OpAdd, l, z)
	r, _ := Binary(syntax.OpAdd, y, z)
	r, _ = Binary(syntax.OpAdd, x, r)
	if l.Equal(r) {
		t.Errorf("(x+y)+z == x+(y+z) = %v in f32", l)
	}
	if Float(f32, 0.1).Float64() != float64(float32(0.1)) {
		t.Error("Float(f32) does not round")
	}
	q, _ := Call("sqrt", []Value{Float(f32, 2)})
	if q.Float64() != float64(float32(math.Sqrt(2))) {
		t.Errorf("sqrt f32 = %v", q)
	}
}

func TestUndefined(t *testing.T) {
	u := Undef(i32)
	one := Int(i32, 1)
	if v, _ := Binary(syntax.OpAdd, u, one); !v.IsUndef() || v.Type() != i32 {
		t.Errorf("undef + 1 = %#v", v)
	}
	if v, _ := Binary(syntax.OpLt, one, u); !v.IsUndef() || v.Type() != syntax.Bool {
		t.Errorf("1 < undef = %#v", v)
	}
	if v, _ := Call("select", []Value{Bool(true), one, u}); !v.IsUndef() {
		t.Errorf("select(true, 1, undef) = %#v, want undef (eager)", v)
	}
	if v, _ := Call("select", []Value{Undef(syntax.Bool), one, one}); !v.IsUndef() {
		t.Errorf("select(undef, 1, 1) = %#v", v)
	}
	if v, _ := Cast(f32, u); !v.IsUndef() || v.Type() != f32 {
		t.Errorf("f32(undef) = %#v", v)
	}
	if v, _ := Unary(syntax.OpNeg, u); !v.IsUndef() {
		t.Errorf("-undef = %#v", v)
	}
	if !u.Equal(Undef(i32)) || u.Equal(Undef(i64)) || u.Equal(Int(i32, 0)) {
		t.Error("Equal on undefined values")
	}
}

func TestCall(t *testing.T) {
	cases := []struct {
		name string
		args []Value
		want string
	}{
		{"min", []Value{Int(i8, -3), Int(i8, 2)}, "-3"},
		{"max", []Value{Uint(u8, 200), Uint(u8, 100)}, "200"},
		{"abs", []Value{Int(i8, -128)}, "-128"},
		{"abs", []Value{Int(i16, -7)}, "7"},
		{"abs", []Value{Float(f32, -2.5)}, "2.5"},
		{"clamp", []Value{Int(i32, 12), Int(i32, 0), Int(i32, 10)}, "10"},
		{"clamp", []Value{Int(i32, -2), Int(i32, 0), Int(i32, 10)}, "0"},
		{"select", []Value{Bool(false), Float(f64, 1), Float(f64, 2)}, "2"},
		{"round", []Value{Float(f64, 2.5)}, "2"},
		{"round", []Value{Float(f64, -1.5)}, "-2"},
		{"floor", []Value{Float(f32, -1.5)}, "-2"},
		{"ceil", []Value{Float(f32, -1.5)}, "-1"},
		{"pow", []Value{Float(f64, 2), Float(f64, 10)}, "1024"},
		{"exp", []Value{Float(f64, 0)}, "1"},
		{"log", []Value{Float(f64, 1)}, "0"},
		{"tanh", []Value{Float(f64, 0)}, "0"},
		{"fast_inverse", []Value{Float(f32, 4)}, "0.25"},
		{"fast_inverse", []Value{Float(f32, 3)}, "0.33333334"},
		{"fast_inverse", []Value{Float(f32, 0)}, "+Inf"},
		{"fast_inverse_sqrt", []Value{Float(f32, 16)}, "0.25"},
		{"fast_inverse_sqrt", []Value{Float(f64, 2)}, "0.7071067811865475"},
	}
	for _, c := range cases {
		got, err := Call(c.name, c.args)
		if err != nil || got.String() != c.want {
			t.Errorf("%s(%v) = %v (%v), want %s", c.name, c.args, got, err, c.want)
		}
	}
	for _, bad := range []struct {
		name string
		args []Value
	}{
		{"sqrt", []Value{Int(i32, 4)}},
		{"min", []Value{Int(i32, 4)}},
		{"min", []Value{Int(i32, 4), Int(i64, 4)}},
		{"select", []Value{Int(i32, 1), Int(i32, 4), Int(i32, 4)}},
		{"abs", []Value{Bool(true)}},
		{"nope", nil},
	} {
		if _, err := Call(bad.name, bad.args); err == nil {
			t.Errorf("%s(%v) accepted", bad.name, bad.args)
		}
	}
}

func TestLiteral(t *testing.T) {
	ok := []struct {
		ty         syntax.Type
		text, want string
	}{
		{i8, "127", "127"}, {i8, "-128", "-128"}, {u8, "0xFF", "255"}, {u8, "0", "0"},
		{i64, "-9223372036854775808", "-9223372036854775808"},
		{u64, "0xFFFFFFFFFFFFFFFF", "18446744073709551615"},
		{f32, "1", "1"}, {f32, "1.", "1"}, {f32, ".5", "0.5"}, {f64, "1e-3", "0.001"},
		{f32, "0x10", "16"}, {f32, "-2.5", "-2.5"}, {f64, "007", "7"}, {i32, "010", "10"},
		{f32, "16777217", "1.6777216e+07"}, {f64, "1e-400", "0"},
		{syntax.Bool, "true", "true"},
	}
	for _, c := range ok {
		v, err := Literal(c.ty, c.text)
		if err != nil || v.String() != c.want || v.Type() != c.ty {
			t.Errorf("Literal(%s, %q) = %#v (%v), want %s", c.ty, c.text, v, err, c.want)
		}
	}
	bad := []struct {
		ty   syntax.Type
		text string
	}{
		{i8, "128"}, {i8, "-129"}, {u8, "256"}, {u8, "-1"}, {u8, "0x100"}, {i32, "1.5"},
		{syntax.Bool, "1"}, {i32, "true"}, {f32, "1e39"}, {f64, "1e309"}, {f32, "inf"},
		{f32, "0x1p3"}, {u64, "18446744073709551616"}, {f32, "1_0"}, {syntax.Invalid, "1"},
	}
	for _, c := range bad {
		if v, err := Literal(c.ty, c.text); err == nil {
			t.Errorf("Literal(%s, %q) = %#v, want error", c.ty, c.text, v)
		}
	}
}

func TestEqualClose(t *testing.T) {
	nan := Float(f32, math.NaN())
	if !nan.Equal(Float(f32, math.NaN())) {
		t.Error("NaN != NaN")
	}
	if Float(f64, 0).Equal(Float(f64, math.Copysign(0, -1))) {
		t.Error("+0 == -0")
	}
	if Float(f32, 1).Equal(Float(f64, 1)) {
		t.Error("types ignored")
	}
	a, b := Float(f32, 1000), Float(f32, 1000.01)
	if a.Close(b, 0) || !a.Close(b, 1e-4) || a.Close(b, 1e-9) {
		t.Error("Close relative tolerance")
	}
	if !Float(f64, 0).Close(Float(f64, 1e-9), 1e-6) {
		t.Error("Close absolute tolerance")
	}
	if Int(i32, 1).Close(Int(i32, 2), 10) {
		t.Error("Close on integers is not exact")
	}
	if Float(f64, 1).Close(Undef(f64), 1) {
		t.Error("Close with undefined")
	}
}

func TestRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	sawNeg := false
	for range 1000 {
		v := Random(f32, r)
		f := v.Float64()
		if f < -4 || f > 4 || f*8 != math.Trunc(f*8) {
			t.Fatalf("Random f32 = %v", v)
		}
		w := Random(i8, r)
		if w.Int64() < -128 || w.Int64() > 127 {
			t.Fatalf("Random i8 = %v", w)
		}
		sawNeg = sawNeg || w.Int64() < 0
		if u := Random(u16, r); u.Uint64() > 65535 {
			t.Fatalf("Random u16 = %v", u)
		}
	}
	if !sawNeg {
		t.Error("Random i8 never negative")
	}
	r1, r2 := rand.New(rand.NewPCG(3, 4)), rand.New(rand.NewPCG(3, 4))
	for range 10 {
		if !Random(f64, r1).Equal(Random(f64, r2)) {
			t.Fatal("Random not deterministic for a seed")
		}
	}
}

// TestParseInvertsString reads back what String prints, for every type,
// the float specials included.
func TestParseInvertsString(t *testing.T) {
	for _, v := range []Value{
		Bool(true), Int(syntax.I8, -128), Int(syntax.I64, -1<<63), Uint(syntax.U64, 1<<64-1),
		Float(syntax.F32, 0.1), Float(syntax.F64, -2.5e-300), Float(syntax.F32, math.Inf(-1)), Float(syntax.F64, math.NaN()),
	} {
		got, err := Parse(v.Type(), v.String())
		if err != nil || got.String() != v.String() || got.Type() != v.Type() {
			t.Errorf("Parse(%s, %q) = %#v, %v; want %#v", v.Type(), v.String(), got, err, v)
		}
	}
	if _, err := Parse(syntax.U8, "-1"); err == nil {
		t.Error("Parse(u8, -1) accepted")
	}
}

// TestReinterpret checks bit casts against the exact encodings, in both
// directions, including the special floats.
func TestReinterpret(t *testing.T) {
	f32bits := func(b uint32) Value { return Float(f32, float64(math.Float32frombits(b))) }
	cases := []struct {
		x    Value
		to   syntax.Type
		want Value // undefined for an undefined result
	}{
		{Int(i32, 0x3f800000), f32, Float(f32, 1)},
		{Int(i32, 127<<23), f32, Float(f32, 1)},
		{Int(i32, 254<<23), f32, Float(f32, 0x1p127)},
		{Int(i32, 1), f32, Float(f32, 0x1p-149)}, // the least subnormal
		{Int(i32, -0x80000000), f32, Float(f32, math.Copysign(0, -1))},
		{Uint(u32, 0xff800000), f32, Float(f32, math.Inf(-1))},
		{Uint(u32, 0x7fc00001), f32, Float(f32, math.NaN())},
		{Float(f32, 1), u32, Uint(u32, 0x3f800000)},
		{Float(f32, -2.5), i32, Int(i32, -0x3fe00000)}, // 0xc0200000
		{Float(f32, math.Copysign(0, -1)), u32, Uint(u32, 0x80000000)},
		{Float(f32, math.Inf(1)), i32, Int(i32, 0x7f800000)},
		{f32bits(0x00000003), u32, Uint(u32, 3)},
		{Float(f32, math.NaN()), i32, Undef(i32)},
		{Float(f64, 1), u64, Uint(u64, 0x3ff0000000000000)},
		{Float(f64, -0.1), u64, Uint(u64, 0xbfb999999999999a)},
		{Uint(u64, 0x7ff0000000000000), f64, Float(f64, math.Inf(1))},
		{Int(i64, -1), f64, Float(f64, math.NaN())},
		{Float(f64, math.NaN()), u64, Undef(u64)},
		{Float(f64, math.NaN()), f64, Float(f64, math.NaN())},
		{Int(i8, -1), u8, Uint(u8, 255)},
		{Uint(u16, 0x8000), i16, Int(i16, -0x8000)},
		{Undef(i32), f32, Undef(f32)},
	}
	for _, c := range cases {
		got, err := Reinterpret(c.to, c.x)
		if err != nil {
			t.Errorf("reinterpret_%s(%#v): %v", c.to, c.x, err)
			continue
		}
		if !got.Equal(c.want) {
			t.Errorf("reinterpret_%s(%#v) = %#v, want %#v", c.to, c.x, got, c.want)
		}
		if got.Type().IsInteger() && !got.IsUndef() && got.Uint64() != c.want.Uint64() {
			t.Errorf("reinterpret_%s(%#v) has bits %#x, want %#x", c.to, c.x, got.Uint64(), c.want.Uint64())
		}
	}
	// The float results, bit for bit (Equal identifies the NaNs only).
	if v, _ := Reinterpret(f32, Int(i32, -0x80000000)); math.Float64bits(v.Float64()) != 1<<63 {
		t.Errorf("reinterpret_f32(i32 -2^31) = %v, want -0", v.Float64())
	}
	for _, bad := range []struct {
		x  Value
		to syntax.Type
	}{{Int(i32, 1), f64}, {Float(f32, 1), i64}, {Bool(true), u8}, {Int(i8, 1), syntax.Bool}} {
		if _, err := Reinterpret(bad.to, bad.x); err == nil {
			t.Errorf("reinterpret_%s(%#v): no error", bad.to, bad.x)
		}
	}
	for name, want := range map[string]syntax.Type{"reinterpret_f32": f32, "reinterpret_u64": u64, "reinterpret_bool": syntax.Invalid,
		"reinterpret_": syntax.Invalid, "f32": syntax.Invalid, "reinterpret_x": syntax.Invalid} {
		got, ok := ReinterpretType(name)
		if ok != (want != syntax.Invalid) || ok && got != want {
			t.Errorf("ReinterpretType(%q) = %s, %v; want %s", name, got, ok, want)
		}
	}
}
