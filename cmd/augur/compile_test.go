package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompileCommand compiles every example algorithm with --validate
// (exit 0, both files written and VALID), and checks the errors: an
// unsupported schedule directive, a malformed algorithm, a missing -o.
func TestCompileCommand(t *testing.T) {
	algs, _ := filepath.Glob("../../examples/alg/*.alg")
	if len(algs) < 4 {
		t.Fatalf("found %d example algorithms", len(algs))
	}
	for _, a := range algs {
		dir := t.TempDir()
		code, out, errOut := augur("compile", a, "-o", dir, "--validate", "--jobs", "2")
		if code != 0 || !strings.Contains(out, "VALID: ") {
			t.Fatalf("%s: exit %d\n%s%s", a, code, out, errOut)
		}
		for _, f := range []string{"spec.sare", "prog.sched"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Errorf("%s: %v", a, err)
			}
		}
		if code, out, errOut := augur("check", filepath.Join(dir, "spec.sare"), filepath.Join(dir, "prog.sched")); code != 0 {
			t.Errorf("%s: augur check: exit %d\n%s%s", a, code, out, errOut)
		}
	}

	dir := t.TempDir()
	sched := filepath.Join(dir, "sched.alg")
	text, err := os.ReadFile("../../examples/alg/conv1d.alg")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(sched, append(text, "schedule {\n  Conv.update(0).parallel(r.k)\n}\n"...), 0o644)
	code, _, errOut := augur("compile", sched, "-o", filepath.Join(dir, "out"))
	if code != 3 || !hasDiagnostic(errOut, "sched.alg:11:18", "schedule") {
		t.Errorf("illegal directive: exit %d\n%s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "prog.sched")); err == nil {
		t.Errorf("a kernel was written despite the error")
	}

	// A legal schedule from a file, the autoscheduler, injections.
	sfile := filepath.Join(dir, "s.schedule")
	os.WriteFile(sfile, []byte("Conv.split(x, xo, xi, 4).vectorize(xi)\n"), 0o644)
	if code, out, errOut := augur("compile", "../../examples/alg/conv1d.alg", "--schedule", sfile, "-o", filepath.Join(dir, "s")); code != 0 {
		t.Errorf("--schedule: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := augur("compile", "../../examples/alg/conv1d.alg", "--auto", "-o", filepath.Join(dir, "a")); code != 0 || !strings.Contains(errOut, "Conv.split(x, x_o, x_i, 8)") {
		t.Errorf("--auto: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := augur("compile", "--list-injections"); code != 0 || len(strings.Split(strings.TrimSpace(out), "\n")) != 13 || !strings.HasPrefix(out, "tail-unguarded ") {
		t.Errorf("--list-injections: exit %d\n%s", code, out)
	}
	if code, _, errOut := augur("compile", "../../examples/alg/conv1d.alg", "--inject", "fold-too-small", "-o", filepath.Join(dir, "i")); code != 3 || !strings.Contains(errOut, "does not apply") {
		t.Errorf("inapplicable injection: exit %d\n%s", code, errOut)
	}
	if code, out, errOut := augur("compile", "../../examples/alg/conv1d_split.alg", "--inject", "parallel-reduction", "-o", filepath.Join(dir, "i")); code != 0 || !strings.Contains(errOut, "injected") {
		t.Errorf("injection: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := augur("fuzz-schedules", "../../examples/alg/conv1d.alg", "--n", "5", "--seed", "3"); code != 0 || !strings.Contains(out, "5 distinct schedules, 0 failed") {
		t.Errorf("fuzz-schedules: exit %d\n%s%s", code, out, errOut)
	}

	bad := filepath.Join(dir, "bad.alg")
	os.WriteFile(bad, []byte("param N\nfunc F(x) : f32 = G(x)\noutput F over x in 0 .. N\n"), 0o644)
	code, _, errOut = augur("compile", bad, "-o", dir)
	if code != 3 || !hasDiagnostic(errOut, "bad.alg:2:19", "undeclared") {
		t.Errorf("malformed algorithm: exit %d\n%s", code, errOut)
	}

	if code, _, errOut := augur("compile", algs[0]); code != 3 || !strings.Contains(errOut, "-o DIR") {
		t.Errorf("missing -o: exit %d\n%s", code, errOut)
	}
}

// TestCompileCPUProfile checks that --cpuprofile writes a profile of the
// compile, and that a profile that cannot be created is a usage error.
func TestCompileCPUProfile(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "compile.prof")
	if code, out, errOut := augur("compile", "../../examples/alg/blur.alg", "-o", filepath.Join(dir, "out"), "--cpuprofile", prof); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	text, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	// a profile is gzipped protocol buffers
	if len(text) < 2 || text[0] != 0x1f || text[1] != 0x8b {
		t.Errorf("the profile is not gzipped: % x", text[:min(len(text), 8)])
	}
	if code, _, errOut := augur("compile", "../../examples/alg/blur.alg", "-o", filepath.Join(dir, "out"), "--cpuprofile", filepath.Join(dir, "none", "p")); code != 3 || !strings.Contains(errOut, "cpu profile") {
		t.Errorf("uncreatable profile: exit %d\n%s", code, errOut)
	}
}

// TestCompileUnrollCopies checks that an unrolled loop is a sequential
// loop of the kernel by default (stencils_at: S2's 4 unrolled points and
// S1's 2, one store each) and copies of its body with --unroll-copies;
// both kernels validate.
func TestCompileUnrollCopies(t *testing.T) {
	for _, tc := range []struct {
		flags  []string
		stores int
	}{{nil, 2}, {[]string{"--unroll-copies"}, 6}} {
		dir := t.TempDir()
		args := append([]string{"compile", "../../examples/alg/stencils_at.alg", "-o", dir, "--validate"}, tc.flags...)
		if code, out, errOut := augur(args...); code != 0 || !strings.Contains(out, "VALID: ") {
			t.Fatalf("%v: exit %d\n%s%s", tc.flags, code, out, errOut)
		}
		k, err := os.ReadFile(filepath.Join(dir, "prog.sched"))
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(k), "{S1(") + strings.Count(string(k), "{S2("); n != tc.stores {
			t.Errorf("%v: %d stores of S1 and S2, want %d\n%s", tc.flags, n, tc.stores, k)
		}
	}
}

// TestValidateMemProfile checks that augur validate --memprofile writes a
// heap profile when the validation ends, and that a profile that cannot
// be created is a usage error before any validation.
func TestValidateMemProfile(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "heap.prof")
	if code, out, errOut := augur("validate", "--jobs", "1", "--memprofile", prof, "../../examples/blur/blur.sare", "../../examples/blur/blur.sched"); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	text, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(text) < 2 || text[0] != 0x1f || text[1] != 0x8b {
		t.Errorf("the profile is not gzipped: % x", text[:min(len(text), 8)])
	}
	if code, out, errOut := augur("validate", "--memprofile", filepath.Join(dir, "none", "p"), "../../examples/blur/blur.sare", "../../examples/blur/blur.sched"); code != 3 || !strings.Contains(errOut, "heap profile") || strings.Contains(out, "VALID") {
		t.Errorf("uncreatable profile: exit %d\n%s%s", code, out, errOut)
	}
}
