package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
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
