package symeval

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
)

// checkObligations instantiates the value obligations of every assignment
// at params and evaluates both sides on random inputs; it returns the
// numbers of points checked and of points whose sides differ.
func checkObligations(t *testing.T, ctx context.Context, p *pair, params map[string]int64) (points, failed int) {
	t.Helper()
	pr := prophesy(t, p)
	hb, err := heapsBefore(ctx, pr, p.kernel)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := sare.NewEvaluator(p.spec, p.sinfo, params, sare.RandomInputs(3))
	if err != nil {
		t.Fatal(err)
	}
	env := ev.Env(ctx)
	for st, at := range hb {
		obs, err := valueObligations(ctx, pr.Contexts, pr, st, at, p.kinfo.Types, nil)
		if err != nil {
			t.Fatalf("%s: %s: %v", p.kernel.Name.Name, sched.StmtLine(st), err)
		}
		n, f := evalObligationsIn(t, ctx, env, obs, params)
		points, failed = points+n, failed+f
		// Every assignment of these kernels runs at these parameters: an
		// obligation without points would be vacuous.
		if n == 0 {
			t.Errorf("%s at %v: %s has no obligation point", p.kernel.Name.Name, params, sched.StmtLine(st))
		}
	}
	return points, failed
}

// TestValueObligations instantiates the obligations Ĉ = ⟦e⟧_h =
// decompose(t) of the examples and extra kernels: they hold at every point
// for the kernels that sched.Run accepts, and fail somewhere for the blur
// that reads the wrong row.
func TestValueObligations(t *testing.T) {
	ctx := context.Background()
	total := 0
	for _, sk := range examplePairs(t) {
		base := strings.TrimSuffix(sk[1][strings.LastIndex(sk[1], "/")+1:], ".sched")
		if strings.HasPrefix(base, "broken") && base != "broken_wrong_row" {
			continue
		}
		text := readFile(t, sk[1])
		p := loadPair(t, sk[0], readFile(t, sk[0]), sk[1], text)
		params := variants(runParams(text))[1] // every parameter at most 5
		n, failed := checkObligations(t, ctx, p, params)
		total += n
		if (failed > 0) != (base == "broken_wrong_row") {
			t.Errorf("%s at %v: %d of %d points fail", base, params, failed, n)
		}
	}
	for _, c := range smallPairs {
		p := loadPair(t, c.name+".sare", c.spec, c.name+".sched", c.kernel)
		n, failed := checkObligations(t, ctx, p, c.params[len(c.params)-1])
		total += n
		if failed > 0 {
			t.Errorf("%s: %d of %d points fail", c.name, failed, n)
		}
	}
	t.Logf("%d obligation points evaluated", total)
}

// TestOutputObligations checks the obligations of the out bindings: they
// hold for the kernels sched.Run accepts and fail for a kernel that leaves
// A(i) where S(i) is expected.
func TestOutputObligations(t *testing.T) {
	ctx := context.Background()
	wrong := smallPair{name: "wrong_output", spec: vecSpec, kernel: `
kernel wrong_output(N)
assume N >= 4
in  a[i] : f32[N + 1] = A(i)
out s[i] : f32[N] = S(i)
{
  par i < N {
    s[i] {A(i)} := a[i]
  }
}
`, params: []map[string]int64{{"N": 5}}}
	cases := append([]smallPair{wrong}, smallPairs...)
	for _, sk := range examplePairs(t) {
		if strings.Contains(sk[1], "broken") {
			continue
		}
		text := readFile(t, sk[1])
		cases = append(cases, smallPair{name: sk[1], spec: readFile(t, sk[0]), kernel: text, params: []map[string]int64{variants(runParams(text))[1]}})
	}
	total := 0
	for _, c := range cases {
		p := loadPair(t, c.name+".sare", c.spec, c.name+".sched", c.kernel)
		pr := prophesy(t, p)
		obs, err := outputObligations(ctx, pr, p.kernel, p.spec)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ps := c.params[len(c.params)-1]
		n, failed := evalObligations(t, ctx, p, obs, ps)
		total += n
		if n == 0 {
			t.Errorf("%s: no output obligation point", c.name)
		}
		if (failed > 0) != (c.name == "wrong_output") {
			t.Errorf("%s at %v: %d of %d points fail", c.name, ps, failed, n)
		}
	}
	t.Logf("%d output obligation points evaluated", total)
}

// TestRestrictPoints checks that the points of an obligation are
// restricted to the facts and the assumptions exactly, whether they are
// one conjunction or several (simplified before the restriction then).
func TestRestrictPoints(t *testing.T) {
	ctx := context.Background()
	pts, err := presburger.ParseSet("[N, M] -> { [h1, h2] : 0 <= h1 < N and h2 = h1 + M; [h1, h2] : 0 <= h1 < N and h2 = h1 + M + 1 and h1 >= 2 }")
	if err != nil {
		t.Fatal(err)
	}
	for _, as := range []string{
		"[N, M] -> { : N >= 4 }",
		"[N, M] -> { : N >= 4 and M >= 0; : N <= 2 and M <= -1; : N = 3 and M = 7 }",
		"[M, N] -> { : N >= 10; : M >= 10 }",
	} {
		a, err := presburger.ParseSet(as)
		if err != nil {
			t.Fatal(err)
		}
		for _, fs := range []string{"", "[N, M] -> { : M >= N }", "[N, M] -> { : M >= N + 1; : M <= 0 and N >= 5 }"} {
			var f *presburger.Map
			want := pts
			if fs != "" {
				if f, err = presburger.ParseSet(fs); err != nil {
					t.Fatal(err)
				}
				if want, err = want.IntersectParams(f); err != nil {
					t.Fatal(err)
				}
			}
			got, assumed, err := restrictPoints(ctx, pts, f, a, nil)
			if err != nil {
				t.Fatal(err)
			}
			// Within the points and the facts, and the same points
			// where the assumptions hold; those of several
			// conjunctions are kept apart (assumed).
			if sub, err := got.IsSubset(ctx, want); err != nil || !sub {
				t.Errorf("under %s and facts %q: %s, not within %s (%v)", as, fs, got, want, err)
			}
			if (assumed != nil) != (a.NumBasics() > 1) {
				t.Errorf("under %s: assumptions kept apart %v", as, assumed)
			}
			if assumed == nil {
				assumed = a
			}
			if got, err = got.IntersectParams(assumed); err != nil {
				t.Fatal(err)
			}
			if want, err = want.IntersectParams(a); err != nil {
				t.Fatal(err)
			}
			if eq, err := got.IsEqual(ctx, want); err != nil || !eq {
				t.Errorf("under %s and facts %q: %s, want %s (%v)", as, fs, got, want, err)
			}
		}
	}
}

// TestRestrictPointsKeepsAssumptionsApart checks that assumptions of
// several conjunctions on parameters that the points leave free (Halide's
// cases on buffer bounds) do not multiply the points' pieces: the points
// keep their pieces, dropping those no conjunction meets, and the
// assumptions are returned for the check, under which the points are
// exactly those restricted to them.
func TestRestrictPointsKeepsAssumptionsApart(t *testing.T) {
	ctx := context.Background()
	pts := mustMap(t, "[N, A, B, C] -> { [h1, h2] : 0 <= h1 < N and h2 = h1; [h1, h2] : N <= h1 < 2N and h2 = h1 + 1; [h1, h2] : h1 = -1 and h2 = 0 and N <= -3 }")
	// 2 x 2 x 3 cases on A, B and C, all with N >= 1.
	var cases []string
	for _, a := range []string{"A = 0", "A >= 1"} {
		for _, b := range []string{"B <= 4", "B >= 5"} {
			for _, c := range []string{"C <= 0", "1 <= C <= 9", "C >= 10"} {
				cases = append(cases, "N >= 1 and "+a+" and "+b+" and "+c)
			}
		}
	}
	a := mustMap(t, "[N, A, B, C] -> { : "+strings.Join(cases, "; : ")+" }")
	if a.NumBasics() != 12 {
		t.Fatalf("assumptions of %d conjunctions, want 12", a.NumBasics())
	}
	got, assumed, err := restrictPoints(ctx, pts, nil, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if assumed != a {
		t.Fatalf("assumptions kept apart %v, want %s", assumed, a)
	}
	// The third piece (N <= -3) meets no conjunction.
	if got.NumBasics() != 2 {
		t.Errorf("%d pieces of points, want the 2 that meet the assumptions: %s", got.NumBasics(), got)
	}
	checkKeptApart(t, got, pts, assumed)
}

// TestRestrictPieces checks that restrictPieces gives the points of
// restrictPoints, and drops the pieces that no conjunction meets.
func TestRestrictPieces(t *testing.T) {
	ctx := context.Background()
	parse := func(s string) *presburger.Map {
		t.Helper()
		m, err := presburger.ParseSet(s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	pts := parse("[N, M] -> { [h1, h2] : 0 <= h1 < N and h2 = h1 + M; [h1, h2] : 0 <= h1 < N and h2 = h1 + M + 1 and h1 >= 2; [h1, h2] : h1 = floor(N/2) and h2 = M and M <= -5 }")
	for _, c := range []struct{ facts, assumptions string }{
		{"[N, M] -> { : M >= N; : M <= N - 1 and N >= 3 }", "[N, M] -> { : N >= 1 }"},
		{"[N, M] -> { : M >= N + 1; : M <= 0 and N >= 5; : M = 2 and N = 1 }", "[N, M] -> { : N >= 4 }"},
		{"[N, M] -> { : N >= 2 * floor(M/2) + 1; : N <= 2 * floor(M/2) }", "[M, N] -> { : N >= 10 or M >= 10 }"},
	} {
		f, a := parse(c.facts), parse(c.assumptions)
		want, assumed, err := restrictPoints(ctx, pts, f, a, nil)
		if err != nil {
			t.Fatal(err)
		}
		if assumed != nil {
			if want, err = want.IntersectParams(assumed); err != nil {
				t.Fatal(err)
			}
		}
		within, err := knownConjunctions(ctx, f, a)
		if err != nil {
			t.Fatal(err)
		}
		got, err := restrictPieces(ctx, pts, pieceDomains(pts), within)
		if err != nil {
			t.Fatal(err)
		}
		if eq, err := got.IsEqual(ctx, want); err != nil || !eq {
			t.Errorf("facts %s, assumptions %s: %s, want %s (%v)", c.facts, c.assumptions, got, want, err)
		}
		for _, b := range got.Basics() {
			if e, err := presburger.NewMap(got.Space(), b).IsEmpty(ctx); err != nil || e {
				t.Errorf("facts %s, assumptions %s: empty piece %s kept (%v)", c.facts, c.assumptions, presburger.NewMap(got.Space(), b), err)
			}
		}
	}
	if _, err := restrictPieces(ctx, pts, pieceDomains(pts)[:1], nil); err == nil {
		t.Error("restrictPieces took fewer domains than pieces")
	}
}

// checkKeptApart checks that got, the map m whose restriction to the
// parameter domain a is kept apart (keepAssumed), is within m and has
// exactly m's points where a holds.
func checkKeptApart(t *testing.T, got, m, a *presburger.Map) {
	t.Helper()
	ctx := context.Background()
	if sub, err := got.IsSubset(ctx, m); err != nil || !sub {
		t.Errorf("%s not within %s (%v)", got, m, err)
	}
	whole, err := m.IntersectParams(a)
	if err != nil {
		t.Fatal(err)
	}
	under, err := got.IntersectParams(a)
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := under.IsEqual(ctx, whole); err != nil || !eq {
		t.Errorf("%s under the assumptions is %s, want %s (%v)", got, under, whole, err)
	}
}
