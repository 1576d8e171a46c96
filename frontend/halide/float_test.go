package halide

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/validate"
)

// floatCases are pipelines built without strict_float, so that Halide's
// simplifier folds their float constants: each divides by a constant
// (x / 3 becomes x * 0.333333343) or factors a constant out of a sum
// (harris's Sobel weights 1/12 and 2/12). In the real model, reading the
// literals as their binary values and the folded ones as the constants
// of the specification they round, each is VALID.
var floatCases = []struct {
	name, file string
	// slow cases are skipped with -short
	slow bool
	// the sizes of a JIT sample: the outputs', the int parameters'
	sizes map[string][]int
	// a literal the kernel must spell exactly, and the readings the
	// report lists ("0.33333334 as 1 / 3")
	literal  string
	readings []string
}{
	{"harris", "apps/harris.cpp", true, map[string][]int{"output": {8, 32}},
		"f32(0.083333335816860198974609375)", nil},
	{"simple_blur", "testdata/float/simple_blur.cpp", false, map[string][]int{"output": {16, 8, 2}, "width": {11}, "height": {6}},
		"f32(0.3333333432674407958984375)", []string{"0.33333334 as 1 / 3"}},
	{"srgb_to_linear", "testdata/float/srgb_to_linear.cpp", false, map[string][]int{"linear": {8, 8, 3}},
		"f32(0.947867333889007568359375)", []string{"0.052132703 as 0.055 / 1.055", "0.07739938 as 1 / 12.92", "0.94786733 as 1 / 1.055"}},
	{"lesson_21", "testdata/float/lesson_21.cpp", true, map[string][]int{"output1": {9, 7}, "output2": {9, 7}},
		"f32(0.083333335816860198974609375)", nil},
}

// TestFloatConstants translates the floatCases, checks the kernel
// against Halide's JIT (within 1e-5: the kernel rounds differently from
// the specification) and validates it in the real model: VALID, with the
// readings of the folded constants listed.
func TestFloatConstants(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	for _, c := range floatCases {
		t.Run(c.name, func(t *testing.T) {
			if c.slow && testing.Short() {
				t.Skip("a generator's compilation takes tens of seconds")
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			pair := floatPair(t, ctx, tc, c.file)
			if !strings.Contains(pair.Kernel(frontend.Prog).Text, c.literal) {
				t.Errorf("the kernel does not spell %s", c.literal)
			}
			rep, err := validatePair(ctx, pair, encode.Real, 2)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			rep.WriteText(&buf, false)
			if rep.Verdict != validate.Valid {
				t.Fatalf("verdict %s (%s), want valid\n%s", rep.Verdict, rep.Reason, buf.String())
			}
			if rep.TimeBound {
				t.Errorf("a query reached the wall-clock guard: the verdict depends on the machine's load")
			}
			var got []string
			for _, r := range rep.Readings {
				got = append(got, r.Value+" as "+r.As)
			}
			if strings.Join(got, "; ") != strings.Join(c.readings, "; ") {
				t.Errorf("readings %q, want %q", got, c.readings)
			}
		})
	}
}

// floatPair builds the generator file (relative to this package) for the
// suite target without strict_float, translates it, checks the pair
// against a JIT sample of the case's sizes, and returns it.
func floatPair(t *testing.T, ctx context.Context, tc Toolchain, file string) *frontend.Pair {
	t.Helper()
	d := buildDriver(t, tc, file)
	o := Options{Target: SuiteTarget}
	pair := translated(ctx, t, d, o)
	spec, prog := pair.Spec, pair.Kernel(frontend.Prog).Text
	for _, c := range floatCases {
		if c.file != file {
			continue
		}
		s, err := JIT(ctx, d, o, c.sizes, 1)
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.CheckRounded(ctx, spec, prog, 1e-5)
		if err != nil {
			t.Fatalf("JIT sample (%v): %v", c.sizes, err)
		}
		if res.HalideCells == 0 || res.KernelCells != int64(res.HalideCells) {
			t.Errorf("JIT sample: %d cells from Halide, %d checked in the kernel", res.HalideCells, res.KernelCells)
		}
	}
	return pair
}

// TestFloatConstantsPlanted plants wrong constants in the folded kernels:
// 0.33 for the binary32 value nearest 1/3 in simple_blur, and the
// reciprocal of 12.29 for that of 12.92 in srgb_to_linear. Each is
// INVALID in the real model, with a counterexample that the interpreter
// reproduces.
func TestFloatConstantsPlanted(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	for _, c := range []struct {
		name, file, old, new string
	}{
		{"0.33 for 1/3", "testdata/float/simple_blur.cpp", "0.3333333432674407958984375", "0.33"},
		{"1/12.29 for 1/12.92", "testdata/float/srgb_to_linear.cpp", "0.077399380505084991455078125", "0.081366963684558868408203125"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			pair := floatPair(t, ctx, tc, c.file)
			k := pair.Kernel(frontend.Prog)
			planted := strings.Replace(k.Text, c.old, c.new, 1)
			if planted == k.Text {
				t.Fatalf("the kernel has no %s", c.old)
			}
			k.Text = planted
			rep, err := validatePair(ctx, pair, encode.Real, 2)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			rep.WriteText(&buf, false)
			if rep.Verdict != validate.Invalid || rep.Reason != "annotation mismatch" {
				t.Fatalf("verdict %s (%s), want invalid (annotation mismatch)\n%s", rep.Verdict, rep.Reason, buf.String())
			}
			if !rep.Counterexample.Reproduced || !strings.Contains(rep.Counterexample.ActualExpr, c.new) {
				t.Errorf("the counterexample is not the planted constant's, or not reproduced:\n%s", buf.String())
			}
		})
	}
}
