package validate

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
)

// TestSignedZeroCounterexample validates a kernel that stores -0.0 where
// its specification has 0, then a wrong value: over the reals the first
// statement is right, and the counterexample, its quick test, its
// confirmation and its replay all name the second; in IEEE the first is
// wrong, and the command that reproduces it says so.
func TestSignedZeroCounterexample(t *testing.T) {
	spec := &syntax.Source{Name: "z.sare", Text: `param N
assume N >= 1
input A(i) : f32
tensor Z(i) : f32
Z(i) = 0
tensor Y(i) : f32
Y(i) = A(i)
output Z
output Y
`}
	prog := &syntax.Source{Name: "z.sched", Text: `kernel z(N)
assume N >= 1
in  a[i] : f32[N] = A(i)
out z[i] : f32[N] = Z(i)
out y[i] : f32[N] = Y(i)
{
  for i < N {
    z[i] {Z(i)} := -0.0
    y[i] {Y(i)} := a[i] + 1
  }
}
`}
	for _, tc := range []struct {
		model     encode.Model
		noQuick   bool
		line      int
		replay    string // in the replay's failure
		command   string // in the command that reproduces it
		noCommand string // not in it
	}{
		{model: encode.Real, line: 9, replay: "y[0] := ", noCommand: "--value-model"},
		{model: encode.Real, noQuick: true, line: 9, replay: "y[0] := ", noCommand: "--value-model"},
		{model: encode.IEEE, line: 8, replay: "z[0] := -0, but the annotation", command: "--value-model ieee"},
		{model: encode.IEEE, noQuick: true, line: 8, replay: "z[0] := -0, but the annotation", command: "--value-model ieee"},
	} {
		name := tc.model.String()
		if tc.noQuick {
			name += "/no-quick-test"
		}
		t.Run(name, func(t *testing.T) {
			rep, err := Validate(context.Background(), spec, prog, Options{ValueModel: tc.model, Jobs: 1, NoQuickTest: tc.noQuick})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != Invalid || rep.Reason != "annotation mismatch" {
				t.Fatalf("verdict %s (%s), want invalid (annotation mismatch)\n%s", rep.Verdict, rep.Reason, reportText(rep))
			}
			cx := rep.Counterexample
			if cx.Line != tc.line || !cx.Reproduced || !strings.Contains(cx.Replay, tc.replay) {
				t.Errorf("counterexample at line %d, reproduced %v (%s); want line %d, reproduced by a failure with %q\n%s",
					cx.Line, cx.Reproduced, cx.Replay, tc.line, tc.replay, reportText(rep))
			}
			if !strings.Contains(cx.Command, tc.command) || (tc.noCommand != "" && strings.Contains(cx.Command, tc.noCommand)) {
				t.Errorf("command %q, want %q in it and not %q", cx.Command, tc.command, tc.noCommand)
			}
		})
	}
}
