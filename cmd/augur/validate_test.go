package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/augur-verify/augur/validate"
	"github.com/spf13/cobra"
)

// TestValidateCommand checks augur validate's exit codes, the verdict
// line, the JSON report and the SMT-LIB2 files, and that the reproduce
// command of a counterexample makes augur run fail the same way.
func TestValidateCommand(t *testing.T) {
	code, out, errOut := augur("validate", "../../examples/matmul/matmul.sare", "../../examples/matmul/matmul.sched")
	if code != 0 || !strings.HasPrefix(out, "VALID: ") {
		t.Fatalf("valid kernel: exit %d\n%s%s", code, out, errOut)
	}

	dir := t.TempDir()
	code, out, errOut = augur("validate", "--json", "--emit-smt", dir,
		"../../examples/blur/blur.sare", "../../examples/blur/broken_wrong_row.sched")
	if code != 1 {
		t.Fatalf("broken kernel: exit %d, want 1\n%s%s", code, out, errOut)
	}
	var rep struct {
		Verdict        string
		Reason         string
		Counterexample struct {
			Command string
			Params  []struct {
				Name  string
				Value int64
			}
		}
		Conditions []struct {
			ID     int
			Status string
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("JSON report: %v\n%s", err, out)
	}
	if rep.Verdict != "invalid" || rep.Reason != "annotation mismatch" || len(rep.Counterexample.Params) != 2 {
		t.Fatalf("report %+v", rep)
	}
	smt, _ := filepath.Glob(filepath.Join(dir, "C*.smt2"))
	if len(smt) == 0 {
		t.Fatalf("no SMT-LIB2 file written")
	}
	for _, f := range smt {
		b, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(b), "(check-sat)") {
			t.Errorf("%s: not an SMT-LIB2 script: %v", f, err)
		}
	}
	// The reproduce command fails with the same reason.
	args := shellFields(rep.Counterexample.Command)
	if len(args) < 4 || args[0] != "augur" || args[1] != "run" {
		t.Fatalf("reproduce command %q", rep.Counterexample.Command)
	}
	// The command names the files as they were given to validate.
	code, out, _ = augur(args[1:]...)
	if code != 1 || !strings.Contains(out, "FAIL: annotation mismatch") {
		t.Fatalf("%s: exit %d\n%s", rep.Counterexample.Command, code, out)
	}

	// A counterexample that needs the solver's inputs replays with them.
	code, out, _ = augur("validate", "--json", "../../testdata/corpus/quantize.sare", "../../testdata/corpus/quantize_clamp_256.sched")
	if code != 1 || json.Unmarshal([]byte(out), &rep) != nil || !strings.Contains(rep.Counterexample.Command, "--input") {
		t.Fatalf("quantize_clamp_256: exit %d, command %q", code, rep.Counterexample.Command)
	}
	args = shellFields(rep.Counterexample.Command)
	code, out, _ = augur(args[1:]...)
	if code != 1 || !strings.Contains(out, "FAIL: undefined value stored") {
		t.Fatalf("%s: exit %d\n%s", rep.Counterexample.Command, code, out)
	}

	// Malformed input and usage errors exit 3.
	bad := filepath.Join(t.TempDir(), "bad.sare")
	os.WriteFile(bad, []byte("param N\ntensor T(i) : f32\nT(i) = 1 + * 2\n"), 0o644)
	code, out, errOut = augur("validate", bad, "../../examples/matmul/matmul.sched")
	if code != 3 || out != "" || !hasDiagnostic(errOut, "bad.sare:3:12", "syntax") || !strings.HasSuffix(errOut, "\n1 error\n") {
		t.Fatalf("malformed: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, _ = augur("validate", "only-one.sare"); code != 3 {
		t.Fatalf("one argument: exit %d, want 3", code)
	}
	if code, _, _ = augur("validate", "--value-model", "fast", "../../examples/matmul/matmul.sare", "../../examples/matmul/matmul.sched"); code != 3 {
		t.Fatalf("bad value model: exit %d, want 3", code)
	}
}

// shellFields splits a command line at spaces outside single quotes, as a
// shell would for the commands augur validate prints.
func shellFields(s string) []string {
	var out []string
	var cur strings.Builder
	quoted, inWord := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

// TestBudgetFlags: augur validate's and augur halide's budget flags
// (and augur validate's bound on a condition's terms) default to
// validate's default budgets, and 0 ("none") is passed on as
// validate.Unlimited, not as validate's zero (its default).
func TestBudgetFlags(t *testing.T) {
	for _, cmd := range []*cobra.Command{newValidateCmd(), newHalideCmd()} {
		for name, want := range map[string]uint64{
			"condition-resources": validate.DefaultConditionResources,
			"total-resources":     validate.DefaultTotalResources,
		} {
			f := cmd.Flags().Lookup(name)
			if f == nil || f.DefValue != strconv.FormatUint(want, 10) {
				t.Errorf("%s --%s: default %v, want %d", cmd.Name(), name, f, want)
			}
		}
	}
	if f := newValidateCmd().Flags().Lookup("condition-terms"); f == nil || f.DefValue != strconv.FormatUint(validate.DefaultConditionTerms, 10) {
		t.Errorf("validate --condition-terms: default %v, want %d", f, validate.DefaultConditionTerms)
	}
	if unbounded(0) != validate.Unlimited || unbounded(7) != 7 {
		t.Errorf("unbounded(0) = %d, unbounded(7) = %d", unbounded(0), unbounded(7))
	}
}
