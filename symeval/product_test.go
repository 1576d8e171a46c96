package symeval

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
)

// randomHoleSet returns a set of holes over the parameters P and Q in
// several pieces, each defining its holes as affine functions of the
// parameters (with a floor division now and then) under bounds that
// often contradict another piece's: the shape of the value of an array
// read in a tiled loop nest (last tile or not).
func randomHoleSet(t *testing.T, r *rand.Rand, holes int) *presburger.Map {
	t.Helper()
	dims := make([]string, holes)
	for i := range dims {
		dims[i] = fmt.Sprintf("h%d", i)
	}
	var pieces []string
	for range 1 + r.IntN(4) {
		var cs []string
		for i := range holes {
			switch r.IntN(3) {
			case 0:
				cs = append(cs, fmt.Sprintf("h%d = P + %d", i, r.IntN(5)-2))
			case 1:
				cs = append(cs, fmt.Sprintf("h%d = floor((Q + %d)/%d)", i, r.IntN(5), 2+r.IntN(3)))
			default:
				cs = append(cs, fmt.Sprintf("h%d = %d", i, r.IntN(3)))
			}
		}
		// Bounds on the parameters, some of them opposite (P >= 4 here,
		// P <= 3 in another piece).
		for range 1 + r.IntN(3) {
			k := r.IntN(6)
			switch r.IntN(6) {
			case 4:
				// Opposite bounds over a division of the parameters.
				cs = append(cs, fmt.Sprintf("2*P >= floor((Q + %d)/3) + %d", k%2, k/2))
			case 5:
				cs = append(cs, fmt.Sprintf("floor((Q + %d)/3) >= 2*P + %d", k%2, k/2-1))
			case 0:
				cs = append(cs, fmt.Sprintf("P >= %d", k))
			case 1:
				cs = append(cs, fmt.Sprintf("P <= %d", k))
			case 2:
				cs = append(cs, fmt.Sprintf("Q >= P + %d", k-3))
			default:
				cs = append(cs, fmt.Sprintf("Q <= P + %d", k-3))
			}
		}
		pieces = append(pieces, fmt.Sprintf("[%s] : %s", strings.Join(dims, ", "), strings.Join(cs, " and ")))
	}
	m, err := presburger.ParseSet("[P, Q] -> { " + strings.Join(pieces, "; ") + " }")
	if err != nil {
		t.Fatal(err)
	}
	sp := m.Space()
	m, err = respace(m, holeSpace(sp.Params, "", holes))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestProductPieces checks productPieces against the product of the two
// sets without its empty pieces, and the domains it returns against the
// parameter domains of its pieces: a piece dropped because its domains
// seemed to contradict, or a domain attached to the wrong piece, would
// lose points of a value and with them value obligations.
func TestProductPieces(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 11))
	dropped, divContra := 0, 0
	for iter := range 200 {
		// Three sets, multiplied as the children of an expression are:
		// the domains of the first product (with their points) serve in
		// the second.
		x := randomHoleSet(t, r, 1+r.IntN(2))
		y := randomHoleSet(t, r, 1+r.IntN(2))
		z := randomHoleSet(t, r, 1)
		xy, err := flatProduct(x, y)
		if err != nil {
			t.Fatal(err)
		}
		want, err := flatProduct(z, xy)
		if err != nil {
			t.Fatal(err)
		}
		got, doms, err := productPieces(ctx, x, pieceDomains(x), y, pieceDomains(y), nil)
		if err != nil {
			t.Fatal(err)
		}
		if eq, err := got.IsEqual(ctx, xy); err != nil || !eq {
			t.Fatalf("iteration %d: product of\n  %s\n  %s\nis %s, want %s (%v)", iter, x, y, got, xy, err)
		}
		x, y = z, got
		got, doms, err = productPieces(ctx, z, pieceDomains(z), got, doms, nil)
		if err != nil {
			t.Fatal(err)
		}
		if eq, err := got.IsEqual(ctx, want); err != nil || !eq {
			t.Fatalf("iteration %d: product of\n  %s\n  %s\nis %s, want %s (%v)", iter, x, y, got, want, err)
		}
		if len(doms) != got.NumBasics() {
			t.Fatalf("iteration %d: %d domains for %d pieces", iter, len(doms), got.NumBasics())
		}
		for i, d := range pieceDomains(got) {
			if eq, err := d.m.IsEqual(ctx, doms[i].m); err != nil || !eq {
				t.Fatalf("iteration %d: piece %d has domain %s, want %s (%v)", iter, i, doms[i].m, d.m, err)
			}
			if empty, err := d.m.IsEmpty(ctx); err != nil || empty {
				t.Fatalf("iteration %d: piece %d is empty (%v)", iter, i, err)
			}
		}
		dropped += x.NumBasics()*y.NumBasics() - got.NumBasics()
		for _, a := range pieceDomains(x) {
			for _, b := range pieceDomains(y) {
				if a.contradicts(b) && strings.Contains(a.m.String(), "floor") {
					divContra++
				}
			}
		}
	}
	if dropped == 0 {
		t.Error("no pair of pieces was ever dropped: the test sets never contradict")
	}
	if divContra == 0 {
		t.Error("no domains ever contradicted by bounds over a division")
	}
}

// TestPieceDomainContradicts checks the quick contradiction test on
// opposite bounds, strict and not.
func TestPieceDomainContradicts(t *testing.T) {
	dom := func(src string) *pieceDomain {
		m, err := presburger.ParseSet(src)
		if err != nil {
			t.Fatal(err)
		}
		return newPieceDomain(m)
	}
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"[N, T] -> { : N >= 384*T + 384 }", "[N, T] -> { : 384*T + 383 >= N }", true},
		{"[N, T] -> { : N >= 384*T + 383 }", "[N, T] -> { : 384*T + 383 >= N }", false},
		{"[N, T] -> { : N = 2*T }", "[N, T] -> { : N >= 2*T + 1 }", true},
		{"[N, T] -> { : N = 2*T }", "[T, N] -> { : 2*T >= N + 1 }", true},
		{"[N, T] -> { : N = 2*T }", "[N, T] -> { : 2*T >= N }", false},
		{"[N, T] -> { : N >= 1 }", "[N, T] -> { : T <= 0 }", false},
		// Bounds over the same division of the parameters (the last
		// tile of a min(2*T, (N - 33)/32) or not), whatever the order
		// of the parameters and of the locals.
		{"[N, T] -> { : 2*T >= floor((N - 33)/32) + 1 }", "[N, T] -> { : floor((N - 33)/32) >= 2*T }", true},
		{"[N, T] -> { : 2*T >= floor((N - 33)/32) + 1 and T >= floor(N/7) }", "[T, N] -> { : floor((N - 33)/32) >= 2*T }", true},
		{"[N, T] -> { : 2*T >= floor((N - 33)/32) }", "[N, T] -> { : floor((N - 33)/32) >= 2*T }", false},
		// Different divisions, or a plain existential, are not the same
		// term.
		{"[N, T] -> { : 2*T >= floor((N - 33)/32) + 1 }", "[N, T] -> { : floor((N - 32)/32) >= 2*T }", false},
		{"[N, T] -> { : 2*T >= floor((N - 33)/32) + 1 }", "[N, T] -> { : floor((N - 33)/16) >= 2*T }", false},
		{"[N, T] -> { : exists e : 2*T >= e + 1 and N >= 3*e }", "[N, T] -> { : exists e : e >= 2*T and N >= 3*e }", false},
		// Nested divisions.
		{"[N, T] -> { : T >= floor((floor(N/2) + 1)/3) + 1 }", "[N, T] -> { : floor((floor(N/2) + 1)/3) >= T }", true},
		{"[N, T] -> { : T >= floor((floor(N/2) + 1)/3) + 1 }", "[N, T] -> { : floor((floor(N/4) + 1)/3) >= T }", false},
	} {
		a, b := dom(c.a), dom(c.b)
		if got := a.contradicts(b); got != c.want {
			t.Errorf("%s against %s: %v, want %v", c.a, c.b, got, c.want)
		}
		if got := b.contradicts(a); got != c.want {
			t.Errorf("%s against %s: %v, want %v", c.b, c.a, got, c.want)
		}
	}
}

// TestProductPiecesCancelled checks that a product stops when its
// context ends: a product of many pieces can run for minutes.
func TestProductPiecesCancelled(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	x := randomHoleSet(t, r, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := productPieces(ctx, x, pieceDomains(x), x, pieceDomains(x), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled product: error %v", err)
	}
}

// TestCompactRead checks that compacting a read's set keeps its points
// (a point lost would lose a value obligation, one gained would add a
// value where the cell is unwritten) and never adds pieces, on random
// sets and on the overlapping pieces of cells written by two tiles that
// share a border, which must merge.
func TestCompactRead(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 5))
	merged := 0
	for iter := range 300 {
		m := randomHoleSet(t, r, 1+r.IntN(2))
		if iter%2 == 0 {
			// Overlapping pieces with the same holes, as tiles give.
			o := randomHoleSet(t, r, m.Space().NumOut())
			u, err := m.Union(o)
			if err != nil {
				t.Fatal(err)
			}
			m = u
		}
		got, err := compactRead(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		if eq, err := got.IsEqual(ctx, m); err != nil || !eq {
			t.Fatalf("iteration %d: %s compacted to %s (%v)", iter, m, got, err)
		}
		if got.NumBasics() > m.NumBasics() {
			t.Fatalf("iteration %d: %d pieces compacted to %d", iter, m.NumBasics(), got.NumBasics())
		}
		if got.NumBasics() < m.NumBasics() {
			merged++
		}
	}
	if merged == 0 {
		t.Error("no random set was ever compacted")
	}
	tiles, err := presburger.ParseSet("[P, Q] -> { [h0, h1] : h0 = P + 1 and h1 = Q and 0 <= P <= 12; [h0, h1] : h0 = P + 1 and h1 = Q and 10 <= P <= 22 }")
	if err != nil {
		t.Fatal(err)
	}
	if tiles, err = respace(tiles, holeSpace(tiles.Space().Params, "", 2)); err != nil {
		t.Fatal(err)
	}
	got, err := compactRead(ctx, tiles)
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := got.IsEqual(ctx, tiles); err != nil || !eq || got.NumBasics() != 1 {
		t.Errorf("overlapping tiles %s compacted to %s (%v)", tiles, got, err)
	}
}

// TestProductCoefficientsBound checks the bound on the coefficients of
// one value's products (AnalyzeOptions.ProductCoefficients): past it,
// each statement's value is one Undecided condition at that statement,
// naming the bound, and the evaluation goes on to the other statements
// and the conditions over Presburger sets; within the default bound the
// blur's values are left to the solver as usual.
func TestProductCoefficientsBound(t *testing.T) {
	spec, kernel := "../examples/blur/blur.sare", "../examples/blur/blur.sched"
	values := func(a *Analysis) []*Condition {
		var out []*Condition
		for _, c := range a.Conditions {
			if c.Kind == sched.WrongValue {
				out = append(out, c)
			}
		}
		return out
	}
	full := analyzeFilesWith(t, spec, kernel, AnalyzeOptions{})
	if vs := values(full); len(vs) != 2 {
		t.Fatalf("%d value conditions within the default bound, want 2", len(vs))
	} else {
		for _, c := range vs {
			if c.Status != Pending {
				t.Errorf("within the default bound, %s %q: %v %s", c.Kind, c.Text, c.Status, c.Reason)
			}
		}
	}
	bounded := analyzeFilesWith(t, spec, kernel, AnalyzeOptions{ProductCoefficients: 100})
	const want = "presburger budget exceeded: presburger: budget exhausted: the products of the value's pieces hold more than 100 coefficients of constraints"
	vs := values(bounded)
	if len(vs) != 2 {
		t.Fatalf("%d value conditions at a bound of 100, want 2", len(vs))
	}
	lines := map[int]bool{}
	for _, c := range vs {
		if c.Status != Undecided || c.Reason != want {
			t.Errorf("at a bound of 100, %s %q: %v %q, want undecided %q", c.Kind, c.Text, c.Status, c.Reason, want)
		}
		lines[c.Pos.Line] = true
	}
	if len(lines) != 2 {
		t.Errorf("the undecided values are at lines %v, want the two statements'", lines)
	}
	if len(bounded.Conditions) != len(full.Conditions) {
		t.Errorf("%d conditions at a bound of 100, %d without: the evaluation must go on past a value", len(bounded.Conditions), len(full.Conditions))
	}
}
