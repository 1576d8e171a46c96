package symeval

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// specLoad parses and checks a specification.
func specLoad(t *testing.T, name, text string) (*sare.Spec, *expr.Info) {
	t.Helper()
	spec, info, err := sare.Load(&syntax.Source{Name: name, Text: text})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return spec, info
}

// specAnalyze analyses a specification given as text.
func specAnalyze(t *testing.T, text string) *specAnalysis {
	t.Helper()
	spec, info := specLoad(t, "test.sare", text)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	a, err := analyzeSpec(ctx, spec, info)
	if err != nil {
		t.Fatalf("analyze: %v\n%s", err, text)
	}
	return a
}

// specSetEqual fails unless m is the set written want.
func specSetEqual(t *testing.T, what string, m *presburger.Map, want string) {
	t.Helper()
	if m == nil {
		t.Errorf("%s: nil, want %s", what, want)
		return
	}
	w, err := presburger.ParseSet(want)
	if err != nil {
		t.Fatalf("%s: %v", want, err)
	}
	eq, err := m.IsEqual(context.Background(), w)
	if err != nil {
		t.Fatal(err)
	}
	if !eq {
		t.Errorf("%s = %s, want %s", what, m, want)
	}
}

// specIssuesOf returns the issues of a kind.
func specIssuesOf(a *specAnalysis, k specIssueKind) []specIssue {
	var out []specIssue
	for _, i := range a.issues {
		if i.Kind == k {
			out = append(out, i)
		}
	}
	return out
}

// specDefinedIsDomain fails unless every computed tensor's defined set is
// its whole domain.
func specDefinedIsDomain(t *testing.T, a *specAnalysis) {
	t.Helper()
	if len(a.domains) == 0 {
		t.Fatal("no computed tensor analysed")
	}
	for name, dom := range a.domains {
		def := a.defined[name]
		if def == nil {
			t.Errorf("%s: no defined set", name)
			continue
		}
		eq, err := def.IsEqual(context.Background(), dom)
		if err != nil {
			t.Fatal(err)
		}
		if !eq {
			t.Errorf("%s: defined %s, domain %s", name, def, dom)
		}
	}
}

// TestSpecExamples: the bundled specifications are well defined
// everywhere in their domains.
func TestSpecExamples(t *testing.T) {
	for _, f := range []string{"matmul/matmul.sare", "outer/outer.sare", "blur/blur.sare"} {
		t.Run(f, func(t *testing.T) {
			a := specAnalyze(t, readFile(t, filepath.Join("..", "examples", f)))
			for _, i := range a.issues {
				t.Errorf("issue: %s", i)
			}
			specDefinedIsDomain(t, a)
		})
	}
	a := specAnalyze(t, readFile(t, filepath.Join("..", "examples", "matmul", "matmul.sare")))
	specSetEqual(t, "domain of R", a.domains["R"], "[N, M, P] -> { R[i, j, k] : N >= 1 and M >= 1 and P >= 0 and -1 <= k < P }")
	specSetEqual(t, "domain of C", a.domains["C"], "[N, M, P] -> { C[i, j] : N >= 1 and M >= 1 and P >= 0 }")
}

// TestSpecCorpus: the corpus's specifications marked ILL-DEFINED have a
// definite issue; the others have none, and every tensor has a proven
// defined set.
func TestSpecCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "corpus", "*.sare"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus specifications: %v", err)
	}
	ill := 0
	for _, f := range files {
		text := readFile(t, f)
		a := specAnalyze(t, text)
		if strings.Contains(text, "ILL-DEFINED") {
			ill++
			if !a.definite() {
				t.Errorf("%s: no definite issue in an ill-defined specification (issues %v)", f, a.issues)
			}
			continue
		}
		if a.definite() {
			t.Errorf("%s: issues %v", f, a.issues)
		}
		for name, d := range a.defined {
			if d == nil {
				t.Errorf("%s: no defined set for %s (issues %v)", f, name, a.issues)
			}
		}
	}
	if ill == 0 {
		t.Error("no ill-defined specification in the corpus")
	}
	// The corpus's overlap: exactly at x == N / 2.
	a := specAnalyze(t, readFile(t, filepath.Join("..", "testdata", "corpus", "overlap.sare")))
	if ov := specIssuesOf(a, specOverlap); len(ov) != 1 || !ov[0].Definite {
		t.Errorf("overlap.sare: issues %v", a.issues)
	} else {
		specSetEqual(t, "overlap.sare", ov[0].Points, "[N] -> { Out[x] : N >= 2 and x = floor(N / 2) }")
	}
}

// TestSpecScalars: zero-dimensional tensors.
func TestSpecScalars(t *testing.T) {
	a := specAnalyze(t, specHeader+`
tensor S() : f32
S() = A(0) + 1
tensor P(i) : f32
P(i) = S() * A(i) where 0 <= i < N
output P
`)
	if len(a.issues) != 0 {
		t.Errorf("issues %v", a.issues)
	}
	specDefinedIsDomain(t, a)
	specSetEqual(t, "defined S", a.defined["S"], "[N] -> { S[] : N >= 1 }")
	a = specAnalyze(t, specHeader+`
tensor S() : f32
S() = S() + 1
output S
`)
	if cy := specIssuesOf(a, specCycle); len(cy) != 1 || !cy[0].Definite || a.defined["S"] != nil {
		t.Errorf("issues %v, defined %v; want a definite cycle", a.issues, a.defined)
	}
}

// TestSpecCancel: a cancelled analysis is an error, not a pass.
func TestSpecCancel(t *testing.T) {
	spec, info := specLoad(t, "matmul.sare", readFile(t, filepath.Join("..", "examples", "matmul", "matmul.sare")))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if a, err := analyzeSpec(ctx, spec, info); err == nil {
		t.Errorf("cancelled analysis succeeded: issues %v, defined %v", a.issues, a.defined)
	}
}

const specHeader = `
param N
assume N >= 1
input A(i) : f32
`

// TestSpecOverlap: the overlap of two equations is reported with its
// exact points, which are not defined.
func TestSpecOverlap(t *testing.T) {
	a := specAnalyze(t, specHeader+`
tensor T(i) : f32
T(i) = A(i) where 0 <= i < N
T(i) = 0 where N - 2 <= i <= N
output T
`)
	ov := specIssuesOf(a, specOverlap)
	if len(ov) != 1 {
		t.Fatalf("overlap issues %v, want one", a.issues)
	}
	if !ov[0].Definite || ov[0].Tensor != "T" || ov[0].Eq != [2]int{0, 1} || ov[0].Pos.Line != 8 || ov[0].Text != "T(i) = 0 where N - 2 <= i <= N" {
		t.Errorf("overlap issue %+v", ov[0])
	}
	specSetEqual(t, "overlap", ov[0].Points, "[N] -> { T[i] : N >= 1 and 0 <= i < N and i >= N - 2 }")
	specSetEqual(t, "defined T", a.defined["T"], "[N] -> { T[i] : N >= 1 and ((0 <= i < N - 2) or i = N or N - 2 <= i < 0) }")
	if len(a.issues) != 1 {
		t.Errorf("issues %v, want only the overlap", a.issues)
	}
	if !a.definite() {
		t.Error("overlap not definite")
	}

	// Disjoint domains: no issue.
	a = specAnalyze(t, specHeader+`
tensor T(i) : f32
T(i) = A(i) where 0 <= i < N
T(i) = 0 where N <= i <= N + 3 or i < 0
output T
`)
	if len(a.issues) != 0 {
		t.Errorf("issues %v", a.issues)
	}
	specDefinedIsDomain(t, a)
}

// TestSpecCycle: a point reading itself is a definite cycle.
func TestSpecCycle(t *testing.T) {
	a := specAnalyze(t, specHeader+`
tensor T(i) : f32
T(i) = T(i) + 1 where 0 <= i < N
output T
`)
	cy := specIssuesOf(a, specCycle)
	if len(cy) != 1 || !cy[0].Definite || cy[0].Eq != [2]int{0, -1} {
		t.Fatalf("issues %v, want one definite cycle", a.issues)
	}
	specSetEqual(t, "cycle", cy[0].Points, "[N] -> { T[i] : N >= 1 and 0 <= i < N }")
	if a.defined["T"] != nil {
		t.Errorf("defined T = %s, want unproven", a.defined["T"])
	}
	// A cycle at one point only, and a reader of T: neither is proven.
	a = specAnalyze(t, specHeader+`
tensor T(i) : f32
T(i) = T(max(i - 1, 3)) where 0 <= i < N
tensor U(i) : f32
U(i) = T(i) + A(i)
output U
`)
	cy = specIssuesOf(a, specCycle)
	if len(cy) != 1 || !cy[0].Definite {
		t.Fatalf("issues %v, want one definite cycle", a.issues)
	}
	specSetEqual(t, "cycle", cy[0].Points, "[N] -> { T[i] : i = 3 and N >= 4 }")
	if a.defined["T"] != nil || a.defined["U"] != nil {
		t.Errorf("defined %v, want T and U unproven", a.defined)
	}
}

// TestSpecDescent: an infinite descent is never proven well founded.
func TestSpecDescent(t *testing.T) {
	for _, text := range []string{`
tensor T(i) : f32
T(i) = T(i - 1) + 1
output T
`, `
tensor T(i) : f32
T(i) = T(i - 1) + 1 where i < N
output T
`, `
tensor T(i) : f32
T(i) = T(i - 1) + 1 where 0 <= i < N
`, `
tensor T(i, j) : f32
T(i, j) = T(i, j - 1) + 1 where 0 <= i < N
output T
`, `
tensor T(i, j) : f32
T(i, j) = T(i - 1, j + 1) where 0 <= j < N
output T
`} {
		a := specAnalyze(t, specHeader+text)
		if a.defined["T"] != nil {
			if empty, _ := a.defined["T"].IsEmpty(context.Background()); !empty {
				t.Errorf("%s: defined T = %s", text, a.defined["T"])
			}
		}
		un := specIssuesOf(a, specUnfounded)
		if len(un) == 0 || un[0].Definite {
			t.Errorf("%s: issues %v, want an unfounded issue", text, a.issues)
		}
	}
}

// TestSpecLongChain: a restriction of the defined set crosses a chain of
// tensors longer than the analysis's rounds: each round restricts the
// tensors in declaration order against the sets already restricted.
func TestSpecLongChain(t *testing.T) {
	var b strings.Builder
	b.WriteString(specHeader + "tensor T0(i) : f32\nT0(i) = A(i) where 0 <= i < N\n")
	n := 3 * specRounds
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&b, "tensor T%d(i) : f32\nT%d(i) = T%d(i) + 1\n", k, k, k-1)
	}
	fmt.Fprintf(&b, "output T%d\n", n)
	a := specAnalyze(t, b.String())
	if un := specIssuesOf(a, specUnfounded); len(un) > 0 {
		t.Fatalf("unfounded issues %v, want none", un)
	}
	specSetEqual(t, "defined set of the last tensor", a.defined[fmt.Sprintf("T%d", n)], fmt.Sprintf("[N] -> { T%d[i] : N >= 1 and 0 <= i < N }", n))
}

// TestSpecManyReads: an equation that reads a tensor of two pieces at
// many offsets. Restricting its defined set read after read pairs every
// piece with every piece of each read's preimage: unchecked, the pieces
// double with each read (2^18 here); within the budget
// they are tidied as they grow, and the defined set is exact.
func TestSpecManyReads(t *testing.T) {
	var b strings.Builder
	b.WriteString(specHeader + "tensor U(i) : f32\nU(i) = A(i) where 0 <= i < N\nU(i) = A(i) + 1 where 2 * N <= i < 3 * N\n")
	b.WriteString("tensor T(i) : f32\nT(i) = U(i)")
	const reads = 18
	for k := 1; k < reads; k++ {
		fmt.Fprintf(&b, " + U(i + %d)", k)
	}
	b.WriteString(" where 0 <= i < 3 * N\noutput T\n")
	a := specAnalyze(t, b.String())
	specSetEqual(t, "defined U", a.defined["U"], "[N] -> { U[i] : N >= 1 and (0 <= i < N or 2N <= i < 3N) }")
	specSetEqual(t, "defined T", a.defined["T"], fmt.Sprintf("[N] -> { T[i] : N >= %d and (0 <= i < N - %d or 2N <= i < 3N - %d) }", reads, reads-1, reads-1))
}

// TestSpecWellFounded: recurrences with a base case are well defined.
func TestSpecWellFounded(t *testing.T) {
	for _, text := range []string{`
tensor T(i) : f32
T(i) = T(i - 1) + 1 where 0 < i < N
T(i) = 0 where i == 0
output T
`, `
tensor T(i) : f32
T(i) = T(i + 1) + 1 where 0 <= i < N
T(i) = 0 where i == N
output T
`, `
tensor E(i) : f32
E(i) = O(i - 1) where 0 < i < N
E(i) = 1 where i == 0
tensor O(i) : f32
O(i) = E(i - 1) + A(i) where 0 < i < N
O(i) = 0 where i == 0
output E
`, `
tensor R(i, k) : f32
R(i, k) = R(i, k - 1) + A(k) where 0 <= k < N
R(i, k) = A(i) where k == -1
output R
`, `
tensor R(i, k) : f32
R(i, k) = R(i - 1, k + 5) + S(i, k) where 0 < i < N
R(i, k) = S(i, k) where i == 0
tensor S(i, k) : f32
S(i, k) = R(i - 1, k) where 0 < i < N
S(i, k) = A(k) where i <= 0
output R
`, `
tensor F(i) : f32
F(i) = F(i - 1) + F(i - 2) where 2 <= i < N
F(i) = 1 where 0 <= i < 2
tensor G(i) : f32
G(i) = F(i / 2) + G(i - 3) where 3 <= i < N
G(i) = F(i % 2) where 0 <= i < 3
output G
`} {
		a := specAnalyze(t, specHeader+text)
		for _, i := range a.issues {
			t.Errorf("%s: issue %s", text, i)
		}
		specDefinedIsDomain(t, a)
	}
}

// TestSpecMutualRecursion: mutual recursions that do not descend.
func TestSpecMutualRecursion(t *testing.T) {
	// A cycle through two tensors at the same index is definite.
	a := specAnalyze(t, specHeader+`
tensor E(i) : f32
E(i) = O(i) + F(i) where 0 <= i < N
tensor O(i) : f32
O(i) = E(i) where 2 <= i < N
O(i) = F(i) where 0 <= i < min(2, N)
tensor F(i) : f32
F(i) = A(i) where 0 <= i < N
output E
`)
	if len(a.issues) != 1 || a.issues[0].Kind != specCycle || !a.issues[0].Definite || a.issues[0].Tensor != "E" {
		t.Fatalf("issues %v, want one definite cycle", a.issues)
	}
	specSetEqual(t, "cycle", a.issues[0].Points, "[N] -> { E[i] : 2 <= i < N }")
	for _, text := range []string{`
tensor E(i) : f32
E(i) = O(i + 1) where 0 <= i < N
tensor O(i) : f32
O(i) = E(i - 1) where 0 <= i <= N
output E
`, `
tensor E(i) : f32
E(i) = O(i + 1) where 0 <= i < N
tensor O(i) : f32
O(i) = E(i - 1) where 0 <= i <= N
output E
`, `
tensor E(i) : f32
E(i) = O(i - 1)
tensor O(i) : f32
O(i) = E(i - 1)
output E
`} {
		a := specAnalyze(t, specHeader+text)
		if len(a.issues) == 0 {
			t.Errorf("%s: no issue", text)
		}
		for _, i := range a.issues {
			if i.Definite || i.Kind == specOverlap {
				t.Errorf("%s: issue %s", text, i)
			}
		}
		if a.defined["E"] != nil || a.defined["O"] != nil {
			t.Errorf("%s: defined %v, want unproven", text, a.defined)
		}
	}
	// Different ranks in one recursion: unproven.
	a = specAnalyze(t, specHeader+`
tensor E(i) : f32
E(i) = O(i - 1, 0) where 0 < i < N
E(i) = 0 where i == 0
tensor O(i, j) : f32
O(i, j) = E(i) where 0 <= i < N
output E
`)
	if un := specIssuesOf(a, specUnfounded); len(un) != 1 || un[0].Definite || !strings.Contains(un[0].Msg, "rank") {
		t.Errorf("issues %v, want one about ranks", a.issues)
	}
}

// TestSpecUndefinedReads: points whose equation reads outside the defined
// sets are removed, transitively, and reported.
func TestSpecUndefinedReads(t *testing.T) {
	a := specAnalyze(t, specHeader+`
tensor U(i) : f32
U(i) = A(i) where 0 <= i < N
tensor T(i) : f32
T(i) = U(i + 1) where 0 <= i < N
tensor V(i) : f32
V(i) = T(i) * U(i) + T(i - 1)
output V
`)
	specSetEqual(t, "defined U", a.defined["U"], "[N] -> { U[i] : N >= 1 and 0 <= i < N }")
	specSetEqual(t, "defined T", a.defined["T"], "[N] -> { T[i] : N >= 1 and 0 <= i < N - 1 }")
	specSetEqual(t, "defined V", a.defined["V"], "[N] -> { V[i] : N >= 1 and 1 <= i < N - 1 }")
	ur := specIssuesOf(a, specUndefinedRead)
	if len(ur) != 2 || ur[0].Tensor != "T" || ur[1].Tensor != "V" || ur[0].Definite {
		t.Fatalf("issues %v", a.issues)
	}
	specSetEqual(t, "undefined T", ur[0].Points, "[N] -> { T[i] : N >= 1 and i = N - 1 }")
	specSetEqual(t, "undefined V", ur[1].Points, "[N] -> { V[i] : N >= 1 and (i <= 0 or i >= N - 1) }")
	if len(a.issues) != 2 {
		t.Errorf("issues %v", a.issues)
	}
}

// TestSpecBudget: an exhausted budget is an issue, never a pass.
func TestSpecBudget(t *testing.T) {
	spec, info := specLoad(t, "matmul.sare", readFile(t, filepath.Join("..", "examples", "matmul", "matmul.sare")))
	ctx := presburger.WithBudget(context.Background(), presburger.Budget{MaxSteps: 1, MaxDisjuncts: 1, MaxConstraints: 1})
	a, err := analyzeSpec(ctx, spec, info)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.issues) == 0 {
		t.Fatal("no issue with a budget of one step")
	}
	for _, i := range a.issues {
		if i.Definite {
			t.Errorf("definite issue out of budget: %s", i)
		}
	}
	if a.defined["R"] != nil || a.defined["C"] != nil {
		t.Errorf("defined sets proven out of budget: %v", a.defined)
	}
}

// TestSpecUndefinedSpecReads: the elements of R an annotation reads
// outside R's defined set.
func TestSpecUndefinedSpecReads(t *testing.T) {
	specText := readFile(t, filepath.Join("..", "examples", "matmul", "matmul.sare"))
	spec, sinfo := specLoad(t, "matmul.sare", specText)
	k, kinfo, err := sched.Load(&syntax.Source{Name: "annots.sched", Text: `
kernel annots(N, M, P)
assume N >= 1 and M >= 1 and P >= 0
out c[i, j] : f32[N, M] = C(i, j)
{
  for i < N {
    for j < M {
      c[i, j] {R(i, j, P)} := 0
      c[i, j] {R(i, j, -1)} := 0
      for k < P {
        c[i, j] {R(i, j, k)} := 0
        c[i, j] {select(k < 2, R(i, j, k), A(i, k) * R(i, j, k + 1))} := 0
        c[i, j] {f32(C(i, k))} := 0
      }
    }
  }
}
`}, spec)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := analyzeSpec(ctx, spec, sinfo)
	if err != nil {
		t.Fatal(err)
	}
	annots := annotations(k)
	s := NewScope([]string{"N", "M", "P"})
	assume, err := s.Constraint(k.Assumes[0].Cond)
	if err != nil {
		t.Fatal(err)
	}
	if s, err = s.Assume(assume); err != nil {
		t.Fatal(err)
	}
	loop := func(s *Scope, x, hi string) *Scope {
		s, p := s.With(x)
		r, err := s.Range(p, mustExpr(t, "0"), mustExpr(t, hi))
		if err != nil {
			t.Fatal(err)
		}
		if s, err = s.Assume(r); err != nil {
			t.Fatal(err)
		}
		return s
	}
	sij := loop(loop(s, "i", "N"), "j", "M")
	sijk := loop(sij, "k", "P")
	cs := NewContexts()
	for n, c := range []struct {
		s    *Scope
		want string // the undefined reads, "" for none
	}{
		{sij, "[N, M, P, i, j] -> { R[i, j, P] : N >= 1 and M >= 1 and P >= 0 and 0 <= i < N and 0 <= j < M }"},
		{sij, ""},
		{sijk, ""},
		{sijk, "[N, M, P, i, j, k] -> { R[i, j, P] : 0 <= i < N and 0 <= j < M and k = P - 1 and k >= 0 }"},
		{sijk, ""},
	} {
		sv, err := cs.Decompose(annots[n], kinfo.Types, c.s)
		if err != nil {
			t.Fatal(err)
		}
		u, ok, err := a.undefinedSpecReads(ctx, sv, c.s)
		if err != nil || !ok {
			t.Fatalf("%s: %v %v", sv, ok, err)
		}
		if c.want == "" {
			if empty, err := u.IsEmpty(ctx); err != nil || !empty {
				t.Errorf("%s: undefined reads %s, want none", sv, u)
			}
			continue
		}
		w, err := presburger.ParseUnionSet(c.want)
		if err != nil {
			t.Fatal(err)
		}
		if eq, err := u.IsEqual(ctx, w); err != nil || !eq {
			t.Errorf("%s: undefined reads %s, want %s (%v)", sv, u, w, err)
		}
	}
	// Without a defined set for R, nothing is known.
	a.defined["R"] = nil
	sv, err := cs.Decompose(annots[0], kinfo.Types, sij)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := a.undefinedSpecReads(ctx, sv, sij); ok || err != nil {
		t.Errorf("unproven R: ok %v, err %v", ok, err)
	}
}

// specGen generates small random specifications: a few tensors of rank
// one or two, each with a few equations over boxes, reading each other at
// shifted indices (recurrences and cycles included).
type specGen struct {
	r *rand.Rand
	b strings.Builder
}

func (g *specGen) shift(v string) string {
	switch g.r.IntN(8) {
	case 0:
		return fmt.Sprintf("%s / 2", v)
	case 1:
		return fmt.Sprintf("min(%s, 2)", v)
	case 2:
		return fmt.Sprintf("max(%s - 2, 0)", v)
	}
	switch d := g.r.IntN(5) - 3; {
	case d == 0:
		return v
	case d < 0:
		return fmt.Sprintf("%s - %d", v, -d)
	default:
		return fmt.Sprintf("%s + %d", v, d)
	}
}

func (g *specGen) bound(v string) string {
	lo := []string{"0", "1", "-1", "2"}[g.r.IntN(4)]
	hi := []string{"N", "N - 1", "N + 1", "3"}[g.r.IntN(4)]
	switch g.r.IntN(5) {
	case 4:
		return fmt.Sprintf("%s %% 2 == 1", v)
	case 0:
		return fmt.Sprintf("%s <= %s", lo, v)
	case 1:
		return fmt.Sprintf("%s < %s", v, hi)
	case 2:
		return fmt.Sprintf("%s == %s", v, lo)
	}
	return fmt.Sprintf("%s <= %s < %s", lo, v, hi)
}

func specRandomText(seed uint64) string {
	g := &specGen{r: rand.New(rand.NewPCG(seed, 5))}
	fmt.Fprintf(&g.b, "param N\nassume N >= 0\ninput A(i) : i32\n")
	nt := 1 + g.r.IntN(3)
	rank := 1 + g.r.IntN(2)
	names := []string{"T", "U", "V"}[:nt]
	vars := []string{"i", "j"}[:rank]
	for _, name := range names {
		fmt.Fprintf(&g.b, "tensor %s(%s) : i32\n", name, strings.Join(vars, ", "))
		ne := 1 + g.r.IntN(3)
		for e := 0; e < ne; e++ {
			var rhs []string
			for n := g.r.IntN(3); n > 0; n-- {
				u := names[g.r.IntN(nt)]
				var args []string
				for _, v := range vars {
					args = append(args, g.shift(v))
				}
				if g.r.IntN(4) == 0 {
					rhs = append(rhs, fmt.Sprintf("select(%s < 2, %s(%s), 1)", vars[0], u, strings.Join(args, ", ")))
				} else {
					rhs = append(rhs, fmt.Sprintf("%s(%s)", u, strings.Join(args, ", ")))
				}
			}
			rhs = append(rhs, fmt.Sprintf("A(%s)", vars[0]))
			var where []string
			for _, v := range vars {
				if g.r.IntN(3) > 0 {
					where = append(where, g.bound(v))
				}
			}
			fmt.Fprintf(&g.b, "%s(%s) = %s", name, strings.Join(vars, ", "), strings.Join(rhs, " + "))
			if len(where) > 0 {
				fmt.Fprintf(&g.b, " where %s", strings.Join(where, " and "))
			}
			g.b.WriteString("\n")
		}
	}
	fmt.Fprintf(&g.b, "output %s\n", names[0])
	return g.b.String()
}

const specRandomSeeds = 64

// TestSpecRandom compares the defined sets of random specifications at
// every value of N with the reference evaluator over a box of points: a
// point of a defined set evaluates to a defined value, and, when the
// analysis proved every defined set, a point outside it does not.
func TestSpecRandom(t *testing.T) {
	ctx := context.Background()
	var proven, points, defined int
	kinds := map[string]int{}
	for seed := uint64(0); seed < specRandomSeeds; seed++ {
		text := specRandomText(seed)
		spec, info := specLoad(t, "random.sare", text)
		// A modest budget keeps the test fast; running out of it only
		// leaves fewer sets proven.
		a, err := analyzeSpec(presburger.WithBudget(ctx, presburger.Budget{MaxSteps: 20_000}), spec, info)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, text)
		}
		for _, i := range a.issues {
			kinds[fmt.Sprintf("%s/%v", i.Kind, i.Definite)]++
		}
		all := true
		for _, d := range a.defined {
			all = all && d != nil
		}
		if all {
			proven++
		}
		for _, n := range []int64{0, 1, 2, 3, 4, 11} {
			ev, err := sare.NewEvaluator(spec, info, map[string]int64{"N": n}, sare.RandomInputs(seed))
			if err != nil {
				t.Fatal(err)
			}
			ev.MaxPoints = 500
			for _, tn := range spec.Tensors {
				if tn.Input {
					continue
				}
				def := a.defined[tn.Name.Name]
				var bound *presburger.Map
				if def != nil {
					if bound, err = def.BindParams(map[string]presburger.Int{"N": presburger.NewInt(n)}); err != nil {
						t.Fatal(err)
					}
				}
				hi := int64(7)
				if tn.Rank() == 1 {
					hi = n + 4
				}
				err := specBox(tn.Rank(), -3, hi, func(idx []int64) error {
					v, err := ev.Eval(ctx, tn.Name.Name, idx)
					ok := err == nil && !v.IsUndef()
					if bound == nil {
						return nil
					}
					pt := make([]presburger.Int, len(idx))
					for i, x := range idx {
						pt[i] = presburger.NewInt(x)
					}
					in, err2 := bound.ContainsPoint(ctx, pt)
					if err2 != nil {
						return err2
					}
					points++
					if in {
						defined++
					}
					if in && !ok {
						return fmt.Errorf("N=%d: %s is in the defined set %s but evaluates to %v, %v", n, expr.FormatIndex(tn.Name.Name, idx, '(', ')'), def, v, err)
					}
					if all && !in && ok {
						return fmt.Errorf("N=%d: %s evaluates to %v but is outside the defined set %s", n, expr.FormatIndex(tn.Name.Name, idx, '(', ')'), v, def)
					}
					return nil
				})
				if err != nil {
					t.Fatalf("seed %d: %v\nissues %v\n%s", seed, err, a.issues, text)
				}
			}
		}
	}
	t.Logf("%d of %d specifications fully proven; %d points checked, %d defined; issues %v", proven, specRandomSeeds, points, defined, kinds)
	if proven < 10 || defined < 100 {
		t.Errorf("too few proven specifications (%d) or defined points (%d) for a meaningful test", proven, defined)
	}
}

// specBox calls f on every point of the box [lo, hi)^rank.
func specBox(rank int, lo, hi int64, f func(idx []int64) error) error {
	idx := make([]int64, rank)
	var rec func(k int) error
	rec = func(k int) error {
		if k == rank {
			return f(idx)
		}
		for v := lo; v < hi; v++ {
			idx[k] = v
			if err := rec(k + 1); err != nil {
				return err
			}
		}
		return nil
	}
	return rec(0)
}
