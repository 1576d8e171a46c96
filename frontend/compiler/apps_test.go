package compiler

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// TestAppSchedules compiles the benchmark algorithms written after their
// apps' CPU schedules (bench/alg/*_app.alg: bounded unrolls, a
// specializations, bounds inference beyond its budget for nl_means). The
// matrix products run at sizes on every side of their specializations,
// the depthwise separable convolution and the stencils over partial tiles;
// the others are too large for the interpreter. Each takes from seconds to
// minutes to validate: docs/compiler.md's table gives their verdicts.
func TestAppSchedules(t *testing.T) {
	if testing.Short() {
		t.Skip("nl_means's bounds inference takes seconds")
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "bench", "alg", "*_app.alg"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no app schedules: %v", err)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".alg")
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			p, err := alg.Load(&syntax.Source{Name: path, Text: string(text)})
			if err != nil {
				t.Fatal(detail(err))
			}
			r, err := Compile(context.Background(), p, name, Options{})
			if err != nil {
				t.Fatal(detail(err))
			}
			runs := map[string][]map[string]int64{
				"sgemm_app":   {{"M": 5, "N": 7, "K": 3}, {"M": 33, "N": 40, "K": 2}, {"M": 130, "N": 129, "K": 2}},
				"sqsgemm_app": {{"N": 5}, {"N": 37}},
				"dsc_app":     {{"W": 4, "H": 3, "NB": 1, "CO": 17}},
				"blur_app":    {{"W": 17, "H": 33}, {"W": 40, "H": 70}},
				"harris_app":  {{"W": 9, "H": 33}},
				"unsharp_app": {{"W": 11, "H": 34}},
			}
			for i, params := range runs[name] {
				if err := runKernel(r, params, uint64(i+1)); err != nil {
					t.Fatalf("params %v: %v", params, err)
				}
			}
		})
	}
}

// stencilChain is the stencil chain of n 5 x 5 uint16 stages of Halide's
// stencil_chain app (as bench.StencilChain writes it), every stage
// computed at the output's row loop inside 512 x 512 tiles with shifted
// tails, the rows of tiles in parallel, x vectorised by 16.
func stencilChain(n int) string {
	var b strings.Builder
	b.WriteString("param W, H\nassume W >= 1\nassume H >= 1\ninput In(x, y) : u16\n")
	b.WriteString("func S0(x, y) : u16 = In(max(min(x, W - 1), 0), max(min(y, H - 1), 0))\n")
	off := func(v string, d int) string {
		switch {
		case d > 0:
			return v + " + " + string(rune('0'+d))
		case d < 0:
			return v + " - " + string(rune('0'-d))
		}
		return v
	}
	for s := 1; s <= n; s++ {
		var terms []string
		for i := -2; i <= 2; i++ {
			for j := -2; j <= 2; j++ {
				terms = append(terms, strings.Join([]string{itoa((i + 3) * (j + 3)), " * S", itoa(s - 1), "(", off("x", i), ", ", off("y", j), ")"}, ""))
			}
		}
		b.WriteString("func S" + itoa(s) + "(x, y) : u16 = " + strings.Join(terms, " +\n  ") + "\n")
	}
	b.WriteString("output S" + itoa(n) + " over x in 0 .. W, y in 0 .. H\nschedule {\n")
	b.WriteString("  S" + itoa(n) + ".tile(x, y, xo, yo, xi, yi, 512, 512, shift).parallel(yo).split(xi, xv, xl, 16, shift).vectorize(xl)\n")
	for s := 0; s < n; s++ {
		b.WriteString("  S" + itoa(s) + ".compute_at(S" + itoa(n) + ", yi).split(x, xv, xl, 16, shift).vectorize(xl)\n")
	}
	b.WriteString("}\n")
	return b.String()
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestStencilChainSchedule compiles the stencil chain of two stages under
// stencil_chain's tiled schedule: the producers' regions, the tile and
// its halo, have constant extents, so their vectorised loops need no
// guard, as in Halide's kernel; the kernel validates.
func TestStencilChainSchedule(t *testing.T) {
	r, err := compileAlg(t, stencilChain(2))
	if err != nil {
		t.Fatal(detail(err))
	}
	k := r.Kernels[0].Text
	for _, want := range []string{"alloc buf_S0 : u16[520, 9] {", "alloc buf_S1 : u16[516, 5] {", "let x = min(512 * xo - 2, W - 514) + (min(xv * 16, 500) + xl)"} {
		if !strings.Contains(k, want) {
			t.Errorf("no %q in\n%s", want, k)
		}
	}
	if testing.Short() {
		return
	}
	if rep := validatePair(t, r); rep.Verdict != validate.Valid {
		t.Fatalf("verdict %s, want valid\n%s", rep.Verdict, k)
	}
}

// TestAppBoundsSteps counts the Presburger engine's steps of compiling the
// app schedules with the default bounds budget. nl_means's regions of the
// input, read through clamps inside six levels of tiles, vectors and
// unrolled channels, exhaust the budget in two dimensions, whose bounds
// then come from interval arithmetic: the whole input, as with a larger
// budget. The whole compilation takes 56,374 steps, the two exhausted
// budgets of 10,000 and the construction of the sets (a step per piece,
// division and conjunction built, presburger.NewBuilderContext)
// included.
func TestAppBoundsSteps(t *testing.T) {
	for _, tc := range []struct {
		name     string
		maxSteps int64
		region   string
	}{
		{"nl_means_app", 56_374, "in  buf_In[x, y, c] : f32[W, H, 3] = In(x, y, c)"},
		{"conv_app", 4_000, "in  buf_In[ci, x, y, n] : f32[128, 102, 82, 5] = In(ci, x, y, n)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join("..", "..", "bench", "alg", tc.name+".alg")
			text, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			p, err := alg.Load(&syntax.Source{Name: path, Text: string(text)})
			if err != nil {
				t.Fatal(detail(err))
			}
			steps := presburger.NewAllowance(0)
			r, err := Compile(presburger.WithAllowance(context.Background(), steps), p, tc.name, Options{})
			if err != nil {
				t.Fatal(detail(err))
			}
			if n := steps.Used(); n > tc.maxSteps {
				t.Errorf("%d steps of the engine, want at most %d", n, tc.maxSteps)
			}
			if k := r.Kernels[0].Text; !strings.Contains(k, tc.region) {
				t.Errorf("no %q in\n%s", tc.region, k)
			}
		})
	}
}
