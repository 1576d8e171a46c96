package api

import (
	"testing"
)

// TestReadingsInDetail: a validation whose kernel multiplies by the
// binary32 value nearest 1/3 where its specification divides by 3 is
// valid, and its detail lists the literal read as 1 / 3 (in the schema
// of openapi.json, as every response here).
func TestReadingsInDetail(t *testing.T) {
	h := newHarness(t, Config{}, Runner(RunnerOptions{}))
	sub := Submission{
		Spec: `param N
assume N >= 1
input A(i) : f32
tensor B(i) : f32
B(i) = A(i) / 3.0
output B
`, SpecName: "third.sare",
		Program: `kernel third(N)
assume N >= 1
in  a[i] : f32[N] = A(i)
out b[i] : f32[N] = B(i)
{
  for i < N {
    b[i] {B(i)} := a[i] * 0.3333333432674407958984375
  }
}
`, ProgramName: "third.sched",
	}
	resp, body := h.submitJSON("?wait=60s", sub)
	if resp.StatusCode != 200 {
		t.Fatalf("submit with wait: %d %s", resp.StatusCode, body)
	}
	d := decode[Detail](t, body)
	if d.Verdict != "valid" || len(d.Readings) != 1 || d.Readings[0].As != "1 / 3" || d.Readings[0].Exact != "1/3" {
		t.Fatalf("detail: %s", body)
	}
}
