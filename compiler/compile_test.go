package compiler

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/compiler/alg"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
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
	path := filepath.Join("..", "examples", "alg", name+".alg")
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := alg.Load(&syntax.Source{Name: path, Text: string(text)})
	if err != nil {
		t.Fatalf("%s: %v", path, detail(err))
	}
	r, err := Compile(context.Background(), p, name, Options{})
	if err != nil {
		t.Fatalf("%s: compile: %v", path, detail(err))
	}
	return r
}

func detail(err error) string {
	if el, ok := err.(syntax.ErrorList); ok {
		return el.Detail()
	}
	return err.Error()
}

// TestExamplesRun compiles every example, loads the specification and the
// kernel, and runs the kernel with the reference interpreter on random
// inputs at two parameter sets: every annotation and every output cell
// must match.
func TestExamplesRun(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			r := compileFile(t, ex.name)
			spec, info, err := sare.Load(&syntax.Source{Name: "spec.sare", Text: r.Spec})
			if err != nil {
				t.Fatalf("spec does not load: %v\n%s", detail(err), r.Spec)
			}
			k, kinfo, err := sched.Load(&syntax.Source{Name: "prog.sched", Text: r.Sched}, spec)
			if err != nil {
				t.Fatalf("kernel does not load: %v\n%s", detail(err), r.Sched)
			}
			for i, params := range ex.params {
				ev, err := sare.NewEvaluator(spec, info, params, sare.RandomInputs(uint64(i+1)))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := sched.Run(context.Background(), k, kinfo, ev, sched.Options{}); err != nil {
					t.Fatalf("params %v: %v\n%s", params, err, r.Sched)
				}
			}
		})
	}
}

// TestExamplesValidate validates every compiled example with the verifier
// in the real value model: each must be VALID.
func TestExamplesValidate(t *testing.T) {
	if testing.Short() {
		t.Skip("the verifier takes a few seconds per example")
	}
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			r := compileFile(t, ex.name)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			rep, err := validate.Validate(ctx, &syntax.Source{Name: "spec.sare", Text: r.Spec},
				&syntax.Source{Name: "prog.sched", Text: r.Sched}, validate.Options{Jobs: 2})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != validate.Valid {
				var b bytes.Buffer
				rep.WriteText(&b, false)
				t.Fatalf("verdict %s, want valid\n%s\n%s\n%s", rep.Verdict, b.String(), r.Spec, r.Sched)
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
