package symeval

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// sharedSpec and sharedKernel write a buffer whose first cell holds A's
// value and the others Bz's, and read one of its cells three times in a
// value.
const sharedSpec = `param N
assume N >= 2
input In(x) : f32
tensor A(x) : f32
A(x) = In(x) + In(x)
tensor Bz(x) : f32
Bz(x) = In(x) * 2
tensor C(x) : f32
C(x) = A(x) * A(x) + A(x)
output C
`

const sharedKernel = `kernel shared(N)
assume N >= 2
in  input[x] : f32[N] = In(x)
out output[x] : f32[N] = C(x)
{
  alloc a : f32[N] {
    a[0] {A(0)} := input[0] + input[0]
    for i < N - 1 {
      a[i + 1] {Bz(i + 1)} := input[i + 1] * 2
    }
    for i < N {
      output[i] {C(i)} := a[i] * a[i] + a[i]
    }
  }
}
`

// TestJoinUses checks the uses of a product: a read held by both sides
// with one alternative pairs its holes, with two it has no product, and
// the right side's holes follow the left's.
func TestJoinUses(t *testing.T) {
	x := map[int]readUse{0: {alt: 1, holes: []int{0, 2}}, 1: {alt: 0, holes: []int{1}}}
	y := map[int]readUse{0: {alt: 1, holes: []int{1, 0}}, 2: {alt: 3, holes: []int{2}}}
	uses, same, ok := joinUses(x, 3, y)
	if !ok {
		t.Fatal("one alternative of read 0 on both sides: no product")
	}
	if want := [][2]int{{0, 4}, {2, 3}}; !slices.Equal(same, want) {
		t.Errorf("pairs %v, want %v", same, want)
	}
	if u := uses[2]; u.alt != 3 || !slices.Equal(u.holes, []int{5}) {
		t.Errorf("use of read 2 %+v, want alternative 3 at hole 5", u)
	}
	if u := uses[0]; !slices.Equal(u.holes, []int{0, 2}) {
		t.Errorf("use of read 0 %+v, want the left side's holes", u)
	}
	y[0] = readUse{alt: 2, holes: []int{1, 0}}
	if _, _, ok := joinUses(x, 3, y); ok {
		t.Error("two alternatives of read 0: a product")
	}
	if uses, same, ok := joinUses(nil, 2, nil); !ok || uses != nil || same != nil {
		t.Errorf("no uses: %v %v %v", uses, same, ok)
	}
}

// TestIdentifyHoles makes the holes of chained pairs one: the set is the
// original's points where the paired holes are equal, without the later
// holes, and the template and the uses name the first hole of each class.
func TestIdentifyHoles(t *testing.T) {
	ctx := context.Background()
	set, err := presburger.ParseMap("[x] -> { [h1, h2, h3, h4, h5] : 0 <= x <= 9 and h1 = x and h2 = 2x and h3 = x and 0 <= h4 <= x and h5 = h2; " +
		"[h1, h2, h3, h4, h5] : x >= 10 and h1 = x and h2 = 0 and h3 = h4 and h5 = 1 }")
	if err != nil {
		t.Fatal(err)
	}
	a := alternative{tmpl: holeCall(5), types: map[syntax.Expr]syntax.Type{}, holes: 5, set: set,
		uses: map[int]readUse{0: {alt: 0, holes: []int{2, 3, 4}}}}
	// 1 ~ 3 ~ 4 (chained, the pair (3, 4) given before (1, 3)), 2 ~ 5.
	got, err := identifyHoles(ctx, a, [][2]int{{2, 3}, {1, 4}, {0, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if s := syntax.ExprString(got.tmpl); s != "f(□1, □2, □1, □1, □2)" || got.holes != 2 {
		t.Errorf("template %s with %d holes, want f(□1, □2, □1, □1, □2) with 2", s, got.holes)
	}
	if u := got.uses[0]; !slices.Equal(u.holes, []int{0, 0, 1}) {
		t.Errorf("use %+v, want holes 0, 0, 1", u)
	}
	want, err := presburger.ParseMap("[x] -> { [h1, h2] : 0 <= x <= 9 and h1 = x and h2 = 2x; [h1, h2] : x >= 10 and h1 = x and h2 = 0 and h1 = 1 }")
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := got.set.IsEqual(ctx, want); err != nil || !eq {
		t.Errorf("set %s, want %s (%v)", got.set, want, err)
	}
}

// TestSharedReads evaluates a[i] * a[i] + a[i], whose cell holds one of
// two contexts: the three reads share one hole, two alternatives, and in
// a heap where every cell may hold either context, the products of the
// two (the cell read as two contents at once) are left out.
func TestSharedReads(t *testing.T) {
	ctx := context.Background()
	p := loadPair(t, "shared.sare", sharedSpec, "shared.sched", sharedKernel)
	pr := prophesy(t, p)
	s := NewScope([]string{"N"})
	s, _ = s.With("i")
	e := mustValue(t, p, "a[i] * a[i] + a[i]")
	for _, tc := range []struct {
		name, heap string
		want       []string
	}{
		{"one content a cell", "[N] -> { a[x] -> «A(□1)»[x] : x = 0; a[x] -> «Bz(□1)»[x] : 1 <= x < N }",
			[]string{"A(□1) * A(□1) + A(□1)", "Bz(□1) * Bz(□1) + Bz(□1)"}},
		{"either content", "[N] -> { a[x] -> «A(□1)»[x] : 0 <= x < N; a[x] -> «Bz(□1)»[x] : 0 <= x < N }",
			[]string{"A(□1) * A(□1) + A(□1)", "Bz(□1) * Bz(□1) + Bz(□1)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, err := presburger.ParseUnionMap(named(t, pr.Contexts, tc.heap))
			if err != nil {
				t.Fatal(err)
			}
			ev := &valueEval{ctx: ctx, cs: pr.Contexts, info: p.kinfo.Types, s: s, h: NewHeap(u)}
			alts, err := ev.eval(e)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range alts {
				if a.holes != 1 {
					t.Errorf("%s: %d holes, want 1", syntax.ExprString(a.tmpl), a.holes)
				}
				c := pr.Contexts.intern(a.tmpl, a.types, a.holes)
				got = append(got, c.String())
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("alternatives %s, want %s", strings.Join(got, "; "), strings.Join(tc.want, "; "))
			}
			if len(ev.shared) != 1 {
				t.Errorf("%d reads evaluated, want 1", len(ev.shared))
			}
		})
	}
}

// diffSpec and diffKernel compute the sum of two absolute differences of
// neighbouring cells of a buffer whose ends hold A's value and the others
// Bz's (camera_pipe's gradients have this form): twelve reads of three
// cells, each in three pieces (BenchmarkSharedReads).
const diffSpec = `param N
assume N >= 3
input In(x) : f32
tensor A(x) : f32
A(x) = In(x) + In(x)
tensor Bz(x) : f32
Bz(x) = In(x) * 2
tensor D(x) : f32
D(x) = select(A(x) < A(x + 1), A(x + 1) - A(x), A(x) - A(x + 1)) + select(A(x + 1) < A(x + 2), A(x + 2) - A(x + 1), A(x + 1) - A(x + 2))
output D
`

const diffKernel = `kernel diff(N)
assume N >= 3
in  input[x] : f32[N] = In(x)
out output[x] : f32[N - 2] = D(x)
{
  alloc a : f32[N] {
    a[0] {A(0)} := input[0] + input[0]
    a[N - 1] {A(N - 1)} := input[N - 1] + input[N - 1]
    for i < N - 2 {
      a[i + 1] {Bz(i + 1)} := input[i + 1] * 2
    }
    for i < N - 2 {
      output[i] {D(i)} := select(a[i] < a[i + 1], a[i + 1] - a[i], a[i] - a[i + 1]) + select(a[i + 1] < a[i + 2], a[i + 2] - a[i + 1], a[i + 1] - a[i + 2])
    }
  }
}
`

// diffHeap is the heap that diffKernel's value reads (diffSpec's
// contexts named as the helper named names them).
const diffHeap = "[N] -> { a[x] -> «A(□1)»[x] : x = 0; a[x] -> «A(□1)»[x] : x = N - 1 and N >= 3; a[x] -> «Bz(□1)»[x] : 1 <= x < N - 1 }"
