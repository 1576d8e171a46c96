package sched

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/syntax"
)

// TestExamplesRoundTrip parses, type-checks and round-trips (text and
// JSON) every kernel of examples/ against its directory's specification.
func TestExamplesRoundTrip(t *testing.T) {
	progs, err := filepath.Glob("../examples/*/*.sched")
	if err != nil {
		t.Fatal(err)
	}
	if len(progs) < 8 {
		t.Fatalf("found only %d example kernels", len(progs))
	}
	for _, prog := range progs {
		specs, _ := filepath.Glob(filepath.Join(filepath.Dir(prog), "*.sare"))
		if len(specs) != 1 {
			t.Fatalf("%s: want one specification beside it, found %d", prog, len(specs))
		}
		specText, err := os.ReadFile(specs[0])
		if err != nil {
			t.Fatal(err)
		}
		spec, _, err := sare.Load(&syntax.Source{Name: specs[0], Text: string(specText)})
		if err != nil {
			t.Fatalf("%s: %v", specs[0], err)
		}
		k := parseFile(t, prog)
		if _, errs := Check(k, spec); len(errs) > 0 {
			t.Errorf("%s: %s", prog, errs.Detail())
			continue
		}
		printed := Print(k)
		k2, err := ParseString(prog, printed)
		if err != nil {
			t.Errorf("%s: printed form does not parse: %v\n%s", prog, err, printed)
			continue
		}
		if !Equal(k, k2) {
			t.Errorf("%s: parse(print(k)) differs from k", prog)
		}
		if Print(k2) != printed {
			t.Errorf("%s: printing is not stable", prog)
		}
		data, err := Marshal(k)
		if err != nil {
			t.Fatal(err)
		}
		k3, err := Unmarshal(data)
		if err != nil {
			t.Errorf("%s: JSON does not decode: %v", prog, err)
			continue
		}
		if !Equal(k, k3) {
			t.Errorf("%s: JSON round trip changed the kernel", prog)
		}
	}
}
