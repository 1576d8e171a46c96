package sare

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

func TestReductionEval(t *testing.T) {
	const text = `param N
assume N >= 0
input A(k) : i32
tensor S() : i32
S() = reduce(+, k in 0 .. N, A(k))
tensor M() : i32
M() = reduce(max, k in 0 .. N where k % 2 == 1, A(k))
tensor P() : f64
P() = reduce(*, x in 0 .. N, y in 0 .. x, f64(x + y + 1))
output S, M, P
`
	spec, info := load(t, "r.sare", text)
	in := InputFunc(func(_ *Tensor, idx []int64) (value.Value, error) {
		return value.Int(syntax.I32, 10-3*idx[0]), nil
	})
	for _, tc := range []struct {
		n    int64
		s, m int64
		p    float64
	}{
		{0, 0, math.MinInt32, 1},
		{1, 10, math.MinInt32, 1},
		{4, 10 + 7 + 4 + 1, 7, 2 * 3 * 4 * 4 * 5 * 6},
	} {
		ev, err := NewEvaluator(spec, info, map[string]int64{"N": tc.n}, in)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		s, _ := ev.Eval(ctx, "S", nil)
		m, _ := ev.Eval(ctx, "M", nil)
		p, _ := ev.Eval(ctx, "P", nil)
		if s.Int64() != tc.s || m.Int64() != tc.m || p.Float64() != tc.p {
			t.Errorf("N=%d: S=%s M=%s P=%s, want %d %d %g", tc.n, s, m, p, tc.s, tc.m, tc.p)
		}
	}
}

func TestReductionErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"param N\ninput A(k) : f32\ntensor S() : f32\nS() = reduce(&, k in 0 .. N, A(k))\noutput S\n", "operator & does not apply to f32"},
		{"param N\ninput A(k) : f32\ntensor S(k) : f32\nS(k) = reduce(+, k in 0 .. N, A(k))\noutput S\n", "already a variable"},
		{"param N\ninput A(k) : f32\ntensor S() : f32\nS() = reduce(+, k in 0 .. N, A(k))\nS() = 1 where N < 0\noutput S\n", "only equation"},
		{"param N\ninput A(k) : f32\ntensor S() : f32\nS() = reduce(+, A(k))\noutput S\n", "reduction variable"},
	} {
		spec, errs := Parse(&syntax.Source{Name: "e.sare", Text: tc.text})
		if errs.Err() == nil {
			_, errs = Check(spec)
		}
		if err := errs.Err(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
}
