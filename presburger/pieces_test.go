package presburger

import (
	"context"
	"testing"
)

// TestPieces checks that the pieces of a map are its conjunctions, one
// map each, in its space and order, whose union is the map, and that an
// operation on a piece leaves the map as it was.
func TestPieces(t *testing.T) {
	ctx := context.Background()
	g := newRandGen(13)
	for it := 0; it < propCount(300); it++ {
		sp := g.randSetSpace(randParams(g))
		m := g.randMap(sp, 4, 4)
		before := m.String()
		ps := m.Pieces()
		if len(ps) != m.NumBasics() {
			t.Fatalf("case %d: %d pieces for %d conjunctions", it, len(ps), m.NumBasics())
		}
		u := Empty(m.Space())
		for i, p := range ps {
			if p.NumBasics() != 1 || dumpBasic(p.basics[0]) != dumpBasic(m.basics[i]) || p.Space().Key() != m.Space().Key() {
				t.Fatalf("case %d: piece %d is %s, want conjunction %s of %s", it, i, p, dumpBasic(m.basics[i]), m)
			}
			var err error
			if u, err = u.Union(p); err != nil {
				t.Fatal(err)
			}
			if _, err := p.Simplify(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := p.Intersect(g.randMap(sp, 2, 3)); err != nil {
				t.Fatal(err)
			}
		}
		if eq, err := u.IsEqual(ctx, m); err != nil || !eq {
			t.Fatalf("case %d: the union of the pieces of %s is %s (%v)", it, m, u, err)
		}
		if m.String() != before {
			t.Fatalf("case %d: operations on the pieces changed %s to %s", it, before, m)
		}
	}
}
