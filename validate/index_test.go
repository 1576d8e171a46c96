package validate

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestApplyIndexChecks: an index overflow check not proved makes VALID
// UNKNOWN, naming the buffer, the term and the dimension; assumed, VALID
// stays and says so; INVALID keeps its reason; the text and the JSON list
// the checks.
func TestApplyIndexChecks(t *testing.T) {
	proved := IndexCheck{Access: "load", Buffer: "input", Index: "x", Result: IndexProved, Dimension: -1}
	over := IndexCheck{Access: "store", Buffer: "out", Index: "(x + t4)", Result: IndexOverflows,
		Term: "(out.min.1*out.stride.1)", Bits: 32, Value: "4294967296", Dimension: 1,
		Witness: []IndexValue{{"out.min.1", 65536}, {"out.stride.1", 65536}}}
	r := &Report{Verdict: Valid}
	r.ApplyIndexChecks([]IndexCheck{proved}, false)
	if r.Verdict != Valid || r.IndexOverflowAssumed {
		t.Errorf("all proved: %s, assumed %v; want valid, not assumed", r.Verdict, r.IndexOverflowAssumed)
	}
	r = &Report{Verdict: Valid}
	r.ApplyIndexChecks([]IndexCheck{proved, over}, false)
	want := "store of out at (x + t4): overflows: (out.min.1*out.stride.1) = 4294967296, outside int32 (out's dimension 1)"
	if r.Verdict != Unknown || !strings.HasPrefix(r.Reason, IndexOverflowReason) || !strings.HasSuffix(r.Reason, want) {
		t.Errorf("an overflow: %s (%s); want unknown ending %q", r.Verdict, r.Reason, want)
	}
	var text bytes.Buffer
	if err := r.WriteText(&text, false); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"index overflow: 1 of 2 accesses' indices proved", want + " at out.min.1 = 65536, out.stride.1 = 65536"} {
		if !strings.Contains(text.String(), w) {
			t.Errorf("the text has no %q:\n%s", w, text.String())
		}
	}
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"index_checks":[`) || !strings.Contains(string(js), `"result":"overflows"`) {
		t.Errorf("the JSON has no index checks: %s", js)
	}
	r = &Report{Verdict: Valid}
	r.ApplyIndexChecks([]IndexCheck{over}, true)
	text.Reset()
	_ = r.WriteText(&text, false)
	if r.Verdict != Valid || !r.IndexOverflowAssumed || !strings.Contains(text.String(), "the verdict assumes the others do not overflow") {
		t.Errorf("assumed: %s, assumed %v:\n%s", r.Verdict, r.IndexOverflowAssumed, text.String())
	}
	r = &Report{Verdict: Invalid, Reason: "annotation mismatch"}
	r.ApplyIndexChecks([]IndexCheck{over}, false)
	if r.Verdict != Invalid || r.Reason != "annotation mismatch" {
		t.Errorf("invalid: %s (%s); want invalid (annotation mismatch)", r.Verdict, r.Reason)
	}
}
