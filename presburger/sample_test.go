package presburger

import "testing"

// TestSampleLeastPoint checks which point Sample returns, against brute
// force: for each dimension in order, the least non-negative value the
// points left allow, else the negative value nearest zero. Callers rely
// on the choice (the quick tests' parameter values derive from it), and
// the searches' starting points must not skip it.
func TestSampleLeastPoint(t *testing.T) {
	g := newRandGen(7)
	ctx := t.Context()
	// key orders a value as Sample prefers it: 0, 1, 2, ..., then -1, -2, ...
	key := func(v int64) int64 {
		if v >= 0 {
			return v
		}
		return 1<<20 - v
	}
	n := propCount(2000)
	checked := 0
	for it := 0; it < n; it++ {
		params := []string{"N", "M"}[:g.r.Intn(3)]
		sp := g.randSetSpace(params)
		b := g.randBasic(sp, 4)
		var want []int64
		forBox(b.nDims(), boxB, func(p []Int) bool {
			if !bruteContains(b, p) {
				return true
			}
			better := want == nil
			for i := 0; i < len(p) && !better; i++ {
				v, _ := p[i].Int64()
				if key(v) != key(want[i]) {
					better = key(v) < key(want[i])
					break
				}
			}
			if better {
				want = want[:0]
				for _, x := range p {
					v, _ := x.Int64()
					want = append(want, v)
				}
			}
			return true
		})
		got, err := b.Sample(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			if got != nil {
				t.Fatalf("case %d: Sample = %v of an empty set\n%v", it, got, dumpBasic(b))
			}
			continue
		}
		checked++
		if len(got) != len(want) {
			t.Fatalf("case %d: Sample = %v, want %v\n%v", it, got, want, dumpBasic(b))
		}
		for i := range want {
			if v, ok := got[i].Int64(); !ok || v != want[i] {
				t.Fatalf("case %d: Sample = %v, want %v\n%v", it, got, want, dumpBasic(b))
			}
		}
	}
	if checked == 0 {
		t.Fatal("no nonempty case")
	}
	t.Logf("%d cases, %d nonempty", n, checked)
}
