package validate

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
)

// fastInverseSpec divides A by B through Halide's reciprocal estimate,
// fast_inverse, a function both value models leave uninterpreted.
const fastInverseSpec = `param N
assume N >= 1
input A(i) : f32
input B(i) : f32
tensor W(i) : f32
W(i) = A(i) * fast_inverse(B(i) + f32(1.0)) + fast_inverse_sqrt(A(i))
output W
`

func fastInverseKernel(arg string) string {
	return `kernel k(N)
assume N >= 1
in  a[i] : f32[N] = A(i)
in  b[i] : f32[N] = B(i)
out w[i] : f32[N] = W(i)
{
  for i < N {
    w[i] {W(i)} := a[i] * fast_inverse(` + arg + `) + fast_inverse_sqrt(a[i])
  }
}
`
}

// TestFastInverse: a kernel that applies fast_inverse to the
// specification's argument is VALID in both value models (the same
// function of equal arguments); one that applies it to another argument
// (B(i) or B(i) + 2 instead of B(i) + 1) is not: UNKNOWN in the real
// model, where no interpretation of the function is excluded, and
// INVALID in the IEEE model, with a counterexample that the interpreter
// (fast_inverse as 1 / x) reproduces.
func TestFastInverse(t *testing.T) {
	for _, m := range []encode.Model{encode.Real, encode.IEEE} {
		for _, arg := range []string{"b[i] + f32(1.0)", "b[i]", "b[i] + f32(2.0)"} {
			rep, err := Validate(context.Background(), &syntax.Source{Name: "f.sare", Text: fastInverseSpec},
				&syntax.Source{Name: "f.sched", Text: fastInverseKernel(arg)}, Options{Jobs: 1, ValueModel: m})
			if err != nil {
				t.Fatal(err)
			}
			want := Valid
			switch {
			case arg == "b[i] + f32(1.0)":
			case m == encode.Real:
				want = Unknown
				if !strings.Contains(rep.Reason, "functions the real model leaves uninterpreted") {
					t.Errorf("model %v, fast_inverse(%s): reason %q", m, arg, rep.Reason)
				}
			default:
				want = Invalid
				if rep.Reason != "annotation mismatch" || rep.Counterexample == nil || !rep.Counterexample.Reproduced {
					t.Errorf("model %v, fast_inverse(%s): %s, want a replayed annotation mismatch\n%s", m, arg, rep.Reason, reportText(rep))
				}
			}
			if rep.Verdict != want {
				t.Errorf("model %v, fast_inverse(%s): verdict %s (%s), want %s\n%s", m, arg, rep.Verdict, rep.Reason, want, reportText(rep))
			}
		}
	}
}
