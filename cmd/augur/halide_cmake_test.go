package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend/halide"
	"github.com/augur-verify/augur/internal/testtier"
)

// weightsGenerator is a generator whose validation is UNKNOWN: Halide
// folds exp(-1) into a number, which the real value model cannot relate
// to the specification's exp.
const weightsGenerator = `#include "Halide.h"
using namespace Halide;

class Weights : public Generator<Weights> {
public:
    Input<Buffer<float>> input{"input", 1};
    Output<Buffer<float>> output{"output", 1};
    void generate() {
        Expr w = exp(Expr(-1.0f));
        output(x) = input(x) * w / (1.0f + w);
    }

private:
    Var x{"x"};
};
HALIDE_REGISTER_GENERATOR(Weights, weights)
`

// weightsCMake adds two libraries of the weights generator to the
// example, one whose UNKNOWN passes and one whose UNKNOWN fails, and a
// blur of two targets, validated once per target.
const weightsCMake = `
add_halide_generator(weights.generator SOURCES weights_generator.cpp)
add_halide_library(weights_pass FROM weights.generator GENERATOR weights)
augur_validate_halide_library(weights_pass)
add_halide_library(weights_fail FROM weights.generator GENERATOR weights)
augur_validate_halide_library(weights_fail UNKNOWN FAIL)
add_halide_library(blur_targets FROM filters.generator GENERATOR blur PARAMS strip=8
                   TARGETS x86-64-linux-avx-avx2-f16c-fma-sse41 x86-64-linux-sse41)
augur_validate_halide_library(blur_targets)
`

// blurTargets are the TARGETS of the library blur_targets (weightsCMake).
var blurTargets = []string{"x86-64-linux-avx-avx2-f16c-fma-sse41", "x86-64-linux-sse41"}

// TestLongHalideCMakeExample configures and builds examples/halide-cmake
// with CMake, Halide's add_halide_library and Augur's module, plus a
// generator whose verdict is UNKNOWN, and runs its augur.* tests with
// ctest, locally and against an augur serve: the correct blur passes,
// the diagonal stencil Halide 14 miscompiles fails with INVALID and its
// counterexample, UNKNOWN passes or fails as asked, a library of two
// targets is validated once per target. It builds a CMake project and
// validates its Halide libraries: the long tier.
func TestLongHalideCMakeExample(t *testing.T) {
	testtier.Long(t)
	if _, err := exec.LookPath("cmake"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and cmake is missing: %v", err)
		}
		t.Skip("cmake is missing")
	}
	if err := halide.Default().Available(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and %v", err)
		}
		t.Skip(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()
	work := t.TempDir()
	src, build := filepath.Join(work, "src"), filepath.Join(work, "build")
	if err := os.CopyFS(src, os.DirFS("../../examples/halide-cmake")); err != nil {
		t.Fatal(err)
	}
	appendFile(t, filepath.Join(src, "CMakeLists.txt"), weightsCMake)
	if err := os.WriteFile(filepath.Join(src, "weights_generator.cpp"), []byte(weightsGenerator), 0o644); err != nil {
		t.Fatal(err)
	}
	augur := augurScript(t, work)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	runCmd(t, ctx, "", nil, "cmake", "-S", src, "-B", build, "-DAUGUR_SOURCE_DIR="+root, "-DAUGUR_EXECUTABLE="+augur)
	checkArgs(t, filepath.Join(build, "augur", "blur", "augur-args.txt"), []string{
		"generator=blur", "target=host", "unknown=PASS", "param=strip=8", "source=blur_generator.cpp",
		"source=diagonal_generator.cpp", "include=" + filepath.Join(src, "include"), "define=FILTERS_VECTOR_WIDTH=8",
		"sarif_root=" + src})
	checkArgs(t, filepath.Join(build, "augur", "weights_fail", "augur-args.txt"), []string{"generator=weights", "unknown=FAIL"})
	for _, target := range blurTargets {
		checkArgs(t, filepath.Join(build, "augur", "blur_targets", target, "augur-args.txt"), []string{
			"generator=blur", "name=blur_targets." + target, "target=" + target, "param=strip=8"})
	}
	runCmd(t, ctx, "", nil, "cmake", "--build", build, "-j", "2")

	t.Run("local", func(t *testing.T) {
		out := ctest(t, ctx, build, nil)
		checkCTest(t, build, out)
		sarif := readSARIF(t, filepath.Join(build, "augur", "diagonal", "augur.sarif"))
		if sarif.verdict != "invalid" || len(sarif.uris) == 0 || sarif.uris[0] != "diagonal_generator.cpp" {
			t.Errorf("the diagonal's SARIF: verdict %q, first locations %q; want invalid, at diagonal_generator.cpp", sarif.verdict, sarif.uris)
		}
	})
	t.Run("service", func(t *testing.T) {
		srv := startBareServe(t, augur, t.TempDir())
		out := ctest(t, ctx, build, []string{"AUGUR_SERVER=" + srv.base})
		if !strings.Contains(out, "validating on "+srv.base) {
			t.Errorf("the tests did not validate on the service:\n%s", out)
		}
		checkCTest(t, build, out)
		if _, err := os.Stat(filepath.Join(build, "augur", "diagonal", "augur.xml")); err != nil {
			t.Errorf("no JUnit report from augur submit: %v", err)
		}
		if sarif := readSARIF(t, filepath.Join(build, "augur", "diagonal", "augur.sarif")); sarif.verdict != "invalid" {
			t.Errorf("the diagonal's SARIF from the service: verdict %q", sarif.verdict)
		}
		srv.stop(t)
	})
}

// augurScript writes a program that runs this test binary as augur (see
// TestMain), for CMake to run.
func augurScript(t *testing.T, dir string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "augur")
	script := "#!/bin/sh\nAUGUR_TEST_RUN_MAIN=1 exec '" + self + "' \"$@\"\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// runCmd runs a command in dir with the extra environment, failing the
// test with its output if it fails; it returns the output.
func runCmd(t *testing.T, ctx context.Context, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// checkArgs checks that the arguments the module wrote for a test hold
// the lines want.
func checkArgs(t *testing.T, path string, want []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for _, w := range want {
		found := false
		for _, l := range lines {
			found = found || l == w
		}
		if !found {
			t.Errorf("%s has no line %q:\n%s", path, w, b)
		}
	}
}

// ctest runs the augur tests of the build and returns their output; some
// fail, as they must.
func ctest(t *testing.T, ctx context.Context, build string, env []string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, "ctest", "-R", "^augur[.]", "-V") // the output of passing tests too
	cmd.Dir = build
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("ctest: %v\n%s", err, out)
	}
	return string(out)
}

// checkCTest checks each test's outcome in ctest's output, the
// diagonal's counterexample, and the files each test writes.
func checkCTest(t *testing.T, build, out string) {
	t.Helper()
	got := map[string]string{}
	for _, m := range regexp.MustCompile(`Test +#\d+: augur\.([\w.-]+) \.*\s*(\**\w+)`).FindAllStringSubmatch(out, -1) {
		got[m[1]] = strings.TrimLeft(m[2], "*")
	}
	want := map[string]string{"blur": "Passed", "diagonal": "Failed", "weights_pass": "Passed", "weights_fail": "Failed"}
	for _, target := range blurTargets {
		want["blur_targets."+target] = "Passed"
	}
	if _, ok := got["blur_targets"]; ok {
		t.Error("a library of two targets has a test of its own besides its targets'")
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("augur.%s: %q, want %q", name, got[name], w)
		}
	}
	for _, s := range []string{"INVALID: undefined read", "augur run --garbage-writes", "augur.diagonal: INVALID",
		"augur.weights_pass: UNKNOWN, which passes", "augur.weights_fail: UNKNOWN, which fails"} {
		if !strings.Contains(out, s) {
			t.Errorf("ctest's output lacks %q", s)
		}
	}
	for _, lib := range []string{"blur", "diagonal", filepath.Join("blur_targets", blurTargets[0]), filepath.Join("blur_targets", blurTargets[1])} {
		for _, f := range []string{"spec.sare", "prog.sched", "report.txt", "augur.sarif"} {
			if _, err := os.Stat(filepath.Join(build, "augur", lib, f)); err != nil {
				t.Errorf("augur.%s wrote no %s: %v", lib, f, err)
			}
		}
	}
	if t.Failed() {
		t.Logf("ctest's output:\n%s", out)
	}
}

// sarifSummary is what the test reads of a SARIF file: the run's verdict
// and the URIs of its first result's locations.
type sarifSummary struct {
	verdict string
	uris    []string
}

func readSARIF(t *testing.T, path string) sarifSummary {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(b, &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("%s: %v", path, err)
	}
	s := sarifSummary{}
	s.verdict, _ = log.Runs[0].Properties["verdict"].(string)
	if len(log.Runs[0].Results) > 0 {
		for _, l := range log.Runs[0].Results[0].Locations {
			s.uris = append(s.uris, l.PhysicalLocation.ArtifactLocation.URI)
		}
	}
	return s
}

// startBareServe starts augur serve in work on a new SQLite database,
// with one worker and no examples.
func startBareServe(t *testing.T, bin, work string) *serveProcess {
	t.Helper()
	p := &serveProcess{logs: &syncBuffer{}, done: make(chan error, 1)}
	p.cmd = exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--db", "sqlite:augur.db", "--workers", "1",
		"--log-format", "json", "--grace", "1s")
	p.cmd.Dir = work
	p.cmd.Stderr = p.logs
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			<-p.done
		}
	})
	p.logs.waitFor(t, `"addr":"127.0.0.1:`, time.Minute)
	m := regexp.MustCompile(`"addr":"(127\.0\.0\.1:\d+)"`).FindStringSubmatch(p.logs.String())
	p.base = "http://" + m[1]
	return p
}
