package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRinkCommand translates and validates an example of Rink's model
// language (exit 0, three files, both kernels VALID), catches the naive
// in-place transposition (exit 1 with a counterexample), and reports a
// malformed program with its position and caret (exit 3, nothing written).
func TestRinkCommand(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := augur("rink", "../../examples/rink/inplace_transpose.rink", "-o", dir, "--validate", "--jobs", "2")
	if code != 0 || strings.Count(out, "VALID: ") != 2 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, f := range []string{"spec.sare", "ref.sched", "padded.sched"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if code, out, errOut := augur("check", filepath.Join(dir, "spec.sare"), filepath.Join(dir, "padded.sched")); code != 0 {
		t.Errorf("augur check: exit %d\n%s%s", code, out, errOut)
	}

	code, out, errOut = augur("rink", "../../examples/rink/inplace_transpose.rink", "-o", filepath.Join(dir, "naive"),
		"--in-place", "--impl", "ref", "--validate", "--jobs", "2")
	if code != 1 || !strings.Contains(out, "INVALID: annotation mismatch") || !strings.Contains(out, "reproduce:") {
		t.Errorf("--in-place: exit %d\n%s%s", code, out, errOut)
	}

	bad := filepath.Join(dir, "bad.rink")
	os.WriteFile(bad, []byte("var A : [3 4]\nvar s : []\ns = A . [1 2]\n"), 0o644)
	code, _, errOut = augur("rink", bad, "-o", filepath.Join(dir, "bad"))
	if code != 3 || !hasDiagnostic(errOut, "bad.rink:3:7", "shape") {
		t.Errorf("malformed program: exit %d\n%s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad")); err == nil {
		t.Error("files written despite the error")
	}
	if code, _, _ := augur("rink", bad); code != 3 {
		t.Errorf("missing -o: exit %d, want 3", code)
	}
	if code, _, _ := augur("rink", "../../examples/rink/fig3_scalar.rink", "-o", filepath.Join(dir, "x"), "--impl", "nope", "--validate"); code != 3 {
		t.Errorf("--impl nope: exit %d, want 3", code)
	}
}
