package symeval

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// TestUndefinedUnderDropsFarPieces checks that the undefined reads of a
// read under facts of several conjunctions, from a heap whose cells come
// in many pieces, first drop the pieces the read does not reach: they
// cost fewer steps than subtracting every piece from the read under each
// conjunction of the facts, and the cells are the same.
func TestUndefinedUnderDropsFarPieces(t *testing.T) {
	// A heap of 24 rows of a tile, each written for its own n, and a
	// read of row k of the first two only.
	var rows []string
	for i := range 24 {
		rows = append(rows, fmt.Sprintf("A[i0, i1] : n = %d and 0 <= i0 < 8 and 0 <= i1 < 8 and i1 != 3", i))
	}
	d := mustMap(t, "[n, k, m] -> { "+strings.Join(rows, "; ")+" }")
	r := mustMap(t, "[n, k, m] -> { A[i0, i1] : i0 = k and 0 <= i1 < 8 and 0 <= n <= 1 }")
	f := mustMap(t, "[n, k, m] -> { : 0 <= k < 8 and m >= 0 and (m mod 3 = 0 or m mod 3 = 1 or (m mod 3 = 2 and m >= 2 * n)) }")
	under, su, direct, sd := undefinedBothWays(t, r, d, f)
	if su >= sd {
		t.Errorf("undefined reads in %d steps, the direct way %d: want fewer", su, sd)
	}
	if eq, err := under.IsEqual(t.Context(), direct); err != nil || !eq {
		t.Fatalf("undefined reads %s, want %s (%v)", under, direct, err)
	}
	want := mustMap(t, "[n, k, m] -> { A[i0, i1] : i0 = k and i1 = 3 and 0 <= n <= 1 and 0 <= k < 8 and m >= 0 and (m mod 3 = 0 or m mod 3 = 1 or (m mod 3 = 2 and m >= 2 * n)) }")
	if eq, err := under.IsEqual(t.Context(), want); err != nil || !eq {
		t.Fatalf("undefined reads %s, want %s (%v)", under, want, err)
	}
}

// TestUndefinedUnderManyPiecesCommonFacts checks that the undefined reads
// of a read from a heap of many pieces that all meet it, under facts of
// several conjunctions, subtract under the facts' common constraints even
// when the difference has many pieces, fewer than the pairs of the direct
// way: fewer steps than the direct way, and the same cells.
func TestUndefinedUnderManyPiecesCommonFacts(t *testing.T) {
	// A heap of the even columns 0 to 22 of a tile, one piece each, and a
	// read of row k, columns 0 to 22: the odd columns are undefined, in 11
	// pieces, more than twice the read's one.
	var cols []string
	for j := range 12 {
		cols = append(cols, fmt.Sprintf("A[i0, i1] : 0 <= i0 < 8 and i1 = %d", 2*j))
	}
	d := mustMap(t, "[n, k, m] -> { "+strings.Join(cols, "; ")+" }")
	r := mustMap(t, "[n, k, m] -> { A[i0, i1] : i0 = k and 0 <= i1 <= 22 }")
	facts := "0 <= k < 8 and m >= 0 and (m mod 3 = 0 or m mod 3 = 1 or (m mod 3 = 2 and m >= 2 * n))"
	f := mustMap(t, "[n, k, m] -> { : "+facts+" }")
	under, su, direct, sd := undefinedBothWays(t, r, d, f)
	t.Logf("undefined reads in %d steps (%d pieces), the direct way %d (%d pieces)", su, under.NumBasics(), sd, direct.NumBasics())
	if su >= sd {
		t.Errorf("undefined reads in %d steps, the direct way %d: want fewer", su, sd)
	}
	want := mustMap(t, "[n, k, m] -> { A[i0, i1] : i0 = k and 0 <= i1 <= 22 and i1 mod 2 = 1 and "+facts+" }")
	if eq, err := under.IsEqual(t.Context(), want); err != nil || !eq {
		t.Fatalf("undefined reads %s, want %s (%v)", under, want, err)
	}
}

// undefinedBothWays returns the undefined reads of r from the heap's cells
// d under the facts f (of several conjunctions) computed by
// undefinedUnder and by undefinedDirect, each with the steps it counted.
func undefinedBothWays(t *testing.T, r, d, f *presburger.Map) (under *presburger.Map, su int64, direct *presburger.Map, sd int64) {
	t.Helper()
	if f.NumBasics() < 2 {
		t.Fatalf("facts of %d conjunctions, want several", f.NumBasics())
	}
	cf := commonFacts(f)
	under, su = withSteps(t, func(ctx context.Context) (*presburger.Map, error) { return undefinedUnder(ctx, r, d, f, cf) })
	direct, sd = withSteps(t, func(ctx context.Context) (*presburger.Map, error) { return undefinedDirect(ctx, r, d, f) })
	return under, su, direct, sd
}

// TestUndefinedReadsSkipsCoarseOnManyPieces checks that a clamped read of
// an array that the heap holds in many pieces, one column of a tile per
// unrolled store, is decided on its exact cells alone: the clamp's range
// would meet every piece, and where a cell read is never written (column
// 40 here) its test fails after costing more than the exact reads. The
// undefined reads are those of the exact cells, in no more steps.
func TestUndefinedReadsSkipsCoarseOnManyPieces(t *testing.T) {
	s := clampScope(t)
	var cols []string
	for k := range 80 {
		if k != 40 {
			cols = append(cols, fmt.Sprintf("a[i0, i1] -> E%d[] : 0 <= i0 < N and i1 = %d", k, k))
		}
	}
	u, err := presburger.ParseUnionMap("[N, " + s.Params()[1] + "] -> { " + strings.Join(cols, "; ") + " }")
	if err != nil {
		t.Fatal(err)
	}
	at := site{scope: s, heap: &Heap{u: u}}
	st := &sched.Assign{Array: &syntax.Ident{Name: "c"}, Indices: []syntax.Expr{mustExpr(t, "i")}, Value: mustExpr(t, "a[i, max(min(i, 79), 0)]")}
	if c, ok, err := coarseReads(s, st.Value); err != nil || !ok || c == nil {
		t.Fatalf("no coarse reads (%v)", err)
	}
	got, sg := withSteps(t, func(ctx context.Context) (*presburger.UnionMap, error) { return undefinedReads(ctx, st, at) })
	want, sw := withSteps(t, func(ctx context.Context) (*presburger.UnionMap, error) {
		r, err := reads(ctx, s, st.Value)
		if err != nil {
			return nil, err
		}
		return undefinedIn(ctx, r, at)
	})
	if sg > sw {
		t.Errorf("undefined reads in %d steps, the exact cells alone %d", sg, sw)
	}
	if eq, err := got.IsEqual(t.Context(), want); err != nil || !eq {
		t.Fatalf("undefined reads %s, want %s (%v)", got, want, err)
	}
	at40 := mustMap(t, "["+strings.Join(s.Params(), ", ")+"] -> { a[i0, i1] : "+s.Params()[1]+" = 40 and i0 = 40 and i1 = 40 and N >= 41 }")
	if eq, err := got.MapOf(at40.Space()).IsEqual(t.Context(), at40); err != nil || !eq {
		t.Errorf("undefined reads %s, want %s (%v)", got, at40, err)
	}
}

// TestUndefinedInFactsHull checks that the undefined reads of a read from
// a heap of many pieces, under facts of several conjunctions that bound
// the row read each in its own form, subtract under the facts' hull: the
// rows past the bound are not split by the heap's pieces only to be
// dropped by each conjunction, fewer steps than under their common
// constraints alone, and the same cells.
func TestUndefinedInFactsHull(t *testing.T) {
	var cols []string
	for j := range 80 {
		if j != 40 {
			cols = append(cols, fmt.Sprintf("A[i0, i1] -> E%d[] : 0 <= i0 < 8 and i1 = %d", j, j))
		}
	}
	h, err := presburger.ParseUnionMap("[n, k, m] -> { " + strings.Join(cols, "; ") + " }")
	if err != nil {
		t.Fatal(err)
	}
	r := mustMap(t, "[n, k, m] -> { A[i0, i1] : i0 = k and 0 <= i1 < 80 }")
	f := mustMap(t, "[n, k, m] -> { : (0 <= k <= 7 and m >= 0 and m mod 3 = 0) or (0 <= k <= 5 and m >= 0 and m mod 3 = 1) }")
	d := h.Domain().MapOf(r.Space())
	if d.NumBasics() <= maxHullPieces {
		t.Fatalf("a heap of %d pieces, want more than %d", d.NumBasics(), maxHullPieces)
	}
	s := NewScope([]string{"n", "k", "m"})
	s.facts = f
	got, sg := withSteps(t, func(ctx context.Context) (*presburger.Map, error) {
		u, err := undefinedIn(ctx, presburger.NewUnionMap(r), site{scope: s, heap: &Heap{u: h}})
		if err != nil {
			return nil, err
		}
		return u.MapOf(r.Space()), nil
	})
	common, sc := withSteps(t, func(ctx context.Context) (*presburger.Map, error) {
		return undefinedUnder(ctx, r, d, f, commonFacts(f))
	})
	t.Logf("undefined reads in %d steps (%d pieces), under the common constraints alone %d (%d pieces)", sg, got.NumBasics(), sc, common.NumBasics())
	if sg >= sc {
		t.Errorf("undefined reads in %d steps, under the common constraints alone %d: want fewer", sg, sc)
	}
	want := mustMap(t, "[n, k, m] -> { A[i0, i1] : i0 = k and i1 = 40 and ((0 <= k <= 7 and m >= 0 and m mod 3 = 0) or (0 <= k <= 5 and m >= 0 and m mod 3 = 1)) }")
	if eq, err := got.IsEqual(t.Context(), want); err != nil || !eq {
		t.Fatalf("undefined reads %s, want %s (%v)", got, want, err)
	}
}

// withSteps runs fn under an unbounded allowance of Presburger steps and
// returns its result with the steps it counted; an error fails the test.
func withSteps[T any](t *testing.T, fn func(ctx context.Context) (T, error)) (T, int64) {
	t.Helper()
	a := presburger.NewAllowance(0)
	m, err := fn(presburger.WithAllowance(context.Background(), a))
	if err != nil {
		t.Fatal(err)
	}
	return m, a.Used()
}
