package presburger

import (
	"context"
	"errors"
	"math/rand"
	"testing"
)

// Property tests of the structural operations, and unit tests on parsed
// strings.

func TestStructuralOpsBrute(t *testing.T) {
	g := newRandGen(6)
	ctx := t.Context()
	n := propCount(80)
	const R = 3 // smaller box for the 3-dimensional relations
	for it := 0; it < n; it++ {
		ps := randParams(g)
		np := len(ps)
		// [A -> B] -> C with one dimension each.
		sp := MapSpace(ps, NestedTuple("", FlatTuple("A", "a"), FlatTuple("B", "b")), FlatTuple("C", "c"))
		m := g.randMap(sp, 2, 4)
		in := func(p []Int) bool { return bruteMapContains(m, p) }
		cur, err := m.Curry()
		checkPoints(t, it, "curry", cur, err, R, false, in)
		unc, err := cur.Uncurry()
		if err != nil {
			t.Fatal(err)
		}
		if eq, err := unc.IsEqual(ctx, m); err != nil || !eq {
			t.Fatalf("case %d: uncurry(curry) differs (%v)", it, err)
		}
		// Zip of [A -> B] -> [C -> D].
		sp4 := MapSpace(ps, NestedTuple("", FlatTuple("A", "a"), FlatTuple("B", "b")), NestedTuple("", FlatTuple("C", "c"), FlatTuple("D", "d")))
		m4 := g.randMap(sp4, 2, 4)
		z, err := m4.Zip()
		checkPoints(t, it, "zip", z, err, 2, false, func(p []Int) bool {
			// z is [A -> C] -> [B -> D]: (a, c, b, d)
			q := append(append([]Int(nil), p[:np]...), p[np], p[np+2], p[np+1], p[np+3])
			return bruteMapContains(m4, q)
		})
		// Projection of a dimension that divisions depend on.
		pr, err := m.ProjectOut(DimOut, 0, 1)
		checkPoints(t, it, "project_out", pr, err, R, true, func(p []Int) bool {
			found := false
			forBox(1, boxB, func(q []Int) bool {
				found = in(append(append([]Int(nil), p...), q[0]))
				return !found
			})
			return found
		})
		// Fixing and binding.
		f, err := m.FixDim(DimIn, 1, NewInt(1))
		checkPoints(t, it, "fix_dim", f, err, R, false, func(p []Int) bool { return p[np+1].Equal(NewInt(1)) && in(p) })
		if np == 1 {
			bd, err := m.BindParams(map[string]Int{"N": NewInt(2)})
			checkPoints(t, it, "bind_params", bd, err, R, true, func(p []Int) bool {
				return in(append([]Int{NewInt(2)}, p...))
			})
		}
		// Domain restriction.
		set := g.randMap(sp.Domain(), 2, 3)
		id, err := m.IntersectDomain(set)
		checkPoints(t, it, "intersect_domain", id, err, R, false, func(p []Int) bool {
			return in(p) && bruteMapContains(set, p[:np+2])
		})
		rset := g.randMap(sp.Range(), 2, 3)
		ir, err := m.IntersectRange(rset)
		checkPoints(t, it, "intersect_range", ir, err, R, false, func(p []Int) bool {
			return in(p) && bruteMapContains(rset, append(append([]Int(nil), p[:np]...), p[np+2]))
		})
		// Lexicographic order and identity on a 2-d set space.
		s2 := SetSpace(ps, FlatTuple("S", "x", "y"))
		lt, _ := LexLT(s2)
		le, _ := LexLE(s2)
		gt, _ := LexGT(s2)
		ge, _ := LexGE(s2)
		idm, _ := Identity(s2)
		lexCmp := func(p []Int) int {
			for k := 0; k < 2; k++ {
				if c := p[np+k].Cmp(p[np+2+k]); c != 0 {
					return c
				}
			}
			return 0
		}
		if it < 3 {
			checkPoints(t, it, "lt", lt, nil, 2, false, func(p []Int) bool { return lexCmp(p) < 0 })
			checkPoints(t, it, "le", le, nil, 2, false, func(p []Int) bool { return lexCmp(p) <= 0 })
			checkPoints(t, it, "gt", gt, nil, 2, false, func(p []Int) bool { return lexCmp(p) > 0 })
			checkPoints(t, it, "ge", ge, nil, 2, false, func(p []Int) bool { return lexCmp(p) >= 0 })
			checkPoints(t, it, "identity", idm, nil, 2, false, func(p []Int) bool { return lexCmp(p) == 0 })
		}
		// Range and domain products.
		r1 := g.randMap(MapSpace(ps, FlatTuple("A", "a"), FlatTuple("B", "b")), 2, 3)
		r2 := g.randMap(MapSpace(ps, FlatTuple("A", "a"), FlatTuple("C", "c")), 2, 3)
		rp, err := r1.RangeProduct(r2)
		checkPoints(t, it, "range_product", rp, err, R, false, func(p []Int) bool {
			par := p[:np]
			return bruteMapContains(r1, append(append([]Int(nil), par...), p[np], p[np+1])) &&
				bruteMapContains(r2, append(append([]Int(nil), par...), p[np], p[np+2]))
		})
		r3 := g.randMap(MapSpace(ps, FlatTuple("C", "c"), FlatTuple("B", "b")), 2, 3)
		dp, err := r1.DomainProduct(r3)
		checkPoints(t, it, "domain_product", dp, err, R, false, func(p []Int) bool {
			par := p[:np]
			return bruteMapContains(r1, append(append([]Int(nil), par...), p[np], p[np+2])) &&
				bruteMapContains(r3, append(append([]Int(nil), par...), p[np+1], p[np+2]))
		})
		// Preimage of a set by a relation.
		bset := g.randMap(SetSpace(ps, FlatTuple("B", "b")), 2, 3)
		pre, err := bset.Preimage(r1)
		checkPoints(t, it, "preimage", pre, err, boxB, true, func(p []Int) bool {
			found := false
			forBox(1, boxB, func(q []Int) bool {
				par := p[:np]
				found = bruteMapContains(r1, append(append([]Int(nil), par...), p[np], q[0])) &&
					bruteMapContains(bset, append(append([]Int(nil), par...), q[0]))
				return !found
			})
			return found
		})
	}
	t.Logf("%d cases", n)
}

func TestVerifierShapes(t *testing.T) {
	ctx := context.Background()
	// A tiled write: element (i, j) of A written by tile (ti, tj), point (pi, pj).
	w := mustParse(t, "[N] -> { T[ti, tj, pi, pj] -> A[4ti + pi, 4tj + pj] : 0 <= pi, pj < 4 and 0 <= 4ti + pi < N and 0 <= 4tj + pj < N }")
	if inj, err := w.IsInjective(ctx); err != nil || !inj {
		t.Fatalf("tiled write should be injective: %v %v", inj, err)
	}
	dom := mustParse(t, "[N] -> { A[i, j] : 0 <= i, j < N }")
	if eq, err := w.Range().IsEqual(ctx, dom); err != nil || !eq {
		t.Fatalf("tiled write should cover A: %v %v\n%v", eq, err, w.Range())
	}
	// A race: two iterations of a parallel loop writing the same cell.
	r := mustParse(t, "[N] -> { S[i] -> A[floor(i/2)] : 0 <= i < N }")
	if inj, err := r.IsInjective(ctx); err != nil || inj {
		t.Fatalf("floor(i/2) write should not be injective")
	}
	conflict, err := r.ApplyRange(r.Reverse())
	if err != nil {
		t.Fatal(err)
	}
	lt, _ := LexLT(SetSpace([]string{"N"}, FlatTuple("S", "i")))
	race, err := conflict.Intersect(lt)
	if err != nil {
		t.Fatal(err)
	}
	p, err := race.Sample(ctx)
	if err != nil || p == nil {
		t.Fatalf("expected a race sample: %v", err)
	}
	// p = (N, i, i'): i < i', floor(i/2) = floor(i'/2), 0 <= i, i' < N.
	N, i, i2 := p[0], p[1], p[2]
	if !(i.Cmp(i2) < 0 && i.FloorDiv(NewInt(2)).Equal(i2.FloorDiv(NewInt(2))) && i.Sign() >= 0 && i2.Cmp(N) < 0) {
		t.Fatalf("bad race sample %v", p)
	}
	// Subtract with existentials in the subtrahend.
	even := mustParse(t, "{ [i] : exists (k: i = 2k) and 0 <= i <= 10 }")
	all := mustParse(t, "{ [i] : 0 <= i <= 10 }")
	odd, err := all.Subtract(ctx, even)
	if err != nil {
		t.Fatal(err)
	}
	for v := int64(-1); v <= 11; v++ {
		in, _ := odd.ContainsPoint(ctx, pt(v))
		if want := v >= 0 && v <= 10 && v%2 != 0; in != want {
			t.Fatalf("odd(%d) = %v: %v", v, in, odd)
		}
	}
	// Unbounded emptiness: no integer on a thin unbounded strip.
	strip := mustParse(t, "{ [i, j] : 1 <= 3i - 3j <= 2 }")
	if e, err := strip.IsEmpty(ctx); err != nil || !e {
		t.Fatalf("strip should be empty: %v %v", e, err)
	}
	strip2 := mustParse(t, "{ [i, j, k] : 2 <= 6i + 9j - 12k <= 2 }")
	if e, err := strip2.IsEmpty(ctx); err != nil || !e {
		t.Fatalf("strip2 should be empty: %v %v", e, err)
	}
	pugh := mustParse(t, "{ [x, y] : 27 <= 11x + 13y <= 45 and -10 <= 7x - 9y <= 4 }")
	if e, err := pugh.IsEmpty(ctx); err != nil || !e {
		t.Fatalf("Pugh's example should be empty: %v %v", e, err)
	}
	// Params.
	pm := mustParse(t, "[N, M] -> { [i] : 0 <= i < N and i >= M }")
	want := mustParse(t, "[N, M] -> { : N >= 1 and N > M and N >= 1 }")
	if eq, err := pm.Params().IsEqual(ctx, want); err != nil || !eq {
		t.Fatalf("params = %v", pm.Params())
	}
}

func TestBudget(t *testing.T) {
	ctx := WithBudget(context.Background(), Budget{MaxSteps: 3})
	m := mustParse(t, "{ [x, y] : 27 <= 11x + 13y <= 45 and -10 <= 7x - 9y <= 4 }")
	_, err := m.IsEmpty(ctx)
	if !errors.Is(err, ErrBudget) {
		t.Fatalf("want ErrBudget, got %v", err)
	}
	cctx, cancel := context.WithCancel(context.Background())
	cancel()
	big := mustParse(t, "{ [i, j, k] : 0 <= i, j, k < 100 and exists (a, b: i = 3a + 5b + 7k and a >= 0 and b >= 0 and j <= 2a) }")
	_, err = Universe(big.Space()).Subtract(cctx, big)
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, ErrBudget) {
		t.Fatalf("want a context or budget error, got %v", err)
	}
}

// A prefixTab decides emptiness as the Omega test does, as rows come and
// go (random systems over three variables, many with rational points
// only).
func TestPrefixTabEmptiness(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	mt := newMeter(context.Background())
	sp := SetSpace(nil, FlatTuple("", "x", "y", "z"))
	decided := 0
	for iter := 0; iter < 400; iter++ {
		b := NewBasicMap(sp)
		b.ineqs = randRows(rng, 1+rng.Intn(3), 3)
		pt := newPrefixTab(mt, b)
		rows := append([][]Int(nil), b.ineqs...)
		for step := 0; step < 4; step++ {
			snap := pt.snapshot()
			extra := randRows(rng, 1+rng.Intn(2), 3)
			for _, r := range extra {
				pt.addRow(r)
			}
			c := NewBasicMap(sp)
			c.ineqs = append(append([][]Int(nil), rows...), extra...)
			want, err := omegaOnly(mt, nil, c.ineqs, 3)
			if err != nil {
				t.Fatal(err)
			}
			got, err := pt.isEmpty(c)
			if err != nil {
				t.Fatal(err)
			}
			if got == want {
				t.Fatalf("rows %v: empty = %v, want %v", c.ineqs, got, !want)
			}
			if pt.t != nil {
				decided++
			}
			if rng.Intn(2) == 0 {
				pt.rollback(snap)
			} else {
				rows = c.ineqs
			}
		}
	}
	if decided == 0 {
		t.Error("no test was decided on the tableau")
	}
}

// TestMapNumConstraints checks that Map.NumConstraints counts the
// constraints of every piece, as the pieces' own counts sum them.
func TestMapNumConstraints(t *testing.T) {
	for _, src := range []string{
		"[n] -> { [i] : 0 <= i < n }",
		"[n] -> { [i, j] : 0 <= i < n and j = 2i; [i, j] : i = n and 0 <= j <= 3 }",
		"{ [i] }",
	} {
		m, err := ParseSet(src)
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		for _, b := range m.Basics() {
			want += b.NumConstraints()
		}
		if got := m.NumConstraints(); got != want {
			t.Errorf("%s: NumConstraints() = %d, the pieces have %d", src, got, want)
		}
		if src != "{ [i] }" && want == 0 {
			t.Errorf("%s: no constraint counted", src)
		}
	}
}
