package presburger

import (
	"context"
	"math/rand"
	"testing"
)

// checkRewrite applies op, named name, to the relation src and checks that
// the result has the points of src in the wanted number of conjunctions.
// It returns the result, and whether the count of conjunctions was right.
func checkRewrite(t *testing.T, name string, op func(context.Context, *Map) (*Map, error), src string, pieces int) (*Map, bool) {
	t.Helper()
	m := mustParse(t, src)
	got, err := op(t.Context(), m)
	if err != nil {
		t.Fatalf("%s(%s): %v", name, src, err)
	}
	if eq, err := got.IsEqual(t.Context(), m); err != nil || !eq {
		t.Fatalf("%s(%s) = %v changes the set (%v)", name, src, got, err)
	}
	if got.NumBasics() != pieces {
		t.Errorf("%s(%s) = %v: %d conjunctions, want %d", name, src, got, got.NumBasics(), pieces)
		return got, false
	}
	return got, true
}

// checkGist applies the gist op, named name, to the relation s in the
// context c and checks that the result is the relation want. It returns
// the result.
func checkGist(t *testing.T, name string, op func(ctx context.Context, s, c *Map) (*Map, error), s, c, want string) *Map {
	t.Helper()
	g, err := op(t.Context(), mustParse(t, s), mustParse(t, c))
	if err != nil {
		t.Fatalf("%s(%s, %s): %v", name, s, c, err)
	}
	if eq, err := g.IsEqual(t.Context(), mustParse(t, want)); err != nil || !eq {
		t.Errorf("%s(%s, %s) = %v, want %s (%v)", name, s, c, g, want, err)
	}
	return g
}

// forSmallRand calls f perSpec times for each of smallRandSpecs, with k
// counting the calls of a spec and more drawing a random conjunction of
// it from a generator seeded with seed. It stops when f returns false.
func forSmallRand(seed int64, perSpec int, f func(k int, more func() *BasicMap) bool) {
	r := rand.New(rand.NewSource(seed))
	for _, spec := range smallRandSpecs {
		more := func() *BasicMap { return lxRandBasic(r, spec) }
		for k := range perSpec {
			if !f(k, more) {
				return
			}
		}
	}
}
