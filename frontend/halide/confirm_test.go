package halide

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
	"github.com/augur-verify/augur/value"
)

// invalidWitness validates the pair, which must be INVALID, and returns
// its counterexample as a Witness.
func invalidWitness(t *testing.T, ctx context.Context, pair *frontend.Pair) Witness {
	t.Helper()
	vctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	rep, err := validatePair(vctx, pair, encode.Real, 2)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != validate.Invalid || rep.Counterexample == nil {
		t.Fatalf("verdict %s (%s), want invalid with a counterexample", rep.Verdict, rep.Reason)
	}
	cx := rep.Counterexample
	w := Witness{Params: map[string]int64{}, Seed: cx.Seed, Kind: cx.Kind}
	for _, p := range cx.Params {
		w.Params[p.Name] = p.Value
	}
	for _, x := range cx.Inputs {
		w.Inputs = append(w.Inputs, Cell{Tensor: x.Tensor, Index: x.Index, Value: x.Value})
	}
	return w
}

// TestConfirmHalideBug runs Halide issue 8140's pipeline, which stock
// Halide 14 miscompiles, on Augur's counterexample: the compiled pipeline
// computes another value than the algorithm, Halide's unscheduled one
// and the specification's, which agree.
func TestConfirmHalideBug(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx := context.Background()
	d := buildDriver(t, tc, filepath.Join("testdata", "confirm", "sliding_8140.cpp"))
	o := Options{Target: SuiteTarget}
	pair := translated(ctx, t, d, o)
	w := invalidWitness(t, ctx, pair)
	if w.Kind != sched.UndefinedRead {
		t.Errorf("counterexample kind %s, want %s", w.Kind, sched.UndefinedRead)
	}
	c, err := Confirm(ctx, d, o, pair.Spec, pair.Kernel(frontend.Prog).Text, w, 0)
	if err != nil {
		t.Fatal(err)
	}
	if c.Outcome != Confirmed || c.Differing != 1 || c.Compared != 1 || len(c.Differences) != 1 {
		t.Fatalf("%s, %d of %d cells differ (%s), want confirmed at the one output cell", c.Outcome, c.Differing, c.Compared, c.Reason)
	}
	diff := c.Differences[0]
	if diff.Tensor != "f2_0" || diff.Expected != diff.Unscheduled || diff.Actual == diff.Expected {
		t.Errorf("difference %+v: want f2_0 computed wrong, the unscheduled pipeline agreeing with the specification", diff)
	}
	// The cell of f1 never written is on the stack: the two runs, with
	// their memory poisoned differently, read different values there.
	if diff.Again == "" || diff.Again == diff.Actual {
		t.Errorf("difference %+v: want the two poisoned runs to differ", diff)
	}
	if len(c.Inputs) != 1 || c.Inputs[0].Tensor != "input_" {
		t.Errorf("inputs %v, want the one element of input_", c.Inputs)
	}
	t.Logf("%s: %+v; %s", c.Outcome, diff, c.Reason)
}

// TestConfirmPlanted runs Halide's code on the counterexample of a
// miscompilation planted in the translation (blur_x's fold of 4 rows
// made 2): Halide's code is right, so the difference is not reproduced
// and the translation is suspect. The same witness, said to show a race
// or a read of memory never written, names those causes; parameters
// Halide's checks reject are not reproduced either.
func TestConfirmPlanted(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx := context.Background()
	d := driver(t, tc, "blur")
	o := Options{Target: SuiteTarget}
	pair := translated(ctx, t, d, o)
	mutated, _, err := Mutate(pair.Kernel(frontend.Prog).Text, "fold:2")
	if err != nil {
		t.Fatal(err)
	}
	mutant := &frontend.Pair{Spec: pair.Spec, Kernels: []frontend.Kernel{{Name: frontend.Prog, Text: mutated}}}
	w := invalidWitness(t, ctx, mutant)
	cases := []struct {
		kind   sched.Kind
		params map[string]int64
		cause  Cause
		reason string
	}{
		{w.Kind, nil, Translation, "translation is suspect"},
		{sched.ReadWriteRace, nil, Race, "race"},
		{sched.UndefinedRead, nil, UninitializedMemory, "never written"},
		{w.Kind, map[string]int64{"input_extent_0": 1}, Translation, "rejects"},
	}
	for _, tt := range cases {
		t.Run(tt.cause.String(), func(t *testing.T) {
			cw := w
			cw.Kind = tt.kind
			cw.Params = maps.Clone(w.Params)
			maps.Copy(cw.Params, tt.params)
			c, err := Confirm(ctx, d, o, mutant.Spec, mutated, cw, 0)
			if err != nil {
				t.Fatal(err)
			}
			if c.Outcome != NotReproduced || c.Cause != tt.cause || !strings.Contains(c.Reason, tt.reason) {
				t.Fatalf("%s (%s): %s, want not reproduced (%s) saying %q", c.Outcome, c.Cause, c.Reason, tt.cause, tt.reason)
			}
			if tt.params == nil && (c.Compared == 0 || c.Differing != 0) {
				t.Errorf("%d of %d cells differ, want none of some", c.Differing, c.Compared)
			}
		})
	}
}

// TestConfirmOverrun checks that a run that wrote outside one of its
// allocations confirms a failure by itself, outputs right or not, and
// that readRun reads the count the driver writes.
func TestConfirmOverrun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	run := filepath.Join(dir, "result.0")
	if err := os.WriteFile(run, []byte("out f 0 = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(run+".overrun", []byte("2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, msg, n, err := readRun(run)
	if err != nil || msg != "" || n != 2 || len(s.Outputs) != 1 {
		t.Fatalf("readRun: %v, %q, %d overruns, %v", s, msg, n, err)
	}
	for _, outcome := range []Outcome{NotReproduced, Confirmed} {
		c := &Confirmation{Outcome: outcome, Compared: 4, Overruns: n}
		if outcome == Confirmed {
			c.Differing = 1
		}
		c.classify(sched.UndefinedRead, true, "", false)
		if c.Outcome != Confirmed || c.Cause != 0 || !strings.Contains(c.Reason, "writes outside 2 of its allocations") {
			t.Errorf("%s before: %s (%s): %s", outcome, c.Outcome, c.Cause, c.Reason)
		}
	}
}

// TestConfirmUndefined checks that a failure not reproduced whose
// counterexample lies where the specification has no value (an integer
// conversion of an infinite float) has the cause Undefined, the cells
// counted apart from those compared, while a wrong value there is still
// Halide's to explain.
func TestConfirmUndefined(t *testing.T) {
	t.Parallel()
	const spec = "param n\n\ninput in_(d0) : f32\n\ntensor out_(x) : i32\nout_(x) = i32(f32(100.0) / in_(x))\n\noutput out_\n"
	sp, info, _, err := parsePair(spec, "kernel k(n)\nout buf_out[d0] : i32[n] = out_(d0)\n{\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	inputs := sare.InputMap{"in_": func(idx []int64) value.Value {
		v, _ := value.Parse(syntax.F32, []string{"0", "4"}[idx[0]])
		return v
	}}
	ev, err := sare.NewEvaluator(sp, info, map[string]int64{"n": 2}, inputs)
	if err != nil {
		t.Fatal(err)
	}
	run := func(v0, v1 string) *Sample {
		return &Sample{Outputs: []Cell{{Tensor: "out_", Index: []int64{0}, Value: v0}, {Tensor: "out_", Index: []int64{1}, Value: v1}}}
	}
	c, err := compare(context.Background(), sp, ev, nil, []*Sample{run("-2147483648", "25"), run("-2147483648", "25"), run("7", "25")}, 0)
	if err != nil {
		t.Fatal(err)
	}
	c.classify(sched.UndefinedStore, true, "", false)
	if c.Outcome != NotReproduced || c.Cause != Undefined || c.Compared != 2 || c.Undefined != 1 ||
		!strings.Contains(c.Reason, "no value at 1 of the 2 output cells") {
		t.Errorf("undefined at out_(0): %s (%s), %d compared, %d undefined: %s", c.Outcome, c.Cause, c.Compared, c.Undefined, c.Reason)
	}
	c, err = compare(context.Background(), sp, ev, nil, []*Sample{run("0", "24"), run("0", "24"), run("0", "25")}, 0)
	if err != nil {
		t.Fatal(err)
	}
	c.classify(sched.UndefinedStore, true, "", false)
	if c.Outcome != Confirmed || c.Differing != 1 {
		t.Errorf("a wrong value beside the undefined one: %s (%s), %d differing", c.Outcome, c.Cause, c.Differing)
	}
}

// TestConfirmRounding checks that, in the real value model, a difference
// from the algorithm at a cell whose value is sensitive to rounding (a
// cancellation binary32 rounds to 0, where binary64 keeps 0.3) confirms
// nothing, the cell counted apart and the cause Rounding, while a wrong
// value at a cell that is not sensitive, a value from memory never
// written, or any difference in the ieee value model still confirms.
func TestConfirmRounding(t *testing.T) {
	t.Parallel()
	const spec = "param n\n\ninput in_(d0) : f32\n\ntensor out_(x) : f32\nout_(x) = (in_(x) + 100000000.0) - f32(100000000.0)\n\noutput out_\n"
	sp, info, _, err := parsePair(spec, "kernel k(n)\nout buf_out[d0] : f32[n] = out_(d0)\n{\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	inputs := sare.InputMap{"in_": func(idx []int64) value.Value {
		v, _ := value.Parse(syntax.F32, []string{"0.3", "1000000000"}[idx[0]])
		return v
	}}
	params := map[string]int64{"n": 2}
	ev, err := sare.NewEvaluator(sp, info, params, inputs)
	if err != nil {
		t.Fatal(err)
	}
	run := func(v0, v1 string) *Sample {
		return &Sample{Outputs: []Cell{{Tensor: "out_", Index: []int64{0}, Value: v0}, {Tensor: "out_", Index: []int64{1}, Value: v1}}}
	}
	ctx := context.Background()
	const tol = 1e-5
	wide := widened(sp, params, inputs, tol)
	if wide == nil {
		t.Fatal("the specification did not widen")
	}
	for _, tc := range []struct {
		name       string
		wide       *sare.Evaluator
		tol        float64
		runs       []*Sample
		outcome    Outcome
		cause      Cause
		sensitive  int
		differing  int
		reasonPart string
	}{
		{"reassociated at the cancellation", wide, tol, []*Sample{run("0.3", "1e9"), run("0.3", "1e9"), run("0", "1e9")},
			NotReproduced, Rounding, 1, 0, "agree with the algorithm at the 1 of 2 output cells whose values are not sensitive to rounding"},
		{"unscheduled off at the cancellation", wide, tol, []*Sample{run("0.3", "1e9"), run("0.3", "1e9"), run("0.3", "1e9")},
			NotReproduced, Rounding, 1, 0, "binary32 and binary64 differ"},
		{"wrong where not sensitive", wide, tol, []*Sample{run("0", "2e9"), run("0", "2e9"), run("0", "1e9")},
			Confirmed, 0, 0, 1, "differs from the algorithm at 1 of 2"},
		{"memory never written at the cancellation", wide, tol, []*Sample{run("0.5", "1e9"), run("0.7", "1e9"), run("0", "1e9")},
			Confirmed, 0, 0, 1, "memory never written"},
		{"ieee: every bit counts", nil, 0, []*Sample{run("0.3", "1e9"), run("0.3", "1e9"), run("0", "1e9")},
			Confirmed, 0, 0, 1, "differs from the algorithm at 1 of 2"},
	} {
		c, err := compare(ctx, sp, ev, tc.wide, tc.runs, tc.tol)
		if err != nil {
			t.Fatal(err)
		}
		c.classify(sched.WrongValue, true, "", false)
		if c.Outcome != tc.outcome || c.Cause != tc.cause || c.Sensitive != tc.sensitive || c.Differing != tc.differing ||
			!strings.Contains(c.Reason, tc.reasonPart) {
			t.Errorf("%s: %s (%s), %d sensitive, %d differing: %s", tc.name, c.Outcome, c.Cause, c.Sensitive, c.Differing, c.Reason)
		}
	}
}

// TestConfirmRoundingIIRBlur runs Halide's iir_blur, which Halide
// compiles right, on random inputs (alpha too, so that its recurrences
// amplify their roundings to values near 1e33): no cell may confirm a
// failure of Halide's, and the cells where the scheduled code's roundings
// land away from the specification's are those sensitive to rounding.
func TestConfirmRoundingIIRBlur(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	ctx := context.Background()
	d := driver(t, tc, "iir_blur")
	o := Options{Target: SuiteTarget}
	pair := translated(ctx, t, d, o)
	w := Witness{Params: map[string]int64{}, Seed: 1, Kind: sched.WrongValue}
	for _, dim := range []string{"0", "1", "2"} {
		for _, buf := range []string{"input", "output"} {
			w.Params[buf+"_min_"+dim] = 0
			w.Params[buf+"_extent_"+dim] = map[string]int64{"0": 64, "1": 64, "2": 3}[dim]
		}
	}
	c, err := Confirm(ctx, d, o, pair.Spec, pair.Kernel(frontend.Prog).Text, w, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s (%s): %d compared, %d sensitive, %d differing: %s", c.Outcome, c.Cause, c.Compared, c.Sensitive, c.Differing, c.Reason)
	if c.Outcome != NotReproduced || c.Differing != 0 || c.Compared != 64*64*3 {
		t.Errorf("%s (%s): %d compared, %d differing, want not reproduced with none differing of 12288", c.Outcome, c.Cause, c.Compared, c.Differing)
	}
	if c.Sensitive > 0 && c.Cause != Rounding {
		t.Errorf("%d sensitive cells, cause %s, want %s", c.Sensitive, c.Cause, Rounding)
	}
}
