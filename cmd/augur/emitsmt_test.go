package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// z3Binary returns the path of the z3 executable, or skips the test when
// it is not installed, unless CI is set: there it must be.
func z3Binary(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("z3")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and the z3 executable is missing: %v", err)
		}
		t.Skip("the z3 executable is not installed: ", err)
	}
	return p
}

// The scripts augur validate --emit-smt writes run cleanly in z3, as a CI
// step checking its exit status runs them: z3 answers unsat on a proved
// condition, sat and the model on a refuted one, and exits 0 on both. A
// piece closed before the solver says so in the script.
func TestEmitSMTRunsInZ3(t *testing.T) {
	z3 := z3Binary(t)
	dir := t.TempDir()
	if code, out, errOut := augur("validate", "--emit-smt", dir, "../../examples/blur/blur.sare", "../../examples/blur/broken_wrong_row.sched"); code != 1 {
		t.Fatalf("broken_wrong_row: exit %d, want 1\n%s%s", code, out, errOut)
	}
	tiled := t.TempDir()
	if code, out, errOut := augur("validate", "--emit-smt", tiled, "../../examples/matmul/matmul.sare", "../../examples/matmul/matmul_tiled.sched"); code != 0 {
		t.Fatalf("matmul_tiled: exit %d, want 0\n%s%s", code, out, errOut)
	}
	for _, c := range []struct {
		file, answer string
		has          []string
	}{
		// C6 proved by the solver, C12 the failing annotation.
		{filepath.Join(dir, "C6.smt2"), "unsat", []string{"; status: proved, z3", "; the kernel's side: "}},
		{filepath.Join(dir, "C12.smt2"), "sat", []string{"; status: failed, z3", "; the specification's side: Out(s1, s2) (holes s1 and s2)"}},
		// R(i, j, -1) substituted by its equation is the kernel's 0: no
		// query is left, and the script says why it asserts false.
		{filepath.Join(tiled, "C7.smt2"), "unsat", []string{"; status: proved", "; Decided before the solver:", "(assert false)"}},
	} {
		b, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		script := string(b)
		for _, w := range c.has {
			if !strings.Contains(script, w) {
				t.Errorf("%s lacks %q:\n%s", c.file, w, script)
			}
		}
		out, err := exec.Command(z3, c.file).CombinedOutput()
		if err != nil {
			t.Errorf("z3 %s: %v (a CI step checking the exit status fails):\n%s", filepath.Base(c.file), err, out)
		}
		answer, rest, _ := strings.Cut(string(out), "\n")
		if answer != c.answer {
			t.Errorf("z3 %s answered %q, want %s:\n%s", filepath.Base(c.file), answer, c.answer, out)
		}
		if model := strings.Contains(rest, "define-fun"); model != (c.answer == "sat") {
			t.Errorf("z3 %s printed a model: %v, want %v:\n%s", filepath.Base(c.file), model, c.answer == "sat", out)
		}
	}
	// C14 is proved without the solver (its two sides are the same
	// expression): it has no script.
	if _, err := os.Stat(filepath.Join(dir, "C14.smt2")); !os.IsNotExist(err) {
		t.Errorf("C14, proved syntactically, has a script: %v", err)
	}
}
