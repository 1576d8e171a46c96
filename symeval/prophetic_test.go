package symeval

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
)

func prophesy(t *testing.T, p *pair) *Prophecy {
	t.Helper()
	pr, err := Prophesy(context.Background(), p.kernel, p.kinfo, p.spec, Options{})
	if err != nil {
		t.Fatalf("%s: %v", p.kernel.Name.Name, err)
	}
	return pr
}

// named replaces the context names of a heap's text by tuple names of the
// table, so that expected heaps can be written with templates: each
// "«R(□1, □2, □3)»" becomes the name of that context.
func named(t *testing.T, cs *Contexts, text string) string {
	t.Helper()
	for _, c := range cs.All() {
		text = strings.ReplaceAll(text, "«"+c.String()+"»", c.Name)
	}
	if strings.Contains(text, "«") {
		t.Fatalf("unknown context in %s; known: %v", text, cs.All())
	}
	return text
}

// TestMatmulFig55 reproduces the prophetic heap of the matrix product of
// Clément 2022, Fig. 5.5: after the loop on k, c[i, j] holds R(i, j, P - 1)
// when P > 0 and R(i, j, -1) otherwise, for every 0 <= i < N, 0 <= j < M.
func TestMatmulFig55(t *testing.T) {
	ctx := context.Background()
	p := loadPair(t, "matmul.sare", readFile(t, "../examples/matmul/matmul.sare"),
		"matmul.sched", readFile(t, "../examples/matmul/matmul.sched"))
	pr := prophesy(t, p)
	want, err := presburger.ParseUnionMap(named(t, pr.Contexts,
		"[N, M, P] -> { c[i, j] -> «R(□1, □2, □3)»[i, j, P - 1] : 0 <= i < N and 0 <= j < M and P > 0; "+
			"c[i, j] -> «R(□1, □2, □3)»[i, j, -1] : 0 <= i < N and 0 <= j < M and P <= 0 }"))
	if err != nil {
		t.Fatal(err)
	}
	eq, err := pr.Delta.UnionMap().IsEqual(ctx, want)
	if err != nil {
		t.Fatal(err)
	}
	if !eq {
		t.Fatalf("Δh =\n%s\nwant\n%s", pr.Delta.Describe(pr.Contexts), want)
	}
	// The final heap adds the inputs, under the kernel's assumptions.
	wantFinal, err := presburger.ParseUnionMap(named(t, pr.Contexts,
		"[N, M, P] -> { c[i, j] -> «R(□1, □2, □3)»[i, j, P - 1] : 0 <= i < N and 0 <= j < M and P > 0 and N >= 1 and M >= 1; "+
			"c[i, j] -> «R(□1, □2, □3)»[i, j, -1] : 0 <= i < N and 0 <= j < M and P = 0 and N >= 1 and M >= 1; "+
			"a[i, k] -> «A(□1, □2)»[i, k] : 0 <= i < N and 0 <= k < P and M >= 1 and P >= 0; "+
			"b[k, j] -> «B(□1, □2)»[k, j] : 0 <= j < M and 0 <= k < P and N >= 1 }"))
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := pr.Final.UnionMap().IsEqual(ctx, wantFinal); err != nil || !eq {
		t.Fatalf("final heap (%v) =\n%s\nwant\n%s", err, pr.Final.Describe(pr.Contexts), wantFinal)
	}
}

// TestExamples computes the prophetic heap of every example kernel and
// compares it, instantiated at the parameters of its "augur run" line and
// at a few others, with the concrete prophetic run; for the kernels that
// sched.Run accepts, it also checks the value of every out cell.
func TestExamples(t *testing.T) {
	ctx := context.Background()
	pairs := examplePairs(t)
	if len(pairs) == 0 {
		t.Fatal("no examples found")
	}
	cells, outs := 0, 0
	for _, sk := range pairs {
		kernelText := readFile(t, sk[1])
		p := loadPair(t, sk[0], readFile(t, sk[0]), sk[1], kernelText)
		pr := prophesy(t, p)
		base := runParams(kernelText)
		for _, ps := range variants(base) {
			if !assumptionsHold(t, pr, ps) {
				continue
			}
			cells += compareHeap(t, ctx, p, pr, ps)
			if !strings.HasPrefix(filepath.Base(sk[1]), "broken") {
				outs += checkOutputs(t, ctx, p, pr, ps, 1)
			}
		}
	}
	t.Logf("%d kernels, %d cells compared with the concrete prophetic run, %d out cells evaluated", len(pairs), cells, outs)
}

// variants returns base and a few smaller parameter sets around it.
func variants(base map[string]int64) []map[string]int64 {
	out := []map[string]int64{base}
	for _, f := range []func(int64) int64{
		func(v int64) int64 { return min(v, 5) },
		func(v int64) int64 { return max(v/2, 1) },
		func(v int64) int64 { return 1 },
		func(v int64) int64 { return 0 },
	} {
		m := map[string]int64{}
		for k, v := range base {
			m[k] = f(v)
		}
		out = append(out, m)
	}
	return out
}

// assumptionsHold reports whether params satisfy the kernel's assumptions.
func assumptionsHold(t *testing.T, pr *Prophecy, params map[string]int64) bool {
	t.Helper()
	sp := pr.Assumptions.Space()
	pt := make([]presburger.Int, len(sp.Params))
	for i, p := range sp.Params {
		pt[i] = presburger.NewInt(params[p])
	}
	ok, err := pr.Assumptions.ContainsPoint(context.Background(), pt)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

const exampleSpec = `
param N
assume N >= 1
input A(i) : f32
tensor O(i) : f32
O(i) = A(i)
output O
`

// TestSeedExamples8And9 reproduces Examples 8 and 9 of Clément 2022 through
// kernels: the iterated update keeps, for every cell, the last write.
func TestSeedExamples8And9(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ name, body, want string }{
		{"example8", "for x < 4 { if x < N { o[x] {A(x + 2)} := a[x + 2] } }",
			"[N] -> { o[i] -> «A(□1)»[i + 2] : 0 <= i < 4 and i < N }"},
		{"example9", "for x < N { o[x % 4] {A(x + 3)} := a[x + 3] }",
			"[N] -> { o[i] -> «A(□1)»[N + 2 - ((N - 1 + 3i) mod 4)] : 0 <= i < 4 and i < N }"},
	} {
		kernel := "kernel " + c.name + `(N)
assume N >= 1
in  a[i] : f32[N + 3] = A(i)
out o[i] : f32[4] = O(i)
{
  ` + c.body + `
}
`
		p := loadPair(t, c.name+".sare", exampleSpec, c.name+".sched", kernel)
		pr := prophesy(t, p)
		want, err := presburger.ParseUnionMap(named(t, pr.Contexts, c.want))
		if err != nil {
			t.Fatal(err)
		}
		if eq, err := pr.Delta.UnionMap().IsEqual(ctx, want); err != nil || !eq {
			t.Errorf("%s: Δh (%v) =\n%s\nwant\n%s", c.name, err, pr.Delta.Describe(pr.Contexts), want)
		}
	}
}

// TestBudgetAndCancel checks that an exhausted budget and a cancelled
// context are errors, never a partial heap.
func TestBudgetAndCancel(t *testing.T) {
	p := loadPair(t, "matmul.sare", readFile(t, "../examples/matmul/matmul.sare"),
		"matmul_tiled.sched", readFile(t, "../examples/matmul/matmul_tiled.sched"))
	pr, err := Prophesy(context.Background(), p.kernel, p.kinfo, p.spec, Options{Budget: presburger.Budget{MaxSteps: 1}})
	if !errors.Is(err, presburger.ErrBudget) || pr != nil {
		t.Errorf("budget of 1 step: %v, %v", pr, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pr, err = Prophesy(ctx, p.kernel, p.kinfo, p.spec, Options{})
	if !errors.Is(err, context.Canceled) || pr != nil {
		t.Errorf("cancelled: %v, %v", pr, err)
	}
	if _, err := Prophesy(context.Background(), nil, nil, nil, Options{}); err == nil {
		t.Error("nil kernel: no error")
	}
}

// TestEffects checks the per-statement heaps of the matrix product
// against the annotations of Clément 2022, Fig. 5.5: one iteration of the
// loop on k writes R(i, j, k) into c[i, j]; the loop on k, then the body of
// the loop on j, leave R(i, j, P - 1) when P > 0.
func TestEffects(t *testing.T) {
	ctx := context.Background()
	p := loadPair(t, "matmul.sare", readFile(t, "../examples/matmul/matmul.sare"),
		"matmul.sched", readFile(t, "../examples/matmul/matmul.sched"))
	pr := prophesy(t, p)
	loops := map[string]*sched.Loop{}
	sched.Walk(p.kernel.Body, func(s sched.Stmt) bool {
		if l, ok := s.(*sched.Loop); ok {
			loops[l.Var.Name] = l
		}
		return true
	})
	check := func(what string, h *Heap, want string) {
		t.Helper()
		w, err := presburger.ParseUnionMap(named(t, pr.Contexts, want))
		if err != nil {
			t.Fatal(err)
		}
		if h == nil {
			t.Fatalf("%s: no heap", what)
		}
		if eq, err := h.UnionMap().IsEqual(ctx, w); err != nil || !eq {
			t.Errorf("%s (%v) =\n%s\nwant %s", what, err, h.Describe(pr.Contexts), w)
		}
	}
	body, x, ok := pr.IterationEffect(loops["k"])
	if !ok || x != "k" {
		t.Fatalf("loop k: %v %q", ok, x)
	}
	// Writes are restricted to the facts of their scope (Γ): the ranges
	// of the enclosing loops.
	check("iteration of k", body, "[N, M, P, i, j, k] -> { c[i, j] -> «R(□1, □2, □3)»[i, j, k] : 0 <= i < N and 0 <= j < M and 0 <= k < P }")
	check("loop on k", pr.Effect(loops["k"]), "[N, M, P, i, j] -> { c[i, j] -> «R(□1, □2, □3)»[i, j, P - 1] : P > 0 and 0 <= i < N and 0 <= j < M }")
	body, _, _ = pr.IterationEffect(loops["j"])
	check("iteration of j", body, "[N, M, P, i, j] -> { c[i, j] -> «R(□1, □2, □3)»[i, j, P - 1] : P > 0 and 0 <= i < N and 0 <= j < M; c[i, j] -> «R(□1, □2, □3)»[i, j, -1] : P <= 0 and 0 <= i < N and 0 <= j < M }")
	check("loop on i", pr.Effect(loops["i"]), "[N, M, P] -> { c[i, j] -> «R(□1, □2, □3)»[i, j, P - 1] : 0 <= i < N and 0 <= j < M and P > 0; c[i, j] -> «R(□1, □2, □3)»[i, j, -1] : 0 <= i < N and 0 <= j < M and P <= 0 }")
}

// copySpec is a specification whose output B copies the input A.
const copySpec = `param N
input A(i) : f32
tensor B(i) : f32
B(i) = A(i)
output B
`

// TestAssumptionsOption: Assumptions computes the domain the prophetic
// evaluation does, and the evaluation takes a domain given in Options as
// is instead of computing its own.
func TestAssumptionsOption(t *testing.T) {
	p := loadPair(t, "s.sare", copySpec, "k.sched", `kernel k(N)
assume N >= 2 and N % 4 == 1
in  a[i] : f32[N] = A(i)
out b[i] : f32[N] = B(i)
{
  for i < N { b[i] {B(i)} := a[i] }
}
`)
	ctx := context.Background()
	dom, err := Assumptions(ctx, p.kernel)
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := dom.IsEqual(ctx, prophesy(t, p).Assumptions); err != nil || !eq {
		t.Fatalf("Assumptions gives %s, the evaluation %s (%v)", dom, prophesy(t, p).Assumptions, err)
	}
	given, err := presburger.ParseMap("[N] -> { : N >= 9 }")
	if err != nil {
		t.Fatal(err)
	}
	pr, err := Prophesy(ctx, p.kernel, p.kinfo, p.spec, Options{Assumptions: given})
	if err != nil {
		t.Fatal(err)
	}
	if pr.Assumptions != given {
		t.Errorf("the evaluation computed %s instead of taking the domain given", pr.Assumptions)
	}
}

// TestWriteCommonFacts: a write under a tile whose start is a min (a
// compiler's shifted last tile) is restricted to the constraints the two
// conjunctions of its facts share, not split by them, and the loops'
// rules still leave exactly the cells the kernel writes.
func TestWriteCommonFacts(t *testing.T) {
	p := loadPair(t, "s.sare", copySpec, "k.sched", `kernel k(N)
assume N >= 8
in  a[i] : f32[N] = A(i)
out b[i] : f32[N] = B(i)
{
  for t < (N + 7) / 8 {
    let base = min(8 * t, N - 8)
    for i in base .. base + 8 { b[i] {B(i)} := a[i] }
  }
}
`)
	ctx := context.Background()
	pr := prophesy(t, p)
	var assign *sched.Assign
	var tile *sched.Loop
	sched.Walk(p.kernel.Body, func(s sched.Stmt) bool {
		switch s := s.(type) {
		case *sched.Assign:
			assign = s
		case *sched.Loop:
			if s.Var.Name == "t" {
				tile = s
			}
		}
		return true
	})
	w := pr.Effect(assign)
	if n := len(w.Maps()); n != 1 || w.Maps()[0].NumBasics() != 1 {
		t.Errorf("the write has %d maps, want 1 of 1 piece: %s", n, w.Describe(pr.Contexts))
	}
	want, err := presburger.ParseUnionMap(named(t, pr.Contexts, "[N] -> { b[i] -> «B(□1)»[i] : 0 <= i < N and N >= 8 }"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := pr.Effect(tile).Restrict(pr.Assumptions)
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := got.UnionMap().IsEqual(ctx, want); err != nil || !eq {
		t.Errorf("the loop on t writes %s (%v), want %s", got.Describe(pr.Contexts), err, want)
	}
}

// TestFinalHeapKeepsAssumptionsApart checks that the final heap under
// assumptions of several conjunctions is not multiplied by them: a piece
// that two conjunctions meet keeps only their common constraints, one
// that a single conjunction meets is restricted to it, and the heap is
// within the unrestricted one and equals it where the assumptions hold.
func TestFinalHeapKeepsAssumptionsApart(t *testing.T) {
	ctx := context.Background()
	m := mustMap(t, "[N, M] -> { A[i] -> E[h] : h = i and 0 <= i < N; A[i] -> E[h] : h = 2i and N <= i < 2N and M >= 20 }")
	a := mustMap(t, "[N, M] -> { : N >= 1 and M <= 4; : N >= 1 and 10 <= M <= 30; : N <= -5 }")
	got, err := finalHeap(ctx, &Heap{u: presburger.NewUnionMap(m)}, a)
	if err != nil {
		t.Fatal(err)
	}
	maps := got.UnionMap().Maps()
	if len(maps) != 1 {
		t.Fatalf("final heap of %d maps, want 1: %s", len(maps), got.UnionMap())
	}
	r := maps[0]
	// The first piece meets the first two conjunctions, the second only
	// the second (M >= 20): 2 pieces, not 3.
	if r.NumBasics() != 2 {
		t.Errorf("final heap of %d pieces, want 2: %s", r.NumBasics(), r)
	}
	checkKeptApart(t, r, m, a)
}
