package iscc

import (
	"github.com/augur-verify/augur/syntax"
)

// This file parses statements. The grammar, in iscc's precedence:
//
//	stmt    = [ name ":=" ] expr ";" | ";"
//	expr    = unary { binop unary }                 (left-associative)
//	binop   = "+" | "-" | "*" | "." | "=" | "<=" | "<" | ">=" | ">"
//	unary   = prefix unary | postfix
//	prefix  = "dom" | "domain" | "ran" | "range" | "lexmin" | "lexmax"
//	        | "coalesce" | "is_empty" | "is_single_valued"
//	postfix = primary { "^" "-1" | "(" expr ")" }
//	primary = literal | name | "(" expr ")"

// prefixOps maps every prefix keyword to the operator it denotes.
var prefixOps = map[string]string{
	"dom":              "dom",
	"domain":           "dom",
	"ran":              "ran",
	"range":            "ran",
	"lexmin":           "lexmin",
	"lexmax":           "lexmax",
	"coalesce":         "coalesce",
	"is_empty":         "is_empty",
	"is_single_valued": "is_single_valued",
}

var binaryOps = map[string]bool{
	"+": true, "-": true, "*": true, ".": true,
	"=": true, "<=": true, "<": true, ">=": true, ">": true,
}

// maxDepth bounds the nesting of expressions so that hostile input cannot
// exhaust the stack.
const maxDepth = 500

type parser struct {
	src   *syntax.Source
	toks  []token
	i     int
	depth int
}

// bailout carries a parse error up the recursion; parseStmt recovers it.
type bailout struct{ err *Error }

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

func (p *parser) is(op string) bool {
	t := p.peek()
	return t.Kind == tOp && t.Text == op
}

func (p *parser) fail(pos syntax.Pos, format string, args ...any) {
	panic(bailout{newError(p.src, pos, nil, format, args...)})
}

func (p *parser) expect(op string) token {
	t := p.peek()
	if t.Kind != tOp || t.Text != op {
		p.fail(t.Pos, "expected %q, found %s", op, t.Describe())
	}
	return p.next()
}

// parseStmt parses the statement text[off:end] of src, which starts at
// position pos. It returns nil and no error for an empty statement.
func parseStmt(src *syntax.Source, off, end int, pos syntax.Pos) (stmt *Stmt, err *Error) {
	lx := &lexer{src: src, text: src.Text, off: off, end: end, pos: pos}
	toks, err := lx.all()
	if err != nil {
		return nil, err
	}
	p := &parser{src: src, toks: toks}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				b.err = newError(src, pos, nil, "internal error while parsing: %v", r)
			}
			stmt, err = nil, b.err
		}
	}()
	return p.stmt(), nil
}

func (p *parser) stmt() *Stmt {
	first := p.peek()
	if p.is(";") {
		p.next()
		p.end()
		return nil
	}
	s := &Stmt{Pos: first.Pos}
	if first.Kind == tIdent && p.toks[p.i+1].Kind == tOp && p.toks[p.i+1].Text == ":=" {
		if _, kw := prefixOps[first.Text]; kw {
			p.fail(first.Pos, "cannot assign to the keyword %s", first.Text)
		}
		s.Name = first.Text
		p.next()
		p.next()
	}
	s.X = p.expr()
	p.expect(";")
	p.end()
	return s
}

// end checks that nothing follows the statement's ";".
func (p *parser) end() {
	if t := p.peek(); t.Kind != tEOF {
		p.fail(t.Pos, "unexpected %s after \";\"", t.Describe())
	}
}

func (p *parser) enter(pos syntax.Pos) {
	p.depth++
	if p.depth > maxDepth {
		p.fail(pos, "expression nested too deeply")
	}
}

func (p *parser) leave() { p.depth-- }

func (p *parser) expr() Expr {
	p.enter(p.peek().Pos)
	defer p.leave()
	x := p.unary()
	for {
		t := p.peek()
		if t.Kind != tOp || !binaryOps[t.Text] {
			return x
		}
		p.next()
		x = &Binary{At: t.Pos, Op: t.Text, X: x, Y: p.unary()}
	}
}

func (p *parser) unary() Expr {
	t := p.peek()
	if t.Kind == tIdent {
		if op, ok := prefixOps[t.Text]; ok {
			p.enter(t.Pos)
			defer p.leave()
			p.next()
			return &Unary{At: t.Pos, Op: op, X: p.unary()}
		}
	}
	return p.postfix()
}

func (p *parser) postfix() Expr {
	x := p.primary()
	for {
		t := p.peek()
		switch {
		case t.Kind == tOp && t.Text == "^":
			p.next()
			if n := p.peek(); n.Kind == tOp && n.Text == "+" {
				p.fail(n.Pos, "transitive closure (^+) is not supported")
			}
			if n := p.next(); n.Kind != tOp || n.Text != "-" {
				p.fail(n.Pos, "expected -1 after ^, found %s", n.Describe())
			}
			if n := p.next(); n.Kind != tInt || n.Text != "1" {
				p.fail(n.Pos, "expected -1 after ^, found -%s", n.Describe())
			}
			x = &Inverse{At: t.Pos, X: x}
		case t.Kind == tOp && t.Text == "(":
			p.next()
			arg := p.expr()
			p.expect(")")
			x = &Apply{At: t.Pos, F: x, Arg: arg}
		default:
			return x
		}
	}
}

func (p *parser) primary() Expr {
	t := p.next()
	switch t.Kind {
	case tLiteral:
		return &Literal{At: t.Pos, Text: t.Text}
	case tIdent:
		return &Name{At: t.Pos, Name: t.Text}
	case tOp:
		if t.Text == "(" {
			x := p.expr()
			p.expect(")")
			return &Paren{At: t.Pos, X: x}
		}
	}
	p.fail(t.Pos, "expected a set, a relation or a name, found %s", t.Describe())
	return nil
}

// Parse parses every statement of src. It returns the statements that
// parsed (empty statements are dropped) and one error per malformed
// statement; parsing resumes after the ";" that ends a malformed
// statement. Literals are only delimited here: their contents are parsed
// (and their errors reported) when they are evaluated.
func Parse(src *syntax.Source) ([]*Stmt, syntax.ErrorList) {
	var (
		stmts []*Stmt
		errs  syntax.ErrorList
	)
	off, pos := 0, syntax.Pos{Line: 1, Col: 1}
	for off < len(src.Text) {
		end, _ := stmtEnd(src.Text, off)
		if isBlank(src.Text[off:end]) {
			break
		}
		s, err := parseStmt(src, off, end, pos)
		switch {
		case err != nil:
			errs = append(errs, err.Diag)
		case s != nil:
			stmts = append(stmts, s)
		}
		pos = advance(pos, src.Text[off:end])
		off = end
	}
	return stmts, errs
}
