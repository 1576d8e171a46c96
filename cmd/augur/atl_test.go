package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAtlCommand compiles ATL examples through the command line: written
// files, the validation's exit status, the front end's rejection with a
// positioned error, and the truncation bug caught when lowered anyway.
func TestAtlCommand(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := augur("atl", "../../examples/atl/truncl_guarded.atl", "-o", filepath.Join(dir, "ok"), "--validate", "--jobs", "1")
	if code != exitOK || !strings.Contains(out, "VALID") {
		t.Fatalf("truncl_guarded: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "ok", "spec.sare")); err != nil {
		t.Fatal(err)
	}
	code, out, errs = augur("atl", "../../examples/atl/truncl_bug.atl", "-o", filepath.Join(dir, "bug"))
	if code != exitMalformed || !hasDiagnostic(errs, "truncl_bug.atl:10:12", "padding") {
		t.Fatalf("truncl_bug: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = augur("atl", "../../examples/atl/truncl_bug.atl", "-o", filepath.Join(dir, "bug"), "--no-pad-check", "--validate", "--jobs", "1")
	if code != exitMismatch || !strings.Contains(out, "INVALID: out-of-bounds write") {
		t.Fatalf("truncl_bug --no-pad-check: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := augur("atl", "../../examples/atl/matmul.atl"); code != exitUsage || !strings.Contains(errs, "-o DIR") {
		t.Fatalf("no -o: exit %d\n%s", code, errs)
	}
}
