package presburger

import "testing"

// TestBasicIntersectRows checks that BasicMap.Intersect builds the rows
// and locals of a copy of b conjoined with o, in the same order, on
// random conjunctions with divisions and existentials, and that the
// result's rows do not share storage with its operands or one another.
func TestBasicIntersectRows(t *testing.T) {
	g := newRandGen(9)
	for it := 0; it < propCount(2000); it++ {
		sp := g.randSetSpace(randParams(g))
		if g.r.Intn(2) == 0 {
			sp = g.randMapSpace(randParams(g))
		}
		b, o := g.randBasic(sp, 4), g.randBasic(sp, 4)
		if it%7 == 0 {
			o.setEmpty()
		}
		want := b.Copy()
		want.conjoin(o)
		got := b.Intersect(o)
		if dumpBasic(got) != dumpBasic(want) || got.empty != want.empty {
			t.Fatalf("case %d: %s ∩ %s:\ngot  %s\nwant %s", it, dumpBasic(b), dumpBasic(o), dumpBasic(got), dumpBasic(want))
		}
		// Writing every row of the result leaves the operands and the
		// other rows as they were.
		before := dumpBasic(b) + dumpBasic(o)
		rows := append(append([][]Int{}, got.eqs...), got.ineqs...)
		for _, d := range got.divs {
			if d.Num != nil {
				rows = append(rows, d.Num)
			}
		}
		for k, r := range rows {
			for c := range r {
				r[c] = NewInt(int64(k))
			}
		}
		for k, r := range rows {
			for c := range r {
				if !r[c].Equal(NewInt(int64(k))) {
					t.Fatalf("case %d: row %d shares storage with another row", it, k)
				}
			}
		}
		if dumpBasic(b)+dumpBasic(o) != before {
			t.Fatalf("case %d: writing the intersection changed an operand", it)
		}
	}
}
