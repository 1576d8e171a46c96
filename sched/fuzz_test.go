package sched

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/syntax"
)

// FuzzParse checks that the parser never panics and that every kernel it
// accepts prints to text that parses back to an Equal kernel, and encodes
// to JSON that decodes to an Equal kernel. It also checks every kernel,
// even a partial one, against the matrix product's specification, and
// runs those that pass on small parameters: neither may panic.
func FuzzParse(f *testing.F) {
	spec, sinfo := loadMatmul(f)
	for _, s := range roundTripKernels {
		f.Add(s)
	}
	files, _ := filepath.Glob("testdata/*.sched")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(string(data))
		}
	}
	f.Add("kernel k(N)\n{\n  par i < ) {\n    b[i) {B(i)} := 1\n  }\n  else { }\n}\n")
	f.Fuzz(func(t *testing.T, in string) { fuzzOne(t, spec, sinfo, in) })
}

// fuzzOne is the body of FuzzParse.
func fuzzOne(t *testing.T, spec *sare.Spec, sinfo *expr.Info, in string) {
	k, errs := Parse(&syntax.Source{Name: "fuzz", Text: in})
	// Printing a partial kernel must not panic either.
	printed := Print(k)
	for _, e := range errs {
		_ = e.Detail()
	}
	info, cerrs := Check(k, spec)
	if len(errs) == 0 && len(cerrs) == 0 {
		ev, err := sare.NewEvaluator(spec, sinfo, map[string]int64{"N": 2, "M": 3, "P": 2}, sare.RandomInputs(7))
		if err != nil {
			t.Fatal(err)
		}
		ev.MaxPoints = 10000 // annotations such as R(0, 0, 1000000) stay cheap
		_, err = Run(context.Background(), k, info, ev, Options{MaxSteps: 20000, MaxCells: 10000})
		var fail *Failure
		if errors.As(err, &fail) {
			_ = fail.Detail()
		}
	}
	if len(errs) > 0 {
		return
	}
	k2, errs := Parse(&syntax.Source{Name: "printed", Text: printed})
	if len(errs) > 0 {
		t.Fatalf("printed form of %q does not parse:\n%s\n%s", in, printed, errs.Detail())
	}
	if !Equal(k, k2) {
		t.Fatalf("round trip changed %q:\nprinted\n%s\nreprinted\n%s", in, printed, Print(k2))
	}
	data, err := Marshal(k)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	k3, err := Unmarshal(data)
	if err != nil {
		t.Fatalf("unmarshal %s: %v", data, err)
	}
	if !Equal(k, k3) {
		t.Fatalf("json round trip changed\n%s\ninto\n%s", printed, Print(k3))
	}
}
