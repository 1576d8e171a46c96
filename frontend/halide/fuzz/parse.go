package fuzz

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ParseError is a malformed case, at a line and column (from 1).
type ParseError struct {
	Line, Col int
	Msg       string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// token is a word or a parenthesis of a line, with its column.
type token struct {
	text string
	col  int
}

func lex(line string) []token {
	var ts []token
	start := -1
	for i, r := range line + " " {
		switch {
		case r == '(' || r == ')' || r == ' ' || r == '\t' || r == '\r':
			if start >= 0 {
				ts = append(ts, token{line[start:i], start + 1})
				start = -1
			}
			if r == '(' || r == ')' {
				ts = append(ts, token{string(r), i + 1})
			}
		case start < 0:
			start = i
		}
	}
	return ts
}

// Parse reads a case in the format of docs/fuzz-halide.md (what
// Case.String writes; a closing "end" line is allowed). It checks the
// lines' shapes, the names the definitions use and the arities of the
// operations; whether Halide accepts the schedule is Halide's to say.
func Parse(text string) (*Case, error) {
	c := &Case{}
	p := &parser{c: c, known: map[string]int{}}
	for n, line := range strings.Split(text, "\n") {
		ts := lex(line)
		if len(ts) == 0 || strings.HasPrefix(ts[0].text, "#") {
			continue
		}
		p.line, p.ts = n+1, ts
		if ts[0].text == "end" {
			break
		}
		if err := p.parseLine(); err != nil {
			return nil, err
		}
	}
	if c.Output == "" {
		return nil, &ParseError{Line: p.line + 1, Col: 1, Msg: "the case has no output line"}
	}
	return c, nil
}

type parser struct {
	c     *Case
	known map[string]int // funcs and inputs defined so far, by dimensions
	line  int
	ts    []token
}

func (p *parser) errAt(i int, format string, args ...any) error {
	col := 1
	if i < len(p.ts) {
		col = p.ts[i].col
	} else if len(p.ts) > 0 {
		last := p.ts[len(p.ts)-1]
		col = last.col + len(last.text)
	}
	return &ParseError{Line: p.line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) word(i int) (string, error) {
	if i >= len(p.ts) || p.ts[i].text == "(" || p.ts[i].text == ")" {
		return "", p.errAt(i, "%s: a word is missing", p.ts[0].text)
	}
	return p.ts[i].text, nil
}

func (p *parser) int(i, lo, hi int) (int, error) {
	w, err := p.word(i)
	if err != nil {
		return 0, err
	}
	v, err := strconv.Atoi(w)
	if err != nil || v < lo || v > hi {
		return 0, p.errAt(i, "want an integer from %d to %d, got %q", lo, hi, w)
	}
	return v, nil
}

func (p *parser) typ(i int) (Type, error) {
	w, err := p.word(i)
	if err != nil {
		return "", err
	}
	if !slices.Contains(types, Type(w)) {
		return "", p.errAt(i, "unknown type %q", w)
	}
	return Type(w), nil
}

func isName(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return !slices.Contains([]string{"x", "y", "z", "rx", "ry"}, s)
}

func (p *parser) newName(i int) (string, error) {
	w, err := p.word(i)
	if err != nil {
		return "", err
	}
	if !isName(w) {
		return "", p.errAt(i, "%q cannot name a func or an input", w)
	}
	if _, ok := p.known[w]; ok {
		return "", p.errAt(i, "%s is defined twice", w)
	}
	return w, nil
}

func (p *parser) parseLine() error {
	switch p.ts[0].text {
	case "case":
		w, err := p.word(1)
		p.c.Name = w
		return p.end(2, err)
	case "input":
		return p.parseInput()
	case "bc":
		return p.parseBC()
	case "func":
		return p.parseFunc()
	case "update":
		return p.parseUpdate()
	case "output":
		w, err := p.word(1)
		if err == nil && p.c.Def(w) == nil {
			err = p.errAt(1, "the output %q is not a func", w)
		}
		p.c.Output = w
		return p.end(2, err)
	case "s":
		return p.parseDirective()
	}
	return p.errAt(0, "unknown line %q", p.ts[0].text)
}

// end checks that the line has n tokens, once err is nil.
func (p *parser) end(n int, err error) error {
	if err == nil && len(p.ts) > n {
		err = p.errAt(n, "unexpected %q", p.ts[n].text)
	}
	return err
}

func (p *parser) parseInput() error {
	name, err := p.newName(1)
	if err != nil {
		return err
	}
	t, err := p.typ(2)
	if err != nil {
		return err
	}
	dims, err := p.int(3, 1, 3)
	p.c.Inputs = append(p.c.Inputs, Input{Name: name, Type: t, Dims: dims})
	p.known[name] = dims
	return p.end(4, err)
}

func (p *parser) parseBC() error {
	name, err := p.newName(1)
	if err != nil {
		return err
	}
	kind, err := p.word(2)
	if err != nil {
		return err
	}
	if !slices.Contains(BCKinds, kind) {
		return p.errAt(2, "unknown boundary condition %q", kind)
	}
	src, err := p.word(3)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(p.c.Inputs, func(in Input) bool { return in.Name == src }) {
		return p.errAt(3, "%q is not an input", src)
	}
	p.c.Defs = append(p.c.Defs, Def{Kind: BCDef, Name: name, BC: kind, Src: src})
	p.known[name] = p.known[src]
	return p.end(4, nil)
}

func (p *parser) parseFunc() error {
	name, err := p.newName(1)
	if err != nil {
		return err
	}
	t, err := p.typ(2)
	if err != nil {
		return err
	}
	dims, err := p.int(3, 1, 3)
	if err != nil {
		return err
	}
	e, err := p.exprLine(4, dims, 0)
	if err != nil {
		return err
	}
	p.c.Defs = append(p.c.Defs, Def{Kind: FuncDef, Name: name, Type: t, Dims: dims, Value: e})
	p.known[name] = dims
	return nil
}

func (p *parser) parseUpdate() error {
	name, err := p.word(1)
	if err != nil {
		return err
	}
	d := p.c.Def(name)
	if d == nil || d.Kind != FuncDef {
		return p.errAt(1, "%q is not a func defined before", name)
	}
	n, err := p.int(2, 1, 2)
	if err != nil {
		return err
	}
	var rdom [][2]int
	for i := range n {
		lo, err := p.int(3+2*i, -1000, 1000)
		if err != nil {
			return err
		}
		ext, err := p.int(4+2*i, 1, 1000)
		if err != nil {
			return err
		}
		rdom = append(rdom, [2]int{lo, ext})
	}
	e, err := p.exprLine(3+2*n, d.Dims, n)
	if err != nil {
		return err
	}
	p.c.Defs = append(p.c.Defs, Def{Kind: UpdateDef, Name: name, RDom: rdom, Value: e})
	return nil
}

// exprLine parses the expression from token i to the end of the line, in
// a func of dims pure variables and an RDom of rdims variables.
func (p *parser) exprLine(i, dims, rdims int) (*Expr, error) {
	e, j, err := p.expr(i, dims, rdims)
	if err != nil {
		return nil, err
	}
	return e, p.end(j, nil)
}

func (p *parser) expr(i, dims, rdims int) (*Expr, int, error) {
	if i >= len(p.ts) {
		return nil, i, p.errAt(i, "an expression is missing")
	}
	switch t := p.ts[i].text; t {
	case ")":
		return nil, i, p.errAt(i, "unexpected )")
	case "(":
		return p.list(i+1, dims, rdims)
	default:
		return Atom(t), i + 1, p.atom(i, t, dims, rdims)
	}
}

func (p *parser) atom(i int, t string, dims, rdims int) error {
	switch t {
	case "x", "y", "z":
		if int(t[0]-'x') >= dims {
			return p.errAt(i, "%s is not a variable of a func of %d dimensions", t, dims)
		}
		return nil
	case "rx", "ry":
		if int(t[1]-'x') >= rdims {
			return p.errAt(i, "%s is not a variable of the RDom here", t)
		}
		return nil
	}
	if _, err := strconv.Atoi(t); err == nil {
		return nil
	}
	if f, err := strconv.ParseFloat(t, 32); err == nil && strings.Contains(t, ".") && f == f {
		return nil
	}
	return p.errAt(i, "unknown atom %q", t)
}

func (p *parser) list(i, dims, rdims int) (*Expr, int, error) {
	op, err := p.word(i)
	if err != nil {
		return nil, i, p.errAt(i, "a list starts with an operation")
	}
	e := &Expr{Op: op}
	j := i + 1
	if op == "cast" {
		if _, err := p.typ(j); err != nil {
			return nil, j, err
		}
		e.Args = append(e.Args, Atom(p.ts[j].text))
		j++
	}
	for j < len(p.ts) && p.ts[j].text != ")" {
		a, k, err := p.expr(j, dims, rdims)
		if err != nil {
			return nil, k, err
		}
		e.Args = append(e.Args, a)
		j = k
	}
	if j >= len(p.ts) {
		return nil, j, p.errAt(j, "missing )")
	}
	want, isOp := Ops[op]
	if !isOp {
		var ok bool
		if want, ok = p.known[op]; !ok {
			return nil, i, p.errAt(i, "%q is neither an operation nor a func or input defined before", op)
		}
	}
	if len(e.Args) != want {
		return nil, i, p.errAt(i, "%s takes %d arguments, got %d", op, want, len(e.Args))
	}
	return e, j + 1, nil
}

func (p *parser) parseDirective() error {
	var d Directive
	for i, t := range p.ts[1:] {
		if t.text == "(" || t.text == ")" {
			return p.errAt(i+1, "a schedule line has no parentheses")
		}
		d = append(d, t.text)
	}
	if len(d) < 2 {
		return p.errAt(len(p.ts), "a schedule line is s DIRECTIVE STAGE ...")
	}
	if !slices.Contains(Directives, d[0]) {
		return p.errAt(1, "unknown directive %q", d[0])
	}
	f, k, hasK := strings.Cut(d[1], ".")
	def := p.c.Def(f)
	if def == nil {
		return p.errAt(2, "%q is not a func", f)
	}
	if hasK {
		n, err := strconv.Atoi(k)
		if err != nil || n < 0 || n > p.c.Updates(f) {
			return p.errAt(2, "%s has no stage %q", f, k)
		}
	}
	p.c.Sched = append(p.c.Sched, d)
	return nil
}

// Directives are the schedule directives of the format.
var Directives = []string{
	"compute_root", "store_root", "compute_at", "store_at", "fold", "bound", "align_bounds",
	"split", "tile", "reorder", "fuse", "vectorize", "unroll", "parallel", "specialize", "rfactor", "atomic",
}
