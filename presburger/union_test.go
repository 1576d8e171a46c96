package presburger

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// mustUnion parses an isl union map, failing the test t on error.
func mustUnion(t testing.TB, s string) *UnionMap {
	t.Helper()
	u, err := ParseUnionMap(s)
	if err != nil {
		t.Fatalf("ParseUnionMap(%q): %v", s, err)
	}
	return u
}

// checkUnion checks that got, the result of what computed with error err,
// is the union want.
func checkUnion(t *testing.T, what string, got *UnionMap, err error, want string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	w := mustUnion(t, want)
	if ok, err := got.IsEqual(t.Context(), w); err != nil || !ok {
		t.Errorf("%s = %v, want %v (%v)", what, got, w, err)
	}
}

func TestUnionOps(t *testing.T) {
	ctx := context.Background()
	a := mustUnion(t, "[N] -> { A[i] : 0 <= i < N; B[i, j] : 0 <= i, j < 3 }")
	b := mustUnion(t, "[N] -> { A[i] : i >= 2; C[k] : k = 0 }")
	x, err := a.Intersect(b)
	checkUnion(t, "intersect", x, err, "[N] -> { A[i] : 2 <= i < N }")
	checkUnion(t, "union", a.Union(b), nil, "[N] -> { A[i] : 0 <= i < N or i >= 2; B[i, j] : 0 <= i, j < 3; C[0] }")
	d, err := a.Subtract(ctx, b)
	checkUnion(t, "subtract", d, err, "[N] -> { A[i] : 0 <= i < N and i <= 1; B[i, j] : 0 <= i, j < 3 }")
	p, err := a.IntersectParams(mustParse(t, "[N] -> { : N = 1 }"))
	checkUnion(t, "intersect params", p, err, "[N] -> { A[0] : N = 1; B[i, j] : 0 <= i, j < 3 and N = 1 }")

	r := mustUnion(t, "{ S[i] -> A[i + 1]; S[i] -> B[i, 2i]; T[j] -> A[j] }")
	s := mustUnion(t, "{ A[k] -> V[k, 0]; B[k, l] -> V[l, 1] }")
	c, err := r.ApplyRange(s)
	checkUnion(t, "apply range", c, err, "{ S[i] -> V[i + 1, 0]; S[i] -> V[2i, 1]; T[j] -> V[j, 0] }")
	checkUnion(t, "domain", r.Domain(), nil, "{ S[i]; T[j] }")
	checkUnion(t, "range", r.Range(), nil, "{ A[k]; B[k, l] : l = 2k }")
	checkUnion(t, "reverse", r.Reverse(), nil, "{ A[i + 1] -> S[i]; B[i, 2i] -> S[i]; A[j] -> T[j] }")
	dom := mustUnion(t, "{ S[i] : i >= 0 }")
	id, err := r.IntersectDomain(dom)
	checkUnion(t, "intersect domain", id, err, "{ S[i] -> A[i + 1] : i >= 0; S[i] -> B[i, 2i] : i >= 0 }")
	img, err := dom.Apply(r)
	checkUnion(t, "apply set", img, err, "{ A[k] : k >= 1; B[k, 2k] : k >= 0 }")
	if sv, err := r.IsSingleValued(ctx); err != nil || sv {
		t.Errorf("S maps to both A and B: single-valued = %v (%v)", sv, err)
	}
	if inj, err := r.IsInjective(ctx); err != nil || inj {
		t.Errorf("S[i] and T[i+1] both reach A[i+1]: injective = %v (%v)", inj, err)
	}
	w, err := r.Wrap()
	if err != nil {
		t.Fatal(err)
	}
	uw, err := w.Unwrap()
	checkUnion(t, "wrap/unwrap", uw, err, r.String())
	bound, err := mustUnion(t, "[N] -> { A[i] : 0 <= i < N }").BindParams(map[string]Int{"N": NewInt(3)})
	checkUnion(t, "bind params", bound, err, "{ A[i] : 0 <= i < 3 }")
	if sp, pt, err := a.Sample(ctx); err != nil || pt == nil {
		t.Errorf("sample of %v: %v %v %v", a, sp, pt, err)
	}
}

func TestUnionProducts(t *testing.T) {
	r := mustUnion(t, "{ S[i] -> A[i + 1]; T[j] -> B[j, j] }")
	s := mustUnion(t, "{ S[i] -> C[2i]; U[k] -> A[k] }")
	rp, err := r.RangeProduct(s)
	checkUnion(t, "range product", rp, err, "{ S[i] -> [A[i + 1] -> C[2i]] }")
	dp, err := r.DomainProduct(s)
	checkUnion(t, "domain product", dp, err, "{ [S[i] -> U[i + 1]] -> A[i + 1] }")
	sets := mustUnion(t, "{ P[x] : 0 <= x < 2; Q[] }")
	p, err := sets.Product(mustUnion(t, "{ R[y] : y = 5 }"))
	checkUnion(t, "product", p, err, "{ [P[x] -> R[5]] : 0 <= x < 2; [Q[] -> R[5]] }")
	pre, err := mustUnion(t, "{ A[k] -> V[k] }").PreimageDomain(r)
	checkUnion(t, "preimage domain", pre, err, "{ S[i] -> V[i + 1] }")
	prr, err := r.PreimageRange(mustUnion(t, "{ W[m] -> A[m - 1] }"))
	checkUnion(t, "preimage range", prr, err, "{ S[i] -> W[i + 2] }")
}

// TestUnionSharesPieces checks that a union shares its operands' rows
// instead of copying them (a heap updated statement by statement, each
// heap kept, held every piece once per statement), and leaves them as
// they were.
func TestUnionSharesPieces(t *testing.T) {
	a := mustParse(t, "[N] -> { [x] : 0 <= x <= N }")
	b := mustParse(t, "[N] -> { [x] : x = N + 5 }")
	before := a.String()
	u, err := a.Union(b)
	if err != nil {
		t.Fatal(err)
	}
	if u.NumBasics() != 2 || &u.basics[0].ineqs[0][0] != &a.basics[0].ineqs[0][0] || &u.basics[1].eqs[0][0] != &b.basics[0].eqs[0][0] {
		t.Fatalf("%s ∪ %s = %s: the pieces' rows were copied, want them shared", a, b, u)
	}
	if a.String() != before {
		t.Fatalf("the union changed %s to %s", before, a)
	}
	// UnionPieces: the same set as folding Union, parameters aligned.
	c := mustParse(t, "[M] -> { [x] : x = M }")
	got, err := UnionPieces(a.Space(), a, b, c)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := a.Union(b)
	if want, err = want.Union(c); err != nil {
		t.Fatal(err)
	}
	if eq, err := got.IsEqual(t.Context(), want); err != nil || !eq || got.NumBasics() != 3 {
		t.Fatalf("UnionPieces = %s, want %s (%v)", got, want, err)
	}
	if _, err := UnionPieces(a.Space(), mustParse(t, "{ [x, y] : x = y }")); err == nil {
		t.Fatal("UnionPieces of a map of another shape: no error")
	}
}

// TestSubtractCountsPairsKeepsPieces checks that a subtraction counts a
// step per pair of pieces, those its syntactic test decides included, so
// that its budget bounds a subtraction from a union of many pieces, and
// that the pieces no piece of the subtrahend splits are the minuend's
// own, shared, not copies.
func TestSubtractCountsPairsKeepsPieces(t *testing.T) {
	const k = 40
	var parts []string
	for i := 0; i < k; i++ {
		parts = append(parts, fmt.Sprintf("[x] : %d <= x <= %d", 10*i, 10*i+3))
	}
	m := mustParse(t, "{ "+strings.Join(parts, "; ")+" }")
	o := mustParse(t, "{ [x] : x = 2 }")
	a := NewAllowance(0)
	r, err := m.Subtract(WithAllowance(context.Background(), a), o)
	if err != nil {
		t.Fatal(err)
	}
	if a.Used() < k {
		t.Fatalf("subtracting one piece from %d counted %d steps, want at least one per pair", k, a.Used())
	}
	if _, err := m.Subtract(WithBudget(context.Background(), Budget{MaxSteps: k - 1}), o); !errors.Is(err, ErrBudget) {
		t.Fatalf("within %d steps: %v, want ErrBudget", k-1, err)
	}
	want := mustParse(t, "{ [x] : 0 <= x <= 1 or x = 3 }")
	for i := 1; i < k; i++ {
		if want, err = want.Union(m.Pieces()[i]); err != nil {
			t.Fatal(err)
		}
	}
	if eq, err := r.IsEqual(t.Context(), want); err != nil || !eq {
		t.Fatalf("%s \\ %s = %s, want %s (%v)", m, o, r, want, err)
	}
	shared := 0
	for _, b := range r.basics {
		for _, x := range m.basics[1:] {
			if len(b.ineqs) > 0 && len(x.ineqs) > 0 && &b.ineqs[0][0] == &x.ineqs[0][0] {
				shared++
			}
		}
	}
	if shared != k-1 {
		t.Fatalf("%d of the %d pieces that x = 2 does not meet are shared, want all", shared, k-1)
	}
}
