package rink

import (
	"bufio"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// exampleDir holds the programs of the paper and the programs that
// exhibit its subtle points, each with its expected verdicts.
const exampleDir = "../../examples/rink"

// examples returns the paths of the example programs.
func examples(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join(exampleDir, "*.rink"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples in %s: %v", exampleDir, err)
	}
	return files
}

// load reads, parses, checks and translates a program.
func load(t testing.TB, path string, opts Options) (*Program, *Info, *Result) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, info, err := Load(&syntax.Source{Name: path, Text: string(data)})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if opts.Name == "" {
		opts.Name = strings.TrimSuffix(filepath.Base(path), ".rink")
	}
	out, err := Translate(p, info, opts)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return p, info, out
}

// expectation is one line of a .expected file: "IMPL MODEL [FLAG...]
// VERDICT", with the flags in-place and parallel (Options.InPlace and
// Options.Parallel).
type expectation struct {
	impl, model string
	opts        Options
	flags       string
	verdict     string
}

func readExpected(t testing.TB, path string) []expectation {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []expectation
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		if len(w) == 0 || strings.HasPrefix(w[0], "#") {
			continue
		}
		if len(w) < 3 {
			t.Fatalf("%s: bad line %q", path, sc.Text())
		}
		e := expectation{impl: w[0], model: w[1], verdict: w[len(w)-1]}
		for _, flag := range w[2 : len(w)-1] {
			switch flag {
			case "in-place":
				e.opts.InPlace = true
			case "parallel":
				e.opts.Parallel = true
			default:
				t.Fatalf("%s: unknown flag %q in %q", path, flag, sc.Text())
			}
			e.flags += "/" + flag
		}
		out = append(out, e)
	}
	return out
}

// validatePair validates one generated kernel against the specification.
func validatePair(t *testing.T, name string, out *Result, impl string, model encode.Model) *validate.Report {
	t.Helper()
	prog := out.Kernel(impl).Text
	rep, err := validate.Validate(context.Background(),
		&syntax.Source{Name: name + ".sare", Text: out.Spec},
		&syntax.Source{Name: name + "." + impl + ".sched", Text: prog},
		validate.Options{ValueModel: model, Jobs: jobs(model)})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// slowIEEE also validates the padded kernels in the IEEE model, which
// takes Z3 several minutes of bit-blasting: about four of CPU time on the
// padded kernel of padding_infinity.rink. The interpreter shows the same
// failure at once (TestPaddedInfinity).
var slowIEEE = flag.Bool("rink.ieee", false, "also validate the padded kernels in the IEEE model (several minutes)")

// jobs is how many conditions a validation discharges in parallel: two
// for the bit-blasted IEEE model, whose queries take longest (a minute on
// the padded kernel of padding_infinity.rink), one otherwise, the
// subtests running in parallel already.
func jobs(model encode.Model) int {
	if model == encode.IEEE {
		return 2
	}
	return 1
}

// TestExamples validates every example's kernels and checks the verdicts
// of its .expected file; an invalid verdict's counterexample must be
// replayed by the interpreter. With -short, only the reference kernels
// and the naive in-place ones are validated (the padded kernels take a
// few seconds each); the padded kernels in the IEEE model only with
// -rink.ieee.
func TestExamples(t *testing.T) {
	for _, path := range examples(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".rink")
		for _, e := range readExpected(t, strings.TrimSuffix(path, ".rink")+".expected") {
			label := name + "/" + e.impl + "/" + e.model + e.flags
			t.Run(label, func(t *testing.T) {
				if testing.Short() && e.impl == "padded" && !e.opts.InPlace {
					t.Skip("padded kernel: skipped in -short mode")
				}
				if e.impl == "padded" && e.model == "ieee" && !*slowIEEE {
					t.Skip("padded kernel in the IEEE model: run with -rink.ieee")
				}
				t.Parallel()
				model, err := encode.ParseModel(e.model)
				if err != nil {
					t.Fatal(err)
				}
				_, _, out := load(t, path, e.opts)
				rep := validatePair(t, name, out, e.impl, model)
				if got := strings.ToUpper(string(rep.Verdict)); got != e.verdict {
					var b strings.Builder
					_ = rep.WriteText(&b, false)
					t.Fatalf("verdict %s, want %s\n%s", got, e.verdict, b.String())
				}
				if rep.Verdict == validate.Invalid && (rep.Counterexample == nil || !rep.Counterexample.Reproduced) {
					t.Errorf("the counterexample was not replayed")
				}
			})
		}
	}
}
