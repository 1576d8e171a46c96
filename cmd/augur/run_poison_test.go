package main

import (
	"strings"
	"testing"
)

// TestRunPoisonValueFailures: augur run --poison-value-failures passes a
// kernel whose false annotations are at stores no output uses (a stale
// row overwritten before it is read), saying so, and fails one whose
// consumer reads the stale row, with the path of ⊥ to the output.
func TestRunPoisonValueFailures(t *testing.T) {
	dir := "../../validate/testdata/dead"
	args := []string{"run", dir + "/lanes.sare", dir + "/stale_killed.sched", "--param", "N=3"}
	code, out, _ := augur(args...)
	if code != 1 || !strings.Contains(out, "FAIL: annotation mismatch") {
		t.Errorf("without poisoning: exit %d, want 1 with an annotation mismatch:\n%s", code, out)
	}
	code, out, _ = augur(append(args, "--poison-value-failures")...)
	if code != 0 || !strings.Contains(out, "3 stored values failed their check but reached no output") {
		t.Errorf("with poisoning: exit %d, want 0 counting 3 values poisoned:\n%s", code, out)
	}
	code, out, _ = augur("run", dir+"/lanes.sare", dir+"/stale_read.sched", "--param", "N=3", "--poison-value-failures")
	if code != 1 || !strings.Contains(out, "FAIL: output not written") || !strings.Contains(out, "annotation mismatch: t[0] := ") {
		t.Errorf("stale row read: exit %d, want 1 with an output not written from the annotation mismatch:\n%s", code, out)
	}
}
