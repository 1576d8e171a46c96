package presburger

import "testing"

// randTiled returns a conjunction in sp whose dimensions are boxed to
// [-boxB, boxB], with one or two plain existentials bounded as tile
// indices, k·e <= r <= k·e + c (r over the dimensions and, for the
// second, the first existential; c mostly below k, sometimes not, so that
// boundedDivs must refuse), and a few random constraints over all columns.
func (g randGen) randTiled(sp Space, nc int) *BasicMap {
	b := NewBasicMap(sp)
	nd := b.nDims()
	for c := 0; c < nd; c++ {
		addBox(b, c, boxB)
	}
	ne := 1 + g.r.Intn(2)
	for i := 0; i < ne; i++ {
		l := b.AddExistential()
		w := b.NumCols()
		k := int64(2 + g.r.Intn(4))
		lo := make([]Int, w) // r - k·e >= 0
		for c := 0; c < nd; c++ {
			lo[c] = g.coef(2)
		}
		if l > 0 {
			lo[b.locCol(0)] = g.coef(3)
		}
		lo[b.locCol(l)] = NewInt(-k)
		lo[w-1] = g.coef(3)
		c := g.r.Int63n(k)
		if g.r.Intn(5) == 0 {
			c = k + g.r.Int63n(2) // not a division
		}
		hi := negRow(lo) // k·e - r + c >= 0
		hi[w-1] = hi[w-1].Add(NewInt(c))
		b.AddIneq(lo)
		b.AddIneq(hi)
	}
	g.addRandRows(b, g.r.Intn(nc+1), 8)
	return b
}

// TestSubtractTileExistentials checks Subtract and IsSubset, whose
// subtrahends have existentials that boundedDivs turns into divisions,
// against membership decided by the Omega test (ContainsPoint) on every
// point of a box, and checks that boundedDivs alone keeps the set.
func TestSubtractTileExistentials(t *testing.T) {
	g := newRandGen(11)
	ctx := t.Context()
	n := propCount(300)
	rewrote := 0
	for it := 0; it < n; it++ {
		sp := g.randSetSpace(randParams(g))
		a := g.randMap(sp, 2, 3)
		tb := g.randTiled(sp, 3)
		b := NewMap(sp, tb)
		inA := func(p []Int) bool { return bruteMapContains(a, p) }
		inB := func(p []Int) bool {
			in, err := b.ContainsPoint(ctx, p)
			if err != nil {
				t.Fatalf("case %d: %v", it, err)
			}
			return in
		}
		c := tb.Copy()
		if c.normalize() && c.boundedDivs() {
			rewrote++
			checkPoints(t, it, "boundedDivs", NewMap(sp, c), nil, boxB+1, true, inB)
		}
		d, err := a.Subtract(ctx, b)
		checkPoints(t, it, "subtract", d, err, boxB, false, func(p []Int) bool { return inA(p) && !inB(p) })
		comp, err := b.Complement(ctx)
		checkPoints(t, it, "complement", comp, err, boxB+1, false, func(p []Int) bool { return !inB(p) })
		subset := true
		forBox(sp.NumDims(), boxB, func(p []Int) bool {
			if inA(p) && !inB(p) {
				subset = false
			}
			return subset
		})
		if s, err := a.IsSubset(ctx, b); err != nil || s != subset {
			t.Fatalf("case %d: IsSubset = %v (%v), brute %v", it, s, err, subset)
		}
	}
	if rewrote < n/4 {
		t.Fatalf("boundedDivs rewrote only %d of %d cases", rewrote, n)
	}
	t.Logf("%d cases, %d rewritten", n, rewrote)
}
