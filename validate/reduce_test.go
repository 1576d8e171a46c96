package validate

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
)

const redDotSpec = `param N
assume N >= 0
input A(k) : i32
tensor D() : i32
D() = reduce(+, k in 0 .. N, A(k))
output D
`

const redDotHead = `kernel dot(N)
assume N >= 0
in  a[k] : i32[N] = A(k)
out d[] : i32[] = D()
`

func validateText(t *testing.T, spec, prog string, model encode.Model) *Report {
	t.Helper()
	rep, err := Validate(context.Background(), &syntax.Source{Name: "r.sare", Text: spec}, &syntax.Source{Name: "r.sched", Text: prog},
		Options{ValueModel: model, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestReductionVerdicts checks the verdicts and reasons of the
// reduction checks on small kernels, and that every INVALID verdict's
// counterexample makes the interpreter fail.
func TestReductionVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		verdict    Verdict
		reason     string // the report's reason (a substring for UNKNOWN)
	}{
		{"reversed", "{\n  d[] {D() @ ()} := 0\n  for k < N {\n    d[] {D() @ (N - 1 - k)} += a[N - 1 - k]\n  }\n}\n", Valid, ""},
		{"atomic par", "{\n  d[] {D() @ ()} := 0\n  par k < N {\n    d[] {D() @ (k)} += a[k]\n  }\n}\n", Valid, ""},
		{"even odd", "{\n  alloc t : i32[2] {\n    t[0] {D() @ ()} := 0\n    t[1] {D() @ ()} := 0\n    for k < N {\n      t[k % 2] {D() @ (k)} += a[k]\n    }\n    d[] {D() @ ()} := 0\n    d[] {D()} += t[1]\n    d[] {D()} += t[0]\n  }\n}\n", Valid, ""},
		{"merged twice", "{\n  alloc t : i32[2] {\n    t[0] {D() @ ()} := 0\n    t[1] {D() @ ()} := 0\n    for k < N {\n      t[k % 2] {D() @ (k)} += a[k]\n    }\n    d[] {D() @ ()} := 0\n    d[] {D()} += t[1]\n    d[] {D()} += t[1]\n    d[] {D()} += t[0]\n  }\n}\n", Invalid, "position accumulated twice"},
		{"missing half", "{\n  alloc t : i32[2] {\n    t[0] {D() @ ()} := 0\n    t[1] {D() @ ()} := 0\n    for k < N {\n      t[k % 2] {D() @ (k)} += a[k]\n    }\n    d[] {D() @ ()} := 0\n    d[] {D()} += t[0]\n  }\n}\n", Invalid, "incomplete reduction"},
		{"outside", "{\n  d[] {D() @ ()} := 0\n  for k < N {\n    d[] {D() @ (k + 1)} += a[k]\n  }\n}\n", Invalid, "undefined annotation"},
		{"uninitialised", "{\n  for k < N {\n    d[] {D() @ (k)} += a[k]\n  }\n  if N == 0 { d[] {D()} := 0 }\n}\n", Invalid, "not an accumulator"},
		{"write races accumulation", "{\n  d[] {D() @ ()} := 0\n  par k < N {\n    d[] {D() @ (k)} += a[k]\n    if k == 1 {\n      d[] {D() @ ()} := 0\n    }\n  }\n}\n", Invalid, "write-write conflict"},
		{"read races accumulation", "{\n  alloc t : i32[] {\n  d[] {D() @ ()} := 0\n  par k < N {\n    d[] {D() @ (k)} += a[k]\n    t[] {D()} := d[]\n  }\n  }\n}\n", Invalid, ""},
		{"initial value not constant", "{\n  d[] {D() @ ()} := i32(N) - i32(N)\n  for k < N {\n    d[] {D() @ (k)} += a[k]\n  }\n}\n", Unknown, "the initial value is not a constant"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := validateText(t, redDotSpec, redDotHead+tc.body, encode.Real)
			if rep.Verdict != tc.verdict {
				var b strings.Builder
				rep.WriteText(&b, false)
				t.Fatalf("verdict %s, want %s\n%s", rep.Verdict, tc.verdict, b.String())
			}
			switch tc.verdict {
			case Invalid:
				if tc.reason != "" && rep.Reason != tc.reason {
					t.Errorf("reason %q, want %q", rep.Reason, tc.reason)
				}
				if cx := rep.Counterexample; cx == nil || !cx.Reproduced {
					t.Errorf("counterexample not reproduced: %+v", cx)
				}
			case Unknown:
				found := false
				for _, c := range rep.Conditions {
					found = found || strings.Contains(c.Reason, tc.reason)
				}
				if !found {
					t.Errorf("no undecided condition says %q", tc.reason)
				}
			}
		})
	}
}

// TestReductionFloatModels checks that a re-ordered float sum is valid
// over the reals, and invalid in ieee with inputs the interpreter fails
// on; the specification's own order is valid in both.
func TestReductionFloatModels(t *testing.T) {
	spec := strings.ReplaceAll(redDotSpec, "i32", "f32")
	head := strings.ReplaceAll(redDotHead, "i32", "f32")
	reversed := head + "{\n  d[] {D() @ ()} := 0\n  for k < N {\n    d[] {D() @ (N - 1 - k)} += a[N - 1 - k]\n  }\n}\n"
	inOrder := head + "{\n  d[] {D() @ ()} := 0\n  for k < N {\n    d[] {D() @ (k)} += a[k]\n  }\n}\n"
	if rep := validateText(t, spec, reversed, encode.Real); rep.Verdict != Valid {
		t.Errorf("real, reversed: %s (%s)", rep.Verdict, rep.Reason)
	}
	rep := validateText(t, spec, reversed, encode.IEEE)
	if rep.Verdict != Invalid || rep.Reason != "re-ordered float reduction" {
		t.Fatalf("ieee, reversed: %s (%s)", rep.Verdict, rep.Reason)
	}
	if cx := rep.Counterexample; !cx.Reproduced || len(cx.Inputs) == 0 {
		t.Errorf("ieee counterexample without inputs or not reproduced: %+v", cx)
	}
	for _, model := range []encode.Model{encode.Real, encode.IEEE} {
		if rep := validateText(t, spec, inOrder, model); rep.Verdict != Valid {
			t.Errorf("%s, in order: %s (%s)", model, rep.Verdict, rep.Reason)
		}
	}
}
