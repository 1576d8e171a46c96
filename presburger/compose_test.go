package presburger

import "testing"

// TestComposeBasicMatchesReshape checks that composeBasic, which builds
// the join of two pieces in one pass, gives the rows, divisions and
// order that the join through reshape and conjoin gives (the fallback
// for pieces with plain existentials), on random pieces.
func TestComposeBasicMatchesReshape(t *testing.T) {
	g := newRandGen(3)
	same := func(a, b *BasicMap) bool {
		if a.empty != b.empty || len(a.eqs) != len(b.eqs) || len(a.ineqs) != len(b.ineqs) || len(a.divs) != len(b.divs) || a.space.String() != b.space.String() {
			return false
		}
		for i := range a.eqs {
			if rowKey(a.eqs[i]) != rowKey(b.eqs[i]) {
				return false
			}
		}
		for i := range a.ineqs {
			if rowKey(a.ineqs[i]) != rowKey(b.ineqs[i]) {
				return false
			}
		}
		for i := range a.divs {
			if (a.divs[i].Num == nil) != (b.divs[i].Num == nil) || !a.divs[i].Den.Equal(b.divs[i].Den) {
				return false
			}
			if a.divs[i].Num != nil && rowKey(a.divs[i].Num) != rowKey(b.divs[i].Num) {
				return false
			}
		}
		return true
	}
	fast := 0
	for it := 0; it < 3000; it++ {
		params := []string{"N", "M"}[:g.r.Intn(3)]
		nA, nB, nC := g.r.Intn(3), 1+g.r.Intn(2), 1+g.r.Intn(2)
		names := func(p string, n int) []string {
			out := make([]string, n)
			for i := range out {
				out[i] = p + string(rune('0'+i))
			}
			return out
		}
		var rs, ss, sp Space
		if nA == 0 && g.r.Intn(2) == 0 {
			rs = SetSpace(params, FlatTuple("B", names("b", nB)...))
			sp = SetSpace(params, FlatTuple("C", names("c", nC)...))
		} else {
			rs = MapSpace(params, FlatTuple("A", names("a", nA)...), FlatTuple("B", names("b", nB)...))
			sp = MapSpace(params, FlatTuple("A", names("a", nA)...), FlatTuple("C", names("c", nC)...))
		}
		ss = MapSpace(params, FlatTuple("B", names("b", nB)...), FlatTuple("C", names("c", nC)...))
		r, s := g.randBasic(rs, 4), g.randBasic(ss, 4)
		if g.r.Intn(4) == 0 {
			num := make([]Int, r.NumCols())
			num[r.nDims()-1] = NewInt(1)
			r.AddLocalDiv(num, NewInt(3))
		}
		if !hasPlainLocal(r) && !hasPlainLocal(s) {
			fast++
		}
		a, b := composeBasic(r, s, sp), composeBasicReshape(r, s, sp)
		if !same(a, b) {
			t.Fatalf("case %d: differ\n%v\n%v", it, dumpBasic(a), dumpBasic(b))
		}
	}
	if fast == 0 {
		t.Fatal("no piece took the one-pass join")
	}
}
