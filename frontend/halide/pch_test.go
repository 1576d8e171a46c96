package halide

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPrecompiledHeaderUsed checks that a generator compiled with the
// toolchain's flags loads the precompiled Halide.h (GCC's -H marks a
// precompiled header it uses with "!"), so that a change of the flags
// that makes it unusable does not go unnoticed, and that the copy of
// Halide.h beside it is the installed one.
func TestPrecompiledHeaderUsed(t *testing.T) {
	tc := toolchain(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	dir := tc.precompiled(ctx)
	if dir == "" {
		t.Fatal("no precompiled Halide.h")
	}
	want, err := os.ReadFile(filepath.Join(tc.Include, "Halide.h"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "Halide.h"))
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("the copy of Halide.h differs from the installed one (%v)", err)
	}
	src := filepath.Join(t.TempDir(), "gen.cpp")
	if err := os.WriteFile(src, []byte("#include \"Halide.h\"\nint main() { return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := Generator{Sources: []string{src}}
	args := append(pchFlags(dir), tc.compileFlags(g, src)...)
	args = append(args, "-H", "-fsyntax-only", src)
	out, err := exec.CommandContext(ctx, tc.CXX, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", tc.CXX, strings.Join(args, " "), err, out)
	}
	mark := "! " + filepath.Join(dir, "Halide.h.gch")
	if !strings.Contains(string(out), mark) {
		t.Errorf("the compilation did not load the precompiled header (want %q in -H's output):\n%.2000s", mark, out)
	}
}
