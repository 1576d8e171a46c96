package symeval

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// TestOpaqueBounds: the bounds of a let kept as a symbol, by
// monotonicity; a definition of another symbol inside is its name.
func TestOpaqueBounds(t *testing.T) {
	none := func(syntax.Expr) (syntax.Expr, bool) { return nil, false }
	x := mustExpr(t, "2 * min(min(N, M / 2), 0) - 3")
	var up []string
	for _, u := range bounds(x, true, none) {
		up = append(up, syntax.ExprString(u))
	}
	want := []string{"2 * N - 3", "2 * (M / 2) - 3", "2 * 0 - 3"}
	if len(up) != len(want) {
		t.Fatalf("upper bounds %q, want %q", up, want)
	}
	for i := range want {
		if up[i] != want[i] {
			t.Errorf("upper bound %d: %s, want %s", i, up[i], want[i])
		}
	}
	if lo := bounds(x, false, none); len(lo) != 1 || syntax.ExprString(lo[0]) != "2 * min(min(N, M / 2), 0) - 3" {
		t.Errorf("lower bounds %v, want the expression itself", lo)
	}
	def := mustExpr(t, "min(0, N)")
	subst := func(e syntax.Expr) (syntax.Expr, bool) {
		if syntax.Equal(e, def) {
			return &syntax.Ident{Name: "p"}, true
		}
		return nil, false
	}
	lo := bounds(mustExpr(t, "max(N - 1, M) - min(0, N) + 1"), false, subst)
	if len(lo) != 2 || syntax.ExprString(lo[0]) != "N - 1 - p + 1" || syntax.ExprString(lo[1]) != "M - p + 1" {
		t.Errorf("lower bounds of the extent %v, want N - 1 - p + 1 and M - p + 1", lo)
	}
}

// TestOpaqueLetValue: a let of too many pieces over the parameters is
// a symbol, whose value at a point is its definition's, and whose facts
// are in the scope after it; over a loop variable it stays an error.
func TestOpaqueLetValue(t *testing.T) {
	nest := "N"
	for k := 1; k <= 8; k++ {
		nest = fmt.Sprintf("2 * max(min((%s + %d) / 2, M / %d), %d) - %d", nest, k, 1<<k, k%3, k)
	}
	ctx := context.Background()
	s, err := NewScope([]string{"N", "M"}).Let(ctx, "t", mustExpr(t, "min(N - 2, "+nest+")"))
	if err != nil {
		t.Fatal(err)
	}
	lets := s.opaque.lets()
	if len(lets) != 1 || lets[0].param != "t" {
		t.Fatalf("opaque lets %v, want t", lets)
	}
	for _, pt := range [][2]int64{{1, 1}, {7, 3}, {-5, 20}, {40, 9}} {
		got, ok := lets[0].opaqueValue(pt[0], pt[1])
		n, m := pt[0], pt[1]
		v := n
		for k := int64(1); k <= 8; k++ {
			v = 2*max(min(floorDivPos(v+k, 2), floorDivPos(m, 1<<k)), k%3) - k
		}
		if want := min(n-2, v); !ok || got != want {
			t.Errorf("t at N=%d, M=%d: %d (%v), want %d", n, m, got, ok, want)
		}
	}
	// t <= N - 2 is a fact after the let.
	bad, err := s.Constraint(mustExpr(t, "t > N - 2"))
	if err != nil {
		t.Fatal(err)
	}
	if bad, err = bad.Intersect(s.Facts()); err != nil {
		t.Fatal(err)
	}
	if empty, err := bad.IsEmpty(ctx); err != nil || !empty {
		t.Errorf("t > N - 2 under the facts: empty %v (%v), want empty", empty, err)
	}
}

// TestOpaqueLoopLet: a let inside a loop of too many pieces is a symbol
// named by its place, a function of the loop's variable: its facts are
// over the variable, its value at a point is its definition's at that
// iteration, and a heap over it is projected at the end of its block
// only when the projection is exact.
func TestOpaqueLoopLet(t *testing.T) {
	nest := "N"
	for k := 1; k <= 8; k++ {
		nest = fmt.Sprintf("2 * max(min((%s + %d) / 2, M / %d), %d) - %d", nest, k, 1<<k, k%3, k)
	}
	ctx := context.Background()
	root := NewScope([]string{"N", "M"})
	inner, i := root.With("i")
	s, err := inner.Let(ctx, "t", mustExpr(t, "min(i - 2, "+nest+")"))
	if err != nil {
		t.Fatal(err)
	}
	lets := s.opaque.lets()
	if len(lets) != 1 || !lets[0].inLoop || lets[0].param != "t@1.1" {
		t.Fatalf("opaque lets %+v, want t inside the loop, parameter t@1.1", lets)
	}
	// t <= i - 2 is a fact after the let, over the loop's variable.
	bad, err := s.Constraint(mustExpr(t, "t > i - 2"))
	if err != nil {
		t.Fatal(err)
	}
	if bad, err = bad.Intersect(s.Facts()); err != nil {
		t.Fatal(err)
	}
	if empty, err := bad.IsEmpty(ctx); err != nil || !empty {
		t.Errorf("t > i - 2 under the facts: empty %v (%v), want empty", empty, err)
	}
	// Its value at N = 40, M = 9 and i = 3 and 30.
	for _, iv := range []int64{3, 30} {
		env := map[string]int64{"N": 40, "M": 9, i: iv}
		vals, ok := s.opaque.opaqueValues(env, func(*opaqueLet) bool { return true })
		v := int64(40)
		for k := int64(1); k <= 8; k++ {
			v = 2*max(min(floorDivPos(v+k, 2), floorDivPos(9, 1<<k)), k%3) - k
		}
		if want := min(iv-2, v); !ok || vals["t@1.1"] != want {
			t.Errorf("t at i = %d: %d (%v), want %d", iv, vals["t@1.1"], ok, want)
		}
	}
	// A heap whose cells do not depend on t loses it at the end of the
	// block; one written at t does not.
	for _, c := range []struct {
		cells string
		exact bool
	}{{"i", true}, {"i - t + t", true}, {"t", false}} {
		m, err := s.IndexMap(mustExpr(t, c.cells))
		if err != nil {
			t.Fatal(err)
		}
		if m, err = m.IntersectParams(s.Facts()); err != nil {
			t.Fatal(err)
		}
		h, err := s.withoutLoopLets(ctx, inner, NewHeap(presburger.NewUnionMap(m)))
		var ll *errLoopLet
		switch {
		case c.exact && err != nil:
			t.Errorf("cells %s: %v, want the heap without t", c.cells, err)
		case c.exact && slices.Contains(h.Maps()[0].Space().Params, "t@1.1"):
			t.Errorf("cells %s: heap %s still over t", c.cells, h)
		case !c.exact && !errors.As(err, &ll):
			t.Errorf("cells %s: %v, want the writes depending on t", c.cells, err)
		}
	}
}

// TestOpaqueLoopLetCap: a let inside a loop whose translation takes more
// than maxLetSteps, though of fewer pieces than maxPieces (620, after
// more than 500,000 steps), is kept as a symbol once the cap is reached,
// the evaluation's allowance charged the cap's steps and little more.
func TestOpaqueLoopLetCap(t *testing.T) {
	params := []string{"N"}
	for k := 1; k <= 3; k++ {
		params = append(params, fmt.Sprintf("A%d", k), fmt.Sprintf("B%d", k))
	}
	allow := presburger.NewAllowance(10 * maxLetSteps)
	ctx := presburger.WithAllowance(context.Background(), allow)
	s := NewScope(params).charging(ctx)
	var err error
	lets := [][2]string{{"x0", "N"}, {"y0", "0"}}
	for k := 1; k <= 3; k++ {
		lets = append(lets,
			[2]string{fmt.Sprintf("x%d", k), fmt.Sprintf("max(min(x%d, B%d + N), A%d + N)", k-1, k, k)},
			[2]string{fmt.Sprintf("y%d", k), fmt.Sprintf("min(max(y%d, 0 - B%d), 0 - A%d)", k-1, k, k)})
	}
	for _, l := range lets {
		if s, err = s.Let(ctx, l[0], mustExpr(t, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	before := allow.Used()
	inner, _ := s.With("tx")
	in, err := inner.Let(ctx, "e", mustExpr(t, "max(x3, tx) - min(y3, tx) + max(x2, tx)"))
	if err != nil {
		t.Fatal(err)
	}
	if b := in.names["e"]; b.let != nil || b.v.Name != "e@1.1" {
		t.Errorf("e inside the loop bound to %+v, want the symbol e@1.1", b)
	}
	if used := allow.Used() - before; used < maxLetSteps || used > 2*maxLetSteps {
		t.Errorf("the let inside the loop used %d steps, want the cap %d and little more", used, maxLetSteps)
	}
}

// opaqueValue is o's value at N = n, M = m.
func (o *opaqueLet) opaqueValue(n, m int64) (int64, bool) {
	env := map[string]int64{"N": n, "M": m}
	return evalIndex(o.def, o.lookup, func(p string) (int64, bool) { v, ok := env[p]; return v, ok })
}

// TestLoopLetsKept: a loop's range that runs out of pieces over lets of
// the parameters names those lets (loopLets), and also the lets the walk
// had already kept as symbols, here t, so that the evaluation again
// keeps t at once rather than translate it until it runs out of pieces
// once more.
func TestLoopLetsKept(t *testing.T) {
	nest := "N"
	for k := 1; k <= 8; k++ {
		nest = fmt.Sprintf("2 * max(min((%s + %d) / 2, M / %d), %d) - %d", nest, k, 1<<k, k%3, k)
	}
	params := []string{"N", "M"}
	for k := 1; k <= 6; k++ {
		params = append(params, fmt.Sprintf("A%d", k), fmt.Sprintf("B%d", k))
	}
	ctx := context.Background()
	s, err := NewScope(params).Let(ctx, "t", mustExpr(t, "min(N - 2, "+nest+")"))
	if err != nil {
		t.Fatal(err)
	}
	s = boundsChain(t, s, [2]string{"x0", "N"}, [2]string{"y0", "0"})
	ll := chainRangeLets(t, s)
	if fmt.Sprint(ll.names) != "[x6 y6]" || fmt.Sprint(ll.kept) != "[t]" {
		t.Errorf("lets %v and kept %v, want [x6 y6] and [t]", ll.names, ll.kept)
	}
}

// boundsChain binds in s the lets first, then six levels of bounds
// x1, y1, ..., x6, y6, each level's clamped by the one below's (as
// Halide's bounds of a pyramid's levels) over the parameters N, A1..A6
// and B1..B6.
func boundsChain(t *testing.T, s *Scope, first ...[2]string) *Scope {
	t.Helper()
	lets := first
	for k := 1; k <= 6; k++ {
		lets = append(lets,
			[2]string{fmt.Sprintf("x%d", k), fmt.Sprintf("max(min(x%d, B%d + N), A%d + N)", k-1, k, k)},
			[2]string{fmt.Sprintf("y%d", k), fmt.Sprintf("min(max(y%d, 0 - B%d), 0 - A%d)", k-1, k, k)})
	}
	for _, l := range lets {
		var err error
		if s, err = s.Let(context.Background(), l[0], mustExpr(t, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// chainRangeLets returns the lets that a loop in s over the range
// [0, (x6 - y6 + 3) / 4] of boundsChain's last level, which runs out of
// pieces, names to keep (Scope.rangeLets).
func chainRangeLets(t *testing.T, s *Scope) *loopLets {
	t.Helper()
	inner, x := s.With("tx")
	lo, hi := mustExpr(t, "0"), mustExpr(t, "(x6 - y6 + 3) / 4")
	_, err := inner.Range(x, lo, hi)
	var ll *loopLets
	if !errors.As(s.rangeLets(err, lo, hi), &ll) {
		t.Fatalf("range: %v, want it out of pieces over lets to keep", err)
	}
	return ll
}

// TestLoopLetsKeptInLoop: inside a loop, a loop's range that runs out
// of pieces over lets names them and the lets inside the loop that
// their definitions read, down the chain (as Halide's bounds of a
// pyramid's levels, each read from the level below), so that one more
// evaluation keeps the whole chain as symbols; the lets outside the
// loop they read are not named.
func TestLoopLetsKeptInLoop(t *testing.T) {
	params := []string{"N"}
	for k := 1; k <= 6; k++ {
		params = append(params, fmt.Sprintf("A%d", k), fmt.Sprintf("B%d", k))
	}
	ctx := context.Background()
	s, err := NewScope(params).Let(ctx, "x0", mustExpr(t, "max(N, A1)"))
	if err != nil {
		t.Fatal(err)
	}
	s, _ = s.With("o")
	s = boundsChain(t, s, [2]string{"y0", "min(0, o)"})
	ll := chainRangeLets(t, s)
	if got, want := fmt.Sprint(ll.names), "[x6 y6 x5 y5 x4 y4 x3 y3 x2 y2 x1 y1 y0]"; got != want {
		t.Errorf("lets %s, want %s", got, want)
	}
}

// TestOpaqueLoopLetViolations: violations over a let inside a loop kept
// as a symbol are kept at the sampled iteration, where the symbol has
// the let's value; once the loop's variable is projected out the value
// is not known, and the violations are not kept. The facts of a let
// inside a loop restrict only the sets over its symbol.
func TestOpaqueLoopLetViolations(t *testing.T) {
	nest := "N"
	for k := 1; k <= 8; k++ {
		nest = fmt.Sprintf("2 * max(min((%s + %d) / 2, M / %d), %d) - %d", nest, k, 1<<k, k%3, k)
	}
	ctx := context.Background()
	inner, i := NewScope([]string{"N", "M"}).With("i")
	s, err := inner.Let(ctx, "t", mustExpr(t, "min(i - 2, "+nest+")"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.IndexMap(mustExpr(t, "t"))
	if err != nil {
		t.Fatal(err)
	}
	if m, err = m.IntersectParams(s.Facts()); err != nil {
		t.Fatal(err)
	}
	u := presburger.NewUnionMap(m)
	r, _, ok, err := s.opaque.restrictToDefined(ctx, u, []string{"N", "M"})
	if err != nil || !ok {
		t.Fatalf("violations at t: kept %v (%v), want kept", ok, err)
	}
	sp, pt, err := r.Sample(ctx)
	if err != nil || pt == nil {
		t.Fatalf("sample: %v", err)
	}
	env := map[string]int64{}
	for k, p := range sp.Params {
		env[p], _ = pt[k].Int64()
	}
	v, _ := pt[len(sp.Params)].Int64()
	if want, ok := evalIndex(mustExpr(t, "min(i - 2, "+nest+")"), s.translator().lookup, func(p string) (int64, bool) { x, ok := env[p]; return x, ok }); !ok || v != want {
		t.Errorf("violation at %v: t = %d, want its value %d", env, v, want)
	}
	if _, ok := env[i]; !ok {
		t.Errorf("violation at %v: no loop variable %s", env, i)
	}
	// Over two iterations projected out, t's value is not known.
	proj, err := m.ProjectOut(presburger.DimParam, paramIndex(m.Space(), i), 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := s.opaque.restrictToDefined(ctx, presburger.NewUnionMap(proj), []string{"N", "M"}); err != nil || ok {
		t.Errorf("violations without the loop variable: kept %v (%v), want not", ok, err)
	}
	// A set not over t keeps every point under t's facts.
	other := presburger.Universe(presburger.ParamSpace([]string{"N", "M", i}))
	w, err := s.opaque.withFacts(presburger.NewUnionMap(other))
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := w.IsEqual(ctx, presburger.NewUnionMap(other)); err != nil || !eq {
		t.Errorf("facts of t on a set not over it: %s, want the set unchanged (%v)", w, err)
	}
}

// storeLetsPair is a copy through a buffer b inside a loop over rows,
// stored at x - lo0, y - lo1 and read back at x - lo0 + shift, y - lo1:
// lo0 and lo1, lets inside the loop, are nests of min and max through
// three levels of the parameters A1..A3, B1..B3 (as Halide's realized
// region of a pyramid's level) of tens of conjunctions each, whose
// product in the store's cell map passes maxPieces.
func storeLetsPair(t *testing.T, shift int) *pair {
	t.Helper()
	nest := func(v string) string {
		e := "y"
		for k := 1; k <= 3; k++ {
			e = fmt.Sprintf("max(min(%s, B%d + %s), A%d - %s)", e, k, v, k, v)
		}
		return e
	}
	const params = "W, H, A1, B1, A2, B2, A3, B3"
	spec := "param " + params + `
assume W >= 1 and H >= 1
input In(x, y) : f32
tensor Out(x, y) : f32
Out(x, y) = In(x, y)
output Out
`
	kernel := "kernel k(" + params + `)
assume W >= 1 and H >= 1
in input[x, y] : f32[W, H] = In(x, y)
out output[x, y] : f32[W, H] = Out(x, y)
{
  for y < H {
    let lo0 = min(` + nest("W") + `, 0)
    let lo1 = min(` + nest("H") + `, y)
    alloc b : f32[W - lo0, y - lo1 + 1] {
      par x < W {
        b[x - lo0, y - lo1] {Out(x, y)} := input[x, y]
      }
      par x < W {
        output[x, y] {Out(x, y)} := b[x - lo0 + ` + fmt.Sprint(shift) + `, y - lo1]
      }
    }
  }
}
`
	return loadPair(t, "s.sare", spec, "k.sched", kernel)
}

// TestStoreLetsKept: a store whose cell map runs out of pieces over lets
// of many conjunctions (storeLets) is evaluated again with those lets
// kept as symbols of the iteration: every Presburger condition of the
// copy is proved, and the read one cell to the right is out of bounds
// at the last column, a failure at a point where lo0 has its value.
// Without the lets kept, the evaluation stops at the store: constraint
// has more than 4096 disjuncts.
func TestStoreLetsKept(t *testing.T) {
	ctx := context.Background()
	for _, shift := range []int{0, 1} {
		p := storeLetsPair(t, shift)
		a, err := Analyze(ctx, p.kernel, p.kinfo, p.spec, p.sinfo, AnalyzeOptions{})
		if err != nil {
			t.Fatalf("shift %d: %v", shift, err)
		}
		var failed []string
		for _, c := range a.Conditions {
			switch c.Status {
			case Failed:
				failed = append(failed, fmt.Sprintf("%s %s", c.Kind, c.Text))
			case Undecided:
				t.Errorf("shift %d: %s %s undecided: %s", shift, c.Kind, c.Text, c.Reason)
			}
		}
		want := "[]"
		if shift == 1 {
			want = "[out-of-bounds read output[x, y] {Out(x, y)} := b[x - lo0 + 1, y - lo1]]"
		}
		if got := fmt.Sprint(failed); got != want {
			t.Errorf("shift %d: failed %s, want %s", shift, got, want)
		}
	}
}

// TestStoreLetsNamed: storeLets names the lets of more than
// maxStoreLetConjs conjunctions that a store reads, not the others, and
// only for a translation out of pieces.
func TestStoreLetsNamed(t *testing.T) {
	ctx := context.Background()
	nest := "y"
	for k := 1; k <= 3; k++ {
		nest = fmt.Sprintf("max(min(%s, B%d + W), A%d - W)", nest, k, k)
	}
	s, _ := NewScope([]string{"W", "A1", "B1", "A2", "B2", "A3", "B3"}).With("y")
	var err error
	for _, l := range [][2]string{{"lo", "min(" + nest + ", 0)"}, {"base", "min(8 * y, W - 8)"}} {
		if s, err = s.Let(ctx, l[0], mustExpr(t, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	if n := conjunctions(s.names["lo"].let); n <= maxStoreLetConjs {
		t.Fatalf("lo has %d conjunctions, want more than %d", n, maxStoreLetConjs)
	}
	out := budgetError("constraint has more than 4096 disjuncts")
	var ll *loopLets
	if !errors.As(s.storeLets(out, mustExpr(t, "base - lo"), mustExpr(t, "base")), &ll) || fmt.Sprint(ll.names) != "[lo]" {
		t.Errorf("store over lo and base: %v, want lo to keep", ll)
	}
	if err := s.storeLets(out, mustExpr(t, "base")); err != error(out) {
		t.Errorf("store over base: %v, want the error itself", err)
	}
	other := errors.New("other")
	if err := s.storeLets(other, mustExpr(t, "lo")); err != other {
		t.Errorf("store over lo failing otherwise: %v, want the error itself", err)
	}
}
