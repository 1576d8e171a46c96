package compiler

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

func loadExample(t *testing.T, name string) *alg.Program { return loadExampleB(t, name) }

func loadExampleB(t testing.TB, name string) *alg.Program {
	t.Helper()
	path := filepath.Join("..", "..", "examples", "alg", name+".alg")
	if strings.Contains(name, "/") {
		path = filepath.Join("..", "..", "examples", filepath.FromSlash(name)+".alg")
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := alg.Load(&syntax.Source{Name: path, Text: string(text)})
	if err != nil {
		t.Fatalf("%s: %v", path, detail(err))
	}
	return p
}

// runKernel runs a compiled pair with the interpreter.
func runKernel(r *Result, params map[string]int64, seed uint64) error {
	spec, info, err := sare.Load(&syntax.Source{Name: "spec.sare", Text: r.Spec})
	if err != nil {
		return err
	}
	k, kinfo, err := sched.Load(&syntax.Source{Name: "prog.sched", Text: r.Kernels[0].Text}, spec)
	if err != nil {
		return err
	}
	ev, err := sare.NewEvaluator(spec, info, params, sare.RandomInputs(seed))
	if err != nil {
		return err
	}
	_, err = sched.Run(context.Background(), k, kinfo, ev, sched.Options{})
	return err
}

func validatePair(t *testing.T, r *Result) *validate.Report {
	t.Helper()
	return validateWith(t, r, validate.Options{Jobs: 2})
}

// validateWith validates the compiled pair with the given options.
func validateWith(t *testing.T, r *Result, opts validate.Options) *validate.Report {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	rep, err := validate.Validate(ctx, &syntax.Source{Name: "spec.sare", Text: r.Spec},
		&syntax.Source{Name: "prog.sched", Text: r.Kernels[0].Text}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestInjections compiles an example with each injected miscompilation:
// the interpreter must fail on it, and the verifier must answer invalid,
// with the reason of the bug when it proves without testing first.
func TestInjections(t *testing.T) {
	cases := []struct {
		inject, example, reason string
		params                  map[string]int64
	}{
		{InjectTailUnguarded, "conv1d_split", "out-of-bounds read", map[string]int64{"N": 7, "K": 5}},
		{InjectShiftUpdate, "conv1d_split", "annotation mismatch", map[string]int64{"N": 7, "K": 5}},
		{InjectHaloOffByOne, "blur_fold", "undefined read", map[string]int64{"W": 5, "H": 6}},
		{InjectFoldTooSmall, "blur_fold", "annotation mismatch", map[string]int64{"W": 5, "H": 6}},
		{InjectSwapReductions, "conv1d_split", "annotation mismatch", map[string]int64{"N": 7, "K": 5}},
		{InjectParallelReduction, "conv1d_split", "read-write race", map[string]int64{"N": 7, "K": 5}},
		{InjectMisplacedProducer, "blur_fold", "undefined read", map[string]int64{"W": 5, "H": 6}},
		{InjectVectorLane, "conv1d_split", "annotation mismatch", map[string]int64{"N": 7, "K": 5}},
		{InjectOvercomputeOutput, "conv1d_split", "out-of-bounds write", map[string]int64{"N": 7, "K": 5}},
		// The update reads cells not yet written: garbage writes (Clément
		// 2022, section 9.9) that the pure definition then overwrites with
		// 0, so the output holds 0 where the sum belongs.
		{InjectUpdateBeforePure, "conv1d_split", "output wrong value", map[string]int64{"N": 7, "K": 5}},
		{InjectReductionSkipTail, "reductions/alg/dot_rfactor_par", "incomplete reduction", map[string]int64{"N": 7}},
		{InjectReductionIdentity, "reductions/alg/isum_unroll4", "wrong identity", map[string]int64{"N": 7}},
		{InjectMergeOperator, "reductions/alg/dot_rfactor_par", "wrong reduction operator", map[string]int64{"N": 7}},
	}
	if len(cases) != len(Injections()) {
		t.Fatalf("%d cases for %d injections", len(cases), len(Injections()))
	}
	for _, tc := range cases {
		t.Run(tc.inject, func(t *testing.T) {
			p := loadExample(t, tc.example)
			r, err := Compile(context.Background(), p, "k", Options{Inject: tc.inject})
			if err != nil {
				t.Fatalf("compile: %v", detail(err))
			}
			if r.Injected != tc.inject {
				t.Fatalf("Injected = %q", r.Injected)
			}
			if err := runKernel(r, tc.params, 1); err == nil {
				t.Errorf("the interpreter accepts the miscompiled kernel\n%s", r.Kernels[0].Text)
			}
			if testing.Short() {
				return
			}
			// The reason is the proof's: testing first may meet
			// another failure of the same bug before (an annotation
			// mismatch where the proof finds the race behind it).
			rep := validateWith(t, r, validate.Options{Jobs: 2, NoQuickTest: true})
			if rep.Verdict != validate.Invalid || rep.Reason != tc.reason {
				t.Errorf("verdict %s (%s), want invalid (%s)\n%s", rep.Verdict, rep.Reason, tc.reason, r.Kernels[0].Text)
			}
			if rep := validatePair(t, r); rep.Verdict != validate.Invalid || !rep.Counterexample.Reproduced {
				t.Errorf("with testing first: verdict %s (%s), want invalid with a reproduced counterexample", rep.Verdict, rep.Reason)
			}
		})
	}
}

// TestInjectionNotApplicable: an injection that cannot apply is an error
// wrapping ErrNotApplicable, never a faithful kernel passed off as broken.
func TestInjectionNotApplicable(t *testing.T) {
	p := loadExample(t, "matmul")
	for _, in := range []string{InjectFoldTooSmall, InjectHaloOffByOne, InjectVectorLane, InjectOvercomputeOutput, InjectTailUnguarded, InjectMisplacedProducer} {
		_, err := Compile(context.Background(), p, "k", Options{Inject: in})
		if !errors.Is(err, ErrNotApplicable) {
			t.Errorf("%s on the unscheduled matmul: %v, want ErrNotApplicable", in, err)
		}
	}
	if _, err := Compile(context.Background(), p, "k", Options{Inject: "nope"}); err == nil {
		t.Error("unknown injection accepted")
	}
}

var allExamples = []string{"matmul", "blur", "conv1d", "stencils", "separable"}

// exampleParams are two parameter sets per unscheduled example.
func exampleParams(name string) [2]map[string]int64 {
	for _, ex := range examples {
		if ex.name == name {
			return ex.params
		}
	}
	return [2]map[string]int64{}
}

// TestAutoSchedule: the autoscheduler's kernel for every example runs and
// validates.
func TestAutoSchedule(t *testing.T) {
	for _, name := range allExamples {
		t.Run(name, func(t *testing.T) {
			p := loadExample(t, name)
			r, err := Compile(context.Background(), p, name, Options{Auto: true})
			if err != nil {
				t.Fatalf("compile: %v", detail(err))
			}
			if r.Schedule == "" {
				t.Fatal("the autoscheduler chose no directive")
			}
			for i, params := range exampleParams(name) {
				if err := runKernel(r, params, uint64(i)); err != nil {
					t.Fatalf("params %v: %v\n%s\n%s", params, err, r.Schedule, r.Kernels[0].Text)
				}
			}
			if testing.Short() {
				return
			}
			if rep := validatePair(t, r); rep.Verdict != validate.Valid {
				t.Fatalf("verdict %s (%s)\n%s\n%s", rep.Verdict, rep.Reason, r.Schedule, r.Kernels[0].Text)
			}
		})
	}
}

// TestFuzzSchedules compiles a seeded sample of random legal schedules of
// every example, runs each kernel at two parameter sets, and validates the
// first few of each.
func TestFuzzSchedules(t *testing.T) {
	n, nValidate := 20, 1
	if testing.Short() {
		n, nValidate = 8, 0
	}
	for _, name := range allExamples {
		t.Run(name, func(t *testing.T) {
			p := loadExample(t, name)
			got, err := FuzzSchedules(context.Background(), p, n, 2026, func(tr Trial) bool {
				for i, params := range exampleParams(name) {
					if err := runKernel(tr.Result, params, uint64(i)); err != nil {
						t.Errorf("schedule %d at %v: %v\n%s\n%s", tr.Index, params, err, tr.Text, tr.Result.Kernels[0].Text)
						return false
					}
				}
				if tr.Index <= nValidate {
					if rep := validatePair(t, tr.Result); rep.Verdict != validate.Valid {
						t.Errorf("schedule %d: verdict %s (%s)\n%s\n%s", tr.Index, rep.Verdict, rep.Reason, tr.Text, tr.Result.Kernels[0].Text)
					}
				}
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			if got != n {
				t.Errorf("%d distinct schedules, want %d", got, n)
			}
		})
	}
}

// TestFuzzThousand: the fuzzer produces 1,000 distinct legal schedules
// across the examples, each compiling.
func TestFuzzThousand(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles 1,000 schedules")
	}
	total := 0
	for _, name := range allExamples {
		p := loadExample(t, name)
		got, err := FuzzSchedules(context.Background(), p, 200, 7, func(Trial) bool { return true })
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		total += got
	}
	if total < 1000 {
		t.Errorf("%d distinct legal schedules, want 1000", total)
	}
}
