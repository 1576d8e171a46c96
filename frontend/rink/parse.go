package rink

import (
	"strconv"

	"github.com/augur-verify/augur/syntax"
)

// MaxExtent bounds the extents of declarations, so that every padded
// extent and every flattened size the back ends compute stays far from
// overflow.
const MaxExtent = 1 << 30

// Parse parses a program. It always returns a Program, possibly partial,
// with every syntax error found (each with its position, what was
// expected and what was found): after an error the parser resumes at the
// next declaration or statement.
//
// Operators have no precedence and associate to the left, as the paper
// prescribes (Section 3.1): A + B * C is (A + B) * C.
func Parse(src *syntax.Source) (*Program, syntax.ErrorList) {
	r := &syntax.Reporter{Src: src}
	p := &parser{toks: lex(src, r), r: r}
	prog := p.program(src)
	r.Errs.Sort()
	return prog, r.Errs
}

type parser struct {
	toks  []token
	i     int
	depth int // nesting of parentheses
	r     *syntax.Reporter
}

// maxDepth bounds the nesting of parentheses, so that hostile input
// cannot exhaust the stack.
const maxDepth = 1000

func (p *parser) tok() token { return p.toks[p.i] }

func (p *parser) peek() token {
	if p.i+1 < len(p.toks) {
		return p.toks[p.i+1]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() {
	if p.i < len(p.toks)-1 {
		p.i++
	}
}

func (p *parser) is(punct string) bool {
	t := p.tok()
	return t.Kind == tPunct && t.Text == punct
}

// errSyntax reports that what was expected is not what was found.
type errSyntax struct{}

// expected records "expected what, found ..." at the current token and
// aborts the current declaration or statement.
func (p *parser) expected(what string) {
	t := p.tok()
	if t.Kind != tIllegal { // the lexer has reported it already
		p.r.ErrorCodef(t.Pos, syntax.CodeSyntax, "expected %s, found %s", what, t.Describe())
	}
	panic(errSyntax{})
}

func (p *parser) want(punct string) syntax.Pos {
	if !p.is(punct) {
		p.expected("'" + punct + "'")
	}
	pos := p.tok().Pos
	p.next()
	return pos
}

func (p *parser) program(src *syntax.Source) *Program {
	prog := &Program{Src: src}
	seenStmt := false
	for p.tok().Kind != tEOF && len(p.r.Errs) <= syntax.MaxErrors {
		start := p.i
		p.item(prog, &seenStmt)
		if p.i == start {
			p.next()
		}
	}
	return prog
}

// item parses one declaration or statement; on a syntax error it skips to
// the start of the next one.
func (p *parser) item(prog *Program, seenStmt *bool) {
	start := p.i
	defer func() {
		if e := recover(); e != nil {
			if _, ok := e.(errSyntax); !ok {
				panic(e)
			}
			p.sync(start)
		}
	}()
	t := p.tok()
	switch {
	case t.Kind == tIdent && t.Text == "var":
		d := p.decl()
		if *seenStmt {
			p.r.ErrorCodef(d.Pos, syntax.CodeSyntax, "declaration of %s after a statement: declarations come first", d.Name.Name)
		}
		prog.Decls = append(prog.Decls, d)
	case t.Kind == tIdent:
		*seenStmt = true
		prog.Stmts = append(prog.Stmts, p.stmt())
	default:
		p.expected("a declaration (var) or a statement (x = ...)")
	}
}

// sync skips to the next token after start that can begin a declaration
// or a statement: "var", or a name followed by '='.
func (p *parser) sync(start int) {
	for p.tok().Kind != tEOF && (p.i <= start || !p.atItem()) {
		p.next()
	}
}

// atItem reports whether the current token begins a declaration or a
// statement.
func (p *parser) atItem() bool {
	t := p.tok()
	if t.Kind != tIdent {
		return false
	}
	n := p.peek()
	return t.Text == "var" || n.Kind == tPunct && n.Text == "="
}

func (p *parser) decl() *Decl {
	d := &Decl{Pos: p.tok().Pos}
	p.next() // var
	if t := p.tok(); t.Kind == tIdent && t.Text == "input" && p.peek().Kind == tIdent {
		d.Input = true
		p.next()
	}
	d.Name = p.ident("a variable name")
	p.want(":")
	p.want("[")
	for p.tok().Kind == tInt {
		t := p.tok()
		n, err := strconv.ParseInt(t.Text, 10, 64)
		switch {
		case err != nil || n > MaxExtent:
			p.r.ErrorCodef(t.Pos, syntax.CodeRange, "extent %s is too large (at most %d)", t.Text, MaxExtent)
			n = 1
		case n == 0:
			p.r.ErrorCodef(t.Pos, syntax.CodeRange, "extent 0: extents are positive")
			n = 1
		}
		d.Extents = append(d.Extents, n)
		d.ExtentPos = append(d.ExtentPos, t.Pos)
		p.next()
	}
	if !p.is("]") {
		p.expected("an extent or ']'")
	}
	p.next()
	return d
}

func (p *parser) ident(what string) Ident {
	t := p.tok()
	if t.Kind != tIdent || t.Text == "var" {
		p.expected(what)
	}
	p.next()
	return Ident{Name: t.Text, Pos: t.Pos}
}

func (p *parser) stmt() *Stmt {
	s := &Stmt{LHS: p.ident("a variable name")}
	p.want("=")
	s.RHS = p.expr()
	return s
}

// expr parses primary { operator }, left to right.
func (p *parser) expr() Expr {
	x := p.primary()
	for {
		t := p.tok()
		if t.Kind != tPunct {
			return x
		}
		switch t.Text {
		case "+", "-", "*", "/":
			p.next()
			x = &Binary{Op: t.Text[0], OpPos: t.Pos, X: x, Y: p.primary()}
		case "#":
			p.next()
			x = &Product{OpPos: t.Pos, X: x, Y: p.primary()}
		case ".", "^":
			p.next()
			m, mpos, n, npos := p.pair()
			if t.Text == "." {
				x = &Contract{OpPos: t.Pos, X: x, M: m, N: n, MPos: mpos, NPos: npos}
			} else {
				x = &Transpose{OpPos: t.Pos, X: x, M: m, N: n, MPos: mpos, NPos: npos}
			}
		default:
			return x
		}
	}
}

func (p *parser) primary() Expr {
	t := p.tok()
	if p.atItem() && t.Text != "var" && p.i > 0 && p.toks[p.i-1].Kind == tPunct && p.toks[p.i-1].Text != "=" {
		// "A = B +" followed by the next statement.
		p.r.ErrorCodef(t.Pos, syntax.CodeSyntax, "expected an operand after '%s', found the statement %s = ...", p.toks[p.i-1].Text, t.Text)
		panic(errSyntax{})
	}
	switch {
	case t.Kind == tIdent && t.Text != "var":
		p.next()
		return &VarRef{Ident{Name: t.Text, Pos: t.Pos}}
	case t.Kind == tPunct && t.Text == "(":
		if p.depth >= maxDepth {
			p.r.ErrorCodef(t.Pos, syntax.CodeSyntax, "parentheses nested deeper than %d", maxDepth)
			panic(errSyntax{})
		}
		p.depth++
		defer func() { p.depth-- }()
		p.next()
		x := p.expr()
		p.want(")")
		return &Paren{Lparen: t.Pos, X: x}
	}
	p.expected("a variable or '('")
	return nil
}

// pair parses "[m n]", two dimension numbers.
func (p *parser) pair() (m int, mpos syntax.Pos, n int, npos syntax.Pos) {
	p.want("[")
	m, mpos = p.dim()
	n, npos = p.dim()
	p.want("]")
	return
}

func (p *parser) dim() (int, syntax.Pos) {
	t := p.tok()
	if t.Kind != tInt {
		p.expected("a dimension number")
	}
	p.next()
	n, err := strconv.Atoi(t.Text)
	if err != nil || n > 1<<20 {
		p.r.ErrorCodef(t.Pos, syntax.CodeRange, "dimension %s is too large", t.Text)
		return 1 << 20, t.Pos
	}
	return n, t.Pos
}
