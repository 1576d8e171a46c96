package presburger

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// The conjunctions of a union fall into groups of meeting domains: by
// opposite rows (i < 10 and i >= 20), or by an emptiness test where no
// row is opposite (even and odd inputs); the optimum is the groups'
// optima side by side, and equal to the optimum computed by combining
// every conjunction's.
func TestLexOptDomainGroups(t *testing.T) {
	ctx := context.Background()
	m := mustParse(t, "[N] -> { A[i] -> [x] : 0 <= i < 10 and 0 <= x <= i; "+
		"A[i] -> [x] : 20 <= i < N and x = N; "+
		"A[i] -> [x] : exists e : i = 2e and 5 <= i < 15 and x = 100; "+
		"A[i] -> [x] : exists e : i = 2e + 1 and 11 <= i < 19 and x = i }")
	if m.NumBasics() != 4 {
		t.Fatalf("%v: want four conjunctions", m)
	}
	groups, err := lxDomainGroups(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int{{0, 2}, {1}, {3}}
	if !slices.EqualFunc(groups, want, slices.Equal) {
		t.Errorf("groups %v, want %v", groups, want)
	}
	got, err := LexMaxMap(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	exp := mustParse(t, "[N] -> { A[i] -> [i] : 0 <= i <= 5; A[i] -> [i] : i = 7 or i = 9; "+
		"A[i] -> [100] : exists e : i = 2e and 6 <= i <= 14; A[i] -> [N] : 20 <= i < N; "+
		"A[i] -> [i] : exists e : i = 2e + 1 and 11 <= i <= 17 }")
	if eq, err := got.IsEqual(ctx, exp); err != nil || !eq {
		t.Errorf("LexMaxMap(%v) = %v, want %v (%v)", m, got, exp, err)
	}
	// The optimum of the conjunctions combined one after the other, as
	// without the groups, is the same function.
	fold, err := lexOptFold(ctx, m, true)
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := fold.ToMap().IsEqual(ctx, got); err != nil || !eq {
		t.Errorf("combined optimum %v, grouped %v (%v)", fold, got, err)
	}
}

// lexOptFold is the optimum of m with every conjunction's combined into
// one function (pwLexCombine), whether their domains meet or not, and not
// coalesced.
func lexOptFold(ctx context.Context, m *Map, max bool) (*PwMultiAff, error) {
	var res *PwMultiAff
	for _, b := range m.Basics() {
		p, err := lexOptBasic(ctx, newMeter(ctx), b, max, false)
		if err != nil {
			return nil, err
		}
		if res == nil {
			res = p
		} else if res, err = pwLexCombine(ctx, res, p, max); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// Random unions whose conjunctions are cut to slabs of the input, some
// disjoint and some overlapping: the optimum is checked against
// enumeration (with disjoint pieces), and two conjunctions put in
// different groups have disjoint domains.
func TestLexOptRandomSlabUnions(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	ctx := context.Background()
	specs := []lxRandSpec{
		{nP: 1, nI: 1, nO: 1, box: 3},
		{nI: 1, nO: 1, nDiv: 1, box: 4},
		{nP: 1, nI: 1, nO: 2, box: 2},
	}
	n, skipped, split := 0, 0, 0
	for _, s := range specs {
		for k := 0; k < 20; k++ {
			var bs []*BasicMap
			for len(bs) < 3+k%4 {
				b := lxRandBasic(r, s)
				// lo <= x0 <= lo + 1, lo in [-3, 2]: neighbours overlap or not.
				lo := int64(r.Intn(6) - 3)
				x := s.nP
				row := make([]Int, b.NumCols())
				row[x], row[len(row)-1] = NewInt(1), NewInt(-lo)
				b.AddIneq(row)
				row = make([]Int, b.NumCols())
				row[x], row[len(row)-1] = NewInt(-1), NewInt(lo+1)
				b.AddIneq(row)
				bs = append(bs, b)
			}
			m := NewMap(bs[0].Space(), bs...)
			groups, err := lxDomainGroups(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			if len(groups) > 1 {
				split++
			}
			lxCheckGroupsDisjoint(t, m, groups)
			n++
			if !lxCheckOpt(t, bs, s, 3, k%2 == 0, &skipped) {
				return
			}
		}
	}
	if skipped > n/2 || split < n/4 {
		t.Fatalf("%d of %d unions skipped, %d split into groups", skipped, n, split)
	}
	t.Logf("%d unions checked (%d split into groups), %d skipped", n, split, skipped)
}

// lxCheckGroupsDisjoint fails t unless the groups partition m's
// conjunctions and conjunctions of different groups have disjoint
// domains.
func lxCheckGroupsDisjoint(t *testing.T, m *Map, groups [][]int) {
	t.Helper()
	ctx := context.Background()
	bs := m.Basics()
	of := make([]int, len(bs))
	seen := 0
	for g, idx := range groups {
		for _, i := range idx {
			of[i] = g
			seen++
		}
	}
	if seen != len(bs) {
		t.Fatalf("%v: groups %v do not partition its conjunctions", m, groups)
	}
	for i := range bs {
		for j := 0; j < i; j++ {
			if of[i] == of[j] {
				continue
			}
			di := NewMap(m.Space(), bs[i]).Domain()
			dj := NewMap(m.Space(), bs[j]).Domain()
			meet, err := di.Intersect(dj)
			if err != nil {
				t.Fatal(err)
			}
			if empty, err := meet.IsEmpty(ctx); err != nil || !empty {
				t.Fatalf("%v: conjunctions %d and %d in groups %v meet (%v)", m, i, j, groups, err)
			}
		}
	}
}

// Iterated updates of maps whose conjunctions write cells of their own
// (i < 3 and i >= 3, or even and odd cells), so that the last write has
// several groups and each conjunction is substituted with its groups'
// pieces only: the result is checked against execution, as
// TestIteratedUpdateRandom checks a single conjunction.
func TestIteratedUpdateGroupsRandom(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewSource(13))
	bound := mustParse(t, "[N, x] -> { : 0 <= x < N }")
	conds := []string{"i = %d + x mod 2", "i = %d + floor(x / 2)", "i <= x + %d and i >= x - 1", "i = %d"}
	cells := [][2]string{{"0 <= i < 3", "3 <= i < 6"}, {"exists e : i = 2e and 0 <= i < 6", "exists e : i = 2e + 1 and 0 <= i < 6"}}
	n, split := 0, 0
	for k := 0; k < 40; k++ {
		cs := cells[k%2]
		var parts []string
		var coef [2][3]int
		for p := range 2 {
			c := coef[p][:]
			for q := range c {
				c[q] = r.Intn(5) - 2
			}
			cond := fmt.Sprintf(conds[r.Intn(len(conds))], r.Intn(4))
			parts = append(parts, fmt.Sprintf("a[i] -> E[j] : %s and %s and j = %d*x + %d*i + %d", cond, cs[p], c[0], c[1], c[2]))
		}
		src := "[N, x] -> { " + parts[0] + "; " + parts[1] + " }"
		h := mustParse(t, src)
		d, err := h.Domain().IntersectParams(bound)
		if err != nil {
			t.Fatal(err)
		}
		bd, err := BindParam(d, "x")
		if err != nil {
			t.Fatal(err)
		}
		if g, err := lxDomainGroups(ctx, bd); err != nil {
			t.Fatal(err)
		} else if len(g) > 1 {
			split++
		}
		got, err := IteratedUpdate(ctx, NewUnionMap(h), "x", bound)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		var gm *Map
		switch ms := got.Maps(); len(ms) {
		case 0:
			gm = Empty(MapSpace([]string{"N"}, FlatTuple("a", "i"), FlatTuple("E", "j")))
		case 1:
			gm = ms[0]
		default:
			t.Fatalf("%d maps", len(ms))
		}
		n++
		for N := int64(0); N <= 6; N++ {
			mem := map[int64]int64{}
			for x := int64(0); x < N; x++ {
				for i := int64(0); i < 6; i++ {
					for p := range 2 {
						c := coef[p]
						j := int64(c[0])*x + int64(c[1])*i + int64(c[2])
						b := NewMap(h.Space(), h.Basics()[p])
						if in, err := b.ContainsPoint(ctx, ints(N, x, i, j)); err != nil {
							t.Fatal(err)
						} else if in {
							mem[i] = j
						}
					}
				}
			}
			matchesMemory(t, src, gm, N, mem, 30)
		}
	}
	if split < n/2 {
		t.Fatalf("%d of %d last writes in several groups", split, n)
	}
	t.Logf("%d iterated updates checked against execution, %d with several groups", n, split)
}

// Substitute skips the pairs whose rows over the result's dimensions
// are opposite with no integer between them (substDimRows): rows that
// read the substituted parameter or a local are not among those rows,
// and the pairs they would separate are tested as before.
func TestSubstDimRows(t *testing.T) {
	r1 := mustParse(t, "[N, x] -> { a[i] -> E[j] : i >= 5 and j = x and exists e : i = 2e }")
	cases := []struct {
		r2   string
		want bool // opposite rows found
	}{
		{"[N] -> { a[i] -> [x] : i <= 4 and x = N }", true},
		{"[N] -> { a[i] -> [x] : i <= 5 and x = N }", false},
		// x <= 4 contradicts nothing over the dimensions: x is substituted.
		{"[N] -> { a[i] -> [x] : x <= 4 and x = i }", false},
	}
	xpos := map[string]int{"x": 0}
	for _, c := range cases {
		r2 := mustParse(t, c.r2)
		b1, b2 := r1.Basics()[0], r2.Basics()[0]
		sp := r1.Space()
		sp.Params = alignParamNames([]string{"N"}, r2.Space().Params)
		map1, map2 := substColumnMaps(sp, b1, xpos, b2)
		got := sharedContradiction(substDimRows(b1, map1, sp.NumDims()), substDimRows(b2, map2, sp.NumDims()))
		if got != c.want {
			t.Errorf("%v and %v: opposite rows %v, want %v", r1, r2, got, c.want)
		}
		s, err := Substitute(context.Background(), r1, []string{"x"}, r2)
		if err != nil {
			t.Fatal(err)
		}
		if c.want && s.NumBasics() != 0 {
			t.Errorf("Substitute(%v, x, %v) = %v, want no conjunction", r1, r2, s)
		}
	}
}
