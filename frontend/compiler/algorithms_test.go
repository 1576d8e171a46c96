package compiler

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// algorithms exercise what the examples do not: predicates, updates
// without RDom, the operators -= *= and =, integer types, RDoms and regions
// that start away from 0, dead funcs, several outputs.
var algorithms = []struct {
	name, src string
	params    [2]map[string]int64
}{
	{"filters", `param N
assume N >= 4
input A(x) : i32
func F(x) : i32 = A(x)
F(x) *= 2 where x % 2 == 0
rdom r(k in 0 .. 4)
F(x) -= A(x + r.k) where r.k != x % 4
F(x) = F(x) + i32(x)
output F over x in 0 .. N
`, [2]map[string]int64{{"N": 4}, {"N": 7}}},
	{"shifted", `param N, K, L
input In(x, y) : f64
input W(k) : f64
func G(x, y) : f64 = In(x + 2, y - L) * 0.5
func Dead(x) : f64 = W(x)
func H(x, y) : f64 = G(x, y) + G(x - 1, y + 1)
rdom s(t in 1 .. K + 1)
H(x, y) += W(s.t - 1) * G(x + s.t, y)
output H over x in -3 .. N, y in L .. L + 2
`, [2]map[string]int64{{"N": -2, "K": 1, "L": 0}, {"N": 3, "K": 3, "L": -2}}},
	{"two-outputs", `param N
input A(x) : u8
func P(x) : u16 = u16(A(2 * x)) + u16(A(2 * x + 1))
func Q(x) : u16 = P(x) << 1
func R(x) : u16 = P(x / 2) & 255
output Q over x in 0 .. N
output R over x in 0 .. 2 * N
`, [2]map[string]int64{{"N": 1}, {"N": 5}}},
	{"conv2d", `param W, H
input In(x, y) : f32
input K(i, j) : f32
func Out(x, y) : f32 = 0
rdom r(i in 0 .. 3, j in -1 .. 2)
Out(x, y) += K(r.i, r.j + 1) * In(x + r.i, y + r.j) where r.i != r.j + 1
output Out over x in 0 .. W, y in 0 .. H
`, [2]map[string]int64{{"W": 1, "H": 1}, {"W": 4, "H": 3}}},
	{"rdom3", `param N
input A(x, y, z) : i32
func S(t) : i32 = 1
rdom q(a in 0 .. 2, b in 0 .. 2, c in 1 .. N)
S(t) = S(t) * 3 + A(q.a + t, q.b, q.c)
output S over t in 0 .. 2
`, [2]map[string]int64{{"N": 2}, {"N": 3}}},
	{"piecewise", `param N
input A(x) : f32
func F(x) : f32 = A(x) * 2
func G(x) : f32 = F(min(x, 3)) + F(max(x - 2, 1))
output G over x in 0 .. N
`, [2]map[string]int64{{"N": 1}, {"N": 8}}},
	{"names", `param o
input A(x) : f32
func F(x) : f32 = A(x + o)
func G(o2) : f32 = F(o2) + F(o2 + 1)
output G over o2 in 0 .. o
`, [2]map[string]int64{{"o": 1}, {"o": 4}}},
}

func compileText(t *testing.T, name, src string) *Result {
	t.Helper()
	p, err := alg.Load(&syntax.Source{Name: name + ".alg", Text: src})
	if err != nil {
		t.Fatalf("%s: %v", name, detail(err))
	}
	r, err := Compile(context.Background(), p, strings.ReplaceAll(name, "-", "_"), Options{})
	if err != nil {
		t.Fatalf("%s: compile: %v", name, detail(err))
	}
	return r
}

// TestAlgorithms runs and validates the algorithms above.
func TestAlgorithms(t *testing.T) {
	for _, a := range algorithms {
		t.Run(a.name, func(t *testing.T) {
			r := compileText(t, a.name, a.src)
			for i, params := range a.params {
				if err := runKernel(r, params, uint64(i+7)); err != nil {
					t.Fatalf("params %v: %v\n%s\n%s", params, err, r.Spec, r.Sched)
				}
			}
			if testing.Short() {
				return
			}
			if rep := validatePair(t, r); rep.Verdict != validate.Valid {
				var b bytes.Buffer
				rep.WriteText(&b, false)
				t.Fatalf("verdict %s, want valid\n%s\n%s\n%s", rep.Verdict, b.String(), r.Spec, r.Sched)
			}
		})
	}
}

// TestCompileErrors checks what the compiler rejects as unsupported: the
// construct is reported at its position (the wording is free).
func TestCompileErrors(t *testing.T) {
	const head = "param N\ninput A(x) : f32\nfunc F(x) : f32 = 0\n"
	for _, tc := range []struct{ src, want string }{
		{head + "rdom r(k in 0 .. N)\nF(r.k) += A(r.k)\noutput F over x in 0 .. N\n", "5:3"},
		{head + "output F over x in 3 .. 3\n", "4:20"},
		{head + "func G(x) : f32 = F(x)\noutput F over x in 0 .. N\noutput G over x in 0 .. N\n", "5:1"},
		{"param N\ninput A(x) : f32\nfunc F(x) : f32 = A(x * 0)\noutput F over x in 0 .. N\n", ""},
	} {
		p, err := alg.Load(&syntax.Source{Name: "t.alg", Text: tc.src})
		if err != nil {
			t.Fatalf("%s: %v", tc.src, detail(err))
		}
		_, err = Compile(context.Background(), p, "t", Options{})
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.src, detail(err))
			}
			continue
		}
		if err == nil {
			t.Errorf("no error for\n%s", tc.src)
			continue
		}
		el, ok := err.(syntax.ErrorList)
		if !ok || len(el) != 1 || el[0].File != "t.alg" || el[0].Pos.String() != tc.want || el[0].Code != syntax.CodeUnsupported {
			t.Errorf("for\n%s\ngot  %v, want an unsupported construct at t.alg:%s", tc.src, err, tc.want)
		}
	}
}
