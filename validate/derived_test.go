package validate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/internal/testtier"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
)

// derivedText reads name from testdata/derived: lut.sare and
// lut.sched, a table of M entries read at an index computed from the float
// input S, where M is a parameter the compiler computes from S (a Halide
// pipeline's int32 of a float parameter). The read is in bounds only where
// M equals its computation, derivedDef.
func derivedText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "derived", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// derivedDef is M's computation in testdata/derived/lut.sare.
const derivedDef = "i32(min(max(S(), f32(0.0)), f32(100.0))) + i32(1)"

// runDerived validates the kernel prog against derivedText(t, "lut.sare") in the
// real model, with the hypothesis that M equals def (none when def is
// empty).
func runDerived(t *testing.T, prog *syntax.Source, def string) *Report {
	t.Helper()
	var ds []Derived
	if def != "" {
		d, err := ParseDerived("M", def)
		if err != nil {
			t.Fatal(err)
		}
		ds = []Derived{d}
	}
	spec := &syntax.Source{Name: "d.sare", Text: derivedText(t, "lut.sare")}
	// The solver's resource limit decides; the wall-clock guard is
	// set far above it, out of a loaded machine's way.
	rep, err := Validate(context.Background(), spec, prog, Options{ValueModel: encode.Real, Jobs: 1, Timeout: time.Hour, Derived: ds})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestDerivedHypothesis validates a kernel whose table's extent M is
// computed from a float input: free, M = -1 is a counterexample (an
// out-of-bounds read, INVALID). Planted, with the hypothesis that M
// equals a computation (Options.Derived): a computation one short of
// the table, and the kernel's table one entry short, stay INVALID,
// out-of-bounds reads that replay. TestLongDerivedHypothesis proves the
// kernel VALID with the right computation.
func TestDerivedHypothesis(t *testing.T) {
	t.Parallel()
	prog := &syntax.Source{Name: "d.sched", Text: derivedText(t, "lut.sched")}
	if rep := runDerived(t, prog, ""); rep.Verdict != Invalid || rep.Reason != "out-of-bounds read" {
		t.Fatalf("M free: %s (%s), want invalid, an out-of-bounds read", rep.Verdict, rep.Reason)
	}
	short := strings.Replace(derivedDef, "+ i32(1)", "+ i32(0)", 1)
	if rep := runDerived(t, prog, short); rep.Verdict != Invalid || rep.Reason != "out-of-bounds read" || rep.Counterexample == nil || !rep.Counterexample.Reproduced {
		t.Errorf("M one short of the table: %s (%s), want invalid, an out-of-bounds read, replayed", rep.Verdict, rep.Reason)
	}
	wrong := &syntax.Source{Name: "w.sched", Text: strings.NewReplacer("f32[M]", "f32[M - 1]", "for v < M {", "for v < M - 1 {").Replace(derivedText(t, "lut.sched"))}
	if wrong.Text == prog.Text {
		t.Fatal("no table to plant")
	}
	if rep := runDerived(t, wrong, derivedDef); rep.Verdict != Invalid || rep.Reason != "out-of-bounds read" || rep.Counterexample == nil || !rep.Counterexample.Reproduced {
		t.Errorf("the table one short: %s (%s), want invalid, replayed", rep.Verdict, rep.Reason)
	}
}

// TestLongDerivedHypothesis proves the kernel of TestDerivedHypothesis
// VALID in the real model with the hypothesis that M equals its
// computation from S (about 35 s of CPU: the solver relates the
// truncations of the two reals).
func TestLongDerivedHypothesis(t *testing.T) {
	testtier.Long(t)
	t.Parallel()
	prog := &syntax.Source{Name: "d.sched", Text: derivedText(t, "lut.sched")}
	if rep := runDerived(t, prog, derivedDef); rep.Verdict != Valid {
		t.Fatalf("M computed from S: %s (%s), want valid", rep.Verdict, rep.Reason)
	}
}

// TestDerivedErrors rejects hypotheses that are not a parameter's i32
// computation.
func TestDerivedErrors(t *testing.T) {
	t.Parallel()
	spec := &syntax.Source{Name: "d.sare", Text: derivedText(t, "lut.sare")}
	prog := &syntax.Source{Name: "d.sched", Text: derivedText(t, "lut.sched")}
	for _, c := range []struct{ param, def, want string }{
		{"K", derivedDef, "not a parameter of the specification"},
		{"M", "S()", "has type f32, want i32"},
		{"M", "i32(M) + i32(1)", "reads the derived parameter M"},
	} {
		d, err := ParseDerived(c.param, c.def)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Validate(context.Background(), spec, prog, Options{Jobs: 1, Derived: []Derived{d}})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != Error || !strings.Contains(rep.Reason, c.want) {
			t.Errorf("%s = %s: %s (%s), want an error saying %q", c.param, c.def, rep.Verdict, rep.Reason, c.want)
		}
	}
	if _, err := ParseDerived("M", "S() +"); err == nil {
		t.Error("ParseDerived accepted a malformed computation")
	}
}
