package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend/halide"
	"github.com/augur-verify/augur/frontend/halide/fuzz"
	"github.com/augur-verify/augur/internal/testtier"
)

// TestFuzzHalideCampaign runs a campaign of a few cases end to end: each
// drawn, built and translated by the fuzz driver, validated, and counted
// in the summary.
func TestFuzzHalideCampaign(t *testing.T) {
	halideAvailable(t)
	dir := t.TempDir()
	var out, errb bytes.Buffer
	f := fuzzHalideFlags{seed: 3, cases: 4, mode: "mixed", out: dir, resources: 5_000_000, timeout: time.Minute,
		limit: 2 * time.Minute, show: -1, childEnv: []string{"AUGUR_TEST_RUN_MAIN=1"}}
	err := runFuzzHalide(context.Background(), &out, &errb, f)
	code := exitCode(err)
	if code != exitOK && code != exitMismatch {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s fuzz.Summary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range s.Verdicts {
		n += c
	}
	if s.Cases != 4 || n != 4 || s.Seed != 3 {
		t.Errorf("summary of %d cases, %d verdicts, seed %d; want 4, 4, 3:\n%s", s.Cases, n, s.Seed, b)
	}
	t.Logf("%s", out.String())
	if !strings.Contains(out.String(), "4 cases") {
		t.Errorf("the text summary does not count the cases:\n%s", out.String())
	}
}

// fuzzDriver starts the fuzz driver.
func fuzzDriver(t testing.TB) *fuzz.Driver {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	bin, err := fuzz.BuildDriver(ctx, halide.Default())
	if err != nil {
		t.Fatal(err)
	}
	d, err := fuzz.StartDriver(bin, 2*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// TestFuzzHalideKnownBugs runs the bundles of
// frontend/halide/fuzz/testdata/bugs, minimised cases of known
// miscompilations of Halide 14, and issue 7890's case behind a boundary
// condition: Augur finds each INVALID and Halide's JIT confirms it, the
// boundary condition's case only with its inputs widened.
func TestFuzzHalideKnownBugs(t *testing.T) {
	halideAvailable(t)
	if testing.Short() {
		t.Skip("JIT-compiles pipelines")
	}
	testdata := filepath.Join("..", "..", "frontend", "halide", "fuzz", "testdata")
	files, err := filepath.Glob(filepath.Join(testdata, "bugs", "*", "case.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no bundles: %v", err)
	}
	files = append(files, filepath.Join(testdata, "halide7890-exterior.case"))
	knownBugs(t, fuzzDriver(t), knownBugValidator(), files...)
}

// BenchmarkFuzzHalide measures a campaign's throughput: cases per
// CPU-second of this process and the fuzz driver, validation included.
func BenchmarkFuzzHalide(b *testing.B) {
	if err := halide.Default().Available(); err != nil {
		b.Skip(err)
	}
	d := fuzzDriver(b)
	v := fuzzValidator(fuzzHalideFlags{resources: 5_000_000, timeout: 20 * time.Second, childEnv: []string{"AUGUR_TEST_RUN_MAIN=1"}})
	cpu := func() float64 { return cpuSeconds() + d.CPUSeconds() }
	b.ResetTimer()
	start := cpu()
	for i := 0; b.Loop(); i++ {
		if _, err := fuzz.RunCase(context.Background(), d, v, fuzz.Generate(1, i, fuzz.GenOptions{Sliding: i%2 == 1})); err != nil {
			b.Fatal(err)
		}
	}
	if used := cpu() - start; used > 0 {
		b.ReportMetric(float64(b.N)/used, "cases/CPU-s")
	}
}

// TestFuzzHalideCompilerCrash replays the original case of a bundled
// internal error of Halide 14's compiler (fuzz/testdata/crashes): the
// case ends as a crash of Halide's compiler, and minimising it keeps
// the same internal error and gives the bundle's case.
func TestFuzzHalideCompilerCrash(t *testing.T) {
	halideAvailable(t)
	dir := filepath.Join("..", "..", "frontend", "halide", "fuzz", "testdata", "crashes", "sliding-specialize-store-at")
	read := func(name string) *fuzz.Case {
		c, _ := readCase(t, filepath.Join(dir, name))
		return c
	}
	orig, want := read("original.txt"), read("case.txt")
	d := fuzzDriver(t)
	ctx := context.Background()
	v := fuzzValidator(fuzzHalideFlags{resources: 5_000_000, timeout: time.Minute, childEnv: []string{"AUGUR_TEST_RUN_MAIN=1"}})
	o, err := fuzz.RunCase(ctx, d, v, orig)
	if err != nil {
		t.Fatal(err)
	}
	if !o.CompilerError() || !strings.Contains(o.Cause, "SlidingWindow.cpp") {
		t.Fatalf("got %s %q, want an internal error of Halide's SlidingWindow.cpp", o.Verdict, o.Cause)
	}
	m, err := fuzz.MinimiseCrash(ctx, d, orig)
	if err != nil {
		t.Fatal(err)
	}
	if m.String() != want.String() {
		t.Errorf("minimised to\n%s\nwant\n%s", m, want)
	}
}

// TestLongFuzzHalideKnownBugs runs the cases of known miscompilations
// whose confirmation or minimisation takes many runs of Halide's JIT: the
// drawn case of the bundle sliding-shift-inwards-vector, which Halide's
// JIT confirms only at larger output sizes, and Halide issue 8140's case,
// INVALID and confirmed, then minimised and bundled.
func TestLongFuzzHalideKnownBugs(t *testing.T) {
	testtier.Long(t)
	halideAvailable(t)
	testdata := filepath.Join("..", "..", "frontend", "halide", "fuzz", "testdata")
	// The drawn case shows on Halide's code only at sizes one past its
	// schedule's period, 24.
	sized := filepath.Join(testdata, "bugs", "sliding-shift-inwards-vector", "original.txt")
	d := fuzzDriver(t)
	ctx := context.Background()
	v := knownBugValidator()
	c8140 := knownBugs(t, d, v, sized, filepath.Join(testdata, "halide8140.case"))
	r := fuzz.Region{Mins: []int{0, 0}, Extents: []int{1, 1}}
	m, err := fuzz.Minimise(ctx, d, c8140, r)
	if err != nil {
		t.Fatal(err)
	}
	b, err := fuzz.NewBundle(ctx, d, v, c8140, m, r)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := b.Write(dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"README", "case.txt", "repro.cpp", "lowered.stmt", "augur.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the bundle lacks %s", f)
		}
	}
	if len(m.Sched) > len(c8140.Sched) || !strings.HasPrefix(b.Reason, "invalid") || !strings.Contains(b.Mismatch, "cells differ") {
		t.Errorf("minimised to %d directives (from %d), Augur says %q, Halide's JIT %q", len(m.Sched), len(c8140.Sched), b.Reason, b.Mismatch)
	}
}

// knownBugValidator is the validator of the known bugs' cases.
func knownBugValidator() fuzz.Validator {
	return fuzzValidator(fuzzHalideFlags{resources: 5_000_000, timeout: time.Minute, childEnv: []string{"AUGUR_TEST_RUN_MAIN=1"}})
}

// knownBugs runs the cases of files on d and v, each a known
// miscompilation, and fails t unless each is INVALID and confirmed by
// Halide's JIT: issue 7890's exterior case over its region with the
// inputs widened, the drawn case of sliding-shift-inwards-vector at sizes
// 25 x 25. It returns the last case read.
func knownBugs(t *testing.T, d *fuzz.Driver, v fuzz.Validator, files ...string) *fuzz.Case {
	t.Helper()
	testdata := filepath.Join("..", "..", "frontend", "halide", "fuzz", "testdata")
	exterior := filepath.Join(testdata, "halide7890-exterior.case")
	sized := filepath.Join(testdata, "bugs", "sliding-shift-inwards-vector", "original.txt")
	ctx := context.Background()
	var last *fuzz.Case
	for _, f := range files {
		c, _ := readCase(t, f)
		o, err := fuzz.RunCase(ctx, d, v, c)
		if err != nil {
			t.Fatal(err)
		}
		if o.Verdict != "invalid" || !o.Confirmed {
			t.Errorf("%s: got %+v, want invalid and confirmed by Halide's JIT", f, o)
		}
		if f == exterior && !strings.HasSuffix(o.Elsewhere, "pad 32") {
			t.Errorf("%s: confirmed over %q, want the counterexample's region with widened inputs", f, o.Elsewhere)
		}
		if f == sized && (o.Sizes != "25 x 25" || !strings.HasPrefix(o.Mismatch, "at sizes 25 x 25 (not the counterexample's 5 x 1), over 0 25 0 25 pad 32: ")) {
			t.Errorf("%s: confirmed at sizes %q (%s), want 25 x 25 (not the counterexample's 5 x 1)", f, o.Sizes, o.Mismatch)
		}
		last = c
	}
	return last
}

// readCase reads and parses the fuzz case in the file path; it returns
// the case and the file's text.
func readCase(t *testing.T, path string) (*fuzz.Case, string) {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := fuzz.Parse(string(text))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return c, string(text)
}
