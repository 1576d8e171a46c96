package symeval

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/internal/quasiaffine"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

const redSpec = `param N
assume N >= 0
input A(k) : TYPE
tensor D() : TYPE
D() = reduce(+, k in 0 .. N, A(k))
output D
`

const redHead = `kernel dot(N)
assume N >= 0
in  a[k] : TYPE[N] = A(k)
out d[] : TYPE[] = D()
`

// redPair loads the sum of A over 0 .. N in type typ (renaming the
// parameter N to param) with the kernel body body.
func redPair(t *testing.T, typ, param, body string) *pair {
	t.Helper()
	fix := func(s string) string {
		return strings.NewReplacer("TYPE", typ, "N", param).Replace(s)
	}
	return loadPair(t, "r.sare", fix(redSpec), "r.sched", fix(redHead)+fix(body))
}

// redStatuses returns the kinds and statuses of the reduction conditions
// of p, one line each.
func redStatuses(t *testing.T, p *pair, ieee bool) []string {
	t.Helper()
	conds, err := reductionConditions(context.Background(), p.kernel, p.kinfo, p.spec, nil, ieee)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range conds {
		line := c.Text + ": " + c.Kind.String() + " " + c.Status.String()
		if c.Reason != "" {
			line += " (" + c.Reason + ")"
		}
		out = append(out, line)
	}
	return out
}

const redEvenOdd = `{
  alloc t : TYPE[2] {
    t[0] {D() @ ()} := 0
    t[1] {D() @ ()} := 0
    for k < N {
      t[k % 2] {D() @ (k)} += a[k]
    }
    d[] {D() @ ()} := 0
    d[] {D()} += t[1]
    d[] {D()} += t[0]
  }
}
`

// TestReductionModel checks the instance families of a kernel that
// splits a sum into even and odd positions and merges them: each
// assignment to an accumulator array, each read of one (a merge's read
// apart) and the out binding, in program order, with its array instance
// and its depth.
func TestReductionModel(t *testing.T) {
	p := redPair(t, "i32", "N", redEvenOdd)
	m := newRedModel(p.kernel, p.kinfo, p.spec)
	kinds := map[redKind]string{redInit: "init", redAcc: "acc", redMerge: "merge", redPlain: "plain",
		redRead: "read", redSource: "source", redOut: "out"}
	var got []string
	for _, f := range m.families {
		got = append(got, kinds[f.kind]+" "+f.key()+" depth "+string(rune('0'+f.depth())))
	}
	want := []string{
		"init t#1 depth 0", "init t#1 depth 0", "acc t#1 depth 1", "init d depth 0",
		"source t#1 depth 0", "merge d depth 0", "source t#1 depth 0", "merge d depth 0",
		"out d depth 0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("families:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range m.families {
		if f.kind == redMerge && (f.source == nil || f.source.merge != f) {
			t.Errorf("%s: merge without its source", f.name)
		}
	}
}

// TestReductionDomains checks the sets of instances and the relation of
// the last write on a kernel with a let, an if, a division and a
// remainder, against the same sets written in isl notation.
func TestReductionDomains(t *testing.T) {
	p := redPair(t, "i32", "N", `{
  alloc t : i32[2] {
    t[0] {D() @ ()} := 0
    t[1] {D() @ ()} := 0
    for q < (N + 1) / 2 {
      let k = 2 * q + 1
      if k < N {
        t[k % 2] {D() @ (k)} += a[k]
      }
      t[0] {D() @ (2 * q)} += a[2 * q]
    }
    d[] {D() @ ()} := 0
    d[] {D()} += t[1]
    d[] {D()} += t[0]
  }
}
`)
	ctx := context.Background()
	c := newRedCheck(ctx, p.kernel, p.kinfo, p.spec, nil, false)
	var acc []*redFamily
	for _, f := range c.m.families {
		if f.kind == redAcc {
			acc = append(acc, f)
		}
	}
	if len(acc) != 2 {
		t.Fatalf("%d accumulations, want 2", len(acc))
	}
	got, err := c.setOf(acc[0])
	if err != nil {
		t.Fatal(err)
	}
	equal(t, got, "[N] -> { "+acc[0].name+"[q] : 0 <= q < floor((N + 1)/2) and 2q + 1 < N }")
	// The accumulation into t[(2q + 1) % 2] = t[1] sees the
	// initialisation of t[1] as its last plain write.
	li, err := c.lastInit(acc[0])
	if err != nil {
		t.Fatal(err)
	}
	init1 := c.m.families[1]
	equal(t, li, "[N] -> { "+acc[0].name+"[q] -> "+init1.name+"[] : 0 <= q < floor((N + 1)/2) and 2q + 1 < N }")
}

// equal fails unless u is the union map written isl in isl notation.
func equal(t *testing.T, u *presburger.UnionMap, isl string) {
	t.Helper()
	want, err := presburger.ParseUnionMap(isl)
	if err != nil {
		t.Fatal(err)
	}
	ok, err := u.IsEqual(context.Background(), want)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Errorf("got %s, want %s", u, want)
	}
}

// TestReductionPieceAsWritten checks that a piece built through the
// engine's constructors is the piece isl's reader builds from the same
// piece written out, down to its printed form: named and unnamed
// dimensions, a dimension named again, nested tuples, parameters, and
// the connectives grouped as written.
func TestReductionPieceAsWritten(t *testing.T) {
	a0, a1, b0 := redDim("a0"), redDim("a1"), redDim("b0")
	n := redParam("N")
	add := func(x, y syntax.Expr) syntax.Expr { return &syntax.Binary{X: x, Op: syntax.OpAdd, Y: y} }
	div := func(x syntax.Expr, k int64) syntax.Expr { return &syntax.Binary{X: x, Op: syntax.OpDiv, Y: redInt(k)} }
	rem := func(x syntax.Expr, k int64) syntax.Expr { return &syntax.Binary{X: x, Op: syntax.OpRem, Y: redInt(k)} }
	for _, tc := range []struct {
		piece redPiece
		isl   string
	}{
		{redPiece{params: []string{"N"}, in: &redTuple{name: "S1", elems: []syntax.Expr{a0, a1}}, out: redTuple{name: "S2", elems: []syntax.Expr{b0}},
			cond: quasiaffine.And(redTrue(), redRange(redInt(0), a0, n), redRange(div(n, 4), a1, add(a0, redInt(1))),
				quasiaffine.Or(redCmp(a0, syntax.OpNe, b0), quasiaffine.Not(redCmp(rem(a1, 3), syntax.OpEq, redInt(1)))))},
			"[N] -> { S1[a0, a1] -> S2[b0] : 0 = 0 and 0 <= a0 < N and floor((N)/4) <= a1 < (a0) + (1) and (a0 != b0 or not ((a1) mod 3) = 1) }"},
		{redPiece{params: []string{"N"}, in: &redTuple{name: "S1", elems: []syntax.Expr{a0}},
			out: redTuple{elems: []syntax.Expr{add(a0, redInt(1)), redInt(0), redInt(3), a0, n}}},
			"[N] -> { S1[a0] -> [(a0) + (1), 0, 3, a0, N] }"},
		{redPiece{in: &redTuple{left: &redTuple{elems: redDims("j", 2)}, right: &redTuple{name: "S4", elems: []syntax.Expr{a0}}},
			out: redTuple{elems: []syntax.Expr{redDim("j0"), redDim("j1"), redInt(2), a0}}},
			"{ [[j0, j1] -> S4[a0]] -> [j0, j1, 2, a0] }"},
		{redPiece{params: []string{"N", "L0"}, out: redTuple{name: "d", elems: []syntax.Expr{redInt(2), redInt(-1)}},
			cond: quasiaffine.And(redCmp(n, syntax.OpEq, redInt(5)), redCmp(redParam("L0"), syntax.OpEq, redInt(-2)), redTrue())},
			"[N, L0] -> { d[2, -1] : N = 5 and L0 = -2 and 0 = 0 }"},
	} {
		got, err := redUnion(context.Background(), []redPiece{tc.piece})
		if err != nil {
			t.Fatalf("%s: %v", tc.isl, err)
		}
		want, err := presburger.ParseUnionMap(tc.isl)
		if err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("built %s\nread  %s", got, want)
		}
		equal(t, got, tc.isl)
	}
}

// TestReductionParamNames checks that the conditions do not depend on
// the names of the kernel's parameters, even those of the dimensions the
// checks use (c, j0, a0): a reversed float sum over c positions is
// re-ordered in the ieee model, and the sum in order is not.
func TestReductionParamNames(t *testing.T) {
	reversed := "{\n  d[] {D() @ ()} := 0\n  for k < N {\n    d[] {D() @ (N - 1 - k)} += a[N - 1 - k]\n  }\n}\n"
	inOrder := "{\n  d[] {D() @ ()} := 0\n  for k < N {\n    d[] {D() @ (k)} += a[k]\n  }\n}\n"
	for _, param := range []string{"N", "c", "d0", "j0", "a0", "q0"} {
		for _, tc := range []struct {
			body, want string
		}{
			{reversed, "out d[] : f32[] = D(): re-ordered float reduction failed"},
			{inOrder, "out d[] : f32[] = D(): re-ordered float reduction proved"},
		} {
			got := redStatuses(t, redPair(t, "f32", param, tc.body), true)
			found := false
			for _, l := range got {
				found = found || l == tc.want
				if strings.HasSuffix(l, " failed") && l != tc.want || strings.Contains(l, "undecided") {
					t.Errorf("parameter %s: %s", param, l)
				}
			}
			if !found {
				t.Errorf("parameter %s: no %q in\n%s", param, tc.want, strings.Join(got, "\n"))
			}
		}
	}
}

// TestReductionTransformed checks the transformed pair of the even and
// odd sum: the accumulation checks the body at its position and keeps
// the reduction element in the heap, the initialisations and merges have
// no value condition, and every transformed assignment maps back to the
// kernel's.
func TestReductionTransformed(t *testing.T) {
	p := redPair(t, "i32", "N", redEvenOdd)
	rp, err := TransformReductions(p.spec, p.kernel, p.kinfo)
	if err != nil {
		t.Fatal(err)
	}
	if rp.Spec.Tensor("D__val") == nil || rp.Spec.Tensor("D__at") == nil {
		t.Fatalf("transformed specification lacks D__val or D__at")
	}
	var lines []string
	sched.Walk(rp.Kernel.Body, func(s sched.Stmt) bool {
		if a, ok := s.(*sched.Assign); ok {
			o := rp.orig[a]
			if o == nil {
				t.Errorf("%s: no original", sched.StmtLine(a))
				return true
			}
			line := sched.StmtLine(a)
			switch {
			case rp.heapAnnot[a] != nil:
				line += " heap " + syntax.ExprString(rp.heapAnnot[a])
			case rp.noValue[a]:
				line += " no value"
			}
			if rp.accumulates[a] {
				line += ", accumulates"
			}
			lines = append(lines, line)
		}
		return true
	})
	want := []string{
		"t[0] {D()} := 0 no value",
		"t[1] {D()} := 0 no value",
		"t[k % 2] {D__at(k)} := a[k] heap D(), accumulates",
		"d[] {D()} := 0 no value",
		"d[] {D()} := t[1] no value, accumulates",
		"d[] {D()} := t[0] no value, accumulates",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("transformed:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}
