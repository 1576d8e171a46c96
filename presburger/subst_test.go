package presburger

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
)

// substNamed parses an isl map and renames its range tuple to ctxName, an
// expression context such as "A(□)" that isl notation cannot spell.
func substNamed(t *testing.T, src, ctxName string) *Map {
	t.Helper()
	m := mustParse(t, src)
	sp := m.Space()
	sp.Out.Name = ctxName
	cols := make([]int, sp.NumDims())
	for i := range cols {
		cols[i] = i
	}
	var bs []*BasicMap
	for _, b := range m.Basics() {
		bs = append(bs, substRemap(b, sp, cols))
	}
	return NewMap(sp, bs...)
}

func substWantEqual(t *testing.T, got, want *Map) {
	t.Helper()
	ctx := context.Background()
	eq, err := got.IsEqual(ctx, want)
	if err != nil {
		t.Fatalf("compare: %v", err)
	}
	if !eq {
		t.Fatalf("got  %v\nwant %v", got, want)
	}
}

// lastIteration is the last x of bound (a set of parameters including x)
// at which h's domain holds, per cell: lexmax(bind_x(dom h ∩ bound)).
func lastIteration(t *testing.T, h, bound *Map) *Map {
	t.Helper()
	d, err := h.Domain().IntersectParams(bound)
	if err != nil {
		t.Fatal(err)
	}
	bd, err := BindParam(d, "x")
	if err != nil {
		t.Fatal(err)
	}
	lm, err := LexMax(context.Background(), bd)
	if err != nil {
		t.Fatal(err)
	}
	return lm.ToMap()
}

// Clément 2022, Example 8: a<x> -> A(□)<x + 2> for 0 <= x < N, iterated over
// 0 <= x < 4.
func TestIteratedUpdateExample8(t *testing.T) {
	// The last write: lexmax(bind_{0<=x<4}(dom h)) = { a<i> -> [i] : 0 <= i < min(4, N) }.
	checkIteratedUpdate(t, "[N, x] -> { a[i] -> A[j] : 0 <= x < N and i = x and j = x + 2 }", "[x] -> { : 0 <= x < 4 }",
		"[N] -> { a[i] -> [i] : 0 <= i < 4 and i < N }",
		"[N] -> { a[i] -> A[i + 2] : 0 <= i < 4 and i < N }")
}

// checkIteratedUpdate iterates the update h, whose range is the context
// A(□), over bound (a set of parameters including x), and checks that the
// last iteration at which each cell is written is last and that the
// result is the one map want, of range A(□). It returns that map.
func checkIteratedUpdate(t *testing.T, h, bound, last, want string) *Map {
	t.Helper()
	hm, bm := substNamed(t, h, "A(□)"), mustParse(t, bound)
	substWantEqual(t, lastIteration(t, hm, bm), mustParse(t, last))
	got, err := IteratedUpdate(t.Context(), NewUnionMap(hm), "x", bm)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Maps()) != 1 {
		t.Fatalf("got %d maps: %v", len(got.Maps()), got)
	}
	substWantEqual(t, got.Maps()[0], substNamed(t, want, "A(□)"))
	if name := got.Maps()[0].Space().Out.Name; name != "A(□)" {
		t.Fatalf("range context %q, want A(□)", name)
	}
	return got.Maps()[0]
}

// Clément 2022, Example 9: a<x mod 4> -> A(□)<x + 3>, iterated over
// 0 <= x < N.
func TestIteratedUpdateExample9(t *testing.T) {
	ctx := context.Background()
	// The thesis prints the domain as 0 <= i <= min(N, 4); the cells written
	// are those with i = x mod 4 for some 0 <= x < N, i.e. 0 <= i < min(N, 4).
	got := checkIteratedUpdate(t, "[x] -> { a[i] -> A[j] : j = x + 3 and i = x mod 4 }", "[N, x] -> { : 0 <= x < N }",
		"[N] -> { a[i] -> [N - 1 - ((N - 1 + 3i) mod 4)] : 0 <= i < 4 and i < N }",
		"[N] -> { a[i] -> A[N + 2 - ((N - 1 + 3i) mod 4)] : 0 <= i < 4 and i < N }")
	// With N = 6: a[0] -> A(7), a[1] -> A(8), a[2] -> A(5), a[3] -> A(6).
	for i, j := range []int64{7, 8, 5, 6} {
		in, err := got.ContainsPoint(ctx, ints(6, int64(i), j))
		if err != nil || !in {
			t.Fatalf("a[%d] -> A(%d) missing at N = 6 (%v)", i, j, err)
		}
	}
}

// Clément 2022, Theorem 5.2.8, on small cases: i -> j in r1[x := r2] iff some
// k with i -> k in r2 has i -> j in r1 at x = k.
func TestSubstituteSemantics(t *testing.T) {
	ctx := context.Background()
	r1 := mustParse(t, "[x, N] -> { a[i] -> E[j] : j = 2x + i and 0 <= i < N and x >= 0 }")
	r2 := mustParse(t, "[N] -> { a[i] -> [k] : 0 <= k <= i and k mod 2 = 0 }")
	got, err := Substitute(ctx, r1, []string{"x"}, r2)
	if err != nil {
		t.Fatal(err)
	}
	want := mustParse(t, "[N] -> { a[i] -> E[j] : 0 <= i < N and exists (k : 0 <= k <= i and k mod 2 = 0 and j = 2k + i) }")
	substWantEqual(t, got, want)
	// A singleton set substitutes a constant.
	c := mustParse(t, "{ [3] }")
	got, err = Substitute(ctx, r1, []string{"x"}, c)
	if err != nil {
		t.Fatal(err)
	}
	substWantEqual(t, got, mustParse(t, "[N] -> { a[i] -> E[6 + i] : 0 <= i < N }"))
}

// Clément 2022, Theorem 5.2.8, on random relations, by enumeration.
func TestSubstituteRandom(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewSource(5))
	n := 0
	for k := 0; k < 150; k++ {
		s1 := lxRandSpec{nP: 2, nI: 1, nO: 1, nDiv: k % 2, box: 3}
		s2 := lxRandSpec{nP: 1, nI: 1, nO: 1, nDiv: (k / 2) % 2, box: 3}
		b1 := lxRandBasic(r, s1)
		r1 := NewMap(b1.Space(), b1)
		b2 := lxRandBasic(r, s2)
		r2 := NewMap(b2.Space(), b2)
		got, err := Substitute(ctx, r1, []string{"p1"}, r2)
		if err != nil {
			t.Fatal(err)
		}
		n++
		for p := int64(-2); p <= 2; p++ {
			for x := int64(-2); x <= 2; x++ {
				for y := int64(-3); y <= 3; y++ {
					want := false
					for kk := int64(-3); kk <= 3 && !want; kk++ {
						in2, err2 := r2.ContainsPoint(ctx, ints(p, x, kk))
						in1, err1 := r1.ContainsPoint(ctx, ints(p, kk, x, y))
						if err1 != nil || err2 != nil {
							t.Fatal(err1, err2)
						}
						want = in1 && in2
					}
					have, err := got.ContainsPoint(ctx, ints(p, x, y))
					if err != nil {
						t.Fatal(err)
					}
					if have != want {
						t.Fatalf("%v[p1 := %v] = %v: at p0=%d %d -> %d got %v want %v", r1, r2, got, p, x, y, have, want)
					}
				}
			}
		}
	}
	t.Logf("%d random substitutions checked", n)
}

// The iterated update against a concrete execution of the loop
// for x = 0 .. N-1: mem[a[i]] = E(j(x, i, N)) for the cells written at x
// (Clément 2022, Lemma 5.2.9), on random functional heaps.
func TestIteratedUpdateRandom(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewSource(11))
	bound := mustParse(t, "[N, x] -> { : 0 <= x < N }")
	n := 0
	for k := 0; k < 120; k++ {
		// j = c1*x + c2*i + c3*N + c4, written where a random condition holds.
		c := []int{r.Intn(5) - 2, r.Intn(3) - 1, r.Intn(3) - 1, r.Intn(5) - 2}
		conds := []string{
			fmt.Sprintf("i = x mod %d", 2+r.Intn(3)),
			fmt.Sprintf("i = x + %d", r.Intn(3)-1),
			fmt.Sprintf("i <= x + %d and i >= x - %d", r.Intn(2), r.Intn(3)),
			fmt.Sprintf("2i = x + %d", r.Intn(2)),
			fmt.Sprintf("i = floor(x / %d)", 2+r.Intn(2)),
		}
		cond := conds[r.Intn(len(conds))]
		expr := fmt.Sprintf("%d", c[3])
		for t, v := range []string{"x", "i", "N"} {
			if c[t] >= 0 {
				expr += fmt.Sprintf(" + %d*%s", c[t], v)
			} else {
				expr += fmt.Sprintf(" - %d*%s", -c[t], v)
			}
		}
		src := fmt.Sprintf("[N, x] -> { a[i] -> E[j] : %s and 0 <= i < 6 and j = %s }", cond, expr)
		h := mustParse(t, src)
		got, err := IteratedUpdate(ctx, NewUnionMap(h), "x", bound)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		var gm *Map
		if ms := got.Maps(); len(ms) == 1 {
			gm = ms[0]
		} else if len(ms) == 0 {
			gm = Empty(MapSpace([]string{"N"}, FlatTuple("a", "i"), FlatTuple("E", "j")))
		} else {
			t.Fatalf("%d maps", len(ms))
		}
		n++
		for N := int64(0); N <= 7; N++ {
			mem := map[int64]int64{}
			for x := int64(0); x < N; x++ {
				for i := int64(0); i < 6; i++ {
					j := int64(c[0])*x + int64(c[1])*i + int64(c[2])*N + int64(c[3])
					in, err := h.ContainsPoint(ctx, ints(N, x, i, j))
					if err != nil {
						t.Fatal(err)
					}
					if in {
						mem[i] = j
					}
				}
			}
			matchesMemory(t, src, gm, N, mem, 40)
		}
	}
	t.Logf("%d random iterated updates checked against execution", n)
}

// gistPoint returns the point (N, i, j) in the column order of m, whose
// only parameter is N (or none).
func gistPoint(m *Map, N, i, j int64) []Int {
	if m.Space().NumParams() == 0 {
		return ints(i, j)
	}
	return ints(N, i, j)
}

// matchesMemory checks that the iterated update gm of the random case src
// holds, at parameter N, exactly the cells of the concrete memory mem
// (a[i] -> E(j) for the last j written to a[i], for i in [-1, 6]), over
// the values j in [-span, span].
func matchesMemory(t *testing.T, src string, gm *Map, N int64, mem map[int64]int64, span int64) {
	t.Helper()
	ctx := context.Background()
	for i := int64(-1); i <= 6; i++ {
		want, written := mem[i]
		for j := -span; j <= span; j++ {
			has, err := gm.ContainsPoint(ctx, gistPoint(gm, N, i, j))
			if err != nil {
				t.Fatal(err)
			}
			if has != (written && j == want) {
				t.Fatalf("%s\nupdate = %v\nN=%d: a[%d] -> E(%d) is %v, concrete memory has %v (%v)", src, gm, N, i, j, has, want, written)
			}
		}
	}
}

func TestUpdate(t *testing.T) {
	ctx := context.Background()
	h1 := mustUnion(t, "[N] -> { a[i] -> E[i] : 0 <= i < 10; b[i] -> E[0] : 0 <= i < N }")
	h2 := mustUnion(t, "[N] -> { a[i] -> F[i + 1] : 5 <= i < 15 }")
	got, err := Update(ctx, h1, h2)
	checkUnion(t, "Update", got, err, "[N] -> { a[i] -> E[i] : 0 <= i < 5; a[i] -> F[i + 1] : 5 <= i < 15; b[i] -> E[0] : 0 <= i < N }")
}

// IteratedUpdateCellsFrom takes the cells it is given for an array that
// several maps write, gives the same result as IteratedUpdateCells when
// they are the cells a call on the same maps returned (also with x
// renamed, as the walk of a loop's body renames its variable), and
// ignores cells of another tuple shape.
func TestIteratedUpdateCellsFrom(t *testing.T) {
	ctx := context.Background()
	h := NewUnionMap(
		substNamed(t, "[N, x] -> { a[i] -> A[j] : 0 <= x < N and x < i < 8 and j = x }", "A(□)"),
		substNamed(t, "[N, x] -> { a[i] -> B[j] : 0 <= x < N and i = x and j = x + 1 }", "B(□)"),
	)
	bound := mustParse(t, "[N, x] -> { : 0 <= x < N }")
	u0, cells0, err := IteratedUpdateCells(ctx, h, "x", bound)
	if err != nil {
		t.Fatal(err)
	}
	if cells0["a"] == nil {
		t.Fatalf("no cells of a: %v", cells0)
	}
	u1, cells1, err := IteratedUpdateCellsFrom(ctx, h, "x", bound, cells0)
	if err != nil {
		t.Fatal(err)
	}
	if cells1["a"] != cells0["a"] || u1.String() != u0.String() {
		t.Fatalf("with its own cells: %v, want %v", u1, u0)
	}

	// x renamed z in the maps and in the cells.
	rename := func(m *Map) *Map {
		sp := m.Space().Copy()
		for i, p := range sp.Params {
			if p == "x" {
				sp.Params[i] = "z"
			}
		}
		r, err := m.Relabel(sp)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	var hz []*Map
	for _, m := range h.Maps() {
		hz = append(hz, rename(m))
	}
	uz := NewUnionMap(hz...)
	bz := mustParse(t, "[N, z] -> { : 0 <= z < N }")
	want, _, err := IteratedUpdateCells(ctx, uz, "z", bz)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := IteratedUpdateCellsFrom(ctx, uz, "z", bz, map[string]*Map{"a": rename(cells0["a"])})
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Fatalf("renamed: %v, want %v", got, want)
	}
	for i, m := range got.Maps() {
		substWantEqual(t, m, want.Maps()[i])
	}

	// Given cells are taken as they are (the caller vouches for them);
	// cells of another shape are not.
	other := mustParse(t, "[N, x] -> { a[i] : 0 <= i < 8 }")
	_, cells2, err := IteratedUpdateCellsFrom(ctx, h, "x", bound, map[string]*Map{"a": other})
	if err != nil {
		t.Fatal(err)
	}
	if cells2["a"] != other {
		t.Fatalf("given cells not taken: %v", cells2["a"])
	}
	wrong := mustParse(t, "[N, x] -> { a[i, k] : 0 <= i < 8 and k = 0 }")
	_, cells3, err := IteratedUpdateCellsFrom(ctx, h, "x", bound, map[string]*Map{"a": wrong})
	if err != nil {
		t.Fatal(err)
	}
	if cells3["a"] == wrong {
		t.Fatal("cells of another shape taken")
	}
	substWantEqual(t, cells3["a"], cells0["a"])
}
