package symeval

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/sched"
)

// twoOutSpec and twoOutKernel bind two out arrays to one tensor; the
// second, y, holds the wrong values.
const (
	twoOutSpec = `param N
assume N >= 1
input A(i) : f32
tensor T(i) : f32
T(i) = A(i) + 1
output T
`
	twoOutKernel = `kernel two_out(N)
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
`
)

// TestOutputObligationsAtTheirBinding checks that each output obligation
// is located at the out binding whose cells it checks, not at the first
// binding of the same tensor: the obligation of y's cells compares y's
// values (A(i) + 2) with T, and is located at y's binding.
func TestOutputObligationsAtTheirBinding(t *testing.T) {
	p := loadPair(t, "two.sare", twoOutSpec, "two.sched", twoOutKernel)
	a, err := Analyze(context.Background(), p.kernel, p.kinfo, p.spec, p.sinfo, AnalyzeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{} // binding text -> the obligation's kernel side
	for _, c := range a.Conditions {
		if c.Kind != sched.OutputWrongValue || c.Obligation == nil {
			continue
		}
		if _, dup := got[c.Text]; dup {
			t.Errorf("two output obligations located at %s", c.Text)
		}
		got[c.Text] = c.Obligation.Impl.String()
	}
	// The kernel sides, up to the names of their holes.
	want := map[string]string{
		"out x[i] : f32[N] = T(i)": "T(",
		"out y[i] : f32[N] = T(i)": "A(",
	}
	if len(got) != len(want) {
		t.Fatalf("output obligations at %v, want %v", got, want)
	}
	for text, impl := range want {
		if !strings.HasPrefix(got[text], impl) {
			t.Errorf("obligation at %q has kernel side %q, want %q... (all: %v)", text, got[text], impl, got)
		}
	}
}

// TestOutputsKeepAssumptionsApart checks that under assumptions of
// several conjunctions that a heap's piece meets together (min(N, M) <= 8
// is N <= 8 or M <= 8), the output obligations keep the assumptions apart
// (Obligation.Assumed) rather than restricting the out cells to each
// conjunction, one piece of points per binding, and that every out cell
// is still found written.
func TestOutputsKeepAssumptionsApart(t *testing.T) {
	spec := strings.Replace(twoOutSpec, "param N\n", "param N\nparam M\n", 1)
	kernel := strings.Replace(strings.Replace(twoOutKernel, "two_out(N)", "two_out(N, M)", 1),
		"assume N >= 1\n", "assume N >= 1\nassume min(N, M) <= 8\n", 1)
	p := loadPair(t, "two.sare", spec, "two.sched", kernel)
	a, err := Analyze(context.Background(), p.kernel, p.kinfo, p.spec, p.sinfo, AnalyzeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := a.Assumptions.NumBasics(); n != 2 {
		t.Fatalf("assumptions of %d conjunctions, want 2: %s", n, a.Assumptions)
	}
	obs, written := 0, false
	for _, c := range a.Conditions {
		switch {
		case c.Kind == sched.OutputNotWritten:
			written = c.Status == Proved
		case c.Kind == sched.OutputWrongValue && c.Obligation != nil:
			obs++
			if c.Obligation.Assumed == nil {
				t.Errorf("obligation at %s: assumptions not kept apart, points %s", c.Text, c.Obligation.Points)
			}
			if n := c.Obligation.Points.NumBasics(); n != 1 {
				t.Errorf("obligation at %s: %d pieces of points, want 1: %s", c.Text, n, c.Obligation.Points)
			}
		}
	}
	if obs != 2 || !written {
		t.Fatalf("%d output obligations, every out cell written: %v; want 2 and true", obs, written)
	}
}
