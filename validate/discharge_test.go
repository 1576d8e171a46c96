package validate

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
)

// clampSpec copies an input through a boundary condition (clamped
// indices), as Halide's copy stages read their producers: the copy's
// annotation mismatch names a computed tensor that the implementation side
// does not read.
const clampSpec = `param N
assume N >= 2
input A(i) : f32
tensor E(i) : f32
E(i) = A(max(min(i, N - 1), 0))
tensor T(i) : f32
T(i) = E(i)
output T
`

// clampProg returns the copy kernel whose store reads a[read].
func clampProg(read string) string {
	return `kernel k(N)
assume N >= 2
in  a[i] : f32[N] = A(i)
out t[i] : f32[N] = T(i)
{
  for i < N {
    t[i] {T(i)} := a[` + read + `]
  }
}
`
}

// validateTraced validates the pair with one job, without testing first
// (the solver's strategies are under test), and returns the report and
// the solver's trace lines of its value conditions.
func validateTraced(t *testing.T, spec, prog string) (*Report, []string) {
	t.Helper()
	var mu sync.Mutex
	var lines []string
	rep, err := Validate(context.Background(), &syntax.Source{Name: "s.sare", Text: spec}, &syntax.Source{Name: "p.sched", Text: prog},
		Options{Jobs: 1, NoQuickTest: true, Trace: func(line string) {
			mu.Lock()
			defer mu.Unlock()
			if l := strings.TrimSpace(line); strings.HasPrefix(l, "C") && strings.Contains(l, "z3") {
				lines = append(lines, l)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	return rep, lines
}

// TestMatchFirst: the copy through a boundary condition is proved by
// matching before any other strategy (no satisfiable query, no look at a
// model), and a wrong copy, which matching does not close, is still
// refuted by the strategies after it.
func TestMatchFirst(t *testing.T) {
	rep, lines := validateTraced(t, clampSpec, clampProg("i"))
	if rep.Verdict != Valid {
		t.Fatalf("verdict %s (%s), want valid\n%s", rep.Verdict, rep.Reason, reportText(rep))
	}
	joined := strings.Join(lines, "\n")
	if !strings.Contains(joined, "matches, first") && !strings.Contains(joined, "matches, at full depth, first") || strings.Contains(joined, ": sat") {
		t.Errorf("the copy was not closed by matching first:\n%s", joined)
	}
	for _, read := range []string{"N - 1 - i", "max(i - 1, 0)"} {
		rep, lines := validateTraced(t, clampSpec, clampProg(read))
		if rep.Verdict != Invalid || rep.Reason != "annotation mismatch" {
			t.Fatalf("a[%s]: verdict %s (%s), want invalid (annotation mismatch)\n%s", read, rep.Verdict, rep.Reason, reportText(rep))
		}
		if joined := strings.Join(lines, "\n"); !strings.Contains(joined, "matches, first") {
			t.Errorf("a[%s]: matching was not tried first:\n%s", read, joined)
		}
	}
}

// TestSolveParams: chained equalities between parameters all end at one
// parameter (each defined parameter a term of the free ones only), with
// the constants carried along; a parameter with no unit coefficient stays
// free.
func TestSolveParams(t *testing.T) {
	m, err := presburger.ParseSet("[a, b, c, d, e, f] -> { [x] : b = a and c = b and d = c + 3 and 2e = a and f = 2 and x = 0 }")
	if err != nil {
		t.Fatal(err)
	}
	z, err := smt.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	s := &solver{z: z}
	sp := m.Space()
	params := map[string]*smt.Term{}
	for _, p := range sp.Params {
		params[p] = z.IntConst(p)
	}
	if len(m.Basics()) != 1 {
		t.Fatalf("%d pieces", len(m.Basics()))
	}
	got := s.solveParams(m.Basics()[0], sp, params)
	value := func(name string) *smt.Term {
		if v, ok := got[name]; ok {
			return v
		}
		return params[name]
	}
	// At most one of a, b, c, d (and e, from a = 2e) is left free.
	free := 0
	for _, p := range []string{"a", "b", "c", "d"} {
		if _, ok := got[p]; !ok {
			free++
		}
	}
	if free > 1 {
		t.Errorf("%d of a, b, c, d left free: %v", free, got)
	}
	for name, v := range got {
		for _, p := range sp.Params {
			if _, defined := got[p]; defined && strings.Contains(" "+v.String()+" ", " "+p+" ") {
				t.Errorf("%s = %s names the defined parameter %s", name, v, p)
			}
		}
	}
	// a = b = c and d = c + 3, whichever is free.
	for _, eq := range [][2]*smt.Term{
		{value("a"), value("b")},
		{value("b"), value("c")},
		{value("d"), value("c").Add(z.Int(3))},
		{value("f"), z.Int(2)},
	} {
		if eq[0].Sub(eq[1]).Simplify().String() != "0" {
			t.Errorf("%s != %s", eq[0], eq[1])
		}
	}
	if _, ok := got["e"]; ok {
		t.Errorf("e, with coefficient 2 only, defined: %s", got["e"])
	}
	if a := value("a").Sub(z.Int(2).Mul(value("e"))).Simplify().String(); a != "0" {
		t.Errorf("a - 2e = %s", a)
	}
}

// guardSpec copies an input through a guard on i32 casts of the index
// and a clamp, as Halide's constant_exterior of a repeat_edge does.
const guardSpec = `param N
assume N >= 2
input A(i) : f32
tensor E(i) : f32
E(i) = select(i32(i) < i32(1), f32(0.0), A(max(min(i, N - 1), 0)))
tensor T(i) : f32
T(i) = E(i)
output T
`

// TestPeelGuards: matching first proves the guarded copy with the guard
// the two sides share peeled off, and a copy whose branch differs under
// the shared guard is still refuted.
func TestPeelGuards(t *testing.T) {
	guarded := func(read string) string {
		return strings.Replace(clampProg(read), ":= a["+read+"]", ":= select(i32(i) < i32(1), f32(0.0), a["+read+"])", 1)
	}
	rep, lines := validateTraced(t, guardSpec, guarded("i"))
	if rep.Verdict != Valid {
		t.Fatalf("verdict %s (%s), want valid\n%s", rep.Verdict, rep.Reason, reportText(rep))
	}
	if joined := strings.Join(lines, "\n"); !strings.Contains(joined, "under shared guards") {
		t.Errorf("the guards were not peeled:\n%s", joined)
	}
	rep, lines = validateTraced(t, guardSpec, guarded("max(i - 1, 0)"))
	if rep.Verdict != Invalid || rep.Reason != "annotation mismatch" {
		t.Fatalf("verdict %s (%s), want invalid (annotation mismatch)\n%s", rep.Verdict, rep.Reason, reportText(rep))
	}
	if joined := strings.Join(lines, "\n"); !strings.Contains(joined, "matches, first") {
		t.Errorf("matching was not tried first:\n%s", joined)
	}
}

// TestDecider: the decider tells the conditions that hold at every point
// and those that hold at none, leaves the others undecided, answers a
// condition that simplifies to a constant without spending solver
// resources, and asks its solver again after each answer (the points
// stay asserted, each condition goes with its scope).
func TestDecider(t *testing.T) {
	s, z := testSolver(t)
	x, n := z.IntConst("x"), z.IntConst("n")
	// 0 <= x < n <= 10
	points := z.And(x.Ge(z.Int(0)), x.Lt(n), n.Le(z.Int(10)))
	decide, closeDecider := s.decider(points)
	defer closeDecider()

	if always, known := decide(z.Int(3).Le(z.Int(4))); !known || !always {
		t.Errorf("3 <= 4: (%v, %v), want (true, true)", always, known)
	}
	if always, known := decide(z.Int(4).Le(z.Int(3))); !known || always {
		t.Errorf("4 <= 3: (%v, %v), want (false, true)", always, known)
	}
	if s.used != 0 {
		t.Errorf("constant conditions cost %d resource units, want none", s.used)
	}
	for _, c := range []struct {
		name          string
		cond          *smt.Term
		always, known bool
	}{
		{"x >= 0", x.Ge(z.Int(0)), true, true},
		{"x > 9", x.Gt(z.Int(9)), false, true},
		{"x >= 5", x.Ge(z.Int(5)), false, false},
		{"x < 10", x.Lt(z.Int(10)), true, true},
		{"n <= x", n.Le(x), false, true},
		{"x = 3", x.Eq(z.Int(3)), false, false},
	} {
		always, known := decide(c.cond)
		if always != c.always || known != c.known {
			t.Errorf("%s: (%v, %v), want (%v, %v)", c.name, always, known, c.always, c.known)
		}
	}
	if s.used == 0 {
		t.Errorf("no resource units counted for the checks")
	}
}

// TestAbstractedBitVectors checks that queries over bit-vectors whose
// only integers are the indices are proved by their bit-blasted
// abstraction (checkAbstracted) within a resource limit that Z3's
// general solver, mixing the indices' arithmetic with the bit-vectors,
// does not prove them in (it takes 9 and 17 million units for the
// quotient and the remainder of i16 values by 7 held in i32).
func TestAbstractedBitVectors(t *testing.T) {
	for _, model := range []encode.Model{encode.Real, encode.IEEE} {
		rep := validateFiles(t, filepath.Join("..", "testdata", "corpus", "ediv.sare"), filepath.Join("..", "testdata", "corpus", "ediv_negated.sched"),
			Options{ValueModel: model, Resources: 3_000_000, Jobs: 1, NoQuickTest: true})
		if rep.Verdict != Valid {
			var buf bytes.Buffer
			rep.WriteText(&buf, true)
			t.Errorf("%s: got %s, want valid\n%s", model, rep.Verdict, buf.String())
		}
	}
}

// TestConditionResources: a condition that has spent its budget of
// resource units over all its queries (Options.ConditionResources) makes
// no more queries and stays undecided, its reason saying so; the same
// kernel is VALID without that budget (TestAbstractedBitVectors).
func TestConditionResources(t *testing.T) {
	rep := validateFiles(t, filepath.Join("..", "testdata", "corpus", "ediv.sare"), filepath.Join("..", "testdata", "corpus", "ediv_negated.sched"),
		Options{ValueModel: encode.Real, Resources: 3_000_000, ConditionResources: 1_000, Jobs: 1, NoQuickTest: true})
	if rep.Verdict != Unknown {
		t.Fatalf("verdict %s (%s), want unknown", rep.Verdict, rep.Reason)
	}
	spent := 0
	for _, c := range rep.Conditions {
		if c.Status == Undecided && strings.HasSuffix(c.Reason, errConditionBudget.Error()+" (1000 units)") {
			spent++
		}
		if c.Resources > 1_000+1_000 {
			t.Errorf("C%d spent %d resource units, budget 1000", c.ID, c.Resources)
		}
	}
	if spent == 0 {
		var buf bytes.Buffer
		rep.WriteText(&buf, true)
		t.Errorf("no condition undecided for its spent budget\n%s", buf.String())
	}
}

// testSolver returns a solver of a validation with the default options,
// over a new Z3 context that the test's cleanup closes.
func testSolver(t *testing.T) (*solver, *smt.Context) {
	t.Helper()
	z, err := smt.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { z.Close() })
	v := &validation{shared: &shared{ctx: context.Background()}}
	v.opts.defaults()
	return &solver{v: v, z: z, ctx: v.ctx, guard: &v.guardHit}, z
}
