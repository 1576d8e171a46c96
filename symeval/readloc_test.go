package symeval

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// clampScope returns the scope of a loop 0 <= i < N under the assumption
// N >= 8, in which the reads of clampCases are made.
func clampScope(t *testing.T) *Scope {
	t.Helper()
	assumed, err := presburger.ParseMap("[N] -> { : N >= 8 }")
	if err != nil {
		t.Fatal(err)
	}
	s := NewScope([]string{"N"}).WithAssumptions(assumed)
	s, x := s.With("i")
	bound, err := s.Range(x, mustExpr(t, "0"), mustExpr(t, "N"))
	if err != nil {
		t.Fatal(err)
	}
	if s, err = s.Assume(bound); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestReadLocationPrunes checks that readLocation keeps only the pieces
// of a clamped index that the facts and the assumptions allow, and that
// it is the location wherever they hold.
func TestReadLocationPrunes(t *testing.T) {
	ctx := context.Background()
	s := clampScope(t)
	known, err := s.Facts().Intersect(s.assumed)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		read   string
		pieces int // of the pruned location
	}{
		// Inside the loop's range the clamps never apply.
		{"a[max(min(i, N - 1), 0), max(min(i, N - 1), 0)]", 1},
		// The upper clamp applies near the end, the lower one never.
		{"a[max(min(i + 3, N - 1), 0), max(min(i, N - 1), 0)]", 2},
		// Both apply, at either end of the range.
		{"a[max(min(i + 3, N - 1), 0), max(min(i - 2, N - 1), 0)]", 4},
		// Few pieces are not worth pruning (maxUnprunedRead).
		{"a[max(min(i, N - 1), 0)]", 4},
	} {
		x, ok := mustExpr(t, tc.read).(*syntax.Index)
		if !ok {
			t.Fatalf("%s is not an array access", tc.read)
		}
		full, err := location(s, x)
		if err != nil {
			t.Fatal(err)
		}
		pruned, err := readLocation(ctx, s, x)
		if err != nil {
			t.Fatal(err)
		}
		if pruned.NumBasics() != tc.pieces || full.NumBasics() < tc.pieces {
			t.Errorf("%s: %d pieces pruned, %d unpruned, want %d pruned and at least as many unpruned", tc.read, pruned.NumBasics(), full.NumBasics(), tc.pieces)
		}
		a, err := full.IntersectParams(known)
		if err != nil {
			t.Fatal(err)
		}
		b, err := pruned.IntersectParams(known)
		if err != nil {
			t.Fatal(err)
		}
		if eq, err := a.IsEqual(ctx, b); err != nil || !eq {
			t.Errorf("%s: pruned location %s differs from %s under the facts and assumptions (%v)", tc.read, b, a, err)
		}
	}
}

// TestUnionAll checks that unionAll is the union of its parts, space by
// space, every piece kept in order.
func TestUnionAll(t *testing.T) {
	ctx := context.Background()
	srcs := []string{
		"[N] -> { a[i] : 0 <= i < 3; b[j] : j = N }",
		"[N] -> { a[i] : i = N }",
		"[N] -> { a[i] : 10 <= i < 20 }",
		"[N] -> { b[j] : j = 2N }",
		"[N] -> { a[i] : i = 2N + 1; c[k] : k = 0 }",
	}
	var parts []*presburger.UnionMap
	want := presburger.NewUnionMap()
	for _, src := range srcs {
		u, err := presburger.ParseUnionMap(src)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, u)
		want = want.Union(u)
	}
	got, err := unionAll(parts)
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := got.IsEqual(ctx, want); err != nil || !eq {
		t.Fatalf("unionAll = %s, want %s (%v)", got, want, err)
	}
	pieces := map[string]int{"a": 4, "b": 2, "c": 1}
	for _, m := range got.Maps() {
		if n := pieces[m.Space().Out.Name]; m.NumBasics() != n {
			t.Errorf("%s: %d pieces, want %d", m.Space().Out.Name, m.NumBasics(), n)
		}
		wm := want.MapOf(m.Space())
		for i, b := range m.Basics() {
			if b.String() != wm.Basics()[i].String() {
				t.Errorf("%s: piece %d is %s, want %s", m.Space().Out.Name, i, b, wm.Basics()[i])
			}
		}
	}
}

// prunedStorePair copies In to Out, stored at output[x, y] with the
// annotation Out(x - Z0, y - Z1): Z0 and Z1 are sums of seven
// min(P, 0) over distinct parameters, each 0 under the assumptions
// (every P >= 1) but of 128 pieces as translated, whose product in the
// store's cell map, the annotation's defined reads and its value
// obligation passes maxPieces. The read is input[x + shift, y].
func prunedStorePair(t *testing.T, shift int) *pair {
	t.Helper()
	z := func(ps string) string {
		var out []string
		for _, p := range strings.Split(ps, "") {
			out = append(out, "min("+p+", 0)")
		}
		return "(" + strings.Join(out, " + ") + ")"
	}
	const params = "W, H, A, B, C, D, E, F, G, K, L, M, N, P, Q, R"
	assume := "assume W >= 1 and H >= 1"
	for _, p := range strings.Split("ABCDEFGKLMNPQR", "") {
		assume += " and " + p + " >= 1"
	}
	spec := "param " + params + "\n" + assume + `
input In(x, y) : f32
tensor Out(x, y) : f32
Out(x, y) = In(x, y)
output Out
`
	kernel := "kernel k(" + params + ")\n" + assume + `
in input[x, y] : f32[W, H] = In(x, y)
out output[x, y] : f32[W, H] = Out(x, y)
{
  for y < H {
    par x < W {
      output[x, y] {Out(x - ` + z("ABCDEFG") + `, y - ` + z("KLMNPQR") + `)} := input[x + ` + fmt.Sprint(shift) + `, y]
    }
  }
}
`
	return loadPair(t, "s.sare", spec, "k.sched", kernel)
}

// TestPrunedStore: a store whose annotation's pieces, multiplied, pass
// maxPieces, though most cannot occur under the assumptions, is
// evaluated with them pruned under the facts and assumptions (the
// prophecy's cell map, the annotation's defined reads, the value
// obligation): every Presburger condition of the copy is proved, and a
// read one cell to the right fails at the last column. Without the
// pruning, the evaluation stops at the store: constraint has more than
// 4096 disjuncts.
func TestPrunedStore(t *testing.T) {
	ctx := context.Background()
	for _, shift := range []int{0, 1} {
		p := prunedStorePair(t, shift)
		a, err := Analyze(ctx, p.kernel, p.kinfo, p.spec, p.sinfo, AnalyzeOptions{})
		if err != nil {
			t.Fatalf("shift %d: %v", shift, err)
		}
		var failed []string
		obligations := 0
		for _, c := range a.Conditions {
			switch c.Status {
			case Failed:
				failed = append(failed, c.Kind.String())
			case Undecided:
				t.Errorf("shift %d: %s undecided: %s", shift, c.Kind, c.Reason)
			case Pending:
				obligations++
			}
		}
		want := "[]"
		if shift == 1 {
			want = "[out-of-bounds read]"
		}
		if got := fmt.Sprint(failed); got != want || obligations != 1 {
			t.Errorf("shift %d: failed %s and %d value obligations, want %s and 1", shift, got, obligations, want)
		}
	}
}
