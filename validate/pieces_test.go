package validate

import (
	"strings"
	"testing"

	"github.com/augur-verify/augur/smt"
)

// groupSpec is clampSpec with a parameter M that the assumptions split
// on and the copy never reads.
var groupSpec = strings.Replace(clampSpec, "param N\n", "param N, M\n", 1)

// groupProg returns the copy kernel whose store reads a[read], under
// assumptions of three cases: N <= 5, or 6 <= N <= 10 or N >= 20 with
// M = 3, and an if on the same condition, whose facts split the points
// (the assumptions alone are kept apart from them). The last two give M
// the same term (one substitution), the first leaves it free (another
// substitution, the same sides).
func groupProg(read string) string {
	return `kernel k(N, M)
assume N >= 2
assume select(N > 5, M, 3) == 3
assume select(N <= 10, 1, select(N >= 20, 1, 0)) == 1
in  a[i] : f32[N] = A(i)
out t[i] : f32[N] = T(i)
{
  if select(N > 5, M, 3) == 3 && select(N <= 10, 1, select(N >= 20, 1, 0)) == 1 {
    for i < N {
      t[i] {T(i)} := a[` + read + `]
    }
  }
}
`
}

// TestCloseGroups: matching first closes the two pieces of one
// substitution with one query, and the two substitutions, whose sides are
// the same terms, with one query too; a wrong copy, which no such query
// closes, is still refuted.
func TestCloseGroups(t *testing.T) {
	rep, lines := validateTraced(t, groupSpec, groupProg("i"))
	if rep.Verdict != Valid {
		t.Fatalf("verdict %s (%s), want valid\n%s", rep.Verdict, rep.Reason, reportText(rep))
	}
	joined := strings.Join(lines, "\n")
	for _, want := range []string{"pieces 1,2 of 3 (one substitution): unsat under shared guards, with 2 groups of the same terms",
		"piece 3 of 3 (one substitution): unsat under shared guards, with 2 groups of the same terms"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no line %q in the trace:\n%s", want, joined)
		}
	}
	rep, lines = validateTraced(t, groupSpec, groupProg("max(i - 1, 0)"))
	if rep.Verdict != Invalid || rep.Reason != "annotation mismatch" {
		t.Fatalf("verdict %s (%s), want invalid (annotation mismatch)\n%s", rep.Verdict, rep.Reason, reportText(rep))
	}
	if joined := strings.Join(lines, "\n"); !strings.Contains(joined, "(one substitution): not closed") {
		t.Errorf("the groups of the wrong copy were not tried first:\n%s", joined)
	}
}

// TestQuickCheckAbstractsProducts: a quick check proves a difference of
// products of tensor elements impossible where the elements' indices are
// equal (the factors in either order), and otherwise answers Unknown,
// never Sat: it checks the products uninterpreted, where a model need not
// be a counterexample (x * x < 0 is unsatisfiable, its abstraction is not).
func TestQuickCheckAbstractsProducts(t *testing.T) {
	s, z := testSolver(t)
	r := z.RealSort()
	a := z.FuncDecl("As", []*smt.Sort{z.IntSort(), z.IntSort()}, r)
	b := z.FuncDecl("B_", []*smt.Sort{z.IntSort()}, r)
	i, j, k := z.IntConst("i"), z.IntConst("j"), z.IntConst("k")
	x := a.Apply(i, k)
	for _, c := range []struct {
		name  string
		terms []*smt.Term
		want  smt.Result
	}{
		{"As(i, k) * B_(k) != B_(j) * As(j, k) where i = j",
			[]*smt.Term{i.Eq(j), x.Mul(b.Apply(k)).Ne(b.Apply(k).Mul(a.Apply(j, k)))}, smt.Unsat},
		{"As(i, k) * B_(k) != As(j, k) * B_(k)",
			[]*smt.Term{x.Mul(b.Apply(k)).Ne(a.Apply(j, k).Mul(b.Apply(k)))}, smt.Unknown},
		{"As(i, k) * As(i, k) < 0", []*smt.Term{x.Mul(x).Lt(z.Real(0, 1))}, smt.Unknown},
	} {
		res, err := s.quickCheck(c.terms, matchFirstResources)
		if res != c.want {
			t.Errorf("%s: %s (%v), want %s", c.name, res, err, c.want)
		}
	}
}
