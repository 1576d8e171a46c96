package sare

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

// FuzzParse checks that parsing never panics; that whatever parses
// prints to text that parses back to an Equal specification and prints
// the same again; that Check never panics; and that a specification that
// checks survives JSON and can be evaluated at a few points without
// panicking.
func FuzzParse(f *testing.F) {
	for _, file := range append(exampleFiles(f), errorFiles(f)...) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	for _, text := range roundTripSpecs {
		f.Add(text)
	}
	f.Fuzz(runFuzzBody)
}

// runFuzzBody is FuzzParse's property on one input.
func runFuzzBody(t *testing.T, text string) {
	spec, errs := Parse(&syntax.Source{Name: "fuzz.sare", Text: text})
	info, cerrs := Check(spec)
	if len(errs) > 0 {
		return
	}
	printed := Print(spec)
	again, errs2 := Parse(&syntax.Source{Name: "printed.sare", Text: printed})
	if len(errs2) > 0 {
		t.Fatalf("printed form does not parse: %v\ninput:\n%s\nprinted:\n%s", errs2.Detail(), text, printed)
	}
	if !Equal(spec, again) {
		t.Fatalf("parse(print(x)) != x\ninput:\n%s\nprinted:\n%s\nreprinted:\n%s", text, printed, Print(again))
	}
	if p2 := Print(again); p2 != printed {
		t.Fatalf("printing is not idempotent:\n%s\n%s", printed, p2)
	}
	data, err := MarshalSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	back, err := UnmarshalSpec(data)
	if len(cerrs) > 0 {
		return
	}
	if err != nil {
		t.Fatalf("JSON of a valid specification does not decode: %v\n%s", err, data)
	}
	if !Equal(spec, back) {
		t.Fatalf("JSON round trip changed the specification:\n%s", data)
	}
	params := map[string]int64{}
	for _, p := range spec.Params {
		params[p.Name] = 2
	}
	ev, err := NewEvaluator(spec, info, params, RandomInputs(1))
	if err != nil {
		return
	}
	ev.MaxPoints = 2000
	ctx := context.Background()
	for _, tensor := range spec.Tensors {
		for _, base := range []int64{-1, 0, 1} {
			idx := make([]int64, tensor.Rank())
			for i := range idx {
				idx[i] = base + int64(i)
			}
			_, err := ev.Eval(ctx, tensor.Name.Name, idx)
			if err != nil && !expectedEvalError(err) {
				t.Fatalf("checked specification fails to evaluate %s%v: %v\n%s", tensor.Name.Name, idx, err, text)
			}
		}
	}
}

// expectedEvalError reports whether err is one a checked specification
// may meet at run time; any other error means that the checker accepted
// what the evaluator cannot evaluate.
func expectedEvalError(err error) bool {
	msg := err.Error()
	for _, ok := range []string{"cyclic dependency", "ill-defined specification", "index overflow", "overflows the index range", "more than"} {
		if strings.Contains(msg, ok) {
			return true
		}
	}
	return false
}
