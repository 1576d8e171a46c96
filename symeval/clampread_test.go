package symeval

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/sched"
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

// TestCoarseLocation checks that the coarse location of a clamped read
// contains its location, in fewer pieces, and that the undefined reads
// it decides first are those of the exact locations: none in the
// "clamped" extra case, the cell past the end when the clamp's upper
// bound is one past the array's last cell.
func TestCoarseLocation(t *testing.T) {
	ctx := context.Background()
	s := clampScope(t)
	for _, read := range []string{
		"a[max(min(i + 3, N - 1), 0), max(min(i - 2, N - 1), 0)]",
		"a[min(max(i - 5, 1), N - 2) + 1, i]",
		"a[max(min(2 * i, N), 3) - 3]",
	} {
		x, ok := mustExpr(t, read).(*syntax.Index)
		if !ok {
			t.Fatalf("%s is not an array access", read)
		}
		exact, err := location(s, x)
		if err != nil {
			t.Fatal(err)
		}
		coarse, err := coarseLocation(s, x)
		if err != nil || coarse == nil {
			t.Fatalf("%s: coarse location %v (%v)", read, coarse, err)
		}
		if sub, err := exact.IsSubset(ctx, coarse); err != nil || !sub {
			t.Errorf("%s: coarse location %s does not contain %s (%v)", read, coarse, exact, err)
		}
		if coarse.NumBasics() >= exact.NumBasics() {
			t.Errorf("%s: coarse location in %d pieces, the location in %d", read, coarse.NumBasics(), exact.NumBasics())
		}
	}
	if l, err := coarseLocation(s, mustExpr(t, "a[max(i, N), i]").(*syntax.Index)); err != nil || l != nil {
		t.Errorf("a read without a clamp has the coarse location %v (%v)", l, err)
	}
	for _, tc := range []struct {
		kernel string
		undef  bool
	}{
		{clampedKernel, false},
		{strings.Replace(clampedKernel, "a[max(min(x + L - 1, L + N - 1), L) - L]", "a[max(min(x + L - 1, L + N), L) - L]", 1), true},
	} {
		p := loadPair(t, "clamped.sare", clampedSpec, "clamped.sched", tc.kernel)
		pr := prophesy(t, p)
		hb, err := heapsBefore(ctx, pr, p.kernel)
		if err != nil {
			t.Fatal(err)
		}
		for st, at := range hb {
			if st.Array.Name != "c" {
				continue
			}
			u, err := undefinedReads(ctx, st, at)
			if err != nil {
				t.Fatal(err)
			}
			if u, err = u.IntersectParams(pr.Assumptions); err != nil {
				t.Fatal(err)
			}
			empty, err := u.IsEmpty(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if empty == tc.undef {
				t.Errorf("%s: undefined reads %s, want some: %v", sched.StmtLine(st), u, tc.undef)
			}
		}
	}
}
