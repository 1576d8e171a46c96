package halide

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

func TestParseDeps(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in               string
		targets, prereqs []string
	}{
		{"gen.o: gen.cpp inc/a.h\n", []string{"gen.o"}, []string{"gen.cpp", "inc/a.h"}},
		{"gen.o: gen.cpp \\\n /usr/include/halide14/Halide.h \\\n  b\\ c.h\n", []string{"gen.o"}, []string{"gen.cpp", "/usr/include/halide14/Halide.h", "b c.h"}},
		{"a b: x$$y.h\r\n", []string{"a", "b"}, []string{"x$y.h"}},
		{"a: c:/x.h d.h", []string{"a"}, []string{"c:/x.h", "d.h"}},
		{"\n\na:\n", []string{"a"}, nil},
	} {
		targets, prereqs, err := ParseDeps("d", []byte(c.in))
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if !slices.Equal(targets, c.targets) || !slices.Equal(prereqs, c.prereqs) {
			t.Errorf("%q: targets %q prerequisites %q, want %q and %q", c.in, targets, prereqs, c.targets, c.prereqs)
		}
	}
	for _, c := range []struct{ in, pos string }{
		{"gen.o gen.cpp\n", "1:1"},
		{"a: b\n  c d\n", "2:3"},
		{"a: b\n: c\n", "2:1"},
	} {
		_, _, err := ParseDeps("d", []byte(c.in))
		var se *syntax.Error
		if !errors.As(err, &se) || se.Pos.String() != c.pos || se.File != "d" {
			t.Errorf("%q: error %v, want one at %s", c.in, err, c.pos)
		}
	}
}

func FuzzParseDeps(f *testing.F) {
	f.Add([]byte("gen.o: gen.cpp \\\n inc/a\\ b.h $$x\n"))
	f.Add([]byte("a b: :\n: x"))
	f.Fuzz(func(t *testing.T, b []byte) {
		targets, prereqs, err := ParseDeps("d", b)
		if err != nil {
			var se *syntax.Error
			if !errors.As(err, &se) || !se.Pos.IsValid() {
				t.Fatalf("unpositioned error %v", err)
			}
			return
		}
		for _, w := range append(targets, prereqs...) {
			if w == "" {
				t.Fatalf("an empty name in %q", b)
			}
		}
	})
}

func TestSplitCommand(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want []string
	}{
		{`/usr/bin/c++ -DA=1 -I/x/y  -c gen.cpp`, []string{"/usr/bin/c++", "-DA=1", "-I/x/y", "-c", "gen.cpp"}},
		{`c++ '-DNAME="a b"' -D"X=\"q\"" a\ b.cpp`, []string{"c++", `-DNAME="a b"`, `-DX="q"`, "a b.cpp"}},
		{`c++ ''`, []string{"c++", ""}},
	} {
		got, err := SplitCommand("cc", c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{`c++ 'a`, `c++ "a`, `c++ a\`} {
		if _, err := SplitCommand("cc", in); err == nil {
			t.Errorf("%s: no error", in)
		}
	}
}

// quote is a word as a POSIX shell reads it back.
func quote(w string) string {
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

func FuzzSplitCommand(f *testing.F) {
	f.Add(`c++ -I"a b" 'c'\''d' e\ f`)
	f.Add(`"\"\\\$" '`)
	f.Fuzz(func(t *testing.T, cmd string) {
		words, err := SplitCommand("cc", cmd)
		if err != nil {
			var se *syntax.Error
			if !errors.As(err, &se) || !se.Pos.IsValid() {
				t.Fatalf("unpositioned error %v", err)
			}
			return
		}
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, quote(w))
		}
		again, err := SplitCommand("cc", strings.Join(quoted, " "))
		if err != nil || !slices.Equal(again, words) {
			t.Fatalf("%q: split %q, quoted and split again %q, %v", cmd, words, again, err)
		}
	})
}

func TestFromCompileCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join(dir, "gen.cpp")
	other := filepath.Join(dir, "other.cpp")
	for _, f := range []string{src, other} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(dir, "compile_commands.json")
	js := `[
  {"directory": "` + dir + `/build", "file": "../other.cpp", "command": "c++ -DOTHER -c ../other.cpp"},
  {"directory": "` + dir + `/build", "file": "` + src + `",
   "command": "/usr/bin/c++ -DTILE=8 -D 'NAME=\"a b\"' -Iinc -I /abs/inc -isystem /usr/include/halide14 -std=gnu++17 -O2 -o gen.o -c ` + src + `"}
]`
	if err := os.WriteFile(db, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := FromCompileCommands(db, src)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, "build", "inc"), "/abs/inc", "/usr/include/halide14"}; !slices.Equal(g.Includes, want) {
		t.Errorf("includes %q, want %q", g.Includes, want)
	}
	if want := []string{"TILE=8", `NAME="a b"`}; !slices.Equal(g.Defines, want) {
		t.Errorf("definitions %q, want %q", g.Defines, want)
	}
	if g.Std != "gnu++17" || !slices.Equal(g.Sources, []string{src}) {
		t.Errorf("std %q, sources %q", g.Std, g.Sources)
	}
	g, err = FromCompileCommands(db, other)
	if err != nil || !slices.Equal(g.Defines, []string{"OTHER"}) {
		t.Errorf("the entry with a relative file: %+v, %v", g, err)
	}
	if _, err := FromCompileCommands(db, db); err == nil || !strings.Contains(err.Error(), "no entry") {
		t.Errorf("a source without an entry: %v", err)
	}
	if err := os.WriteFile(db, []byte("[\n {\"file\": 3}]"), 0o644); err != nil {
		t.Fatal(err)
	}
	var se *syntax.Error
	if _, err := FromCompileCommands(db, src); !errors.As(err, &se) || se.Pos.Line != 2 {
		t.Errorf("a malformed database: %v, want an error on line 2", err)
	}
}

// writeFiles writes the files, by path relative to dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const scaledGen = `#include "Halide.h"
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
`

// TestBuildSeveralSources builds a generator of two sources sharing a
// header of an include directory, with a definition, and checks that the
// cache keeps the driver while nothing changes and rebuilds it when the
// header does.
func TestBuildSeveralSources(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	if err := translatorBuilt(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir() // a new generator for the cache, by its sources' paths
	writeFiles(t, dir, map[string]string{
		"gen.cpp":     scaledGen,
		"scale.cpp":   "#include \"scale.h\"\nHalide::Expr scaled(Halide::Expr e) { return e * FACTOR; }\n",
		"inc/scale.h": "#include \"Halide.h\"\n#define FACTOR 3\nHalide::Expr scaled(Halide::Expr e);\n",
	})
	g := Generator{
		Sources:  []string{filepath.Join(dir, "gen.cpp"), filepath.Join(dir, "scale.cpp")},
		Includes: []string{filepath.Join(dir, "inc")},
		Defines:  []string{"OFFSET=7"},
	}
	var steps []string
	tc.Progress = func(s string) { steps = append(steps, s) }
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	spec := func(driver string) string {
		t.Helper()
		pair, err := Translate(ctx, driver, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return pair.Spec
	}
	d1, err := tc.Build(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	if s := spec(d1); !strings.Contains(s, "3") || !strings.Contains(s, "7") {
		t.Errorf("the specification does not scale by 3 and add 7:\n%s", s)
	}
	steps = nil
	if d, err := tc.Build(ctx, g); err != nil || d != d1 || len(steps) != 0 {
		t.Errorf("unchanged: driver %s (was %s), steps %q, %v", d, d1, steps, err)
	}
	writeFiles(t, dir, map[string]string{"inc/scale.h": "#include \"Halide.h\"\n#define FACTOR 5\nHalide::Expr scaled(Halide::Expr e);\n"})
	d2, err := tc.Build(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	if d2 == d1 {
		t.Fatal("a changed header kept the driver")
	}
	if s := spec(d2); !strings.Contains(s, "5") {
		t.Errorf("after the header changed, the specification does not scale by 5:\n%s", s)
	}
	g.Defines = nil
	if _, err := tc.Build(ctx, g); err == nil || !strings.Contains(err.Error(), "OFFSET") {
		t.Errorf("without the definition: %v, want a compilation error naming OFFSET", err)
	}
}

// TestFFT builds Halide's fft app, unmodified, from its two sources. Its
// small DFTs (funcs of two values, complex numbers, whose pure definition
// is undef(), written at constant indices by updates: scans of tuples),
// its passes' exchanges (exchange(n0, s/S*R*S + s%S + r*S) = ..., over an
// RDom of constant bounds, enumerated) and its twiddle factors' reads
// W(r*(s % 4)) translate: the complex fft's translation agrees with
// Halide's JIT. The default, real-input fft stops at the stores of its
// constant_exterior boundary condition, whose stage the translator cannot
// tell.
func TestFFT(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	if err := translatorBuilt(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	dir := filepath.Join("testdata", "fft")
	d, err := tc.Build(ctx, Generator{Sources: []string{filepath.Join(dir, "fft_generator.cpp"), filepath.Join(dir, "fft.cpp")}})
	if err != nil {
		t.Fatalf("building fft: %v", err)
	}
	// The real-input fft at a target of 8-lane vectors: for 16 points
	// fft2d_r2c zips two real rows into one complex one (with vectors
	// of 16 lanes it runs the complex fft instead), and unzips the
	// DFT's DC and Nyquist rows by updates of a constant_exterior
	// whose pure definition is select(c, v, undef()).
	real := Options{Generator: "fft", Target: "x86-64-linux-avx-avx2-f16c-fma-sse41", Params: map[string]string{"size0": "16", "size1": "16"}}
	pair, err := Translate(ctx, d, real)
	if err != nil {
		t.Fatalf("the real fft: %v", err)
	}
	if !strings.Contains(pair.Spec, "constant_exterior") {
		t.Errorf("the real fft's specification has no constant_exterior: not the zipped path")
	}
	// The algorithm multiplies by the zero parts of its complex factors
	// (0 * x, which can be -0) and Halide's simplifier folds them to 0,
	// so the kernel's unzipped rows may hold +0 where the algorithm's
	// hold -0: the kernel's values are compared up to the tolerance
	// (CheckRounded), as in the real value model.
	s, err := JIT(ctx, d, real, map[string][]int{"input": {16, 16, 1}, "output": {16, 9, 1}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.CheckRounded(ctx, pair.Spec, pair.Kernel(frontend.Prog).Text, 1e-4)
	if err != nil {
		t.Fatalf("the real fft's JIT sample: %v", err)
	}
	if res.HalideCells == 0 || res.KernelCells != int64(res.HalideCells) {
		t.Errorf("the real fft's JIT sample: %d cells from Halide, %d checked in the kernel", res.HalideCells, res.KernelCells)
	}
	o := Options{Generator: "fft", Params: map[string]string{"size0": "16", "size1": "16",
		"input_number_type": "complex", "output_number_type": "complex"}}
	pair, err = Translate(ctx, d, o)
	if err != nil {
		t.Fatalf("the complex fft: %v", err)
	}
	jitAgrees(ctx, t, d, o, pair.Spec, pair.Kernel(frontend.Prog).Text,
		map[string][]int{"input": {16, 16, 2}, "output": {16, 16, 2}}, 1, 1e-4)
	// The twiddle factors' reads (the specification's W(r*(s % 4)), the
	// kernel's read of W's buffer in unrolled iterations of r) are proved
	// by unfolding both sides, ahead of the cheaper strategies' models.
	rep, err := validatePair(ctx, pair, encode.Real, 2)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != validate.Valid {
		var b strings.Builder
		rep.WriteText(&b, false)
		t.Errorf("the complex fft: %s, want VALID\n%s", rep.Verdict, b.String())
	}
}

// TestCachedConcurrent builds one cached file from several goroutines at
// once, as parallel tests and concurrent processes do on a cold cache:
// every build writes a temporary file of its own, every caller gets the
// path, and the file has the content built, none left half-written.
func TestCachedConcurrent(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "obj", "unit.o")
	const n = 8
	start := make(chan struct{})
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			got, err := cached(path, func(tmp string) error {
				// Written in two steps, so that a shared temporary
				// file would show a build's half.
				if err := os.WriteFile(tmp, []byte("built"), 0o644); err != nil {
					return err
				}
				f, err := os.OpenFile(tmp, os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					return err
				}
				_, err = f.WriteString(" once")
				return errors.Join(err, f.Close())
			})
			if err == nil && got != path {
				err = errors.New("path " + got)
			}
			errs[i] = err
		})
	}
	close(start)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "built once" {
		t.Fatalf("the cached file holds %q (%v), want \"built once\"", b, err)
	}
	left, err := filepath.Glob(filepath.Join(filepath.Dir(path), "*.tmp*"))
	if err != nil || len(left) > 0 {
		t.Errorf("temporary files left: %q (%v)", left, err)
	}
}
