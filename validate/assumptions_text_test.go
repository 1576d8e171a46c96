package validate

import (
	"strings"
	"testing"
)

// TestValidTextLongAssumptions checks that a valid verdict's first line
// spells out short assumptions, and names a long domain by its cases and
// length unless verbose, which prints it whole.
func TestValidTextLongAssumptions(t *testing.T) {
	short := &Report{Verdict: Valid, Program: "k.sched", Spec: "s.sare", Assumptions: "N >= 1", AssumptionPieces: 1}
	long := &Report{Verdict: Valid, Program: "k.sched", Spec: "s.sare",
		Assumptions: strings.Repeat("N >= 1 and M >= 2; ", 40), AssumptionPieces: 40}
	text := func(r *Report, verbose bool) string {
		var b strings.Builder
		if err := r.WriteText(&b, verbose); err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(b.String(), "\n")
		return first
	}
	if got, want := text(short, false), "VALID: k.sched computes its specification s.sare whenever N >= 1"; got != want {
		t.Errorf("short: %q, want %q", got, want)
	}
	want := "VALID: k.sched computes its specification s.sare whenever its assumptions hold (40 cases over the parameters, 760 characters: --verbose prints them, as the JSON report's assumptions do)"
	if got := text(long, false); got != want {
		t.Errorf("long: %q, want %q", got, want)
	}
	if got := text(long, true); !strings.HasSuffix(got, "whenever "+long.Assumptions) {
		t.Errorf("long, verbose: %q, want the assumptions whole", got)
	}
}
