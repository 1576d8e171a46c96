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

// TestIsEmptyPointAgrees checks IsEmptyPoint against IsEmpty and brute
// force on random conjunctions: the same decision, and every point it
// returns a point of the conjunction (by brute force, its existentials
// enumerated). Most non-empty conjunctions must come with a point (the
// tableau decides them), else the point is not passed on.
func TestIsEmptyPointAgrees(t *testing.T) {
	g := newRandGen(11)
	ctx := t.Context()
	n := propCount(2000)
	nonEmpty, withPoint := 0, 0
	for it := 0; it < n; it++ {
		params := []string{"N", "M"}[:g.r.Intn(3)]
		b := g.randBasic(g.randSetSpace(params), 4)
		want, err := b.IsEmpty(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got, p, err := b.IsEmptyPoint(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("case %d: IsEmptyPoint = %v, IsEmpty = %v\n%v", it, got, want, dumpBasic(b))
		}
		if got {
			if p != nil {
				t.Fatalf("case %d: point %v of an empty set\n%v", it, p, dumpBasic(b))
			}
			continue
		}
		nonEmpty++
		if p == nil {
			continue
		}
		withPoint++
		if len(p) != b.nDims() || !bruteContains(b, p) {
			t.Fatalf("case %d: point %v not in the set\n%v", it, p, dumpBasic(b))
		}
	}
	if nonEmpty < n/10 || withPoint*10 < nonEmpty*9 {
		t.Fatalf("%d of %d cases non-empty, %d of them with a point", nonEmpty, n, withPoint)
	}
	t.Logf("%d of %d cases non-empty, %d of them with a point", nonEmpty, n, withPoint)
}

// TestIneqTesterAgrees checks IneqTester against IsEmpty and brute force:
// on random conjunctions, each extended in turn by several random
// inequalities through one tester, the decision is IsEmpty's on the
// conjunction with the inequality, and every point returned is a point
// of it.
func TestIneqTesterAgrees(t *testing.T) {
	g := newRandGen(13)
	ctx := t.Context()
	n := propCount(500)
	nonEmpty, withPoint := 0, 0
	for it := 0; it < n; it++ {
		params := []string{"N", "M"}[:g.r.Intn(3)]
		b := g.randBasic(g.randSetSpace(params), 3)
		tester := b.NewIneqTester()
		for k := 0; k < 6; k++ {
			row := b.NewRow()
			for c := 0; c < b.nDims(); c++ {
				if g.r.Intn(2) == 0 {
					row[c] = g.coef(2)
				}
			}
			row[len(row)-1] = g.coef(4)
			c := b.Copy()
			c.AddIneq(row)
			want, err := c.IsEmpty(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got, p, err := tester.IsEmptyWith(ctx, row)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("case %d, row %d: IsEmptyWith = %v, IsEmpty = %v\n%v\nrow %v", it, k, got, want, dumpBasic(b), row)
			}
			if got {
				if p != nil {
					t.Fatalf("case %d, row %d: point %v of an empty set", it, k, p)
				}
				continue
			}
			nonEmpty++
			if p == nil {
				continue
			}
			withPoint++
			if len(p) != c.nDims() || !bruteContains(c, p) {
				t.Fatalf("case %d, row %d: point %v not in the set\n%v\nrow %v", it, k, p, dumpBasic(b), row)
			}
		}
	}
	if nonEmpty < n/2 || withPoint*10 < nonEmpty*9 {
		t.Fatalf("%d of %d tests non-empty, %d of them with a point", nonEmpty, 6*n, withPoint)
	}
	t.Logf("%d of %d tests non-empty, %d of them with a point", nonEmpty, 6*n, withPoint)
}
