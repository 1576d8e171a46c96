package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// reductionExample is a kernel of examples/reductions/NAME/ with its
// specification (the directory's .sare), its run arguments and its
// verdicts in both value models ("# verdict: real VALID; ieee INVALID
// (reason)").
type reductionExample struct {
	spec, prog string
	args       []string
	verdicts   map[string]string // value model -> "VALID" or "INVALID (reason)"
}

func reductionExamples(t *testing.T) []reductionExample {
	t.Helper()
	progs, err := filepath.Glob("../../examples/reductions/*/*.sched")
	if err != nil {
		t.Fatal(err)
	}
	var list []reductionExample
	for _, prog := range progs {
		specs, _ := filepath.Glob(filepath.Join(filepath.Dir(prog), "*.sare"))
		if len(specs) != 1 {
			t.Fatalf("%s: want one specification beside it, found %d", prog, len(specs))
		}
		data, err := os.ReadFile(prog)
		if err != nil {
			t.Fatal(err)
		}
		ex := reductionExample{spec: specs[0], prog: prog, verdicts: map[string]string{}}
		for _, line := range strings.Split(string(data), "\n") {
			if rest, ok := strings.CutPrefix(line, "# augur run:"); ok {
				ex.args = strings.Fields(rest)
			}
			if rest, ok := strings.CutPrefix(line, "# verdict:"); ok {
				for _, part := range strings.Split(rest, ";") {
					model, verdict, _ := strings.Cut(strings.TrimSpace(part), " ")
					ex.verdicts[model] = verdict
				}
			}
		}
		if ex.args == nil || ex.verdicts["real"] == "" || ex.verdicts["ieee"] == "" {
			t.Fatalf("%s lacks its '# augur run:' line or its '# verdict: real ...; ieee ...' line", prog)
		}
		list = append(list, ex)
	}
	if len(list) < 14 {
		t.Fatalf("found only %d reduction examples", len(list))
	}
	return list
}

// TestReductionExamples runs every reduction example with augur run and
// compares the report with its golden file, then validates it in both
// value models: the verdict and its reason must be the documented ones,
// and an INVALID verdict's counterexample must make the interpreter fail.
func TestReductionExamples(t *testing.T) {
	for _, ex := range reductionExamples(t) {
		name := strings.TrimSuffix(filepath.Base(ex.prog), ".sched")
		t.Run(name, func(t *testing.T) {
			checkRunGolden(t, ex.spec, ex.prog, ex.args)
			for _, model := range []string{"real", "ieee"} {
				code, out, _ := augur("validate", "--value-model", model, ex.spec, ex.prog)
				want := ex.verdicts[model]
				first, _, _ := strings.Cut(out, "\n")
				switch {
				case want == "VALID":
					if code != exitOK || !strings.HasPrefix(first, "VALID: ") {
						t.Errorf("%s: got %q (exit %d), want VALID\n%s", model, first, code, out)
					}
				default:
					reason := strings.TrimSuffix(strings.TrimPrefix(want, "INVALID ("), ")")
					if code != exitMismatch || first != "INVALID: "+reason {
						t.Errorf("%s: got %q (exit %d), want %q\n%s", model, first, code, "INVALID: "+reason, out)
					}
					if !strings.Contains(out, "reproduced:  augur run fails") {
						t.Errorf("%s: the interpreter does not fail at the counterexample:\n%s", model, out)
					}
				}
			}
		})
	}
}

// TestCompiledReductions compiles every algorithm of
// examples/reductions/alg/ (atomic() and rfactor schedules) with augur
// compile --validate in both value models: the verdict and its reason must
// be the one its '# verdict:' line documents, an INVALID verdict's
// counterexample must make the interpreter fail, and the kernel must run
// under augur run at its '# augur run:' parameters.
func TestCompiledReductions(t *testing.T) {
	algs, err := filepath.Glob("../../examples/reductions/alg/*.alg")
	if err != nil {
		t.Fatal(err)
	}
	if len(algs) < 9 {
		t.Fatalf("found only %d compiled reduction examples", len(algs))
	}
	for _, a := range algs {
		name := strings.TrimSuffix(filepath.Base(a), ".alg")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(a)
			if err != nil {
				t.Fatal(err)
			}
			var args []string
			verdicts := map[string]string{}
			for _, line := range strings.Split(string(data), "\n") {
				if rest, ok := strings.CutPrefix(line, "# augur run:"); ok {
					args = strings.Fields(rest)
				}
				if rest, ok := strings.CutPrefix(line, "# verdict:"); ok {
					for _, part := range strings.Split(rest, ";") {
						model, verdict, _ := strings.Cut(strings.TrimSpace(part), " ")
						verdicts[model] = verdict
					}
				}
			}
			if args == nil || verdicts["real"] == "" || verdicts["ieee"] == "" {
				t.Fatalf("%s lacks its '# augur run:' line or its '# verdict: real ...; ieee ...' line", a)
			}
			dir := t.TempDir()
			for _, model := range []string{"real", "ieee"} {
				code, out, errOut := augur("compile", a, "-o", dir, "--validate", "--value-model", model, "--jobs", "2")
				_, rest, _ := strings.Cut(out, "\n") // past "wrote ..."
				first, _, _ := strings.Cut(rest, "\n")
				want := verdicts[model]
				switch {
				case want == "VALID":
					if code != exitOK || !strings.HasPrefix(first, "VALID: ") {
						t.Errorf("%s: got %q (exit %d), want VALID\n%s%s", model, first, code, out, errOut)
					}
				default:
					reason := strings.TrimSuffix(strings.TrimPrefix(want, "INVALID ("), ")")
					if code != exitMismatch || first != "INVALID: "+reason {
						t.Errorf("%s: got %q (exit %d), want %q\n%s%s", model, first, code, "INVALID: "+reason, out, errOut)
					}
					if !strings.Contains(out, "reproduced:  augur run fails") {
						t.Errorf("%s: the interpreter does not fail at the counterexample:\n%s", model, out)
					}
				}
			}
			run := append([]string{"run", filepath.Join(dir, "spec.sare"), filepath.Join(dir, "prog.sched")}, args...)
			if code, out, errOut := augur(run...); code != exitOK {
				t.Errorf("augur run: exit %d\n%s%s", code, out, errOut)
			}
		})
	}
}
