package sched

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

func parseFile(t *testing.T, path string) *Kernel {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	k, errs := Parse(&syntax.Source{Name: path, Text: string(data)})
	if len(errs) > 0 {
		t.Fatalf("parse %s:\n%s", path, errs.Detail())
	}
	return k
}

func mustParse(t *testing.T, text string) *Kernel {
	t.Helper()
	k, errs := Parse(&syntax.Source{Name: "k.sched", Text: text})
	if len(errs) > 0 {
		t.Fatalf("parse:\n%s\nsource:\n%s", errs.Detail(), text)
	}
	return k
}

func TestPrintMatmul(t *testing.T) {
	data, err := os.ReadFile("testdata/matmul.sched")
	if err != nil {
		t.Fatal(err)
	}
	k := parseFile(t, "testdata/matmul.sched")
	if got := Print(k); got != string(data) {
		t.Errorf("print:\n%s\nwant:\n%s", got, data)
	}
}

// roundTripKernels parse, print canonically, and come back Equal.
var roundTripKernels = []string{
	"kernel k()\n{\n}\n",
	`kernel dot(N)
in  a[k] : f32[N] = A(k)
out d[] : f32[] = D()
{
  alloc t : f32[4] {
    par p < 4 {
      t[p] {D() @ ()} := 0
      for q < (N + 3 - p) / 4 {
        t[p] {D() @ (4 * q + p)} += a[4 * q + p]
      }
    }
    d[] {D() @ ()} := 0
    for p < 4 {
      d[] {D()} max= t[p]
      d[] {D() @ (p, p + 1)} ^= t[p]
    }
  }
}
`,
	"kernel k(N) {\n  skip\n}\n",
	`kernel k(N, M)
assume N >= 1
assume M % 4 == 0
in  a[i, j] : f32[N, M] = A(i, j) where i < j
in  a[i, j] : f32[N, M] = B(i, j) where i >= j
out z[] : i32[] = Z()
{
  for x in 1 .. N - 1 { par y in 0 .. M { skip } }
  if N > 2 { skip } else if N == 1 { skip }
  else { let q = N / 2; z[] {Z()} := i32(q) }
  alloc t : u8[N, 2 * M + 1] {
    t[0, 0] {T(0)} := u8(3) & 0xFF ^ ~u8(1)
    { let w = max(N, 3) ; skip }
  }
  if not (N < 3 or M >= 2) {
  } else {
  }
}
`,
	"kernel k(N); { skip; skip }",
	"# comment\nkernel k(N) # trailing\n\n{ # open\n  skip # one\n\n}\n",
	"kernel k(N)\n{\n  if N > 1 {\n    skip\n  }\n  else {\n    skip\n  }\n}\n",
	"kernel k(N)\n{\n  a[i,\n    j] {\n    A(i, j)\n  } := a[i, j] +\n    1.5e3\n}\n",
}

func TestRoundTrip(t *testing.T) {
	var cases []string
	cases = append(cases, roundTripKernels...)
	files, _ := filepath.Glob("testdata/*.sched")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, string(data))
	}
	for _, src := range cases {
		k := mustParse(t, src)
		printed := Print(k)
		k2 := mustParse(t, printed)
		if !Equal(k, k2) {
			t.Errorf("parse(print(k)) != k for\n%s\nprinted:\n%s", src, printed)
		}
		if again := Print(k2); again != printed {
			t.Errorf("printing is not idempotent:\n%s\nthen\n%s", printed, again)
		}
		data, err := Marshal(k)
		if err != nil {
			t.Fatal(err)
		}
		k3, err := Unmarshal(data)
		if err != nil {
			t.Errorf("json: %v\n%s", err, data)
			continue
		}
		if !Equal(k, k3) {
			t.Errorf("json round trip changed\n%s\ninto\n%s", printed, Print(k3))
		}
	}
}

func TestLoopBounds(t *testing.T) {
	k := mustParse(t, "kernel k(N)\n{\n  for i < N { skip }\n  par j in 2 .. N { skip }\n}\n")
	l0 := k.Body.Stmts[0].(*Loop)
	lo, hi := l0.Bounds()
	if syntax.ExprString(lo) != "0" || syntax.ExprString(hi) != "N" || l0.Par {
		t.Errorf("for i < N: bounds %s, %s", syntax.ExprString(lo), syntax.ExprString(hi))
	}
	l1 := k.Body.Stmts[1].(*Loop)
	lo, hi = l1.Bounds()
	if syntax.ExprString(lo) != "2" || syntax.ExprString(hi) != "N" || !l1.Par {
		t.Errorf("par j in 2 .. N: bounds %s, %s", syntax.ExprString(lo), syntax.ExprString(hi))
	}
}

func TestStmtLine(t *testing.T) {
	k := mustParse(t, "kernel k(N)\n{\n  par i in 1 .. N { c[i] {C(i)} := a[i - 1] }\n  if N > 0 { skip } else { skip }\n  alloc t : f32[N] { skip }\n}\n")
	want := []string{"par i in 1 .. N", "if N > 0", "alloc t : f32[N]"}
	for i, s := range k.Body.Stmts {
		if got := StmtLine(s); got != want[i] {
			t.Errorf("StmtLine = %q, want %q", got, want[i])
		}
	}
	inner := k.Body.Stmts[0].(*Loop).Body.Stmts[0]
	if got := StmtLine(inner); got != "c[i] {C(i)} := a[i - 1]" {
		t.Errorf("StmtLine = %q", got)
	}
}

// TestParseErrors checks the exact rendering of syntax errors, caret
// included, and that independent errors are all reported.
func TestParseErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{
			"kernel k(N)\nout b[i] : f33[N] = B(i)\n{\n}\n",
			`k.sched:2:12: expected a type (bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64), found 'f33'
    out b[i] : f33[N] = B(i)
               ^`,
		},
		{
			"kernel k(N)\n{\n  b[i] {B(i)} = a[i]\n  b[i] {B(i) := a[i]\n  skip skip\n}\n",
			`k.sched:3:15: expected ':=', found '='
      b[i] {B(i)} = a[i]
                  ^
k.sched:4:14: expected '}', found ':='
      b[i] {B(i) := a[i]
                 ^
k.sched:5:8: expected end of line, found 'skip'
      skip skip
           ^`,
		},
		{
			"kernel k(N)\n{\n  par i < ) {\n    b[i) {B(i)} := 1\n  }\n  else { }\n  let 3 = 4\n}\n",
			`k.sched:3:11: expected an expression, found ')'
      par i < ) {
              ^
k.sched:4:8: expected ']', found ')'
        b[i) {B(i)} := 1
           ^
k.sched:6:3: 'else' without a matching 'if'
      else { }
      ^
k.sched:7:7: expected variable name, found integer literal 3
      let 3 = 4
          ^`,
		},
		{
			"kernel k(N)\nin a[i] : f32[N] = A(i) + 1\nin for[i] : f32[N] = A(i)\nassume N >= )\n{\n  for i N { skip }\n  alloc t : f32 { skip }\n}\n",
			`k.sched:2:20: expected a tensor access T(...), found A(i) + 1
    in a[i] : f32[N] = A(i) + 1
                       ^
k.sched:3:4: expected array name, found 'for'
    in for[i] : f32[N] = A(i)
       ^
k.sched:4:13: expected an expression, found ')'
    assume N >= )
                ^
k.sched:6:9: expected '<' or 'in', found 'N'
      for i N { skip }
            ^
k.sched:7:17: expected '[', found '{'
      alloc t : f32 { skip }
                    ^`,
		},
		{
			"kernel k(N)\n{\n  skip\n",
			`k.sched:4:1: expected '}', found end of file`,
		},
		{
			"kernel k(N)\n{\n}\n}\n",
			`k.sched:4:1: expected end of file after the kernel body, found '}'
    }
    ^`,
		},
		{
			"kernel (N)\n{\n}\n",
			`k.sched:1:8: expected kernel name, found '('
    kernel (N)
           ^`,
		},
	}
	for _, c := range cases {
		_, errs := Parse(&syntax.Source{Name: "k.sched", Text: c.src})
		if got := errs.Detail(); got != c.want {
			t.Errorf("errors for\n%s\ngot:\n%s\nwant:\n%s", c.src, got, c.want)
		}
	}
}

func TestJSONRejects(t *testing.T) {
	for _, in := range []string{
		`{"name":"for","params":[],"bindings":[],"body":[]}`,
		`{"name":"k","params":["in"],"bindings":[],"body":[]}`,
		`{"name":"k","params":[],"bindings":[{"dir":"inout","array":"a","vars":[],"type":"f32","extents":[],"tensor":{"kind":"call","name":"A"}}],"body":[]}`,
		`{"name":"k","params":[],"bindings":[{"dir":"in","array":"a","vars":[],"type":"f16","extents":[],"tensor":{"kind":"call","name":"A"}}],"body":[]}`,
		`{"name":"k","params":[],"bindings":[{"dir":"in","array":"a","vars":[],"type":"f32","extents":[],"tensor":{"kind":"ident","name":"A"}}],"body":[]}`,
		`{"name":"k","params":[],"bindings":[],"body":[{"kind":"goto"}]}`,
		`{"name":"k","params":[],"bindings":[],"body":[{"kind":"assign","array":"a","indices":[],"value":{"kind":"int","value":"1"}}]}`,
		`{"name":"k","params":[],"bindings":[],"body":[{"kind":"if","cond":{"kind":"bool","value":"true"},"else":{"kind":"skip"}}]}`,
		`{"name":"k","params":[],"bindings":[],"body":[{"kind":"for","var":"i","body":[]}]}`,
		`{"name":"k","params":[],"bindings":[],"body":[null]}`,
		`{"name":"k","params":[],"bindings":[],"body":` + strings.Repeat(`[{"kind":"block","body":`, 300) + `[]` + strings.Repeat(`}]`, 300) + `}`,
		`not json`,
	} {
		if k, err := Unmarshal([]byte(in)); err == nil {
			t.Errorf("accepted %s as\n%s", in, Print(k))
		}
	}
}

func TestEqualDistinguishes(t *testing.T) {
	base := "kernel k(N)\nin  a[i] : f32[N] = A(i)\n{\n  for i < N { a[i] {A(i)} := a[i] }\n}\n"
	k := mustParse(t, base)
	for _, other := range []string{
		"kernel k(N)\nin  a[i] : f32[N] = A(i)\n{\n  for i in 0 .. N { a[i] {A(i)} := a[i] }\n}\n",
		"kernel k(N)\nin  a[i] : f32[N] = A(i)\n{\n  par i < N { a[i] {A(i)} := a[i] }\n}\n",
		"kernel k(N)\nout a[i] : f32[N] = A(i)\n{\n  for i < N { a[i] {A(i)} := a[i] }\n}\n",
		"kernel k(N)\nin  a[i] : f64[N] = A(i)\n{\n  for i < N { a[i] {A(i)} := a[i] }\n}\n",
		"kernel k(N)\nin  a[i] : f32[N] = A(i) where i > 0\n{\n  for i < N { a[i] {A(i)} := a[i] }\n}\n",
		"kernel k(N)\nin  a[i] : f32[N] = A(i)\n{\n  for i < N { a[i] {A(i + 1)} := a[i] }\n}\n",
		"kernel k(N)\nin  a[i] : f32[N] = A(i)\n{\n  for i < N { a[i] {A(i)} := a[i] }\n  skip\n}\n",
		"kernel k(N)\nin  a[i] : f32[N] = A(i)\n{\n  for i < N { { a[i] {A(i)} := a[i] } }\n}\n",
		"kernel k(N, M)\nin  a[i] : f32[N] = A(i)\n{\n  for i < N { a[i] {A(i)} := a[i] }\n}\n",
		"kernel k(N)\nassume N > 0\nin  a[i] : f32[N] = A(i)\n{\n  for i < N { a[i] {A(i)} := a[i] }\n}\n",
	} {
		if Equal(k, mustParse(t, other)) {
			t.Errorf("Equal(%q, %q)", base, other)
		}
	}
	if !Equal(k, mustParse(t, "# same\nkernel k(N)\nin a[i]:f32[N]=A(i)\n{ for i < N {\n a[i] {A(i)} := a[i]\n } }")) {
		t.Errorf("layout changed equality")
	}
	var n int
	Walk(k.Body, func(Stmt) bool { n++; return true })
	if n != 2 {
		t.Errorf("Walk visited %d statements, want 2", n)
	}
}
