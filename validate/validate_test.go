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
	if strings.Join(phases, " ") != "parse symbolic solve confirm done" {
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
