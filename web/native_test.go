package web

import (
	"encoding/json"
	"strings"
	"testing"

	"golang.org/x/net/html/atom"

	"github.com/augur-verify/augur/validate"
)

// TestNativeCheck checks that a validation page shows the run of the
// compiler's code on the counterexample, when the report has one: the
// outcome, the reason, the cells that differ and the inputs.
func TestNativeCheck(t *testing.T) {
	s, h := newTest(t)
	v, err := s.Get(t.Context(), "v-invalid")
	if err != nil {
		t.Fatal(err)
	}
	var rep validate.Report
	if err := json.Unmarshal(v.Report, &rep); err != nil {
		t.Fatal(err)
	}
	_, _, doc := get(t, h, "/validations/v-invalid")
	if n := byID(doc, "native"); n != nil {
		t.Fatalf("a report without a native check shows one: %q", text(n))
	}
	rep.Native = &validate.NativeCheck{Compiler: "Halide", Outcome: validate.NativeConfirmed,
		Reason: "Halide's compiled pipeline differs from the algorithm at 3 of 4 output cells", Compared: 4, Differing: 3,
		Cells:  []validate.NativeCell{{Tensor: "Out", Index: []int64{2, 0}, Expected: "188", Unscheduled: "188", Actual: "5", Again: "254"}},
		Inputs: []validate.InputValue{{Tensor: "In", Index: []int64{0, 1}, Value: "70"}}, Seed: 3}
	b, err := json.Marshal(&rep)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range s.vs {
		if x.ID == "v-invalid" {
			x.Report = b
		}
	}
	_, _, doc = get(t, h, "/validations/v-invalid")
	n := byID(doc, "native")
	if n == nil {
		t.Fatal("no native check on the page")
	}
	got := strings.Join(strings.Fields(text(n)), " ")
	for _, w := range []string{
		"Confirmed in Halide's code",
		"differs from the algorithm at 3 of 4 output cells",
		"Out(2, 0)5 (254 with other poison)188188",
		"3 cells differ in all, of 4 compared.",
		"Inputs: In(0, 1)=70 the others random (seed 3)",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("the native check lacks %q:\n%s", w, got)
		}
	}
	if len(findAll(n, isTag(atom.Table))) != 1 {
		t.Errorf("the differing cells are not a table")
	}
}

// TestNativeCheckLeftOut checks the page of a report made UNKNOWN by its
// native check: Halide's code stopped at a check the kernel leaves out.
// The reason and the native check both show.
func TestNativeCheckLeftOut(t *testing.T) {
	s, h := newTest(t)
	v, err := s.Get(t.Context(), "v-invalid")
	if err != nil {
		t.Fatal(err)
	}
	var rep validate.Report
	if err := json.Unmarshal(v.Report, &rep); err != nil {
		t.Fatal(err)
	}
	reason := "the counterexample stops Halide's code at its check halide_error_bad_fold, which the translation leaves out; Augur's invalid verdict on the kernel shows no wrong output of Halide's"
	rep.Verdict, rep.Reason = validate.Unknown, reason
	rep.Native = &validate.NativeCheck{Compiler: "Halide", Outcome: validate.NativeNotReproduced, Cause: validate.CauseCheckLeftOut,
		Reason: "Halide's compiled pipeline stops at its check halide_error_bad_fold, which the translation leaves out of the kernel", Seed: 1}
	b, err := json.Marshal(&rep)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range s.vs {
		if x.ID == "v-invalid" {
			x.Report, x.Verdict = b, string(validate.Unknown)
		}
	}
	_, _, doc := get(t, h, "/validations/v-invalid")
	n := byID(doc, "native")
	if n == nil {
		t.Fatal("no native check on the page")
	}
	got := strings.Join(strings.Fields(text(n)), " ")
	if w := "Not reproduced by Halide's code (check left out)"; !strings.Contains(got, w) {
		t.Errorf("the native check lacks %q:\n%s", w, got)
	}
	if page := strings.Join(strings.Fields(text(doc)), " "); !strings.Contains(page, reason) {
		t.Errorf("the page lacks the reason %q", reason)
	}
}
