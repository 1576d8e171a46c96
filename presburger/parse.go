package presburger

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// This file reads isl notation:
//
//	[N] -> { A[i, j] -> B[i + j] : 0 <= i < N and exists (e = floor(j/4): j = 4e) }
//
// Grammar (informally): an optional parameter list "[p, ...] ->", then
// braces around pieces separated by ";". A piece is a tuple, or two tuples
// joined by "->", or nothing (a parameter domain "{ : N > 0 }"), followed
// by an optional ": formula". Tuples may be named, anonymous ("[i]") and
// nested ("[A[i] -> B[j]]"); an element that is a fresh identifier names a
// dimension, any other expression adds an equality. Formulas combine
// comparison chains ("0 <= i, j < N", "=", "!=", "<", "<=", ">", ">=") with
// and/or/not/implies (also &&, ||, !), true, false, parentheses and
// "exists (e, f = expr: formula)", or without its parentheses
// "exists e, f = expr: formula", whose formula then extends as far to the
// right as possible, as in isl. Expressions are quasi-affine: integer
// constants, identifiers, +, -, multiplication by a constant ("2i", "2*i",
// "2(i + 1)"), floor(e/c), ceil(e/c), "e mod c", "e % c", min(...) and
// max(...). An identifier that is neither a dimension, an existential nor
// a declared parameter is an error (as in isl): a misspelt name must not
// silently become a parameter.

// ParseError describes malformed input, with the 1-based line and column of
// the offending token.
type ParseError struct {
	Line, Col int
	Msg       string
}

// Error returns "line:col: message".
func (e *ParseError) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
}

// ---------------------------------------------------------------------------
// Lexer

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tPunct
)

type token struct {
	kind      tokKind
	text      string
	line, col int
}

func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tIdent:
		return fmt.Sprintf("identifier %q", t.text)
	case tInt:
		return fmt.Sprintf("integer %s", t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

func lex(src string) ([]token, error) {
	var toks []token
	line, col := 1, 1
	i := 0
	adv := func(n int) {
		for k := 0; k < n; k++ {
			if src[i] == '\n' {
				line++
				col = 1
			} else {
				col++
			}
			i++
		}
	}
	puncts := []string{"->", "<=", ">=", "!=", "==", "&&", "||", "[", "]", "{", "}", "(", ")", ",", ";", ":", "+", "-", "*", "/", "%", "=", "<", ">", "!"}
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			adv(1)
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				adv(1)
			}
		case c >= '0' && c <= '9':
			j := i
			for j < len(src) && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			toks = append(toks, token{tInt, src[i:j], line, col})
			adv(j - i)
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(src) {
				d := src[j]
				if d == '_' || d == '\'' || d == '$' || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d >= '0' && d <= '9' {
					j++
					continue
				}
				break
			}
			toks = append(toks, token{tIdent, src[i:j], line, col})
			adv(j - i)
		default:
			found := false
			for _, p := range puncts {
				if strings.HasPrefix(src[i:], p) {
					toks = append(toks, token{tPunct, p, line, col})
					adv(len(p))
					found = true
					break
				}
			}
			if !found {
				return nil, &ParseError{line, col, fmt.Sprintf("unexpected character %q", rune(src[i]))}
			}
		}
	}
	toks = append(toks, token{tEOF, "", line, col})
	return toks, nil
}

// ---------------------------------------------------------------------------
// Syntax tree

type expr interface{}

type eNum struct{ v Int }
type eVar struct {
	name string
	at   token
}
type eBin struct {
	op   string // + - * / mod
	l, r expr
	at   token
}
type eNeg struct{ e expr }

// eDef is a tuple element "j = expr" (isl's output form): a dimension named
// j equal to expr.
type eDef struct {
	name string
	e    expr
	at   token
}
type eCall struct {
	fn   string // floor ceil min max
	args []expr
	at   token
}

type formula interface{}

type fBool struct{ v bool }
type fBin struct {
	op   string // and or implies
	l, r formula
}
type fNot struct{ f formula }
type fExists struct {
	names []string
	defs  []expr // nil entries: no definition
	body  formula
}
type fCmp struct {
	lists [][]expr
	ops   []string
	at    token
}

type tupleAST struct {
	name        string
	elems       []expr
	left, right *tupleAST
	at          token
}

type pieceAST struct {
	in, out   *tupleAST
	paramOnly bool
	cond      formula // nil means true
	at        token
}

type inputAST struct {
	params []string
	pieces []pieceAST
}

// ---------------------------------------------------------------------------
// Parser

type parser struct {
	toks []token
	i    int
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) peekAt(k int) token {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return p.toks[len(p.toks)-1]
}
func (p *parser) next() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}
func (p *parser) is(text string) bool {
	t := p.peek()
	return (t.kind == tPunct || t.kind == tIdent) && t.text == text
}
func (p *parser) accept(text string) bool {
	if p.is(text) {
		p.next()
		return true
	}
	return false
}
func (p *parser) errorf(t token, format string, args ...interface{}) error {
	return &ParseError{t.line, t.col, fmt.Sprintf(format, args...)}
}
func (p *parser) expect(text string) error {
	if p.accept(text) {
		return nil
	}
	t := p.peek()
	return p.errorf(t, "expected %q, found %s", text, t.describe())
}

func (p *parser) parseInput() (*inputAST, error) {
	in := &inputAST{}
	if p.is("[") {
		p.next()
		if !p.is("]") {
			for {
				t := p.next()
				if t.kind != tIdent || keywords[t.text] {
					return nil, p.errorf(t, "expected parameter name, found %s", t.describe())
				}
				in.params = append(in.params, t.text)
				if !p.accept(",") {
					break
				}
			}
		}
		if err := p.expect("]"); err != nil {
			return nil, err
		}
		if err := p.expect("->"); err != nil {
			return nil, err
		}
	}
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	if !p.is("}") {
		for {
			pc, err := p.parsePiece()
			if err != nil {
				return nil, err
			}
			in.pieces = append(in.pieces, pc)
			if !p.accept(";") {
				break
			}
			if p.is("}") {
				break
			}
		}
	}
	if err := p.expect("}"); err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.errorf(t, "expected end of input, found %s", t.describe())
	}
	return in, nil
}

func (p *parser) parsePiece() (pieceAST, error) {
	pc := pieceAST{at: p.peek()}
	if p.is(":") {
		pc.paramOnly = true
	} else {
		t, err := p.parseTuple()
		if err != nil {
			return pc, err
		}
		if p.accept("->") {
			o, err := p.parseTuple()
			if err != nil {
				return pc, err
			}
			pc.in, pc.out = t, o
		} else {
			pc.out = t
		}
	}
	if p.accept(":") {
		f, err := p.parseFormula()
		if err != nil {
			return pc, err
		}
		pc.cond = f
	}
	return pc, nil
}

func (p *parser) startsTuple() bool {
	t := p.peek()
	if t.kind == tPunct && t.text == "[" {
		return true
	}
	return t.kind == tIdent && !keywords[t.text] && p.peekAt(1).kind == tPunct && p.peekAt(1).text == "["
}

func (p *parser) parseTuple() (*tupleAST, error) {
	tu := &tupleAST{at: p.peek()}
	if t := p.peek(); t.kind == tIdent && !keywords[t.text] {
		tu.name = t.text
		p.next()
	}
	if err := p.expect("["); err != nil {
		return nil, err
	}
	if p.accept("]") {
		tu.elems = []expr{}
		return tu, nil
	}
	if p.startsTuple() {
		l, err := p.parseTuple()
		if err != nil {
			return nil, err
		}
		if err := p.expect("->"); err != nil {
			return nil, err
		}
		r, err := p.parseTuple()
		if err != nil {
			return nil, err
		}
		tu.left, tu.right = l, r
		return tu, p.expect("]")
	}
	for {
		if t := p.peek(); t.kind == tIdent && !keywords[t.text] && p.peekAt(1).kind == tPunct && p.peekAt(1).text == "=" {
			p.next()
			p.next()
			e, err := p.parseExpr()
			if err != nil {
				return nil, err
			}
			tu.elems = append(tu.elems, eDef{t.text, e, t})
		} else {
			e, err := p.parseExpr()
			if err != nil {
				return nil, err
			}
			tu.elems = append(tu.elems, e)
		}
		if !p.accept(",") {
			break
		}
	}
	return tu, p.expect("]")
}

func (p *parser) parseFormula() (formula, error) {
	l, err := p.parseOr()
	if err != nil {
		return nil, err
	}
	if p.accept("implies") {
		r, err := p.parseFormula()
		if err != nil {
			return nil, err
		}
		return fBin{"implies", l, r}, nil
	}
	return l, nil
}

func (p *parser) parseOr() (formula, error) {
	l, err := p.parseAnd()
	if err != nil {
		return nil, err
	}
	for p.accept("or") || p.accept("||") {
		r, err := p.parseAnd()
		if err != nil {
			return nil, err
		}
		l = fBin{"or", l, r}
	}
	return l, nil
}

func (p *parser) parseAnd() (formula, error) {
	l, err := p.parseNot()
	if err != nil {
		return nil, err
	}
	for p.accept("and") || p.accept("&&") {
		r, err := p.parseNot()
		if err != nil {
			return nil, err
		}
		l = fBin{"and", l, r}
	}
	return l, nil
}

func (p *parser) parseNot() (formula, error) {
	if p.accept("not") || p.accept("!") {
		f, err := p.parseNot()
		if err != nil {
			return nil, err
		}
		return fNot{f}, nil
	}
	return p.parseAtom()
}

func isRelOp(t token) bool {
	if t.kind != tPunct {
		return false
	}
	switch t.text {
	case "<", "<=", ">", ">=", "=", "==", "!=":
		return true
	}
	return false
}

func (p *parser) parseAtom() (formula, error) {
	switch {
	case p.is("true"):
		p.next()
		return fBool{true}, nil
	case p.is("false"):
		p.next()
		return fBool{false}, nil
	case p.is("exists"):
		p.next()
		return p.parseExists()
	case p.is("("):
		// A parenthesised formula, unless the parentheses belong to an
		// expression of a comparison: try the formula first.
		save := p.i
		p.next()
		f, err := p.parseFormula()
		if err == nil && p.is(")") {
			p.next()
			t := p.peek()
			if !isRelOp(t) && !(t.kind == tPunct && strings.Contains("+-*/%,", t.text)) && !p.is("mod") {
				return f, nil
			}
		}
		p.i = save
	}
	return p.parseChain()
}

// parseExists reads an existential after its keyword, in either of isl's
// forms: "exists (e, f = expr: formula)", whose scope is the parentheses,
// or "exists e, f = expr: formula" without them, whose formula extends as
// far to the right as a formula can (to the end of the enclosing
// parenthesised group or piece), as isl reads it.
func (p *parser) parseExists() (formula, error) {
	paren := p.accept("(")
	ex := fExists{}
	for {
		t := p.next()
		if t.kind != tIdent || keywords[t.text] {
			return nil, p.errorf(t, "expected variable name, found %s", t.describe())
		}
		ex.names = append(ex.names, t.text)
		var def expr
		if p.accept("=") {
			e, err := p.parseExpr()
			if err != nil {
				return nil, err
			}
			def = e
		}
		ex.defs = append(ex.defs, def)
		if !p.accept(",") {
			break
		}
	}
	if !p.accept(":") {
		t := p.peek()
		return nil, p.errorf(t, "expected \",\" or \":\" after the variables of exists, found %s", t.describe())
	}
	body, err := p.parseFormula()
	if err != nil {
		return nil, err
	}
	ex.body = body
	if paren {
		return ex, p.expect(")")
	}
	return ex, nil
}

func (p *parser) parseChain() (formula, error) {
	c := fCmp{at: p.peek()}
	list, err := p.parseExprList()
	if err != nil {
		return nil, err
	}
	c.lists = append(c.lists, list)
	for isRelOp(p.peek()) {
		op := p.next().text
		if op == "==" {
			op = "="
		}
		list, err := p.parseExprList()
		if err != nil {
			return nil, err
		}
		c.ops = append(c.ops, op)
		c.lists = append(c.lists, list)
	}
	if len(c.ops) == 0 {
		t := p.peek()
		return nil, p.errorf(t, "expected comparison operator, found %s", t.describe())
	}
	return c, nil
}

func (p *parser) parseExprList() ([]expr, error) {
	var list []expr
	for {
		e, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		list = append(list, e)
		if !p.is(",") {
			return list, nil
		}
		// "i, j >= 0": a comma continues the list only if an expression follows.
		p.next()
	}
}

func (p *parser) parseExpr() (expr, error) {
	l, err := p.parseTerm()
	if err != nil {
		return nil, err
	}
	for p.is("+") || p.is("-") {
		t := p.next()
		r, err := p.parseTerm()
		if err != nil {
			return nil, err
		}
		l = eBin{t.text, l, r, t}
	}
	return l, nil
}

func (p *parser) parseTerm() (expr, error) {
	l, err := p.parseUnary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		switch {
		case p.is("*") || p.is("/") || p.is("%") || p.is("mod"):
			p.next()
			op := t.text
			if op == "%" {
				op = "mod"
			}
			r, err := p.parseUnary()
			if err != nil {
				return nil, err
			}
			l = eBin{op, l, r, t}
		case isNumLit(l) && (t.kind == tIdent && !keywords[t.text] || p.is("(") || p.is("floor") || p.is("ceil") || p.is("min") || p.is("max")):
			// Implicit multiplication: "2i", "2(i + 1)".
			r, err := p.parseUnary()
			if err != nil {
				return nil, err
			}
			l = eBin{"*", l, r, t}
		default:
			return l, nil
		}
	}
}

// isNumLit reports whether e is an integer literal, possibly negated
// ("-2" in "-2i").
func isNumLit(e expr) bool {
	switch e := e.(type) {
	case eNum:
		return true
	case eNeg:
		return isNumLit(e.e)
	}
	return false
}

func (p *parser) parseUnary() (expr, error) {
	if p.accept("-") {
		e, err := p.parseUnary()
		if err != nil {
			return nil, err
		}
		return eNeg{e}, nil
	}
	if p.accept("+") {
		return p.parseUnary()
	}
	return p.parsePrimary()
}

func (p *parser) parsePrimary() (expr, error) {
	t := p.next()
	switch t.kind {
	case tInt:
		v, ok := new(big.Int).SetString(t.text, 10)
		if !ok {
			return nil, p.errorf(t, "bad integer %s", t.text)
		}
		return eNum{NewIntFromBig(v)}, nil
	case tIdent:
		switch t.text {
		case "floor", "ceil", "min", "max":
			if err := p.expect("("); err != nil {
				return nil, err
			}
			c := eCall{fn: t.text, at: t}
			for {
				e, err := p.parseExpr()
				if err != nil {
					return nil, err
				}
				c.args = append(c.args, e)
				if !p.accept(",") {
					break
				}
			}
			if err := p.expect(")"); err != nil {
				return nil, err
			}
			if (c.fn == "floor" || c.fn == "ceil") && len(c.args) != 1 {
				return nil, p.errorf(t, "%s takes one argument", c.fn)
			}
			return c, nil
		}
		if keywords[t.text] {
			return nil, p.errorf(t, "expected expression, found keyword %q", t.text)
		}
		return eVar{t.text, t}, nil
	case tPunct:
		if t.text == "(" {
			e, err := p.parseExpr()
			if err != nil {
				return nil, err
			}
			return e, p.expect(")")
		}
	}
	return nil, p.errorf(t, "expected expression, found %s", t.describe())
}

// ---------------------------------------------------------------------------
// Evaluation

// evaluator turns syntax into Maps over a flat set space [params | vars].
type evaluator struct {
	ctx    context.Context
	params []string
	pIndex map[string]int
}

// scope maps variable names to their position among the vars.
type scope struct {
	names []string
}

func (s *scope) lookup(name string) int {
	for i := len(s.names) - 1; i >= 0; i-- {
		if s.names[i] == name {
			return i
		}
	}
	return -1
}

func (ev *evaluator) flatSpace(sc *scope) Space {
	return SetSpace(ev.params, FlatTuple("", make([]string, len(sc.names))...))
}

// col returns the column of identifier name, or -1.
func (ev *evaluator) col(sc *scope, name string) int {
	if i := sc.lookup(name); i >= 0 {
		return len(ev.params) + i
	}
	if i, ok := ev.pIndex[name]; ok {
		return i
	}
	return -1
}

// pexpr is a piecewise quasi-affine expression: on the points satisfying
// piece.conds, its value is piece.aff. Rows are over the columns of the
// atom's basic map at the time they were built (padded later).
type pexpr []ppiece

type ppiece struct {
	conds []prow
	aff   []Int
}

type prow struct {
	row []Int
	eq  bool
}

// pad extends row (whose last entry is the constant) to width w.
func pad(row []Int, w int) []Int {
	if len(row) == w {
		return row
	}
	out := make([]Int, w)
	copy(out, row[:len(row)-1])
	out[w-1] = row[len(row)-1]
	return out
}

func combinePieces(a, b pexpr, f func(x, y []Int) []Int, w func() int) pexpr {
	var out pexpr
	for _, pa := range a {
		for _, pb := range b {
			n := w()
			conds := append(append([]prow(nil), pa.conds...), pb.conds...)
			out = append(out, ppiece{conds, f(pad(pa.aff, n), pad(pb.aff, n))})
		}
	}
	return out
}

func isConstPiece(p ppiece) bool { return len(p.conds) == 0 && isZeroRow(p.aff, len(p.aff)-1) }

func (ev *evaluator) evalExpr(e expr, sc *scope, ab *BasicMap) (pexpr, error) {
	w := func() int { return ab.NumCols() }
	switch e := e.(type) {
	case eNum:
		r := make([]Int, w())
		r[len(r)-1] = e.v
		return pexpr{{aff: r}}, nil
	case eVar:
		c := ev.col(sc, e.name)
		if c < 0 {
			return nil, &ParseError{e.at.line, e.at.col, fmt.Sprintf("unknown identifier %q", e.name)}
		}
		r := make([]Int, w())
		r[c] = NewInt(1)
		return pexpr{{aff: r}}, nil
	case eNeg:
		x, err := ev.evalExpr(e.e, sc, ab)
		if err != nil {
			return nil, err
		}
		out := make(pexpr, len(x))
		for i, p := range x {
			out[i] = ppiece{p.conds, negRow(p.aff)}
		}
		return out, nil
	case eBin:
		l, err := ev.evalExpr(e.l, sc, ab)
		if err != nil {
			return nil, err
		}
		r, err := ev.evalExpr(e.r, sc, ab)
		if err != nil {
			return nil, err
		}
		switch e.op {
		case "+":
			return combinePieces(l, r, func(x, y []Int) []Int { return addScaled(x, NewInt(1), y) }, w), nil
		case "-":
			return combinePieces(l, r, func(x, y []Int) []Int { return addScaled(x, NewInt(-1), y) }, w), nil
		case "*":
			if len(l) == 1 && isConstPiece(l[0]) {
				k := l[0].aff[len(l[0].aff)-1]
				out := make(pexpr, len(r))
				for i, p := range r {
					out[i] = ppiece{p.conds, scaleRow(p.aff, k)}
				}
				return out, nil
			}
			if len(r) == 1 && isConstPiece(r[0]) {
				k := r[0].aff[len(r[0].aff)-1]
				out := make(pexpr, len(l))
				for i, p := range l {
					out[i] = ppiece{p.conds, scaleRow(p.aff, k)}
				}
				return out, nil
			}
			return nil, &ParseError{e.at.line, e.at.col, "non-affine multiplication: one factor must be a constant"}
		case "/":
			return nil, &ParseError{e.at.line, e.at.col, "division is only allowed as floor(e/c) or ceil(e/c)"}
		case "mod":
			c, err := constOf(r, e.at)
			if err != nil {
				return nil, err
			}
			c = c.Abs()
			if c.IsZero() {
				return nil, &ParseError{e.at.line, e.at.col, "modulo by zero"}
			}
			q := ev.floorDiv(l, c, ab)
			return combinePieces(l, q, func(x, y []Int) []Int { return addScaled(x, c.Neg(), y) }, w), nil
		}
	case eCall:
		switch e.fn {
		case "floor", "ceil":
			arg := e.args[0]
			num, den := arg, expr(eNum{NewInt(1)})
			if b, ok := arg.(eBin); ok && b.op == "/" {
				num, den = b.l, b.r
			}
			n, err := ev.evalExpr(num, sc, ab)
			if err != nil {
				return nil, err
			}
			d, err := ev.evalExpr(den, sc, ab)
			if err != nil {
				return nil, err
			}
			c, err := constOf(d, e.at)
			if err != nil {
				return nil, err
			}
			if c.IsZero() {
				return nil, &ParseError{e.at.line, e.at.col, "division by zero"}
			}
			if c.Sign() < 0 {
				c = c.Neg()
				n = negPexpr(n)
			}
			if e.fn == "ceil" {
				return negPexpr(ev.floorDiv(negPexpr(n), c, ab)), nil
			}
			return ev.floorDiv(n, c, ab), nil
		case "min", "max":
			acc, err := ev.evalExpr(e.args[0], sc, ab)
			if err != nil {
				return nil, err
			}
			for _, a := range e.args[1:] {
				x, err := ev.evalExpr(a, sc, ab)
				if err != nil {
					return nil, err
				}
				acc = minMax(acc, x, e.fn == "min", w)
			}
			return acc, nil
		}
	}
	return nil, errors.New("presburger: internal error: unknown expression")
}

func negPexpr(x pexpr) pexpr {
	out := make(pexpr, len(x))
	for i, p := range x {
		out[i] = ppiece{p.conds, negRow(p.aff)}
	}
	return out
}

func constOf(x pexpr, at token) (Int, error) {
	if len(x) == 1 && isConstPiece(x[0]) {
		return x[0].aff[len(x[0].aff)-1], nil
	}
	return Int{}, &ParseError{at.line, at.col, "expected a constant divisor"}
}

// floorDiv returns floor(x / c) for c > 0, adding one division local per piece.
func (ev *evaluator) floorDiv(x pexpr, c Int, ab *BasicMap) pexpr {
	out := make(pexpr, 0, len(x))
	for _, p := range x {
		if c.IsOne() {
			out = append(out, p)
			continue
		}
		q := ab.AddLocalDiv(pad(p.aff, ab.NumCols()), c)
		r := make([]Int, ab.NumCols())
		r[ab.locCol(q)] = NewInt(1)
		out = append(out, ppiece{p.conds, r})
	}
	return out
}

// minMax returns min(a, b) (or max) as pieces: a where a <= b, b where b < a.
func minMax(a, b pexpr, isMin bool, w func() int) pexpr {
	var out pexpr
	for _, pa := range a {
		for _, pb := range b {
			n := w()
			x, y := pad(pa.aff, n), pad(pb.aff, n)
			d := addScaled(y, NewInt(-1), x) // y - x
			if !isMin {
				d = negRow(d) // x - y
			}
			dd := copyRow(d)
			dd = negRow(dd)
			dd[n-1] = dd[n-1].Sub(NewInt(1)) // strict other way
			base := append(append([]prow(nil), pa.conds...), pb.conds...)
			out = append(out,
				ppiece{append(append([]prow(nil), base...), prow{d, false}), x},
				ppiece{append(append([]prow(nil), base...), prow{dd, false}), y})
		}
	}
	return out
}

// evalCmp evaluates a comparison chain into a Map over the flat space.
func (ev *evaluator) evalCmp(c fCmp, sc *scope) (*Map, error) {
	sp := ev.flatSpace(sc)
	ab := NewBasicMap(sp)
	vals := make([][]pexpr, len(c.lists))
	for i, list := range c.lists {
		for _, e := range list {
			v, err := ev.evalExpr(e, sc, ab)
			if err != nil {
				return nil, err
			}
			vals[i] = append(vals[i], v)
		}
	}
	w := ab.NumCols()
	result := Universe(sp)
	for k, op := range c.ops {
		for _, x := range vals[k] {
			for _, y := range vals[k+1] {
				var bs []*BasicMap
				for _, px := range x {
					for _, py := range y {
						base := ab.Copy()
						for _, cd := range append(append([]prow(nil), px.conds...), py.conds...) {
							if cd.eq {
								base.eqs = append(base.eqs, pad(cd.row, w))
							} else {
								base.ineqs = append(base.ineqs, pad(cd.row, w))
							}
						}
						d := addScaled(pad(py.aff, w), NewInt(-1), pad(px.aff, w)) // y - x
						one := NewInt(1)
						add := func(row []Int, eq bool) {
							b := base.Copy()
							if eq {
								b.eqs = append(b.eqs, row)
							} else {
								b.ineqs = append(b.ineqs, row)
							}
							if b.normalize() {
								bs = append(bs, b)
							}
						}
						switch op {
						case "<=":
							add(d, false)
						case "<":
							dd := copyRow(d)
							dd[w-1] = dd[w-1].Sub(one)
							add(dd, false)
						case ">=":
							add(negRow(d), false)
						case ">":
							dd := negRow(d)
							dd[w-1] = dd[w-1].Sub(one)
							add(dd, false)
						case "=":
							add(d, true)
						case "!=":
							dd := copyRow(d)
							dd[w-1] = dd[w-1].Sub(one)
							add(dd, false)
							de := negRow(d)
							de[w-1] = de[w-1].Sub(one)
							add(de, false)
						}
					}
				}
				var err error
				result, err = result.Intersect(NewMap(sp, bs...))
				if err != nil {
					return nil, err
				}
			}
		}
	}
	return result, nil
}

func (ev *evaluator) evalFormula(f formula, sc *scope) (*Map, error) {
	sp := ev.flatSpace(sc)
	switch f := f.(type) {
	case nil:
		return Universe(sp), nil
	case fBool:
		if f.v {
			return Universe(sp), nil
		}
		return Empty(sp), nil
	case fCmp:
		return ev.evalCmp(f, sc)
	case fNot:
		x, err := ev.evalFormula(f.f, sc)
		if err != nil {
			return nil, err
		}
		return x.Complement(ev.ctx)
	case fBin:
		l, err := ev.evalFormula(f.l, sc)
		if err != nil {
			return nil, err
		}
		r, err := ev.evalFormula(f.r, sc)
		if err != nil {
			return nil, err
		}
		switch f.op {
		case "and":
			return l.Intersect(r)
		case "or":
			return l.Union(r)
		default: // implies
			nl, err := l.Complement(ev.ctx)
			if err != nil {
				return nil, err
			}
			return nl.Union(r)
		}
	case fExists:
		inner := &scope{names: append(append([]string(nil), sc.names...), f.names...)}
		body := f.body
		for i, d := range f.defs {
			if d != nil {
				def := fCmp{lists: [][]expr{{eVar{name: f.names[i]}}, {d}}, ops: []string{"="}}
				body = fBin{"and", def, body}
			}
		}
		x, err := ev.evalFormula(body, inner)
		if err != nil {
			return nil, err
		}
		return x.ProjectOut(DimOut, len(sc.names), len(f.names))
	}
	return nil, errors.New("presburger: internal error: unknown formula")
}

// pieceVars walks the tuples of a piece: fresh identifiers become
// dimensions, other elements become anonymous dimensions with an equality.
// It returns the dimension names (for the scope; anonymous ones get
// unreadable names), the printed names, the shapes and the extra
// constraints.
type tupleWalk struct {
	scope   []string
	printed []string
	eqs     []formula
	isParam func(string) bool
	anon    int
}

func (tw *tupleWalk) bound(name string) bool {
	for _, n := range tw.scope {
		if n == name {
			return true
		}
	}
	return false
}

func (tw *tupleWalk) walk(t *tupleAST) Tuple {
	if t.left != nil {
		l := tw.walk(t.left)
		r := tw.walk(t.right)
		return Tuple{Name: t.name, Left: &l, Right: &r}
	}
	out := Tuple{Name: t.name, Dims: []string{}}
	for _, e := range t.elems {
		if d, ok := e.(eDef); ok {
			// "j = expr": a dimension named j with an equality.
			tw.scope = append(tw.scope, d.name)
			tw.printed = append(tw.printed, d.name)
			out.Dims = append(out.Dims, d.name)
			tw.eqs = append(tw.eqs, fCmp{lists: [][]expr{{eVar{name: d.name}}, {d.e}}, ops: []string{"="}, at: d.at})
			continue
		}
		if v, ok := e.(eVar); ok && !tw.bound(v.name) && !tw.isParam(v.name) {
			tw.scope = append(tw.scope, v.name)
			tw.printed = append(tw.printed, v.name)
			out.Dims = append(out.Dims, v.name)
			continue
		}
		name := fmt.Sprintf("\x00%d", tw.anon)
		tw.anon++
		tw.scope = append(tw.scope, name)
		tw.printed = append(tw.printed, "")
		out.Dims = append(out.Dims, "")
		tw.eqs = append(tw.eqs, fCmp{lists: [][]expr{{eVar{name: name}}, {e}}, ops: []string{"="}, at: t.at})
	}
	return out
}

// evalInput evaluates every piece into a Map in its own space.
func evalInput(ctx context.Context, in *inputAST) ([]*Map, error) {
	params := append([]string(nil), in.params...)
	isParam := func(n string) bool {
		for _, p := range params {
			if p == n {
				return true
			}
		}
		return false
	}
	ev := &evaluator{ctx: ctx, params: params, pIndex: map[string]int{}}
	for i, p := range params {
		ev.pIndex[p] = i
	}
	var out []*Map
	for _, pc := range in.pieces {
		tw := &tupleWalk{isParam: isParam}
		var target Space
		switch {
		case pc.paramOnly:
			target = ParamSpace(params)
		case pc.in != nil:
			ti := tw.walk(pc.in)
			to := tw.walk(pc.out)
			target = MapSpace(params, ti, to)
		default:
			to := tw.walk(pc.out)
			target = SetSpace(params, to)
		}
		sc := &scope{names: tw.scope}
		f := pc.cond
		for _, e := range tw.eqs {
			if f == nil {
				f = e
			} else {
				f = fBin{"and", e, f}
			}
		}
		m, err := ev.evalFormula(f, sc)
		if err != nil {
			var pe *ParseError
			if errors.As(err, &pe) {
				return nil, err
			}
			return nil, &ParseError{pc.at.line, pc.at.col, err.Error()}
		}
		out = append(out, m.relabel(target))
	}
	return out, nil
}

// parseAll lexes, parses and evaluates src, converting any internal panic
// into an error.
func parseAll(ctx context.Context, src string) (ms []*Map, params []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			ms, err = nil, fmt.Errorf("presburger: internal error while parsing: %v", r)
		}
	}()
	toks, err := lex(src)
	if err != nil {
		return nil, nil, err
	}
	p := &parser{toks: toks}
	in, err := p.parseInput()
	if err != nil {
		return nil, nil, err
	}
	ms, err = evalInput(ctx, in)
	if err != nil {
		return nil, nil, err
	}
	return ms, in.params, nil
}

// ParseUnionMapContext parses a union of sets and/or relations in isl
// notation. Negations (not, implies) are computed exactly with ctx's
// budget.
func ParseUnionMapContext(ctx context.Context, src string) (*UnionMap, error) {
	ms, _, err := parseAll(ctx, src)
	if err != nil {
		return nil, err
	}
	return NewUnionMap(ms...), nil
}

// ParseUnionMap parses a union of sets and/or relations in isl notation,
// e.g. "{ A[i] -> B[i + 1] : i >= 0; C[] -> D[] }", with the default budget.
func ParseUnionMap(src string) (*UnionMap, error) {
	return ParseUnionMapContext(context.Background(), src)
}

// ParseUnionSet parses a union of sets; it fails if a piece is a relation.
func ParseUnionSet(src string) (*UnionMap, error) {
	u, err := ParseUnionMap(src)
	if err != nil {
		return nil, err
	}
	for _, m := range u.Maps() {
		if !m.space.IsSet() {
			return nil, fmt.Errorf("presburger: %s is a relation, not a set", m.space)
		}
	}
	return u, nil
}

// ParseMapContext parses a relation (or set) whose pieces all live in one
// space; see ParseUnionMapContext.
func ParseMapContext(ctx context.Context, src string) (*Map, error) {
	ms, params, err := parseAll(ctx, src)
	if err != nil {
		return nil, err
	}
	if len(ms) == 0 {
		return Empty(ParamSpace(params)), nil
	}
	r := ms[0]
	for _, m := range ms[1:] {
		if !m.sameShape(r) {
			return nil, fmt.Errorf("presburger: pieces in different spaces %s and %s; use ParseUnionMap", r.space, m.space)
		}
		if r, err = r.Union(m); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// ParseMap parses a relation (or set) whose pieces all live in one space,
// e.g. "[N] -> { A[i] -> B[j] : j = i + 1 and 0 <= i < N }". An input
// without pieces ("{ }") gives the empty parameter domain.
func ParseMap(src string) (*Map, error) { return ParseMapContext(context.Background(), src) }

// ParseSet parses a set (or parameter domain) whose pieces all live in one
// space, e.g. "{ S[i, j] : 0 <= i <= j < 10 }".
func ParseSet(src string) (*Map, error) {
	m, err := ParseMap(src)
	if err != nil {
		return nil, err
	}
	if !m.space.IsSet() {
		return nil, fmt.Errorf("presburger: %s is a relation, not a set", m.space)
	}
	return m, nil
}
