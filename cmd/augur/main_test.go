package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden reports of the examples")

// augur runs the command line in-process and returns its exit code and
// outputs.
func augur(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = execute(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

type example struct {
	spec, prog string
	args       []string // from the kernel's "# augur run:" line
}

// examples lists every kernel of examples/ with its specification (the
// .sare file of its directory) and run arguments.
func examples(t *testing.T) []example {
	t.Helper()
	dirs, err := filepath.Glob("../../examples/*")
	if err != nil {
		t.Fatal(err)
	}
	var list []example
	for _, dir := range dirs {
		specs, _ := filepath.Glob(filepath.Join(dir, "*.sare"))
		if len(specs) != 1 {
			continue
		}
		progs, _ := filepath.Glob(filepath.Join(dir, "*.sched"))
		for _, prog := range progs {
			data, err := os.ReadFile(prog)
			if err != nil {
				t.Fatal(err)
			}
			ex := example{spec: specs[0], prog: prog}
			for _, line := range strings.Split(string(data), "\n") {
				if rest, ok := strings.CutPrefix(line, "# augur run:"); ok {
					ex.args = strings.Fields(rest)
					break
				}
			}
			if ex.args == nil {
				t.Errorf("%s has no '# augur run:' line", prog)
			}
			list = append(list, ex)
		}
	}
	if len(list) < 8 {
		t.Fatalf("found only %d examples", len(list))
	}
	return list
}

// checkRunGolden runs augur run on the kernel prog of spec with args, and
// compares the report and exit status with the golden file beside the
// kernel (NAME.expected): kernels named broken_* must fail with exit status
// 1, the others must pass. With -update it rewrites the golden file.
func checkRunGolden(t *testing.T, spec, prog string, args []string) {
	t.Helper()
	args = append([]string{"run", spec, prog}, args...)
	code, out, errs := augur(args...)
	if errs != "" {
		t.Errorf("run wrote to stderr: %s", errs)
	}
	broken := strings.HasPrefix(filepath.Base(prog), "broken_")
	switch {
	case broken && code != exitMismatch:
		t.Errorf("broken kernel: exit %d, want %d\n%s", code, exitMismatch, out)
	case !broken && code != exitOK:
		t.Errorf("exit %d, want 0\n%s", code, out)
	}
	got := fmt.Sprintf("$ augur %s\n%s(exit status %d)\n", strings.Join(args, " "), out, code)
	got = strings.ReplaceAll(got, "../../", "")
	golden := strings.TrimSuffix(prog, ".sched") + ".expected"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if want, err := os.ReadFile(golden); err != nil {
		t.Fatalf("%v (run go test ./cmd/augur -update to create it)", err)
	} else if got != string(want) {
		t.Errorf("report differs from %s:\n--- got\n%s--- want\n%s", golden, got, want)
	}
}

// TestExamples runs every example and compares the report and exit status
// with its golden file (NAME.expected beside the kernel). Kernels named
// broken_* must fail with exit status 1; the others must pass.
func TestExamples(t *testing.T) {
	for _, ex := range examples(t) {
		name := strings.TrimSuffix(filepath.Base(ex.prog), ".sched")
		t.Run(name, func(t *testing.T) {
			if code, out, errs := augur("check", ex.spec, ex.prog); code != exitOK {
				t.Fatalf("check: exit %d\n%s%s", code, out, errs)
			}
			checkRunGolden(t, ex.spec, ex.prog, ex.args)
		})
	}
}

func TestRunReasons(t *testing.T) {
	cases := map[string]string{
		"broken_wrong_row":      "FAIL: annotation mismatch",
		"broken_unshifted_tail": "FAIL: out-of-bounds write",
		"broken_par_reduction":  "FAIL: read-write race",
		"broken_tail_dropped":   "FAIL: output not written",
	}
	seen := 0
	for _, ex := range examples(t) {
		name := strings.TrimSuffix(filepath.Base(ex.prog), ".sched")
		want, ok := cases[name]
		if !ok {
			continue
		}
		seen++
		_, out, _ := augur(append([]string{"run", ex.spec, ex.prog}, ex.args...)...)
		if !strings.Contains(out, want) {
			t.Errorf("%s: report lacks %q:\n%s", name, want, out)
		}
	}
	if seen != len(cases) {
		t.Errorf("found %d of the %d broken examples", seen, len(cases))
	}
}

func TestCheckErrors(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "bad.sare")
	prog := filepath.Join(dir, "bad.sched")
	os.WriteFile(spec, []byte("param N\ninput A(i) : f32\ntensor C(i) : f32\nC(i) = A(i) * N\noutput C\n"), 0o644)
	os.WriteFile(prog, []byte("kernel k(N)\n"), 0o644)
	code, out, errs := augur("check", spec, prog)
	if code != exitMalformed {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitMalformed, out, errs)
	}
	if !strings.Contains(errs, spec+":4:") || !strings.Contains(errs, "^") {
		t.Errorf("want a positioned error with a caret for the spec, got:\n%s", errs)
	}
}

func TestRunUsage(t *testing.T) {
	spec, prog := "../../examples/outer/outer.sare", "../../examples/outer/outer_split.sched"
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"run", spec, prog, "--param", "N=10"}, exitUsage, "no value for parameter M"},
		{[]string{"run", spec, prog, "--param", "N=ten", "--param", "M=2"}, exitUsage, "not an integer"},
		{[]string{"run", spec, prog, "--param", "N=2", "--param", "M=2"}, exitUsage, "outer_split.sched:6:8: the parameters N=2 M=2 violate the kernel's assumption N >= 4 and M >= 1"},
		{[]string{"run", spec, prog, "--param", "N=8", "--param", "M=2", "--trials", "3"}, exitOK, "ok: 3 trials"},
	} {
		code, out, errs := augur(c.args...)
		if code != c.code || !strings.Contains(out+errs, c.msg) {
			t.Errorf("%v: exit %d, output:\n%s%s\nwant exit %d and %q", c.args, code, out, errs, c.code, c.msg)
		}
	}
}

// TestRunGarbageWrites: a round-up tail reads cells never written; augur
// run stops there, unless --garbage-writes gives those reads the
// verifier's semantics, where the garbage never reaching c passes.
func TestRunGarbageWrites(t *testing.T) {
	dir := "../../validate/testdata/garbage"
	args := []string{"run", dir + "/tail.sare", dir + "/tail_valid.sched", "--param", "N=5"}
	code, out, _ := augur(args...)
	if code != 1 || !strings.Contains(out, "FAIL: undefined read") {
		t.Errorf("without garbage writes: exit %d, want 1 with an undefined read:\n%s", code, out)
	}
	code, out, _ = augur(append(args, "--garbage-writes")...)
	if code != 0 {
		t.Errorf("with garbage writes: exit %d, want 0:\n%s", code, out)
	}
	code, out, _ = augur("run", dir+"/tail.sare", dir+"/tail_leak.sched", "--param", "N=5", "--garbage-writes")
	if code != 1 || !strings.Contains(out, "FAIL: output not written") {
		t.Errorf("leaking garbage: exit %d, want 1 with an output not written:\n%s", code, out)
	}
}

// TestRunValueModel: a ReLU that stores -0 for negative inputs passes
// augur run in the real model (its default), where -0 and +0 are one
// number, and fails in the ieee model, which compares floats bit for bit.
func TestRunValueModel(t *testing.T) {
	dir := "../../testdata/corpus"
	args := []string{"run", dir + "/relu.sare", dir + "/relu_select.sched", "--param", "N=8", "--trials", "3"}
	for _, c := range []struct {
		model string
		code  int
		msg   string
	}{
		{"", 0, "ok: 3 trials"},
		{"real", 0, "ok: 3 trials"},
		{"ieee", 1, "FAIL: annotation mismatch"},
		{"fast", 3, `--value-model: encode: unknown value model "fast"`},
	} {
		a := args
		if c.model != "" {
			a = append(append([]string(nil), args...), "--value-model", c.model)
		}
		code, out, errs := augur(a...)
		if code != c.code || !strings.Contains(out+errs, c.msg) {
			t.Errorf("--value-model %q: exit %d, output:\n%s%s\nwant exit %d and %q", c.model, code, out, errs, c.code, c.msg)
		}
	}
}
