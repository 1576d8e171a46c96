package validate

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

// sliceForRadiusSpec is the shape of Halide's apps/max_filter
// slice_for_radius, floor(log(2t + 1) / logf(2)) converted to i32, with
// logf(2) folded into its binary32 value, over t < N <= bound.
func sliceForRadiusSpec(bound string) string {
	return `param N
assume N >= 1 and N <= ` + bound + `
tensor S(t) : i32
S(t) = i32(floor(log(f32(i32(2 * t + 1))) / f32(0.693147182464599609375)))
output S
`
}

// sliceForRadiusKernel computes it as Halide does without strict_float,
// the division by the constant folded into a product by a constant,
// recip.
func sliceForRadiusKernel(bound, recip string) string {
	return `kernel k(N)
assume N >= 1 and N <= ` + bound + `
out s[t] : i32[N] = S(t)
{
  for t < N {
    s[t] {S(t)} := i32(floor(log(f32(i32(2 * t + 1))) * f32(` + recip + `)))
  }
}
`
}

// TestLogBounds: the real model's bounds of log (docs/validate.md,
// "Value models") prove the float-to-integer conversion of max_filter's
// slice_for_radius defined, at its 5 points (N <= 5) and at arguments up
// to 1999 (N <= 1000, the tangents above 1 needed), so that the kernel's
// product by the binary32 reciprocal of logf(2), read as 1 / logf(2), is
// VALID; the reciprocal of logf(3) in its place is not (UNKNOWN: log
// stays uninterpreted between its bounds, and the solver's difference is
// no counterexample).
func TestLogBounds(t *testing.T) {
	const ln2Recip, ln3Recip = "1.44269502162933349609375", "0.91023921966552734375"
	for _, c := range []struct {
		bound, recip string
		want         Verdict
	}{
		{"5", ln2Recip, Valid},
		{"1000", ln2Recip, Valid},
		{"5", ln3Recip, Unknown},
	} {
		rep, err := Validate(context.Background(),
			&syntax.Source{Name: "s.sare", Text: sliceForRadiusSpec(c.bound)},
			&syntax.Source{Name: "s.sched", Text: sliceForRadiusKernel(c.bound, c.recip)},
			Options{Jobs: 1, Resources: 100_000})
		if err != nil {
			t.Fatal(err)
		}
		name := "N <= " + c.bound + ", * " + c.recip
		if rep.Verdict != c.want {
			t.Errorf("%s: verdict %s (%s), want %s\n%s", name, rep.Verdict, rep.Reason, c.want, reportText(rep))
			continue
		}
		switch c.want {
		case Valid:
			if len(rep.Readings) != 1 || rep.Readings[0].As != "1 / 0.6931472" {
				t.Errorf("%s: readings %+v, want 1.442695 as 1 / 0.6931472", name, rep.Readings)
			}
		default:
			if txt := reportText(rep); !strings.Contains(txt, "functions the real model leaves uninterpreted") {
				t.Errorf("%s: no difference resting on log in the report:\n%s", name, txt)
			}
		}
	}
}
