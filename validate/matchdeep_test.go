package validate

import (
	"strings"
	"testing"
)

// stagedClampProg computes the boundary condition E into a buffer, then
// copies it: the copy's implementation side reads the computed tensor E.
const stagedClampProg = `kernel k(N)
assume N >= 2
in  a[i] : f32[N] = A(i)
out t[i] : f32[N] = T(i)
{
  alloc e : f32[N] {
    for i < N {
      e[i] {E(i)} := a[max(min(i, N - 1), 0)]
    }
    for i < N {
      t[i] {T(i)} := e[i]
    }
  }
}
`

// TestMatchFirstFullDepth: a copy whose implementation side reads input
// tensors only is closed with the specification side encoded at full
// depth at once, every piece of it; a copy of a computed tensor is not;
// wrong copies, which the full depth does not
// close, are still refuted.
func TestMatchFirstFullDepth(t *testing.T) {
	rep, lines := validateTraced(t, clampSpec, clampProg("max(min(i, N - 1), 0)"))
	if rep.Verdict != Valid {
		t.Fatalf("verdict %s (%s), want valid\n%s", rep.Verdict, rep.Reason, reportText(rep))
	}
	joined := strings.Join(lines, "\n")
	if len(lines) == 0 || strings.Count(joined, "at full depth") != len(lines) {
		t.Errorf("the copy of the input was not closed at full depth:\n%s", joined)
	}
	rep, lines = validateTraced(t, clampSpec, stagedClampProg)
	if rep.Verdict != Valid {
		t.Fatalf("staged: verdict %s (%s), want valid\n%s", rep.Verdict, rep.Reason, reportText(rep))
	}
	// The boundary stage at full depth, every piece of it; not the copy
	// of E, which matching closes as the same term at its first level.
	full := map[string]bool{} // conditions, by their trace's prefix C<id>
	for _, l := range lines {
		if strings.Contains(l, "at full depth") {
			id, _, _ := strings.Cut(l, ":")
			full[id] = true
		}
	}
	if len(full) != 1 {
		t.Errorf("staged: want the boundary stage alone at full depth:\n%s", strings.Join(lines, "\n"))
	}
	for _, read := range []string{"max(min(i + 1, N - 1), 0)", "N - 1 - i"} {
		rep, lines := validateTraced(t, clampSpec, clampProg(read))
		if rep.Verdict != Invalid || rep.Reason != "annotation mismatch" {
			t.Fatalf("a[%s]: verdict %s (%s), want invalid (annotation mismatch)\n%s", read, rep.Verdict, rep.Reason, reportText(rep))
		}
		for _, l := range lines {
			if strings.Contains(l, "at full depth") && !strings.HasSuffix(l, "not closed") {
				t.Errorf("a[%s]: a wrong copy was closed at full depth:\n%s", read, strings.Join(lines, "\n"))
			}
		}
	}
}
