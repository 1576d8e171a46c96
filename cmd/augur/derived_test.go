package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateDerived runs augur validate --derived FILE on the pair of
// validate/testdata/derived, a table of M entries, M computed from the
// float input S, read at a clamped conversion of S: with the file's computation one short of the table,
// INVALID (an out-of-bounds read); a malformed file, or one naming no
// parameter of the specification, is an error (exit 3).
func TestValidateDerived(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	spec := filepath.Join("..", "..", "validate", "testdata", "derived", "lut.sare")
	prog := filepath.Join("..", "..", "validate", "testdata", "derived", "lut.sched")
	short := write("short.derived", "derived M = i32(min(max(S(), f32(0.0)), f32(100.0)))\n")
	code, out, errs := augur("validate", "--jobs", "1", "--derived", short, spec, prog)
	if code != 1 || !strings.HasPrefix(out, "INVALID: out-of-bounds read") {
		t.Errorf("one short: exit %d, %q %q, want 1 and INVALID: out-of-bounds read", code, out, errs)
	}
	for _, bad := range []string{"derived M i32(1)\n", "derived K = i32(1)\n"} {
		code, out, errs := augur("validate", "--jobs", "1", "--derived", write("bad.derived", bad), spec, prog)
		if code != 3 {
			t.Errorf("--derived with %q: exit %d, %q %q, want 3", bad, code, out, errs)
		}
	}
}
