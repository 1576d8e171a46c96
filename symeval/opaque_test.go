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
