package sare

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

var roundTripSpecs = []string{
	`param N
tensor T() : f32
T() = 1.5
output T
`,
	`# continuation lines and every declaration form
param N, M
assume N >= 1
assume N % 4 == 0 and not M < 0
input  A(i, j) : u8
input  Z() : f64
tensor R(i, j) : u8
R(i, j) = A(i, j) << 1 | ~A(j, i) ^ 3
  where 0 <= i < N and
        0 <= j < M
R(i, j) = select(A(i, j) > 3, 0xFF, A(i, j) / 2)
    where i < 0 or (i >= N and j != min(i, M - 1) + i / 2 - j % 3)
tensor F(i) : f32
F(i) = f32(i) * f32(Z()) + -1e-3 + sqrt(pow(2., .5)) - f32(u8(A(i, -i)))
output R, F
`,
	`# reductions (Clément 2022, Section 7.4)
param N, M
assume N >= 0
input A(i, k) : f32
input B(k) : i32
tensor S(i) : f32
S(i) = reduce(+, k in 0 .. M, A(i, k) * A(k, i)) where 0 <= i < N
tensor X() : i32
X() = reduce(max, x in 0 .. N, y in x .. M where (x + y) % 2 == 0,
  B(x) - B(y))
tensor P() : u8
P() = reduce(^, k in -1 .. N, u8(B(k)))
output S, X, P
`,
	`# bit casts (Halide's reinterpret)
input A(i) : i32
input B(i) : f64
tensor T(i) : f32
T(i) = reinterpret_f32(clamp(A(i) + 127, 0, 255) << 23) * reinterpret_f32(1065353216)
tensor U(i) : u64
U(i) = reinterpret_u64(B(i) * 2.) ^ reinterpret_u64(reinterpret_i64(B(i)))
output T, U
`,
}

func TestPrintRoundTrip(t *testing.T) {
	for _, text := range roundTripSpecs {
		spec, _ := load(t, "rt.sare", text)
		printed := Print(spec)
		again, _ := load(t, "printed.sare", printed)
		if !Equal(spec, again) {
			t.Errorf("parse(print(x)) != x for\n%s\nprinted:\n%s", text, printed)
		}
		if again.String() != printed {
			t.Errorf("printing is not idempotent:\n%s\n%s", printed, again)
		}
	}
	spec, _ := load(t, "rt.sare", roundTripSpecs[1])
	want := `param N, M
assume N >= 1
assume N % 4 == 0 and not M < 0

input A(i, j) : u8
input Z() : f64

tensor R(i, j) : u8
R(i, j) = A(i, j) << 1 | ~A(j, i) ^ 3 where 0 <= i < N and 0 <= j < M
R(i, j) = select(A(i, j) > 3, 0xFF, A(i, j) / 2) where i < 0 or i >= N and j != min(i, M - 1) + i / 2 - j % 3

tensor F(i) : f32
F(i) = f32(i) * f32(Z()) + -1e-3 + sqrt(pow(2., .5)) - f32(u8(A(i, -i)))

output R, F
`
	if got := Print(spec); got != want {
		t.Errorf("canonical form:\n%s\nwant:\n%s", got, want)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	texts := append([]string{readFile(t, "../examples/matmul/matmul.sare")}, roundTripSpecs...)
	for _, text := range texts {
		spec, _ := load(t, "j.sare", text)
		data, err := MarshalSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		back, err := UnmarshalSpec(data)
		if err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		if !Equal(spec, back) {
			t.Errorf("JSON round trip changed the specification:\n%s", data)
		}
		if _, errs := Check(back); len(errs) > 0 {
			t.Errorf("decoded specification does not check: %v", errs)
		}
		// Positions survive.
		if back.Tensors[0].Eqs != nil && back.Tensors[0].Eqs[0].Pos() != spec.Tensors[0].Eqs[0].Pos() {
			t.Errorf("equation position lost")
		}
	}
	spec, _ := load(t, "m.sare", readFile(t, "../examples/outer/outer.sare"))
	data, _ := json.Marshal(ToJSON(spec))
	if !strings.Contains(string(data), `{"name":"C","vars":["i","j"],"type":"f32","equations":[{"vars":["i","j"],"rhs":{"kind":"binary","op":"mul"`) {
		t.Errorf("unexpected JSON shape: %s", data)
	}
}

func TestJSONRejects(t *testing.T) {
	for _, in := range []string{
		`{"params":["and"]}`,
		`{"params":["N"],"extra":1}`,
		`{"tensors":[{"name":"A","vars":["i"],"type":"f16"}]}`,
		`{"tensors":[{"name":"A","type":"f32"}]}`,
		`{"tensors":[{"name":"where","vars":[],"type":"f32"}]}`,
		`{"tensors":[{"name":"A","vars":["i"],"type":"f32","equations":[{"vars":["i"]}]}]}`,
		`{"tensors":[{"name":"A","vars":["i"],"type":"f32","equations":[{"vars":["i"],"rhs":{"kind":"int","value":"x"}}]}]}`,
		`{"assumes":[{"cond":{"kind":"nope"}}]}`,
		`{"assumes":[null]}`,
		`[1]`,
	} {
		if _, err := UnmarshalSpec([]byte(in)); err == nil {
			t.Errorf("accepted %s", in)
		}
	}
}

func TestParseRecovery(t *testing.T) {
	// A '{' block in a specification is skipped whole.
	_, errs := Parse(&syntax.Source{Name: "x", Text: "param N\n{ a\n b }\ntensor T() : f32\nT() = 1 +\n"})
	if len(errs) != 2 {
		t.Errorf("errors: %v", errs.Detail())
	}
}

// TestOverflowDirective: overflow unconstrained survives printing and
// JSON, the checker hands it to the evaluator, and a wrong word is an
// error.
func TestOverflowDirective(t *testing.T) {
	src := "overflow unconstrained\nparam N\ninput A(i) : i32\ntensor D(i) : i32\nD(i) = A(i) * 3\noutput D\n"
	spec, info, err := Load(&syntax.Source{Name: "o.sare", Text: src})
	if err != nil {
		t.Fatal(err)
	}
	if spec.Overflow != value.OverflowUnconstrained || info.Overflow != value.OverflowUnconstrained {
		t.Fatalf("overflow %v, info %v", spec.Overflow, info.Overflow)
	}
	if got := Print(spec); got[:len("overflow unconstrained\n")] != "overflow unconstrained\n" {
		t.Errorf("printed %q", got)
	}
	data, err := MarshalSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	back, err := UnmarshalSpec(data)
	if err != nil || !Equal(spec, back) {
		t.Errorf("JSON round trip: %v, equal %v", err, Equal(spec, back))
	}
	wraps, _, err := Load(&syntax.Source{Name: "w.sare", Text: src[len("overflow unconstrained\n"):]})
	if err != nil || Equal(spec, wraps) {
		t.Errorf("a wrapping specification equals an unconstrained one (%v)", err)
	}
	if _, _, err := Load(&syntax.Source{Name: "bad.sare", Text: "overflow sometimes\n" + src}); err == nil {
		t.Errorf("overflow sometimes accepted")
	}
}
