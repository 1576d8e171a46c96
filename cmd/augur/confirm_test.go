package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/validate"
)

// TestHalideConfirm checks that augur halide --validate runs Halide's
// compiled code on an INVALID's counterexample and says what it showed,
// keeping augur validate's exit status: Halide issue 8140's pipeline,
// which stock Halide 14 miscompiles, is confirmed with the wrong cell; a
// fold planted in blur's translation is not reproduced by Halide's code,
// which is right, and the translation is named as suspect.
func TestHalideConfirm(t *testing.T) {
	halideAvailable(t)
	halideDir := filepath.Join("..", "..", "frontend", "halide")
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"issue8140", []string{filepath.Join(halideDir, "testdata", "confirm", "sliding_8140.cpp")},
			[]string{"INVALID: undefined read", "CONFIRMED in Halide's code: Halide's compiled pipeline differs from the algorithm at 1 of 1 output cells",
				"  f2_0(0, 0):", "expected (unscheduled: ", "  inputs:      input_(0, 0)="}},
		{"planted", []string{filepath.Join(halideDir, "apps", "blur.cpp"), "--mutate", "fold:2"},
			[]string{"INVALID: annotation mismatch", "NOT REPRODUCED by Halide's code (translation suspect): both runs of Halide's compiled pipeline",
				"agree with the algorithm at all", "the translation is suspect (a defect of Augur)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"halide", c.args[0], "-o", t.TempDir(), "--validate", "--target", "x86-64-linux-avx-avx2-f16c-fma-sse41"}, c.args[1:]...)
			var out, errw bytes.Buffer
			code := execute(args, nil, &out, &errw)
			if code != exitMismatch {
				t.Fatalf("augur %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, exitMismatch, out.String(), errw.String())
			}
			for _, w := range c.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("the report lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}

// TestHalideConfirmJSON checks the JSON form: the report's native field,
// with the report alone on the standard output.
func TestHalideConfirmJSON(t *testing.T) {
	halideAvailable(t)
	args := []string{"halide", filepath.Join("..", "..", "frontend", "halide", "apps", "blur.cpp"), "-o", t.TempDir(),
		"--validate", "--json", "--target", "x86-64-linux-avx-avx2-f16c-fma-sse41", "--mutate", "fold:2"}
	var out, errw bytes.Buffer
	if code := execute(args, nil, &out, &errw); code != exitMismatch {
		t.Fatalf("augur %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, exitMismatch, out.String(), errw.String())
	}
	var rep validate.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("the standard output is not a report: %v\n%s", err, out.String())
	}
	n := rep.Native
	if rep.Verdict != validate.Invalid || n == nil || n.Compiler != "Halide" || n.Outcome != validate.NativeNotReproduced ||
		n.Cause != validate.CauseTranslation || n.Compared == 0 || n.Differing != 0 {
		t.Fatalf("verdict %s, native check %+v: want invalid, not reproduced by Halide's code, translation suspect", rep.Verdict, n)
	}
	if !strings.Contains(errw.String(), "wrote ") || !strings.Contains(errw.String(), "mutated ") {
		t.Errorf("the standard error does not say what was written:\n%s", errw.String())
	}
}

// TestHalideConfirmCheckLeftOut checks that an INVALID whose
// counterexample stops Halide's code at a storage-folding check that the
// translation leaves out is UNKNOWN, in text and JSON, with the reason
// the fuzz campaign gives: the fuzz case fold-factor-too-small (seed
// 3002, case 79) as a generator, whose f2 is folded by 2 rows under an
// update split by 8.
func TestHalideConfirmCheckLeftOut(t *testing.T) {
	halideAvailable(t)
	gen := filepath.Join("..", "..", "frontend", "halide", "testdata", "confirm", "fold_factor_too_small.cpp")
	reason := "the counterexample stops Halide's code at its check halide_error_fold_factor_too_small, which the translation leaves out; Augur's invalid verdict on the kernel shows no wrong output of Halide's"
	args := []string{"halide", gen, "-o", t.TempDir(), "--validate", "--target", "x86-64-linux-avx-avx2-f16c-fma-sse41", "--timeout", "5m"}
	var out, errw bytes.Buffer
	if code := execute(args, nil, &out, &errw); code != exitUnknown {
		t.Fatalf("augur %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, exitUnknown, out.String(), errw.String())
	}
	for _, w := range []string{"UNKNOWN: " + reason + "\n",
		"NOT REPRODUCED by Halide's code (check left out): Halide's compiled pipeline stops at its check halide_error_fold_factor_too_small, which the translation leaves out of the kernel: Error: The fold factor (2) of dimension y of f2$0 is too small to store the required region"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("the report lacks %q:\n%s", w, out.String())
		}
	}
	if strings.Contains(out.String(), "undecided conditions:") {
		t.Errorf("the report lists undecided conditions:\n%s", out.String())
	}
	out.Reset()
	args = append(args, "--json")
	if code := execute(args, nil, &out, &errw); code != exitUnknown {
		t.Fatalf("augur %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, exitUnknown, out.String(), errw.String())
	}
	var rep validate.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("the standard output is not a report: %v\n%s", err, out.String())
	}
	n := rep.Native
	if rep.Verdict != validate.Unknown || rep.Reason != reason || rep.Counterexample == nil || n == nil ||
		n.Outcome != validate.NativeNotReproduced || n.Cause != validate.CauseCheckLeftOut {
		t.Fatalf("verdict %s (%s), native check %+v: want unknown (%s), not reproduced by Halide's code, check left out", rep.Verdict, rep.Reason, n, reason)
	}
}

// TestHalideConfirmOverflow checks that an INVALID whose counterexample
// needs a signed 32-bit overflow of the kernel's arithmetic, which
// Halide's simplifier puts in (min(a, b) - b computed as min(a - b, 0))
// and Halide leaves undefined, is UNKNOWN with the reason the fuzz
// campaign gives: the fuzz case overflow-min-sub (seed 4004, case 821)
// as a generator. Halide's own code, scheduled and not, computes the
// wrapped values on the counterexample's inputs.
func TestHalideConfirmOverflow(t *testing.T) {
	halideAvailable(t)
	gen := filepath.Join("..", "..", "frontend", "halide", "testdata", "confirm", "overflow_min_sub.cpp")
	reason := "the counterexample needs a signed 32- or 64-bit integer overflow in the kernel's arithmetic, undefined in Halide; Augur's invalid verdict on the kernel shows no wrong output of Halide's"
	args := []string{"halide", gen, "-o", t.TempDir(), "--validate", "--target", "x86-64-linux-avx-avx2-f16c-fma-sse41", "--timeout", "5m", "--json"}
	var out, errw bytes.Buffer
	if code := execute(args, nil, &out, &errw); code != exitUnknown {
		t.Fatalf("augur %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, exitUnknown, out.String(), errw.String())
	}
	var rep validate.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("the standard output is not a report: %v\n%s", err, out.String())
	}
	n := rep.Native
	if rep.Verdict != validate.Unknown || rep.Reason != reason || rep.Counterexample == nil || n == nil ||
		n.Outcome != validate.NativeNotReproduced || n.Cause != validate.CauseOverflow ||
		!strings.HasSuffix(n.Reason, "; the counterexample needs a signed overflow of the kernel's arithmetic, undefined in Halide: with the kernel's i32 and i64 overflow unconstrained, the reference interpreter's replay passes") {
		t.Fatalf("verdict %s (%s), native check %+v: want unknown (%s), not reproduced by Halide's code, signed overflow", rep.Verdict, rep.Reason, n, reason)
	}
}
