package syntax

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestExprRoundTrip(t *testing.T) {
	cases := []struct{ in, want string }{
		{"a + b * c", "a + b * c"},
		{"(a + b) * c", "(a + b) * c"},
		{"a - (b - c)", "a - (b - c)"},
		{"(a - b) - c", "a - b - c"},
		{"0 <= k < P", "0 <= k < P"},
		{"0 <= k and k < P", "0 <= k and k < P"},
		{"not a < b", "not a < b"},
		{"!(a && b) || c", "not (a and b) or c"},
		{"-2 * x", "-2 * x"},
		{"-(2 * x)", "-(2 * x)"},
		{"(a < b) == c", "(a < b) == c"},
		{"a == (b < c)", "a == (b < c)"},
		{"select(i % 4 == 0, A(i / 4), f32(i))", "select(i % 4 == 0, A(i / 4), f32(i))"},
		{"c[i, j] + a[i, k] * b[k, j]", "c[i, j] + a[i, k] * b[k, j]"},
		{"x << 2 & 0xFF | ~y ^ 1", "x << 2 & 0xFF | ~y ^ 1"},
		{"1e-3 + .5 + 1.", "1e-3 + .5 + 1."},
		{"T()", "T()"},
		{"a[]", "a[]"},
		{"min(a,\n b)", "min(a, b)"},
	}
	for _, c := range cases {
		x, err := ParseExprString(c.in)
		if err != nil {
			t.Errorf("parse %q: %v", c.in, err)
			continue
		}
		got := ExprString(x)
		if got != c.want {
			t.Errorf("print(parse(%q)) = %q, want %q", c.in, got, c.want)
		}
		y, err := ParseExprString(got)
		if err != nil {
			t.Errorf("reparse %q: %v", got, err)
			continue
		}
		if !Equal(x, y) {
			t.Errorf("parse(print(x)) != x for %q", c.in)
		}
		data, err := MarshalExpr(x)
		if err != nil {
			t.Fatal(err)
		}
		z, err := UnmarshalExpr(data)
		if err != nil {
			t.Errorf("json round trip of %q: %v (%s)", c.in, err, data)
			continue
		}
		if !Equal(x, z) {
			t.Errorf("json round trip of %q changed it: %s", c.in, ExprString(z))
		}
	}
}

func TestPrecedenceShape(t *testing.T) {
	x, err := ParseExprString("a or b and not c == d + e * -f")
	if err != nil {
		t.Fatal(err)
	}
	or, ok := x.(*Binary)
	if !ok || or.Op != OpOr {
		t.Fatalf("top is %T %v, want or", x, x)
	}
	and, ok := or.Y.(*Binary)
	if !ok || and.Op != OpAnd {
		t.Fatalf("right of or is not and: %s", ExprString(or.Y))
	}
	not, ok := and.Y.(*Unary)
	if !ok || not.Op != OpNot {
		t.Fatalf("right of and is not not: %s", ExprString(and.Y))
	}
	eq, ok := not.X.(*Binary)
	if !ok || eq.Op != OpEq {
		t.Fatalf("operand of not is not ==: %s", ExprString(not.X))
	}
}

func TestLexNewlines(t *testing.T) {
	src := &Source{Name: "t", Text: "a = b +\n c\n\n(d,\n e)\nf # comment\n"}
	var r Reporter
	var kinds []string
	for _, tok := range Lex(src, &r) {
		kinds = append(kinds, tok.Kind.String())
	}
	got := strings.Join(kinds, " ")
	want := "name = name + name newline ( name , name ) newline name newline end of file"
	if got != want {
		t.Errorf("tokens:\n got %s\nwant %s", got, want)
	}
	if len(r.Errs) != 0 {
		t.Errorf("unexpected errors: %v", r.Errs)
	}
}

func TestRangeNotFloat(t *testing.T) {
	var r Reporter
	toks := Lex(&Source{Text: "0..N"}, &r)
	if toks[0].Kind != Int || toks[1].Kind != DotDot || toks[2].Kind != Name {
		t.Errorf("0..N lexed as %v %v %v", toks[0].Kind, toks[1].Kind, toks[2].Kind)
	}
}

func TestErrorCaret(t *testing.T) {
	p := NewParser(&Source{Name: "k.sched", Text: "x +\n\ty * $"})
	p.ParseExpr()
	if len(p.Errs) == 0 {
		t.Fatal("no error for '$'")
	}
	got := p.Errs[0].Detail()
	want := "k.sched:2:6: unexpected character \"$\"\n    \ty * $\n    \t    ^"
	if got != want {
		t.Errorf("detail:\n%s\nwant:\n%s", got, want)
	}
	// Report names the code after the message, the caret still under
	// the line it points into.
	got = ErrorList(p.Errs[:1]).Report()
	want = "k.sched:2:6: unexpected character \"$\" [syntax]\n    \ty * $\n    \t    ^"
	if got != want {
		t.Errorf("report:\n%s\nwant:\n%s", got, want)
	}
}

// An error without a code reports as its detail: no empty brackets.
func TestReportWithoutCode(t *testing.T) {
	r := Reporter{Src: &Source{Name: "f", Text: "abc"}}
	r.Errorf(Pos{Line: 1, Col: 2}, "odd")
	if got, want := r.Errs.Report(), "f:1:2: odd\n    abc\n     ^"; got != want {
		t.Errorf("report %q, want %q", got, want)
	}
	if got := r.Errs.Detail(); got != r.Errs.Report() {
		t.Errorf("detail %q differs from the report %q", got, r.Errs.Report())
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]string{
		"a +":      "1:4: expected an expression, found end of file",
		"f(a, b":   "1:7: expected ')', found end of file",
		"2i":       "1:1: malformed number \"2i\" (write a multiplication as 2 * i)",
		"a and or": "1:7: expected an expression, found 'or'",
	}
	for in, want := range cases {
		_, err := ParseExprString(in)
		if err == nil {
			t.Errorf("%q: no error", in)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %q does not contain %q", in, err, want)
		}
	}
}

func TestDeepNesting(t *testing.T) {
	in := strings.Repeat("(", 10000) + "x" + strings.Repeat(")", 10000)
	if _, err := ParseExprString(in); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("deep nesting: %v", err)
	}
}

func TestJSONRejects(t *testing.T) {
	for _, in := range []string{
		`{"kind":"ident","name":"and"}`,
		`{"kind":"int","value":"1.5"}`,
		`{"kind":"binary","op":"neg","x":{"kind":"ident","name":"a"},"y":{"kind":"ident","name":"b"}}`,
		`{"kind":"chain","ops":["lt"],"args":[]}`,
		`{"kind":"what"}`,
	} {
		if _, err := UnmarshalExpr([]byte(in)); err == nil {
			t.Errorf("accepted %s", in)
		}
	}
	var j ExprJSON
	_ = json.Unmarshal([]byte(`{"kind":"ident","name":"x","pos":{"line":2,"col":3}}`), &j)
	x, err := FromJSON(&j)
	if err != nil || x.Pos() != (Pos{2, 3}) {
		t.Errorf("position not kept: %v %v", x, err)
	}
}

func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{"a + b * c", "0 <= k < P", "select(c, a[i], -b)", "not (x or y)", "f32(i) / 2.5e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		p := NewParser(&Source{Text: in})
		x := p.ParseExpr()
		if p.Failed() {
			return
		}
		printed := ExprString(x)
		y, err := ParseExprString(printed)
		if err != nil {
			t.Fatalf("printed form %q of %q does not parse: %v", printed, in, err)
		}
		if !Equal(x, y) {
			t.Fatalf("round trip changed %q: printed %q, reprinted %q", in, printed, ExprString(y))
		}
	})
}

func TestErrorCap(t *testing.T) {
	in := strings.Repeat("$ \n", 100000)
	var r Reporter
	r.Src = &Source{Name: "junk", Text: in}
	Lex(r.Src, &r)
	if len(r.Errs) != MaxErrors+1 || r.Errs[MaxErrors].Msg != "too many errors" {
		t.Errorf("got %d errors, last %q", len(r.Errs), r.Errs[len(r.Errs)-1].Msg)
	}
}

func TestTextError(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"param N\nC(i) = 1\n", ""},
		{"café ∑\n", ""},
		{"kernel\x00\x1b[31m", "k.sched: not a text file (NUL byte at offset 6)"},
		{"ab\xffc\x00", "k.sched: not a text file (invalid UTF-8 at offset 2)"},
		{"ab\x00c\xff", "k.sched: not a text file (NUL byte at offset 2)"},
		{"é\xc3", "k.sched: not a text file (invalid UTF-8 at offset 2)"},
	} {
		err := (&Source{Name: "k.sched", Text: c.text}).TextError()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.text, err)
		case c.want != "" && (err == nil || err.Error() != c.want || err.Code != CodeNotText):
			t.Errorf("%q: %v, want %s [%s]", c.text, err, c.want, CodeNotText)
		}
	}
}
