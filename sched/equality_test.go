package sched

import (
	"context"
	"testing"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// signedZeroSpec has a tensor of zeros and a sum: on inputs of -1, a
// product by zero is -0, the number zero of the real model, a value other
// than Z's +0 in the ieee model.
const signedZeroSpec = `param N
assume N >= 1
input A(i) : f32
tensor Z(i) : f32
Z(i) = 0
tensor D() : f32
D() = reduce(+, k in 0 .. N, A(k))
output Z
output D
`

// runNegative runs kernel against signedZeroSpec at N = 2 on inputs all
// -1, with the given equality.
func runNegative(t *testing.T, kernel string, eq value.Equality) error {
	t.Helper()
	spec, sinfo, err := sare.Load(&syntax.Source{Name: "s.sare", Text: signedZeroSpec})
	if err != nil {
		t.Fatalf("spec: %v", err)
	}
	k := mustParse(t, kernel)
	info, errs := Check(k, spec)
	if len(errs) > 0 {
		t.Fatalf("check:\n%s", errs.Detail())
	}
	minusOne := sare.InputFunc(func(*sare.Tensor, []int64) (value.Value, error) {
		return value.Float(syntax.F32, -1), nil
	})
	ev, err := sare.NewEvaluator(spec, sinfo, map[string]int64{"N": 2}, minusOne)
	if err != nil {
		t.Fatalf("evaluator: %v", err)
	}
	_, err = Run(context.Background(), k, info, ev, Options{Equality: eq})
	return err
}

// TestRunSignedZeros checks that the interpreter compares values with the
// equality of its value model everywhere it compares them: annotations,
// out cells, two iterations of a par loop writing one cell, and the
// identity of a reduction. Under value.RealEqual, −0 and +0 are the same
// number and every kernel here passes; under value.BitExact each fails.
func TestRunSignedZeros(t *testing.T) {
	const head = `kernel k(N)
assume N >= 1
in  a[i] : f32[N] = A(i)
out z[i] : f32[N] = Z(i)
out d[] : f32[] = D()
{
`
	const rest = `  d[] {D() @ ()} := 0
  for k < N {
    d[] {D() @ (k)} += a[k]
  }
}
`
	for _, tc := range []struct {
		name, body string
		kind       Kind // the failure under BitExact
		msg        string
	}{
		{
			name: "annotation",
			body: "  for i < N {\n    z[i] {Z(i)} := a[i] * 0\n  }\n",
			kind: WrongValue,
			msg:  "k.sched:8:5: annotation mismatch: z[0] := -0, but the annotation Z(i) = Z(0) is 0 (at i=0)",
		},
		{
			name: "out cell",
			body: "  for i < N {\n    z[i] {A(i) * 0} := a[i] * 0\n  }\n",
			kind: OutputWrongValue,
			msg:  "k.sched:4:1: output wrong value: z[0] holds -0 when the kernel ends; it should hold Z(0) = 0 (at i=0)",
		},
		{
			name: "par loop writes",
			body: "  par j < 2 {\n    z[0] {select(j == 0, A(0) * 0, Z(0))} := select(j == 0, a[0] * 0, 0)\n  }\n  z[1] {Z(1)} := 0\n",
			kind: WriteWriteConflict,
		},
	} {
		kernel := head + tc.body + rest
		t.Run(tc.name, func(t *testing.T) {
			if err := runNegative(t, kernel, value.RealEqual); err != nil {
				t.Errorf("RealEqual: %v", err)
			}
			wantFailure(t, runNegative(t, kernel, value.BitExact), tc.kind, tc.msg)
		})
	}
	// The accumulator starts at -0, the identity of + over the reals, a
	// different value from the specification's +0 in IEEE.
	kernel := head + "  for i < N {\n    z[i] {Z(i)} := 0\n  }\n  d[] {D() @ ()} := -0.0\n  for k < N {\n    d[] {D() @ (k)} += a[k]\n  }\n}\n"
	t.Run("identity", func(t *testing.T) {
		if err := runNegative(t, kernel, value.RealEqual); err != nil {
			t.Errorf("RealEqual: %v", err)
		}
		wantFailure(t, runNegative(t, kernel, value.BitExact), WrongIdentity, "")
	})
}
