package presburger

import (
	"context"
	"testing"
)

func mustUnion(t *testing.T, s string) *UnionMap {
	t.Helper()
	u, err := ParseUnionMap(s)
	if err != nil {
		t.Fatalf("ParseUnionMap(%q): %v", s, err)
	}
	return u
}

func TestUnionOps(t *testing.T) {
	ctx := context.Background()
	eq := func(what string, got *UnionMap, want string) {
		t.Helper()
		w := mustUnion(t, want)
		if ok, err := got.IsEqual(ctx, w); err != nil || !ok {
			t.Errorf("%s = %v, want %v (%v)", what, got, w, err)
		}
	}
	a := mustUnion(t, "[N] -> { A[i] : 0 <= i < N; B[i, j] : 0 <= i, j < 3 }")
	b := mustUnion(t, "[N] -> { A[i] : i >= 2; C[k] : k = 0 }")
	x, err := a.Intersect(b)
	if err != nil {
		t.Fatal(err)
	}
	eq("intersect", x, "[N] -> { A[i] : 2 <= i < N }")
	eq("union", a.Union(b), "[N] -> { A[i] : 0 <= i < N or i >= 2; B[i, j] : 0 <= i, j < 3; C[0] }")
	d, err := a.Subtract(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	eq("subtract", d, "[N] -> { A[i] : 0 <= i < N and i <= 1; B[i, j] : 0 <= i, j < 3 }")
	p, err := a.IntersectParams(mustParse(t, "[N] -> { : N = 1 }"))
	if err != nil {
		t.Fatal(err)
	}
	eq("intersect params", p, "[N] -> { A[0] : N = 1; B[i, j] : 0 <= i, j < 3 and N = 1 }")

	r := mustUnion(t, "{ S[i] -> A[i + 1]; S[i] -> B[i, 2i]; T[j] -> A[j] }")
	s := mustUnion(t, "{ A[k] -> V[k, 0]; B[k, l] -> V[l, 1] }")
	c, err := r.ApplyRange(s)
	if err != nil {
		t.Fatal(err)
	}
	eq("apply range", c, "{ S[i] -> V[i + 1, 0]; S[i] -> V[2i, 1]; T[j] -> V[j, 0] }")
	eq("domain", r.Domain(), "{ S[i]; T[j] }")
	eq("range", r.Range(), "{ A[k]; B[k, l] : l = 2k }")
	eq("reverse", r.Reverse(), "{ A[i + 1] -> S[i]; B[i, 2i] -> S[i]; A[j] -> T[j] }")
	dom := mustUnion(t, "{ S[i] : i >= 0 }")
	id, err := r.IntersectDomain(dom)
	if err != nil {
		t.Fatal(err)
	}
	eq("intersect domain", id, "{ S[i] -> A[i + 1] : i >= 0; S[i] -> B[i, 2i] : i >= 0 }")
	img, err := dom.Apply(r)
	if err != nil {
		t.Fatal(err)
	}
	eq("apply set", img, "{ A[k] : k >= 1; B[k, 2k] : k >= 0 }")
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
	if err != nil {
		t.Fatal(err)
	}
	eq("wrap/unwrap", uw, r.String())
	bound, err := mustUnion(t, "[N] -> { A[i] : 0 <= i < N }").BindParams(map[string]Int{"N": NewInt(3)})
	if err != nil {
		t.Fatal(err)
	}
	eq("bind params", bound, "{ A[i] : 0 <= i < 3 }")
	if sp, pt, err := a.Sample(ctx); err != nil || pt == nil {
		t.Errorf("sample of %v: %v %v %v", a, sp, pt, err)
	}
}

func TestUnionProducts(t *testing.T) {
	ctx := context.Background()
	eq := func(what string, got *UnionMap, err error, want string) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		w := mustUnion(t, want)
		if ok, err := got.IsEqual(ctx, w); err != nil || !ok {
			t.Errorf("%s = %v, want %v (%v)", what, got, w, err)
		}
	}
	r := mustUnion(t, "{ S[i] -> A[i + 1]; T[j] -> B[j, j] }")
	s := mustUnion(t, "{ S[i] -> C[2i]; U[k] -> A[k] }")
	rp, err := r.RangeProduct(s)
	eq("range product", rp, err, "{ S[i] -> [A[i + 1] -> C[2i]] }")
	dp, err := r.DomainProduct(s)
	eq("domain product", dp, err, "{ [S[i] -> U[i + 1]] -> A[i + 1] }")
	sets := mustUnion(t, "{ P[x] : 0 <= x < 2; Q[] }")
	p, err := sets.Product(mustUnion(t, "{ R[y] : y = 5 }"))
	eq("product", p, err, "{ [P[x] -> R[5]] : 0 <= x < 2; [Q[] -> R[5]] }")
	pre, err := mustUnion(t, "{ A[k] -> V[k] }").PreimageDomain(r)
	eq("preimage domain", pre, err, "{ S[i] -> V[i + 1] }")
	prr, err := r.PreimageRange(mustUnion(t, "{ W[m] -> A[m - 1] }"))
	eq("preimage range", prr, err, "{ S[i] -> W[i + 2] }")
}
