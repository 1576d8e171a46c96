package presburger

import (
	"context"
	"math/rand"
	"testing"
)

// TestElimEqDivs checks that elimEqDivs keeps the points of random
// conjunctions with divisions fixed by equalities and existentials pinned
// by two rows, and that it removes or defines locals on most of them.
func TestElimEqDivs(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	ctx := context.Background()
	changed := 0
	n := propCount(400)
	for it := 0; it < n; it++ {
		b := NewBasicMap(SetSpace([]string{"p"}, FlatTuple("S", "x", "y")))
		coef := func() Int { return NewInt(int64(r.Intn(5) - 2)) }
		// An existential pinned (or nearly) by two rows over x.
		e := b.AddExistential()
		m := int64(2 + r.Intn(4))
		k1, k2 := int64(r.Intn(int(m)+1)), int64(r.Intn(int(m)+1))
		w := b.NumCols()
		lo := make([]Int, w)
		lo[1], lo[b.locCol(e)], lo[w-1] = NewInt(1), NewInt(-m), NewInt(k1)
		hi := make([]Int, w)
		hi[1], hi[b.locCol(e)], hi[w-1] = NewInt(-1), NewInt(m), NewInt(k2)
		b.AddIneq(lo)
		b.AddIneq(hi)
		// A division of y and the existential, fixed by an equality.
		w = b.NumCols()
		num := make([]Int, w)
		num[2], num[0], num[w-1] = coef(), coef(), coef()
		if num[2].IsZero() {
			num[2] = NewInt(1)
		}
		d := b.AddLocalDiv(num, NewInt(int64(2+r.Intn(3))))
		w = b.NumCols()
		eq := make([]Int, w)
		eq[b.locCol(d)] = NewInt(int64(1 - 2*r.Intn(2)))
		eq[0], eq[b.locCol(e)], eq[w-1] = coef(), coef(), coef()
		b.AddEq(eq)
		for k := r.Intn(3); k > 0; k-- {
			row := make([]Int, w)
			row[0], row[1], row[2], row[w-1] = coef(), coef(), coef(), NewInt(int64(r.Intn(9)))
			b.AddIneq(row)
		}
		if !b.normalize() {
			continue
		}
		c := elimEqDivs(b)
		if c == b {
			continue
		}
		changed++
		sp := b.space
		eqv, err := NewMap(sp, c).IsEqual(ctx, NewMap(sp, b))
		if err != nil {
			t.Fatal(err)
		}
		if !eqv {
			t.Fatalf("case %d: elimEqDivs(%s) = %s", it, NewMap(sp, b), NewMap(sp, c))
		}
	}
	if changed < n/2 {
		t.Errorf("elimEqDivs changed %d of %d conjunctions: the test no longer exercises it", changed, n)
	}
}

// TestCoalesceAlignedDivisions checks the merges of pieces whose
// divisions differ and no equality removes (alignDivs): parities of a
// parameter taken in two ways merge into one conjunction without
// divisions, and pieces that are not one conjunction stay apart.
func TestCoalesceAlignedDivisions(t *testing.T) {
	for _, c := range []struct {
		src  string
		want int
		divs int // divisions of the merged conjunction (want = 1)
	}{
		// N even, N odd: every N.
		{`[N] -> { [i] : 0 <= i <= 5 and exists (e = floor(N/2): N = 2e);
			[i] : 0 <= i <= 5 and exists (f = floor((N + 1)/2): N + 1 = 2f) }`, 1, 0},
		// Even N with one bound, odd N with another: not convex.
		{`[N] -> { [i] : 0 <= i <= 5 and exists (e = floor(N/2): N = 2e);
			[i] : 7 <= i <= 9 and exists (f = floor((N + 1)/2): N + 1 = 2f) }`, 2, 0},
		// N a multiple of 4 or N odd: N = 2 mod 4 is in neither.
		{`[N] -> { [i] : 0 <= i <= 5 and exists (e = floor(N/4): N = 4e);
			[i] : 0 <= i <= 5 and exists (f = floor((N + 1)/2): N + 1 = 2f) }`, 2, 0},
		// A division that stays: i even on one side, i in 0..3 on the other.
		{`[N] -> { [i] : 0 <= i <= 9 and exists (e = floor(i/2): i = 2e) and exists (f = floor(N/3): N = 3f);
			[i] : 0 <= i <= 9 and exists (e = floor(i/2): i = 2e) and exists (f = floor((N + 1)/3): N + 1 = 3f) }`, 2, 0},
	} {
		got, ok := checkRewrite(t, "Coalesce", Coalesce, c.src, c.want)
		if !ok {
			continue
		}
		if c.want == 1 && got.basics[0].NumLocals() != c.divs {
			t.Errorf("Coalesce(%s) = %s: %d locals, want %d", c.src, got, got.basics[0].NumLocals(), c.divs)
		}
	}
}
