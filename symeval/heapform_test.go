package symeval

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
)

// formsHeap returns a heap of one component of n pieces, ranges of ten
// cells each, in forms forms: the cells of the k-th range hold the hole
// i + 1000 f, f = k * forms / n, so each form's ranges are adjacent, as
// the column ranges of a compiler's partitioned loops are.
func formsHeap(t *testing.T, n, forms int) *Heap {
	t.Helper()
	var parts []string
	for k := 0; k < n; k++ {
		f := k * forms / n
		parts = append(parts, fmt.Sprintf("a[i] -> E1[h] : h = i + %d and %d <= i < %d", 1000*f, 10*k, 10*k+10))
	}
	u, err := presburger.ParseUnionMap("{ " + strings.Join(parts, "; ") + " }")
	if err != nil {
		t.Fatal(err)
	}
	return NewHeap(u)
}

// A component too large to coalesce as a whole within coalesceSteps is
// coalesced a form at a time: its 400 pieces in 4 forms become 4, one
// per form (pieces of different forms are not merged), and the heap
// keeps its points.
func TestSimplifyGroupsForms(t *testing.T) {
	ctx := context.Background()
	h := formsHeap(t, 400, 4)
	s, err := h.Simplify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := pieces(s)["a"]; got != 4 {
		t.Fatalf("simplified heap has %d pieces, want 4 (one per form)", got)
	}
	if eq, err := s.UnionMap().IsEqual(ctx, h.UnionMap()); err != nil || !eq {
		t.Fatalf("simplified heap differs from the heap (%v)", err)
	}
}

// pieceForm names pieces alike when their holes' equalities and locals
// are the same, whatever their other constraints and the equalities'
// signs, and apart otherwise.
func TestPieceForm(t *testing.T) {
	m, err := presburger.ParseMap("{ a[i] -> E1[h] : h = i and 0 <= i < 10; a[i] -> E1[h] : -h + i = 0 and 10 <= i < 20; " +
		"a[i] -> E1[h] : h = i + 1 and 20 <= i < 30 }")
	if err != nil {
		t.Fatal(err)
	}
	bs := m.Basics()
	if len(bs) != 3 {
		t.Fatalf("parsed %d pieces, want 3", len(bs))
	}
	if pieceForm(bs[0]) != pieceForm(bs[1]) {
		t.Errorf("pieces %s and %s have forms %q and %q, want equal", bs[0], bs[1], pieceForm(bs[0]), pieceForm(bs[1]))
	}
	if pieceForm(bs[0]) == pieceForm(bs[2]) {
		t.Errorf("pieces %s and %s have the same form %q", bs[0], bs[2], pieceForm(bs[0]))
	}
}

// A read's set too large to coalesce as a whole is coalesced a form at a
// time too (compactRead), with the same points.
func TestCompactReadGroupsForms(t *testing.T) {
	ctx := context.Background()
	m := formsHeap(t, 400, 4).Maps()[0]
	c, err := compactRead(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	if c.NumBasics() != 4 {
		t.Fatalf("compacted read has %d pieces, want 4 (one per form)", c.NumBasics())
	}
	if eq, err := c.IsEqual(ctx, m); err != nil || !eq {
		t.Fatalf("compacted read differs from the read (%v)", err)
	}
}
