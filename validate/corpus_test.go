package validate

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/augur-verify/augur/internal/corpus"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/smt/encode"
)

// TestCorpus validates every pair of the corpus (testdata/corpus) under
// both value models, and without garbage writes those whose verdict then
// differs, and compares the verdict and reason with the expected ones. It is also the differential check against the reference
// interpreter: every invalid verdict's counterexample must be reproduced
// by the interpreter at the counterexample's parameter values, and the
// corpus's own tests check that every valid pair passes the interpreter
// at several parameter values.
func TestCorpus(t *testing.T) {
	cases, err := corpus.Load(filepath.Join("..", "testdata", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 40 {
		t.Fatalf("%d cases, want at least 40", len(cases))
	}
	for _, c := range cases {
		for _, model := range []encode.Model{encode.Real, encode.IEEE} {
			want := c.ExpectFor(model.String())
			if model == encode.IEEE && c.IEEE == nil && testing.Short() {
				continue
			}
			t.Run(c.Name+"/"+model.String(), func(t *testing.T) {
				t.Parallel()
				checkCorpusCase(t, c, want, Options{ValueModel: model, Jobs: 1})
			})
		}
		if c.NoGarbage != nil {
			t.Run(c.Name+"/real/no-garbage-writes", func(t *testing.T) {
				t.Parallel()
				checkCorpusCase(t, c, *c.NoGarbage, Options{Jobs: 1, NoGarbageWrites: true})
			})
		}
	}
}

// checkCorpusCase validates the case c with opts and compares the verdict
// and reason with want; an invalid verdict's counterexample must be
// reproduced by the interpreter.
func checkCorpusCase(t *testing.T, c corpus.Case, want corpus.Expectation, opts Options) {
	t.Helper()
	rep := validateFiles(t, c.SpecFile, c.ProgFile, opts)
	got := corpus.Expectation{Verdict: corpus.Verdict(rep.Verdict)}
	if rep.Verdict == Invalid {
		got.Reason, _ = sched.ParseKind(rep.Reason) // 0, and a mismatch, for another reason
	}
	if want.Verdict == corpus.Unknown && got.Verdict == corpus.Valid {
		// Unknown cases need reasoning a verifier may lack.
		return
	}
	if got != want {
		var buf bytes.Buffer
		rep.WriteText(&buf, true)
		t.Fatalf("got %s, want %s\n%s", got, want, buf.String())
	}
	if rep.Verdict == Invalid && !rep.Counterexample.Reproduced && want.Reason != sched.IllDefinedSpec {
		t.Errorf("counterexample not reproduced by the interpreter: %s", rep.Counterexample.Replay)
	}
}
