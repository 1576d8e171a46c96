package sare

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
)

func load(t *testing.T, name, text string) (*Spec, *expr.Info) {
	t.Helper()
	spec, info, err := Load(&syntax.Source{Name: name, Text: text})
	if err != nil {
		t.Fatalf("load %s: %v", name, err.(syntax.ErrorList).Detail())
	}
	return spec, info
}

func exampleFiles(t testing.TB) []string {
	files, err := filepath.Glob("../examples/*/*.sare")
	if err != nil {
		t.Fatal(err)
	}
	files2, _ := filepath.Glob("testdata/*.sare")
	return append(files, files2...)
}

// errorFiles lists the specifications of the error tests.
func errorFiles(t testing.TB) []string {
	files, err := filepath.Glob("testdata/errors/*.sare")
	if err != nil {
		t.Fatal(err)
	}
	files2, _ := filepath.Glob("testdata/check/*.sare")
	return append(files, files2...)
}

func TestExamplesRoundTrip(t *testing.T) {
	files := exampleFiles(t)
	if len(files) == 0 {
		t.Fatal("no example specifications found")
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		spec, _ := load(t, file, string(data))
		printed := Print(spec)
		again, _ := load(t, file+" (printed)", printed)
		if !Equal(spec, again) {
			t.Errorf("%s: parse(print(x)) != x; printed:\n%s", file, printed)
		}
		if Print(again) != printed {
			t.Errorf("%s: printing is not idempotent", file)
		}
	}
}
