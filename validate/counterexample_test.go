package validate

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

// A counterexample whose failure the interpreter would reach only past
// the replay's steps is reported not replayed, without running it: the
// undefined read comes after N x N iterations, with N >= 3000.
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
