package presburger

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// Verifier-shaped workloads: relations from array cells to the iterations
// writing them, whose lexicographic maximum is the last write.
var lexBenchCases = []struct {
	name, src string
}{
	{"mod4", "[N] -> { a[i] -> [x] : i = x mod 4 and 0 <= x < N }"},
	{"tiled1d", "[N] -> { A[i] -> [i0, i1] : i = 32i0 + i1 and 0 <= i1 < 32 and 0 <= i < N and i0 >= 0 }"},
	{"matmulTiledK", "[N, M, K] -> { C[i, j] -> [k0, k1] : 0 <= i < N and 0 <= j < M and 0 <= k1 < 16 and k0 >= 0 and 0 <= 16k0 + k1 < K }"},
	{"tiled2d", "[N, M] -> { B[i, j] -> [ti, tj, ii, jj] : i = 8ti + ii and j = 8tj + jj and 0 <= ii < 8 and 0 <= jj < 8 and 0 <= i < N and 0 <= j < M and ti >= 0 and tj >= 0 }"},
	{"stencilTime", "[T, N] -> { A[i] -> [t, x] : 0 <= t < T and 1 <= x < N - 1 and x - 1 <= i <= x + 1 and (t + x) mod 2 = 0 }"},
	{"skewed", "[N] -> { A[i, j] -> [s, t] : s = i + j and t = j and 0 <= i < N and 0 <= j < N and s mod 3 = 0 }"},
	{"conv2dTiled", "[H, W, K] -> { O[h, w] -> [th, tw, hh, ww, kh, kw] : h = 4th + hh and w = 4tw + ww and 0 <= hh < 4 and 0 <= ww < 4 and 0 <= h < H and 0 <= w < W and th >= 0 and tw >= 0 and 0 <= kh < K and 0 <= kw < K }"},
	{"unrolledUnion", "[N] -> { A[i] -> [t, u] : i = 2t and u = 0 and 0 <= t and 2t < N; A[i] -> [t, u] : i = 2t + 1 and u = 1 and 0 <= t and 2t + 1 < N; A[i] -> [t, u] : 0 <= i < 4 and t = -1 and u = i }"},
	{"reductionSplit", "[N, M] -> { S[i] -> [k0, k1, k2] : 0 <= i < N and 0 <= k2 < 8 and 0 <= k1 < 8 and k0 >= 0 and 64k0 + 8k1 + k2 < M and (64k0 + 8k1 + k2 + i) mod 2 = 0 }"},
}

func benchLexMax(b *testing.B, src string) {
	benchLexMaxOf(b, mustParse(b, src))
}

// benchLexMaxOf times LexMax on m.
func benchLexMaxOf(b *testing.B, m *Map) {
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := LexMax(ctx, m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLexMax(b *testing.B) {
	for _, c := range lexBenchCases {
		b.Run(c.name, func(b *testing.B) { benchLexMax(b, c.src) })
	}
}

func BenchmarkIteratedUpdate(b *testing.B) {
	h, err := ParseMap("[x] -> { a[i] -> A[j] : j = x + 3 and i = x mod 4 }")
	if err != nil {
		b.Fatal(err)
	}
	bound, err := ParseMap("[N, x] -> { : 0 <= x < N }")
	if err != nil {
		b.Fatal(err)
	}
	u := NewUnionMap(h)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := IteratedUpdate(ctx, u, "x", bound); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLexMaxTileRows is the maximum of a compiler's tile-bound
// conjunction with its rows in the order the compiler built them (see
// tileRowsConjunction), which the parsed benchmarks above do not keep.
func BenchmarkLexMaxTileRows(b *testing.B) {
	sp := SetSpace([]string{"M", "N", "K"}, FlatTuple("", "o"))
	benchLexMaxOf(b, NewMap(sp, tileRowsConjunction(nil, false)))
}

// disjointUnionSrc is a union of 16 conjunctions writing the cells of
// one residue of i modulo 16 each, at iterations x bounded by N and i and
// in residues modulo 4 and 3 that depend on i (optima of several pieces
// with divisions): the domains are disjoint, but no pair of rows says so.
func disjointUnionSrc() string {
	var parts []string
	for k := range 16 {
		parts = append(parts, fmt.Sprintf("A[i] -> [x] : i mod 16 = %d and 0 <= i < N and 0 <= x < N and x <= i + 7 and 4x <= 3N + i and (x + i) mod 4 = 0 and (x + 2i) mod 3 = 1", k))
	}
	return "[N] -> { " + strings.Join(parts, "; ") + " }"
}

// BenchmarkLexMaxDisjointUnion is the last write of a union whose
// conjunctions write disjoint cells: the optima kept side by side after
// one test per pair of conjunctions ("grouped", as LexMax before its
// coalescing) against the optima combined pairwise by pwLexCombine
// ("combined"). Both report the engine's steps per operation.
func BenchmarkLexMaxDisjointUnion(b *testing.B) {
	m := mustParse(b, disjointUnionSrc())
	run := func(b *testing.B, f func(context.Context) error) {
		a := NewAllowance(0)
		ctx := WithAllowance(context.Background(), a)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if err := f(ctx); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(a.Used())/float64(b.N), "steps/op")
	}
	b.Run("grouped", func(b *testing.B) {
		run(b, func(ctx context.Context) error { _, err := lexOptGrouped(ctx, m, true); return err })
	})
	b.Run("combined", func(b *testing.B) {
		run(b, func(ctx context.Context) error { _, err := lexOptFold(ctx, m, true); return err })
	})
}
