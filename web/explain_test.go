package web

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/augur-verify/augur/validate"
)

// The blur whose last row is read twice: the annotation's equation, the
// elements both sides read, and the inputs behind the computed number,
// recomputed on seed 1 to the report's 0.19444445 and 0.6527778.
func TestCounterexampleExplained(t *testing.T) {
	_, h := newTest(t)
	_, _, doc := get(t, h, "/validations/v-invalid")
	sec := byID(doc, "explanation")
	if sec == nil {
		t.Fatal("no explanation next to the counterexample")
	}
	eq := findAll(sec, hasClass("equation"))
	if len(eq) != 1 || text(eq[0]) != "Out(x, y) = (BH(x, y) + BH(x, y + 1) + BH(x, y + 2)) / 9" || attr(eq[0].Parent, "href") != "#S12" {
		t.Fatalf("equation %q", texts(eq))
	}
	// (-2.875 + 4.375 + 0.25) / 9 = 0.19444445, the annotation;
	// (-2.875 + 4.375 + 4.375) / 9 = 0.6527778, the kernel's.
	want := []string{"BH(2, 0) = -2.875", "BH(2, 1) = 4.375", "BH(2, 2) = 0.25", "BH(2, 0) = -2.875", "BH(2, 1) = 4.375"}
	if got := texts(findAll(sec, hasClass("element"))); !slices.Equal(got, want) {
		t.Errorf("elements %q, want %q", got, want)
	}
	body := text(sec)
	for _, in := range []string{"In(2, 0) = -2.75", "In(3, 0) = 3.375", "In(4, 0) = -3.5", "In(2, 1) = -1.625", "In(3, 1) = 3.875", "In(4, 1) = 2.125", "seed 1"} {
		if !strings.Contains(body, in) {
			t.Errorf("the explanation lacks %q:\n%s", in, body)
		}
	}
	if strings.Contains(body, "In(2, 2)") {
		t.Errorf("the explanation lists an input the computed number does not read:\n%s", body)
	}
}

// An explanation is shown only when it gives the report's numbers again.
func TestCounterexampleNotExplained(t *testing.T) {
	spec, err := os.ReadFile("../examples/blur/blur.sare")
	if err != nil {
		t.Fatal(err)
	}
	rep := readReport(t, "testdata/blur_broken_wrong_row.json")
	ctx := context.Background()
	if x := explain(ctx, "blur.sare", string(spec), rep.Counterexample); x == nil || x.Seed != 1 {
		t.Fatalf("the report's own counterexample is not explained: %+v", x)
	}
	for name, change := range map[string]func(cx *validate.Counterexample){
		"another expected value":         func(cx *validate.Counterexample) { cx.ExpectedValue = "0.2" },
		"another computed value":         func(cx *validate.Counterexample) { cx.ActualValue = "0.65" },
		"another seed":                   func(cx *validate.Counterexample) { cx.Seed, cx.Detail = 2, "" },
		"parameters off the assumptions": func(cx *validate.Counterexample) { cx.Params[0].Value = 0 },
		"no annotation":                  func(cx *validate.Counterexample) { cx.ExpectedExpr = "" },
		"an input annotation":            func(cx *validate.Counterexample) { cx.ExpectedExpr = "In(2, 0)" },
		"a malformed expression":         func(cx *validate.Counterexample) { cx.ActualExpr = "(BH(2, 0) +" },
		"an unknown tensor":              func(cx *validate.Counterexample) { cx.ActualExpr = "Nope(1)" },
		"an ill-typed input": func(cx *validate.Counterexample) {
			cx.Inputs = []validate.InputValue{{Tensor: "In", Index: []int64{0, 0}, Value: "x"}}
		},
	} {
		cx := *rep.Counterexample
		cx.Params = slices.Clone(cx.Params)
		change(&cx)
		if x := explain(ctx, "blur.sare", string(spec), &cx); x != nil {
			t.Errorf("%s: explained anyway: %+v", name, x)
		}
	}
	if x := explain(ctx, "blur.sare", "param N\nthis is no specification", rep.Counterexample); x != nil {
		t.Errorf("a malformed specification: explained anyway")
	}
}
