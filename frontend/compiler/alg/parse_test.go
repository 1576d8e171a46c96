package alg

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

func examples(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("../../../examples/alg/*.alg")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example algorithms: %v", err)
	}
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(b)
	}
	return out
}

const withSchedule = `param N, M, K
input A(i, k) : f32
input B(k, j) : f32
func C(i, j) : f32 = 0
rdom r(k in 0 .. K)
C(i, j) += A(i, r.k) * B(r.k, j)
output C over i in 0 .. N, j in 0 .. M

schedule {
  C.tile(i, j, io, jo, ii, ji, 8, 8).parallel(io).vectorize(ji)
  C.update(0).reorder(ji, ii, r.k, jo, io).vectorize(ji)
}
`

const filters = `param N
assume N >= 4
input A(x) : i32
func F(x) : i32 = A(x)
F(x) *= 2 where x % 2 == 0
rdom r(k in 0 .. 4)
F(x) -= A(x + r.k)
  where r.k != x % 4
F(x) = F(x) + i32(x)
output F over x in 0 .. N
`

// rfactor is a zero-dimensional output (output D, without over) with a
// schedule naming rfactor's intermediate.
const rfactor = `param N
input A(k) : f32
func D() : f32 = 0
rdom r(k in 0 .. N)
D() += A(r.k)
output D
schedule {
  D.update(0).split(r.k, ko, ki, 4).rfactor(ki, u, P)
  P.update(0).parallel(u)
}
`

// TestRoundTrip parses every example, prints it, parses the print and
// compares: the two programs are Equal and the print is a fixed point.
func TestRoundTrip(t *testing.T) {
	srcs := examples(t)
	srcs["rfactor"] = rfactor
	srcs["with-schedule"] = withSchedule
	srcs["filters"] = filters
	srcs["possibly-empty"] = "param N\ninput A(x) : f32\nfunc F() : f32 = 0\nrdom r(k in 0 .. N / 8) possibly empty\nF() += A(r.k)\noutput F\n"
	for name, text := range srcs {
		p, err := Load(&syntax.Source{Name: name, Text: text})
		if err != nil {
			t.Fatalf("%s: %v", name, err.(syntax.ErrorList).Detail())
		}
		out := Print(p)
		q, err := Load(&syntax.Source{Name: name + " (printed)", Text: out})
		if err != nil {
			t.Fatalf("%s: the print does not load: %v\n%s", name, err, out)
		}
		if !Equal(p, q) {
			t.Errorf("%s: print and parse changed the program:\n%s\n%s", name, out, Print(q))
		}
		if again := Print(q); again != out {
			t.Errorf("%s: print is not a fixed point:\n%s\n%s", name, out, again)
		}
	}
}

// TestSchedule checks the directives of a schedule block, one per call.
func TestSchedule(t *testing.T) {
	p, err := Load(&syntax.Source{Name: "s", Text: withSchedule})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range p.Schedule.Directives {
		got = append(got, d.Pos.String()+" "+d.String())
	}
	want := []string{
		"10:5 C.tile(i, j, io, jo, ii, ji, 8, 8)",
		"10:38 C.parallel(io)",
		"10:51 C.vectorize(ji)",
		"11:15 C.update(0).reorder(ji, ii, r.k, jo, io)",
		"11:44 C.update(0).vectorize(ji)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("directives:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestUpdates checks what Check records on update definitions.
func TestUpdates(t *testing.T) {
	p, err := Load(&syntax.Source{Name: "f", Text: filters})
	if err != nil {
		t.Fatal(err)
	}
	f := p.Func("F")
	if len(f.Updates) != 3 || f.Updates[0].RDom != nil || f.Updates[1].RDom == nil || f.Updates[1].RDom.Name.Name != "r" ||
		f.Updates[1].Op != SubFrom || f.Updates[2].Index != 2 {
		t.Errorf("updates of F: %+v", f.Updates)
	}
}

// TestErrors checks the position and code of errors in bad input, and
// that they come with a caret line.
func TestErrors(t *testing.T) {
	const head = "param N\ninput A(x) : f32\n"
	const out = "\noutput F over x in 0 .. N\n"
	for _, tc := range []struct {
		src, at string
		code    syntax.Code
	}{
		{"param N,\n", "t.alg:2:1", syntax.CodeSyntax},
		{head + "func F(x) f32 = 0" + out, "t.alg:3:11", syntax.CodeSyntax},
		{head + "func F(x) : f33 = 0" + out, "t.alg:3:13", syntax.CodeSyntax},
		{head + "func F(x) : f32 = A(x) +" + out, "t.alg:4:8", syntax.CodeSyntax},
		{head + "func F(x) : f32 = 0\nF(x) += A(x.y.z)" + out, "t.alg:4:11", syntax.CodeSyntax},
		{head + "func F(x) : f32 = 0\nF(x) ++ 1" + out, "t.alg:4:6", syntax.CodeSyntax},
		{head + "rdom r(k 0 .. N)", "t.alg:3:10", syntax.CodeSyntax},
		{head + "rdom r(k in 0 .. N) possibly", "t.alg:3:29", syntax.CodeSyntax},
		{head + "func F(x) : f32 = 0\noutput F over x in 0 N", "t.alg:4:22", syntax.CodeSyntax},
		{head + "func F(x) : f32 = 0\nschedule {\n  parallel(x)\n}" + out, "t.alg:5:3", syntax.CodeSyntax},
		{head + "func F(x) : f32 = 0\nschedule {\n  F.update(x).parallel(x)\n}" + out, "t.alg:5:12", syntax.CodeSyntax},
		{head + "func F.x(x) : f32 = 0" + out, "t.alg:3:6", syntax.CodeSyntax},
		// checker
		{head + "func F(x) : f32 = G(x)\nfunc G(x) : f32 = 0" + out, "t.alg:3:19", syntax.CodeUndeclared},
		{head + "func F(x) : f32 = F(x - 1)" + out, "t.alg:3:19", syntax.CodeDefinition},
		{head + "func F(x) : f32 = A(x) + 1.0 * f64(x)" + out, "t.alg:3:26", syntax.CodeType},
		{head + "func F(x) : f32 = A(x * N)" + out, "t.alg:3:21", syntax.CodeNotAffine},
		{head + "func F(x) : f32 = A(x) * x" + out, "t.alg:3:26", syntax.CodeType},
		{head + "func F(x) : f32 = 0\nrdom r(k in 0 .. N)\nF(x + 1) += A(r.k)" + out,
			"t.alg:5:3", syntax.CodeDefinition},
		{head + "func F(x) : f32 = 0\nrdom r(k in 0 .. N)\nF(r.k) += A(x)" + out,
			"t.alg:5:13", syntax.CodeUndeclared},
		{head + "func F(x) : f32 = 0\nF(x) += F(x + 1)" + out,
			"t.alg:4:11", syntax.CodeDefinition},
		{head + "func F(x) : f32 = 0\nrdom r(k in 0 .. N)\nF(x) += A(r.j)" + out, "t.alg:5:11", syntax.CodeUndeclared},
		{head + "func F(x) : f32 = 0\nF(x) += A(s.k)" + out, "t.alg:4:11", syntax.CodeUndeclared},
		{head + "func F(x) : f32 = 0\nrdom r(k in 0 .. N)\nrdom s(k in 0 .. N)\nF(x) += A(r.k + s.k)" + out, "t.alg:6:17", syntax.CodeDefinition},
		{head + "func F(x) : f32 = 0\nfunc G(x) : f32 = F(x)\nF(x) += 1\noutput G over x in 0 .. N", "t.alg:5:1", syntax.CodeDefinition},
		{head + "F(x) += 1" + out, "t.alg:3:1", syntax.CodeUndeclared},
		{head + "A(x) += 1" + out, "t.alg:3:1", syntax.CodeWrongKind},
		{head + "func buf_F(x) : f32 = 0\noutput buf_F over x in 0 .. N\n", "t.alg:3:6", syntax.CodeReserved},
		{head + "func F(x) : f32 = 0" + out + "output F over x in 0 .. N\n", "t.alg:5:8", syntax.CodeRedeclared},
		{head + "func F(x) : f32 = 0\nschedule {\n}\nschedule {\n}" + out, "t.alg:6:1", syntax.CodeDefinition},
		{head + "func F(x) : f32 = 0\nschedule {\n  A.parallel(x)\n}" + out, "t.alg:5:3", syntax.CodeWrongKind},
		{head + "func F(x) : f32 = 0\nF(x) += 1 where x * x > 0" + out, "t.alg:4:17", syntax.CodeNotAffine},
		{head + "func F(x) : f32 = 0\noutput F over y in 0 .. N", "t.alg:4:15", syntax.CodeBinding},
		{head + "func F(x) : f32 = 0\noutput F over x in 0 .. N, y in 0 .. N", "t.alg:4:8", syntax.CodeArity},
		{head + "func A(x) : f32 = 0" + out, "t.alg:3:6", syntax.CodeRedeclared},
		{head + "func F(x, x) : f32 = 0" + out, "t.alg:3:11", syntax.CodeRedeclared},
		{head + "func F(N) : f32 = 0" + out, "t.alg:3:8", syntax.CodeRedeclared},
		{head + "func F(x) : f32 = 0\n", "t.alg:1:1", syntax.CodeDefinition},
		{head + "assume N * N > 0\nfunc F(x) : f32 = 0" + out, "t.alg:3:8", syntax.CodeNotAffine},
		{head + "func F(x) : f32 = 0\nschedule {\n  G.parallel(x)\n}" + out, "t.alg:5:3", syntax.CodeUndeclared},
		{head + "func F(x) : f32 = 0\nschedule {\n  F.update(0).parallel(x)\n}" + out, "t.alg:5:15", syntax.CodeRange},
	} {
		_, err := Load(&syntax.Source{Name: "t.alg", Text: tc.src})
		if err == nil {
			t.Errorf("no error for\n%s\nwant %s at %s", tc.src, tc.code, tc.at)
			continue
		}
		el := err.(syntax.ErrorList)
		if e := el[0]; e.Code != tc.code || fmt.Sprintf("%s:%s", e.File, e.Pos) != tc.at {
			t.Errorf("for\n%s\ngot  %s [%s]\nwant %s at %s", tc.src, e, e.Code, tc.code, tc.at)
		}
		if d := el[0].Detail(); el[0].LineText != "" && !strings.Contains(d, "^") {
			t.Errorf("no caret in %q", d)
		}
	}
}

// TestErrorWording keeps the rendering of one error to the byte: the
// position, the message and the caret under the column.
func TestErrorWording(t *testing.T) {
	src := "param N\ninput A(x) : f32\nfunc F(x) : f32 = A(x) + 1.0 * f64(x)\noutput F over x in 0 .. N\n"
	_, err := Load(&syntax.Source{Name: "t.alg", Text: src})
	el, ok := err.(syntax.ErrorList)
	if !ok || len(el) != 1 {
		t.Fatalf("got %v, want one error", err)
	}
	want := "t.alg:3:26: mismatched types f32 and f64 (no implicit conversion: cast one side)\n" +
		"    func F(x) : f32 = A(x) + 1.0 * f64(x)\n" +
		"                             ^"
	if got := el.Detail(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
