package validate

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

// TestWrongSecondOutput validates a kernel with two out arrays bound to
// one tensor, the second holding wrong values: the proof (without the
// quick test, which would find it first) blames the second binding.
func TestWrongSecondOutput(t *testing.T) {
	spec := &syntax.Source{Name: "two.sare", Text: `param N
assume N >= 1
input A(i) : f32
tensor T(i) : f32
T(i) = A(i) + 1
output T
`}
	prog := &syntax.Source{Name: "two.sched", Text: `kernel two_out(N)
assume N >= 1
in  a[i] : f32[N] = A(i)
out x[i] : f32[N] = T(i)
out y[i] : f32[N] = T(i)
{
  for i < N {
    x[i] {T(i)} := a[i] + 1
    y[i] {A(i) + 2} := a[i] + 2
  }
}
`}
	rep, err := Validate(context.Background(), spec, prog, Options{Jobs: 1, NoQuickTest: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != Invalid || rep.Reason != "output wrong value" {
		t.Fatalf("verdict %s (%s), want invalid (output wrong value)\n%s", rep.Verdict, rep.Reason, reportText(rep))
	}
	cx := rep.Counterexample
	if cx.Line != 5 || cx.Stmt != "out y[i] : f32[N] = T(i)" {
		t.Errorf("counterexample at line %d, %q; want line 5, the binding of y\n%s", cx.Line, cx.Stmt, reportText(rep))
	}
	if !cx.Reproduced {
		t.Errorf("not reproduced: %s", cx.Replay)
	}
}

// TestOutputsUnderSeveralConjunctions validates the kernel of two out
// arrays under assumptions of two conjunctions (min(N, M) <= 8), which the
// output obligations keep apart from their points: the kernel whose
// second output is wrong is INVALID at that binding, with a
// counterexample within the assumptions that replays, and the kernel
// whose outputs are both right is VALID.
func TestOutputsUnderSeveralConjunctions(t *testing.T) {
	spec := &syntax.Source{Name: "two.sare", Text: `param N
param M
assume N >= 1
input A(i) : f32
tensor T(i) : f32
T(i) = A(i) + 1
output T
`}
	kernel := `kernel two_out(N, M)
assume N >= 1
assume min(N, M) <= 8
in  a[i] : f32[N] = A(i)
out x[i] : f32[N] = T(i)
out y[i] : f32[N] = T(i)
{
  for i < N {
    x[i] {T(i)} := a[i] + 1
    y[i] {Y} := a[i] + D
  }
}
`
	for _, c := range []struct {
		y, d    string
		verdict Verdict
	}{
		{"A(i) + 2", "2", Invalid},
		{"T(i)", "1", Valid},
	} {
		text := strings.NewReplacer("{Y}", "{"+c.y+"}", "+ D", "+ "+c.d).Replace(kernel)
		prog := &syntax.Source{Name: "two.sched", Text: text}
		rep, err := Validate(context.Background(), spec, prog, Options{Jobs: 1, NoQuickTest: true})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != c.verdict {
			t.Fatalf("y := a[i] + %s: verdict %s (%s), want %s\n%s", c.d, rep.Verdict, rep.Reason, c.verdict, reportText(rep))
		}
		if c.verdict != Invalid {
			continue
		}
		cx := rep.Counterexample
		if cx.Stmt != "out y[i] : f32[N] = T(i)" || !cx.Reproduced {
			t.Errorf("counterexample at %q, reproduced %v (%s)\n%s", cx.Stmt, cx.Reproduced, cx.Replay, reportText(rep))
		}
	}
}
