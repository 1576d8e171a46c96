package main

import (
	"strings"
	"testing"

	"github.com/augur-verify/augur/frontend/halide"
	"github.com/augur-verify/augur/validate"
)

// TestUnconfirmedDerived: an INVALID whose specification abstracts
// integers computed from float inputs is UNKNOWN unless Halide's code
// confirms it; a confirmed one, and one without such parameters, stay
// INVALID.
func TestUnconfirmedDerived(t *testing.T) {
	derived := []halide.DerivedParam{{Name: "r_sigma_int", Def: "i32(max(f32(1.0) / r_sigma(), f32(0.0)))"}}
	for _, c := range []struct {
		name   string
		spec   []halide.DerivedParam
		native validate.NativeOutcome
		want   validate.Verdict
	}{
		{"derived, not reproduced", derived, validate.NativeNotReproduced, validate.Unknown},
		{"derived, not run", derived, validate.NativeNotRun, validate.Unknown},
		{"derived, confirmed", derived, validate.NativeConfirmed, validate.Invalid},
		{"no derived parameter", nil, validate.NativeNotReproduced, validate.Invalid},
	} {
		rep := &validate.Report{Verdict: validate.Invalid, Reason: "out-of-bounds read",
			Native: &validate.NativeCheck{Outcome: c.native}}
		unconfirmedDerived(rep, c.spec)
		if rep.Verdict != c.want {
			t.Errorf("%s: verdict %s, want %s", c.name, rep.Verdict, c.want)
		}
		if c.want == validate.Unknown && !strings.Contains(rep.Reason, "r_sigma_int, integers Halide computes from float inputs") {
			t.Errorf("%s: reason %q", c.name, rep.Reason)
		}
	}
}
