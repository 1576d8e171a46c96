package presburger

import (
	"math/rand"
	"testing"
)

// withDivsOfByCopies is withDivsOf as a copy of a and one AddLocalDiv per
// new division, the reference for TestWithDivsOf.
func withDivsOfByCopies(a, b *BasicMap) (c *BasicMap, mapRow func([]Int) []Int, ok bool) {
	for _, d := range b.divs {
		if d.Den.IsZero() {
			return nil, nil, false
		}
	}
	c = a.Copy()
	nd := a.nDims()
	colOf := make([]int, len(b.divs))
	mapRow = func(r []Int) []Int {
		out := make([]Int, c.NumCols())
		copy(out, r[:nd])
		for i := range b.divs {
			if v := r[nd+i]; !v.IsZero() {
				out[colOf[i]] = out[colOf[i]].Add(v)
			}
		}
		out[len(out)-1] = r[len(r)-1]
		return out
	}
	for i, d := range b.divs {
		num := mapRow(d.Num)
		colOf[i] = -1
		for l, cd := range c.divs {
			if !cd.Den.IsZero() && cd.Den.Equal(d.Den) && intsEqual(cd.Num, num) {
				colOf[i] = c.locCol(l)
				break
			}
		}
		if colOf[i] < 0 {
			colOf[i] = c.locCol(c.AddLocalDiv(num, d.Den))
		}
	}
	return c, mapRow, true
}

// TestWithDivsOf checks withDivsOf against a copy extended one division
// at a time: the same rows, divisions and rewritten rows, on random pairs
// of conjunctions with divisions, some of them shared (the same
// definition, at the same or another place), and with existentials on
// either side.
func TestWithDivsOf(t *testing.T) {
	r := rand.New(rand.NewSource(17))
	g := randGen{r}
	shared := 0
	for it := 0; it < propCount(1500); it++ {
		ca, cb := randDivCase(r), randDivCase(r)
		// Share the first divisions' definitions now and then.
		for k := 0; k < len(ca.nums) && k < len(cb.nums) && r.Intn(2) == 0; k++ {
			cb.nums[k] = append([]int64(nil), ca.nums[k]...)
			cb.dens[k] = ca.dens[k]
		}
		a, b := ca.basic(it%2 == 0), cb.basic(it%3 == 0)
		if it%5 == 0 {
			a.AddExistential()
		}
		if it%11 == 0 {
			b = g.randBasic(a.Space(), 3)
		}
		want, wantRow, wantOK := withDivsOfByCopies(a, b)
		got, gotRow, gotOK := withDivsOf(a, b)
		if gotOK != wantOK {
			t.Fatalf("case %d: ok %v, want %v", it, gotOK, wantOK)
		}
		if !gotOK {
			continue
		}
		if dumpBasic(got) != dumpBasic(want) {
			t.Fatalf("case %d: %s with the divisions of %s:\ngot  %s\nwant %s", it, dumpBasic(a), dumpBasic(b), dumpBasic(got), dumpBasic(want))
		}
		if got.NumLocals() < a.NumLocals()+b.NumLocals() {
			shared++
		}
		for _, row := range append(append(b.Eqs(), b.Ineqs()...), b.NewRow()) {
			if gr, wr := gotRow(row), wantRow(row); !intsEqual(gr, wr) || len(gr) != len(wr) {
				t.Fatalf("case %d: row %v rewritten as %v, want %v", it, row, gr, wr)
			}
		}
	}
	if shared == 0 {
		t.Error("no case shared a division")
	}
}
