package validate

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

const quickSpec = `param N
assume N >= 1
input A(i) : f32
tensor C(i) : f32
C(i) = sqrt(abs(A(i))) * sqrt(abs(A(i)))
tensor D(i) : f32
D(i) = A(i) * 2
output C, D
`

// quickKernel computes C as abs(a[i]), which the real value model
// equates with the square of its square root although binary32 arithmetic
// does not, and D with the expression d.
func quickKernel(d string) string {
	return `kernel quick(N)
assume N >= 1
in  a[i] : f32[N] = A(i)
out c[i] : f32[N] = C(i)
out d[i] : f32[N] = D(i)
{
  for i < N {
    c[i] {C(i)} := abs(a[i])
    d[i] {D(i)} := ` + d + `
  }
}
`
}

func hasPhase(rep *Report, name string) bool {
	for _, p := range rep.Timings {
		if p.Phase == name {
			return true
		}
	}
	return false
}

// TestQuickTest checks testing first: an exact difference found by the
// interpreter is the verdict before any symbolic evaluation, with a
// counterexample that reproduces; a difference of rounded values is no
// evidence (c), and the proof decides.
func TestQuickTest(t *testing.T) {
	validate := func(t *testing.T, prog string, opts Options) *Report {
		t.Helper()
		opts.Jobs = 1
		rep, err := Validate(context.Background(), &syntax.Source{Name: "q.sare", Text: quickSpec}, &syntax.Source{Name: "q.sched", Text: prog}, opts)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	t.Run("rounded difference", func(t *testing.T) {
		// The interpreter does find the difference, between inexact values.
		in, errs := loadInput(&syntax.Source{Name: "q.sare", Text: quickSpec}, &syntax.Source{Name: "q.sched", Text: quickKernel("a[i] + a[i]")})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		sh := &shared{ctx: context.Background()}
		f, _ := sh.quickRun(in, map[string]int64{"N": 8}, 1, quickSteps, true)
		if f == nil || f.Kind != sched.WrongValue || !f.Expected.Inexact() || quickEvidence(f, false, value.RealEqual) {
			t.Fatalf("the interpreter's failure %v: want an annotation mismatch of inexact values, no evidence", f)
		}
		rep := validate(t, quickKernel("a[i] + a[i]"), Options{})
		if rep.Verdict != Valid || !hasPhase(rep, "test") || !hasPhase(rep, "symbolic") {
			t.Fatalf("got %s (%s), phases %+v; want VALID after a test and the proof", rep.Verdict, rep.Reason, rep.Timings)
		}
	})
	t.Run("exact difference", func(t *testing.T) {
		rep := validate(t, quickKernel("a[i] + a[i] + a[i]"), Options{})
		if rep.Verdict != Invalid || rep.Reason != "annotation mismatch" {
			t.Fatalf("got %s (%s), want INVALID (annotation mismatch)", rep.Verdict, rep.Reason)
		}
		if hasPhase(rep, "symbolic") {
			t.Errorf("the test's failure must settle the verdict before the symbolic evaluation: %+v", rep.Timings)
		}
		cx := rep.Counterexample
		if cx == nil || !cx.Reproduced || cx.Line != 9 || !strings.HasPrefix(cx.Cell, "d[") ||
			!strings.Contains(cx.Detail, "testing first") || !strings.HasPrefix(cx.Command, "augur run q.sare q.sched --param N=") {
			t.Fatalf("counterexample %+v", cx)
		}
		if cx.ExpectedValue == "" || cx.ActualValue == "" || cx.ExpectedValue == cx.ActualValue {
			t.Errorf("values: expected %q, actual %q", cx.ExpectedValue, cx.ActualValue)
		}
	})
	t.Run("no quick test", func(t *testing.T) {
		rep := validate(t, quickKernel("a[i] + a[i] + a[i]"), Options{NoQuickTest: true})
		if rep.Verdict != Invalid || hasPhase(rep, "test") || !hasPhase(rep, "symbolic") {
			t.Fatalf("got %s (%s), phases %+v; want INVALID from the proof alone", rep.Verdict, rep.Reason, rep.Timings)
		}
		if strings.Contains(rep.Counterexample.Detail, "testing first") {
			t.Errorf("counterexample %+v comes from a test", rep.Counterexample)
		}
	})
	t.Run("too large to finish", func(t *testing.T) {
		// At the only point of the assumptions a run takes N * N * N
		// steps, past the budget: no test runs, though one would fail
		// at its first assignment; the proof finds the failure.
		prog := strings.Replace(quickKernel("a[i] + a[i] + a[i]"), "assume N >= 1", "assume N == 40", 1)
		prog = strings.Replace(prog, "for i < N {", "for r < N { for s < N { for i < N {", 1)
		prog = strings.Replace(prog, "\n  }\n}\n", "\n  } } }\n}\n", 1)
		var trace []string
		rep := validate(t, prog, Options{Trace: func(line string) { trace = append(trace, line) }})
		if rep.Verdict != Invalid || !hasPhase(rep, "symbolic") {
			t.Fatalf("got %s (%s), phases %+v; want INVALID from the proof", rep.Verdict, rep.Reason, rep.Timings)
		}
		var tests []string
		for _, l := range trace {
			if strings.Contains(l, "test at") {
				tests = append(tests, l)
			}
		}
		want := fmt.Sprintf("no test at N=40: a run needs more than the %d steps left", quickSteps)
		if len(tests) != 1 || tests[0] != want {
			t.Errorf("tests traced: %q; want only %q", tests, want)
		}
	})
	t.Run("one run per point", func(t *testing.T) {
		// Every range lies below the assumptions' smallest point: each
		// draw falls back to that point, tested once; a wrong kernel
		// still fails there.
		tests := func(d string) (*Report, []string) {
			prog := strings.Replace(quickKernel(d), "assume N >= 1", "assume N >= 40", 1)
			var trace []string
			rep := validate(t, prog, Options{Trace: func(line string) {
				if strings.Contains(line, "test at") {
					trace = append(trace, line)
				}
			}})
			return rep, trace
		}
		rep, trace := tests("a[i] + a[i]")
		if rep.Verdict != Valid || len(trace) != 1 || !strings.HasPrefix(trace[0], "test at N=40, seed 1, ") {
			t.Fatalf("got %s (%s), tests %q; want VALID after one test at N=40", rep.Verdict, rep.Reason, trace)
		}
		rep, trace = tests("a[i] + a[i] + a[i]")
		if rep.Verdict != Invalid || rep.Reason != "annotation mismatch" || hasPhase(rep, "symbolic") || len(trace) != 1 {
			t.Fatalf("got %s (%s), phases %+v, tests %q; want INVALID (annotation mismatch) from one test", rep.Verdict, rep.Reason, rep.Timings, trace)
		}
	})
	t.Run("out of bounds", func(t *testing.T) {
		rep := validate(t, strings.Replace(quickKernel("a[i + 1] + a[i + 1]"), "d[i] {D(i)}", "d[i + 1] {D(i + 1)}", 1), Options{})
		if rep.Verdict != Invalid || rep.Reason != "out-of-bounds read" || hasPhase(rep, "symbolic") {
			t.Fatalf("got %s (%s), phases %+v; want INVALID (out-of-bounds read) from a test", rep.Verdict, rep.Reason, rep.Timings)
		}
	})
}

// TestQuickEvidenceSignedZeros checks that a difference between −0 and +0
// is evidence in the ieee model only: over the reals they are one number.
func TestQuickEvidenceSignedZeros(t *testing.T) {
	negZero, zero := value.Float(syntax.F32, math.Copysign(0, -1)), value.Float(syntax.F32, 0)
	for _, kind := range []sched.Kind{sched.WrongValue, sched.OutputWrongValue, sched.WriteWriteConflict} {
		f := &sched.Failure{Kind: kind, Expected: zero, Actual: negZero}
		if quickEvidence(f, false, value.RealEqual) {
			t.Errorf("%s between +0 and -0: evidence in the real model", kind)
		}
		if !quickEvidence(f, false, value.BitExact) {
			t.Errorf("%s between +0 and -0: no evidence in the ieee model", kind)
		}
		f.Actual = value.Float(syntax.F32, 1)
		if !quickEvidence(f, false, value.RealEqual) {
			t.Errorf("%s between 0 and 1: no evidence in the real model", kind)
		}
	}
}
