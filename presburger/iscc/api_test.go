package iscc

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

func TestParsePrecedence(t *testing.T) {
	cases := map[string]string{
		"A + B * C;":          "((A + B) * C);",
		"A + (B * C);":        "(A + ((B * C)));",
		"dom R . Q;":          "((dom R) . Q);",
		"dom R(S);":           "(dom (R(S)));",
		"lexmin dom R^-1;":    "(lexmin (dom (R^-1)));",
		"R^-1(S)^-1;":         "(((R^-1)(S))^-1);",
		"X := A - B <= C;":    "X := ((A - B) <= C);",
		"is_empty A = B;":     "((is_empty A) = B);",
		"{ [i] : i > 0 }(S);": "({ [i] : i > 0 }(S));",
	}
	for in, want := range cases {
		stmts, errs := Parse(&syntax.Source{Name: "t", Text: in})
		if errs != nil || len(stmts) != 1 {
			t.Errorf("%s: %v", in, errs)
			continue
		}
		if got := bracket(stmts[0]); got != want {
			t.Errorf("%s parsed as %s, want %s", in, got, want)
		}
	}
}

// bracket prints s with every operator application in parentheses.
func bracket(s *Stmt) string {
	var f func(Expr) string
	f = func(x Expr) string {
		switch x := x.(type) {
		case *Paren:
			return "(" + f(x.X) + ")"
		case *Unary:
			return "(" + x.Op + " " + f(x.X) + ")"
		case *Binary:
			return "(" + f(x.X) + " " + x.Op + " " + f(x.Y) + ")"
		case *Inverse:
			return "(" + f(x.X) + "^-1)"
		case *Apply:
			return "(" + f(x.F) + "(" + f(x.Arg) + ")" + ")"
		}
		return x.String()
	}
	if s.Name != "" {
		return s.Name + " := " + f(s.X) + ";"
	}
	return f(s.X) + ";"
}

func TestParseErrorsResume(t *testing.T) {
	src := &syntax.Source{Name: "s.iscc", Text: "A := ((;\nB := (A;\nC := A B;\nD := dom A;\nE := { [i] } # c\n;"}
	stmts, errs := Parse(src)
	var names []string
	for _, s := range stmts {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, " "); got != "D E" {
		t.Errorf("parsed statements %q, want \"D E\"", got)
	}
	want := []string{
		`s.iscc:1:8: expected a set, a relation or a name, found ";"`,
		`s.iscc:2:8: expected ")", found ";"`,
		`s.iscc:3:8: expected ";", found name "B"`,
	}
	if len(errs) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%s", len(errs), len(want), errs.Detail())
	}
	for i, e := range errs {
		if e.Error() != want[i] {
			t.Errorf("error %d: %s, want %s", i, e, want[i])
		}
	}
}

func exec(t *testing.T, c *Calculator, ctx context.Context, text string) (string, error) {
	t.Helper()
	src := &syntax.Source{Name: "t", Text: text}
	stmts, errs := Parse(src)
	if errs != nil {
		t.Fatalf("%s: %v", text, errs)
	}
	var b strings.Builder
	for _, s := range stmts {
		if err := c.Exec(ctx, src, s, &b); err != nil {
			return b.String(), err
		}
	}
	return b.String(), nil
}

func TestCalculatorAPI(t *testing.T) {
	c := New()
	ctx := context.Background()
	out, err := exec(t, c, ctx, "R := { A[i] -> B[i] : 0 <= i < 4 }; T := dom R <= { A[i] }; lexmax dom R;")
	if err != nil {
		t.Fatal(err)
	}
	if out != "{ A[i] : i = 3 }\n" {
		t.Errorf("output %q", out)
	}
	r, ok := c.Lookup("R")
	if !ok || r.Kind() != Relation || len(r.Union().Maps()) != 1 {
		t.Errorf("R = %v (%v)", r, r.Kind())
	}
	if v, _ := c.Lookup("T"); v.Kind() != Bool || !v.Bool() || v.String() != "True" {
		t.Errorf("T = %v", v)
	}
	if _, ok := c.Lookup("U"); ok {
		t.Error("U is bound")
	}
	// A failed assignment keeps the old binding.
	if _, err := exec(t, c, ctx, "R := dom dom R;"); err == nil {
		t.Fatal("dom of a set succeeded")
	}
	if v, _ := c.Lookup("R"); v.Kind() != Relation {
		t.Errorf("R rebound to %v", v)
	}
}

func TestBudget(t *testing.T) {
	ctx := presburger.WithBudget(context.Background(), presburger.Budget{MaxSteps: 3})
	_, err := exec(t, New(), ctx, "{ [i, j] : 0 <= i < 100 and 0 <= j < 100 and 3i + 5j = 17 } <= { [i, j] : i > 0 };")
	var ie *Error
	if !errors.As(err, &ie) || !errors.Is(err, presburger.ErrBudget) {
		t.Fatalf("got %v, want an *Error wrapping ErrBudget", err)
	}
	if !strings.HasPrefix(ie.Error(), "t:1:61: <=: ") {
		t.Errorf("error %q", ie.Error())
	}
}

func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut strings.Builder
	err := Run(ctx, "c", strings.NewReader("{ [i] };\n{ [i] } * { [i] };\n"), &out, &errOut)
	var fe *FailedError
	if !errors.As(err, &fe) || fe.Failed != 2 || fe.Total != 2 || !errors.Is(err, ErrFailed) {
		t.Fatalf("Run: %v", err)
	}
	if out.String() != "" || !strings.Contains(errOut.String(), "c:2:9: interrupted: context canceled") {
		t.Errorf("out %q, errors %q", out.String(), errOut.String())
	}
}

// TestInteractive checks that a statement is executed as soon as its ";"
// has been read, before the rest of the input exists.
func TestInteractive(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), "<stdin>", inR, outW, outW)
		outW.Close()
	}()
	lines := bufio.NewReader(outR)
	ask := func(stmt, want string) {
		t.Helper()
		if _, err := io.WriteString(inW, stmt); err != nil {
			t.Fatal(err)
		}
		if want == "" {
			return
		}
		got := make(chan string, 1)
		go func() {
			l, _ := lines.ReadString('\n')
			got <- l
		}()
		select {
		case l := <-got:
			if l != want {
				t.Errorf("%s printed %q, want %q", stmt, l, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer to %s", stmt)
		}
	}
	ask("S := { [i] : 0 <= i <= 5 };\n", "")
	ask("lexmax S;\n", "{ [i] : i = 5 }\n")
	ask("is_empty S; # trailing\n", "False\n")
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestRoundTrip(t *testing.T) {
	src := &syntax.Source{Name: "r", Text: "X := dom (R . Q)^-1(lexmin { [i] : i >\n 0 } + S) * [N] -> { : N > 0 };\n"}
	stmts, errs := Parse(src)
	if errs != nil {
		t.Fatal(errs)
	}
	again, errs := Parse(&syntax.Source{Text: stmts[0].String()})
	if errs != nil || len(again) != 1 || again[0].String() != stmts[0].String() {
		t.Fatalf("%s reparsed as %v (%v)", stmts[0], again, errs)
	}
}
