package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/frontend/halide"
)

// halideAvailable skips the test when Halide 14 is not installed, unless
// CI is set: there it must be.
func halideAvailable(t *testing.T) {
	t.Helper()
	if err := halide.Default().Available(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and %v", err)
		}
		t.Skip(err)
	}
}

// TestHalideSuite compiles the suite's generators with stock Halide 14
// through augur halide, and validates what Halide compiled.
func TestHalideSuite(t *testing.T) {
	halideAvailable(t)
	cases := []struct {
		app  string
		args []string
	}{
		{"blur", nil}, // the app schedule: sliding window, 4-row fold, parallel strips, vectorised
		{"blur", []string{"--param", "tiled=false"}},
		{"sdot", nil},
		{"matmul", nil}, // 8x8 guarded tiles in parallel, prod per tile, vectorised
		{"matmul", []string{"--param", "tile=0"}},
	}
	for _, c := range cases {
		t.Run(c.app+strings.Join(c.args, ""), func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"halide", filepath.Join("..", "..", "frontend", "halide", "apps", c.app+".cpp"), "-o", dir, "--validate"}, c.args...)
			var out, errw bytes.Buffer
			code := execute(args, nil, &out, &errw)
			if code != 0 || !strings.Contains(out.String(), "VALID:") {
				t.Fatalf("augur %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errw.String())
			}
			prog, err := os.ReadFile(filepath.Join(dir, "prog.sched"))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d stores; %s", strings.Count(string(prog), ":="), lastLine(out.String()))
		})
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// TestHalideErrors checks augur halide's exit status 3 on errors.
func TestHalideErrors(t *testing.T) {
	halideAvailable(t)
	blur := filepath.Join("..", "..", "frontend", "halide", "apps", "blur.cpp")
	for _, args := range [][]string{
		{"halide", blur}, // no -o
		{"halide", blur, "-o", t.TempDir(), "-g", "nope"},   // no such generator
		{"halide", blur, "-o", t.TempDir(), "--bogus"},      // no such flag
		{"halide", "missing.cpp", "-o", t.TempDir()},        // no such file
		{"halide", blur, "-o", t.TempDir(), "--param", "x"}, // malformed param
	} {
		var out, errw bytes.Buffer
		if code := execute(args, nil, &out, &errw); code != exitMalformed {
			t.Errorf("augur %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, exitMalformed, out.String(), errw.String())
		}
	}
}

// augur halide says on stderr what it compiles when the cache does not
// spare it, and nothing once it does. A stand-in compiler, which only
// creates its output, keeps the test cheap and independent of Halide
// (the driver it "links" then fails to run, exit 3).
func TestHalideProgress(t *testing.T) {
	dir := t.TempDir()
	cxx := filepath.Join(dir, "fake-c++")
	if err := os.WriteFile(cxx, []byte("#!/bin/sh\nwhile [ $# -gt 0 ]; do [ \"$1\" = -o ] && : > \"$2\"; shift; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	include := filepath.Join(dir, "include")
	os.MkdirAll(include, 0o755)
	os.WriteFile(filepath.Join(include, "Halide.h"), []byte("// a stand-in\n"), 0o644)
	gen := filepath.Join(dir, "gen.cpp")
	os.WriteFile(gen, []byte("// a generator\n"), 0o644)
	t.Setenv("CXX", cxx)
	t.Setenv("HALIDE_INCLUDE", include)
	t.Setenv("AUGUR_CACHE_DIR", filepath.Join(dir, "cache"))

	want := "augur halide: compiling the Halide translator (first run, cached afterwards)...\n" +
		"augur halide: precompiling Halide.h (first run, cached afterwards)...\n" +
		"augur halide: compiling " + gen + "...\n" +
		"augur halide: linking the driver of " + gen + "...\n"
	for run, prefix := range []string{want, ""} {
		code, out, errs := augur("halide", gen, "-o", filepath.Join(dir, "out"))
		if code != exitMalformed || out != "" || !strings.HasPrefix(errs, prefix) || strings.Contains(errs[len(prefix):], "augur halide: ") {
			t.Errorf("run %d: exit %d, stderr:\n%s\nwant it to start with\n%s", run+1, code, errs, prefix)
		}
	}
}
