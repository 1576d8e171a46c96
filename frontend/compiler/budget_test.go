package compiler

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/validate"
)

// TestBoundsFallback compiles scheduled examples with a bounds budget too
// small for any exact extremum: every region comes from interval
// arithmetic, a box at least as large. The kernels run and validate; the
// same kernel with a producer's region cut by one row is invalid.
func TestBoundsFallback(t *testing.T) {
	tiny := Options{BoundsBudget: presburger.Budget{MaxSteps: 1}}
	for _, ex := range []struct {
		name   string
		params map[string]int64
	}{
		{"blur_at", map[string]int64{"W": 5, "H": 7}},
		{"blur_shift", map[string]int64{"W": 9, "H": 6}},
		{"stencils_at", map[string]int64{"N": 11}},
		{"matmul_tiled", map[string]int64{"N": 10, "M": 17, "K": 3}},
	} {
		t.Run(ex.name, func(t *testing.T) {
			r, err := Compile(context.Background(), loadExample(t, ex.name), ex.name, tiny)
			if err != nil {
				t.Fatal(detail(err))
			}
			if err := runKernel(r, ex.params, 1); err != nil {
				t.Fatalf("%v\n%s", err, r.Kernels[0].Text)
			}
			if testing.Short() {
				return
			}
			if rep := validatePair(t, r); rep.Verdict != validate.Valid {
				t.Fatalf("verdict %s, want valid\n%s", rep.Verdict, r.Kernels[0].Text)
			}
		})
	}
	if testing.Short() {
		return
	}
	r, err := Compile(context.Background(), loadExample(t, "blur_at"), "blur_at", tiny)
	if err != nil {
		t.Fatal(detail(err))
	}
	k := r.Kernels[0].Text
	const rows = "for y2 in 4 * yo + yi - 1 .. 4 * yo + yi + 2 {"
	if !strings.Contains(k, rows) {
		t.Fatalf("no %q in\n%s", rows, k)
	}
	bug := *r
	bug.Pair.Kernels = append(bug.Pair.Kernels[:0:0], r.Kernels...)
	bug.Kernels[0].Text = strings.Replace(k, rows, "for y2 in 4 * yo + yi - 1 .. 4 * yo + yi + 1 {", 1)
	if rep := validatePair(t, &bug); rep.Verdict != validate.Invalid {
		t.Errorf("a row short: verdict %s, want invalid\n%s", rep.Verdict, bug.Kernels[0].Text)
	}
}
