package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestHalideBuildFlags(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "gen.cpp")
	if err := os.WriteFile(src, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "compile_commands.json")
	js, _ := json.Marshal([]map[string]any{{"directory": dir, "file": "gen.cpp", "arguments": []string{"c++", "-Iinc", "-DA=1", "-std=c++20", "-c", "gen.cpp"}}})
	if err := os.WriteFile(db, js, 0o644); err != nil {
		t.Fatal(err)
	}
	b := buildFlags{sources: []string{src}, includes: []string{"more"}, defines: []string{"B"}, compileCommands: db,
		links: []string{"m", "-L/opt/lib", "lib/libx.a", "libz.so.1"}}
	g, err := b.generator()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, "inc"), "more"}; !slices.Equal(g.Includes, want) {
		t.Errorf("includes %q, want %q", g.Includes, want)
	}
	if want := []string{"A=1", "B"}; !slices.Equal(g.Defines, want) || g.Std != "c++20" {
		t.Errorf("definitions %q, std %q", g.Defines, g.Std)
	}
	if want := []string{"-lm", "-L/opt/lib", "lib/libx.a", "libz.so.1"}; !slices.Equal(g.Libs, want) {
		t.Errorf("libraries %q, want %q", g.Libs, want)
	}
	if _, err := (&buildFlags{sources: []string{filepath.Join(dir, "missing.cpp")}}).generator(); exitCode(err) != exitMalformed {
		t.Errorf("a missing source: %v", err)
	}
	if _, err := (&buildFlags{sources: []string{db}, compileCommands: db}).generator(); exitCode(err) != exitMalformed {
		t.Errorf("a source without an entry: %v", err)
	}
	var out, errw bytes.Buffer
	if code := execute([]string{"halide", "-o", dir}, nil, &out, &errw); code != exitMalformed {
		t.Errorf("no source: exit %d", code)
	}
	if code := execute([]string{"halide", src, "-o", dir, "--sarif", filepath.Join(dir, "x.sarif")}, nil, &out, &errw); code != exitMalformed ||
		!strings.Contains(errw.String(), "--sarif needs --validate") {
		t.Errorf("--sarif without --validate: exit %d\n%s", code, errw.String())
	}
}

func TestHalideSARIFLocations(t *testing.T) {
	dir := t.TempDir()
	gen := filepath.Join(dir, "src", "two.cpp")
	if err := os.MkdirAll(filepath.Dir(gen), 0o755); err != nil {
		t.Fatal(err)
	}
	text := "#include \"Halide.h\"\n\nHALIDE_REGISTER_GENERATOR(A, first)\n  HALIDE_REGISTER_GENERATOR(B, second)\n"
	if err := os.WriteFile(gen, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, line := range map[string]int{"": 3, "first": 3, "second": 4, "third": 0} {
		if f, l := registration([]string{gen}, name); l != line || (line > 0) != (f == gen) {
			t.Errorf("registration of %q: %s:%d, want line %d", name, f, l, line)
		}
	}
	doc := `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "augur"}}, "results": [
  {"ruleId": "undefined-read", "level": "error", "message": {"text": "m"},
   "locations": [{"physicalLocation": {"artifactLocation": {"uri": "` + filepath.ToSlash(filepath.Join(dir, "build", "prog.sched")) + `"}, "region": {"startLine": 9}}}]}]}]}`
	b, err := atRegistration([]byte(doc), []string{gen}, "second", dir)
	if err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatal(err)
	}
	locs := log.Runs[0].Results[0].Locations
	if len(locs) != 2 || locs[0].PhysicalLocation.ArtifactLocation.URI != "src/two.cpp" || locs[0].PhysicalLocation.Region.StartLine != 4 ||
		locs[1].PhysicalLocation.ArtifactLocation.URI != "build/prog.sched" {
		t.Errorf("locations %+v", locs)
	}
	if got := underRoot("/elsewhere/x.cpp", dir); got != "/elsewhere/x.cpp" {
		t.Errorf("a file outside the root: %s", got)
	}
}

// TestHalideSeveralSources builds a generator of two sources, a header in
// an include directory and a definition, with flags and then with a
// compilation database, and validates Halide's fft app from its two sources.
func TestHalideSeveralSources(t *testing.T) {
	halideAvailable(t)
	dir := t.TempDir()
	files := map[string]string{
		"gen.cpp": `#include "Halide.h"
#include "scale.h"
using namespace Halide;

class Scaled : public Generator<Scaled> {
public:
    Input<Buffer<int32_t>> in{"in", 1};
    Output<Buffer<int32_t>> out{"out", 1};
    void generate() { out(x) = scaled(in(x)) + OFFSET; }

private:
    Var x{"x"};
};
HALIDE_REGISTER_GENERATOR(Scaled, scaled)
`,
		"scale.cpp":   "#include \"scale.h\"\nHalide::Expr scaled(Halide::Expr e) { return e * 3; }\n",
		"inc/scale.h": "#include \"Halide.h\"\nHalide::Expr scaled(Halide::Expr e);\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(dir, "compile_commands.json")
	js := `[{"directory": "` + dir + `", "file": "gen.cpp", "command": "c++ -I inc -DOFFSET=7 -c gen.cpp"}]`
	if err := os.WriteFile(db, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	gen, scale := filepath.Join(dir, "gen.cpp"), filepath.Join(dir, "scale.cpp")
	for _, flags := range [][]string{{"-I", filepath.Join(dir, "inc"), "-D", "OFFSET=7"}, {"--compile-commands", db}} {
		out := t.TempDir()
		args := append([]string{"halide", gen, scale, "-o", out, "--validate"}, flags...)
		var stdout, stderr bytes.Buffer
		if code := execute(args, nil, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "VALID:") {
			t.Fatalf("augur %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
		}
		spec, err := os.ReadFile(filepath.Join(out, "spec.sare"))
		if err != nil || !strings.Contains(string(spec), "7") {
			t.Errorf("%q: the specification does not add the definition's 7: %v\n%s", flags, err, spec)
		}
	}
	fft := filepath.Join("..", "..", "frontend", "halide", "testdata", "fft")
	// Halide's fft app, its two sources unmodified: the default,
	// real-input fft at an 8-lane target (its zipped path) is VALID.
	args := []string{"halide", filepath.Join(fft, "fft_generator.cpp"), filepath.Join(fft, "fft.cpp"), "-g", "fft",
		"--param", "size0=16", "--param", "size1=16", "--target", "x86-64-linux-avx-avx2-f16c-fma-sse41",
		"-o", t.TempDir(), "--validate"}
	var stdout, stderr bytes.Buffer
	code := execute(args, nil, &stdout, &stderr)
	if code != exitOK || !strings.Contains(stdout.String(), "VALID:") {
		t.Errorf("augur %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
	}
}
