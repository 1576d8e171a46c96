package presburger

import "testing"

// TestPrintParseRoundTrip prints random relations (with divisions and
// existentials, sets and maps, nested tuples) and parses them back: the
// result must be equal, and must contain exactly the enumerated points.
func TestPrintParseRoundTrip(t *testing.T) {
	g := newRandGen(8)
	ctx := t.Context()
	n := propCount(300)
	for it := 0; it < n; it++ {
		ps := randParams(g)
		var sp Space
		switch g.r.Intn(3) {
		case 0:
			sp = g.randSetSpace(ps)
		case 1:
			sp = g.randMapSpace(ps)
		default:
			sp = SetSpace(ps, NestedTuple("W", FlatTuple("S", "i"), FlatTuple("", "")))
		}
		m := g.randMap(sp, 3, 4)
		text := m.String()
		back := mustParse(t, text)
		if !back.space.SameTuples(m.space) || !sameStrings(back.space.Params, m.space.Params) {
			t.Fatalf("case %d: space %v became %v", it, m.space, back.space)
		}
		checkPoints(t, it, "roundtrip", back, nil, boxB, false, func(p []Int) bool { return bruteMapContains(m, p) })
		if it%10 == 0 {
			if eq, err := back.IsEqual(ctx, m); err != nil || !eq {
				t.Fatalf("case %d: %q not equal after round trip (%v)", it, text, err)
			}
		}
		u := NewUnionMap(m, g.randMap(g.randSetSpace(ps), 2, 3))
		ub := mustUnion(t, u.String())
		if eq, err := ub.IsEqual(ctx, u); err != nil || !eq {
			t.Fatalf("case %d: union %q not equal after round trip (%v)", it, u.String(), err)
		}
	}
	t.Logf("%d cases", n)
}
