package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/validate"
)

// TestSuite checks the suite's definition: unique IDs, a published time
// and a target for every Table 6.1 benchmark, and a pair or an algorithm
// for every entry.
func TestSuite(t *testing.T) {
	seen := map[string]bool{}
	for _, b := range Suite() {
		if seen[b.ID()] {
			t.Errorf("%s twice", b.ID())
		}
		seen[b.ID()] = true
		if b.Expected != validate.Valid && b.Expected != validate.Invalid {
			t.Errorf("%s: expected verdict %q", b.ID(), b.Expected)
		}
		if b.Stages == 0 || b.Stages == 1 || b.Stages == 32 {
			if b.Published.Seconds == 0 || b.Target == 0 {
				t.Errorf("%s: no published time or no target", b.ID())
			}
		}
		switch b.Kind {
		case Halide:
			if b.Halide == nil {
				t.Errorf("%s: no generator", b.ID())
			}
		case Bundled:
			if b.Alg == "" && b.Stages == 0 {
				t.Errorf("%s: no algorithm", b.ID())
			}
		}
	}
	for _, n := range []string{"blur", "cmm1024", "sgemm1024", "sdot", "bigsqsgemm", "sqsgemm", "bigsgemm", "sgemm",
		"sc1", "sc32", "dsc", "conv", "harris", "unsharp", "nl_means", "sgemmTA", "sgemmTB"} {
		if !seen["halide/"+n] {
			t.Errorf("Table 6.1's %s has no Halide version", n)
		}
		if _, why := NoBundled()[n]; !seen["bundled/"+n] && !why {
			t.Errorf("Table 6.1's %s has no bundled version and no reason", n)
		}
	}
}

// TestPairs parses and checks every checked-in Halide pair, and checks
// that the pairs on disk are those of the suite.
func TestPairs(t *testing.T) {
	want := map[string]bool{}
	for _, b := range Suite() {
		if b.Kind != Halide || b.Untranslated != "" {
			continue
		}
		want[b.Name] = true
		t.Run(b.Name, func(t *testing.T) {
			p, err := HalidePair(b)
			if err != nil {
				t.Fatal(err)
			}
			checkPair(t, p)
		})
	}
	names, err := Pairs()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if !want[n] {
			t.Errorf("halide/%s is checked in but not in the suite", n)
		}
	}
}

// checkPair parses and checks a pair's specification and kernel.
func checkPair(t *testing.T, p Pair) {
	t.Helper()
	spec, errs := sare.Parse(p.Spec)
	if len(errs) == 0 {
		_, errs = sare.Check(spec)
	}
	if len(errs) > 0 {
		t.Fatalf("%s:\n%s", p.Spec.Name, errs.Detail())
	}
	k, errs := sched.Parse(p.Prog)
	if len(errs) == 0 {
		_, errs = sched.Check(k, spec)
	}
	if len(errs) > 0 {
		t.Fatalf("%s:\n%s", p.Prog.Name, errs.Detail())
	}
}

// TestAlgorithms parses and checks every bundled algorithm, compiles it
// with its schedule (a few seconds for the whole suite) and checks the
// pair the bundled compiler gives.
func TestAlgorithms(t *testing.T) {
	for _, b := range Suite() {
		if b.Kind != Bundled {
			continue
		}
		t.Run(b.Name, func(t *testing.T) {
			src, err := AlgSource(b)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := alg.Load(src); err != nil {
				t.Fatalf("%s: %v", b.ID(), err)
			}
			p, err := Compile(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			checkPair(t, p)
		})
	}
}

// TestIntendedTransposedA checks the edit that gives sgemmTA its intended
// specification, and that it refuses a specification it does not know.
func TestIntendedTransposedA(t *testing.T) {
	in := "AB_s1(i, j, r) = AB_s0(i, j) where not (0 <= r < A__extent_1)\nAB_s1(i, j, r) = AB_s1(i, j, r - 1) where 0 <= r < A__extent_1\nAB(i, j) = AB_s1(i, j, A__extent_1 + -1)\nresult(i, j) = AB(i, j) + A__extent_1"
	out, err := intendedTransposedA(in)
	if err != nil {
		t.Fatal(err)
	}
	body := out[strings.Index(out, "AB_s1("):]
	if strings.Count(body, "A__extent_0") != 3 || !strings.Contains(body, "+ A__extent_1") {
		t.Errorf("edited:\n%s", out)
	}
	if _, err := intendedTransposedA("AB(i, j) = 0"); err == nil {
		t.Error("an unknown specification was edited")
	}
}

// TestRunSdot runs the Halide sdot, which validates in a second or two,
// and prints it as a table and as JSON.
func TestRunSdot(t *testing.T) {
	suite, err := Select(Suite(), []string{"halide/sdot"})
	if err != nil || len(suite) != 1 {
		t.Fatalf("Select: %v, %d benchmarks", err, len(suite))
	}
	r, err := Run(context.Background(), suite[0], Options{Timeout: 5 * time.Minute, Validate: validate.Options{Jobs: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != string(validate.Valid) || r.Mismatch || len(r.Phases) == 0 || r.Conditions == 0 {
		t.Fatalf("sdot: %+v", r)
	}
	var b bytes.Buffer
	if err := WriteTable(&b, []*Result{r}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| halide/sdot ") || !strings.Contains(b.String(), "| VALID ") {
		t.Errorf("table:\n%s", b.String())
	}
	if _, err := json.Marshal(r); err != nil {
		t.Fatal(err)
	}
}

// TestRunTimeBound checks that the wall-clock guard gives no verdict, not
// a mismatch.
func TestRunTimeBound(t *testing.T) {
	suite, _ := Select(Suite(), []string{"halide/sc32"})
	r, err := Run(context.Background(), suite[0], Options{Timeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != NoVerdict || r.Mismatch || r.TargetMet == nil || *r.TargetMet {
		t.Fatalf("sc32 in 1 ms: %+v", r)
	}
}

// TestSelect checks names, IDs, kinds and unknown names.
func TestSelect(t *testing.T) {
	s := Suite()
	both, err := Select(s, []string{"sgemm"})
	if err != nil || len(both) != 2 {
		t.Errorf("sgemm: %d benchmarks, %v", len(both), err)
	}
	one, err := Select(s, []string{"sgemm"}, Bundled)
	if err != nil || len(one) != 1 || one[0].ID() != "bundled/sgemm" {
		t.Errorf("bundled sgemm: %v, %v", one, err)
	}
	if _, err := Select(s, []string{"sgemmTA"}, Bundled); err == nil {
		t.Error("bundled sgemmTA selected")
	}
	if _, err := Select(s, []string{"nosuch"}); err == nil {
		t.Error("an unknown name selected")
	}
}

// BenchmarkValidate validates every benchmark of the suite: the Halide
// versions from their checked-in pairs, the bundled ones compiled outside
// the timing. Slow: many take minutes (go test ./bench -run '^$' -bench
// Validate/halide/sdot selects some).
func BenchmarkValidate(b *testing.B) {
	for _, bm := range Suite() {
		b.Run(bm.ID(), func(b *testing.B) {
			if bm.Untranslated != "" {
				b.Skip("not translated: " + bm.Untranslated)
			}
			ctx := context.Background()
			p, _, err := Load(ctx, bm)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				rep, err := validate.Validate(ctx, p.Spec, p.Prog, validate.Options{})
				if err != nil {
					b.Fatal(err)
				}
				if rep.Verdict != bm.Expected {
					b.Fatalf("%s: %s (%s), expected %s", bm.ID(), rep.Verdict, rep.Reason, bm.Expected)
				}
			}
		})
	}
}

// BenchmarkCompile runs the bundled compiler on every bundled benchmark's
// algorithm (go test ./bench -run '^$' -bench Compile/bundled/harris
// selects one): bounds inference, at every loop level, dominates.
func BenchmarkCompile(b *testing.B) {
	for _, bm := range Suite() {
		if bm.Kind != Bundled {
			continue
		}
		b.Run(bm.ID(), func(b *testing.B) {
			for b.Loop() {
				if _, err := Compile(context.Background(), bm); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSuiteMatchesDocs compares the expected verdicts of the suite with
// those of docs/bench.md's table of the suite, row by row: the expected
// column is a verdict, or a verdict per kind ("INVALID (halide: why),
// VALID (bundled)"). make bench exits 1 on any verdict that differs from
// the suite's, so the two must agree.
func TestSuiteMatchesDocs(t *testing.T) {
	doc, err := os.ReadFile("../docs/bench.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := docExpectations(t, string(doc))
	if len(documented) == 0 {
		t.Fatal("docs/bench.md: no table of the suite's expected verdicts")
	}
	for _, b := range Suite() {
		want, ok := documented[b.ID()]
		if !ok {
			t.Errorf("%s: not in docs/bench.md's table", b.ID())
			continue
		}
		if b.Expected != want {
			t.Errorf("%s: the suite expects %s, docs/bench.md %s", b.ID(), b.Expected, want)
		}
	}
}

// docExpectations reads the expected verdict of every benchmark, by ID,
// from the table of docs/bench.md whose last column is "expected". A row
// may name several benchmarks ("sc1, sc32").
func docExpectations(t *testing.T, doc string) map[string]validate.Verdict {
	t.Helper()
	out := map[string]validate.Verdict{}
	in := false
	for _, line := range strings.Split(doc, "\n") {
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch {
		case !strings.HasPrefix(line, "|"):
			in = false
			continue
		case cells[0] == "benchmark" && cells[len(cells)-1] == "expected":
			in = true
			continue
		case !in || strings.HasPrefix(cells[0], "---"):
			continue
		}
		perKind := map[Kind]validate.Verdict{}
		for _, part := range strings.Split(cells[len(cells)-1], "), ") {
			word, kind, _ := strings.Cut(part, " (")
			v := validate.Verdict(strings.ToLower(word))
			if v != validate.Valid && v != validate.Invalid {
				t.Fatalf("docs/bench.md: %q: expected verdict %q", line, word)
			}
			kind, _, _ = strings.Cut(kind, ":")
			kind = strings.TrimSuffix(kind, ")")
			switch Kind(kind) {
			case "":
				perKind[Halide], perKind[Bundled] = v, v
			case Halide, Bundled:
				perKind[Kind(kind)] = v
			default:
				t.Fatalf("docs/bench.md: %q: kind %q", line, kind)
			}
		}
		for _, name := range strings.Split(cells[0], ", ") {
			for k, v := range perKind {
				out[string(k)+"/"+name] = v
			}
		}
	}
	return out
}
