package iscc

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden outputs of testdata/*.iscc")

// TestGolden runs every script of testdata and compares what it prints,
// values and errors interleaved, with the .out file beside it.
func TestGolden(t *testing.T) {
	scripts, err := filepath.Glob("testdata/*.iscc")
	if err != nil {
		t.Fatal(err)
	}
	if len(scripts) == 0 {
		t.Fatal("no scripts in testdata")
	}
	for _, script := range scripts {
		name := filepath.Base(script)
		t.Run(strings.TrimSuffix(name, ".iscc"), func(t *testing.T) {
			f, err := os.Open(script)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var out bytes.Buffer
			err = Run(context.Background(), name, f, &out, &out)
			switch {
			case err == nil:
				out.WriteString("-- ok\n")
			case errors.Is(err, ErrFailed):
				out.WriteString("-- " + err.Error() + "\n")
			default:
				t.Fatalf("Run: %v", err)
			}
			golden := strings.TrimSuffix(script, ".iscc") + ".out"
			if *update {
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (create it with go test ./presburger/iscc -update, review it, and add it with git add -f: the repository ignores *.out)", err)
			}
			if got := out.String(); got != string(want) {
				t.Errorf("output differs from %s:\n--- got\n%s--- want\n%s", golden, got, want)
			}
		})
	}
}
