package halide

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
)

// sources are the translator's C++ sources: its headers, the .cpp files
// of the translator and driver.cpp, the driver's main.
//
//go:embed cc/*.h cc/*.cpp
var sources embed.FS

// DefaultInclude is where Debian's libhalide14-0-dev installs Halide.h;
// HALIDE_INCLUDE overrides it.
const DefaultInclude = "/usr/include/halide14"

// ErrNoHalide is returned, wrapped, when Halide.h or the C++ compiler is
// missing.
var ErrNoHalide = errors.New("no Halide 14 installation")

// Toolchain says how to compile against Halide.
type Toolchain struct {
	CXX      string   // the C++17 compiler: $CXX, else g++
	Include  string   // the directory of Halide.h: $HALIDE_INCLUDE, else DefaultInclude
	Libs     []string // what to link: $HALIDE_LIBS (split on spaces), else -lHalide14
	CacheDir string   // where objects and drivers are kept: $AUGUR_CACHE_DIR, else the user cache directory's augur/halide
	// Progress, when set, is told of each compilation that the cache does
	// not spare, before it starts, for a user waiting on the first run
	// (the translator alone takes tens of seconds): "compiling the Halide
	// translator (first run, cached afterwards)", "precompiling Halide.h
	// (first run, cached afterwards)", "compiling GEN",
	// "linking the driver of GEN".
	Progress func(step string)
}

// progress tells t.Progress of a step, if set.
func (t Toolchain) progress(step string) {
	if t.Progress != nil {
		t.Progress(step)
	}
}

// Default returns the toolchain the environment describes.
func Default() Toolchain {
	t := Toolchain{CXX: os.Getenv("CXX"), Include: os.Getenv("HALIDE_INCLUDE"), CacheDir: os.Getenv("AUGUR_CACHE_DIR")}
	if t.CXX == "" {
		t.CXX = "g++"
	}
	if t.Include == "" {
		t.Include = DefaultInclude
	}
	if libs := strings.Fields(os.Getenv("HALIDE_LIBS")); len(libs) > 0 {
		t.Libs = libs
	} else {
		t.Libs = []string{"-lHalide14"}
	}
	if t.CacheDir == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			t.CacheDir = filepath.Join(dir, "augur", "halide")
		} else {
			t.CacheDir = filepath.Join(os.TempDir(), "augur-halide-cache")
		}
	}
	return t
}

// Available reports, as an error wrapping ErrNoHalide, what is missing to
// compile against Halide.
func (t Toolchain) Available() error {
	if _, err := os.Stat(filepath.Join(t.Include, "Halide.h")); err != nil {
		return fmt.Errorf("%w: no Halide.h in %s (install libhalide14-0-dev, or set HALIDE_INCLUDE)", ErrNoHalide, t.Include)
	}
	if _, err := exec.LookPath(t.CXX); err != nil {
		return fmt.Errorf("%w: no C++ compiler %q (install g++, or set CXX)", ErrNoHalide, t.CXX)
	}
	return nil
}

// cxxFlags are the flags of every compilation.
func (t Toolchain) cxxFlags(extra ...string) []string {
	return append([]string{"-std=c++17", "-O1", "-Wall", "-I", t.Include}, extra...)
}

// translatorFlag is added to the flags of the translator's own sources,
// which compile without a warning (a generator need not).
const translatorFlag = "-Werror"

// hashOf is the hex SHA-256 of the parts, each length-prefixed.
func hashOf(parts ...[]byte) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:", len(p))
		h.Write(p)
	}
	return hex.EncodeToString(h.Sum(nil))[:24]
}

var headerHash sync.Map // include dir -> hash of Halide.h

func (t Toolchain) halideHash() (string, error) {
	if h, ok := headerHash.Load(t.Include); ok {
		return h.(string), nil
	}
	b, err := os.ReadFile(filepath.Join(t.Include, "Halide.h"))
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoHalide, err)
	}
	h := hashOf(b)
	headerHash.Store(t.Include, h)
	return h, nil
}

// key identifies a build by its inputs and the toolchain.
func (t Toolchain) key(inputs ...[]byte) (string, error) {
	hh, err := t.halideHash()
	if err != nil {
		return "", err
	}
	parts := [][]byte{[]byte(t.CXX), []byte(strings.Join(t.cxxFlags(), " ")), []byte(strings.Join(t.Libs, " ")), []byte(hh)}
	return hashOf(append(parts, inputs...)...), nil
}

// run runs a command, its output in the error if it fails.
func run(ctx context.Context, dir string, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	return nil
}

// cached returns path, building it with build (which writes into tmp) when
// missing; the result appears at path atomically. Concurrent builds of
// one path, in one process or several, each write a temporary file of
// their own; the last rename wins, every build's content being the same.
func cached(path string, build func(tmp string) error) (string, error) {
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	tmp, err := tempName(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp)
	if err := build(tmp); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", err
	}
	return path, nil
}

// tempName creates an empty file of a new name in dir, after pattern (as
// os.CreateTemp), and returns its path, for a build to overwrite.
func tempName(dir, pattern string) (string, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	err = f.Chmod(0o644) // os.CreateTemp's 0600 would stay with the build
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// Sources writes the C++ sources of the translator into dir (the public
// header augur_halide.h, the internal emit_internal.h, the translator's
// .cpp files and driver.cpp), for builds outside Go.
func Sources(dir string) error {
	entries, err := sources.ReadDir("cc")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		b, err := sources.ReadFile("cc/" + e.Name())
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Objects compiles every .cpp file of the translator and the driver's
// main (driver.cpp), once per content of the sources, side by side, and
// returns the object files.
func (t Toolchain) Objects(ctx context.Context) ([]string, error) {
	if err := t.Available(); err != nil {
		return nil, err
	}
	entries, err := sources.ReadDir("cc")
	if err != nil {
		return nil, err
	}
	inputs := [][]byte{[]byte(translatorFlag)}
	var units []string
	for _, e := range entries {
		b, err := sources.ReadFile("cc/" + e.Name())
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, []byte(e.Name()), b)
		if unit, ok := strings.CutSuffix(e.Name(), ".cpp"); ok {
			units = append(units, unit)
		}
	}
	k, err := t.key(inputs...)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(t.CacheDir, "driver-"+k)
	objs := make([]string, len(units))
	var missing []int
	for i, u := range units {
		objs[i] = filepath.Join(dir, u+".o")
		if _, err := os.Stat(objs[i]); err != nil {
			missing = append(missing, i)
		}
	}
	if len(missing) == 0 {
		return objs, nil
	}
	t.progress("compiling the Halide translator (first run, cached afterwards)")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// Each build writes the sources into a directory of its own: a
	// concurrent build's compiler may be reading the files it wrote.
	src, err := os.MkdirTemp(dir, "src-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(src)
	if err := Sources(src); err != nil {
		return nil, err
	}
	errs := make([]error, len(units))
	slots := make(chan struct{}, runtime.NumCPU())
	var wg sync.WaitGroup
	for _, i := range missing {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			_, errs[i] = cached(objs[i], func(tmp string) error {
				args := t.cxxFlags(translatorFlag, "-c", filepath.Join(src, units[i]+".cpp"), "-o", tmp)
				if err := run(ctx, dir, t.CXX, args...); err != nil {
					return fmt.Errorf("compiling the Halide translator: %w", err)
				}
				return nil
			})
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return objs, nil
}

// Driver compiles the Generator source gen with the translator into a
// driver program and returns its path: Build of a generator of that one
// source.
func (t Toolchain) Driver(ctx context.Context, gen string) (string, error) {
	return t.Build(ctx, Generator{Sources: []string{gen}})
}

// Generator is a Generator program as the project's build knows it: its
// C++ sources (one of them registers the generator; a generator may span
// several files) and the flags they compile and link with.
type Generator struct {
	Sources  []string // the C++ sources; the first names the program in messages
	Includes []string // include directories (-I), searched before each source's own directory
	Defines  []string // preprocessor definitions (-D), NAME or NAME=VALUE
	Std      string   // the language standard (-std=), when not the default c++17
	Libs     []string // what the driver links besides the translator and Halide: -lNAME, -L DIR, or a library's path
}

// name is how messages name g: its first source.
func (g Generator) name() string {
	if len(g.Sources) == 0 {
		return "the generator"
	}
	return g.Sources[0]
}

// absolute returns g with every path absolute (the compiler runs in the
// cache), reading each source's content into srcs.
func (g Generator) absolute() (Generator, [][]byte, error) {
	if len(g.Sources) == 0 {
		return g, nil, errors.New("a generator needs at least one source")
	}
	abs := Generator{Defines: g.Defines, Std: g.Std}
	var srcs [][]byte
	for _, s := range g.Sources {
		b, err := os.ReadFile(s)
		if err != nil {
			return g, nil, err
		}
		a, err := filepath.Abs(s)
		if err != nil {
			return g, nil, err
		}
		abs.Sources = append(abs.Sources, a)
		srcs = append(srcs, b)
	}
	for _, dir := range g.Includes {
		a, err := filepath.Abs(dir)
		if err != nil {
			return g, nil, err
		}
		abs.Includes = append(abs.Includes, a)
	}
	for _, l := range g.Libs {
		if !strings.HasPrefix(l, "-") {
			a, err := filepath.Abs(l)
			if err != nil {
				return g, nil, err
			}
			l = a
		}
		abs.Libs = append(abs.Libs, l)
	}
	return abs, srcs, nil
}

// compileFlags are the flags compiling the source src of g (absolute).
func (t Toolchain) compileFlags(g Generator, src string) []string {
	var extra []string
	if g.Std != "" {
		extra = append(extra, "-std="+g.Std)
	}
	for _, dir := range g.Includes {
		extra = append(extra, "-I", dir)
	}
	extra = append(extra, "-I", filepath.Dir(src))
	for _, d := range g.Defines {
		extra = append(extra, "-D", d)
	}
	return t.cxxFlags(extra...)
}

// Build compiles the generator g with the translator into a driver
// program, and returns its path. Builds are cached: the key is the
// toolchain, the translator's objects, every source's path and content
// and the flags; within it, the content of every header the sources
// include (as the compiler's dependency output lists them, -MMD; none
// for a compiler that writes none) picks the build, so that a change to
// an included header rebuilds the driver.
func (t Toolchain) Build(ctx context.Context, g Generator) (string, error) {
	objs, err := t.Objects(ctx)
	if err != nil {
		return "", err
	}
	abs, srcs, err := g.absolute()
	if err != nil {
		return "", err
	}
	inputs := [][]byte{[]byte(strings.Join(objs, "\n"))}
	// Each flag is a part of its own, after the count of its list.
	list := func(items []string) {
		inputs = append(inputs, []byte(fmt.Sprint(len(items))))
		for _, it := range items {
			inputs = append(inputs, []byte(it))
		}
	}
	for i, s := range abs.Sources {
		inputs = append(inputs, []byte(s), srcs[i])
		list(t.compileFlags(abs, s))
	}
	list(abs.Libs)
	k, err := t.key(inputs...)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(t.CacheDir, "gen-"+k)
	if driver, ok := builtDriver(dir); ok {
		return driver, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	headers, err := t.compileAndLink(ctx, g.name(), abs, objs, tmp)
	if err != nil {
		return "", err
	}
	return installBuild(dir, tmp, headers)
}

// headersFile, in a generator's cache directory, lists the headers its
// last build included, one absolute path a line.
const headersFile = "headers"

// builtDriver returns the driver cached in dir for the present content
// of the headers its last build included, if there is one.
func builtDriver(dir string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(dir, headersFile))
	if err != nil {
		return "", false
	}
	lines := strings.FieldsFunc(string(b), func(r rune) bool { return r == '\n' })
	driver := filepath.Join(dir, "h-"+headersHash(lines), "driver")
	if _, err := os.Stat(driver); err != nil {
		return "", false
	}
	return driver, true
}

// headersHash is the hash of the headers' paths and contents (a missing
// header counts as a content of its own).
func headersHash(headers []string) string {
	var parts [][]byte
	for _, h := range headers {
		b, err := os.ReadFile(h)
		if err != nil {
			parts = append(parts, []byte(h), []byte("missing"))
			continue
		}
		parts = append(parts, []byte(h), []byte("present"), b)
	}
	return hashOf(parts...)
}

// compileAndLink compiles every source of g (absolute) into tmp and links
// the driver there, tmp/driver; it returns the headers the sources
// include, sorted.
func (t Toolchain) compileAndLink(ctx context.Context, name string, g Generator, objs []string, tmp string) ([]string, error) {
	args := []string{}
	seen := map[string]bool{}
	pch := t.precompiled(ctx)
	for i, src := range g.Sources {
		obj := filepath.Join(tmp, fmt.Sprintf("gen%d.o", i))
		deps := filepath.Join(tmp, fmt.Sprintf("gen%d.d", i))
		t.progress("compiling " + displayName(name, g.Sources, i))
		cargs := append(pchFlags(pch), t.compileFlags(g, src)...)
		cargs = append(cargs, "-MMD", "-MF", deps, "-c", src, "-o", obj)
		if err := run(ctx, tmp, t.CXX, cargs...); err != nil {
			return nil, fmt.Errorf("compiling the generator %s: %w", displayName(name, g.Sources, i), err)
		}
		b, err := os.ReadFile(deps)
		if errors.Is(err, fs.ErrNotExist) {
			// A compiler that writes no dependency file: the key has
			// the sources and flags only.
			args = append(args, obj)
			continue
		}
		if err != nil {
			return nil, err
		}
		_, files, err := ParseDeps(deps, b)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if !filepath.IsAbs(f) {
				f = filepath.Join(tmp, f)
			}
			if !slices.Contains(g.Sources, f) {
				seen[filepath.Clean(f)] = true
			}
		}
		args = append(args, obj)
	}
	t.progress("linking the driver of " + name)
	args = append(append(args, objs...), "-o", filepath.Join(tmp, "driver"))
	args = append(args, g.Libs...)
	args = append(args, t.Libs...)
	args = append(args, "-lpthread", "-ldl")
	if err := run(ctx, tmp, t.CXX, args...); err != nil {
		return nil, fmt.Errorf("linking the driver of %s: %w", name, err)
	}
	headers := make([]string, 0, len(seen))
	for h := range seen {
		headers = append(headers, h)
	}
	sort.Strings(headers)
	return headers, nil
}

// displayName is how progress and errors name the i-th source: the first
// by the name the user gave, the others by their base name.
func displayName(name string, sources []string, i int) string {
	if i == 0 {
		return name
	}
	return filepath.Base(sources[i])
}

// installBuild moves the build in tmp to its place in dir, named by the
// content of its headers, records the headers, and returns the driver's
// path. A build already in place (a concurrent run's) is kept.
func installBuild(dir, tmp string, headers []string) (string, error) {
	final := filepath.Join(dir, "h-"+headersHash(headers))
	if err := os.Rename(tmp, final); err != nil {
		if _, serr := os.Stat(filepath.Join(final, "driver")); serr != nil {
			return "", err
		}
	}
	list, err := tempName(dir, headersFile+".tmp*")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(list, []byte(strings.Join(headers, "\n")+"\n"), 0o644); err != nil {
		os.Remove(list)
		return "", err
	}
	if err := os.Rename(list, filepath.Join(dir, headersFile)); err != nil {
		return "", err
	}
	return filepath.Join(final, "driver"), nil
}

// Options select the generator and its parameters.
type Options struct {
	Generator string            // the registered name; empty when the source registers one
	Params    map[string]string // GeneratorParam values
	Target    string            // Halide's target string; empty means host
	Stage     Stage             // where the statement is captured; empty means StageBeforeFlattening
	// Plant, at StageFinal, plants a miscompilation in Halide's final
	// statement before it is translated, for tests of the translation:
	// "stride" (the first store to an output buffer with its stride of
	// dimension 1 one too large), "offset" (that store one element
	// further), "epilogue" (the last if without else around a store
	// dropped: a partitioned loop's or a vectorised row's tail), "late"
	// (that tail's outermost loop started one iteration late),
	// "lane-dup" (the first vector store to an output buffer with its
	// last lane's value the lane before's), "lane-drop" (its last lane
	// not stored), "lane-stride" (the first vector store to an output
	// buffer that loads at a ramp of stride 1 loading at stride 2: lane i
	// reads i elements too far), "lane-race" (the first vector store
	// that loads the array it stores to at its own index loading it one
	// element further: each lane but the last reads the cell the next
	// lane writes), "lane-copy" (the first vector store to another array
	// that loads an allocation of n cells, a realization vectorize_loops
	// widened to one copy per lane, at ramp(0, 1, n) loading it at
	// ramp(n - 1, -1, n): lane l reads lane n - 1 - l's copy), "predicate" (the first predicated vector store to an
	// output buffer storing each lane where the lane before it may: one
	// lane past the end), "copy" (in the second allocation of an array
	// within one loop body, a copy of an unrolled loop's body, each load
	// of an input buffer one element further), "repeat" (the same in
	// the last allocation of an array the statement allocates several
	// times: a specialization's last branch, a partitioned loop's
	// epilogue), "astride" (the first scalar store to an allocation with
	// two or more symbolic extents, its outermost loop's stride one too
	// large), "aoffset" (the first store to an allocation of constant
	// extents, its index one element further), "soffset" (the same in the
	// first store to an allocation with two or more symbolic extents) or
	// "lstride" (the first scalar load, in a loop, of an input
	// buffer whose constraints fix a stride other than dimension 0's, at
	// the innermost loop's stride one too large).
	Plant string
}

// Stage is where the translator captures Halide's statement
// (docs/halide.md, "Stages").
type Stage string

const (
	// StageBeforeFlattening is the statement before storage flattening:
	// multi-dimensional realizations, stores and loads.
	StageBeforeFlattening Stage = "before-flattening"
	// StageFinal is the statement after every lowering pass Halide 14
	// runs for a CPU target, before lower_parallel_tasks: flattened
	// buffers, which the translation delinearises.
	StageFinal Stage = "final"
)

// ParseStage reads a stage's name.
func ParseStage(s string) (Stage, error) {
	switch Stage(s) {
	case StageBeforeFlattening, StageFinal:
		return Stage(s), nil
	}
	return "", fmt.Errorf("unknown stage %q: want %s or %s", s, StageFinal, StageBeforeFlattening)
}

func (o Options) args() []string {
	var a []string
	if o.Generator != "" {
		a = append(a, "-g", o.Generator)
	}
	keys := make([]string, 0, len(o.Params))
	for k := range o.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		a = append(a, "-p", k+"="+o.Params[k])
	}
	if o.Target != "" {
		a = append(a, "-t", o.Target)
	}
	if o.Stage != "" {
		a = append(a, "--stage", string(o.Stage))
	}
	if o.Plant != "" {
		a = append(a, "--plant", o.Plant)
	}
	return a
}

// TranslationError is a construct the translator cannot handle, or any
// failure of the driver, with its message.
type TranslationError struct {
	Msg string
}

func (e *TranslationError) Error() string { return e.Msg }

// runDriver runs the driver with the options and extra arguments; stderr,
// when not nil, also receives its standard error.
func runDriver(ctx context.Context, driver string, o Options, env []string, stderr io.Writer, extra ...string) error {
	cmd := exec.CommandContext(ctx, driver, append(o.args(), extra...)...)
	cmd.Env = append(os.Environ(), env...)
	var errb bytes.Buffer
	if stderr != nil {
		cmd.Stderr = io.MultiWriter(&errb, stderr)
	} else {
		cmd.Stderr = &errb
	}
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if i := strings.LastIndex(msg, "augur-halide: "); i >= 0 {
			msg = strings.TrimPrefix(msg[i:], "augur-halide: ")
		}
		if i := strings.Index(msg, "\nusage:"); i >= 0 {
			msg = msg[:i]
		}
		if msg == "" {
			msg = err.Error()
		}
		return &TranslationError{Msg: msg}
	}
	return nil
}

// Emit runs the driver: it writes dir/spec.sare and dir/prog.sched.
func Emit(ctx context.Context, driver, dir string, o Options) error {
	return runDriver(ctx, driver, o, nil, nil, "-o", dir)
}

// CapturedStmt runs the driver and returns the statement it captures
// (at o.Stage), as Halide prints it.
func CapturedStmt(ctx context.Context, driver string, o Options) (string, error) {
	f, err := os.CreateTemp("", "augur-stmt-*.txt")
	if err != nil {
		return "", err
	}
	f.Close()
	defer os.Remove(f.Name())
	if err := runDriver(ctx, driver, o, nil, nil, "--stmt", f.Name()); err != nil {
		return "", err
	}
	b, err := os.ReadFile(f.Name())
	return string(b), err
}

// HalideStmt lowers the pipeline with Halide's own compile_to_module under
// HL_DEBUG_CODEGEN=2 and returns the statement Halide prints after the
// pass the front end stops after ("Lowering after bounding small
// realizations:").
func HalideStmt(ctx context.Context, driver string, o Options) (string, error) {
	return halideLogSection(ctx, driver, o, "Lowering after bounding small realizations:", "\nPerforming storage flattening", "no storage flattening after the captured pass")
}

// halideLogSection lowers the pipeline with Halide's own
// compile_to_module under HL_DEBUG_CODEGEN=2 and returns the statement
// printed between the line head and the text next; missing names what is
// absent when next is.
func halideLogSection(ctx context.Context, driver string, o Options, head, next, missing string) (string, error) {
	var log bytes.Buffer
	if err := runDriver(ctx, driver, o, []string{"HL_DEBUG_CODEGEN=2"}, &log, "--halide-lower"); err != nil {
		return "", err
	}
	text := log.String()
	i := strings.Index(text, head+"\n")
	if i < 0 {
		return "", fmt.Errorf("the log of Halide's lowering has no %q", head)
	}
	text = text[i+len(head)+1:]
	j := strings.Index(text, next)
	if j < 0 {
		return "", errors.New("the log of Halide's lowering has " + missing)
	}
	return strings.TrimRight(text[:j], "\n") + "\n", nil
}

// JIT realises the pipeline with Halide's JIT on random inputs (seeded)
// and returns the sample it writes: sizes gives the extents of every
// output and, optionally, of some inputs, by Halide name.
func JIT(ctx context.Context, driver string, o Options, sizes map[string][]int, seed uint64) (*Sample, error) {
	f, err := os.CreateTemp("", "augur-jit-*.txt")
	if err != nil {
		return nil, err
	}
	f.Close()
	defer os.Remove(f.Name())
	args := []string{"--jit", f.Name(), "--seed", fmt.Sprint(seed)}
	names := make([]string, 0, len(sizes))
	for n := range sizes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		var ext []string
		for _, e := range sizes[n] {
			ext = append(ext, fmt.Sprint(e))
		}
		args = append(args, "--size", n+"="+strings.Join(ext, ","))
	}
	if err := runDriver(ctx, driver, o, nil, nil, args...); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(f.Name())
	if err != nil {
		return nil, err
	}
	return ParseSample(string(b))
}
