package validate

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

// A counterexample whose failure the interpreter would reach only past
// the replay's steps is reported not replayed, without running it: the
// undefined read comes after N x N iterations, with N >= 3000. Without
// garbage writes the read itself is the failure; with them, only a
// replay that shows ⊥ reaching c would be, and there is none.
func TestReplayOutOfReach(t *testing.T) {
	const spec = `param N
assume N >= 3000
input A(i) : f32
tensor C(i) : f32
C(i) = A(i)
output C
`
	const prog = `kernel k(N)
assume N >= 3000
in  a[i] : f32[N] = A(i)
out c[i] : f32[N] = C(i)
{
  alloc t : f32[1] {
    for i < N {
      for j < N {
        c[i] {C(i)} := a[i]
      }
    }
    c[0] {C(0)} := t[0] + a[0]
  }
}
`
	rep, err := Validate(context.Background(), &syntax.Source{Name: "s.sare", Text: spec}, &syntax.Source{Name: "k.sched", Text: prog}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != Unknown || !conditionReason(rep, "counterexample not confirmed: no replay with garbage writes shows it reaching an output (not replayed: the interpreter would report") {
		t.Errorf("with garbage writes: %s (%s) %+v, want unknown for want of a replay", rep.Verdict, rep.Reason, rep.Conditions)
	}
	rep, err = Validate(context.Background(), &syntax.Source{Name: "s.sare", Text: spec}, &syntax.Source{Name: "k.sched", Text: prog}, Options{NoGarbageWrites: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != Invalid || rep.Reason != "undefined read" {
		t.Fatalf("verdict %s (%s), want invalid (undefined read)", rep.Verdict, rep.Reason)
	}
	cx := rep.Counterexample
	if cx == nil || len(cx.Params) != 1 || cx.Params[0].Value < 3000 {
		t.Fatalf("counterexample %+v, want one at N >= 3000", cx)
	}
	if cx.Reproduced || !strings.HasPrefix(cx.Replay, "not replayed: the interpreter would report this failure only after more than") {
		t.Errorf("replay %q (reproduced %v), want not replayed for want of steps", cx.Replay, cx.Reproduced)
	}
	if !strings.HasPrefix(cx.Command, "augur run s.sare k.sched --param N=") {
		t.Errorf("command %q, want the augur run line at the counterexample", cx.Command)
	}
}

// conditionReason reports whether a condition of rep has a reason that
// starts with prefix.
func conditionReason(rep *Report, prefix string) bool {
	for _, c := range rep.Conditions {
		if strings.HasPrefix(c.Reason, prefix) {
			return true
		}
	}
	return false
}

// TestShrinkToSmallest: a bug that shows only from some size on is
// reported at the smallest parameters that show it (the smallest largest
// one, for several), whether the solver finds it (a value condition: the
// models are bisected down from the first one confirmed) or the
// Presburger sets do (an out-of-bounds read: so is the sample).
func TestShrinkToSmallest(t *testing.T) {
	for _, tc := range []struct {
		spec, prog string
		reason     string
		params     string
	}{
		{"late", "late_bug_87", "annotation mismatch", "[{N 87}]"},
		{"late", "late_bug_151", "annotation mismatch", "[{N 151}]"},
		{"late", "late_bug_5002", "annotation mismatch", "[{N 5002}]"},
		{"late2", "late2_bug_300", "annotation mismatch", "[{M 150} {N 150}]"},
		{"late2", "late2_oob_300", "out-of-bounds read", "[{M 150} {N 150}]"},
	} {
		t.Run(tc.prog, func(t *testing.T) {
			dir := filepath.Join("testdata", "verdicts")
			rep := validateFiles(t, filepath.Join(dir, tc.spec+".sare"), filepath.Join(dir, tc.prog+".sched"), Options{Jobs: 1})
			if rep.Verdict != Invalid || rep.Reason != tc.reason {
				t.Fatalf("got %s (%s), want invalid (%s)", rep.Verdict, rep.Reason, tc.reason)
			}
			if cx := rep.Counterexample; fmt.Sprint(cx.Params) != tc.params || !cx.Reproduced {
				t.Errorf("counterexample at %v (reproduced %v), want %s, reproduced", cx.Params, cx.Reproduced, tc.params)
			}
		})
	}
}
