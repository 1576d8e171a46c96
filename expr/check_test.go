package expr

import (
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// testScope has index names i, j, k, N, P; tensors A(i, k): f32,
// X(i): i8, U(i): u8; and array a[i]: f32.
type testScope struct{}

// testTensor is a tensor of testScope: its element type and rank.
type testTensor struct {
	elem syntax.Type
	rank int
}

var testTensors = map[string]testTensor{
	"A": {syntax.F32, 2},
	"X": {syntax.I8, 1},
	"U": {syntax.U8, 1},
	"Z": {syntax.F64, 0},
}

func (testScope) IsIndex(name string) bool { return strings.Contains(" i j k N P ", " "+name+" ") }
func (testScope) Tensor(name string) (syntax.Type, int, bool) {
	t, ok := testTensors[name]
	return t.elem, t.rank, ok
}
func (testScope) Array(name string) (syntax.Type, int, bool) {
	if name == "a" {
		return syntax.F32, 1, true
	}
	return syntax.Invalid, 0, false
}

func checkExpr(t *testing.T, kind, text string, want syntax.Type) (syntax.Expr, *Info, string) {
	t.Helper()
	x, err := syntax.ParseExprString(text)
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	r := &syntax.Reporter{Src: &syntax.Source{Name: "e", Text: text}}
	info := NewInfo()
	c := &Checker{R: r, Scope: testScope{}, Info: info, AllowTensors: true, AllowArrays: true}
	var got syntax.Type
	switch kind {
	case "index":
		if c.Index(x) {
			got = syntax.I64
		}
	case "cond":
		if c.Constraint(x) {
			got = syntax.Bool
		}
	default:
		got = c.Value(x, want)
	}
	var msgs []string
	for _, e := range r.Errs {
		msgs = append(msgs, e.Error())
	}
	_ = got
	return x, info, strings.Join(msgs, "; ")
}

func TestChecker(t *testing.T) {
	cases := []struct {
		kind, text string
		want       syntax.Type
		err        string // "" for no error
	}{
		{"index", "2 * i + N - 1", 0, ""},
		{"index", "i * 2", 0, ""},
		{"index", "(2 * 3) * i", 0, ""},
		{"index", "N * i", 0, "e:1:1: N * i is not affine: a product needs a constant factor"},
		{"index", "i / 4 + i % 4", 0, ""},
		{"index", "i / N", 0, "e:1:5: / by N: the divisor of an index expression must be a constant"},
		{"index", "i % 0", 0, "e:1:5: % by 0: the divisor of an index expression must be positive"},
		{"index", "i % -2", 0, "e:1:5: % by -2: the divisor of an index expression must be positive"},
		{"index", "min(i, N - 1) + select(i < 3, 0, i)", 0, ""},
		{"index", "A(i, k)", 0, "e:1:1: tensor access A(i, k) in an index expression"},
		{"index", "q + 1", 0, "e:1:1: undefined: q"},
		{"index", "1.5", 0, "e:1:1: float literal 1.5 in an index expression"},
		{"cond", "0 <= k < P and not i == j", 0, ""},
		{"cond", "N % 4 == 0", 0, ""},
		{"cond", "i", 0, "e:1:1: expected a constraint (a comparison of index expressions), found i"},
		{"value", "A(i, k) * 2 + 1.5", syntax.F32, ""},
		{"value", "2 * A(i, k)", syntax.F32, ""},
		{"value", "A(i, k) + i", syntax.F32, "e:1:11: index i used as a value must be cast, as in f32(i)"},
		{"value", "A(i, k) + f32(i)", syntax.F32, ""},
		{"value", "X(i) + U(i)", syntax.Invalid, "e:1:8: mismatched types i8 and u8 (no implicit conversion: cast one side)"},
		{"value", "X(i) + 128", syntax.I8, "e:1:8: integer literal 128 does not fit i8"},
		{"value", "X(i) + -128", syntax.I8, ""},
		{"value", "X(i) << 2 & ~X(j)", syntax.I8, ""},
		{"value", "A(i, k) & A(i, k)", syntax.F32, "e:1:1: operator & does not apply to f32"},
		{"value", "X(i) < 3", syntax.Bool, ""},
		{"value", "A(i, k) < 3 and i < N", syntax.Bool, ""},
		{"value", "select(i < N, A(i, k), 0)", syntax.F32, ""},
		{"value", "select(A(i, k) > 0, A(i, k), 0)", syntax.F32, ""},
		{"value", "A(i, k)", syntax.I32, "e:1:1: A(i, k) has type f32, want i32"},
		{"value", "A(i)", syntax.F32, "e:1:1: tensor A has 2 dimensions, accessed with 1 index"},
		{"value", "A(N * i, k)", syntax.F32, "e:1:3: N * i is not affine: a product needs a constant factor"},
		{"value", "sqrt(X(i))", syntax.Invalid, "e:1:1: sqrt needs a float argument, got i8"},
		{"value", "sqrt(2.0) + Z()", syntax.F64, ""},
		{"value", "i32(A(i, k)) + i32(i * 2)", syntax.I32, ""},
		{"value", "a[i + 1] + A(i, 0)", syntax.F32, ""},
		{"value", "a(i)", syntax.F32, "e:1:1: array a is read with brackets: a[...]"},
		{"value", "1", syntax.Bool, "e:1:1: 1 used as bool"},
		{"value", "true and X(i) == 1", syntax.Bool, ""},
		{"value", "X(i) + 1.5", syntax.I8, "e:1:8: float literal 1.5 used as i8 (cast it explicitly)"},
		{"value", "0 <= X(i) < 10", syntax.Bool, ""},
		{"value", "abs(X(i)) + clamp(X(j), 0, 10) - min(X(i), 1)", syntax.I8, ""},
		{"value", "f(i)", syntax.F32, "e:1:1: undefined: f"},
		{"value", "select(true, 1, 2) < X(i)", syntax.Bool, ""},
		{"value", "max(0, 100) + X(i)", syntax.I8, ""},
		{"value", "max(0, 200) + X(i)", syntax.I8, "e:1:8: integer literal 200 does not fit i8"},
		{"value", "f32(1 >> 2) + f32(0.1)", syntax.F32, ""},
		{"value", "sqrt(2) + A(i, k)", syntax.F32, ""},
		{"value", "-3 > sin(3)", syntax.Bool, ""},
		{"value", "u8(max(min(2., 2.), 1))", syntax.U8, ""},
		{"value", "reinterpret_f32(i32(X(i)) << 23) * A(i, k)", syntax.F32, ""},
		{"value", "reinterpret_u32(A(i, k)) + reinterpret_u32(1065353216)", syntax.U32, ""},
		{"value", "reinterpret_i64(1.5) + reinterpret_i64(Z())", syntax.I64, ""},
		{"value", "reinterpret_u8(X(i)) + U(i)", syntax.U8, ""},
		{"value", "reinterpret_f32(X(i))", syntax.F32, "e:1:1: bit cast reinterpret_f32 needs an integer or float argument of 32 bits, got i8"},
		{"value", "reinterpret_f64(A(i, k))", syntax.F64, "e:1:1: bit cast reinterpret_f64 needs an integer or float argument of 64 bits, got f32"},
		{"value", "reinterpret_i8(1.5)", syntax.I8, "e:1:16: float literal 1.5 used as i8 (cast it explicitly)"},
		{"value", "reinterpret_f32(i)", syntax.F32, "e:1:17: index i used as a value must be cast, as in i32(i)"},
		{"value", "reinterpret_f32(A(i, k), 1)", syntax.F32, "e:1:1: bit cast reinterpret_f32 takes 1 argument, got 2"},
		{"value", "reinterpret_bool(true)", syntax.Bool, "e:1:1: undefined: reinterpret_bool"},
		{"index", "reinterpret_i64(i)", 0, "e:1:1: bit cast reinterpret_i64(...) in an index expression: index expressions are exact integers"},
	}
	for _, c := range cases {
		_, _, got := checkExpr(t, c.kind, c.text, c.want)
		if got != c.err {
			t.Errorf("%s %q:\n got %q\nwant %q", c.kind, c.text, got, c.err)
		}
	}
}

type mapEnv struct {
	idx     map[string]int64
	tensors map[string]func([]int64) value.Value
}

func (e mapEnv) Index(n string) (int64, bool) { v, ok := e.idx[n]; return v, ok }
func (e mapEnv) Tensor(n string, idx []int64) (value.Value, error) {
	return e.tensors[n](idx), nil
}
func (e mapEnv) Array(n string, idx []int64) (value.Value, error) {
	return e.tensors[n](idx), nil
}

func TestEvalExpr(t *testing.T) {
	env := mapEnv{
		idx: map[string]int64{"i": 3, "j": -5, "k": 1, "N": 10, "P": 4},
		tensors: map[string]func([]int64) value.Value{
			"A": func(idx []int64) value.Value { return value.Float(syntax.F32, float64(idx[0]*10+idx[1])) },
			"X": func(idx []int64) value.Value { return value.Int(syntax.I8, idx[0]*50) },
			"a": func(idx []int64) value.Value { return value.Float(syntax.F32, float64(idx[0])/2) },
		},
	}
	cases := []struct {
		text string
		want syntax.Type
		out  string
	}{
		{"A(i, k) * 2 + 1.5", syntax.F32, "63.5"},
		{"X(i) + X(i)", syntax.I8, "44"},
		{"X(j / 5) / 7", syntax.I8, "-8"},
		{"X(j / 5) % 7", syntax.I8, "6"},
		{"X(i) + -128", syntax.I8, "22"},
		{"f32(j % 4)", syntax.F32, "3"},
		{"f32(j / 4)", syntax.F32, "-2"},
		{"select(i < N, A(i, k), 0)", syntax.F32, "31"},
		{"0 <= X(k) < 10", syntax.Bool, "false"},
		{"i < N and A(0, 0) == 0", syntax.Bool, "true"},
		{"a[i] + f32(min(i, k))", syntax.F32, "2.5"},
		{"i64(N * 2 - 1)", syntax.I64, "19"},
		{"reinterpret_f32(1065353216)", syntax.F32, "1"},
		{"reinterpret_f32(i32(X(i)) << 23)", syntax.F32, "-8.388608e+06"},
		{"reinterpret_u32(A(i, k) * 2)", syntax.U32, "1115160576"},
		{"reinterpret_i64(-0.0)", syntax.I64, "-9223372036854775808"},
		{"reinterpret_u8(X(i))", syntax.U8, "150"},
		{"reinterpret_u32(-2.5)", syntax.U32, "3223322624"},
		{"reinterpret_u8(i8(-1))", syntax.U8, "255"},
		{"reinterpret_i32(reinterpret_f32(2143289345))", syntax.I32, "undef"},
	}
	for _, c := range cases {
		x, info, errs := checkExpr(t, "value", c.text, c.want)
		if errs != "" {
			t.Errorf("%q: %s", c.text, errs)
			continue
		}
		v, err := EvalValue(x, info, env)
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		got := v.String()
		if v.IsUndef() {
			got = "undef"
		}
		if got != c.out {
			t.Errorf("%q = %s, want %s", c.text, got, c.out)
		}
	}
	// u8(310.0) is out of range: undefined.
	x, info, _ := checkExpr(t, "value", "u8(A(i, k) * 10)", syntax.U8)
	if v, _ := EvalValue(x, info, env); !v.IsUndef() {
		t.Errorf("u8(310) = %v, want undef", v)
	}
}

func TestEvalIndexOverflow(t *testing.T) {
	env := mapEnv{idx: map[string]int64{"N": 1 << 62, "M": -(1 << 62)}}
	for _, text := range []string{"N + N", "4 * N", "M - N - N", "-M * 2 - 1", "9223372036854775807 + 1", "-(-9223372036854775807 - 1)"} {
		x, err := syntax.ParseExprString(text)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := EvalIndex(x, env); err == nil || !strings.Contains(err.Error(), "overflow") {
			t.Errorf("%s = %d, %v; want overflow", text, n, err)
		}
	}
	for text, want := range map[string]int64{"M * 2": -(1 << 63), "-7 / 2": -4, "-7 % 2": 1, "N - 1 + N": 1<<63 - 1, "-9223372036854775808": -1 << 63} {
		x, _ := syntax.ParseExprString(text)
		if n, err := EvalIndex(x, env); err != nil || n != want {
			t.Errorf("%s = %d, %v; want %d", text, n, err, want)
		}
	}
}

func TestCheckerModes(t *testing.T) {
	check := func(text string, arrays, tensors bool) string {
		x, err := syntax.ParseExprString(text)
		if err != nil {
			t.Fatal(err)
		}
		r := &syntax.Reporter{}
		c := &Checker{R: r, Scope: testScope{}, AllowArrays: arrays, AllowTensors: tensors}
		c.Value(x, syntax.F32)
		if len(r.Errs) == 0 {
			return ""
		}
		return r.Errs[0].Msg
	}
	if got := check("a[i] + A(i, i)", true, false); got != "tensor access A(i, i) is not allowed here (kernel code reads arrays)" {
		t.Errorf("kernel code: %q", got)
	}
	if got := check("a[i] + A(i, i)", false, true); got != "array read a[i] is not allowed here" {
		t.Errorf("annotation: %q", got)
	}
	if got := check("a[i, j]", true, false); got != "array a has 1 dimension, indexed with 2 indices" {
		t.Errorf("rank: %q", got)
	}
	if got := check("a[N * i]", true, false); got != "N * i is not affine: a product needs a constant factor" {
		t.Errorf("affine array index: %q", got)
	}
	if got := check("A[i, i]", true, true); got != "tensor A is accessed with parentheses: A(...)" {
		t.Errorf("tensor with brackets: %q", got)
	}
	// Without an Info the checker still works.
	if got := check("a[i] * 2", true, false); got != "" {
		t.Errorf("no Info: %q", got)
	}
}

// TestDecimalIndex checks EvalIndex's shortcut for plain decimal
// literals against value.Literal, which it stands for: the same value,
// negated too, for every spelling it takes, and the other spellings
// (hexadecimal, separators, 19 digits and more) left to value.Literal.
func TestDecimalIndex(t *testing.T) {
	for _, c := range []struct {
		text string
		fast bool
	}{
		{"0", true}, {"7", true}, {"007", true}, {"123456789012345678", true},
		{"1234567890123456789", false}, {"9223372036854775807", false},
		{"0x10", false}, {"1_000", false}, {"", false}, {"12a", false},
	} {
		n, ok := decimalIndex(c.text)
		if ok != c.fast {
			t.Errorf("decimalIndex(%q): ok %v, want %v", c.text, ok, c.fast)
			continue
		}
		if !ok {
			continue
		}
		for _, neg := range []bool{false, true} {
			text, want := c.text, n
			if neg {
				text, want = "-"+text, -n
			}
			v, err := value.Literal(syntax.I64, text)
			if err != nil || v.Int64() != want {
				t.Errorf("%s: value.Literal gives %v (%v), the shortcut %d", text, v, err, want)
			}
		}
	}
	x := &syntax.Unary{Op: syntax.OpNeg, X: &syntax.Lit{Kind: syntax.IntLiteral, Text: "42"}}
	if n, err := EvalIndex(x, nil); err != nil || n != -42 {
		t.Errorf("EvalIndex(-42) = %d, %v", n, err)
	}
}
