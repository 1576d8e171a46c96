package halide

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
)

// toolchain returns the default toolchain, skipping the test when Halide
// is not installed, unless CI is set: there it must be.
func toolchain(t *testing.T) Toolchain {
	t.Helper()
	tc := Default()
	if err := tc.Available(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and %v", err)
		}
		t.Skip(err)
	}
	return tc
}

// driver builds the driver of a suite generator.
func driver(t *testing.T, tc Toolchain, app string) string {
	t.Helper()
	return buildDriver(t, tc, filepath.Join("apps", app+".cpp"))
}

// builds are the drivers the tests build, by source, each built once:
// the tests run side by side, and several build the same source.
var builds sync.Map // source path -> *build

// build is the outcome of one driver's build.
type build struct {
	once   sync.Once
	driver string
	err    error
}

// translatorBuilt compiles the translator's objects once, before any
// driver: on a cold cache, tests side by side would each compile them.
var translatorBuilt = sync.OnceValue(func() error {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	_, err := Default().Objects(ctx)
	return err
})

// buildDriver returns the driver of the generator source src, built with
// tc once for all the tests.
func buildDriver(t *testing.T, tc Toolchain, src string) string {
	t.Helper()
	v, _ := builds.LoadOrStore(src, new(build))
	b := v.(*build)
	b.once.Do(func() {
		if b.err = translatorBuilt(); b.err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
		defer cancel()
		b.driver, b.err = tc.Driver(ctx, src)
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.driver
}

// translated translates the pipeline of driver d with options o.
func translated(ctx context.Context, t *testing.T, d string, o Options) *frontend.Pair {
	t.Helper()
	pair, err := Translate(ctx, d, o)
	if err != nil {
		t.Fatal(err)
	}
	return pair
}

var suite = []struct {
	app    string
	params map[string]string
	// sizes of two JIT samples: every output's, some inputs'
	sizes [2]map[string][]int
}{
	{"blur", nil, [2]map[string][]int{{"blur_y": {24, 16}}, {"blur_y": {13, 11}}}},
	{"blur", map[string]string{"tiled": "false"}, [2]map[string][]int{{"blur_y": {9, 5}}, {"blur_y": {3, 7}}}},
	{"sdot", nil, [2]map[string][]int{{"result": {}, "x": {37}}, {"result": {}, "x": {1}}}},
	{"matmul", nil, [2]map[string][]int{{"C": {12, 10}, "A": {7, 10}}, {"C": {8, 3}, "A": {1, 3}}}},
	{"matmul", map[string]string{"tile": "0"}, [2]map[string][]int{{"C": {5, 4}, "A": {3, 4}}, {"C": {2, 6}, "A": {4, 6}}}},
}

func name(app string, params map[string]string) string {
	n := app
	for k, v := range params {
		n += "_" + k + "=" + v
	}
	return n
}

// TestCapturedStmt checks that the statement the front end captures is
// Halide's own, as HL_DEBUG_CODEGEN=2 prints it after bounding small
// realizations, the last pass before storage flattening.
func TestCapturedStmt(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	for _, c := range suite {
		t.Run(name(c.app, c.params), func(t *testing.T) {
			ctx := context.Background()
			d := driver(t, tc, c.app)
			o := Options{Params: c.params}
			ours, err := CapturedStmt(ctx, d, o)
			if err != nil {
				t.Fatal(err)
			}
			theirs, err := HalideStmt(ctx, d, o)
			if err != nil {
				t.Fatal(err)
			}
			if strings.TrimSpace(ours) != strings.TrimSpace(theirs) {
				t.Errorf("the captured statement differs from Halide's:\n--- captured\n%s\n--- Halide\n%s", ours, theirs)
			}
		})
	}
}

// TestJIT realises every suite pipeline with Halide's JIT on random inputs
// at two sizes, then runs the translated kernel with the reference
// interpreter on the same inputs against the specification (every
// annotation and out cell checked), and compares every cell Halide
// computed with the specification.
func TestJIT(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	for _, c := range suite {
		t.Run(name(c.app, c.params), func(t *testing.T) {
			ctx := context.Background()
			d := driver(t, tc, c.app)
			o := Options{Params: c.params}
			spec, prog := translatePair(t, ctx, d, o)
			for i, sizes := range c.sizes {
				s, err := JIT(ctx, d, o, sizes, uint64(i+1))
				if err != nil {
					t.Fatal(err)
				}
				res, err := s.Check(ctx, spec, prog, 1e-5)
				if err != nil {
					t.Fatalf("sample %d (%v): %v", i+1, sizes, err)
				}
				if res.HalideCells == 0 || res.KernelCells != int64(res.HalideCells) {
					t.Errorf("sample %d: %d cells from Halide, %d checked in the kernel", i+1, res.HalideCells, res.KernelCells)
				}
				t.Logf("sample %d %v: %d assignments, %d output cells agree", i+1, sizes, res.Assignments, res.HalideCells)
			}
		})
	}
}

// TestUnsupported checks that constructs the front end cannot translate
// are errors naming them.
func TestUnsupported(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	cases := []struct {
		name, body, want string
	}{
		{"scan_step", `
    Input<Buffer<float>> in{"in", 1};
    Output<Buffer<float>> out{"out", 1};
    void generate() {
        Var x("x");
        RDom r(1, in.dim(0).extent() / 2 - 1);
        out(x) = in(x);
        out(2 * r) = out(2 * r - 2) + in(r);
    }`, "moves it by a step other than 1 or -1"},
		{"square", `
    Input<Buffer<float>> in{"in", 1};
    Output<Buffer<float>> out{"out", 1};
    void generate() {
        Var x("x");
        out(x) = in(x * x);
    }`, "a product of two non-constant terms"},
		{"undef", `
    Input<Buffer<float>> in{"in", 1};
    Output<Buffer<float>> out{"out", 1};
    void generate() {
        Var x("x");
        Func t("t");
        t(x) = undef<float>();
        t(x) = in(x) * 2;
        out(x) = t(x);
    }`, "a pure definition undef() is translated only before an update that moves a pure dimension, or in an output updated in place"},
		{"rfactor_offset", `
    Input<Buffer<float>> in{"in", 1};
    Output<Buffer<float>> out{"out", 0};
    void generate() {
        r = RDom(0, in.dim(0).extent(), "r");
        out() = 1.0f;
        out() += in(r);
    }
    void schedule() {
        RVar ro("ro"), ri("ri");
        Var u("u");
        Func intm = out.update(0).split(r, ro, ri, 4).rfactor(ri, u);
        intm.compute_root();
    }
    RDom r;`, "is translated when it starts from its operator's identity"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "#include \"Halide.h\"\nusing namespace Halide;\nclass G : public Generator<G> {\npublic:" + c.body +
				"\n};\nHALIDE_REGISTER_GENERATOR(G, " + c.name + ")\n"
			path := filepath.Join(t.TempDir(), c.name+".cpp")
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			d := buildDriver(t, tc, path)
			_, err := Translate(ctx, d, Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
			t.Log(err)
		})
	}
}

// translatePair translates the pipeline of d with options o and returns
// the specification and the kernel.
func translatePair(t *testing.T, ctx context.Context, d string, o Options) (spec, prog string) {
	t.Helper()
	pair := translated(ctx, t, d, o)
	return pair.Spec, pair.Kernel(frontend.Prog).Text
}

// jitAgrees realises the pipeline of driver d with Halide's JIT on seeded
// random inputs of the given sizes and checks that the specification and
// the kernel, run by the interpreter on the same inputs, agree with every
// output cell (within the relative tolerance tol for floats).
func jitAgrees(ctx context.Context, t *testing.T, d string, o Options, spec, prog string, sizes map[string][]int, seed uint64, tol float64) *CheckResult {
	t.Helper()
	s, err := JIT(ctx, d, o, sizes, seed)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Check(ctx, spec, prog, tol)
	if err != nil {
		t.Fatalf("sample of seed %d (%v): %v", seed, sizes, err)
	}
	if res.HalideCells == 0 || res.KernelCells != int64(res.HalideCells) {
		t.Errorf("sample of seed %d: %d cells from Halide, %d checked in the kernel", seed, res.HalideCells, res.KernelCells)
	}
	return res
}
