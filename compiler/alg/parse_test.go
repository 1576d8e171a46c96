package alg

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

func examples(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("../../examples/alg/*.alg")
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

// TestErrors checks the message and position of errors in bad input.
func TestErrors(t *testing.T) {
	const head = "param N\ninput A(x) : f32\n"
	const out = "\noutput F over x in 0 .. N\n"
	for _, tc := range []struct {
		src, want string
	}{
		{"param N,\n", "t.alg:2:1: expected parameter name, found end of file"},
		{head + "func F(x) f32 = 0" + out, "t.alg:3:11: expected ':', found 'f32'"},
		{head + "func F(x) : f33 = 0" + out, "t.alg:3:13: expected a type (bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64), found 'f33'"},
		{head + "func F(x) : f32 = A(x) +" + out, "t.alg:4:8: expected end of line, found 'F'"},
		{head + "func F(x) : f32 = 0\nF(x) += A(x.y.z)" + out, "t.alg:4:11: malformed RDom variable x.y.z (write r.k)"},
		{head + "func F(x) : f32 = 0\nF(x) ++ 1" + out, "t.alg:4:6: expected =, +=, -= or *=, found '+'"},
		{head + "rdom r(k 0 .. N)", "t.alg:3:10: expected 'in', found integer literal 0"},
		{head + "func F(x) : f32 = 0\noutput F over x in 0 N", "t.alg:4:22: expected '..', found 'N'"},
		{head + "func F(x) : f32 = 0\nschedule {\n  parallel(x)\n}" + out, "t.alg:5:3: expected a schedule directive such as F.parallel(y), found 'parallel'"},
		{head + "func F(x) : f32 = 0\nschedule {\n  F.update(x).parallel(x)\n}" + out, "t.alg:5:12: update takes a stage number, found x"},
		{head + "func F.x(x) : f32 = 0" + out, "t.alg:3:6: unexpected '.' in func name F.x"},
		// checker
		{head + "func F(x) : f32 = G(x)\nfunc G(x) : f32 = 0" + out, "t.alg:3:19: func G used before its definition (line 4)"},
		{head + "func F(x) : f32 = F(x - 1)" + out, "t.alg:3:19: the pure definition of F refers to F itself (use an update definition)"},
		{head + "func F(x) : f32 = A(x) + 1.0 * f64(x)" + out, "t.alg:3:26: mismatched types f32 and f64 (no implicit conversion: cast one side)"},
		{head + "func F(x) : f32 = A(x * N)" + out, "t.alg:3:21: x * N is not affine: a product needs a constant factor"},
		{head + "func F(x) : f32 = A(x) * x" + out, "t.alg:3:26: index x used as a value must be cast, as in f32(x)"},
		{head + "func F(x) : f32 = 0\nrdom r(k in 0 .. N)\nF(x + 1) += A(r.k)" + out,
			"t.alg:5:3: argument 1 of the update of F must be its pure variable x in place or an expression of RDom variables, not x + 1"},
		{head + "func F(x) : f32 = 0\nrdom r(k in 0 .. N)\nF(r.k) += A(x)" + out,
			"t.alg:5:13: pure variable x is not defined in this update: the left-hand side does not keep it in place"},
		{head + "func F(x) : f32 = 0\nF(x) += F(x + 1)" + out,
			"t.alg:4:11: F(x + 1) reads F at x + 1 in dimension 1: an update must read its own func with the pure variable x in place"},
		{head + "func F(x) : f32 = 0\nrdom r(k in 0 .. N)\nF(x) += A(r.j)" + out, "t.alg:5:11: RDom r has no variable j"},
		{head + "func F(x) : f32 = 0\nF(x) += A(s.k)" + out, "t.alg:4:11: s.k: s is not an RDom declared before"},
		{head + "func F(x) : f32 = 0\nrdom r(k in 0 .. N)\nrdom s(k in 0 .. N)\nF(x) += A(r.k + s.k)" + out, "t.alg:6:17: update of F uses two RDoms, r and s"},
		{head + "func F(x) : f32 = 0\nfunc G(x) : f32 = F(x)\nF(x) += 1\noutput G over x in 0 .. N", "t.alg:5:1: update of F after another definition: the definitions of a func must be consecutive"},
		{head + "F(x) += 1" + out, "t.alg:3:1: update of F, which is not a func"},
		{head + "func F(x) : f32 = 0\nF(x) += 1 where x * x > 0" + out, "t.alg:4:17: x * x is not affine: a product needs a constant factor"},
		{head + "func F(x) : f32 = 0\noutput F over y in 0 .. N", "t.alg:4:15: dimension 1 of F is x, not y"},
		{head + "func F(x) : f32 = 0\noutput F over x in 0 .. N, y in 0 .. N", "t.alg:4:8: F has 1 dimensions, the output region gives 2"},
		{head + "func A(x) : f32 = 0" + out, "t.alg:3:6: A redeclared (already a input)"},
		{head + "func F(x, x) : f32 = 0" + out, "t.alg:3:11: x appears twice"},
		{head + "func F(N) : f32 = 0" + out, "t.alg:3:8: N is a parameter and cannot name a pure variable"},
		{head + "func F(x) : f32 = 0\n", "t.alg:1:1: no output: add output F over x in 0 .. N"},
		{head + "assume N * N > 0\nfunc F(x) : f32 = 0" + out, "t.alg:3:8: N * N is not affine: a product needs a constant factor"},
		{head + "func F(x) : f32 = 0\nschedule {\n  G.parallel(x)\n}" + out, "t.alg:5:3: schedule of G, which is not a func"},
		{head + "func F(x) : f32 = 0\nschedule {\n  F.update(0).parallel(x)\n}" + out, "t.alg:5:15: F.update(0): F has 0 update definitions"},
	} {
		_, err := Load(&syntax.Source{Name: "t.alg", Text: tc.src})
		if err == nil {
			t.Errorf("no error for\n%s\nwant %s", tc.src, tc.want)
			continue
		}
		el := err.(syntax.ErrorList)
		if got := el[0].Error(); got != tc.want {
			t.Errorf("for\n%s\ngot  %s\nwant %s", tc.src, got, tc.want)
		}
		if d := el[0].Detail(); el[0].LineText != "" && !strings.Contains(d, "^") {
			t.Errorf("no caret in %q", d)
		}
	}
}
