package rink

import (
	"os"
	"strings"
	"testing"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// TestDiagnostics checks that parse and type errors are reported at
// their spot with their code, and come with a caret line.
func TestDiagnostics(t *testing.T) {
	for _, tc := range []struct {
		name, src, at string
		code          syntax.Code
	}{
		{"missing bracket", "var A : [3 4\nA = A\n", "2:1", syntax.CodeSyntax},
		{"operand at a statement", "var A : [3]\nA = A +\nA = A\n", "3:1", syntax.CodeSyntax},
		{"missing operand", "var A : [3]\nA = A +\n", "3:1", syntax.CodeSyntax},
		{"bad pair", "var A : [3 3]\nA = A ^ [1]\n", "2:11", syntax.CodeSyntax},
		{"character", "var A : [3]\nA = A % A\n", "2:7", syntax.CodeSyntax},
		{"nesting", "var A : [3]\nA = " + strings.Repeat("(", maxDepth+1) + "A" + strings.Repeat(")", maxDepth+1) + "\n", "", syntax.CodeSyntax},
		{"late declaration", "var A : [3]\nA = A\nvar B : [3]\n", "3:1", syntax.CodeSyntax},
		{"zero extent", "var A : [0]\n", "1:10", syntax.CodeRange},
		{"large extent", "var A : [99999999999999999999]\n", "1:10", syntax.CodeRange},
		{"large dimension", "var A : [3 3]\nA = A ^ [1 99999999999]\n", "2:12", syntax.CodeRange},
		{"redeclared", "var A : [3]\nvar A : [4]\n", "2:5", syntax.CodeRedeclared},
		{"undeclared target", "var A : [3]\nB = A\n", "2:1", syntax.CodeUndeclared},
		{"undeclared operand", "var A : [3]\nA = A + C\n", "2:9", syntax.CodeUndeclared},
		{"assignment type", "var A : [3]\nvar B : [3 3]\nB = A\n", "3:5", syntax.CodeType},
		{"elementwise", "var A : [3]\nvar B : [4]\nA = A + B\n", "3:7", syntax.CodeType},
		{"scalar right", "var A : [3]\nvar s : []\nA = A * s\n", "3:7", syntax.CodeType},
		{"scalar dividend", "var A : [3]\nvar s : []\nA = s / A\n", "3:7", syntax.CodeType},
		{"contraction extents", "var A : [3 4]\nvar s : []\ns = A . [1 2]\n", "3:7", syntax.CodeShape},
		{"contraction self", "var A : [3 3]\nvar s : []\ns = A . [2 2]\n", "3:12", syntax.CodeShape},
		{"dimension range", "var A : [3 3]\nA = A ^ [1 3]\n", "2:12", syntax.CodeShape},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Load(&syntax.Source{Name: "t.rink", Text: tc.src})
			el, ok := err.(syntax.ErrorList)
			if !ok || len(el) == 0 {
				t.Fatalf("got %v, want an error list", err)
			}
			e := el[0]
			if e.Code != tc.code || tc.at != "" && e.Pos.String() != tc.at || e.File != "t.rink" {
				t.Errorf("got %s:%s [%s] %s, want code %s at t.rink:%s", e.File, e.Pos, e.Code, e.Msg, tc.code, tc.at)
			}
			if e.Pos.Line <= strings.Count(tc.src, "\n") && !strings.Contains(e.Detail(), "^") {
				t.Errorf("no caret line in\n%s", e.Detail())
			}
		})
	}
}

// TestDiagnosticWording keeps the rendering of one error to the byte:
// file, line and column, the message and the caret under the spot.
func TestDiagnosticWording(t *testing.T) {
	_, _, err := Load(&syntax.Source{Name: "t.rink", Text: "var A : [3 4]\nvar s : []\ns = A . [1 2]\n"})
	el, ok := err.(syntax.ErrorList)
	if !ok || len(el) != 1 {
		t.Fatalf("got %v, want one error", err)
	}
	want := "t.rink:3:7: cannot contract dimensions 1 and 2 of a value of type [3 4]: extents 3 and 4 differ\n" +
		"    s = A . [1 2]\n" +
		"          ^"
	if got := el.Detail(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestParseAssociativity: operators have no precedence and associate to
// the left.
func TestParseAssociativity(t *testing.T) {
	p, errs := Parse(&syntax.Source{Name: "t.rink", Text: "var A : [2]\nA = A + A * A . [1 1] ^ [1 1]\n"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	tr, ok := p.Stmts[0].RHS.(*Transpose)
	if !ok {
		t.Fatalf("outermost %T, want the last operator, ^", p.Stmts[0].RHS)
	}
	c := tr.X.(*Contract)
	mul := c.X.(*Binary)
	if mul.Op != '*' || mul.X.(*Binary).Op != '+' {
		t.Errorf("got %s, want ((A + A) * A) . [1 1] ^ [1 1]", ExprString(p.Stmts[0].RHS))
	}
}

// TestErrorRecovery: the parser reports an error in every statement.
func TestErrorRecovery(t *testing.T) {
	_, errs := Parse(&syntax.Source{Name: "t.rink", Text: "var A : [2]\nA = A +\nA = ) A\nA = A # # A\nA = A\n"})
	if len(errs) != 3 {
		t.Errorf("got %d errors, want 3:\n%s", len(errs), errs.Detail())
	}
}

// FuzzParse: parsing, checking, printing, evaluating and translating never
// panic; a program that parses prints to text that parses back to the
// same text; a program that checks translates to a specification and two
// kernels that Augur's own parsers and checkers accept.
func FuzzParse(f *testing.F) {
	for _, path := range examples(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("var A : [2 2]\nvar s : []\nA = (s * A) / s - A ^ [2 1]\ns = A . [1 2]\n")
	f.Add("var input A : [3]\nvar in : [3]\nin = A # A . [1 2] * in\n")
	f.Fuzz(func(t *testing.T, text string) {
		p, errs := Parse(&syntax.Source{Name: "fuzz.rink", Text: text})
		info, cerrs := Check(p)
		if len(errs) > 0 {
			return
		}
		printed := Print(p)
		q, errs2 := Parse(&syntax.Source{Name: "printed.rink", Text: printed})
		if len(errs2) > 0 {
			t.Fatalf("printed program does not parse: %v\n%s", errs2, printed)
		}
		if again := Print(q); again != printed {
			t.Fatalf("print is not stable:\n%s\nthen\n%s", printed, again)
		}
		if len(cerrs) > 0 {
			return
		}
		_, _ = Eval(p, info, func(string, []int64) Value { return Num(1) }, EvalOptions{VectorLength: 2, MaxCells: 1 << 10})
		out, err := Translate(p, info, Options{})
		if err != nil {
			t.Fatalf("translate: %v", err)
		}
		spec, _, err := sare.Load(&syntax.Source{Name: "spec.sare", Text: out.Spec})
		if err != nil {
			t.Fatalf("generated specification: %v\n%s", err, out.Spec)
		}
		for _, k := range []string{out.Kernel(Ref).Text, out.Kernel(Padded).Text} {
			if _, _, err := sched.Load(&syntax.Source{Name: "prog.sched", Text: k}, spec); err != nil {
				t.Fatalf("generated kernel: %v\n%s", err, k)
			}
		}
	})
}
