package presburger

import (
	"context"
	"math/rand"
	"testing"
)

// gistGridEqual compares a and b point by point (exact membership) on the
// parameter and dimension values in [-r, r].
func gistGridEqual(t *testing.T, a, b *Map, r int64) bool {
	t.Helper()
	ctx := context.Background()
	n := a.Space().NumDims()
	pt := make([]Int, n)
	ok := true
	var rec func(k int)
	rec = func(k int) {
		if !ok {
			return
		}
		if k == n {
			x, err1 := a.ContainsPoint(ctx, pt)
			y, err2 := b.ContainsPoint(ctx, pt)
			if err1 != nil || err2 != nil || x != y {
				t.Errorf("at %v: %v has %v, %v has %v (%v %v)", pt, a, x, b, y, err1, err2)
				ok = false
			}
			return
		}
		for v := -r; v <= r; v++ {
			pt[k] = NewInt(v)
			rec(k + 1)
		}
	}
	rec(0)
	return ok
}

func TestGistExamples(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ s, ctx, want string }{
		{"[N] -> { [i] : 0 <= i < N and N >= 10 }", "[N] -> { : N >= 10 }", "[N] -> { [i] : 0 <= i < N }"},
		{"{ [i, j] : 0 <= i < 10 and 0 <= j < 10 and i + j >= 3 }", "{ [i, j] : i >= 5 }", "{ [i, j] : i < 10 and 0 <= j < 10 }"},
		{"{ [i] : 0 <= i < 10; [i] : i >= 20 }", "{ [i] : i <= 15 }", "{ [i] : 0 <= i < 10 }"},
	} {
		s, _ := ParseMap(c.s)
		cx, _ := ParseMap(c.ctx)
		want, _ := ParseMap(c.want)
		g, err := Gist(ctx, s, cx)
		if err != nil {
			t.Fatal(err)
		}
		if eq, err := g.IsEqual(ctx, want); err != nil || !eq {
			t.Errorf("gist(%s, %s) = %v, want %v (%v)", c.s, c.ctx, g, want, err)
		}
	}
}

// smallRandSpecs are the shapes of the small random maps that the gist
// and hull tests draw: plain, with a division, with an existential.
var smallRandSpecs = []lxRandSpec{
	{nP: 1, nO: 1, box: 3},
	{nP: 1, nO: 2, box: 2},
	{nP: 1, nO: 1, nDiv: 1, box: 3},
	{nP: 1, nO: 2, nEx: 1, box: 2, exBox: 2},
}

func TestGistRandom(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewSource(2))
	specs := smallRandSpecs
	n := 0
	for _, s := range specs {
		for k := 0; k < 120; k++ {
			b1 := lxRandBasic(r, s)
			sm := NewMap(b1.Space(), b1)
			if k%2 == 1 {
				sm = NewMap(b1.Space(), b1, lxRandBasic(r, s))
			}
			cm := NewMap(b1.Space(), lxRandBasic(r, s))
			g, err := Gist(ctx, sm, cm)
			if err != nil {
				t.Fatalf("gist: %v", err)
			}
			lhs, _ := g.Intersect(cm)
			rhs, _ := sm.Intersect(cm)
			n++
			if eq, err := lhs.IsEqual(ctx, rhs); err != nil || !eq {
				t.Fatalf("gist(%v, %v) = %v: gist ∩ C != S ∩ C (%v)", sm, cm, g, err)
			}
			if !gistGridEqual(t, lhs, rhs, 3) {
				return
			}
		}
	}
	t.Logf("%d random gists checked", n)
}
