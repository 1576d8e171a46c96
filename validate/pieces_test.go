package validate

import (
	"strings"
	"testing"
	"time"
)

// groupSpec is clampSpec with a parameter M that the assumptions split
// on and the copy never reads.
var groupSpec = strings.Replace(clampSpec, "param N\n", "param N, M\n", 1)

// groupProg returns the copy kernel whose store reads a[read], under
// assumptions of three cases: N <= 5, or 6 <= N <= 10 or N >= 20 with
// M = 3. The last two give M the same term (one substitution), the first
// leaves it free (another substitution, the same sides).
func groupProg(read string) string {
	return `kernel k(N, M)
assume N >= 2
assume select(N > 5, M, 3) == 3
assume select(N <= 10, 1, select(N >= 20, 1, 0)) == 1
in  a[i] : f32[N] = A(i)
out t[i] : f32[N] = T(i)
{
  for i < N {
    t[i] {T(i)} := a[` + read + `]
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

// TestQuickGuard: a quick check's wall-clock guard is lookGuard for each
// whole matchFirstResources units of its limit (at least one), far above
// what the units take.
func TestQuickGuard(t *testing.T) {
	for _, c := range []struct {
		limit uint64
		want  time.Duration
	}{
		{1, lookGuard},
		{matchFirstResources, lookGuard},
		{3*matchFirstResources + 1, 3 * lookGuard},
	} {
		if got := quickGuard(c.limit); got != c.want {
			t.Errorf("quickGuard(%d) = %s, want %s", c.limit, got, c.want)
		}
	}
}
