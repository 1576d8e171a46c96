package presburger

import (
	"context"
	"math/rand"
	"testing"
)

// tileRowsConjunction is the conjunction of the last rows read by one
// vectorised tile of a 16-row tiled loop, as a compiler builds it:
//
//	[M, N, K] -> { [o] : exists e0, e1, e2 = floor((M + 15)/16):
//	    M, N, K >= 1, 16e0 + 16 <= M, 0 <= e1 <= 1, e0 >= 0, e0 + 1 <= e2,
//	    16e0 + 8e1 <= o <= 16e0 + 8e1 + 7, o <= 16e0 + 15 }
//
// with its inequalities in the order of rows (a permutation of the
// compiler's order) and, with swap, the columns of e0 and e1 exchanged.
// Columns: M, N, K, o, e0, e1, e2, constant (e0 and e1 exchanged with
// swap).
func tileRowsConjunction(order []int, swap bool) *BasicMap {
	rows := [][]int64{
		{1, 0, 0, 0, 0, 0, 0, -1},
		{0, 1, 0, 0, 0, 0, 0, -1},
		{0, 0, 1, 0, 0, 0, 0, -1},
		{0, 0, 0, 0, 1, 0, 0, 0},
		{0, 0, 0, 0, -1, 0, 1, -1},
		{0, 0, 0, 0, 0, 1, 0, 0},
		{1, 0, 0, 0, -16, 0, 0, -16},
		{0, 0, 0, 0, 0, -1, 0, 1},
		{0, 0, 0, 1, -16, -8, 0, 0},
		{0, 0, 0, -1, 16, 8, 0, 7},
		{0, 0, 0, -1, 16, 0, 0, 15},
	}
	if order == nil {
		order = make([]int, len(rows))
		for i := range order {
			order[i] = i
		}
	}
	b := NewBasicMap(SetSpace([]string{"M", "N", "K"}, FlatTuple("", "o")))
	b.AddExistential()
	b.AddExistential()
	b.AddLocalDiv(intRow([]int64{1, 0, 0, 0, 0, 0, 15}), NewInt(16))
	for _, i := range order {
		r := append([]int64(nil), rows[i]...)
		if swap {
			r[4], r[5] = r[5], r[4]
		}
		b.AddIneq(intRow(r))
	}
	return b
}

// TestLexMaxIndependentOfRowOrder checks that the lexicographic maximum of
// one conjunction takes few Gomory cuts whatever the order of its rows:
// the cuts come from the highest-priority fractional variable. With the
// first fractional row of the tableau instead, the compiler's order of
// these rows took fifteen cuts, each a division of the previous one, and
// left as many nested divisions in the optimum.
func TestLexMaxIndependentOfRowOrder(t *testing.T) {
	ctx := context.Background()
	sp := SetSpace([]string{"M", "N", "K"}, FlatTuple("", "o"))
	want := mustParse(t, "[M, N, K] -> { [o] : o = 16*floor(M/16) - 1 and M >= 16 and N >= 1 and K >= 1 }")
	rng := rand.New(rand.NewSource(1))
	for k := 0; k < 40; k++ {
		var order []int
		if k > 0 {
			order = rng.Perm(11)
		}
		b := tileRowsConjunction(order, k%2 == 1)
		m := NewMap(sp, b)
		for _, in := range []*Map{m, mustParse(t, m.String())} {
			p, err := LexMax(ctx, in)
			if err != nil {
				t.Fatalf("order %v: %v", order, err)
			}
			if eq, err := p.ToMap().IsEqual(ctx, want); err != nil || !eq {
				t.Fatalf("order %v: LexMax of %s = %s, want %s (%v)", order, in, p, want, err)
			}
			for _, pc := range p.Pieces() {
				for _, a := range pc.Func.Affs() {
					if n := len(a.Divs()); n > 2 {
						t.Errorf("order %v: optimum %s has %d divisions, want at most 2", order, a, n)
					}
				}
			}
		}
	}
}
