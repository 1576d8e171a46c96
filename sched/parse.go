package sched

import (
	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
)

// maxNesting bounds the nesting of statements so that hostile input cannot
// exhaust the stack.
const maxNesting = 200

// Parse parses a kernel. It always returns a Kernel (possibly partial) so
// that tools can show what was understood; the kernel is well-formed only
// when the error list is empty. After an error the parser resumes at the
// next statement or line, so every independent error is reported. A
// source that is not text (a NUL byte, invalid UTF-8) gets one error and
// is not parsed.
func Parse(src *syntax.Source) (*Kernel, syntax.ErrorList) {
	if err := src.TextError(); err != nil {
		return &Kernel{Src: src}, syntax.ErrorList{err}
	}
	p := &parser{Parser: syntax.NewParser(src)}
	k := p.kernel()
	k.Src = src
	errs := p.Errs
	errs.Sort()
	return k, errs
}

// ParseString parses text as a kernel named name; it is meant for tests
// and programmatic use.
func ParseString(name, text string) (*Kernel, error) {
	k, errs := Parse(&syntax.Source{Name: name, Text: text})
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return k, nil
}

type parser struct {
	*syntax.Parser
	nesting int
}

// mark returns the number of errors so far; failedSince reports whether
// any was recorded after the mark.
func (p *parser) mark() int { return len(p.Errs) }

func (p *parser) failedSince(m int) bool { return len(p.Errs) > m }

// name parses a declared name: not a reserved word of either language.
func (p *parser) name(what string) *syntax.Ident {
	t := p.Tok()
	if t.Kind == syntax.Name && IsKeyword(t.Text) {
		p.ErrorExpected(what)
		return nil
	}
	return p.ExpectName(what)
}

func (p *parser) kernel() *Kernel {
	k := &Kernel{}
	p.SkipNewlines()
	m := p.mark()
	k.KernelPos = p.Tok().Pos
	if p.ExpectKeyword("kernel") {
		k.Name = p.name("kernel name")
		if k.Name != nil && p.Expect(syntax.LParen) {
			k.Params = p.nameList(syntax.RParen, "parameter name")
		}
	}
	switch {
	case p.failedSince(m):
		p.SkipLine()
	case p.At(syntax.LBrace):
		// A kernel without declarations may open its body on this line.
	default:
		p.EndLine()
	}
	if k.Name == nil {
		k.Name = &syntax.Ident{NamePos: k.KernelPos, Name: "_"}
	}
	for !p.TooManyErrors() {
		p.SkipNewlines()
		t := p.Tok()
		switch {
		case t.Kind == syntax.EOF:
			p.ErrorExpected("the kernel body '{'")
			return k
		case t.Kind == syntax.LBrace:
			k.Body = p.block()
			p.SkipNewlines()
			if !p.At(syntax.EOF) {
				p.ErrorExpected("end of file after the kernel body")
			}
			return k
		case p.AtKeyword("assume"):
			p.Next()
			m := p.mark()
			k.Assumes = append(k.Assumes, &Assume{AssumePos: t.Pos, Cond: p.ParseExpr()})
			p.endDecl(m)
		case p.AtKeyword("in") || p.AtKeyword("out"):
			if b := p.binding(); b != nil {
				k.Bindings = append(k.Bindings, b)
			}
		default:
			p.ErrorExpected("'assume', 'in', 'out' or the kernel body '{'")
			if p.At(syntax.RBrace) {
				p.Next()
			}
			p.SkipLine()
		}
	}
	return k
}

// endDecl ends a declaration or simple statement: after an error in it,
// skip the rest of the line; otherwise expect the end of the line.
func (p *parser) endDecl(m int) {
	if p.failedSince(m) {
		p.SkipLine()
		return
	}
	p.EndLine()
}

// nameList parses comma-separated names up to close, which it consumes.
func (p *parser) nameList(close syntax.Kind, what string) []*syntax.Ident {
	list := []*syntax.Ident{}
	if p.Got(close) {
		return list
	}
	for {
		id := p.name(what)
		if id == nil {
			return list
		}
		list = append(list, id)
		if p.Got(syntax.Comma) {
			continue
		}
		p.Expect(close)
		return list
	}
}

// binding parses `in|out name[vars] : type[extents] = T(...) [where c]`.
func (p *parser) binding() *Binding {
	t := p.Next()
	b := &Binding{DirPos: t.Pos, Dir: In}
	if t.Text == "out" {
		b.Dir = Out
	}
	m := p.mark()
	defer p.endDecl(m)
	if b.Array = p.name("array name"); b.Array == nil {
		return nil
	}
	if !p.Expect(syntax.LBrack) {
		return nil
	}
	b.Vars = p.nameList(syntax.RBrack, "index variable")
	if p.failedSince(m) || !p.Expect(syntax.Colon) {
		return nil
	}
	var ok bool
	if b.Elem, b.ElemPos, b.Extents, ok = p.shape(); !ok {
		return nil
	}
	if !p.Expect(syntax.Assign) {
		return nil
	}
	start := p.Tok()
	x := p.ParseExpr()
	if p.failedSince(m) {
		return nil
	}
	call, isCall := x.(*syntax.Call)
	if !isCall {
		p.ErrorAt(start.Pos, "expected a tensor access T(...), found %s", syntax.ExprString(x))
		return nil
	}
	b.Tensor = call
	if p.GotKeyword("where") {
		b.Where = p.ParseExpr()
		if p.failedSince(m) {
			return nil
		}
	}
	return b
}

// shape parses `type[extents]`.
func (p *parser) shape() (syntax.Type, syntax.Pos, []syntax.Expr, bool) {
	m := p.mark()
	ty, pos := p.ParseType()
	if ty == syntax.Invalid || !p.Expect(syntax.LBrack) {
		return ty, pos, nil, false
	}
	ext := p.ParseExprList(syntax.RBrack)
	if ext == nil {
		ext = []syntax.Expr{}
	}
	return ty, pos, ext, !p.failedSince(m)
}

// block parses `{ statements }`. The current token must be '{'.
func (p *parser) block() *Block {
	b := &Block{Lbrace: p.Tok().Pos, Stmts: []Stmt{}}
	if !p.Expect(syntax.LBrace) {
		return b
	}
	p.nesting++
	defer func() { p.nesting-- }()
	if p.nesting > maxNesting {
		p.ErrorAt(b.Lbrace, "statements nested too deeply")
		p.skipToClose()
		b.Rbrace = p.Tok().Pos
		p.Got(syntax.RBrace)
		return b
	}
	for {
		p.SkipNewlines()
		t := p.Tok()
		switch t.Kind {
		case syntax.RBrace:
			b.Rbrace = t.Pos
			p.Next()
			return b
		case syntax.EOF:
			p.ErrorExpected("'}'")
			b.Rbrace = t.Pos
			return b
		}
		if p.TooManyErrors() {
			p.skipToClose()
			continue
		}
		if s := p.stmt(); s != nil {
			b.Stmts = append(b.Stmts, s)
		}
	}
}

// skipToClose skips to the '}' closing the current block (left
// unconsumed) or the end of the file.
func (p *parser) skipToClose() {
	depth := 0
	for {
		switch p.Tok().Kind {
		case syntax.EOF:
			return
		case syntax.LBrace:
			depth++
		case syntax.RBrace:
			if depth == 0 {
				return
			}
			depth--
		}
		p.Next()
	}
}

// stmt parses one statement and its terminator. It returns nil after an
// error that left nothing usable.
func (p *parser) stmt() Stmt {
	t := p.Tok()
	m := p.mark()
	if t.Kind == syntax.LBrace {
		b := p.block()
		p.endDecl(m)
		return b
	}
	if t.Kind != syntax.Name {
		p.ErrorExpected("a statement")
		p.SkipLine()
		return nil
	}
	switch t.Text {
	case "skip":
		p.Next()
		p.endDecl(m)
		return &Skip{SkipPos: t.Pos}
	case "let":
		p.Next()
		s := &Let{LetPos: t.Pos}
		if s.Var = p.name("variable name"); s.Var != nil && p.Expect(syntax.Assign) {
			s.Value = p.ParseExpr()
		}
		p.endDecl(m)
		if s.Var == nil || s.Value == nil || p.failedSince(m) {
			return nil
		}
		return s
	case "if":
		s := p.ifStmt()
		p.endStmt()
		if s == nil {
			return nil
		}
		return s
	case "alloc":
		s := p.alloc()
		p.endStmt()
		if s == nil {
			return nil
		}
		return s
	case "for", "par":
		s := p.loop()
		p.endStmt()
		if s == nil {
			return nil
		}
		return s
	case "else":
		p.ErrorAt(t.Pos, "'else' without a matching 'if'")
		p.Next()
		p.recoverHeader()
		return nil
	}
	if IsKeyword(t.Text) || syntax.IsReserved(t.Text) {
		p.ErrorExpected("a statement")
		p.SkipLine()
		return nil
	}
	s := p.assign()
	p.endDecl(m)
	if p.failedSince(m) {
		return nil
	}
	return s
}

// endStmt ends a compound statement: its own errors have been recovered
// from inside it, so only the terminator is checked.
func (p *parser) endStmt() {
	switch p.Tok().Kind {
	case syntax.Newline, syntax.Semi:
		p.Next()
	case syntax.RBrace, syntax.EOF:
	default:
		p.ErrorExpected("end of line")
		p.SkipLine()
	}
}

// recoverHeader is the recovery after an error in the header of a
// compound statement: it skips to the '{' opening the body on the same
// line, so that the body is still parsed and its own errors reported.
// It reports whether a '{' was found.
func (p *parser) recoverHeader() bool {
	for {
		switch p.Tok().Kind {
		case syntax.LBrace:
			return true
		case syntax.Newline, syntax.Semi, syntax.RBrace, syntax.EOF:
			return false
		}
		p.Next()
	}
}

// body parses the block of a compound statement after its header. After
// an error in the header it skips to the '{' on the same line, if any.
func (p *parser) body(m int) *Block {
	if p.failedSince(m) {
		if !p.recoverHeader() {
			return nil
		}
	} else if !p.At(syntax.LBrace) {
		p.ErrorExpected("'{'")
		if !p.recoverHeader() {
			return nil
		}
	}
	return p.block()
}

func (p *parser) assign() Stmt {
	s := &Assign{}
	s.Array = p.name("array name")
	if s.Array == nil || !p.Expect(syntax.LBrack) {
		return nil
	}
	s.Indices = p.ParseExprList(syntax.RBrack)
	if s.Indices == nil {
		s.Indices = []syntax.Expr{}
	}
	if !p.At(syntax.LBrace) {
		p.ErrorExpected("the annotation '{'")
		return nil
	}
	p.Next()
	p.skipNewlineTokens()
	s.Annot = p.ParseExpr()
	p.skipNewlineTokens()
	if p.At(syntax.At) {
		s.AtPos = p.Next().Pos
		if p.Got(syntax.LParen) {
			s.At = p.ParseExprList(syntax.RParen)
			if s.At == nil {
				s.At = []syntax.Expr{}
			}
		} else {
			s.At = []syntax.Expr{p.ParseExpr()}
		}
		p.skipNewlineTokens()
	}
	if !p.Expect(syntax.RBrace) {
		return nil
	}
	if op, ok := expr.ReduceOpAt(p.Tok(), p.Peek(1), syntax.Assign); ok {
		s.Op, s.OpPos = op, p.Next().Pos
		p.Next()
	} else if !p.Expect(syntax.Define) {
		return nil
	}
	s.Value = p.ParseExpr()
	return s
}

// skipNewlineTokens skips line breaks (not ';') inside an annotation.
func (p *parser) skipNewlineTokens() {
	for p.At(syntax.Newline) {
		p.Next()
	}
}

func (p *parser) ifStmt() *If {
	s := &If{IfPos: p.Next().Pos}
	m := p.mark()
	s.Cond = p.ParseExpr()
	s.Then = p.body(m)
	if s.Then == nil {
		return nil
	}
	// 'else' may follow '}' on the same or the next line.
	if p.At(syntax.Newline) && p.Peek(1).Kind == syntax.Name && p.Peek(1).Text == "else" {
		p.Next()
	}
	if !p.GotKeyword("else") {
		return s
	}
	if p.AtKeyword("if") {
		p.nesting++
		defer func() { p.nesting-- }()
		if p.nesting > maxNesting {
			p.ErrorAt(p.Tok().Pos, "statements nested too deeply")
			p.SkipLine()
			return s
		}
		if elif := p.ifStmt(); elif != nil {
			s.Else = elif
		}
		return s
	}
	m = p.mark()
	if els := p.body(m); els != nil {
		s.Else = els
	}
	return s
}

func (p *parser) alloc() *Alloc {
	s := &Alloc{AllocPos: p.Next().Pos}
	m := p.mark()
	if s.Array = p.name("array name"); s.Array != nil && p.Expect(syntax.Colon) {
		s.Elem, s.ElemPos, s.Extents, _ = p.shape()
	}
	s.Body = p.body(m)
	if s.Body == nil || s.Array == nil || s.Extents == nil {
		return nil
	}
	return s
}

func (p *parser) loop() *Loop {
	kw := p.Next()
	s := &Loop{KwPos: kw.Pos, Par: kw.Text == "par"}
	m := p.mark()
	if s.Var = p.name("loop variable"); s.Var != nil {
		switch {
		case p.Got(syntax.Lt):
			s.Hi = p.ParseExpr()
		case p.GotKeyword("in"):
			s.Lo = p.ParseExpr()
			if p.Expect(syntax.DotDot) {
				s.Hi = p.ParseExpr()
			}
		default:
			p.ErrorExpected("'<' or 'in'")
		}
	}
	s.Body = p.body(m)
	if s.Body == nil || s.Var == nil || s.Hi == nil {
		return nil
	}
	return s
}
