package api

import (
	"fmt"
	"strings"
	"testing"

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

// A submission whose one expression is 1 MB is checked and queued, and
// ?wait is honoured. BenchmarkSubmissionCheck shows that the check before
// queueing is linear in its input.
func TestSubmitLargeExpression(t *testing.T) {
	h := newHarness(t, Config{}, nil) // no workers: it stays queued
	sub := bigPair(1 << 20)
	resp, body := h.submitJSON("?wait=1s", *sub)
	if resp.StatusCode != 202 || decode[Summary](t, body).Status != store.Queued {
		t.Fatalf("submit: %d %.300s", resp.StatusCode, body)
	}
}

// BenchmarkSubmissionCheck times the check of a submission before it is
// queued, on expressions of 128 KB and 512 KB: the check is linear in its
// input when both sizes show the same throughput (MB/s).
func BenchmarkSubmissionCheck(b *testing.B) {
	for _, n := range []int{128 << 10, 512 << 10} {
		b.Run(fmt.Sprintf("%dKB", n>>10), func(b *testing.B) {
			sub := bigPair(n)
			b.SetBytes(int64(len(sub.Spec) + len(sub.Program)))
			for b.Loop() {
				if errs, usage := sub.Check(); usage != nil || len(errs) > 0 {
					b.Fatalf("check: %v %v", usage, errs)
				}
			}
		})
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
