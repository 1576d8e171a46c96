package atl

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// expectation is one "# expect [flags]: VERDICT [reason]" line of an
// example: compiled and validated with flags, the program must get the
// verdict ("rejected": the front end refuses it).
type expectation struct {
	flags   []string
	verdict string
	reason  string
}

func expectations(t *testing.T, text string) []expectation {
	t.Helper()
	var out []expectation
	for _, line := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(line, "# expect")
		if !ok {
			continue
		}
		head, verdict, ok := strings.Cut(rest, ":")
		if !ok {
			t.Fatalf("malformed expectation %q", line)
		}
		fields := strings.Fields(verdict)
		e := expectation{flags: strings.Fields(head), verdict: fields[0], reason: strings.Join(fields[1:], " ")}
		out = append(out, e)
	}
	return out
}

// optionsOf turns an expectation's flags into compile options and a
// value model.
func optionsOf(t *testing.T, flags []string) (Options, encode.Model) {
	var o Options
	model := encode.Real
	for i := 0; i < len(flags); i++ {
		switch flags[i] {
		case "--no-pad-check":
			o.NoPadCheck = true
		case "--no-lane-check":
			o.NoLaneCheck = true
		case "--no-lookback-check":
			o.NoLookbackCheck = true
		case "--printed-flatten":
			o.PrintedFlatten = true
		case "--flat":
			o.Flat = true
		case "--no-zero-fill":
			o.NoZeroFill = true
		case "--value-model":
			i++
			m, err := encode.ParseModel(flags[i])
			if err != nil {
				t.Fatal(err)
			}
			model = m
		default:
			t.Fatalf("unknown flag %s", flags[i])
		}
	}
	return o, model
}

// TestExamples compiles every program of examples/atl with each of its
// expectations and validates the pair: the verdicts the files state.
func TestExamples(t *testing.T) {
	files, err := filepath.Glob("../../examples/atl/*.atl")
	if err != nil || len(files) < 10 {
		t.Fatalf("found %d examples (%v)", len(files), err)
	}
	corpus, _ := filepath.Glob("testdata/corpus/*.atl")
	files = append(files, corpus...)
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		exps := expectations(t, string(data))
		slow := strings.Contains(string(data), "\n# slow:")
		if len(exps) == 0 {
			t.Errorf("%s states no expected verdict", file)
		}
		for _, e := range exps {
			name := strings.TrimSuffix(filepath.Base(file), ".atl") + strings.Join(e.flags, "")
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				if slow && testing.Short() {
					t.Skip("slow validation, skipped by -short")
				}
				opts, model := optionsOf(t, e.flags)
				src := &syntax.Source{Name: file, Text: string(data)}
				res, err := Compile(context.Background(), src, opts)
				if e.verdict == "rejected" {
					if _, ok := err.(syntax.ErrorList); !ok {
						t.Fatalf("compiled (err %v), want rejected", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				rep, err := validate.Validate(context.Background(),
					&syntax.Source{Name: "spec.sare", Text: res.Spec},
					&syntax.Source{Name: "prog.sched", Text: res.Kernels[0].Text},
					validate.Options{ValueModel: model, Jobs: 1})
				if err != nil {
					t.Fatal(err)
				}
				if got := strings.ToUpper(string(rep.Verdict)); got != e.verdict {
					var open []string
					for _, c := range rep.Conditions {
						if c.Status != "proved" {
							open = append(open, fmt.Sprintf("C%d %s at %d:%d: %s: %s", c.ID, c.Kind, c.Line, c.Col, c.Status, c.Reason))
						}
					}
					t.Fatalf("verdict %s (%s), want %s\n%s\n%s\n%s", got, rep.Reason, e.verdict, strings.Join(open, "\n"), res.Spec, res.Kernels[0].Text)
				}
				if rep.Verdict == validate.Invalid {
					if rep.Counterexample == nil || !rep.Counterexample.Reproduced {
						t.Errorf("invalid without a counterexample that augur run replays")
					}
					if e.reason != "" && rep.Reason != e.reason {
						t.Errorf("reason %q, want %q", rep.Reason, e.reason)
					}
				}
			})
		}
	}
}
