package validate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/augur-verify/augur/sched"
)

// TestNativeReport checks how a report shows the run of the compiler's
// code on its counterexample, as text and as JSON.
func TestNativeReport(t *testing.T) {
	cx := &Counterexample{Kind: sched.UndefinedRead, File: "prog.sched", Line: 3, Col: 1, Stmt: "s", Seed: 1}
	cases := []struct {
		native *NativeCheck
		text   []string
		json   string
	}{
		{&NativeCheck{Compiler: "Halide", Outcome: NativeConfirmed, Reason: "it differs", Compared: 4, Differing: 9,
			Cells:  []NativeCell{{Tensor: "f", Index: []int64{0, -1}, Expected: "188", Unscheduled: "188", Actual: "5", Again: "254"}},
			Inputs: []InputValue{{Tensor: "in", Index: []int64{0}, Value: "70"}}, AllInputs: true, Seed: 1},
			[]string{"\nCONFIRMED in Halide's code: it differs\n", "  f(0, -1):    5 computed, 188 expected (unscheduled: 188); 254 in a run with other poison\n",
				"  ... (8 more cells)\n", "  inputs:      in(0)=70\n"},
			`"native":{"compiler":"Halide","outcome":"confirmed","reason":"it differs","compared":4,"differing":9,"cells":[{"tensor":"f","index":[0,-1],"expected":"188","unscheduled":"188","actual":"5","again":"254"}],"inputs":[{"tensor":"in","index":[0],"value":"70"}],"all_inputs":true,"seed":1}`},
		{&NativeCheck{Compiler: "Halide", Outcome: NativeNotReproduced, Cause: CauseTranslation, Reason: "they agree", Compared: 4, Seed: 2},
			[]string{"\nNOT REPRODUCED by Halide's code (translation suspect): they agree\n"},
			`"native":{"compiler":"Halide","outcome":"not reproduced","cause":"translation suspect","reason":"they agree","compared":4,"differing":0,"seed":2}`},
		{&NativeCheck{Compiler: "Halide", Outcome: NativeNotRun, Reason: "no driver", Seed: 1},
			[]string{"\nNot run on Halide's code: no driver\n"}, `"outcome":"not run"`},
	}
	for _, c := range cases {
		r := &Report{Verdict: Invalid, Reason: "undefined read", Counterexample: cx, Native: c.native}
		var b strings.Builder
		if err := r.WriteText(&b, false); err != nil {
			t.Fatal(err)
		}
		for _, w := range c.text {
			if !strings.Contains(b.String(), w) {
				t.Errorf("text lacks %q:\n%s", w, b.String())
			}
		}
		j, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(j), c.json) {
			t.Errorf("JSON lacks %s:\n%s", c.json, j)
		}
	}
	var b strings.Builder
	if err := (&Report{Verdict: Invalid, Reason: "x", Counterexample: cx}).WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "s code") {
		t.Errorf("a report without a native check mentions one:\n%s", b.String())
	}
}
