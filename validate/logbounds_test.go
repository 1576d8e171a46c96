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

// TestLogBoundsRows: the shape of max_filter's read of the slice of
// height 2^slice_for_radius(t) above a pixel, a read at
// 2t + 1 - 2 max(floor(log(2t + 1) / logf(2)), 0), in bounds because
// log's bounds at the small integers (tangents at 2, ..., 8, within
// 2^-12 of ln n) keep the slice at most log2(2t + 1): VALID, and, with
// only the tangents at 1 and 8, UNKNOWN (log(3) could be 2, the slice 2
// and the read at -1). Within half a million units a query, the read's
// bounds take about 100,000.
func TestLogBoundsRows(t *testing.T) {
	spec := `param N
assume N >= 1 and N <= 5
input A(i) : f32
tensor S(t) : i32
S(t) = i32(floor(log(f32(i32(2 * t + 1))) / f32(0.693147182464599609375)))
tensor B(t) : f32
B(t) = A(i32(2 * t + 1) - i32(2) * max(S(t), i32(0)))
output B
`
	prog := `kernel k(N)
assume N >= 1 and N <= 5
in  a[i] : f32[2 * N] = A(i)
out b[t] : f32[N] = B(t)
{
  for t < N {
    b[t] {B(t)} := a[i32(2 * t + 1) - i32(2) * max(i32(floor(log(f32(i32(2 * t + 1))) * f32(1.44269502162933349609375))), i32(0))]
  }
}
`
	rep, err := Validate(context.Background(), &syntax.Source{Name: "s.sare", Text: spec}, &syntax.Source{Name: "k.sched", Text: prog},
		Options{Jobs: 1, Resources: 500_000, ConditionResources: 5_000_000})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != Valid {
		t.Errorf("verdict %s (%s), want valid\n%s", rep.Verdict, rep.Reason, reportText(rep))
	}
}
