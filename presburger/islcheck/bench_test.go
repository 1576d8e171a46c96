//go:build isl

package islcheck

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
)

// The benchmarks time the same operation on the same verifier-shaped
// inputs in the engine ("augur") and in isl ("isl"). Inputs are parsed once,
// outside the timed loop, in both libraries; before timing, isl checks that
// the two results are equal.
//
// isl stores simplifications and emptiness flags in the objects it is given,
// which are shared between iterations, so its later iterations may reuse
// work of the first; the engine's objects are immutable and every
// iteration starts afresh. The parse benchmarks give the cost of a fresh
// start on both sides.

// Verifier-shaped relations: array cells to iteration tuples of tiled,
// strided and nested loops.
const (
	// tile: the cells of c written by a tiled loop whose last tile is
	// shifted back to stay inside the array.
	benchTile = "[N, M] -> { c[i, j] -> S[i0, j, i1] : i = min(4i0, N - 4) + i1 and 0 <= i1 < 4 and 0 <= j < M and 0 <= i0 and 4i0 < N }"
	// tile3: the same with tiles of 3.
	benchTile3 = "[N, M] -> { c[i, j] -> S[i0, j, i1] : i = min(3i0, N - 3) + i1 and 0 <= i1 < 3 and 0 <= j < M and 0 <= i0 and 3i0 < N }"
	// box: the bounds of the array, in the same space.
	benchBox = "[N, M] -> { c[i, j] -> S[i0, j1, i1] : 0 <= i < N and 0 <= j < M and N >= 4 }"
	// write: iterations to the cells they write (the reverse of tile).
	benchWrite = "[N, M] -> { S[i0, j, i1] -> c[i, j] : i = min(4i0, N - 4) + i1 and 0 <= i1 < 4 and 0 <= j < M and 0 <= i0 and 4i0 < N }"
	// strided: cells read through divisions and a modulo.
	benchStrided = "[N, M] -> { S[t, j] -> c[i, k] : i = floor(t/4) and k = (t + j) mod 8 and 0 <= t < N and 0 <= j < M and exists (e: t = 2e) }"
	// nested: a wrapped cell-and-element tuple to iterations.
	benchNested = "[N] -> { [a[i] -> E[j]] -> S[t, k] : 0 <= t < N and 0 <= k < 8 and i = 8t + k and j = floor(k/2) and 0 <= i < N }"
	// sched: a schedule of S.
	benchSched = "[N] -> { S[t, k] -> T[k, t] : 0 <= k < 8 }"
)

// benchPieces returns a union of n pieces: the residues q of i modulo n,
// each a strided family of cells, together covering one box (coalesce can
// merge them into a single conjunction).
func benchPieces(n, drop int) string {
	var ps []string
	for q := 0; q < n; q++ {
		if q == drop {
			continue
		}
		ps = append(ps, fmt.Sprintf("c[i, j] -> S[t, j, %d] : i = %dt + %d and 0 <= t and %dt + %d < N and 0 <= j < M", q, n, q, n, q))
	}
	return "[N, M] -> { " + strings.Join(ps, "; ") + " }"
}

// benchPiecesFlat is the union of all n pieces of benchPieces as one
// conjunction.
func benchPiecesFlat(n int) string {
	return fmt.Sprintf("[N, M] -> { c[i, j] -> S[t, j, q] : i = %dt + q and 0 <= q < %d and 0 <= t and i < N and 0 <= j < M }", n, n)
}

// benchCase is one benchmark: an operation applied to parsed inputs on
// both sides. The results are kept opaque: ours returns a *presburger.Map,
// a *presburger.UnionMap or a bool; theirs an iobj or a bool.
type benchCase struct {
	name   string
	inputs []string
	ours   func(ctx context.Context, in []*presburger.Map) (any, error)
	theirs func(in []iobj) (any, error)
}

func bothMaps(f func(a, b *Map) (*Map, error)) func([]iobj) (any, error) {
	return func(in []iobj) (any, error) { r, err := f(in[0].m, in[1].m); return iobj{m: r}, err }
}

func oneMap(f func(a *Map) (*Map, error)) func([]iobj) (any, error) {
	return func(in []iobj) (any, error) { r, err := f(in[0].m); return iobj{m: r}, err }
}

func oneSet(f func(a *Map) (*Set, error)) func([]iobj) (any, error) {
	return func(in []iobj) (any, error) { r, err := f(in[0].m); return iobj{s: r}, err }
}

func oneBool(f func(a *Map) (bool, error)) func([]iobj) (any, error) {
	return func(in []iobj) (any, error) { return f(in[0].m) }
}

func twoBool(f func(a, b *Map) (bool, error)) func([]iobj) (any, error) {
	return func(in []iobj) (any, error) { return f(in[0].m, in[1].m) }
}

func benchCases() []benchCase {
	var cs []benchCase
	add := func(name string, inputs []string, ours func(ctx context.Context, in []*presburger.Map) (any, error), theirs func([]iobj) (any, error)) {
		cs = append(cs, benchCase{name, inputs, ours, theirs})
	}
	tile := []string{benchTile}
	add("Reverse/tile", tile,
		func(_ context.Context, in []*presburger.Map) (any, error) { return in[0].Reverse(), nil },
		oneMap((*Map).Reverse))
	add("Domain/tile", tile,
		func(_ context.Context, in []*presburger.Map) (any, error) { return in[0].Domain(), nil },
		oneSet((*Map).Domain))
	add("Range/nested", []string{benchNested},
		func(_ context.Context, in []*presburger.Map) (any, error) { return in[0].Range(), nil },
		oneSet((*Map).Range))
	add("Intersect/tile-box", []string{benchTile, benchBox},
		func(_ context.Context, in []*presburger.Map) (any, error) { return in[0].Intersect(in[1]) },
		bothMaps((*Map).Intersect))
	add("Union/pieces10", []string{benchPieces(10, 3), benchPieces(10, 7)},
		func(_ context.Context, in []*presburger.Map) (any, error) { return in[0].Union(in[1]) },
		bothMaps((*Map).Union))
	add("Subtract/tile-tile3", []string{benchTile, benchTile3},
		func(ctx context.Context, in []*presburger.Map) (any, error) { return in[0].Subtract(ctx, in[1]) },
		bothMaps((*Map).Subtract))
	add("Subtract/pieces20", []string{benchPiecesFlat(20), benchPieces(20, 5)},
		func(ctx context.Context, in []*presburger.Map) (any, error) { return in[0].Subtract(ctx, in[1]) },
		bothMaps((*Map).Subtract))
	add("Complement/tile", tile,
		func(ctx context.Context, in []*presburger.Map) (any, error) { return in[0].Complement(ctx) },
		oneMap((*Map).Complement))
	add("ApplyRange/conflicts", []string{benchTile, benchWrite},
		func(_ context.Context, in []*presburger.Map) (any, error) { return in[0].ApplyRange(in[1]) },
		bothMaps((*Map).ApplyRange))
	add("ApplyRange/nested-sched", []string{benchNested, benchSched},
		func(_ context.Context, in []*presburger.Map) (any, error) { return in[0].ApplyRange(in[1]) },
		bothMaps((*Map).ApplyRange))
	add("ApplyRange/strided", []string{benchStrided, benchTile},
		func(_ context.Context, in []*presburger.Map) (any, error) { return in[0].ApplyRange(in[1]) },
		bothMaps((*Map).ApplyRange))
	add("IsEmpty/tile-minus-box", []string{benchTile, benchBox},
		func(ctx context.Context, in []*presburger.Map) (any, error) {
			d, err := in[0].Subtract(ctx, in[1])
			if err != nil {
				return nil, err
			}
			return d.IsEmpty(ctx)
		},
		func(in []iobj) (any, error) {
			d, err := in[0].m.Subtract(in[1].m)
			if err != nil {
				return nil, err
			}
			defer d.Free()
			return d.IsEmpty()
		})
	add("IsSubset/tile-box", []string{benchTile, benchBox},
		func(ctx context.Context, in []*presburger.Map) (any, error) { return in[0].IsSubset(ctx, in[1]) },
		twoBool((*Map).IsSubset))
	for _, n := range []int{1, 5, 20} {
		add(fmt.Sprintf("IsEqual/pieces%d", n), []string{benchPieces(n, -1), benchPiecesFlat(n)},
			func(ctx context.Context, in []*presburger.Map) (any, error) { return in[0].IsEqual(ctx, in[1]) },
			twoBool((*Map).IsEqual))
	}
	add("IsSingleValued/write", []string{benchWrite},
		func(ctx context.Context, in []*presburger.Map) (any, error) { return in[0].IsSingleValued(ctx) },
		oneBool((*Map).IsSingleValued))
	add("IsInjective/write", []string{benchWrite},
		func(ctx context.Context, in []*presburger.Map) (any, error) { return in[0].IsInjective(ctx) },
		oneBool((*Map).IsInjective))
	add("IsSingleValued/strided", []string{benchStrided},
		func(ctx context.Context, in []*presburger.Map) (any, error) { return in[0].IsSingleValued(ctx) },
		oneBool((*Map).IsSingleValued))
	add("LexMin/tile", tile,
		func(ctx context.Context, in []*presburger.Map) (any, error) { return presburger.LexMinMap(ctx, in[0]) },
		oneMap((*Map).LexMin))
	add("LexMax/nested", []string{benchNested},
		func(ctx context.Context, in []*presburger.Map) (any, error) { return presburger.LexMaxMap(ctx, in[0]) },
		oneMap((*Map).LexMax))
	for _, n := range []int{5, 20} {
		add(fmt.Sprintf("Coalesce/pieces%d", n), []string{benchPieces(n, -1)},
			func(ctx context.Context, in []*presburger.Map) (any, error) { return presburger.Coalesce(ctx, in[0]) },
			oneMap((*Map).Coalesce))
	}
	add("Gist/tile-box", []string{benchTile, benchBox},
		func(ctx context.Context, in []*presburger.Map) (any, error) {
			g, err := presburger.Gist(ctx, in[0], in[1])
			if err != nil {
				return nil, err
			}
			// Gist is only defined on the context: compare there.
			return gistResult{g, in[1]}, nil
		},
		bothMaps((*Map).Gist))
	return cs
}

// gistResult is the engine's gist with its context, compared with isl's on
// the context only.
type gistResult struct{ g, context *presburger.Map }

// checkBench verifies, outside the timed loop, that the engine and isl
// agree on case bc.
func checkBench(ctx context.Context, c *Ctx, bc benchCase, ms []*presburger.Map, is []iobj) error {
	got, err := bc.ours(ctx, ms)
	if err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	want, err := bc.theirs(is)
	if err != nil {
		return fmt.Errorf("isl: %w", err)
	}
	switch w := want.(type) {
	case bool:
		if got.(bool) != w {
			return fmt.Errorf("engine says %v, isl %v", got, w)
		}
		return nil
	case iobj:
		defer w.Free()
		if gr, ok := got.(gistResult); ok {
			x, err := gr.g.Intersect(gr.context)
			if err != nil {
				return err
			}
			wc, err := w.m.Intersect(is[1].m)
			if err != nil {
				return err
			}
			defer wc.Free()
			got, w = x, iobj{m: wc}
		}
		e := &env{c: c, ctx: ctx}
		if r := e.compare(got.(fmt.Stringer), w); r.out != agree {
			return fmt.Errorf("results differ: engine %s, isl %s %s", r.ours, r.isl, r.note)
		}
		return nil
	}
	return fmt.Errorf("unexpected result %T", want)
}

func BenchmarkOps(b *testing.B) {
	ctx := context.Background()
	c := NewCtx()
	defer func() {
		if err := c.Free(); err != nil {
			b.Error(err)
		}
	}()
	for _, bc := range benchCases() {
		var ms []*presburger.Map
		var is []iobj
		for _, src := range bc.inputs {
			m, err := presburger.ParseMap(src)
			if err != nil {
				b.Fatalf("%s: engine parse: %v", bc.name, err)
			}
			i, err := readAs(c, "map", src)
			if err != nil {
				b.Fatalf("%s: isl parse: %v", bc.name, err)
			}
			ms = append(ms, m)
			is = append(is, i)
		}
		if err := checkBench(ctx, c, bc, ms, is); err != nil {
			b.Errorf("%s: %v", bc.name, err)
		}
		b.Run(bc.name+"/augur", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.ours(ctx, ms); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bc.name+"/isl", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := bc.theirs(is)
				if err != nil {
					b.Fatal(err)
				}
				if o, ok := r.(iobj); ok {
					o.Free()
				}
			}
		})
		freeAll(is)
	}
}

// BenchmarkOpsFromText times the same cases starting from the text of the
// inputs: every iteration parses them afresh on both sides, so that no
// simplification cached in isl's objects carries over between iterations.
func BenchmarkOpsFromText(b *testing.B) {
	ctx := context.Background()
	c := NewCtx()
	defer func() {
		if err := c.Free(); err != nil {
			b.Error(err)
		}
	}()
	for _, bc := range benchCases() {
		b.Run(bc.name+"/augur", func(b *testing.B) {
			b.ReportAllocs()
			ms := make([]*presburger.Map, len(bc.inputs))
			for b.Loop() {
				for i, src := range bc.inputs {
					m, err := presburger.ParseMap(src)
					if err != nil {
						b.Fatal(err)
					}
					ms[i] = m
				}
				if _, err := bc.ours(ctx, ms); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bc.name+"/isl", func(b *testing.B) {
			b.ReportAllocs()
			is := make([]iobj, len(bc.inputs))
			for b.Loop() {
				for i, src := range bc.inputs {
					m, err := c.ReadMap(src)
					if err != nil {
						b.Fatal(err)
					}
					is[i] = iobj{m: m}
				}
				r, err := bc.theirs(is)
				if err != nil {
					b.Fatal(err)
				}
				if o, ok := r.(iobj); ok {
					o.Free()
				}
				freeAll(is)
			}
		})
	}
}

// BenchmarkParse times reading the benchmark inputs from isl notation.
func BenchmarkParse(b *testing.B) {
	c := NewCtx()
	defer func() {
		if err := c.Free(); err != nil {
			b.Error(err)
		}
	}()
	inputs := []struct{ name, src string }{
		{"tile", benchTile}, {"nested", benchNested}, {"strided", benchStrided}, {"pieces20", benchPieces(20, -1)},
	}
	for _, in := range inputs {
		b.Run(in.name+"/augur", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := presburger.ParseMap(in.src); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(in.name+"/isl", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m, err := c.ReadMap(in.src)
				if err != nil {
					b.Fatal(err)
				}
				m.Free()
			}
		})
	}
}
