package iscc

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// seeds adds every golden script and a few fragments to the corpus of f.
func seeds(f *testing.F) {
	scripts, _ := filepath.Glob("testdata/*.iscc")
	for _, s := range scripts {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
		for _, line := range strings.Split(string(data), "\n") {
			f.Add(line)
		}
	}
	for _, s := range []string{"", ";", "A := B;", "R^-1(S)^-1;", "dom ran lexmin (A);", "{", "[N] -> { : N > 0 } * S;", "# c\n;", "((((A))));"} {
		f.Add(s)
	}
}

// FuzzParse checks that the statement parser never panics, that every
// error points into the source, and that every parsed statement prints to
// text that parses back to the same statement.
func FuzzParse(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, text string) {
		src := &syntax.Source{Name: "f", Text: text}
		stmts, errs := Parse(src)
		lines := strings.Count(text, "\n") + 1
		for _, e := range errs {
			if !e.Pos.IsValid() || e.Pos.Line > lines || e.Pos.Col < 1 {
				t.Errorf("error outside the source: %v", e)
			}
		}
		for _, s := range stmts {
			printed := s.String()
			again, errs := Parse(&syntax.Source{Text: printed})
			if errs != nil || len(again) != 1 {
				t.Fatalf("%q printed as %q, which does not parse back: %v", text, printed, errs)
			}
			if again[0].String() != printed {
				t.Fatalf("%q printed as %q, reparsed as %q", text, printed, again[0].String())
			}
		}
	})
}

// FuzzRun runs arbitrary scripts with a small budget and checks that no
// statement fails with an internal error (a panic of the engine or of the
// evaluator turned into an error).
func FuzzRun(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 2000 {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		ctx = presburger.WithBudget(ctx, presburger.Budget{MaxSteps: 5000, MaxDisjuncts: 100, MaxConstraints: 300})
		var errOut strings.Builder
		_ = Run(ctx, "f", strings.NewReader(text), io.Discard, &errOut)
		if strings.Contains(errOut.String(), "internal error") {
			t.Fatalf("internal error on %q:\n%s", text, errOut.String())
		}
	})
}
