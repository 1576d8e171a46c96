package frontend

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// IntOp is the operator of an IntTerm.
type IntOp uint8

// The operators of IntTerm: a numeral, a variable, the booleans, then
// SMT-LIB's operators of linear and nonlinear integer arithmetic that a
// compiler's index arithmetic needs. Div and Mod are SMT-LIB's: Euclidean
// (the remainder is never negative), as Halide's signed division.
const (
	IntNum IntOp = iota
	IntVar
	IntTrue
	IntFalse
	IntAdd // n-ary
	IntSub // n-ary, left to right; unary is IntNeg
	IntNeg
	IntMul // n-ary
	IntDiv
	IntMod
	IntIte // (ite c x y): c a boolean, x and y of one sort
	IntLt
	IntLe
	IntGt
	IntGe
	IntEq
	IntAnd // n-ary
	IntOr  // n-ary
	IntNot
)

// intOps are the SMT-LIB spellings of the operators that take operands,
// with their arity (-1: one or more) and whether they are boolean-valued.
var intOps = map[string]struct {
	op      IntOp
	arity   int
	boolean bool
}{
	"+": {IntAdd, -1, false}, "-": {IntSub, -1, false}, "*": {IntMul, -1, false},
	"div": {IntDiv, 2, false}, "mod": {IntMod, 2, false}, "ite": {IntIte, 3, false},
	"<": {IntLt, 2, true}, "<=": {IntLe, 2, true}, ">": {IntGt, 2, true}, ">=": {IntGe, 2, true}, "=": {IntEq, 2, true},
	"and": {IntAnd, -1, true}, "or": {IntOr, -1, true}, "not": {IntNot, 1, true},
}

// IntTerm is a term of exact integer arithmetic over named integer
// variables, boolean when it is a comparison, a connective or a boolean
// constant: what an IndexObligation's facts and terms are. Its text is
// SMT-LIB (String, ParseIntTerm), the form in which a compiler's driver
// writes it, so that JSON carries it as a string (MarshalText,
// UnmarshalText).
type IntTerm struct {
	Op   IntOp
	Num  *big.Int   // IntNum's value
	Name string     // IntVar's name
	Args []*IntTerm // the operands
}

// IsBool reports whether t is boolean-valued.
func (t *IntTerm) IsBool() bool {
	switch t.Op {
	case IntTrue, IntFalse, IntLt, IntLe, IntGt, IntGe, IntEq, IntAnd, IntOr, IntNot:
		return true
	case IntIte:
		return t.Args[1].IsBool()
	}
	return false
}

// opNames are the SMT-LIB names of the operators that take operands.
var opNames = [...]string{IntAdd: "+", IntSub: "-", IntNeg: "-", IntMul: "*", IntDiv: "div", IntMod: "mod", IntIte: "ite",
	IntLt: "<", IntLe: "<=", IntGt: ">", IntGe: ">=", IntEq: "=", IntAnd: "and", IntOr: "or", IntNot: "not"}

// opName is the SMT-LIB name of an operator that takes operands.
func opName(op IntOp) string { return opNames[op] }

// String writes t in SMT-LIB.
func (t *IntTerm) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t *IntTerm) write(b *strings.Builder) {
	switch t.Op {
	case IntNum:
		if t.Num.Sign() < 0 {
			b.WriteString("(- ")
			b.WriteString(new(big.Int).Neg(t.Num).String())
			b.WriteString(")")
			return
		}
		b.WriteString(t.Num.String())
		return
	case IntVar:
		b.WriteString(t.Name)
		return
	case IntTrue:
		b.WriteString("true")
		return
	case IntFalse:
		b.WriteString("false")
		return
	}
	b.WriteString("(")
	b.WriteString(opName(t.Op))
	for _, a := range t.Args {
		b.WriteString(" ")
		a.write(b)
	}
	b.WriteString(")")
}

// MarshalText writes t in SMT-LIB.
func (t *IntTerm) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads t from SMT-LIB (see ParseIntTerm).
func (t *IntTerm) UnmarshalText(b []byte) error {
	u, err := ParseIntTerm(string(b))
	if err != nil {
		return err
	}
	*t = *u
	return nil
}

// Vars calls f on the name of every variable t reads.
func (t *IntTerm) Vars(f func(name string)) {
	if t.Op == IntVar {
		f(t.Name)
	}
	for _, a := range t.Args {
		a.Vars(f)
	}
}

// TermError is an error of ParseIntTerm: what is wrong, at the byte
// offset Pos of the text.
type TermError struct {
	Pos int
	Msg string
}

func (e *TermError) Error() string { return fmt.Sprintf("offset %d: %s", e.Pos, e.Msg) }

// ParseIntTerm reads one SMT-LIB term of IntTerm's operators: numerals
// (a negative one written (- n)), variables (SMT-LIB simple symbols),
// true and false, and applications of + - * div mod ite < <= > >= = and
// or not, each checked for its arity and the sorts of its operands.
func ParseIntTerm(src string) (*IntTerm, error) {
	p := &termParser{src: src}
	t, err := p.term()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos != len(src) {
		return nil, &TermError{p.pos, "text after the term"}
	}
	return t, nil
}

// termParser is ParseIntTerm's reader.
type termParser struct {
	src string
	pos int
}

func (p *termParser) space() {
	for p.pos < len(p.src) && strings.IndexByte(" \n\t\r", p.src[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *termParser) atom() string {
	start := p.pos
	for p.pos < len(p.src) && strings.IndexByte(" \n\t\r()", p.src[p.pos]) < 0 {
		p.pos++
	}
	return p.src[start:p.pos]
}

// symbol reports whether s is an SMT-LIB simple symbol that is not a
// numeral or a reserved word.
func symbol(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("~!@$%^&*_-+=<>.?/", c) >= 0) {
			return false
		}
	}
	return true
}

func (p *termParser) term() (*IntTerm, error) {
	p.space()
	start := p.pos
	if p.pos >= len(p.src) {
		return nil, &TermError{p.pos, "a term expected, the text ends"}
	}
	if p.src[p.pos] == ')' {
		return nil, &TermError{p.pos, "a term expected, not )"}
	}
	if p.src[p.pos] != '(' {
		a := p.atom()
		switch {
		case a == "true":
			return &IntTerm{Op: IntTrue}, nil
		case a == "false":
			return &IntTerm{Op: IntFalse}, nil
		case a[0] >= '0' && a[0] <= '9':
			v, ok := new(big.Int).SetString(a, 10)
			if !ok || (len(a) > 1 && a[0] == '0') {
				return nil, &TermError{start, fmt.Sprintf("%q is not a numeral", a)}
			}
			return &IntTerm{Op: IntNum, Num: v}, nil
		case intOps[a].arity != 0:
			return nil, &TermError{start, fmt.Sprintf("the operator %s outside an application", a)}
		case !symbol(a):
			return nil, &TermError{start, fmt.Sprintf("%q is not a variable", a)}
		}
		return &IntTerm{Op: IntVar, Name: a}, nil
	}
	p.pos++
	p.space()
	opPos := p.pos
	name := p.atom()
	o, ok := intOps[name]
	if !ok {
		return nil, &TermError{opPos, fmt.Sprintf("unknown operator %q", name)}
	}
	t := &IntTerm{Op: o.op}
	for {
		p.space()
		if p.pos >= len(p.src) {
			return nil, &TermError{start, "unclosed ("}
		}
		if p.src[p.pos] == ')' {
			p.pos++
			break
		}
		a, err := p.term()
		if err != nil {
			return nil, err
		}
		t.Args = append(t.Args, a)
	}
	if o.arity > 0 && len(t.Args) != o.arity || len(t.Args) == 0 {
		return nil, &TermError{opPos, fmt.Sprintf("%s takes %s, not %d", name, arityText(o.arity), len(t.Args))}
	}
	if t.Op == IntSub && len(t.Args) == 1 {
		if t.Args[0].Op == IntNum {
			return &IntTerm{Op: IntNum, Num: new(big.Int).Neg(t.Args[0].Num)}, nil
		}
		t.Op = IntNeg
	}
	if err := t.checkSorts(); err != nil {
		return nil, &TermError{opPos, err.Error()}
	}
	return t, nil
}

func arityText(n int) string {
	switch n {
	case -1:
		return "one operand or more"
	case 1:
		return "one operand"
	}
	return fmt.Sprintf("%d operands", n)
}

// checkSorts checks the sorts of t's operands.
func (t *IntTerm) checkSorts() error {
	want := func(a *IntTerm, boolean bool) error {
		if a.IsBool() != boolean {
			if boolean {
				return fmt.Errorf("%s: %s is not a boolean", opName(t.Op), a)
			}
			return fmt.Errorf("%s: %s is not an integer", opName(t.Op), a)
		}
		return nil
	}
	switch t.Op {
	case IntAnd, IntOr, IntNot:
		for _, a := range t.Args {
			if err := want(a, true); err != nil {
				return err
			}
		}
	case IntIte:
		if err := want(t.Args[0], true); err != nil {
			return err
		}
		return want(t.Args[2], t.Args[1].IsBool())
	default:
		for _, a := range t.Args {
			if err := want(a, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// Eval evaluates t at env (a value for every variable t reads), exactly:
// big integers, no wrap at any width. A boolean is 1 or 0. A division or
// remainder by zero is an error.
func (t *IntTerm) Eval(env map[string]int64) (*big.Int, error) {
	switch t.Op {
	case IntNum:
		return new(big.Int).Set(t.Num), nil
	case IntVar:
		v, ok := env[t.Name]
		if !ok {
			return nil, fmt.Errorf("%s has no value", t.Name)
		}
		return big.NewInt(v), nil
	case IntTrue:
		return big.NewInt(1), nil
	case IntFalse:
		return big.NewInt(0), nil
	case IntIte:
		c, err := t.Args[0].Eval(env)
		if err != nil {
			return nil, err
		}
		if c.Sign() != 0 {
			return t.Args[1].Eval(env)
		}
		return t.Args[2].Eval(env)
	}
	a := make([]*big.Int, len(t.Args))
	for i, x := range t.Args {
		v, err := x.Eval(env)
		if err != nil {
			return nil, err
		}
		a[i] = v
	}
	return t.apply(a)
}

func b2i(b bool) *big.Int {
	if b {
		return big.NewInt(1)
	}
	return big.NewInt(0)
}

// apply applies t's operator to its operands' values a.
func (t *IntTerm) apply(a []*big.Int) (*big.Int, error) {
	switch t.Op {
	case IntAdd, IntSub:
		acc := new(big.Int).Set(a[0])
		for _, x := range a[1:] {
			if t.Op == IntAdd {
				acc.Add(acc, x)
			} else {
				acc.Sub(acc, x)
			}
		}
		return acc, nil
	case IntNeg:
		return new(big.Int).Neg(a[0]), nil
	case IntMul:
		acc := big.NewInt(1)
		for _, x := range a {
			acc.Mul(acc, x)
		}
		return acc, nil
	case IntDiv, IntMod:
		if a[1].Sign() == 0 {
			return nil, errors.New("division by zero")
		}
		q, r := new(big.Int).DivMod(a[0], a[1], new(big.Int))
		if t.Op == IntMod {
			return r, nil
		}
		return q, nil
	case IntLt, IntLe, IntGt, IntGe, IntEq:
		c := a[0].Cmp(a[1])
		return b2i(t.Op == IntLt && c < 0 || t.Op == IntLe && c <= 0 || t.Op == IntGt && c > 0 || t.Op == IntGe && c >= 0 || t.Op == IntEq && c == 0), nil
	case IntAnd, IntOr:
		for _, x := range a {
			if (x.Sign() != 0) == (t.Op == IntOr) {
				return b2i(t.Op == IntOr), nil
			}
		}
		return b2i(t.Op == IntAnd), nil
	case IntNot:
		return b2i(a[0].Sign() == 0), nil
	}
	return nil, fmt.Errorf("no operator %d", t.Op)
}
