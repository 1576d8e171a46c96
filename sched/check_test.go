package sched

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/syntax"
)

func mustSpec(t *testing.T, text string) *sare.Spec {
	t.Helper()
	spec, errs := sare.Parse(&syntax.Source{Name: "s.sare", Text: text})
	if len(errs) > 0 {
		t.Fatalf("spec:\n%s", errs.Detail())
	}
	return spec
}

// loadMatmul loads the matrix product's specification
// (testdata/matmul.sare) with its type information.
func loadMatmul(tb testing.TB) (*sare.Spec, *expr.Info) {
	tb.Helper()
	data, err := os.ReadFile("testdata/matmul.sare")
	if err != nil {
		tb.Fatal(err)
	}
	spec, info, err := sare.Load(&syntax.Source{Name: "matmul.sare", Text: string(data)})
	if err != nil {
		tb.Fatal(err)
	}
	return spec, info
}

func matmulSpec(t *testing.T) *sare.Spec {
	data, err := os.ReadFile("testdata/matmul.sare")
	if err != nil {
		t.Fatal(err)
	}
	return mustSpec(t, string(data))
}

func TestCheckMatmul(t *testing.T) {
	spec := matmulSpec(t)
	k := parseFile(t, "testdata/matmul.sched")
	info, errs := Check(k, spec)
	if len(errs) > 0 {
		t.Fatalf("check:\n%s", errs.Detail())
	}
	if len(info.Arrays) != 3 || info.Array("c") == nil {
		t.Errorf("arrays: %+v", info.Arrays)
	}
}

// matmulHead is the matrix product's header, for checker cases.
const matmulHead = `kernel matmul(N, M, P)
in  a[i, k] : f32[N, P] = A(i, k)
in  b[k, j] : f32[P, M] = B(k, j)
out c[i, j] : f32[N, M] = C(i, j)
`

func TestCheckErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{matmulHead + "{\n  for i < N * M { skip }\n}\n",
			"k.sched:6:11: N * M is not affine: a product needs a constant factor\n      for i < N * M { skip }\n              ^"},
		{matmulHead + "{\n  c[0, 0] {C(0, 0)} := a[0, 0] * 2.0 + f64(1)\n}\n",
			"k.sched:6:40: mismatched types f32 and f64 (no implicit conversion: cast one side)\n      c[0, 0] {C(0, 0)} := a[0, 0] * 2.0 + f64(1)\n                                           ^"},
		{matmulHead + "{\n  c[0, 0] {c[0, 0]} := 0\n}\n",
			"k.sched:6:12: array read c[0, 0] is not allowed here\n      c[0, 0] {c[0, 0]} := 0\n               ^"},
		{matmulHead + "{\n  c[0, 0] {C(0, 0)} := A(0, 0)\n}\n",
			"k.sched:6:24: tensor access A(0, 0) is not allowed here (kernel code reads arrays)\n      c[0, 0] {C(0, 0)} := A(0, 0)\n                           ^"},
		{matmulHead + "{\n  for i < N { c[i, 0] {C(i, 0)} := f32(i) + i }\n}\n",
			"k.sched:6:45: index i used as a value must be cast, as in f32(i)\n      for i < N { c[i, 0] {C(i, 0)} := f32(i) + i }\n                                                ^"},
		{matmulHead + "{\n  c[0] {C(0, 0)} := 0\n}\n",
			"k.sched:6:3: array c has 2 dimensions, indexed with 1 index\n      c[0] {C(0, 0)} := 0\n      ^"},
		{matmulHead + "{\n  d[0] {C(0, 0)} := 0\n}\n",
			"k.sched:6:3: undefined array: d\n      d[0] {C(0, 0)} := 0\n      ^"},
		{matmulHead + "{\n  for i < N { for i < M { skip } }\n}\n",
			"k.sched:6:19: loop variable i redeclares a name already in scope\n      for i < N { for i < M { skip } }\n                      ^"},
		{matmulHead + "{\n  if N * 2 { skip }\n}\n",
			"k.sched:6:6: expected a constraint (a comparison of index expressions), found N * 2\n      if N * 2 { skip }\n         ^"},
		{matmulHead + "{\n  let x = a[0, 0]\n}\n",
			"k.sched:6:11: array read a[0, 0] in an index expression\n      let x = a[0, 0]\n              ^"},
		{matmulHead + "{\n  c[0, 0] {R(0, 0, 0) > 0.0} := 0\n}\n",
			"k.sched:6:12: R(0, 0, 0) > 0.0 has type bool, want f32\n      c[0, 0] {R(0, 0, 0) > 0.0} := 0\n               ^"},
		{matmulHead + "{\n  alloc a : i32[N] { skip }\n}\n",
			"k.sched:6:9: array a is already declared\n      alloc a : i32[N] { skip }\n            ^"},
		{"kernel matmul(N, M, Q)\nin  a[i, k] : f32[N, P] = A(i, k)\n{\n}\n",
			"k.sched:1:8: kernel matmul lacks the specification's parameter P\n    kernel matmul(N, M, Q)\n           ^\n" +
				"k.sched:1:8: output C of the specification is not produced by any out binding\n    kernel matmul(N, M, Q)\n           ^\n" +
				"k.sched:1:21: parameter Q is not a parameter of the specification\n    kernel matmul(N, M, Q)\n                        ^\n" +
				"k.sched:2:22: undefined: P\n    in  a[i, k] : f32[N, P] = A(i, k)\n                         ^"},
		{"kernel matmul(N, M, P)\nin  a[i, k] : f64[N, P] = A(i, k)\nout a[i, k] : f64[N, M] = A(i, k)\nout c[i] : f32[N, M] = C(i, i * i)\n{\n}\n",
			"k.sched:2:27: tensor A has type f32 but array a is declared f64\n    in  a[i, k] : f64[N, P] = A(i, k)\n                              ^\n" +
				"k.sched:3:5: array a is declared f64[N, M] here but f64[N, P] at 2:1: bindings of one array declare the same type and extents\n    out a[i, k] : f64[N, M] = A(i, k)\n        ^\n" +
				"k.sched:3:27: tensor A has type f32 but array a is declared f64\n    out a[i, k] : f64[N, M] = A(i, k)\n                              ^\n" +
				"k.sched:4:5: array c has 1 index variable for 2 extents\n    out c[i] : f32[N, M] = C(i, i * i)\n        ^\n" +
				"k.sched:4:29: i * i is not affine: a product needs a constant factor\n    out c[i] : f32[N, M] = C(i, i * i)\n                                ^"},
		{"kernel matmul(N, M, P)\nout c[i, j] : f32[N, M] = C(i, j) where i < 3\nout c[i, j] : f32[N, M] = C(i, j)\nin c[i, j] : f32[N, M] = X(i, j)\n{\n}\n",
			"k.sched:3:1: out bindings of array c overlap: the binding at 2:1 and this one must have disjoint where domains, and one has no where clause\n    out c[i, j] : f32[N, M] = C(i, j)\n    ^\n" +
				"k.sched:4:26: undefined tensor: X\n    in c[i, j] : f32[N, M] = X(i, j)\n                             ^"},
	}
	spec := matmulSpec(t)
	for _, c := range cases {
		k := mustParse(t, c.src)
		_, errs := Check(k, spec)
		if got := errs.Detail(); got != c.want {
			t.Errorf("errors for\n%s\ngot:\n%s\nwant:\n%s", c.src, got, c.want)
		}
	}
}

func TestLoad(t *testing.T) {
	spec := matmulSpec(t)
	data, err := os.ReadFile("testdata/matmul.sched")
	if err != nil {
		t.Fatal(err)
	}
	k, info, err := Load(&syntax.Source{Name: "m.sched", Text: string(data)}, spec)
	if err != nil || k == nil || info == nil {
		t.Fatalf("load: %v", err)
	}
	_, _, err = Load(&syntax.Source{Name: "m.sched", Text: "kernel k(\n"}, spec)
	var list syntax.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		t.Errorf("syntax error: %v", err)
	}
	k, _, err = Load(&syntax.Source{Name: "m.sched", Text: "kernel k(N)\n{\n}\n"}, spec)
	if !errors.As(err, &list) || k == nil || !strings.Contains(err.Error(), "lacks the specification's parameters M, P") {
		t.Errorf("check error: %v", err)
	}
}
