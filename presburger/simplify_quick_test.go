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
	str := func(b *BasicMap) string {
		if b == nil {
			return "empty"
		}
		return dumpBasic(b)
	}
	quick, emptyQuick := 0, 0
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
		got, err := b.simplify(newMeter(ctx))
		if err != nil {
			t.Fatal(err)
		}
		want, err := simplifyExact(newMeter(ctx), b)
		if err != nil {
			t.Fatal(err)
		}
		if str(got) != str(want) {
			t.Fatalf("case %d: %s\nsimplify: %s\nexact:    %s", it, dumpBasic(b), str(got), str(want))
		}
	}
	if quick < n/4 || emptyQuick < n/100 {
		t.Errorf("the cheap path settled %d and found %d empty of %d cases: the test no longer exercises it", quick, emptyQuick, n)
	}
	t.Logf("cheap path: %d settled, %d empty, of %d", quick, emptyQuick, n)
}
