package presburger

import (
	"context"
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

// Gist drops the constraints that the context implies; GistCover also
// drops those that tell a context's conjunctions apart when the
// conjunctions of the relation together cover them.
func TestGistExamples(t *testing.T) {
	for _, op := range []struct {
		name  string
		f     func(ctx context.Context, s, c *Map) (*Map, error)
		cases []struct{ s, ctx, want string }
	}{
		{"Gist", Gist, []struct{ s, ctx, want string }{
			{"[N] -> { [i] : 0 <= i < N and N >= 10 }", "[N] -> { : N >= 10 }", "[N] -> { [i] : 0 <= i < N }"},
			{"{ [i, j] : 0 <= i < 10 and 0 <= j < 10 and i + j >= 3 }", "{ [i, j] : i >= 5 }", "{ [i, j] : i < 10 and 0 <= j < 10 }"},
			{"{ [i] : 0 <= i < 10; [i] : i >= 20 }", "{ [i] : i <= 15 }", "{ [i] : 0 <= i < 10 }"},
		}},
		{"GistCover", GistCover, []struct{ s, ctx, want string }{
			{"[a, b] -> { [x] : x < a and a <= b; [x] : x < a and b < a }", "[a, b] -> { : a <= b; : b < a }", "[a, b] -> { [x] : x < a }"},
			{"[a, b] -> { [x] : x < a and x >= b; [x] : x < a and x < b and a >= 0 }", "[a, b] -> { : a >= 0 }", "[a, b] -> { [x] : x < a }"},
			{"{ [i] : 0 <= i < 10; [i] : i >= 20 }", "{ [i] : i <= 15 }", "{ [i] : 0 <= i < 10 }"},
		}},
	} {
		for _, c := range op.cases {
			checkGist(t, op.name, op.f, c.s, c.ctx, c.want)
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

// Gist's result equals the relation within the context, on random
// relations of up to two conjunctions and contexts of one.
func TestGistRandom(t *testing.T) {
	checkGistRandom(t, "Gist", Gist, 2, 120, func(k int, more func() *BasicMap) (*Map, *Map) {
		b1 := more()
		sm := NewMap(b1.Space(), b1)
		if k%2 == 1 {
			sm = NewMap(b1.Space(), b1, more())
		}
		return sm, NewMap(b1.Space(), more())
	})
}

// A relation restricted to its context repeats the context's
// constraints, some with weaker constants: the gist that skips the
// emptiness tests those constraints decide as they stand (impliesRow)
// returns exactly the conjunctions of the one that runs every test, and
// drops the repeated constraints.
func TestGistSyntacticSkip(t *testing.T) {
	ctx := t.Context()
	n := 0
	forSmallRand(5, 120, func(k int, more func() *BasicMap) bool {
		b1 := more()
		cm := NewMap(b1.Space(), more())
		if k%3 == 0 {
			cm = NewMap(b1.Space(), cm.Basics()[0], more())
		}
		sm, err := NewMap(b1.Space(), b1, more()).Intersect(cm)
		if err != nil {
			t.Fatal(err)
		}
		fast, err := gist(ctx, sm, cm, true)
		if err != nil {
			t.Fatal(err)
		}
		slow, err := gist(ctx, sm, cm, false)
		if err != nil {
			t.Fatal(err)
		}
		if fast.String() != slow.String() {
			t.Fatalf("gist(%v, %v): %v with the syntactic skip, %v without", sm, cm, fast, slow)
		}
		n++
		return true
	})
	t.Logf("%d gists compared", n)
	for _, c := range []struct{ s, ctx, want string }{
		// Equalities either way round, an inequality with a weaker
		// constant; i >= 3 is not implied by i >= 2 and stays.
		{"[N] -> { [i] : N = 12 and i >= 3 and 2 >= i - N }", "[N] -> { [i] : -N + 12 = 0 and i >= 2 and i - N <= 1 }", "[N] -> { [i] : i >= 3 }"},
		// Two context pieces, each implying the constraint.
		{"{ [i] : i >= 2 and i <= 40 }", "{ [i] : i >= 3; [i] : i >= 7 and i <= 30 }", "{ [i] : i <= 40 }"},
	} {
		g := checkGist(t, "Gist", Gist, c.s, c.ctx, c.want)
		want := mustParse(t, c.want)
		if g.NumBasics() != 1 || len(g.Basics()[0].Ineqs())+len(g.Basics()[0].Eqs()) != len(want.Basics()[0].Ineqs())+len(want.Basics()[0].Eqs()) {
			t.Errorf("Gist(%s, %s) = %v: not the %d constraints of %v", c.s, c.ctx, g, len(want.Basics()[0].Ineqs())+len(want.Basics()[0].Eqs()), want)
		}
	}
}

// GistCover leaves out a conjunction contained in those it has already
// widened: where the context's pieces split the relation, one widened
// conjunction stands for all of them.
func TestGistCoverDropsContained(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		s, ctx, want string
		pieces       int
	}{
		{"[a, b] -> { [x] : x < a and a <= b; [x] : x < a and b < a }", "[a, b] -> { : a <= b; : b < a }", "[a, b] -> { [x] : x < a }", 1},
		{"[a, b] -> { [x] : x < a and a <= b; [x] : x < a and b < a; [x] : x < a - 1 and a <= b }", "[a, b] -> { : a <= b; : b < a }", "[a, b] -> { [x] : x < a }", 1},
		// Not contained: both stay.
		{"[a, b] -> { [x] : x < a and a <= b; [x] : x > b and b < a }", "[a, b] -> { : a <= b; : b < a }", "[a, b] -> { [x] : x < a and a <= b; [x] : x > b and b < a }", 2},
	} {
		s, cx, want := mustParse(t, c.s), mustParse(t, c.ctx), mustParse(t, c.want)
		g, err := GistCover(ctx, s, cx)
		if err != nil {
			t.Fatal(err)
		}
		lhs, _ := g.Intersect(cx)
		rhs, _ := want.Intersect(cx)
		if eq, err := lhs.IsEqual(ctx, rhs); err != nil || !eq {
			t.Errorf("GistCover(%s, %s) = %v, want %v within the context (%v)", c.s, c.ctx, g, want, err)
		}
		if g.NumBasics() != c.pieces {
			t.Errorf("GistCover(%s, %s) = %v: %d pieces, want %d", c.s, c.ctx, g, g.NumBasics(), c.pieces)
		}
	}
}

// GistCover drops the divisions that only its dropped constraints used.
func TestGistCoverDropsDivisions(t *testing.T) {
	const (
		s = "[a, b] -> { [x] : exists (e = floor(b/2): x < a and a <= 2e); [x] : exists (e = floor(b/2): x < a and 2e < a) }"
		c = "[a, b] -> { : exists (e = floor(b/2): a <= 2e); : exists (e = floor(b/2): 2e < a) }"
	)
	g := checkGist(t, "GistCover", GistCover, s, c, "[a, b] -> { [x] : x < a }")
	for _, b := range g.Basics() {
		if b.NumLocals() != 0 {
			t.Errorf("GistCover(%s, %s) = %v: a division left unused", s, c, g)
		}
	}
}

// GistCover's result equals the relation within the context, on random
// relations of up to three conjunctions and contexts of up to two.
func TestGistCoverRandom(t *testing.T) {
	checkGistRandom(t, "GistCover", GistCover, 3, 80, func(k int, more func() *BasicMap) (*Map, *Map) {
		b1 := more()
		bs := []*BasicMap{b1, more()}
		if k%2 == 1 {
			bs = append(bs, more())
		}
		sm := NewMap(b1.Space(), bs...)
		cm := NewMap(b1.Space(), more())
		if k%3 == 0 {
			cm = NewMap(b1.Space(), cm.Basics()[0], more())
		}
		return sm, cm
	})
}

// CompactUnion returns the same set, in one conjunction where the union
// of the pieces is one.
func TestCompactUnion(t *testing.T) {
	for _, c := range []struct {
		src    string
		pieces int
	}{
		// A tile split three ways (the undefined value at a row and a
		// column, a value elsewhere): coalescing two at a time merges none.
		{"[N, M] -> { [i, j] : 0 <= i < 16 and 0 <= j < 4 and i < N and j < M; [i, j] : 0 <= i < 16 and 0 <= j < 4 and i >= N; [i, j] : 0 <= i < 16 and 0 <= j < 4 and j >= M }", 1},
		{"{ [i] : 0 <= i < 3; [i] : 5 <= i < 8 }", 2},
	} {
		checkRewrite(t, "CompactUnion", CompactUnion, c.src, c.pieces)
	}
}

// checkGistRandom checks with gistHolds the gist op, named name, of the
// relations in the contexts that draw makes, perSpec times for each of
// smallRandSpecs (k counting them), from the random conjunctions of the
// spec that more returns; the conjunctions are drawn with the seed seed.
func checkGistRandom(t *testing.T, name string, op func(ctx context.Context, s, c *Map) (*Map, error), seed int64, perSpec int, draw func(k int, more func() *BasicMap) (s, c *Map)) {
	t.Helper()
	ctx := t.Context()
	n := 0
	forSmallRand(seed, perSpec, func(k int, more func() *BasicMap) bool {
		sm, cm := draw(k, more)
		g, err := op(ctx, sm, cm)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		n++
		return gistHolds(ctx, t, name, sm, cm, g)
	})
	t.Logf("%d random results of %s checked", n, name)
}

// gistHolds checks that the result g of the gist op of s in the context c
// has the points of s within c (g ∩ c = s ∩ c), exactly and on a grid of
// points, and reports whether the grid agreed.
func gistHolds(ctx context.Context, t *testing.T, op string, s, c, g *Map) bool {
	t.Helper()
	lhs, _ := g.Intersect(c)
	rhs, _ := s.Intersect(c)
	if eq, err := lhs.IsEqual(ctx, rhs); err != nil || !eq {
		t.Fatalf("%s(%v, %v) = %v: result ∩ C != S ∩ C (%v)", op, s, c, g, err)
	}
	return gistGridEqual(t, lhs, rhs, 3)
}
