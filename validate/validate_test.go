package validate

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

func source(t *testing.T, path string) *syntax.Source {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return &syntax.Source{Name: path, Text: string(b)}
}

func benchSource(b *testing.B, path string) *syntax.Source {
	b.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return &syntax.Source{Name: path, Text: string(data)}
}

func validateFiles(t *testing.T, specPath, progPath string, opts Options) *Report {
	t.Helper()
	rep, err := Validate(context.Background(), source(t, specPath), source(t, progPath), opts)
	if err != nil {
		t.Fatalf("%s: %v", progPath, err)
	}
	return rep
}

// TestExamples validates every example kernel: the correct ones are
// valid, each broken one is invalid with the reason of its bug and a
// counterexample that the reference interpreter reproduces.
func TestExamples(t *testing.T) {
	want := map[string]string{
		"blur":                  "valid",
		"matmul":                "valid",
		"matmul_tiled":          "valid",
		"outer_split":           "valid",
		"outer_split_par":       "valid",
		"broken_wrong_row":      "annotation mismatch",
		"broken_par_reduction":  "read-write race",
		"broken_tail_dropped":   "output not written",
		"broken_unshifted_tail": "out-of-bounds write",
	}
	specs, _ := filepath.Glob(filepath.Join("..", "examples", "*", "*.sare"))
	seen := 0
	for _, spec := range specs {
		progs, _ := filepath.Glob(filepath.Join(filepath.Dir(spec), "*.sched"))
		for _, prog := range progs {
			name := strings.TrimSuffix(filepath.Base(prog), ".sched")
			exp, ok := want[name]
			if !ok {
				t.Errorf("%s: no expected verdict", prog)
				continue
			}
			seen++
			t.Run(name, func(t *testing.T) {
				rep := validateFiles(t, spec, prog, Options{})
				var buf bytes.Buffer
				rep.WriteText(&buf, true)
				t.Log("\n" + buf.String())
				if exp == "valid" {
					if rep.Verdict != Valid {
						t.Fatalf("verdict %s (%s), want valid", rep.Verdict, rep.Reason)
					}
					return
				}
				if rep.Verdict != Invalid || rep.Reason != exp {
					t.Fatalf("verdict %s (%s), want invalid (%s)", rep.Verdict, rep.Reason, exp)
				}
				cx := rep.Counterexample
				if cx == nil || len(cx.Params) == 0 {
					t.Fatalf("no counterexample")
				}
				if !cx.Reproduced {
					t.Errorf("counterexample not reproduced by the interpreter: %s", cx.Replay)
				}
			})
		}
	}
	if seen != len(want) {
		t.Errorf("validated %d examples, want %d", seen, len(want))
	}
}

// TestMalformed: malformed input gets the error verdict with positions.
func TestMalformed(t *testing.T) {
	spec := &syntax.Source{Name: "bad.sare", Text: "param N\ntensor T(i) : f32\nT(i) = 1 + * 2\n"}
	prog := &syntax.Source{Name: "p.sched", Text: "kernel k(N)\n{\n}\n"}
	rep, err := Validate(context.Background(), spec, prog, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != Error || rep.ExitCode() != 3 {
		t.Fatalf("verdict %s, want error", rep.Verdict)
	}
	if len(rep.Errors) == 0 || rep.Errors[0].File != "bad.sare" || rep.Errors[0].Line == 0 || !strings.Contains(rep.Errors[0].Text, "^") {
		t.Fatalf("errors %+v, want positioned errors in bad.sare with a caret", rep.Errors)
	}
}

// TestProgress checks the progress events: the phases in order, and the
// value conditions counted up to their total.
func TestProgress(t *testing.T) {
	var events []Event
	rep := validateFiles(t, "../examples/matmul/matmul.sare", "../examples/matmul/matmul.sched",
		Options{Jobs: 2, Progress: func(e Event) { events = append(events, e) }})
	if rep.Verdict != Valid {
		t.Fatalf("verdict %s", rep.Verdict)
	}
	var phases []string
	last, total := -1, -1
	for _, e := range events {
		if len(phases) == 0 || phases[len(phases)-1] != e.Phase {
			phases = append(phases, e.Phase)
		}
		if e.Phase == "solve" {
			if e.Done < last {
				t.Errorf("solve progress went back from %d to %d", last, e.Done)
			}
			last, total = e.Done, e.Total
		}
	}
	if strings.Join(phases, " ") != "parse test symbolic solve confirm done" {
		t.Errorf("phases %v", phases)
	}
	if total <= 0 || last != total {
		t.Errorf("solve ended at %d of %d", last, total)
	}
}

// TestCancel: a cancelled context ends the validation with its error.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Validate(ctx, source(t, "../examples/matmul/matmul.sare"), source(t, "../examples/matmul/matmul.sched"), Options{})
	if err == nil {
		t.Fatal("no error from a cancelled validation")
	}
}

// TestRefuteEarly: once a failure found over Presburger sets is
// confirmed, the value conditions after it are not discharged (the
// verdict and counterexample stay those of the full run), unless
// AllConditions asks for every one; those before it are.
func TestRefuteEarly(t *testing.T) {
	spec := `param N
assume N >= 1
input A(i) : f32
tensor B(i) : f32
B(i) = A(i) + A(i)
tensor C(i) : f32
C(i) = A(i) * A(i)
output B
output C
`
	// The first store reads t[N], never written; the second claims
	// A(i) * A(i) but computes A(i) + A(i).
	prog := `kernel k(N)
assume N >= 1
in  a[i] : f32[N] = A(i)
out b[i] : f32[N] = B(i)
out c[i] : f32[N] = C(i)
{
  alloc t : f32[N + 1] {
    for i < N {
      t[i] {A(i)} := a[i]
    }
    for i < N {
      b[i] {B(i)} := t[i] + t[i + 1]
    }
  }
  for i < N {
    c[i] {C(i)} := a[i] + a[i]
  }
}
`
	run := func(all bool) *Report {
		rep, err := Validate(context.Background(), &syntax.Source{Name: "e.sare", Text: spec}, &syntax.Source{Name: "e.sched", Text: prog},
			// The proof's own order is under test, not testing first
			// (which finds the wrong values of b at once).
			Options{Jobs: 1, AllConditions: all, NoQuickTest: true})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	status := func(rep *Report, kind string, line int) ConditionResult {
		t.Helper()
		for _, c := range rep.Conditions {
			if c.Kind.String() == kind && c.Line == line {
				return c
			}
		}
		t.Fatalf("no %s condition at line %d:\n%s", kind, line, reportText(rep))
		return ConditionResult{}
	}
	early, full := run(false), run(true)
	for _, rep := range []*Report{early, full} {
		if rep.Verdict != Invalid || rep.Reason != "undefined read" {
			t.Fatalf("got %s %s, want invalid undefined read\n%s", rep.Verdict, rep.Reason, reportText(rep))
		}
		if got := status(rep, "annotation mismatch", 9); got.Status != "proved" {
			t.Errorf("the value condition before the failure: %s (%s), want proved", got.Status, got.Reason)
		}
	}
	if got := status(early, "annotation mismatch", 16); got.Status != "undecided" || !strings.Contains(got.Reason, "not discharged: C") {
		t.Errorf("by default the value condition after the failure is %s (%s), want undecided, not discharged", got.Status, got.Reason)
	}
	if got := status(full, "annotation mismatch", 16); got.Status != "failed" {
		t.Errorf("with AllConditions the value condition after the failure is %s (%s), want failed", got.Status, got.Reason)
	}
	if early.Counterexample.Condition != full.Counterexample.Condition {
		t.Errorf("counterexample of C%d by default, C%d with every condition", early.Counterexample.Condition, full.Counterexample.Condition)
	}
}

func reportText(rep *Report) string {
	var b strings.Builder
	rep.WriteText(&b, true)
	return b.String()
}
