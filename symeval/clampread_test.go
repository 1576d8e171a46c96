package symeval

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

// TestClampedRead checks the shape of the values read at clamped indices
// in the "clamped" extra case (whose values TestExtraKernels and
// TestEvalInHeap compare with a concrete run): the reads of a, whose
// content is the cell shifted, keep their clamps in the template and
// have a single piece, where case-splitting the clamps gives several;
// the read of b, whose content runs backwards, is case-split as before.
func TestClampedRead(t *testing.T) {
	ctx := context.Background()
	p := loadPair(t, "clamped.sare", clampedSpec, "clamped.sched", clampedKernel)
	pr := prophesy(t, p)
	hb, err := heapsBefore(ctx, pr, p.kernel)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for st, at := range hb {
		v, err := evalInHeap(ctx, pr.Contexts, p.kinfo.Types, at.scope, at.heap, st.Value)
		if err != nil {
			t.Fatal(err)
		}
		pieces := 0
		var tmpls []string
		for _, m := range v.Maps() {
			pieces += m.NumBasics()
			tmpls = append(tmpls, pr.Contexts.Lookup(m.Space().Out.Name).String())
		}
		all := strings.Join(tmpls, "; ")
		switch st.Array.Name {
		case "c":
			seen++
			if len(tmpls) != 1 || strings.Count(all, "max(min(") != 2 || pieces != 1 {
				t.Errorf("c: value %s in %d pieces, want one template with both clamps and one piece", all, pieces)
			}
			// The same read case-split: more pieces.
			var split int
			syntax.Inspect(st.Value, func(x syntax.Expr) bool {
				if ix, ok := x.(*syntax.Index); ok && split == 0 {
					loc, err := location(at.scope, ix)
					if err != nil {
						t.Fatal(err)
					}
					split = loc.NumBasics()
				}
				return true
			})
			if split < 2 {
				t.Errorf("c: the case-split location has %d pieces, want several", split)
			}
		case "d":
			seen++
			if strings.Contains(all, "max(") || strings.Contains(all, "min(") {
				t.Errorf("d: value %s keeps a clamp of a content that runs backwards", all)
			}
		}
	}
	if seen != 2 {
		t.Fatalf("%d assignments checked, want 2", seen)
	}
}
