package symeval

import (
	"context"
	"errors"
	"testing"

	"github.com/augur-verify/augur/presburger"
)

// twoArrays is a heap whose components both have a piece inside another
// and two pieces that coalesce: simplifying changes each of them.
func twoArrays(t *testing.T) *Heap {
	t.Helper()
	u, err := presburger.ParseUnionMap("[N] -> { a[i] -> E1[i] : 0 <= i < 4; a[i] -> E1[i] : 4 <= i < 9; a[i] -> E1[i] : 1 <= i < 3; " +
		"b[i] -> E2[i] : 0 <= i < 5; b[i] -> E2[i] : 5 <= i < 9; b[i] -> E2[i] : 2 <= i < 4 }")
	if err != nil {
		t.Fatal(err)
	}
	return NewHeap(u)
}

func pieces(h *Heap) map[string]int {
	out := map[string]int{}
	for _, m := range h.Maps() {
		out[m.Space().In.Name] = m.NumBasics()
	}
	return out
}

// A simplified heap is not simplified again, nor what Drop keeps of it;
// the result equals the heap.
func TestSimplifyOnce(t *testing.T) {
	ctx := context.Background()
	h := twoArrays(t)
	s, err := h.Simplify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := pieces(s); got["a"] != 1 || got["b"] != 1 {
		t.Fatalf("simplified heap has pieces %v, want one per array", got)
	}
	if eq, err := s.UnionMap().IsEqual(ctx, h.UnionMap()); err != nil || !eq {
		t.Fatalf("simplified heap %s differs from %s (%v)", s, h, err)
	}
	if again, err := s.Simplify(ctx); err != nil || again != s {
		t.Errorf("simplifying a simplified heap gave %v, %v; want the heap itself", again, err)
	}
	d := s.Drop("b")
	if again, err := d.Simplify(ctx); err != nil || again != d {
		t.Errorf("simplifying part of a simplified heap gave %v, %v; want the heap itself", again, err)
	}
	if h.Drop("b").simplified {
		t.Error("part of a heap not simplified is marked simplified")
	}
}

// simplifyArrays simplifies the components of the arrays named only, and
// keeps the others as they are.
func TestSimplifyArrays(t *testing.T) {
	ctx := context.Background()
	h := twoArrays(t)
	s, err := h.simplifyArrays(ctx, map[string]bool{"a": true})
	if err != nil {
		t.Fatal(err)
	}
	if got := pieces(s); got["a"] != 1 || got["b"] != 3 {
		t.Errorf("pieces %v, want a simplified to one and b's three kept", got)
	}
	if eq, err := s.UnionMap().IsEqual(ctx, h.UnionMap()); err != nil || !eq {
		t.Errorf("%s differs from %s (%v)", s, h, err)
	}
	if s.simplified {
		t.Error("a heap with a component left as it was is marked simplified")
	}
	if n, err := h.simplifyArrays(ctx, map[string]bool{"c": true}); err != nil || n != h {
		t.Errorf("simplifying no component gave %v, %v; want the heap itself", n, err)
	}
}

// cellsOver finds, by array, the cells of the iterated update, in one
// piece for a write split into a value and the undefined value.
func TestCellsOver(t *testing.T) {
	ctx := context.Background()
	var ms []*presburger.Map
	for _, src := range []string{
		// A column per iteration x, ⊥ at the rows past N, a value elsewhere.
		"[N, x] -> { a[i, j] -> E1[i, x] : j = x and 0 <= i < 16 and i < N }",
		"[N, x] -> { a[i, j] -> Egarbage[] : j = x and 0 <= i < 16 and i >= N }",
		"[N, x] -> { b[i] -> E2[x] : 0 <= i <= x and 2i <= N }",
	} {
		m, err := presburger.ParseMap(src)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	h := NewHeap(presburger.NewUnionMap(ms...))
	bound, err := presburger.ParseSet("[N, x, y] -> { : 0 <= x < y }")
	if err != nil {
		t.Fatal(err)
	}
	cells, err := h.cellsOver(ctx, "x", bound, nil)
	if err != nil {
		t.Fatal(err)
	}
	it, err := h.Iterate(ctx, "x", bound)
	if err != nil {
		t.Fatal(err)
	}
	doms := map[string]*presburger.Map{}
	for _, m := range it.Maps() {
		a := m.Space().In.Name
		d := m.Domain()
		if old, ok := doms[a]; ok {
			if d, err = old.Union(d); err != nil {
				t.Fatal(err)
			}
		}
		doms[a] = d
	}
	if len(cells) != len(doms) {
		t.Fatalf("cells of %d arrays, the iterated update writes %d", len(cells), len(doms))
	}
	for a, d := range doms {
		c, ok := cells[a]
		if !ok {
			t.Fatalf("no cells of %s", a)
		}
		if eq, err := c.IsEqual(ctx, d); err != nil || !eq {
			t.Errorf("cells of %s: %v, the iterated update writes %v (%v)", a, c, d, err)
		}
	}
	if n := cells["a"].NumBasics(); n != 1 {
		t.Errorf("cells of a in %d pieces, want 1: %v", n, cells["a"])
	}
	// The same cells from the unions the iterated update compacted.
	it2, written, err := h.iterateCells(ctx, "x", bound)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := written["a"]; !ok {
		t.Errorf("iterateCells gave no union of the cells of a, written by two components")
	}
	if eq, err := it2.UnionMap().IsEqual(ctx, it.UnionMap()); err != nil || !eq {
		t.Errorf("iterateCells gave %v, Iterate %v (%v)", it2, it, err)
	}
	cells2, err := h.cellsOver(ctx, "x", bound, written)
	if err != nil {
		t.Fatal(err)
	}
	for a, c := range cells {
		c2 := cells2[a]
		if eq, err := c.IsEqual(ctx, c2); err != nil || !eq || c.NumBasics() != c2.NumBasics() {
			t.Errorf("cells of %s from the iterated update's unions: %v, want %v (%v)", a, c2, c, err)
		}
	}
	// updateCells with those cells is Update.
	old, err := presburger.ParseMap("[N, y] -> { a[i, j] -> E0[] : 0 <= i < 16 and 0 <= j < 8 }")
	if err != nil {
		t.Fatal(err)
	}
	h0 := NewHeap(presburger.NewUnionMap(old))
	want, err := h0.Update(ctx, it)
	if err != nil {
		t.Fatal(err)
	}
	got, err := h0.updateCells(ctx, it, cells)
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := got.UnionMap().IsEqual(ctx, want.UnionMap()); err != nil || !eq {
		t.Errorf("updateCells = %v, Update = %v (%v)", got, want, err)
	}
}

// A component of a context without holes (⊥) loses only the cells the
// update gives another content, and the result is Update's relation:
// every cell keeps one content.
func TestUpdateCellsHoleless(t *testing.T) {
	ctx := context.Background()
	parse := func(s string) *presburger.UnionMap {
		t.Helper()
		u, err := presburger.ParseUnionMap(s)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	for _, c := range []struct{ h, o string }{
		// ⊥ written again over some of h's ⊥ cells, values over others.
		{"[N] -> { a[i] -> G[] : 0 <= i < 10; a[i] -> E1[i] : 10 <= i < N; b[i] -> G[] : 0 <= i < 3 }",
			"[N] -> { a[i] -> G[] : 2 <= i < 6; a[i] -> E1[i + 1] : 6 <= i < 12 }"},
		// The update writes the array with ⊥ only.
		{"[N] -> { a[i] -> G[] : 0 <= i < 10; a[i] -> E1[i] : 10 <= i < N }",
			"[N] -> { a[i] -> G[] : 5 <= i < 12 }"},
		// Without ⊥ in the update: the ordinary subtraction.
		{"[N] -> { a[i] -> G[] : 0 <= i < 10; a[i] -> E2[] : 10 <= i < N }",
			"[N] -> { a[i] -> E1[i] : 5 <= i < 12 }"},
	} {
		h, o := NewHeap(parse(c.h)), NewHeap(parse(c.o))
		cells := map[string]*presburger.Map{}
		for _, m := range o.Maps() {
			d := m.Domain()
			if old, ok := cells[m.Space().In.Name]; ok {
				var err error
				if d, err = old.Union(d); err != nil {
					t.Fatal(err)
				}
			}
			cells[m.Space().In.Name] = d
		}
		got, err := h.updateCells(ctx, o, cells)
		if err != nil {
			t.Fatal(err)
		}
		want, err := h.Update(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		if eq, err := got.UnionMap().IsEqual(ctx, want.UnionMap()); err != nil || !eq {
			t.Errorf("%s ▷ %s: updateCells = %v, Update = %v (%v)", c.h, c.o, got, want, err)
		}
	}
}

// renameCells renames the loop variable in the cells of the arrays a loop
// body reads and leaves the others out.
func TestRenameCells(t *testing.T) {
	a, err := presburger.ParseMap("[N, x] -> { a[i] : 0 <= i < x and i < N }")
	if err != nil {
		t.Fatal(err)
	}
	b, err := presburger.ParseMap("[x] -> { b[i] : i = x }")
	if err != nil {
		t.Fatal(err)
	}
	got, err := renameCells(map[string]*presburger.Map{"a": a, "b": b}, map[string]bool{"a": true}, "x", "z")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got["a"] == nil {
		t.Fatalf("got %v, want the cells of a only", got)
	}
	want, err := presburger.ParseMap("[N, z] -> { a[i] : 0 <= i < z and i < N }")
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := got["a"].IsEqual(context.Background(), want); err != nil || !eq {
		t.Fatalf("got %v, want %v (%v)", got["a"], want, err)
	}
	if got, err := renameCells(nil, map[string]bool{"a": true}, "x", "z"); err != nil || got != nil {
		t.Fatalf("no cells: got %v, %v", got, err)
	}
}

// A heap whose simplification as a whole runs out of its budget is
// simplified piece by piece (a piece past its own steps kept as it is,
// see presburger's TestSimplifyBestEffort): the same set, not an error;
// an exhausted allowance is an error.
func TestSimplifyBestEffort(t *testing.T) {
	ctx := context.Background()
	// Pieces the simplifier works on: an empty one, a redundant constraint.
	u, err := presburger.ParseUnionMap("[N] -> { a[i, j] -> E1[i, j] : 0 <= i <= N and 0 <= j <= N and i + j >= 2N + 1; " +
		"a[i, j] -> E1[i, j] : 0 <= i <= N and 0 <= j <= i and j <= N + 5; b[i, j] -> E2[i] : 0 <= j <= i <= N and i + j <= 2N }")
	if err != nil {
		t.Fatal(err)
	}
	h := NewHeap(u)
	s, err := h.Simplify(presburger.WithBudget(ctx, presburger.Budget{MaxSteps: 1}))
	if err != nil {
		t.Fatalf("simplifying within one step: %v", err)
	}
	// Each piece alone fits in simplifyPieceSteps: a's empty piece goes.
	if got := pieces(s); got["a"] != 1 || got["b"] != 1 {
		t.Errorf("pieces %v, want one per array", got)
	}
	if eq, err := s.UnionMap().IsEqual(ctx, h.UnionMap()); err != nil || !eq {
		t.Errorf("%s differs from %s (%v)", s, h, err)
	}
	actx := presburger.WithAllowance(ctx, presburger.NewAllowance(1))
	if _, err := h.Simplify(actx); !errors.Is(err, presburger.ErrAllowance) {
		t.Errorf("simplifying over an allowance of one step: %v, want ErrAllowance", err)
	}
}
