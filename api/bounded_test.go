package api

import (
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/store"
)

// bigPair is a specification and a kernel whose one equation and one
// annotated assignment are sums of about n bytes each.
func bigPair(n int) *Submission {
	spec := "param N\nassume N >= 1\ninput A(i) : f32\ntensor C(i) : f32\nC(i) = " +
		strings.Repeat("A(i) + ", n/7) + "A(i)\noutput C\n"
	prog := "kernel k(N)\nassume N >= 1\nin a[i] : f32[N] = A(i)\nout c[i] : f32[N] = C(i)\n{\n  for i < N {\n    c[i] {C(i)} := " +
		strings.Repeat("a[i] + ", n/7) + "a[i]\n  }\n}\n"
	return &Submission{Spec: spec, SpecName: "big.sare", Program: prog, ProgramName: "big.sched"}
}

// The check before queueing is linear in the input: a 1 MB expression
// (which took minutes when the type checker was quadratic) is checked
// and queued at once, and ?wait is honoured.
func TestSubmitLargeExpressionIsQuick(t *testing.T) {
	h := newHarness(t, Config{}, nil) // no workers: it stays queued
	sub := bigPair(1 << 20)
	start := time.Now()
	resp, body := h.submitJSON("?wait=1s", *sub)
	if resp.StatusCode != 202 || decode[Summary](t, body).Status != store.Queued {
		t.Fatalf("submit: %d %.300s", resp.StatusCode, body)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("submitting a 1 MB expression took %s", d)
	}
	// Linear, not quadratic: four times the input, well under sixteen
	// times the time (both measured on the check alone).
	check := func(n int) time.Duration {
		sub := bigPair(n)
		start := time.Now()
		if usage, errs := sub.Check(); usage != nil || len(errs) > 0 {
			t.Fatalf("check: %v %v", usage, errs)
		}
		return time.Since(start)
	}
	check(64 << 10) // warm up
	small, large := check(128<<10), check(512<<10)
	if large > 10*small+200*time.Millisecond {
		t.Errorf("checking 128 KB took %s, 512 KB %s: not linear", small, large)
	}
}
