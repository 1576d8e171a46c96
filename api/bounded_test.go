package api

import (
	"fmt"
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
	// times the time (both measured on the check alone, each the fastest
	// of three runs, so that a run descheduled on a loaded machine does
	// not decide).
	check := func(n int) time.Duration {
		sub := bigPair(n)
		var best time.Duration
		for i := range 3 {
			start := time.Now()
			if errs, usage := sub.Check(); usage != nil || len(errs) > 0 {
				t.Fatalf("check: %v %v", usage, errs)
			}
			if d := time.Since(start); i == 0 || d < best {
				best = d
			}
		}
		return best
	}
	check(64 << 10) // warm up
	small, large := check(128<<10), check(512<<10)
	if large > 10*small+200*time.Millisecond {
		t.Errorf("checking 128 KB took %s, 512 KB %s: not linear", small, large)
	}
}

// Metadata is bounded: beyond the limits a submission is refused with
// 400 and a message naming the field and the limit; at the limits it is
// accepted.
func TestSubmitMetadataLimits(t *testing.T) {
	h := newHarness(t, Config{}, nil)
	labels := func(n int) map[string]string {
		m := map[string]string{}
		for i := range n {
			m[fmt.Sprintf("k%d", i)] = "v"
		}
		return m
	}
	for _, c := range []struct {
		name string
		edit func(*Submission)
		want string // "" accepted, else in the 400's detail
	}{
		{"at the limits", func(s *Submission) {
			s.Meta = store.Meta{Repository: strings.Repeat("r", MaxMetaBytes), Labels: labels(MaxLabels)}
			s.Meta.Labels[strings.Repeat("k", MaxLabelKeyBytes)] = strings.Repeat("v", MaxLabelValueBytes)
			delete(s.Meta.Labels, "k0")
		}, ""},
		{"a 1 MB repository", func(s *Submission) { s.Meta.Repository = strings.Repeat("r", 1<<20) }, "meta.repository has 1048576 bytes; at most 256"},
		{"a long commit", func(s *Submission) { s.Meta.Commit = strings.Repeat("c", MaxMetaBytes+1) }, "meta.commit has 257 bytes"},
		{"40000 labels", func(s *Submission) { s.Meta.Labels = labels(40000) }, "40000 labels; at most 32"},
		{"a long label value", func(s *Submission) { s.Meta.Labels = map[string]string{"arch": strings.Repeat("x", 300)} }, "has a value of 300 bytes"},
		{"a long label key", func(s *Submission) { s.Meta.Labels = map[string]string{strings.Repeat("k", 65): ""} }, "has 65 bytes; at most 64"},
		{"a long file name", func(s *Submission) { s.ProgramName = strings.Repeat("p", 2000) }, "program_name has 2000 bytes"},
	} {
		sub := blurSubmission("blur.sched")
		c.edit(&sub)
		resp, body := h.submitJSON("", sub)
		switch {
		case c.want == "" && resp.StatusCode != 202:
			t.Errorf("%s: %d %.300s", c.name, resp.StatusCode, body)
		case c.want != "" && (resp.StatusCode != 400 || !strings.Contains(body, c.want) || !strings.Contains(body, "bad-request")):
			t.Errorf("%s: %d %.300s, want 400 saying %q", c.name, resp.StatusCode, body, c.want)
		}
	}
}
