package presburger

import (
	"context"
	"math/rand"
	"strconv"
	"testing"
)

// sparseBasic returns a random conjunction shaped like the parameter
// constraints the verifier simplifies: bounds on single variables,
// single-variable equalities, and a few rows over two or three
// variables, over up to six set dimensions.
func sparseBasic(r *rand.Rand) *BasicMap {
	nd := 1 + r.Intn(6)
	dims := make([]string, nd)
	for i := range dims {
		dims[i] = "x" + strconv.Itoa(i)
	}
	b := NewBasicMap(SetSpace(nil, FlatTuple("S", dims...)))
	w := b.NumCols()
	row := func(vars int) []Int {
		rw := make([]Int, w)
		for k := 0; k < vars; k++ {
			c := int64(r.Intn(5) - 2)
			if k == 0 && c == 0 {
				c = 1
			}
			rw[r.Intn(nd)] = NewInt(c)
		}
		rw[w-1] = NewInt(int64(r.Intn(13) - 6))
		return rw
	}
	for k := r.Intn(8); k > 0; k-- {
		vars := 1
		if r.Intn(3) == 0 {
			vars = 2 + r.Intn(2)
		}
		b.AddIneq(row(vars))
	}
	for k := r.Intn(3); k > 0; k-- {
		vars := 1
		if r.Intn(2) == 0 {
			vars = 2
		}
		b.AddEq(row(vars))
	}
	return b
}

// TestQuickSimplify checks simplify, whose cheap path (quickSimplify)
// settles most of these conjunctions, against the all-Omega algorithm,
// and checks that the cheap path is taken often enough to be tested.
func TestQuickSimplify(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	ctx := context.Background()
	quick, emptyQuick, quickEmptyDecided := 0, 0, 0
	n := propCount(3000)
	for it := 0; it < n; it++ {
		b := sparseBasic(r)
		c := b.Copy()
		if c.normalize() {
			before := dumpBasic(c)
			done, empty := quickSimplify(c)
			switch {
			case !done && dumpBasic(c) != before:
				t.Fatalf("case %d: quickSimplify declined but changed %s into %s", it, before, dumpBasic(c))
			case done && empty:
				emptyQuick++
			case done:
				quick++
			}
		}
		got, want := simplifyBoth(t, ctx, b)
		if d, e := quickIsEmpty(b); d && e != (want == nil) {
			t.Fatalf("case %d: %s: quickIsEmpty says empty %v, the exact algorithm %v", it, dumpBasic(b), e, want == nil)
		} else if d {
			quickEmptyDecided++
		}
		if simplifiedString(got) != simplifiedString(want) && !sameSimplified(t, got, want) {
			t.Fatalf("case %d: %s\nsimplify: %s\nexact:    %s", it, dumpBasic(b), simplifiedString(got), simplifiedString(want))
		}
	}
	if quick < n/4 || emptyQuick < n/100 || quickEmptyDecided < n/4 {
		t.Errorf("the cheap path settled %d and found %d empty of %d cases: the test no longer exercises it", quick, emptyQuick, n)
	}
	t.Logf("cheap path: %d settled, %d empty, of %d", quick, emptyQuick, n)
}

// sameSimplified reports whether got, simplify's result, is the exact
// algorithm's want but for equalities implied by variables that
// equalities fix (which the cheap path drops and the exact algorithm
// keeps): the same set, the same inequalities, fewer equalities.
func sameSimplified(t *testing.T, got, want *BasicMap) bool {
	t.Helper()
	if got == nil || want == nil || len(got.eqs) >= len(want.eqs) || len(got.ineqs) != len(want.ineqs) {
		return false
	}
	ctx := context.Background()
	sp := got.space
	eq, err := NewMap(sp, got).IsEqual(ctx, NewMap(sp, want))
	if err != nil {
		t.Fatal(err)
	}
	return eq
}

// TestQuickSimplifyFixed checks the cheap path on variables fixed by
// equalities, as in the verifier's parameter contexts: rows over fixed
// variables only are decided (dropped or found violated), rows with one
// other variable are bounds on it, and anything else is declined.
func TestQuickSimplifyFixed(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		in, want string
		quick    bool // the cheap path settles it
	}{
		{"{ [a, b, c] : a + b = 1024 and a = 0 and b = 1024 and c >= 0 and b >= c + 1 }",
			"{ [a, b, c] : a = 0 and b = 1024 and c >= 0 and b >= c + 1 }", true},
		{"{ [a, b, c] : a + b = 1000 and a = 0 and b = 1024 and c >= 0 }", "{ [a, b, c] : false }", true},
		{"{ [a, b, c] : a = 0 and b = 4 and a + b >= 5 }", "{ [a, b, c] : false }", true},
		{"{ [a, b, c] : a = 0 and b = 4 and a + b >= 3 and c >= a }", "{ [a, b, c] : a = 0 and b = 4 and c >= 0 }", true},
		// b is not fixed: the equality stays, and the general path runs.
		{"{ [a, b, c] : a + b = 1024 and a = 0 and c >= 0 and b >= c + 1 }",
			"{ [a, b, c] : a = 0 and b = 1024 and c >= 0 and c <= 1023 }", false},
		// Two lower bounds on c once a is replaced: declined.
		{"{ [a, b, c] : a = 2 and c >= a and c >= 1 and c <= 9 }", "{ [a, b, c] : a = 2 and 2 <= c <= 9 }", false},
		// One point left for c: an implicit equality, declined.
		{"{ [a, b, c] : a = 2 and c >= a and c <= 2 }", "{ [a, b, c] : a = 2 and c = 2 }", false},
	}
	for _, tc := range cases {
		m := mustParse(t, tc.in)
		want := mustParse(t, tc.want)
		b := m.basics[0]
		c := b.Copy()
		if !c.normalize() {
			t.Fatalf("%s: normalize found it empty", tc.in)
		}
		before := dumpBasic(c)
		done, _ := quickSimplify(c)
		if done != tc.quick {
			t.Errorf("%s: cheap path settled it: %v, want %v", tc.in, done, tc.quick)
		}
		if !done && dumpBasic(c) != before {
			t.Errorf("%s: declined but changed it into %s", tc.in, dumpBasic(c))
		}
		got, err := m.Simplify(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if eq, err := got.IsEqual(ctx, want); err != nil || !eq {
			t.Errorf("%s: simplify gives %s, want %s (%v)", tc.in, got, want, err)
		}
		exact, err := simplifyExact(newMeter(ctx), b)
		if err != nil {
			t.Fatal(err)
		}
		if exact != nil && len(got.basics) == 1 && (len(got.basics[0].eqs) > len(exact.eqs) || len(got.basics[0].ineqs) > len(exact.ineqs)) {
			t.Errorf("%s: simplify gives %s, with more rows than the exact algorithm's %s", tc.in, got, dumpBasic(exact))
		}
	}
}
