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
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

//go:embed cc/augur_halide.h cc/emit.cpp cc/driver.cpp
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
	// translator (first run, cached afterwards)", "compiling GEN",
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
// missing; the result appears at path atomically.
func cached(path string, build func(tmp string) error) (string, error) {
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	tmp := fmt.Sprintf("%s.tmp%d", path, os.Getpid())
	defer os.Remove(tmp)
	if err := build(tmp); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", err
	}
	return path, nil
}

// Sources writes the C++ sources of the translator into dir (the header
// augur_halide.h, emit.cpp and driver.cpp), for builds outside Go.
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

// Objects compiles the translator (emit.cpp) and the driver's main
// (driver.cpp), once per content, and returns the two object files.
func (t Toolchain) Objects(ctx context.Context) (emitObj, driverObj string, err error) {
	if err := t.Available(); err != nil {
		return "", "", err
	}
	var all [][]byte
	for _, n := range []string{"augur_halide.h", "emit.cpp", "driver.cpp"} {
		b, err := sources.ReadFile("cc/" + n)
		if err != nil {
			return "", "", err
		}
		all = append(all, b)
	}
	k, err := t.key(all...)
	if err != nil {
		return "", "", err
	}
	dir := filepath.Join(t.CacheDir, "driver-"+k)
	src := filepath.Join(dir, "src")
	objs := make([]string, 2)
	announced := false
	for i, n := range []string{"emit", "driver"} {
		objs[i], err = cached(filepath.Join(dir, n+".o"), func(tmp string) error {
			if !announced {
				t.progress("compiling the Halide translator (first run, cached afterwards)")
				announced = true
			}
			if err := Sources(src); err != nil {
				return err
			}
			args := t.cxxFlags("-c", filepath.Join(src, n+".cpp"), "-o", tmp)
			if err := run(ctx, dir, t.CXX, args...); err != nil {
				return fmt.Errorf("compiling the Halide translator: %w", err)
			}
			return nil
		})
		if err != nil {
			return "", "", err
		}
	}
	return objs[0], objs[1], nil
}

// Driver compiles the Generator source gen with the translator into a
// driver program, once per content of gen (headers it includes are not
// tracked: touch gen after changing them), and returns its path.
func (t Toolchain) Driver(ctx context.Context, gen string) (string, error) {
	emitObj, driverObj, err := t.Objects(ctx)
	if err != nil {
		return "", err
	}
	src, err := os.ReadFile(gen)
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(gen)
	if err != nil {
		return "", err
	}
	k, err := t.key(src, []byte(filepath.Dir(abs)), []byte(emitObj), []byte(driverObj))
	if err != nil {
		return "", err
	}
	dir := filepath.Join(t.CacheDir, "gen-"+k)
	obj, err := cached(filepath.Join(dir, "gen.o"), func(tmp string) error {
		t.progress("compiling " + gen)
		args := t.cxxFlags("-I", filepath.Dir(abs), "-c", abs, "-o", tmp)
		if err := run(ctx, dir, t.CXX, args...); err != nil {
			return fmt.Errorf("compiling the generator %s: %w", gen, err)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return cached(filepath.Join(dir, "driver"), func(tmp string) error {
		t.progress("linking the driver of " + gen)
		args := append([]string{obj, emitObj, driverObj, "-o", tmp}, t.Libs...)
		args = append(args, "-lpthread", "-ldl")
		if err := run(ctx, dir, t.CXX, args...); err != nil {
			return fmt.Errorf("linking the driver of %s: %w", gen, err)
		}
		return nil
	})
}

// Options select the generator and its parameters.
type Options struct {
	Generator string            // the registered name; empty when the source registers one
	Params    map[string]string // GeneratorParam values
	Target    string            // Halide's target string; empty means host
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
// before storage flattening, as Halide prints it.
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
	var log bytes.Buffer
	if err := runDriver(ctx, driver, o, []string{"HL_DEBUG_CODEGEN=2"}, &log, "--halide-lower"); err != nil {
		return "", err
	}
	const head = "Lowering after bounding small realizations:\n"
	text := log.String()
	i := strings.Index(text, head)
	if i < 0 {
		return "", fmt.Errorf("the log of Halide's lowering has no %q", strings.TrimSpace(head))
	}
	text = text[i+len(head):]
	j := strings.Index(text, "\nPerforming storage flattening")
	if j < 0 {
		return "", errors.New("the log of Halide's lowering has no storage flattening after the captured pass")
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
