package halide

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
	"github.com/augur-verify/augur/value"
)

// bugsFile is bugs/bugs.json: Halide's known bugs reproduced on stock
// Halide 14, each with its correct neighbour.
type bugsFile struct {
	Target string    `json:"target"`
	Bugs   []bugCase `json:"bugs"`
}

// bugCase is one case of bugs.json. Before is the verdict expected
// before storage flattening of a case translated at Stage final (""
// when not checked): "valid" for a bug of a pass after flattening, whose
// statement is still right there.
type bugCase struct {
	Name      string         `json:"name"`
	File      string         `json:"file"`
	Generator string         `json:"generator"`
	Issue     int            `json:"issue"`
	Title     string         `json:"title"`
	URL       string         `json:"url"`
	Params    map[string]any `json:"params"`
	Stage     Stage          `json:"stage"`
	Verdict   string         `json:"verdict"`
	Before    string         `json:"before_flattening"`
	Kernel    []string       `json:"kernel"`
	Reason    string         `json:"reason"`
	JIT       struct {
		Sizes map[string][]int `json:"sizes"`
		Wrong string           `json:"wrong"`
	} `json:"jit"`
}

func loadBugs(t *testing.T) bugsFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("bugs", "bugs.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f bugsFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// halideWrong compares the output cells Halide's JIT computed in the
// sample with the specification's values on the sample's inputs, without
// running the kernel, and describes the first that differs ("" when all
// agree).
func halideWrong(ctx context.Context, s *Sample, specText string) (string, error) {
	spec, errs := sare.Parse(&syntax.Source{Name: "spec.sare", Text: specText})
	if len(errs) > 0 {
		return "", errs
	}
	info, errs := sare.Check(spec)
	if len(errs) > 0 {
		return "", errs
	}
	inputs := sare.InputFunc(func(t *sare.Tensor, idx []int64) (value.Value, error) {
		text, ok := s.Inputs[key(t.Name.Name, idx)]
		if !ok {
			return value.Value{}, fmt.Errorf("the sample has no %s", expr.FormatIndex(t.Name.Name, idx, '(', ')'))
		}
		return value.Parse(t.Type, text)
	})
	ev, err := sare.NewEvaluator(spec, info, s.Params, inputs)
	if err != nil {
		return "", err
	}
	for _, c := range s.Outputs {
		t := spec.Tensor(c.Tensor)
		if t == nil {
			return "", fmt.Errorf("the sample's output %s is not a tensor of the specification", c.Tensor)
		}
		got, err := value.Parse(t.Type, c.Value)
		if err != nil {
			return "", err
		}
		want, err := ev.Eval(ctx, c.Tensor, c.Index)
		if err != nil {
			return "", err
		}
		if !got.Equal(want) {
			return fmt.Sprintf("%s = %s where %s is right", expr.FormatIndex(c.Tensor, c.Index, '(', ')'), got, want), nil
		}
	}
	return "", nil
}

// TestKnownBugs runs the known-bug suite of bugs/bugs.json: every
// generator reproducing a Halide bug is INVALID, with a counterexample
// that the reference interpreter replays, and Halide 14's JIT computes a
// wrong output with it; every correct neighbour is VALID, and Halide's JIT
// agrees with the specification and the kernel on it. The kernel contains
// the annotations bugs.json lists (issue 7909's: the coordinates sliding
// window renamed, and those of loops of one iteration in a folded
// dimension). A bug bugs.json
// lists as UNKNOWN (Augur does not refute it yet) must stay UNKNOWN, never
// VALID. A case with a stage is translated there (--stage final: the bugs
// of the lowering passes after storage flattening), and also before
// flattening where bugs.json gives its verdict there (VALID for a bug
// that only the final stage shows); the others before flattening.
func TestKnownBugs(t *testing.T) {
	t.Parallel()
	tc := toolchain(t)
	f := loadBugs(t)
	for _, c := range f.Bugs {
		t.Run(c.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			d := buildDriver(t, tc, filepath.Join("bugs", c.File))
			o := Options{Generator: c.Generator, Params: paramStrings(c.Params), Target: f.Target, Stage: c.Stage}
			pair, err := Translate(ctx, d, o)
			if err != nil {
				t.Fatalf("issue %d: %v", c.Issue, err)
			}
			for _, want := range c.Kernel {
				if prog := pair.Kernel(frontend.Prog).Text; !strings.Contains(prog, want) {
					t.Errorf("issue %d: the kernel lacks %q:\n%s", c.Issue, want, prog)
				}
			}
			rep, err := validatePair(ctx, pair, encode.Real, 1)
			if err != nil {
				t.Fatal(err)
			}
			s, err := JIT(ctx, d, o, c.JIT.Sizes, 1)
			if err != nil {
				t.Fatal(err)
			}
			wrong, err := halideWrong(ctx, s, pair.Spec)
			if err != nil {
				t.Fatal(err)
			}
			if c.Before != "" {
				checkBeforeFlattening(t, ctx, c, d, o)
			}
			switch c.Verdict {
			case "invalid":
				checkBugInvalid(t, c, rep, wrong)
				checkBugConfirmed(t, ctx, c, d, o, pair, rep)
			case "valid":
				if rep.Verdict != validate.Valid {
					t.Errorf("issue %d, neighbour: %s (%s), want VALID", c.Issue, rep.Verdict, rep.Reason)
				}
				if wrong != "" {
					t.Errorf("issue %d, neighbour: Halide's JIT computes %s", c.Issue, wrong)
				}
				if _, err := s.Check(ctx, pair.Spec, pair.Kernel(frontend.Prog).Text, 0); err != nil {
					t.Errorf("issue %d, neighbour: %v", c.Issue, err)
				}
			case "unknown":
				// A bug Augur does not refute yet (bugs.json's reason says
				// why): never VALID, and Halide's output is still wrong.
				if rep.Verdict != validate.Unknown {
					t.Errorf("issue %d: %s (%s), bugs.json says UNKNOWN: update it", c.Issue, rep.Verdict, rep.Reason)
				}
				if c.JIT.Wrong != "" && wrong == "" {
					t.Errorf("issue %d: Halide's JIT computes every cell right at %v (bugs.json: %s)", c.Issue, c.JIT.Sizes, c.JIT.Wrong)
				}
				t.Logf("issue %d: UNKNOWN (%s); Halide's JIT: %s", c.Issue, rep.Reason, wrong)
			default:
				t.Fatalf("bugs.json: %s has the verdict %q", c.Name, c.Verdict)
			}
		})
	}
}

// checkBeforeFlattening translates a --stage final case before storage
// flattening and checks its verdict there (bugs.json's
// before_flattening).
func checkBeforeFlattening(t *testing.T, ctx context.Context, c bugCase, d string, o Options) {
	t.Helper()
	o.Stage = StageBeforeFlattening
	pair, err := Translate(ctx, d, o)
	if err != nil {
		t.Fatalf("issue %d, before flattening: %v", c.Issue, err)
	}
	rep, err := validatePair(ctx, pair, encode.Real, 1)
	if err != nil {
		t.Fatal(err)
	}
	if string(rep.Verdict) != c.Before {
		t.Errorf("issue %d, before flattening: %s (%s), bugs.json says %s", c.Issue, rep.Verdict, rep.Reason, c.Before)
	}
}

// checkBugInvalid checks the report and the JIT sample of a generator
// reproducing a bug.
func checkBugInvalid(t *testing.T, c bugCase, rep *validate.Report, wrong string) {
	t.Helper()
	if rep.Verdict != validate.Invalid {
		t.Errorf("issue %d: %s (%s), want INVALID", c.Issue, rep.Verdict, rep.Reason)
		return
	}
	if rep.Reason != c.Reason {
		t.Errorf("issue %d: INVALID (%s), want INVALID (%s)", c.Issue, rep.Reason, c.Reason)
	}
	if rep.Counterexample == nil || !rep.Counterexample.Reproduced {
		t.Errorf("issue %d: the counterexample does not replay: %+v", c.Issue, rep.Counterexample)
	}
	if c.JIT.Wrong != "" && wrong == "" {
		t.Errorf("issue %d: Halide's JIT computes every cell right at %v (bugs.json: %s)", c.Issue, c.JIT.Sizes, c.JIT.Wrong)
	}
	t.Logf("issue %d: INVALID (%s); Halide's JIT: %s", c.Issue, rep.Reason, wrong)
}

// checkBugConfirmed runs the counterexample of an INVALID bug on Halide's
// compiled code (Confirm, docs/halide.md, "Confirming an INVALID on
// Halide's code"): Halide's own output must go wrong there.
func checkBugConfirmed(t *testing.T, ctx context.Context, c bugCase, d string, o Options, pair *frontend.Pair, rep *validate.Report) {
	t.Helper()
	cx := rep.Counterexample
	if cx == nil {
		return
	}
	w := Witness{Params: map[string]int64{}, Seed: cx.Seed, Kind: cx.Kind}
	for _, p := range cx.Params {
		w.Params[p.Name] = p.Value
	}
	for _, x := range cx.Inputs {
		w.Inputs = append(w.Inputs, Cell{Tensor: x.Tensor, Index: x.Index, Value: x.Value})
	}
	got, err := Confirm(ctx, d, o, pair.Spec, pair.Kernel(frontend.Prog).Text, w, 1e-5)
	if err != nil {
		t.Fatalf("issue %d: confirming on Halide's code: %v", c.Issue, err)
	}
	if got.Outcome != Confirmed {
		t.Errorf("issue %d: not reproduced by Halide's code at the counterexample: %s", c.Issue, got.Reason)
		return
	}
	t.Logf("issue %d: confirmed in Halide's code, %d of %d cells differ", c.Issue, got.Differing, got.Compared)
}
