package validate

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/syntax"
)

// accumulateSpec is a running sum S(k) over A, with its last element as
// the output.
const accumulateSpec = `param N
assume N >= 1
input A(i) : f32
tensor S(k) : f32
S(k) = 0 where k == -1
S(k) = S(k - 1) + A(k) where 0 <= k < N
tensor T() : f32
T() = S(N - 1)
output T
`

// nestedTrivial returns a kernel computing accumulateSpec with its one
// update nested in depth loops of extent 1 (kw is "for" or "par"), the
// shape that used to cost time exponential in the depth.
func nestedTrivial(depth int, kw string) string {
	var b strings.Builder
	b.WriteString("kernel acc(N)\nassume N >= 1\nin a[i] : f32[N] = A(i)\nout s[] : f32[] = T()\n{\n  s[] {S(-1)} := 0\n  for i < N {\n")
	for k := 1; k <= depth; k++ {
		fmt.Fprintf(&b, "%s l%d < 1 {\n", kw, k)
	}
	b.WriteString("s[] {S(i)} := s[] + a[i]\n")
	b.WriteString(strings.Repeat("}\n", depth))
	b.WriteString("  }\n}\n")
	return b.String()
}

// TestNestedTrivialLoops validates kernels whose update sits under many
// loops of extent 1: a loop of extent 1 is no reason to double any work,
// so 40 levels take about as long as a few.
func TestNestedTrivialLoops(t *testing.T) {
	spec := &syntax.Source{Name: "acc.sare", Text: accumulateSpec}
	for _, kw := range []string{"for", "par"} {
		for _, depth := range []int{1, 12, 40} {
			t.Run(fmt.Sprintf("%s%d", kw, depth), func(t *testing.T) {
				prog := &syntax.Source{Name: "acc.sched", Text: nestedTrivial(depth, kw)}
				// The engine's default step budget: an exponential
				// search runs out of it long before it would finish.
				rep, err := Validate(context.Background(), spec, prog, Options{Jobs: 1})
				if err != nil {
					t.Fatal(err)
				}
				if rep.Verdict != Valid {
					t.Fatalf("verdict %s (%s), want valid", rep.Verdict, rep.Reason)
				}
			})
		}
	}
}

// TestCancelFreesQuickly cancels a long validation during symbolic
// evaluation and requires Validate to return soon after with the
// context's error.
func TestCancelFreesQuickly(t *testing.T) {
	spec := &syntax.Source{Name: "acc.sare", Text: accumulateSpec}
	prog := &syntax.Source{Name: "acc.sched", Text: nestedTrivial(120, "for")}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(300 * time.Millisecond)
		cancel()
	}()
	start := time.Now()
	_, err := Validate(ctx, spec, prog, Options{Jobs: 1})
	took := time.Since(start)
	if err == nil {
		t.Fatalf("no error after cancellation (took %s); the kernel should take longer than 300ms", took)
	}
	// Generous for a loaded machine; the work left would take far longer.
	if took > 3*time.Second {
		t.Errorf("Validate returned %s after its context was cancelled at 300ms", took)
	}
}
