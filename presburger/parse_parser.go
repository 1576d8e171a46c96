package presburger

import (
	"fmt"
	"math/big"
	"strings"
)

// This file is the parser of isl notation (the grammar is in parse.go): a
// recursive descent over the lexer's tokens that builds the syntax tree
// below, reporting the first error with its position.

// expr is an expression of the syntax tree: eNum, eVar, eBin, eNeg,
// eDef or eCall.
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

// formula is a formula of the syntax tree: fBool, fBin, fNot, fExists
// or fCmp (nil: true).
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

// fCmp is a comparison chain: lists[0] ops[0] lists[1] ops[1] ...,
// where a list "i, j" compares each of its expressions.
type fCmp struct {
	lists [][]expr
	ops   []string
	at    token
}

// tupleAST is a tuple: named elements, or a nested pair left -> right.
type tupleAST struct {
	name        string
	elems       []expr
	left, right *tupleAST
	at          token
}

// pieceAST is one piece: a set tuple (out), a relation (in -> out) or a
// parameter domain, with its condition.
type pieceAST struct {
	in, out   *tupleAST
	paramOnly bool
	cond      formula // nil means true
	at        token
}

// inputAST is a whole input: the declared parameters and the pieces.
type inputAST struct {
	params []string
	pieces []pieceAST
}

// parser reads the syntax tree from the tokens; toks ends with tEOF.
type parser struct {
	toks []token
	i    int
}

// peek returns the next token without consuming it.
func (p *parser) peek() token { return p.toks[p.i] }

// peekAt returns the token k places ahead (the final tEOF past the end).
func (p *parser) peekAt(k int) token {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return p.toks[len(p.toks)-1]
}

// next consumes and returns the next token (tEOF stays).
func (p *parser) next() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

// is reports whether the next token is the punctuation or identifier text.
func (p *parser) is(text string) bool {
	t := p.peek()
	return (t.kind == tPunct || t.kind == tIdent) && t.text == text
}

// accept consumes the next token if it is text, and reports whether it was.
func (p *parser) accept(text string) bool {
	if p.is(text) {
		p.next()
		return true
	}
	return false
}

// errorf returns a syntax error at token t.
func (p *parser) errorf(t token, format string, args ...interface{}) error {
	return p.errorCodef(t, CodeSyntax, format, args...)
}

// errorCodef returns a ParseError of kind code at token t.
func (p *parser) errorCodef(t token, code ErrorCode, format string, args ...interface{}) error {
	return &ParseError{t.line, t.col, fmt.Sprintf(format, args...), code}
}

// expect consumes the token text, or fails naming the token found.
func (p *parser) expect(text string) error {
	if p.accept(text) {
		return nil
	}
	t := p.peek()
	return p.errorf(t, "expected %q, found %s", text, t.describe())
}

// parseInput reads a whole input: "[params] ->", then the braced pieces.
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

// parsePiece reads one piece: a tuple, "tuple -> tuple" or nothing,
// then an optional ": formula".
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

// startsTuple reports whether a tuple starts here: "[" or "Name[".
func (p *parser) startsTuple() bool {
	t := p.peek()
	if t.kind == tPunct && t.text == "[" {
		return true
	}
	return t.kind == tIdent && !keywords[t.text] && p.peekAt(1).kind == tPunct && p.peekAt(1).text == "["
}

// parseTuple reads a tuple: an optional name, then brackets around
// elements or around a nested "tuple -> tuple".
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

// parseFormula reads a formula: disjunctions joined by "implies"
// (right-associative, the loosest connective).
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

// parseOr reads conjunctions joined by "or" or "||".
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

// parseAnd reads negations joined by "and" or "&&".
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

// parseNot reads an atom preceded by any number of "not" or "!".
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

// isRelOp reports whether t is a comparison operator.
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

// parseAtom reads true, false, an existential, a parenthesised formula
// or a comparison chain.
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

// parseChain reads a comparison chain such as "0 <= i, j < N".
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

// parseExprList reads expressions separated by commas.
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

// parseExpr reads terms joined by "+" and "-".
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

// parseTerm reads unary expressions joined by "*", "/", "%" or "mod",
// or by the implicit multiplication of a literal ("2i").
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

// parseUnary reads a primary expression preceded by any number of "-".
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

// parsePrimary reads an integer, an identifier, a call of floor, ceil,
// min or max, or a parenthesised expression.
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
				return nil, p.errorCodef(t, CodeArity, "%s takes one argument", c.fn)
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
