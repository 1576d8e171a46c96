package compiler

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// examples lists every example algorithm with two parameter sets that
// satisfy its assumptions.
var examples = []struct {
	name   string
	params [2]map[string]int64
}{
	{"matmul", [2]map[string]int64{{"N": 1, "M": 1, "K": 1}, {"N": 3, "M": 4, "K": 5}}},
	{"blur", [2]map[string]int64{{"W": 1, "H": 1}, {"W": 5, "H": 3}}},
	{"conv1d", [2]map[string]int64{{"N": 1, "K": 1}, {"N": 6, "K": 3}}},
	{"stencils", [2]map[string]int64{{"N": 2}, {"N": 9}}},
	{"separable", [2]map[string]int64{{"W": 1, "H": 1, "R": 1}, {"W": 4, "H": 3, "R": 3}}},
}

func compileFile(t *testing.T, name string) *Result {
	t.Helper()
	r, err := Compile(context.Background(), loadExample(t, name), filepath.Base(name), Options{})
	if err != nil {
		t.Fatalf("%s: compile: %v", name, detail(err))
	}
	return r
}

func detail(err error) string {
	if el, ok := err.(syntax.ErrorList); ok {
		return el.Detail()
	}
	return err.Error()
}

// TestExamplesRun compiles every example, plain and scheduled, and runs
// the kernel with the reference interpreter on random inputs at two
// parameter sets: every annotation and every output cell must match. The
// scheduled examples' second set is never a multiple of their split
// factors, so that every guarded, shifted or rounded tail runs.
func TestExamplesRun(t *testing.T) {
	for _, ex := range append(examples, scheduledExamples...) {
		t.Run(ex.name, func(t *testing.T) {
			r := compileFile(t, ex.name)
			for i, params := range ex.params {
				if err := runKernel(r, params, uint64(i+1)); err != nil {
					t.Fatalf("params %v: %v\n%s\n%s", params, err, r.Spec, r.Kernels[0].Text)
				}
			}
		})
	}
}

// TestExamplesValidate validates every compiled example, plain and
// scheduled, with the verifier in the real value model: each must be
// VALID.
func TestExamplesValidate(t *testing.T) {
	if testing.Short() {
		t.Skip("the verifier takes a few seconds per example")
	}
	for _, ex := range append(examples, scheduledExamples...) {
		t.Run(ex.name, func(t *testing.T) {
			r := compileFile(t, ex.name)
			if rep := validatePair(t, r); rep.Verdict != validate.Valid {
				var b bytes.Buffer
				rep.WriteText(&b, false)
				t.Fatalf("verdict %s, want valid\n%s\n%s\n%s", rep.Verdict, b.String(), r.Spec, r.Kernels[0].Text)
			}
		})
	}
}

// TestSpecsLoad checks that every example's specification is well formed
// and declares one tensor per stage.
func TestSpecsLoad(t *testing.T) {
	want := map[string][]string{
		"matmul":    {"A", "B", "C_0", "C_1", "C"},
		"blur":      {"In", "BH", "Out"},
		"conv1d":    {"In", "Kern", "Conv_0", "Conv_1", "Conv"},
		"stencils":  {"In", "S1", "S2"},
		"separable": {"In", "Wt", "Hz_0", "Hz_1", "Hz", "Vt_0", "Vt_1", "Vt"},
	}
	for _, ex := range examples {
		r := compileFile(t, ex.name)
		spec, _, err := sare.Load(&syntax.Source{Name: "spec.sare", Text: r.Spec})
		if err != nil {
			t.Fatalf("%s: %v", ex.name, detail(err))
		}
		var got []string
		for _, tn := range spec.Tensors {
			got = append(got, tn.Name.Name)
		}
		if strings.Join(got, " ") != strings.Join(want[ex.name], " ") {
			t.Errorf("%s: tensors %v, want %v", ex.name, got, want[ex.name])
		}
	}
}
