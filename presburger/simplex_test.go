package presburger

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
)

// randRows returns n random rows over nv variables (the constant last)
// with small coefficients.
func randRows(rng *rand.Rand, n, nv int) [][]Int {
	rows := make([][]Int, n)
	for i := range rows {
		r := make([]Int, nv+1)
		for j := 0; j < nv; j++ {
			if rng.Intn(3) > 0 {
				r[j] = NewInt(int64(rng.Intn(7) - 3))
			}
		}
		r[nv] = NewInt(int64(rng.Intn(21) - 8))
		rows[i] = r
	}
	return rows
}

// TestSimplexTabFeasibility checks the tableau's feasibility test and its
// optimisation against lpSolve on random systems, with rows added one
// batch at a time after pivots.
func TestSimplexTabFeasibility(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	m := newMeter(context.Background())
	for iter := 0; iter < 3000; iter++ {
		nv := 1 + rng.Intn(4)
		tab := newSimplexTab(m, nv)
		var all [][]Int
		feasible := true
		for batch := 0; batch < 3 && feasible; batch++ {
			rows := randRows(rng, 1+rng.Intn(3), nv)
			for _, r := range rows {
				tab.addRow(r)
			}
			all = append(all, rows...)
			tab.limit = 1 << 20
			got, err := tab.restore()
			if err != nil {
				t.Fatal(err)
			}
			want, err := lpSolve(m, nil, all, nv)
			if err != nil {
				t.Fatal(err)
			}
			if got != want.feasible {
				t.Fatalf("iter %d: rows %v: tableau says feasible=%v, lpSolve %v", iter, all, got, want.feasible)
			}
			feasible = got
			if !got {
				break
			}
			// The sample satisfies every row.
			for _, r := range all {
				u := tab.addRow(r)
				if num, _ := tab.value(u); num.Sign() < 0 {
					t.Fatalf("iter %d: sample violates %v", iter, r)
				}
				tab.restr[u] = false
			}
			// Minimise a random row and check the optimum.
			obj := randRows(rng, 1, nv)[0]
			u := tab.addRow(obj)
			tab.restr[u] = false
			st, err := tab.optimize(u, -1, nil)
			if err != nil {
				t.Fatal(err)
			}
			if st == optOptimal {
				num, den := tab.value(u)
				// obj <= num/den - 1/1000 must be infeasible.
				cut := make([]Int, nv+1)
				for j := 0; j <= nv; j++ {
					cut[j] = obj[j].Mul(den).Mul(NewInt(-1000))
				}
				cut[nv] = cut[nv].Add(num.Mul(NewInt(1000))).Sub(den)
				res, err := lpSolve(m, nil, append(append([][]Int(nil), all...), cut), nv)
				if err != nil {
					t.Fatal(err)
				}
				if res.feasible {
					t.Fatalf("iter %d: rows %v: min of %v is not %v/%v", iter, all, obj, num, den)
				}
			}
		}
	}
}

// TestSimplexTabSearch checks the branch-and-bound search against the
// Omega test on random systems: a point found satisfies every row, and
// "no point" is only claimed for systems without integer points.
func TestSimplexTabSearch(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	m := newMeter(context.Background())
	decided := 0
	for iter := 0; iter < 3000; iter++ {
		nv := 1 + rng.Intn(4)
		rows := randRows(rng, 2+rng.Intn(5), nv)
		tab := newSimplexTab(m, nv)
		for _, r := range rows[1:] {
			tab.addRow(r)
		}
		tab.limit = 1 << 20
		if ok, err := tab.restore(); err != nil || !ok {
			continue
		}
		nodes := 16
		p, res, err := tab.searchInteger(rows[:1], &nodes, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := omegaOnly(m, nil, rows, nv)
		if err != nil {
			t.Fatal(err)
		}
		switch res {
		case searchFound:
			for _, r := range rows {
				if evalRow(r, p).Sign() < 0 {
					t.Fatalf("iter %d: rows %v: point %v violates %v", iter, rows, p, r)
				}
			}
			decided++
		case searchNone:
			if want {
				t.Fatalf("iter %d: rows %v: search finds no integer point, the Omega test does", iter, rows)
			}
			decided++
		}
	}
	if decided < 1000 {
		t.Errorf("the search decided only %d systems", decided)
	}
}

// simplifyBoth simplifies b with BasicMap.simplify and with
// simplifyExact.
func simplifyBoth(t *testing.T, ctx context.Context, b *BasicMap) (got, want *BasicMap) {
	t.Helper()
	got, err := b.simplify(newMeter(ctx))
	if err != nil {
		t.Fatal(err)
	}
	want, err = simplifyExact(newMeter(ctx), b)
	if err != nil {
		t.Fatal(err)
	}
	return got, want
}

// simplifiedString prints a simplified conjunction, or "empty" for nil.
func simplifiedString(b *BasicMap) string {
	if b == nil {
		return "empty"
	}
	return dumpBasic(b)
}

// simplifyExact is BasicMap.simplify with every test by the Omega test
// (the reference that the tableau's decisions must agree with).
func simplifyExact(mt *meter, b *BasicMap) (*BasicMap, error) {
	c := b.Copy()
	if !c.normalize() {
		return nil, nil
	}
	empty, err := c.isEmpty(mt)
	if err != nil || empty {
		return nil, err
	}
	w := c.NumCols()
	one := NewInt(1)
	for i := 0; i < len(c.ineqs); i++ {
		r := copyRow(c.ineqs[i])
		r[w-1] = r[w-1].Sub(one)
		e, err := c.emptyWith(mt, c.eqs, replaceRow(c.ineqs, i, r))
		if err != nil {
			return nil, err
		}
		if e {
			c.eqs = append(c.eqs, c.ineqs[i])
			c.ineqs = append(c.ineqs[:i:i], c.ineqs[i+1:]...)
			i--
		}
	}
	if !c.normalize() {
		return nil, nil
	}
	w = c.NumCols()
	for i := 0; i < len(c.ineqs); i++ {
		r := negRow(c.ineqs[i])
		r[w-1] = r[w-1].Sub(one)
		e, err := c.emptyWith(mt, c.eqs, replaceRow(c.ineqs, i, r))
		if err != nil {
			return nil, err
		}
		if e {
			c.ineqs = append(c.ineqs[:i:i], c.ineqs[i+1:]...)
			i--
		}
	}
	if !c.normalize() {
		return nil, nil
	}
	return c, nil
}

// TestSimplifyMatchesExact checks that simplify, which decides most of
// its tests on a rational tableau, gives exactly the result of deciding
// every test by the Omega test, on random conjunctions with divisions
// and existentials, bounded and unbounded.
func TestSimplifyMatchesExact(t *testing.T) {
	g := newRandGen(5)
	ctx := t.Context()
	check := func(it int, b *BasicMap) {
		got, want := simplifyBoth(t, ctx, b)
		if simplifiedString(got) != simplifiedString(want) {
			t.Fatalf("case %d: %s\nsimplify: %s\nexact:    %s", it, dumpBasic(b), simplifiedString(got), simplifiedString(want))
		}
	}
	forRandomBasics(g, check)
}

// TestSimplexRollback checks that rollback takes a tableau back to the
// same constraints: after rows are added, the tableau restored (feasible
// or not) and searched, and the rows rolled back, it has the same
// unknowns, its sample satisfies every restricted row, and every
// variable has the same rational minimum and maximum as before.
func TestSimplexRollback(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	m := newMeter(context.Background())
	optima := func(tab *simplexTab) []string {
		var out []string
		for v := 0; v < tab.nvar; v++ {
			for _, dir := range []int{-1, 1} {
				c := tab.clone()
				c.limit = 1 << 20
				st, err := c.optimize(v, dir, nil)
				if err != nil {
					t.Fatal(err)
				}
				num, den := c.value(v)
				if st != optOptimal {
					num, den = Int{}, NewInt(1)
				}
				out = append(out, fmt.Sprint(st, num, "/", den))
			}
		}
		return out
	}
	checked, infeasible := 0, 0
	for iter := 0; iter < 2000; iter++ {
		nv := 1 + rng.Intn(4)
		tab := newSimplexTab(m, nv)
		for _, r := range randRows(rng, 1+rng.Intn(5), nv) {
			tab.addRow(r)
		}
		tab.limit = 1 << 20
		if ok, err := tab.restore(); err != nil || !ok {
			continue
		}
		before := optima(tab)
		nu, nr := len(tab.isRow), len(tab.rows)
		snap := tab.snapshot()
		for _, r := range randRows(rng, 1+rng.Intn(3), nv) {
			tab.addRow(r)
		}
		tab.limit = 1 << 20
		ok, err := tab.restore()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			infeasible++
		} else {
			nodes := 4
			if _, _, err := tab.searchInteger(randRows(rng, 1, nv), &nodes, nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := tab.rollback(snap); err != nil {
			t.Fatal(err)
		}
		if len(tab.isRow) != nu || len(tab.rows) != nr {
			t.Fatalf("iter %d: %d unknowns and %d rows after the rollback, want %d and %d", iter, len(tab.isRow), len(tab.rows), nu, nr)
		}
		for i, M := range tab.rows {
			if tab.restr[tab.rowU[i]] && M[1].Sign() < 0 {
				t.Fatalf("iter %d: restricted row %d negative after the rollback", iter, i)
			}
		}
		if after := optima(tab); fmt.Sprint(after) != fmt.Sprint(before) {
			t.Fatalf("iter %d: optima %v after the rollback, %v before", iter, after, before)
		}
		checked++
	}
	if checked < 500 || infeasible < 50 {
		t.Errorf("only %d tableaux checked, %d of them made infeasible", checked, infeasible)
	}
}

// The probe of searchInteger ends the search at the first node whose
// sample is fractional, with the point it returns; at an integral sample
// it is not asked, and a probe that finds nothing leaves the search as it
// was.
func TestSearchIntegerProbe(t *testing.T) {
	m := newMeter(context.Background())
	row := func(a ...int64) []Int {
		r := make([]Int, len(a))
		for i, v := range a {
			r[i] = NewInt(v)
		}
		return r
	}
	search := func(base, extra [][]Int, probe func() []Int) ([]Int, searchResult, int) {
		t.Helper()
		tab := newSimplexTab(m, 2)
		for _, r := range base {
			tab.addRow(r)
		}
		tab.limit = 1 << 20
		if ok, err := tab.restore(); err != nil || !ok {
			t.Fatalf("restore: %v, %v", ok, err)
		}
		nodes := 16
		p, res, err := tab.searchInteger(extra, &nodes, probe)
		if err != nil {
			t.Fatal(err)
		}
		return p, res, 16 - nodes
	}
	// 0 <= y <= 3x, and 1 <= 2x <= 3: every vertex has a fractional x.
	base := [][]Int{row(0, 1, 0), row(3, -1, 0)}
	frac := [][]Int{row(2, 0, -1), row(-2, 0, 3)}
	asked := 0
	p, res, n := search(base, frac, func() []Int { asked++; return row(1, 2) })
	if res != searchFound || !intsEqual(p, row(1, 2)) || n != 1 || asked != 1 {
		t.Errorf("probed: %v %v after %d nodes and %d probes, want the probe's point (1, 2) at the root", res, p, n, asked)
	}
	// Without the probe's help the search branches, and finds x = 1.
	p, res, n = search(base, frac, func() []Int { return nil })
	if res != searchFound || !p[0].Equal(NewInt(1)) || n < 2 {
		t.Errorf("probe finding nothing: %v %v after %d nodes, want a point with x = 1 past the root", res, p, n)
	}
	// 2x = 1 has no integer point.
	asked = 0
	_, res, _ = search(base, [][]Int{row(2, 0, -1), row(-2, 0, 1)}, func() []Int { asked++; return nil })
	if res != searchNone || asked == 0 {
		t.Errorf("2x = 1: %v after %d probes, want none after some", res, asked)
	}
	// 1 <= x <= 3: the vertices are integral, the probe is not asked.
	_, res, _ = search(base, [][]Int{row(1, 0, -1), row(-1, 0, 3)}, func() []Int { t.Error("probe asked at an integral sample"); return nil })
	if res != searchFound {
		t.Errorf("1 <= x <= 3: %v, want found", res)
	}
}

// TestSimplifyPointInPiece checks that the point simplifyPoint returns
// with a piece, which Map.Simplify uses to refute inclusions between
// pieces (pieceWitnesses), is a point of that piece.
func TestSimplifyPointInPiece(t *testing.T) {
	g := newRandGen(7)
	mt := newMeter(context.Background())
	found := 0
	check := func(it int, b *BasicMap) {
		c, p, err := b.simplifyPoint(mt)
		if err != nil {
			t.Fatal(err)
		}
		if c == nil || p == nil {
			return
		}
		found++
		in, err := c.containsPoint(mt, p)
		if err != nil {
			t.Fatal(err)
		}
		if !in {
			t.Fatalf("case %d: %s: point %v is not in the simplified piece %s", it, dumpBasic(b), p, dumpBasic(c))
		}
	}
	forRandomBasics(g, check)
	if found == 0 {
		t.Fatal("simplify found no point in any case")
	}
}

// forRandomBasics calls check on random conjunctions of random spaces
// (sets and relations), then on random conjunctions with divisions, each
// with its case number.
func forRandomBasics(g randGen, check func(it int, b *BasicMap)) {
	for it := 0; it < propCount(600); it++ {
		sp := g.randSetSpace(randParams(g))
		if g.r.Intn(2) == 0 {
			sp = g.randMapSpace(randParams(g))
		}
		check(it, g.randBasic(sp, 6))
	}
	for it := 0; it < propCount(600); it++ {
		check(it, randDivCase(g.r).basic(it%2 == 0))
	}
}
