package presburger

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"testing"
)

// lxRandSpec describes a random bounded relation for brute-force checks:
// nP parameters, nI inputs, nO outputs, divisions and bounded existentials.
type lxRandSpec struct {
	nP, nI, nO int
	nDiv, nEx  int
	box        int64 // outputs in [-box, box]
	exBox      int64 // existentials in [-exBox, exBox]
}

// lxRandBasic builds a random conjunction; every output is boxed so that
// enumeration is exact.
func lxRandBasic(r *rand.Rand, s lxRandSpec) *BasicMap {
	params := make([]string, s.nP)
	for i := range params {
		params[i] = fmt.Sprintf("p%d", i)
	}
	in := make([]string, s.nI)
	for i := range in {
		in[i] = fmt.Sprintf("x%d", i)
	}
	out := make([]string, s.nO)
	for i := range out {
		out[i] = fmt.Sprintf("y%d", i)
	}
	var sp Space
	if s.nI > 0 {
		sp = MapSpace(params, FlatTuple("A", in...), FlatTuple("B", out...))
	} else {
		sp = SetSpace(params, FlatTuple("S", out...))
	}
	b := NewBasicMap(sp)
	nd := s.nP + s.nI + s.nO
	for k := 0; k < s.nDiv; k++ {
		num := make([]Int, b.NumCols())
		for j := 0; j < nd; j++ {
			if r.Intn(2) == 0 {
				num[j] = NewInt(int64(r.Intn(5) - 2))
			}
		}
		num[len(num)-1] = NewInt(int64(r.Intn(5) - 2))
		b.AddLocalDiv(num, NewInt(int64(2+r.Intn(3))))
	}
	for k := 0; k < s.nEx; k++ {
		idx := b.AddExistential()
		col := nd + idx
		lo := make([]Int, b.NumCols())
		lo[col] = NewInt(1)
		lo[len(lo)-1] = NewInt(s.exBox)
		hi := make([]Int, b.NumCols())
		hi[col] = NewInt(-1)
		hi[len(hi)-1] = NewInt(s.exBox)
		b.AddIneq(lo)
		b.AddIneq(hi)
	}
	w := b.NumCols()
	for j := 0; j < s.nO; j++ {
		col := s.nP + s.nI + j
		lo := make([]Int, w)
		lo[col] = NewInt(1)
		lo[w-1] = NewInt(s.box)
		hi := make([]Int, w)
		hi[col] = NewInt(-1)
		hi[w-1] = NewInt(s.box)
		b.AddIneq(lo)
		b.AddIneq(hi)
	}
	nc := 1 + r.Intn(3)
	for k := 0; k < nc; k++ {
		row := make([]Int, w)
		for j := 0; j < w-1; j++ {
			if r.Intn(3) > 0 {
				row[j] = NewInt(int64(r.Intn(7) - 3))
			}
		}
		row[w-1] = NewInt(int64(r.Intn(9) - 2))
		if r.Intn(6) == 0 {
			b.AddEq(row)
		} else {
			b.AddIneq(row)
		}
	}
	return b
}

// lxBruteContains decides membership of the point x = [params | in | out]
// in b by computing divisions and enumerating existentials in [-exBox, exBox].
func lxBruteContains(b *BasicMap, x []Int, exBox int64) bool {
	nd := len(x)
	nl := b.NumLocals()
	v := make([]Int, nd+nl+1)
	copy(v, x)
	v[len(v)-1] = NewInt(1)
	var exs []int
	for i := 0; i < nl; i++ {
		if !b.IsDiv(i) {
			exs = append(exs, i)
		}
	}
	eqs, ineqs := b.Eqs(), b.AllIneqs()
	var rec func(k int) bool
	rec = func(k int) bool {
		if k == len(exs) {
			for i := 0; i < nl; i++ {
				if num, den := b.Local(i); !den.IsZero() {
					v[nd+i] = affDot(num, v).FloorDiv(den)
				}
			}
			for _, e := range eqs {
				if !affDot(e, v).IsZero() {
					return false
				}
			}
			for _, r := range ineqs {
				if affDot(r, v).Sign() < 0 {
					return false
				}
			}
			return true
		}
		for e := -exBox; e <= exBox; e++ {
			v[nd+exs[k]] = NewInt(e)
			if rec(k + 1) {
				return true
			}
		}
		return false
	}
	return rec(0)
}

// lxBruteOpt returns the lexicographic minimum (maximum) of the outputs of
// b at fixed params and inputs, enumerating the output box.
func lxBruteOpt(bs []*BasicMap, fixed []Int, nO int, box, exBox int64, max bool) ([]Int, bool) {
	var best []Int
	pt := make([]Int, len(fixed)+nO)
	copy(pt, fixed)
	var rec func(k int)
	rec = func(k int) {
		if k == nO {
			in := false
			for _, b := range bs {
				in = in || lxBruteContains(b, pt, exBox)
			}
			if in {
				cand := copyRow(pt[len(fixed):])
				if best == nil || lxLexCmp(cand, best) < 0 != max && lxLexCmp(cand, best) != 0 {
					best = cand
				}
			}
			return
		}
		for v := -box - 1; v <= box+1; v++ {
			pt[len(fixed)+k] = NewInt(v)
			rec(k + 1)
		}
	}
	rec(0)
	return best, best != nil
}

func lxLexCmp(a, b []Int) int {
	for i := range a {
		if c := a[i].Cmp(b[i]); c != 0 {
			return c
		}
	}
	return 0
}

// lxCheckOpt compares LexMin/LexMax of b with brute force at every
// parameter and input value in [-pr, pr].
func lxCheckOpt(t *testing.T, bs []*BasicMap, s lxRandSpec, pr int64, max bool, skipped *int) bool {
	t.Helper()
	ctx := WithBudget(context.Background(), Budget{MaxSteps: 20000})
	m := NewMap(bs[0].Space(), bs...)
	var pw *PwMultiAff
	var err error
	if max {
		pw, err = LexMax(ctx, m)
	} else {
		pw, err = LexMin(ctx, m)
	}
	if err != nil {
		if errors.Is(err, ErrUnsupportedExistential) || errors.Is(err, ErrBudget) {
			t.Logf("skipped %v: %v", m, err)
			*skipped++
			return true
		}
		t.Errorf("%v: lexopt(max=%v) error: %v", m, max, err)
		return false
	}
	graph := pw.ToMap()
	// The pieces have pairwise disjoint domains.
	pcs := pw.Pieces()
	for i := range pcs {
		for j := i + 1; j < len(pcs); j++ {
			if e, err := pcs[i].Domain.Intersect(pcs[j].Domain).IsEmpty(ctx); err == nil && !e {
				t.Errorf("%v: pieces %d and %d of %v overlap", m, i, j, pw)
				return false
			}
		}
	}
	nf := s.nP + s.nI
	fixed := make([]Int, nf)
	ok := true
	var rec func(k int)
	rec = func(k int) {
		if !ok {
			return
		}
		if k == nf {
			want, wok := lxBruteOpt(bs, fixed, s.nO, s.box, s.exBox, max)
			got, gok, err := pw.Eval(ctx, fixed)
			if err != nil {
				t.Errorf("eval: %v", err)
				ok = false
				return
			}
			if wok != gok || (wok && lxLexCmp(want, got) != 0) {
				t.Errorf("set %v\nmax=%v at %v: want %v (%v), got %v (%v)\npw = %v", m, max, fixed, want, wok, got, gok, pw)
				ok = false
				return
			}
			if wok {
				// The graph contains the optimum and nothing next to it.
				pt := append(copyRow(fixed), want...)
				in, err := graph.ContainsPoint(ctx, pt)
				pt[len(pt)-1] = pt[len(pt)-1].Add(NewInt(1))
				in2, err2 := graph.ContainsPoint(ctx, pt)
				if err != nil || err2 != nil || !in || in2 {
					t.Errorf("graph %v of %v at %v: contains optimum %v, successor %v (%v %v)", graph, pw, fixed, in, in2, err, err2)
					ok = false
				}
			}
			return
		}
		for v := -pr; v <= pr; v++ {
			fixed[k] = NewInt(v)
			rec(k + 1)
		}
	}
	rec(0)
	return ok
}

func TestLexOptRandomBasic(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	specs := []lxRandSpec{
		{nP: 1, nO: 1, box: 4},
		{nP: 1, nO: 2, box: 3},
		{nP: 1, nI: 1, nO: 1, box: 4},
		{nP: 1, nO: 1, nDiv: 1, box: 4},
		{nP: 2, nO: 2, nDiv: 1, box: 3},
		{nP: 1, nI: 1, nO: 2, nDiv: 1, box: 3},
		{nP: 1, nO: 2, nEx: 1, box: 3, exBox: 3},
		{nP: 1, nI: 1, nO: 1, nDiv: 1, nEx: 1, box: 3, exBox: 3},
		{nP: 1, nO: 3, box: 2},
	}
	n, skipped := 0, 0
	for _, s := range specs {
		for k := 0; k < 30; k++ {
			bs := []*BasicMap{lxRandBasic(r, s)}
			if k%3 == 2 {
				bs = append(bs, lxRandBasic(r, s))
			}
			for _, max := range []bool{false, true} {
				n++
				if !lxCheckOpt(t, bs, s, 3, max, &skipped) {
					return
				}
			}
		}
	}
	t.Logf("%d random lexicographic optima checked, %d skipped (budget or unsupported existential)", n, skipped)
}

// lxCheckSymbolic verifies the graph g of the lexicographic optimum of m
// with the set operations: g ⊆ m, dom g = dom m, and no point of m is
// strictly better than g's value at the same input.
func lxCheckSymbolic(t *testing.T, m, g *Map, max bool) {
	t.Helper()
	ctx := context.Background()
	if ok, err := g.IsSubset(ctx, m); err != nil || !ok {
		t.Fatalf("optimum %v not inside %v (%v)", g, m, err)
	}
	if m.Space().IsSet() {
		// Compare parameter domains: g is non-empty exactly where m is.
		if ok, err := g.Params().IsEqual(ctx, m.Params()); err != nil || !ok {
			t.Fatalf("optimum %v defined on another parameter domain than %v (%v)", g, m, err)
		}
		return
	}
	if ok, err := g.Domain().IsEqual(ctx, m.Domain()); err != nil || !ok {
		t.Fatalf("optimum %v has another domain than %v (%v)", g, m, err)
	}
	var better *Map
	var err error
	if max {
		better, err = LexLT(m.Space().Range())
	} else {
		better, err = LexGT(m.Space().Range())
	}
	if err != nil {
		t.Fatal(err)
	}
	beaten, err := g.ApplyRange(better)
	if err != nil {
		t.Fatal(err)
	}
	bad, err := beaten.Intersect(m)
	if err != nil {
		t.Fatal(err)
	}
	if e, err := bad.IsEmpty(ctx); err != nil || !e {
		t.Fatalf("optimum %v of %v is beaten by %v (%v)", g, m, bad, err)
	}
}

func TestLexOptVerifierShapes(t *testing.T) {
	for _, c := range lexBenchCases {
		m := mustParse(t, c.src)
		for _, max := range []bool{false, true} {
			checkLexOpt(t, m, max)
		}
	}
}

func TestLexOptUnbounded(t *testing.T) {
	ctx := context.Background()
	m := mustParse(t, "[N] -> { [i, j] : 0 <= i < N and j <= i }")
	if _, err := LexMin(ctx, m); !errors.Is(err, ErrUnbounded) {
		t.Fatalf("lexmin of a set unbounded below: err = %v", err)
	}
	checkLexOpt(t, m, true)
	// Existentials moving along a line: projected out through the equality.
	checkLexOpt(t, mustParse(t, "{ [x] : 0 <= x < 3 and exists (e, f : e = f + x) }"), true)
	// Existentials moving along a line of inequalities: column echelon form.
	b := NewBasicMap(SetSpace(nil, FlatTuple("", "x")))
	// The existentials e and f.
	b.AddExistential()
	b.AddExistential()
	b.AddIneq(ints(1, 0, 0, 0))   // x >= 0
	b.AddIneq(ints(-1, 0, 0, 4))  // x <= 4
	b.AddIneq(ints(0, 1, -1, 0))  // e - f >= 0
	b.AddIneq(ints(1, -1, 1, 0))  // x - e + f >= 0
	b.AddIneq(ints(0, 2, -2, -1)) // 2e - 2f >= 1
	m = NewMap(b.Space(), b)
	checkLexOpt(t, m, false)
	checkLexOpt(t, m, true)
	// An existential unbounded below does not prevent the optimum.
	checkLexOpt(t, mustParse(t, "{ [i] : 0 <= i < 5 and exists (e : e <= i) }"), false)
}

// checkLexOpt computes the lexicographic maximum of m, or its minimum,
// and checks it with lxCheckSymbolic.
func checkLexOpt(t *testing.T, m *Map, max bool) {
	t.Helper()
	opt := LexMin
	if max {
		opt = LexMax
	}
	p, err := opt(t.Context(), m)
	if err != nil {
		t.Fatalf("%v max=%v: %v", m, max, err)
	}
	lxCheckSymbolic(t, m, p.ToMap(), max)
}

func TestPwMultiAffString(t *testing.T) {
	ctx := context.Background()
	m := mustParse(t, "[N] -> { A[i] -> [j] : 0 <= i < N and i <= j < N }")
	p, err := LexMin(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.String(), "[N] -> { A[i] -> [(i)] : i >= 0 and N >= i + 1 }"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	// The printed form parses back to the same graph.
	back := mustParse(t, p.String())
	if eq, err := back.IsEqual(ctx, p.ToMap()); err != nil || !eq {
		t.Errorf("printed %q parses to %v (%v)", p, back, err)
	}
	// From a single-valued relation and back; a non-function is refused.
	q, err := PwMultiAffFromMap(ctx, p.ToMap())
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := q.ToMap().IsEqual(ctx, p.ToMap()); err != nil || !eq {
		t.Errorf("round trip %v -> %v (%v)", p, q, err)
	}
	if _, err := PwMultiAffFromMap(ctx, m); !errors.Is(err, ErrNotSingleValued) {
		t.Errorf("function from %v: err = %v", m, err)
	}
}

// Many small cases (one output, one parameter or input), with the
// function round-tripped through its graph for some of them.
func TestLexOptRandomSmall(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	ctx := context.Background()
	specs := []lxRandSpec{
		{nP: 1, nO: 1, box: 5},
		{nP: 1, nO: 1, nDiv: 1, box: 5},
		{nI: 1, nO: 1, nDiv: 1, box: 5},
		{nP: 1, nO: 1, nEx: 1, box: 4, exBox: 4},
	}
	n, skipped := 0, 0
	for k := 0; k < 1200; k++ {
		s := specs[k%len(specs)]
		bs := []*BasicMap{lxRandBasic(r, s)}
		max := k%2 == 1
		n++
		if !lxCheckOpt(t, bs, s, 4, max, &skipped) {
			return
		}
		if k%10 == 0 {
			m := NewMap(bs[0].Space(), bs...)
			p, err := LexMin(ctx, m)
			if err != nil {
				continue
			}
			q, err := PwMultiAffFromMap(ctx, p.ToMap())
			if err != nil {
				t.Fatalf("round trip of %v: %v", p, err)
			}
			if eq, err := q.ToMap().IsEqual(ctx, p.ToMap()); err != nil || !eq {
				t.Fatalf("round trip %v -> %v (%v)", p, q, err)
			}
		}
	}
	t.Logf("%d small random lexicographic optima checked, %d skipped", n, skipped)
}

func TestLexOptUnion(t *testing.T) {
	ctx := context.Background()
	u := mustUnion(t, "[N] -> { A[i] -> B[j] : 0 <= i < N and i <= j < N; C[i] -> D[j, k] : 0 <= j <= i and 0 <= k <= j }")
	got, err := LexMaxUnion(ctx, u)
	checkUnion(t, "LexMaxUnion", got, err, "[N] -> { A[i] -> B[N - 1] : 0 <= i < N; C[i] -> D[i, i] : i >= 0 }")
}

// Coalesce merges the pieces of one function whose domains join into one
// conjunction, drops a domain with no integer point (here one with
// rational points only), and keeps the graph.
func TestPwMultiAffCoalesceDomains(t *testing.T) {
	ctx := context.Background()
	m := mustParse(t, "[N] -> { [i] -> [j] : 0 <= i < N and j = i }")
	p, err := LexMin(ctx, m)
	if err != nil || p.NumPieces() != 1 {
		t.Fatalf("LexMin(%v) = %v, %v", m, p, err)
	}
	f := p.Pieces()[0].Func
	var pieces []PwPiece
	for _, d := range []string{
		"[N] -> { [i] : 0 <= i <= 4 and i < N }",
		"[N] -> { [i] : 0 <= i < N and exists (e, f : 2e = i and 2f = i + 1) }",
		"[N] -> { [i] : 5 <= i < N }",
	} {
		s, err := ParseMap(d)
		if err != nil || s.NumBasics() != 1 {
			t.Fatalf("parse %q: %v, %v", d, s, err)
		}
		pieces = append(pieces, PwPiece{Domain: s.Basics()[0], Func: f})
	}
	q, err := NewPwMultiAff(p.Space(), pieces...)
	if err != nil {
		t.Fatal(err)
	}
	c, err := q.Coalesce(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if c.NumPieces() != 1 {
		t.Errorf("Coalesce(%v) = %v, want one piece", q, c)
	}
	if eq, err := c.ToMap().IsEqual(ctx, m); err != nil || !eq {
		t.Errorf("Coalesce(%v) = %v, want the graph %v (%v)", q, c, m, err)
	}
}

// Unions of three to five conjunctions, some of whose domains meet and
// some not: the optimum of a union combines the conjunctions' optima
// piece by piece (pwLexCombine), subtracting from a piece only the pieces
// of the other side that meet it.
func TestLexOptRandomUnions(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	specs := []lxRandSpec{
		{nP: 1, nO: 1, box: 4},
		{nP: 1, nI: 1, nO: 1, box: 3},
		{nP: 1, nO: 1, nDiv: 1, box: 4},
		{nP: 1, nO: 2, box: 3},
	}
	n, skipped := 0, 0
	for _, s := range specs {
		for k := 0; k < 25; k++ {
			var bs []*BasicMap
			for len(bs) < 3+k%3 {
				bs = append(bs, lxRandBasic(r, s))
			}
			max := k%2 == 0
			n++
			if !lxCheckOpt(t, bs, s, 3, max, &skipped) {
				return
			}
		}
	}
	if skipped > n/2 {
		t.Fatalf("%d of %d unions skipped", skipped, n)
	}
	t.Logf("%d unions checked, %d skipped", n, skipped)
}

// TestSharedRowsOpposed checks pwLexCombine's disjointness test,
// sharedContradiction over sharedRows with equalities: it decides only
// from a pair of opposite rows whose constants leave no room between
// them, including an equality's two rows; rows with locals, and opposite
// rows that leave a point, decide nothing.
func TestSharedRowsOpposed(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"[N] -> { [i] : i >= 5 }", "[N] -> { [i] : i <= 4 }", true},
		{"[N] -> { [i] : i >= 5 }", "[N] -> { [i] : i <= 5 }", false},
		{"[N] -> { [i] : i = N }", "[N] -> { [i] : i >= N + 1 }", true},
		{"[N] -> { [i] : i = N }", "[N] -> { [i] : i <= N - 1 }", true},
		{"[N] -> { [i] : i = N }", "[N] -> { [i] : i <= N }", false},
		{"[N] -> { [i] : i >= N and i >= 0 }", "[N] -> { [i] : i <= N and i >= 0 }", false},
		{"[N] -> { [i] : exists e : i = 2e and i >= 5 }", "[N] -> { [i] : exists e : i = 2e and i <= 4 }", true},
		{"[N] -> { [i] : exists e : i = 2e }", "[N] -> { [i] : exists e : i = 2e + 1 }", false},
	}
	for _, c := range cases {
		a, b := mustParse(t, c.a), mustParse(t, c.b)
		if a.NumBasics() != 1 || b.NumBasics() != 1 {
			t.Fatalf("%s, %s: want one conjunction each", c.a, c.b)
		}
		ba, bb := a.Basics()[0], b.Basics()[0]
		cols := dimCols(ba)
		got := sharedContradiction(sharedRows(ba, cols, true), sharedRows(bb, cols, true))
		if got != c.want {
			t.Errorf("opposite rows of %s and %s: %v, want %v", c.a, c.b, got, c.want)
		}
		if got {
			if empty, err := ba.Intersect(bb).IsEmpty(context.Background()); err != nil || !empty {
				t.Errorf("%s and %s meet (%v), but their opposite rows say they are disjoint", c.a, c.b, err)
			}
		}
	}
}
