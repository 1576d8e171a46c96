package sare

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

var update = flag.Bool("update", false, "rewrite the golden files of error tests")

// TestErrorGolden parses and checks each testdata/errors/*.sare and
// compares every error, rendered with its source line and caret, with the
// .golden file next to it.
func TestErrorGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/errors/*.sare")
	if err != nil || len(files) == 0 {
		t.Fatalf("no error tests: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		src := &syntax.Source{Name: filepath.Base(file), Text: string(data)}
		spec, errs := Parse(src)
		if len(errs) == 0 {
			_, errs = Check(spec)
		}
		if len(errs) == 0 {
			t.Errorf("%s: no errors", file)
			continue
		}
		got := errs.Detail() + "\n"
		golden := strings.TrimSuffix(file, ".sare") + ".golden"
		if *update {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -update)", err)
		}
		if got != string(want) {
			t.Errorf("%s: errors differ\n--- got\n%s--- want\n%s", file, got, want)
		}
	}
}
