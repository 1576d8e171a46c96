package symeval

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// TestHoleSums checks the offset form of index expressions: the same for
// expressions that differ only in the constants of their sums (a missing
// constant being 0), different otherwise, and the expression again once
// its constants fill the holes.
func TestHoleSums(t *testing.T) {
	ctx := context.Background()
	s := clampScope(t)
	s, _ = s.With("m")
	for _, tc := range []struct {
		a, b   string
		same   bool
		consts []int64 // of a
	}{
		{"i + 2 - m", "i - m", true, []int64{2}},
		{"i + -1 - m", "i - m + 3", true, []int64{-1}},
		{"i - (m + 1)", "i - m", true, []int64{-1}},
		{"(i + m + 3) % 8", "(i + m) % 8", true, []int64{0, 3}},
		{"min(i + 1, N - 1) + 2", "min(i, N - 2)", true, []int64{2, 1, -1}},
		{"16 * i + 1", "8 * i + 1", false, []int64{1}},
		{"i + m", "i - m", false, []int64{0}},
		{"-i + 4", "i + 4", false, []int64{4}},
		{"7", "i", false, []int64{7}},
	} {
		var ca, cb []int64
		fa, fb := holeSums(mustExpr(t, tc.a), &ca), holeSums(mustExpr(t, tc.b), &cb)
		ka, kb := syntax.ExprString(fa), syntax.ExprString(fb)
		if (ka == kb) != tc.same {
			t.Errorf("%s and %s: offset forms %s and %s, want the same: %v", tc.a, tc.b, ka, kb, tc.same)
		}
		if !slices.Equal(ca, tc.consts) {
			t.Errorf("%s: constants %v, want %v", tc.a, ca, tc.consts)
		}
		// The form with its constants is the expression.
		fill := make([]syntax.Expr, len(ca))
		for k, c := range ca {
			fill[k] = intLit(c)
		}
		want, err := location(s, &syntax.Index{Array: &syntax.Ident{Name: "a"}, Indices: []syntax.Expr{mustExpr(t, tc.a)}})
		if err != nil {
			t.Fatal(err)
		}
		got, err := location(s, &syntax.Index{Array: &syntax.Ident{Name: "a"}, Indices: []syntax.Expr{fillHoles(fa, fill)}})
		if err != nil {
			t.Fatal(err)
		}
		if eq, err := got.IsEqual(ctx, want); err != nil || !eq {
			t.Errorf("%s: filled offset form %s is %s, want %s (%v)", tc.a, syntax.ExprString(fillHoles(fa, fill)), got, want, err)
		}
	}
}

// TestOffsetReads checks that offsetReads contains the reads, equals them
// when the offsets of the merged accesses fill their ranges, is larger
// when they do not, and merges only accesses that differ in constants.
func TestOffsetReads(t *testing.T) {
	ctx := context.Background()
	s := clampScope(t)
	for _, tc := range []struct {
		value  string
		merged bool
		exact  bool
		extra  string // a read of the superset that is not among the reads
	}{
		{"a[i - 1, 2] + a[i, 2] + a[i + 1, 2]", true, true, ""},
		{"a[i - 1, i + 1] + a[i - 1, i] + a[i, i + 1] + a[i, i]", true, true, ""},
		{"b[(i + 1) % 8] + b[(i + 3) % 8] + a[i, i]", true, false, "b[(i + 2) % 8]"},
		{"a[2 * i, 0] + a[2 * i + 3, 0] + b[i]", true, false, "a[2 * i + 1, 0]"},
		{"a[i, 0] + a[0, i] + b[i]", false, true, ""},
	} {
		e := mustExpr(t, tc.value)
		got, merged, err := offsetReads(ctx, s, e)
		if err != nil {
			t.Fatalf("%s: %v", tc.value, err)
		}
		if merged != tc.merged {
			t.Fatalf("%s: merged %v, want %v", tc.value, merged, tc.merged)
		}
		if !merged {
			continue
		}
		want, err := reads(ctx, s, e)
		if err != nil {
			t.Fatal(err)
		}
		if sub, err := want.IsSubset(ctx, got); err != nil || !sub {
			t.Fatalf("%s: offset reads %s do not contain the reads %s (%v)", tc.value, got, want, err)
		}
		if eq, err := got.IsEqual(ctx, want); err != nil || eq != tc.exact {
			t.Errorf("%s: offset reads %s equal to the reads %s: %v, want %v (%v)", tc.value, got, want, eq, tc.exact, err)
		}
		if tc.extra != "" {
			x, err := reads(ctx, s, mustExpr(t, tc.extra))
			if err != nil {
				t.Fatal(err)
			}
			if sub, err := x.IsSubset(ctx, got); err != nil || !sub {
				t.Errorf("%s: offset reads %s do not contain %s (%v)", tc.value, got, tc.extra, err)
			}
		}
		pieces := func(u *presburger.UnionMap) (n int) {
			for _, m := range u.Maps() {
				n += m.NumBasics()
			}
			return n
		}
		if pieces(got) >= pieces(want) {
			t.Errorf("%s: offset reads in %d pieces, the reads in %d", tc.value, pieces(got), pieces(want))
		}
	}
}

const stencilSpec = `
param N
assume N >= 4
input A(i) : f32
tensor T(i) : f32
T(i) = A(i)
tensor S(i) : f32
S(i) = T(i - 1) + T(i) + T(i + 1)
output S
`

const stencilKernel = `
kernel stencil(N)
assume N >= 4
in  a[i] : f32[N] = A(i)
out s[i] : f32[N - 2] = S(i + 1)
{
  alloc t : f32[N] {
    for x < N {
      t[x] {T(x)} := a[x]
    }
    for x < N - 2 {
      s[x] {S(x + 1)} := t[x] + t[x + 1] + t[x + 2]
    }
  }
}
`

// TestStencilUndefinedReads checks that the undefined reads of a stencil,
// which offsetReads decides first, are those of its reads one by one:
// none when its input is written, the cell left out otherwise.
func TestStencilUndefinedReads(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		kernel string
		undef  bool
	}{
		{stencilKernel, false},
		{strings.Replace(stencilKernel, "for x < N {", "for x < N - 1 {", 1), true},
		{strings.Replace(stencilKernel, "for x < N {", "for x in 1 .. N {", 1), true},
	} {
		p := loadPair(t, "stencil.sare", stencilSpec, "stencil.sched", tc.kernel)
		pr := prophesy(t, p)
		hb, err := heapsBefore(ctx, pr, p.kernel)
		if err != nil {
			t.Fatal(err)
		}
		seen := false
		for st, at := range hb {
			if st.Array.Name != "s" {
				continue
			}
			seen = true
			if _, merged, err := offsetReads(ctx, at.scope, st.Value); err != nil || !merged {
				t.Fatalf("%s: no offset reads (%v)", sched.StmtLine(st), err)
			}
			got, err := undefinedReads(ctx, st, at)
			if err != nil {
				t.Fatal(err)
			}
			r, err := reads(ctx, at.scope, st.Value)
			if err != nil {
				t.Fatal(err)
			}
			want, err := undefinedIn(ctx, r, at)
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range []**presburger.UnionMap{&got, &want} {
				if *u, err = (*u).IntersectParams(pr.Assumptions); err != nil {
					t.Fatal(err)
				}
			}
			if eq, err := got.IsEqual(ctx, want); err != nil || !eq {
				t.Errorf("%s: undefined reads %s, want %s (%v)", sched.StmtLine(st), got, want, err)
			}
			if empty, err := got.IsEmpty(ctx); err != nil || empty == tc.undef {
				t.Errorf("%s: undefined reads %s, want some: %v (%v)", sched.StmtLine(st), got, tc.undef, err)
			}
		}
		if !seen {
			t.Fatal("no assignment to s")
		}
	}
}
