package presburger

import (
	"context"
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
// one function (pwLexCombine), whether their domains meet or not.
func lexOptFold(ctx context.Context, m *Map, max bool) (*PwMultiAff, error) {
	var res *PwMultiAff
	for _, b := range m.Basics() {
		p, err := lexOpt(ctx, NewMap(m.Space(), b), max)
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
