package bench

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/augur-verify/augur/validate"
)

// Kind says which compiler produced a benchmark's kernel.
type Kind string

const (
	// Halide kernels come from stock Halide 14 through the Halide front
	// end; their pairs are checked in.
	Halide Kind = "halide"
	// Bundled kernels come from Augur's own compiler (package compiler),
	// compiled when the benchmark runs.
	Bundled Kind = "bundled"
)

// SuiteTarget is the Halide target the pairs are generated for: the
// features of the thesis's Core i9-9900 (frontend/halide/apps/suite.json).
const SuiteTarget = "x86-64-linux-avx-avx2-f16c-fma-sse41"

// Published is what Clément 2022, Table 6.1, reports for the prototype.
type Published struct {
	// Seconds is the time reported; with Bound it is a bound ("<1",
	// ">15min"). Zero when the benchmark is not in the table.
	Seconds float64 `json:"seconds,omitempty"`
	// Bound is "<" or ">" when the table gives a bound, else "".
	Bound string `json:"bound,omitempty"`
	// Verdict is the table's outcome: "valid", "invalid", or "timeout".
	Verdict string `json:"verdict,omitempty"`
}

// String renders the published time as the table does ("<1 s", "12.5 s").
func (p Published) String() string {
	if p.Seconds == 0 {
		return ""
	}
	return p.Bound + formatSeconds(p.Seconds)
}

// HalideSource says how a Halide pair is generated: the generator of
// halide/apps and its GeneratorParams, for SuiteTarget plus Features.
type HalideSource struct {
	File      string            `json:"file"`      // under halide/apps
	Generator string            `json:"generator"` // the registered name
	Params    map[string]string `json:"params,omitempty"`
	Features  []string          `json:"features,omitempty"` // appended to SuiteTarget
	// Edit, when set, rewrites the generated specification into the one
	// the benchmark validates against (see sgemmTA).
	Edit func(spec string) (string, error) `json:"-"`
}

// Target is the full Halide target string.
func (h *HalideSource) Target() string {
	t := SuiteTarget
	for _, f := range h.Features {
		t += "-" + f
	}
	return t
}

// Benchmark is one entry of the suite.
type Benchmark struct {
	// Name is the benchmark's name in Table 6.1 (sc2 to sc16 extend the
	// table's sc1 and sc32 for the depth curve).
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// Expected is the verdict a correct validator gives.
	Expected validate.Verdict `json:"expected"`
	// Published is the prototype's result; Target the time Augur aims at
	// on a 2-core machine (zero: none).
	Published Published     `json:"published"`
	Target    time.Duration `json:"target,omitempty"`
	// Stages is the stencil chain's depth (zero for other benchmarks).
	Stages int `json:"stages,omitempty"`
	// Halide is set for the Halide version.
	Halide *HalideSource `json:"halide,omitempty"`
	// Alg is the bundled version's algorithm file under alg/ ("" when
	// AlgText generates it).
	Alg string `json:"alg,omitempty"`
	// Untranslated, when set, says why the Halide front end cannot
	// translate the pipeline: the benchmark then has no pair.
	Untranslated string `json:"untranslated,omitempty"`
	// Note says what the benchmark checks, where it departs from the
	// table.
	Note string `json:"note,omitempty"`
}

// ID names the benchmark uniquely: "halide/sgemm", "bundled/sgemm".
func (b Benchmark) ID() string { return string(b.Kind) + "/" + b.Name }

// Depth reports whether the benchmark belongs to the stencil chain's depth
// curve.
func (b Benchmark) Depth() bool { return b.Stages > 0 }

// entry is a row of Table 6.1 with the target.
type entry struct {
	name      string
	published Published
	target    time.Duration
	expected  validate.Verdict
	// halideExpected, when set, is the Halide version's expected verdict
	// where it differs from the bundled version's (nl_means).
	halideExpected validate.Verdict
	halide         *HalideSource
	alg            string
	untrans        string
	note           string
	bundled        string // why there is no bundled version ("" when there is one)
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

func sgemm(params ...string) *HalideSource {
	h := &HalideSource{File: "sgemm.cpp", Generator: "sgemm", Params: map[string]string{}}
	for _, p := range params {
		k, v, _ := strings.Cut(p, "=")
		h.Params[k] = v
	}
	return h
}

func table() []entry {
	strict := []string{"strict_float"}
	taEdit := sgemm("transpose_A=true")
	taEdit.Edit = intendedTransposedA
	return []entry{
		{name: "blur", published: Published{1, "<", "valid"}, target: ms(300), expected: validate.Valid,
			halide: &HalideSource{File: "blur.cpp", Generator: "blur"}, alg: "blur.alg"},
		{name: "cmm1024", published: Published{2.6, "", "valid"}, target: ms(300), expected: validate.Valid,
			halide: &HalideSource{File: "cmm.cpp", Generator: "cmm", Params: map[string]string{"size": "1024"}}, alg: "cmm1024.alg"},
		{name: "sgemm1024", published: Published{1, "", "valid"}, target: ms(300), expected: validate.Valid,
			halide: sgemm("size=1024"), alg: "sgemm1024.alg"},
		{name: "sqsgemm", published: Published{15.1, "", "valid"}, target: ms(1500), expected: validate.Valid,
			halide: sgemm("square=true"), alg: "sqsgemm.alg"},
		{name: "bigsqsgemm", published: Published{2.7, "", "valid"}, target: ms(300), expected: validate.Valid,
			halide: sgemm("square=true", "big=true"), alg: "bigsqsgemm.alg"},
		{name: "sgemm", published: Published{204, "", "valid"}, target: 20 * time.Second, expected: validate.Valid,
			halide: sgemm(), alg: "sgemm.alg"},
		{name: "bigsgemm", published: Published{12.1, "", "valid"}, target: ms(1200), expected: validate.Valid,
			halide: sgemm("big=true"), alg: "bigsgemm.alg"},
		{name: "sc1", published: Published{12.5, "", "valid"}, target: ms(1200), expected: validate.Valid},
		{name: "sc32", published: Published{293, "", "valid"}, target: 30 * time.Second, expected: validate.Valid},
		{name: "dsc", published: Published{103, "", "valid"}, target: 10 * time.Second, expected: validate.Valid,
			halide: &HalideSource{File: "depthwise_separable_conv.cpp", Generator: "depthwise_separable_conv", Params: map[string]string{"channel_multiplier": "3"}},
			alg:    "dsc.alg"},
		{name: "conv", published: Published{132, "", "valid"}, target: 13 * time.Second, expected: validate.Valid,
			halide: &HalideSource{File: "conv_layer.cpp", Generator: "conv_layer"}, alg: "conv.alg"},
		{name: "sdot", published: Published{1, "<", "valid"}, target: ms(300), expected: validate.Valid,
			halide: &HalideSource{File: "sdot.cpp", Generator: "sdot"}, alg: "sdot.alg"},
		{name: "harris", published: Published{44.8, "", "valid"}, target: ms(4500), expected: validate.Valid,
			halide: &HalideSource{File: "harris.cpp", Generator: "harris", Features: strict}, alg: "harris.alg"},
		{name: "unsharp", published: Published{6.1, "", "valid"}, target: ms(600), expected: validate.Valid,
			halide: &HalideSource{File: "unsharp.cpp", Generator: "unsharp", Features: strict}, alg: "unsharp.alg"},
		{name: "nl_means", published: Published{900, ">", "timeout"}, target: 60 * time.Second, expected: validate.Valid,
			halideExpected: validate.Invalid,
			halide:         &HalideSource{File: "nl_means.cpp", Generator: "nl_means", Features: strict}, alg: "nl_means.alg",
			note: "INVALID by the formats' rules (docs/bench.md): fast_exp converts floor(x / ln 2) to i32, undefined when the quotient leaves i32's range (a small sigma), and the kernel stores that value; the bundled version, with the exact exp, is VALID"},
		{name: "sgemmTA", published: Published{10.4, "", "invalid"}, target: ms(1000), expected: validate.Invalid,
			halide:  taEdit,
			note:    "validated against the intended product A^T B (the reduction over A's first extent, the K of a transposed A), not the pipeline's own algorithm: the app reads its sizes off the untransposed layout",
			bundled: "the bug is in the size bookkeeping of the app; the bundled compiler derives the specification from the algorithm"},
		{name: "sgemmTB", published: Published{34.7, "", "invalid"}, target: ms(3500), expected: validate.Valid,
			halide:  sgemm("transpose_B=true"),
			note:    "Halide's bounds admit only a square B, for which the pipeline is the product A B^T: against its own algorithm (and the intended product) the kernel is correct; the table's failure came from its specification",
			bundled: "the bug is in the size bookkeeping of the app; the bundled compiler derives the specification from the algorithm"},
	}
}

// chainDepths are the stencil chain's depths of the depth curve.
var chainDepths = [...]int{1, 2, 4, 8, 16, 32}

// Suite returns the whole suite, Halide versions first, in the order of
// Table 6.1, each followed by the stencil chain's depth curve. The slice
// is new on every call.
func Suite() []Benchmark {
	var hal, bun []Benchmark
	for _, e := range table() {
		if e.name == "sc1" || e.name == "sc32" {
			continue // in the depth curve below
		}
		if e.halide != nil {
			hal = append(hal, Benchmark{Name: e.name, Kind: Halide, Expected: cmp.Or(e.halideExpected, e.expected), Published: e.published,
				Target: e.target, Halide: e.halide, Untranslated: e.untrans, Note: e.note})
		}
		if e.bundled == "" {
			bun = append(bun, Benchmark{Name: e.name, Kind: Bundled, Expected: e.expected, Published: e.published,
				Target: e.target, Alg: e.alg})
		}
	}
	rows := table()
	for _, n := range chainDepths {
		name := fmt.Sprintf("sc%d", n)
		var pub Published
		var target time.Duration
		if i := slices.IndexFunc(rows, func(e entry) bool { return e.name == name }); i >= 0 {
			pub, target = rows[i].published, rows[i].target
		}
		note := ""
		if pub.Seconds == 0 {
			note = "depth curve: not in Table 6.1"
		}
		hal = append(hal, Benchmark{Name: name, Kind: Halide, Expected: validate.Valid, Published: pub, Target: target, Stages: n, Note: note,
			Halide: &HalideSource{File: "stencil_chain.cpp", Generator: "stencil_chain", Params: map[string]string{"stencils": fmt.Sprint(n)}}})
		bun = append(bun, Benchmark{Name: name, Kind: Bundled, Expected: validate.Valid, Published: pub, Target: target, Stages: n, Note: note})
	}
	return append(hal, bun...)
}

// NoBundled lists the Table 6.1 benchmarks without a bundled version, and
// why.
func NoBundled() map[string]string {
	m := map[string]string{}
	for _, e := range table() {
		if e.bundled != "" {
			m[e.name] = e.bundled
		}
	}
	return m
}

// Select filters the suite: only the benchmarks whose name or ID is in
// only (all when only is empty), of the given kinds (all when kinds is
// empty). Unknown names are an error.
func Select(suite []Benchmark, only []string, kinds ...Kind) ([]Benchmark, error) {
	want := map[string]bool{}
	for _, n := range only {
		if n = strings.TrimSpace(n); n != "" {
			want[n] = true
		}
	}
	seen := map[string]bool{}
	var out []Benchmark
	for _, b := range suite {
		if len(kinds) > 0 && !slices.Contains(kinds, b.Kind) {
			continue
		}
		if len(want) > 0 && !want[b.Name] && !want[b.ID()] {
			continue
		}
		seen[b.Name], seen[b.ID()] = true, true
		out = append(out, b)
	}
	if unknown := unseen(want, seen); unknown != "" {
		return nil, fmt.Errorf("no benchmark %s in the suite (of the kinds selected)", unknown)
	}
	return out, nil
}

// unseen lists the names wanted that no row matched, sorted, joined by
// commas; "" when every one matched.
func unseen(want, seen map[string]bool) string {
	var unknown []string
	for n := range want {
		if !seen[n] {
			unknown = append(unknown, n)
		}
	}
	slices.Sort(unknown)
	return strings.Join(unknown, ", ")
}

// intendedTransposedA rewrites the specification Halide's sgemm with
// transpose_A gives into the product its user intends: A_ holds A
// transposed, K x M, so the reduction runs over A_'s first extent, not its
// second as the app's size bookkeeping has it.
func intendedTransposedA(spec string) (string, error) {
	const from, to = "A__extent_1", "A__extent_0"
	lines := strings.Split(spec, "\n")
	n := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "AB_s1(") || strings.HasPrefix(l, "AB(") {
			n += strings.Count(l, from)
			lines[i] = strings.ReplaceAll(l, from, to)
		}
	}
	if n != 3 {
		return "", fmt.Errorf("sgemmTA: expected the reduction's extent %s 3 times in AB_s1 and AB, found it %d times", from, n)
	}
	return "# Edited by augur bench: the reduction runs over A__extent_0, the intended product A^T B\n# for A_ given transposed (K x M); the app reduces over A__extent_1.\n" + strings.Join(lines, "\n"), nil
}

func formatSeconds(s float64) string {
	if s >= 60 && s == float64(int(s)) {
		if int(s)%60 == 0 {
			return fmt.Sprintf("%dmin", int(s)/60)
		}
		return fmt.Sprintf("%dmin%02d", int(s)/60, int(s)%60)
	}
	return fmt.Sprintf("%g s", s)
}
