package presburger

import (
	"context"
	"testing"
)

func TestSimpleHullExamples(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ m, want string }{
		// The equality y = 0 of the first piece is y >= 0 in the second.
		{"{ [x, y] : 0 <= x <= 5 and y = 0; [x, y] : 0 <= x <= 5 and y = 1 }", "{ [x, y] : 0 <= x <= 5 and y >= 0 }"},
		// A division shared by both pieces stays in the hull.
		{"{ [x] : x mod 2 = 0 and x >= 0; [x] : x mod 2 = 0 and x <= -4 }", "{ [x] : x mod 2 = 0 }"},
		// A parameter domain split by the cases of a min.
		{"[N, M] -> { : N >= 3 and M = 2; : N >= 3 and M >= 4 and N <= 100 }", "[N, M] -> { : N >= 3 and M >= 2 }"},
		// Nothing in common: the universe.
		{"{ [x] : x <= 0; [x] : x >= 2 }", "{ [x] }"},
		// One piece is its own hull.
		{"{ [x] : 0 <= x <= 3 }", "{ [x] : 0 <= x <= 3 }"},
	} {
		m := mustParse(t, c.m)
		want := mustParse(t, c.want)
		h, err := SimpleHull(ctx, m)
		if err != nil {
			t.Fatalf("hull of %s: %v", c.m, err)
		}
		if h.NumBasics() != 1 {
			t.Errorf("hull of %s = %v: %d conjunctions, want 1", c.m, h, h.NumBasics())
		}
		if eq, err := h.IsEqual(ctx, want); err != nil || !eq {
			t.Errorf("hull of %s = %v, want %v (%v)", c.m, h, want, err)
		}
	}
}

// TestSimpleHullRandom: the hull of random unions (with divisions and
// existentials) contains them, point by point too.
func TestSimpleHullRandom(t *testing.T) {
	ctx := t.Context()
	forSmallRand(3, 60, func(k int, more func() *BasicMap) bool {
		b := more()
		pieces := []*BasicMap{b}
		for range 1 + k%3 {
			pieces = append(pieces, more())
		}
		m := NewMap(b.Space(), pieces...)
		h, err := SimpleHull(ctx, m)
		if err != nil {
			t.Fatalf("hull of %v: %v", m, err)
		}
		if h.NumBasics() > 1 {
			t.Fatalf("hull of %v = %v: %d conjunctions", m, h, h.NumBasics())
		}
		if sub, err := m.IsSubset(ctx, h); err != nil || !sub {
			t.Fatalf("%v is not inside its hull %v (%v)", m, h, err)
		}
		u, _ := m.Union(h)
		return gistGridEqual(t, u, h, 3)
	})
}
