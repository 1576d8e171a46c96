package rink

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/validate"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// TestGolden compares the translation of every example, and the naive
// in-place translation of the in-place ones, with testdata/golden (go
// test -run TestGolden -update rewrites them).
func TestGolden(t *testing.T) {
	for _, path := range examples(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".rink")
		variants := map[string]Options{name: {}}
		if strings.HasPrefix(name, "inplace_") {
			variants[name+"_naive"] = Options{InPlace: true}
		}
		for dir, opts := range variants {
			_, _, out := load(t, path, opts)
			for file, text := range map[string]string{"spec.sare": out.Spec, "ref.sched": out.Kernel(Ref).Text, "padded.sched": out.Kernel(Padded).Text} {
				golden := filepath.Join("testdata", "golden", dir, file)
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test -run TestGolden -update)", err)
				}
				if string(want) != text {
					t.Errorf("%s differs from the translation:\n%s", golden, text)
				}
			}
		}
	}
}

// TestInPlace: committed in place, the transposition A = A ^ [1 2] is
// caught with a counterexample that the interpreter replays, while the
// elementwise A = A + B, which reads each element only where it writes
// it, is still proved correct.
func TestInPlace(t *testing.T) {
	p, info := mustLoad(t, "var A : [4 4]\nA = A ^ [1 2]\n")
	out, err := Translate(p, info, Options{InPlace: true})
	if err != nil {
		t.Fatal(err)
	}
	rep := validatePair(t, "transpose", out, "ref", encode.Real)
	if rep.Verdict != validate.Invalid || rep.Counterexample == nil || !rep.Counterexample.Reproduced {
		var b strings.Builder
		_ = rep.WriteText(&b, false)
		t.Fatalf("naive in-place transposition: want invalid with a replayed counterexample, got\n%s", b.String())
	}
	t.Logf("caught: %s", rep.Reason)

	p, info = mustLoad(t, "var A : [4 4]\nvar B : [4 4]\nA = A + B\n")
	out, err = Translate(p, info, Options{InPlace: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep := validatePair(t, "add", out, "ref", encode.Real); rep.Verdict != validate.Valid {
		t.Errorf("in-place elementwise addition: verdict %s (%s), want valid", rep.Verdict, rep.Reason)
	}
}
