package presburger

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

// Benchmarks on verifier-shaped workloads: tiled accesses with divisions,
// nested tuples (symbolic heaps as relations from [statement -> array]
// pairs), race checks, and unions of 1-20 pieces.

const tiledWrite = "[N] -> { T[ti, tj, pi, pj] -> A[4ti + pi, 4tj + pj] : 0 <= pi, pj < 4 and 0 <= 4ti + pi < N and 0 <= 4tj + pj < N }"

// heapPieces returns a relation [S[i] -> A[j]] -> V[k] with n pieces, each
// a strided band of the array written by one unrolled statement.
func heapPieces(n int) string {
	var parts []string
	for k := 0; k < n; k++ {
		parts = append(parts, fmt.Sprintf("[S[i] -> A[j]] -> V[v] : j = 4i + %d and 0 <= i < N and v = %d and exists (e = floor(j/2): j = 2e + %d)", k%4, k, k%2))
	}
	return "[N] -> { " + strings.Join(parts, "; ") + " }"
}

// BenchmarkIsEmptyRace: is there a pair of distinct parallel iterations of
// a tiled kernel writing the same cell? (No.)
func BenchmarkIsEmptyRace(b *testing.B) {
	ctx := context.Background()
	w := mustParse(b, tiledWrite)
	conflict, err := w.ApplyRange(w.Reverse())
	if err != nil {
		b.Fatal(err)
	}
	lt, _ := LexLT(w.Space().Domain())
	race, err := conflict.Intersect(lt)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e, err := race.IsEmpty(ctx)
		if err != nil || !e {
			b.Fatalf("race: %v %v", e, err)
		}
	}
}

// BenchmarkIsEmptyDivs: emptiness of a conjunction with divisions and
// existentials (20 constraints).
func BenchmarkIsEmptyDivs(b *testing.B) {
	ctx := context.Background()
	m := mustParse(b, "[N, M] -> { [i, j, k] : 0 <= i < N and 0 <= j < M and 0 <= k < 32 and "+
		"exists (a = floor(i/4), c = floor(j/8): 4a <= i < 4a + 4 and j = 8c + 3 and k = i - 4a + 2j - 16c and "+
		"k >= 12 and i + j <= N + M - 2 and 2i - 3j >= -N and N <= 64 and M <= 64) }")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := m.IsEmpty(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIntersectHeap: intersect a 20-piece heap with a domain restriction.
func BenchmarkIntersectHeap(b *testing.B) {
	h := mustParse(b, heapPieces(20))
	r := mustParse(b, "[N] -> { [S[i] -> A[j]] -> V[v] : 0 <= j < 2N and v >= 3 }")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := h.Intersect(r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSubtractTiles: the cells of A not written by the tiled kernel
// restricted to even tiles (a union with divisions).
func BenchmarkSubtractTiles(b *testing.B) {
	ctx := context.Background()
	all := mustParse(b, "[N] -> { A[i, j] : 0 <= i, j < N }")
	even := mustParse(b, "[N] -> { A[i, j] : 0 <= i, j < N and exists (t = floor(i/4): t = 2floor(t/2)) }")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := all.Subtract(ctx, even); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSubtractHeap: overwrite part of a 10-piece heap.
func BenchmarkSubtractHeap(b *testing.B) {
	ctx := context.Background()
	h := mustParse(b, heapPieces(10))
	w := mustParse(b, "[N] -> { [S[i] -> A[j]] -> V[v] : 0 <= j < N and exists (e = floor(j/4): j = 4e) }")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := h.Subtract(ctx, w); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyRange: compose a schedule with the tiled access relation.
func BenchmarkApplyRange(b *testing.B) {
	sched := mustParse(b, "[N] -> { S[i, j] -> T[floor(i/4), floor(j/4), i mod 4, j mod 4] : 0 <= i, j < N }")
	w := mustParse(b, tiledWrite)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := sched.ApplyRange(w); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProjectionSimplify: range of the tiled write (projecting four
// dimensions with divisions) followed by exact simplification.
func BenchmarkProjectionSimplify(b *testing.B) {
	ctx := context.Background()
	w := mustParse(b, tiledWrite)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := w.Range().Simplify(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExplicitDivs: rewrite existentials as divisions (the first step
// of negating a projected set).
func BenchmarkExplicitDivs(b *testing.B) {
	ctx := context.Background()
	w := mustParse(b, tiledWrite).Range()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, bm := range w.basics {
			if _, err := bm.ExplicitDivs(ctx); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkIsInjective: injectivity of the tiled write.
func BenchmarkIsInjective(b *testing.B) {
	ctx := context.Background()
	w := mustParse(b, tiledWrite)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if ok, err := w.IsInjective(ctx); err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}

// BenchmarkParse: parse the 20-piece heap.
func BenchmarkParse(b *testing.B) {
	src := heapPieces(20)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := ParseMap(src); err != nil {
			b.Fatal(err)
		}
	}
}

// smallSimplifyInputs are conjunctions Map.Simplify meets most often in
// the verifier's traces (docs/presburger-performance.md): a few bounds
// on parameters, a copy relation, a tuple without constraints.
var smallSimplifyInputs = []string{
	"[Am0, Ae0, Am1, Ae1] -> { : Am0 + Ae0 >= 1024 and Am1 + Ae1 >= 1024 and 0 >= Am1 and 0 >= Am0 }",
	"[xm, xe, ym, ye] -> { result_s1[k] -> result_s1[o0] : k = o0 + 1 and xe >= k + 1 and k >= 0 }",
	"[xm, xe, ym, ye] -> { result_s1[k] -> y_im[v] : k = v and xe >= k + 1 and k >= 0 }",
	"[N, M] -> { prod[k, i, j] -> B[o0, o1] : k = o0 and j = o1 }",
	"[N, M] -> { prod[x, y] }",
	"[xm, xe, ym, ye] -> { result_s1[k] : 0 >= k + 1; result_s1[k] : k >= xe; result_s1[k] : xe >= k + 1 and k >= 0 }",
}

// BenchmarkSimplifySmall: Map.Simplify on the small inputs above, whose
// cost is the engine's fixed overhead.
func BenchmarkSimplifySmall(b *testing.B) {
	ctx := context.Background()
	for k, s := range smallSimplifyInputs {
		m := mustParse(b, s)
		b.Run(fmt.Sprint(k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := m.Simplify(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSubtractTileExistentials: the written cells of the result of
// sgemm1024 (a rectangle) minus the cells its tiled loops write, whose
// tile index and point within the tile are plain existentials, with every
// parameter fixed by equalities.
func BenchmarkSubtractTileExistentials(b *testing.B) {
	ctx := context.Background()
	m, o := sgemmTileMaps(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := m.Subtract(ctx, o); err != nil {
			b.Fatal(err)
		}
	}
}

// sgemmTileMaps returns the two maps of testdata/subtract_tiles_sgemm.txt.
func sgemmTileMaps(tb testing.TB) (*Map, *Map) {
	tb.Helper()
	src, err := os.ReadFile("testdata/subtract_tiles_sgemm.txt")
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(src)), "\n")
	if len(lines) != 2 {
		tb.Fatalf("want 2 maps, got %d lines", len(lines))
	}
	m, err := ParseMap(lines[0])
	if err != nil {
		tb.Fatal(err)
	}
	o, err := ParseMap(lines[1])
	if err != nil {
		tb.Fatal(err)
	}
	return m, o
}

// existentialChain returns { [x] : exists e_0, ..., e_{k-1}: e_0 = x + 1,
// e_i = e_{i-1} + 1, e_{k-1} <= 10 + k and x >= 0 }, whose normalisation
// substitutes every e_i out through its equality: the projections of a
// symbolic evaluation's compositions leave such chains.
func existentialChain(k int) *BasicMap {
	b := NewBasicMap(SetSpace(nil, FlatTuple("S", "x")))
	for range k {
		b.AddExistential()
	}
	w := b.NumCols()
	row := func(set map[int]int64) []Int {
		r := make([]Int, w)
		for c, v := range set {
			r[c] = NewInt(v)
		}
		return r
	}
	b.AddEq(row(map[int]int64{1: 1, 0: -1, w - 1: -1}))
	for i := 1; i < k; i++ {
		b.AddEq(row(map[int]int64{1 + i: 1, i: -1, w - 1: -1}))
	}
	b.AddIneq(row(map[int]int64{k: -1, w - 1: int64(10 + k)}))
	b.AddIneq(row(map[int]int64{0: 1}))
	return b
}

// BenchmarkNormalizeExistentials: the normalisation of a conjunction whose
// 32 existentials each go through an equality (existentialChain).
func BenchmarkNormalizeExistentials(b *testing.B) {
	c := existentialChain(32)
	b.ReportAllocs()
	for b.Loop() {
		d := c.Copy()
		if !d.normalize() || len(d.divs) != 0 {
			b.Fatalf("normalize: %v, %d locals left", d, len(d.divs))
		}
	}
}
