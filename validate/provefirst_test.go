package validate

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
)

// twiddleSpec inlines a table's definition at an index that is not
// quasi-affine, as the translation of Halide's fft reads its twiddle
// factors W(r*(s % 4)); the kernel computes the table and reads it in
// unrolled iterations of r.
const twiddleSpec = `param N
assume N >= 1
input A(y, s) : f32
tensor W(n) : f32
W(n) = cos(f32(i32(n)) * f32(-0.5)) where 0 <= n < 10
tensor V(r, s, y) : f32
V(r, s, y) = A(y, s) * cos(f32(i32(r) * i32(s % 4)) * f32(-0.5)) where 0 <= r < 4 and 0 <= s < 4 and 0 <= y < N
output V
`

// twiddleKernel is the kernel of twiddleSpec, its last iteration's read
// of the table at last.
func twiddleKernel(last string) string {
	return `kernel tw(N)
assume N >= 1
in  a[y, s] : f32[N, 4] = A(y, s)
out v[r, s, y] : f32[4, 4, N] = V(r, s, y)
{
  alloc w : f32[10] {
    for n < 10 {
      w[n] {W(n)} := cos(f32(i32(n)) * f32(-0.5))
    }
    for y < N {
      for s < 4 {
        v[0, s, y] {V(0, s, y)} := a[y, s] * w[0 * s]
        v[1, s, y] {V(1, s, y)} := a[y, s] * w[1 * s]
        v[2, s, y] {V(2, s, y)} := a[y, s] * w[2 * s]
        v[3, s, y] {V(3, s, y)} := a[y, s] * w[` + last + `]
      }
    }
  }
}
`
}

// TestProveFirst checks that the unfolding strategies prove the twiddle
// factors' reads ahead of the look at the cheaper strategies' models
// (proveFirst), and that a kernel reading the table at the wrong index is
// not proved: in the real model, where cos is uninterpreted, it is
// UNKNOWN with that reason.
func TestProveFirst(t *testing.T) {
	for _, tc := range []struct {
		name, last string
		verdict    Verdict
	}{
		{"right", "3 * s", Valid},
		{"wrong index", "2 * s", Unknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ahead []string
			rep, err := Validate(context.Background(), &syntax.Source{Name: "tw.sare", Text: twiddleSpec},
				&syntax.Source{Name: "tw.sched", Text: twiddleKernel(tc.last)},
				Options{ValueModel: encode.Real, Jobs: 1, Trace: func(line string) {
					if strings.Contains(line, "ahead of the models") && strings.HasSuffix(line, ": unsat") {
						ahead = append(ahead, line)
					}
				}})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != tc.verdict {
				var b strings.Builder
				rep.WriteText(&b, false)
				t.Fatalf("verdict %s, want %s\n%s", rep.Verdict, tc.verdict, b.String())
			}
			switch tc.verdict {
			case Valid:
				// The four unrolled iterations' reads of the table.
				if len(ahead) != 4 {
					t.Errorf("proved ahead of the models: %q, want the 4 reads of the table", ahead)
				}
			case Unknown:
				found := false
				for _, c := range rep.Conditions {
					found = found || strings.Contains(c.Reason, "the real model leaves uninterpreted")
				}
				if !found {
					t.Errorf("no undecided condition names the uninterpreted functions")
				}
			}
		})
	}
}
