package symeval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// analyzeGarbage analyses a kernel of validate/testdata/garbage against
// tail.sare with the given options.
func analyzeGarbage(t *testing.T, kernel string, opts Options) *Analysis {
	t.Helper()
	dir := filepath.Join("..", "validate", "testdata", "garbage")
	return analyzeFilesWith(t, filepath.Join(dir, "tail.sare"), filepath.Join(dir, kernel+".sched"), AnalyzeOptions{Options: opts})
}

// failedKinds returns the kinds of the failed conditions of a, in order,
// with the detail of the first.
func failedKinds(t *testing.T, a *Analysis) ([]sched.Kind, string) {
	t.Helper()
	var kinds []sched.Kind
	detail := ""
	for _, c := range a.Conditions {
		switch c.Status {
		case Failed:
			if len(kinds) == 0 {
				detail = c.Detail
			}
			kinds = append(kinds, c.Kind)
		case Undecided:
			t.Errorf("C%d %s undecided: %s", c.ID, c.Kind, c.Reason)
		}
	}
	return kinds, detail
}

// TestGarbageWrites checks the fixpoint of the garbage writes (Clément
// 2022, section 9.9) on round-up tails: the rounds it takes, the
// assignments that write ⊥, and the conditions that fail.
func TestGarbageWrites(t *testing.T) {
	for _, tc := range []struct {
		kernel     string
		opts       Options
		rounds     int
		statements int
		fallback   bool
		fail       sched.Kind // first failed condition, 0: none
		detail     string     // in the first failed condition's detail
	}{
		// t's last tile reads unwritten cells of s: one round.
		{kernel: "tail_valid", rounds: 1, statements: 1},
		// Without garbage writes, that is an undefined read.
		{kernel: "tail_valid", opts: Options{NoGarbageWrites: true}, fail: sched.UndefinedRead},
		// The garbage reaches c (found in a second round): an out cell
		// holds ⊥, and the conditions are the ordinary ones, failing
		// where the garbage starts.
		{kernel: "tail_leak", rounds: 2, fallback: true, fail: sched.UndefinedRead, detail: "out cells"},
		// u reads t's garbage: a second round finds u.
		{kernel: "tail_chain", rounds: 2, statements: 2},
		// Iteration N of a par loop writes garbage into the cell that
		// iteration N - 1 writes: a write-write conflict, so back to the
		// ordinary conditions too.
		{kernel: "tail_conflict", rounds: 1, fallback: true, fail: sched.UndefinedRead, detail: "par loop"},
		// w's garbage grows in rounds 0 and 1 and is widened to all its
		// iterations; round 2 has nothing more to add.
		{kernel: "tail_widen", rounds: 2, statements: 1},
		// One round is not enough: back to the undefined read.
		{kernel: "tail_chain", opts: Options{GarbageRounds: 1}, rounds: 1, fallback: true, fail: sched.UndefinedRead},
	} {
		a := analyzeGarbage(t, tc.kernel, tc.opts)
		name := tc.kernel
		if tc.opts.NoGarbageWrites {
			name += " (no garbage writes)"
		}
		if tc.opts.GarbageRounds > 0 {
			name += " (rounds bounded)"
		}
		g := a.Garbage
		if g.Rounds != tc.rounds || g.Fallback != tc.fallback || (!tc.fallback && g.Statements != tc.statements) {
			t.Errorf("%s: garbage writes %+v, want %d rounds, %d statements, fallback %v", name, g, tc.rounds, tc.statements, tc.fallback)
		}
		kinds, detail := failedKinds(t, a)
		switch {
		case tc.fail == 0 && len(kinds) > 0:
			t.Errorf("%s: failed conditions %v, want none", name, kinds)
		case tc.fail != 0 && (len(kinds) == 0 || kinds[0] != tc.fail):
			t.Errorf("%s: failed conditions %v, want first %v", name, kinds, tc.fail)
		case tc.detail != "" && !strings.Contains(detail, tc.detail):
			t.Errorf("%s: detail %q, want it to mention %q", name, detail, tc.detail)
		}
	}
}

// TestGarbageExcusedReads checks that the undefined-read condition of a
// garbage statement says which iterations it leaves out, and that the
// conditions at the statement's other iterations are still there: its
// value obligations only cover the iterations below N.
func TestGarbageExcusedReads(t *testing.T) {
	a := analyzeGarbage(t, "tail_valid", Options{})
	found := false
	for _, c := range a.Conditions {
		if c.Kind != sched.UndefinedRead || !strings.Contains(c.Text, "t[4 * i0 + i1]") {
			continue
		}
		found = true
		if c.Status != Proved || !strings.Contains(c.Detail, "⊥") {
			t.Errorf("C%d: %v, detail %q; want proved, with the garbage iterations", c.ID, c.Status, c.Detail)
		}
	}
	if !found {
		t.Fatal("no undefined-read condition for the assignment to t")
	}
	values := 0
	for _, c := range a.Conditions {
		if c.Kind == sched.WrongValue && strings.Contains(c.Text, "t[4 * i0 + i1]") {
			values++
		}
	}
	if values == 0 {
		t.Error("no value condition left for the assignment to t")
	}
}

// TestGarbageRoundReuse checks that the rounds of the garbage writes take
// from the previous round what did not change (rounds.go), and that doing
// so changes no condition: the analysis is the one whose rounds start from
// scratch.
func TestGarbageRoundReuse(t *testing.T) {
	ctx := context.Background()
	for _, kernel := range []string{"tail_chain", "tail_leak", "tail_valid"} {
		a := analyzeGarbage(t, kernel, Options{})
		b := analyzeGarbage(t, kernel, Options{noRoundReuse: true})
		if b.Garbage.Reused != 0 {
			t.Errorf("%s: %d statements reused with reuse off", kernel, b.Garbage.Reused)
		}
		// Every round after the first repeats at least the copy of a into
		// s, which no garbage write changes.
		if a.Garbage.Rounds > 1 && a.Garbage.Reused == 0 {
			t.Errorf("%s: %d rounds and nothing reused", kernel, a.Garbage.Rounds)
		}
		ga, gb := a.Garbage, b.Garbage
		ga.Reused = 0
		if ga != gb {
			t.Errorf("%s: garbage writes %+v with reuse, %+v without", kernel, a.Garbage, b.Garbage)
		}
		if len(a.Conditions) != len(b.Conditions) {
			t.Fatalf("%s: %d conditions with reuse, %d without", kernel, len(a.Conditions), len(b.Conditions))
		}
		for i, c := range a.Conditions {
			d := b.Conditions[i]
			if c.Kind != d.Kind || c.Status != d.Status || c.Pos != d.Pos {
				t.Errorf("%s: C%d %v %v at %v with reuse, %v %v at %v without", kernel, c.ID, c.Kind, c.Status, c.Pos, d.Kind, d.Status, d.Pos)
				continue
			}
			if (c.Violations == nil) != (d.Violations == nil) || (c.Obligation == nil) != (d.Obligation == nil) {
				t.Errorf("%s: C%d differs in its violations or obligation", kernel, c.ID)
				continue
			}
			if c.Violations != nil {
				if eq, err := c.Violations.IsEqual(ctx, d.Violations); err != nil || !eq {
					t.Errorf("%s: C%d violations %v with reuse, %v without (%v)", kernel, c.ID, c.Violations, d.Violations, err)
				}
			}
			if o, p := c.Obligation, d.Obligation; o != nil {
				if o.ImplExpr() != p.ImplExpr() || o.SpecExpr() != p.SpecExpr() {
					t.Errorf("%s: C%d obligation %s with reuse, %s without", kernel, c.ID, o, p)
				} else if eq, err := o.Points.IsEqual(ctx, p.Points); err != nil || !eq {
					t.Errorf("%s: C%d points %v with reuse, %v without (%v)", kernel, c.ID, o.Points, p.Points, err)
				}
			}
		}
	}
}

// readsWithin tells whether undefined reads happen only at the given
// garbage iterations, the test that ends the fixpoint.
func TestReadsWithin(t *testing.T) {
	ctx := context.Background()
	g := &gen{ctx: ctx}
	old, err := presburger.ParseMap("[N, i] -> { : i >= N; : i < 0 }")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		und  string
		want bool
	}{
		{"[N, i] -> { A[x] : x = i and i >= N }", true},
		{"[N, i] -> { A[x] : x = i - 1 and i >= N + 2; B[x] : x = i and i <= -3 }", true},
		{"[N, i] -> { A[x] : x = i and i >= N - 1 }", false},
		{"[N, i] -> { A[x] : x = i and i >= N; B[x] : x = i and 0 <= i < N }", false},
		{"[N, i] -> { A[x] : x = i and i >= N and i < 0 and N > 5 }", true},
		{"[N, i] -> { A[x] : 1 = 0 }", true},
	} {
		u, err := presburger.ParseUnionMap(c.und)
		if err != nil {
			t.Fatal(err)
		}
		got, err := g.readsWithin(u, old)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("readsWithin(%s, %s) = %v, want %v", c.und, old, got, c.want)
		}
	}
	// The complement is computed once for a set.
	r1, err := g.garbageRest(old)
	if err != nil {
		t.Fatal(err)
	}
	if r2, _ := g.garbageRest(old); r1 != r2 {
		t.Errorf("garbageRest computed the complement of %s twice", old)
	}
	if x, _ := r1.Intersect(old); x != nil {
		if e, err := x.IsEmpty(ctx); err != nil || !e {
			t.Errorf("garbageRest(%s) = %s meets the set", old, r1)
		}
	}
}

// TestAnalyzeRefutes checks AnalyzeOptions.Refutes: it is asked about
// the failures of the conditions kept, in program order, with their
// IDs; once it confirms one, the value conditions after it are
// Undecided without obligations, and those before it are as without
// it. It is never asked about the conditions of a garbage fixpoint given
// up (tail_leak).
func TestAnalyzeRefutes(t *testing.T) {
	for _, tc := range []struct {
		kernel  string
		opts    Options
		confirm bool
	}{
		{kernel: "tail_valid", opts: Options{NoGarbageWrites: true}, confirm: true},
		{kernel: "tail_valid", opts: Options{NoGarbageWrites: true}, confirm: false},
		{kernel: "tail_leak", confirm: true},
		{kernel: "tail_conflict", confirm: true},
	} {
		name := fmt.Sprintf("%s confirm=%v", tc.kernel, tc.confirm)
		plain := analyzeGarbage(t, tc.kernel, tc.opts)
		var asked []*Condition
		dir := filepath.Join("..", "validate", "testdata", "garbage")
		a := analyzeFilesWith(t, filepath.Join(dir, "tail.sare"), filepath.Join(dir, tc.kernel+".sched"), AnalyzeOptions{Options: tc.opts,
			Refutes: func(c *Condition) bool {
				asked = append(asked, c)
				return tc.confirm
			}})
		if len(asked) == 0 {
			t.Fatalf("%s: Refutes never asked", name)
		}
		pos := map[*Condition]int{}
		for i, c := range a.Conditions {
			pos[c] = i
		}
		last := -1
		for _, c := range asked {
			i, ok := pos[c]
			switch {
			case !ok:
				t.Errorf("%s: asked about C%d %s, which is not a condition of the analysis", name, c.ID, c.Kind)
			case c.Status != Failed || c.ID != i+1 || i <= last:
				t.Errorf("%s: asked about C%d (%s, at %d), after %d", name, c.ID, c.Status, i+1, last+1)
			}
			last = i
		}
		if tc.confirm && len(asked) != 1 {
			t.Errorf("%s: asked %d times after confirming", name, len(asked))
		}
		first := asked[0].ID
		undecided := 0
		for i, c := range a.Conditions {
			switch {
			case tc.confirm && i+1 > first && c.Status == Pending:
				t.Errorf("%s: C%d %s pending after C%d refutes the kernel", name, c.ID, c.Kind, first)
			case c.Status == Undecided:
				undecided++
				want := fmt.Sprintf("not discharged: C%d already refutes the kernel", first)
				if !tc.confirm || i+1 <= first || c.Reason != want || c.Obligation != nil {
					t.Errorf("%s: C%d %s undecided (%s)", name, c.ID, c.Kind, c.Reason)
				}
			}
		}
		// Before the refutation, the conditions are those of the
		// analysis without Refutes.
		for i := 0; i < first; i++ {
			if p, c := plain.Conditions[i], a.Conditions[i]; p.Kind != c.Kind || p.Status != c.Status || p.Pos != c.Pos {
				t.Errorf("%s: C%d is %s %s at %s, %s %s at %s without Refutes", name, i+1, c.Kind, c.Status, c.Pos, p.Kind, p.Status, p.Pos)
			}
		}
		if tc.confirm && undecided == 0 {
			t.Errorf("%s: no value condition left undecided after C%d", name, first)
		}
		if !tc.confirm && len(a.Conditions) != len(plain.Conditions) {
			t.Errorf("%s: %d conditions, %d without Refutes", name, len(a.Conditions), len(plain.Conditions))
		}
	}
}

// TestAnalyzeSteps checks the step budget of the symbolic evaluation
// (AnalyzeOptions.Steps): the evaluation counts its Presburger steps, the
// same on every run, and stops with presburger.ErrAllowance, not an
// undecided condition, when given fewer.
func TestAnalyzeSteps(t *testing.T) {
	dir := filepath.Join("..", "validate", "testdata", "garbage")
	specPath, kernelPath := filepath.Join(dir, "tail.sare"), filepath.Join(dir, "tail_chain.sched")
	a := analyzeFilesWith(t, specPath, kernelPath, AnalyzeOptions{})
	b := analyzeFilesWith(t, specPath, kernelPath, AnalyzeOptions{Steps: -1})
	if a.Steps < 100 || a.Steps != b.Steps {
		t.Fatalf("steps %d, then %d unbounded: want the same count, and enough for the test to mean something", a.Steps, b.Steps)
	}
	if c := analyzeFilesWith(t, specPath, kernelPath, AnalyzeOptions{Steps: a.Steps}); c.Steps != a.Steps || len(c.Conditions) != len(a.Conditions) {
		t.Errorf("within exactly its steps: %d steps, %d conditions; want %d, %d", c.Steps, len(c.Conditions), a.Steps, len(a.Conditions))
	}
	st, _ := os.ReadFile(specPath)
	kt, _ := os.ReadFile(kernelPath)
	p := loadPair(t, specPath, string(st), kernelPath, string(kt))
	for _, n := range []int64{1, a.Steps / 2, a.Steps - 1} {
		_, err := Analyze(context.Background(), p.kernel, p.kinfo, p.spec, p.sinfo, AnalyzeOptions{Steps: n})
		if !errors.Is(err, presburger.ErrAllowance) || !strings.Contains(err.Error(), fmt.Sprintf("more than %d steps", n)) {
			t.Errorf("within %d of its %d steps: %v, want ErrAllowance naming the bound", n, a.Steps, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyze(ctx, p.kernel, p.kinfo, p.spec, p.sinfo, AnalyzeOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

// TestGarbageCycles checks the relation that decides which garbage sets
// may be widened (garbageCycles): an accumulation along a loop is on a
// cycle, a chain of stages is not, and two statements writing one array in
// turn within its allocation inside a loop (a sum's main loop, then its
// tail) feed each other one way only, each on a cycle of its own.
func TestGarbageCycles(t *testing.T) {
	const spec = `param N
assume N >= 1
input A(i) : f32
tensor T(i) : f32
T(i) = A(i) * A(i)
tensor C(i) : f32
C(i) = T(i) + A(i)
output C
`
	for _, tc := range []struct {
		name, kernel string
		cyclic       []string // the arrays written by the cyclic assignments, in order
		sameCycle    bool     // whether the first two cyclic assignments share a cycle
	}{
		{name: "chain", kernel: `kernel k(N)
assume N >= 1
in  a[i] : f32[N] = A(i)
out c[i] : f32[N] = C(i)
{
  alloc t : f32[N] {
    for i < N {
      t[i] {T(i)} := a[i] * a[i]
    }
    for i < N {
      c[i] {C(i)} := t[i] + a[i]
    }
  }
}`},
		{name: "accumulator", kernel: `kernel k(N)
assume N >= 1
in  a[i] : f32[N] = A(i)
out c[i] : f32[N] = C(i)
{
  alloc w : f32[N + 1] {
    for i < N {
      w[i + 1] {T(i)} := w[i] * w[i]
    }
    for i < N {
      c[i] {C(i)} := a[i] * a[i] + a[i]
    }
  }
}`, cyclic: []string{"w"}},
		{name: "main and tail", kernel: `kernel k(N)
assume N >= 1
in  a[i] : f32[N] = A(i)
out c[i] : f32[N] = C(i)
{
  for j < N {
    alloc w : f32[N + 1] {
      for i < N {
        w[i + 1] {T(i)} := w[i] * w[i]
      }
      for i < 1 {
        w[i + 1] {T(i)} := w[i] * w[i]
      }
      c[j] {C(j)} := a[j] * a[j] + a[j]
    }
  }
}`, cyclic: []string{"w", "w"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := loadPair(t, "s.sare", spec, "k.sched", tc.kernel)
			reads := func(st sched.Stmt) map[string]bool {
				r := map[string]bool{}
				sched.Walk(&sched.Block{Stmts: []sched.Stmt{st}}, func(x sched.Stmt) bool {
					if a, ok := x.(*sched.Assign); ok {
						for _, n := range readArrays(a.Value) {
							r[n] = true
						}
					}
					return true
				})
				return r
			}
			c := garbageCycles(p.kernel, reads)
			var sts []*sched.Assign
			var got []string
			sched.Walk(p.kernel.Body, func(x sched.Stmt) bool {
				if a, ok := x.(*sched.Assign); ok && c.cyclic[a] {
					sts = append(sts, a)
					got = append(got, a.Array.Name)
				}
				return true
			})
			if strings.Join(got, " ") != strings.Join(tc.cyclic, " ") {
				t.Fatalf("cyclic assignments write %v, want %v", got, tc.cyclic)
			}
			if len(sts) == 2 {
				if c.sameCycle(sts[0], sts[1]) {
					t.Errorf("the main loop and the tail share a cycle: the tail never feeds the main loop")
				}
				if fs := c.feeders[sts[1]]; !slices.Contains(fs, sts[0]) {
					t.Errorf("the main loop does not feed the tail: feeders %v", fs)
				}
				if fs := c.feeders[sts[0]]; slices.Contains(fs, sts[1]) {
					t.Errorf("the tail feeds the main loop")
				}
			}
		})
	}
}

// readArrays returns the names of the arrays that e reads.
func readArrays(e syntax.Expr) []string {
	var out []string
	syntax.Inspect(e, func(x syntax.Expr) bool {
		if ix, ok := x.(*syntax.Index); ok {
			out = append(out, ix.Array.Name)
		}
		return true
	})
	return out
}

// TestGarbageValueHeap checks that the value obligations at the garbage
// writes' fixpoint, generated in the heaps of the ordinary prophecy
// (valueSite), are those generated in the fixpoint's own heaps: the same
// conditions, with the same points, in no more pieces. In tail_chain, u
// reads t and c reads u, whose contents the fixpoint splits by their
// garbage iterations.
func TestGarbageValueHeap(t *testing.T) {
	ctx := context.Background()
	for _, kernel := range []string{"tail_chain", "tail_valid", "tail_chain_grow"} {
		a := analyzeGarbage(t, kernel, Options{})
		b := analyzeGarbage(t, kernel, Options{fixpointValueHeap: true})
		if a.Garbage.Fallback || a.Garbage.Statements == 0 {
			t.Fatalf("%s: garbage writes %+v, want a fixpoint with garbage", kernel, a.Garbage)
		}
		if len(a.Conditions) != len(b.Conditions) {
			t.Fatalf("%s: %d conditions, %d in the fixpoint's heaps", kernel, len(a.Conditions), len(b.Conditions))
		}
		pa, pb := 0, 0
		for i, c := range a.Conditions {
			d := b.Conditions[i]
			if c.Kind != d.Kind || c.Status != d.Status || c.Pos != d.Pos || (c.Obligation == nil) != (d.Obligation == nil) {
				t.Errorf("%s: C%d %v %v at %v, %v %v at %v in the fixpoint's heaps", kernel, c.ID, c.Kind, c.Status, c.Pos, d.Kind, d.Status, d.Pos)
				continue
			}
			if o, p := c.Obligation, d.Obligation; o != nil {
				if o.ImplExpr() != p.ImplExpr() || o.SpecExpr() != p.SpecExpr() {
					t.Errorf("%s: C%d obligation %s, %s in the fixpoint's heaps", kernel, c.ID, o, p)
				} else if eq, err := o.Points.IsEqual(ctx, p.Points); err != nil || !eq {
					t.Errorf("%s: C%d points %v, %v in the fixpoint's heaps (%v)", kernel, c.ID, o.Points, p.Points, err)
				}
				pa += o.Points.NumBasics()
				pb += p.Points.NumBasics()
			}
		}
		t.Logf("%s: %d pieces of obligations, %d in the fixpoint's heaps", kernel, pa, pb)
		if pa > pb {
			t.Errorf("%s: %d pieces of obligations, more than the %d of the fixpoint's heaps", kernel, pa, pb)
		}
	}
}
