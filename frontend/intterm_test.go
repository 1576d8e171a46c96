package frontend

import (
	"errors"
	"strings"
	"testing"
)

// TestIntTermEval evaluates terms exactly, beyond int64 too (the uint64
// reading of a negative int32), with Euclidean div and mod.
func TestIntTermEval(t *testing.T) {
	env := map[string]int64{"a": 2147483647, "b": -7, "c": 2}
	for _, c := range []struct{ term, want string }{
		{"(+ a 1)", "2147483648"},
		{"(* a a)", "4611686014132420609"},
		{"(* (* a a) 4)", "18446744056529682436"},
		{"(- 0 (* a c))", "-4294967294"},
		{"(- b)", "7"},
		{"(- 5)", "-5"},
		{"(- a b c)", "2147483652"},
		{"(div b c)", "-4"},
		{"(mod b c)", "1"},
		{"(div b (- 2))", "4"},
		{"(ite (< b 0) (+ b 18446744073709551616) b)", "18446744073709551609"},
		{"(and (<= (- 5) b) (not (= c 3)))", "0"},
		{"(or (> a b) false)", "1"},
		{"(ite (>= c 2) (< a b) true)", "0"},
	} {
		x, err := ParseIntTerm(c.term)
		if err != nil {
			t.Errorf("ParseIntTerm(%s): %v", c.term, err)
			continue
		}
		got, err := x.Eval(env)
		if err != nil || got.String() != c.want {
			t.Errorf("%s = %v, %v; want %s", c.term, got, err, c.want)
		}
	}
	for _, c := range []struct{ term, err string }{{"(div a 0)", "division by zero"}, {"(+ a d)", "d has no value"}} {
		x, err := ParseIntTerm(c.term)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := x.Eval(env); err == nil || err.Error() != c.err {
			t.Errorf("%s: error %v, want %q", c.term, err, c.err)
		}
	}
}

// TestIntTermRoundTrip checks that String writes what ParseIntTerm reads.
func TestIntTermRoundTrip(t *testing.T) {
	for _, s := range []string{
		"(+ x (* m s))", "(- 2147483648)", "(ite (= y 0) 0 (div x y))", "(and (<= 0 x) (< x 100))",
		"(not (or true false))", "(- x)", "(- x y z)", "(ite (< x 0) (+ x 4294967296) x)",
	} {
		x, err := ParseIntTerm(s)
		if err != nil {
			t.Fatalf("ParseIntTerm(%s): %v", s, err)
		}
		if x.String() != s {
			t.Errorf("ParseIntTerm(%s).String() = %s", s, x)
		}
	}
}

// TestIntTermErrors checks that bad terms are errors at their offset.
func TestIntTermErrors(t *testing.T) {
	for _, c := range []struct {
		src string
		pos int
		msg string
	}{
		{"(+ a", 0, "unclosed ("},
		{"(foo a)", 1, `unknown operator "foo"`},
		{"(+ a (< b c))", 1, "+: (< b c) is not an integer"},
		{"(and a b)", 1, "and: a is not a boolean"},
		{"(ite a 1 2)", 1, "ite: a is not a boolean"},
		{"(ite true 1 false)", 1, "ite: false is not an integer"},
		{"(div a)", 1, "div takes 2 operands, not 1"},
		{"(+)", 1, "+ takes one operand or more, not 0"},
		{"a b", 2, "text after the term"},
		{"", 0, "a term expected, the text ends"},
		{")", 0, "a term expected, not )"},
		{"(+ 007 a)", 3, `"007" is not a numeral`},
		{"(+ a #b)", 5, `"#b" is not a variable`},
		{"div", 0, "the operator div outside an application"},
	} {
		_, err := ParseIntTerm(c.src)
		var te *TermError
		if !errors.As(err, &te) || te.Pos != c.pos || te.Msg != c.msg {
			t.Errorf("ParseIntTerm(%q) = %v, want offset %d: %s", c.src, err, c.pos, c.msg)
		}
	}
}

// TestIndexObligationCheck checks that an obligation's terms read only
// its variables, with the sorts they need.
func TestIndexObligationCheck(t *testing.T) {
	term := func(s string) *IntTerm {
		x, err := ParseIntTerm(s)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	ok := IndexObligation{
		Vars:  []IndexVar{{SMT: "x", Name: "x", Kind: "loop"}, {SMT: "m", Name: "b.min.0", Kind: "param"}},
		Facts: []*IntTerm{term("(<= 0 x)")},
		Terms: []IndexTerm{{Term: term("(+ x m)"), Halide: "x + b.min.0", Bits: 32}},
	}
	if err := ok.Check(); err != nil {
		t.Fatalf("Check: %v", err)
	}
	for _, c := range []struct {
		edit func(o *IndexObligation)
		err  string
	}{
		{func(o *IndexObligation) { o.Facts = []*IntTerm{term("(+ x 1)")} }, "fact 1 is not a boolean"},
		{func(o *IndexObligation) { o.Terms[0].Term = term("(< x 1)") }, "term 1 (x + b.min.0) is not an integer"},
		{func(o *IndexObligation) { o.Terms[0].Term = term("(+ x y)") }, "the term (+ x y) reads y, not a variable of the obligation"},
		{func(o *IndexObligation) { o.Vars = append(o.Vars, IndexVar{SMT: "x", Name: "x2"}) }, "the variable x is declared twice"},
		{func(o *IndexObligation) { o.Terms[0].Bits = 0 }, "term 1 (x + b.min.0) has a type of 0 bits"},
	} {
		o := ok
		o.Vars = append([]IndexVar(nil), ok.Vars...)
		o.Terms = append([]IndexTerm(nil), ok.Terms...)
		c.edit(&o)
		if err := o.Check(); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("Check = %v, want %q", err, c.err)
		}
	}
}

// FuzzParseIntTerm checks that ParseIntTerm never panics, that an error
// is a TermError within the text, and that a term it reads prints as text
// it reads back to the same print.
func FuzzParseIntTerm(f *testing.F) {
	for _, s := range []string{"(+ x (* m s))", "(ite (= y 0) 0 (div x y))", "(and (<= (- 5) b) (not (= c 3)))", "(- x)", "(+ a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, err := ParseIntTerm(s)
		if err != nil {
			var te *TermError
			if !errors.As(err, &te) || te.Pos < 0 || te.Pos > len(s) {
				t.Fatalf("ParseIntTerm(%q): %v", s, err)
			}
			return
		}
		y, err := ParseIntTerm(x.String())
		if err != nil || y.String() != x.String() {
			t.Fatalf("%q prints as %q, which reads back as %v (%v)", s, x, y, err)
		}
	})
}
