package halide

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

var (
	suiteFlag    = flag.Bool("suite", false, "run the whole suite of frontend/halide/apps/suite.json (Clément 2022, Table 6.1): translation, JIT samples and validation of every pipeline; slow")
	suiteOnly    = flag.String("suite.only", "", "with -suite: comma-separated pipeline names to run")
	suiteTimeout = flag.Duration("suite.timeout", 10*time.Minute, "with -suite: the bound on each validation")
	suiteNoVal   = flag.Bool("suite.novalidate", false, "with -suite: JIT samples only, no validation")
)

// SuiteTarget is the target suite.json fixes: `host` detects CPU features
// on some machines whose code crashes (frontend/halide/apps/README.md).
const SuiteTarget = "x86-64-linux-avx-avx2-f16c-fma-sse41"

type suiteFile struct {
	Target    string          `json:"target"`
	Pipelines []suitePipeline `json:"pipelines"`
}

type suitePipeline struct {
	Name           string            `json:"name"`
	File           string            `json:"file"`
	Generator      string            `json:"generator"`
	Params         map[string]any    `json:"params"`
	TargetFeatures []string          `json:"target_features"`
	Tests          []suiteTest       `json:"tests"`
	Verdict        string            `json:"verdict"`
	Note           string            `json:"note"`
	raw            map[string]string // Params as strings
}

type suiteTest struct {
	Params  map[string]any             `json:"params"`
	Scalars map[string]float64         `json:"scalars"`
	Inputs  map[string]json.RawMessage `json:"inputs"`
	Outputs map[string]json.RawMessage `json:"outputs"`
}

func paramStrings(m map[string]any) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = fmt.Sprint(v)
	}
	return out
}

func loadSuite(t *testing.T) suiteFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("apps", "suite.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s suiteFile
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	for i := range s.Pipelines {
		s.Pipelines[i].raw = paramStrings(s.Pipelines[i].Params)
	}
	return s
}

func (p suitePipeline) options(target string) Options {
	for _, f := range p.TargetFeatures {
		target += "-" + f
	}
	return Options{Generator: p.Generator, Params: p.raw, Target: target}
}

// extents reads a buffer's bounds as suite.json gives them (per dimension
// an extent, or [min, extent]): the extents, and whether some min is not 0.
func extents(raw json.RawMessage) ([]int, bool, error) {
	var dims []json.RawMessage
	if err := json.Unmarshal(raw, &dims); err != nil {
		return nil, false, err
	}
	var out []int
	shifted := false
	for _, d := range dims {
		var e int
		if err := json.Unmarshal(d, &e); err == nil {
			out = append(out, e)
			continue
		}
		var me [2]int
		if err := json.Unmarshal(d, &me); err != nil {
			return nil, false, err
		}
		out = append(out, me[1])
		shifted = shifted || me[0] != 0
	}
	return out, shifted, nil
}

// jitCase is one JIT sample of a suite pipeline: the GeneratorParams that
// build it (the pipeline's, overridden) and the sizes.
type jitCase struct {
	params map[string]string
	sizes  map[string][]int
}

// jitPlan derives the JIT samples of a suite pipeline from its tests;
// the reason is set when there are none (too large for the reference
// interpreter, or not translatable).
func jitPlan(p suitePipeline) ([]jitCase, string) {
	// Pipelines whose tests are too large for the reference interpreter
	// (it runs the kernel and checks every store against the
	// specification): a smaller build of the same generator where a
	// GeneratorParam allows it.
	small := map[string][]jitCase{
		"sgemm1024": {{map[string]string{"size": "64"}, map[string][]int{"result": {64, 64}, "A_": {64, 64}, "B_": {64, 64}, "C_": {64, 64}}}},
		"cmm1024":   {{map[string]string{"size": "64"}, map[string][]int{"out": {64, 64}, "A": {64, 64}, "B": {64, 64}}}},
		"sc1": {
			{map[string]string{"width": "128", "height": "128"}, map[string][]int{"output": {40, 32}}},
			{map[string]string{"width": "128", "height": "128"}, map[string][]int{"output": {70, 45}}},
		},
		"sc32": {
			{map[string]string{"width": "128", "height": "128"}, map[string][]int{"output": {40, 32}}},
		},
		// The suite's second size (48 x 40, search area 9) needs more
		// than the interpreter's 4M elements.
		"nl_means": {
			{nil, map[string][]int{"non_local_means": {32, 16, 3}, "input": {32, 16, 3}, "patch_size": {7}, "search_area": {7}}},
			{nil, map[string][]int{"non_local_means": {24, 16, 3}, "input": {20, 12, 3}, "patch_size": {5}, "search_area": {9}}},
		},
	}
	switch p.Name {
	case "bigsqsgemm", "bigsgemm":
		return nil, "only sizes >= 512 run (specialize_fail below): too large for the reference interpreter"
	case "sgemvT":
		return nil, "the interpreter checks every store's annotation, and those of the lane sums at rows before the first one needed read rows of A that Halide's inputs do not have"
	}
	if cs, ok := small[p.Name]; ok {
		var out []jitCase
		for _, c := range cs {
			params := map[string]string{}
			for k, v := range p.raw {
				params[k] = v
			}
			for k, v := range c.params {
				params[k] = v
			}
			out = append(out, jitCase{params, c.sizes})
		}
		return out, ""
	}
	var out []jitCase
	for _, t := range p.Tests {
		params := map[string]string{}
		for k, v := range p.raw {
			params[k] = v
		}
		for k, v := range paramStrings(t.Params) {
			params[k] = v
		}
		// The app's own conv sizes are too large; its small instance is
		// the second test.
		if p.Name == "conv" && len(t.Params) == 0 {
			continue
		}
		// The reference interpreter evaluates at most 4M elements of a
		// tensor: sgemm's product recurrence has M x N x K.
		if p.File == "sgemm.cpp" {
			a, _, _ := extents(t.Inputs["A_"])
			b, _, _ := extents(t.Inputs["B_"])
			if len(a) == 2 && len(b) == 2 && a[0]*a[1]*b[1] > 2000000 {
				continue
			}
		}
		sizes := map[string][]int{}
		shifted := false
		for n, raw := range t.Outputs {
			e, s, err := extents(raw)
			if err != nil {
				return nil, err.Error()
			}
			sizes[n] = e
			shifted = shifted || s
		}
		// Inputs are sized explicitly unless an output is not at 0 (the
		// bounds query places them then).
		if !shifted {
			for n, raw := range t.Inputs {
				e, _, err := extents(raw)
				if err != nil {
					return nil, err.Error()
				}
				sizes[n] = e
			}
		}
		for n, v := range t.Scalars {
			if v == float64(int(v)) {
				sizes[n] = []int{int(v)}
			}
		}
		out = append(out, jitCase{params, sizes})
	}
	return out, ""
}

// checkJIT runs one JIT sample and checks it against the translation of
// the same build.
func checkJIT(ctx context.Context, t *testing.T, tc Toolchain, p suitePipeline, target string, c jitCase, seed uint64) {
	t.Helper()
	d := driver(t, tc, strings.TrimSuffix(p.File, ".cpp"))
	o := p.options(target)
	o.Params = c.params
	spec, prog := translatePair(t, ctx, d, o)
	start := time.Now()
	res := jitAgrees(ctx, t, d, o, spec, prog, c.sizes, seed, 1e-5)
	t.Logf("JIT %v %v: %d assignments, %d output cells agree (%.1fs)", c.params, c.sizes, res.Assignments, res.HalideCells, time.Since(start).Seconds())
}

// TestSuiteJITFast JIT-checks the suite pipelines whose samples are small
// enough for the default test run.
func TestSuiteJITFast(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	s := loadSuite(t)
	fast := map[string]bool{"sgemm": true, "sgemm1024": true, "cmm1024": true, "dsc": true}
	for _, p := range s.Pipelines {
		if !fast[p.Name] {
			continue
		}
		t.Run(p.Name, func(t *testing.T) {
			cases, why := jitPlan(p)
			if len(cases) == 0 {
				t.Skip(why)
			}
			checkJIT(context.Background(), t, tc, p, s.Target, cases[0], 1)
		})
	}
}

// validatePair validates the kernel of a pair that Translate returned.
func validatePair(ctx context.Context, pair *frontend.Pair, model encode.Model, jobs int) (*validate.Report, error) {
	return validate.Validate(ctx, pair.SpecSource(), pair.Kernel(frontend.Prog).Source(),
		validate.Options{ValueModel: model, Jobs: jobs})
}

// wantVerdict validates pair in model with jobs workers and fails the
// test unless the verdict is want; what names the pair.
func wantVerdict(ctx context.Context, t *testing.T, pair *frontend.Pair, model encode.Model, jobs int, want validate.Verdict, what string) {
	t.Helper()
	rep, err := validatePair(ctx, pair, model, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != want {
		t.Errorf("%s, %v: verdict %s (%s), want %s", what, model, rep.Verdict, rep.Reason, want)
	}
}

// wantInvalidReplayed validates the planted kernel text wrong against
// spec in the real value model and fails the test unless the verdict is
// INVALID with a replayed counterexample; what names the plant.
func wantInvalidReplayed(ctx context.Context, t *testing.T, spec *syntax.Source, wrong, what string) *validate.Report {
	t.Helper()
	rep, err := validate.Validate(ctx, spec, &syntax.Source{Name: "wrong.sched", Text: wrong},
		validate.Options{ValueModel: encode.Real, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != validate.Invalid || rep.Counterexample == nil || !rep.Counterexample.Reproduced {
		t.Errorf("%s: verdict %s (%s), want invalid, replayed", what, rep.Verdict, rep.Reason)
	}
	return rep
}

// stores counts the kernel's statements and its stores.
func kernelSize(prog string) (stmts, stores int) {
	body := false
	for _, l := range strings.Split(prog, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(l, "{") {
			body = true
			continue
		}
		if !body || t == "" || t == "}" || t == "{" || strings.HasPrefix(t, "#") {
			continue
		}
		stmts++
		if strings.Contains(t, ":=") {
			stores++
		}
	}
	return
}

// TestSuite translates, JIT-checks and validates every pipeline of
// suite.json (go test ./halide -run TestSuite$ -suite -timeout 3h), and
// logs the table of docs/halide.md.
func TestSuite(t *testing.T) {
	t.Parallel()
	if !*suiteFlag {
		t.Skip("the whole suite runs with -suite")
	}
	tc := toolchain(t)
	s := loadSuite(t)
	only := map[string]bool{}
	for _, n := range strings.Split(*suiteOnly, ",") {
		if n != "" {
			only[n] = true
		}
	}
	var rows []string
	for _, p := range s.Pipelines {
		if len(only) > 0 && !only[p.Name] {
			continue
		}
		p := p
		t.Run(p.Name, func(t *testing.T) {
			ctx := context.Background()
			d := driver(t, tc, strings.TrimSuffix(p.File, ".cpp"))
			pair, err := Translate(ctx, d, p.options(s.Target))
			if err != nil {
				rows = append(rows, fmt.Sprintf("| %s | | not translated | | %v |", p.Name, err))
				t.Logf("%s: not translated: %v", p.Name, err)
				return
			}
			n, st := kernelSize(pair.Kernel(frontend.Prog).Text)
			cases, why := jitPlan(p)
			for i, c := range cases {
				t.Run(fmt.Sprintf("jit%d", i+1), func(t *testing.T) { checkJIT(ctx, t, tc, p, s.Target, c, uint64(i+1)) })
			}
			if len(cases) == 0 {
				t.Logf("no JIT sample: %s", why)
			}
			if *suiteNoVal {
				return
			}
			models := []encode.Model{encode.Real}
			if len(p.TargetFeatures) > 0 {
				models = append(models, encode.IEEE)
			}
			for _, m := range models {
				vctx, cancel := context.WithTimeout(ctx, *suiteTimeout)
				start := time.Now()
				rep, err := validatePair(vctx, pair, m, 2)
				cancel()
				if err != nil {
					rows = append(rows, fmt.Sprintf("| %s | %d (%d) | error (%s) | %.0f s | %v |", p.Name, n, st, m, time.Since(start).Seconds(), err))
					continue
				}
				var ph []string
				for _, x := range rep.Timings {
					ph = append(ph, fmt.Sprintf("%s %.1f", x.Phase, x.Seconds))
				}
				rows = append(rows, fmt.Sprintf("| %s | %d (%d) | %s (%s, %d conditions) | %.0f s (%s) | |",
					p.Name, n, st, rep.Verdict, m, len(rep.Conditions), time.Since(start).Seconds(), strings.Join(ph, ", ")))
				if rep.Verdict == validate.Valid && p.Verdict == "invalid" {
					t.Errorf("%s is VALID, expected INVALID", p.Name)
				}
				if rep.Verdict == validate.Invalid && p.Verdict != "invalid" {
					t.Errorf("%s is INVALID (%s), expected %s", p.Name, rep.Reason, p.Verdict)
				}
				if rep.Counterexample != nil {
					t.Logf("counterexample: %+v", rep.Counterexample)
				}
			}
		})
	}
	sort.Strings(rows)
	t.Logf("\n| pipeline | statements (stores) | verdict | time | not translated |\n| --- | --- | --- | --- | --- |\n%s", strings.Join(rows, "\n"))
}
