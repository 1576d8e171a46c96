package syntax

import "fmt"

// maxDepth bounds the nesting of expressions so hostile input cannot
// exhaust the stack.
const maxDepth = 500

// Parser is the token-level machinery shared by the parsers of both
// languages, and the parser of expressions. Errors are collected in the
// embedded Reporter; after an error the parser resynchronises at the next
// line, so one run reports every independent problem.
type Parser struct {
	Reporter
	toks  []Token[Kind]
	i     int
	depth int
	// lastErr is the position of the last error, so that a cascade of
	// errors at one spot is reported once.
	lastErr Pos
}

// NewParser lexes src and returns a parser positioned at its first token.
func NewParser(src *Source) *Parser {
	p := &Parser{Reporter: Reporter{Src: src}}
	p.toks = Lex(src, &p.Reporter)
	return p
}

// Tok is the current token.
func (p *Parser) Tok() Token[Kind] { return p.toks[p.i] }

// Peek returns the token n positions after the current one (Peek(0) is
// Tok()), or EOF past the end.
func (p *Parser) Peek(n int) Token[Kind] {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

// PeekPastNewlines returns the first token from the current one that is
// not a newline.
func (p *Parser) PeekPastNewlines() Token[Kind] {
	for j := p.i; j < len(p.toks); j++ {
		if p.toks[j].Kind != Newline {
			return p.toks[j]
		}
	}
	return p.toks[len(p.toks)-1]
}

// Next consumes and returns the current token; at EOF it stays there.
func (p *Parser) Next() Token[Kind] {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

// At reports whether the current token has kind k.
func (p *Parser) At(k Kind) bool { return p.toks[p.i].Kind == k }

// AtKeyword reports whether the current token is the word w.
func (p *Parser) AtKeyword(w string) bool {
	t := p.toks[p.i]
	return t.Kind == Name && t.Text == w
}

// Got consumes the current token if it has kind k.
func (p *Parser) Got(k Kind) bool {
	if p.At(k) {
		p.Next()
		return true
	}
	return false
}

// GotKeyword consumes the current token if it is the word w.
func (p *Parser) GotKeyword(w string) bool {
	if p.AtKeyword(w) {
		p.Next()
		return true
	}
	return false
}

// Failed reports whether any error has been recorded.
func (p *Parser) Failed() bool { return len(p.Errs) > 0 }

// TooManyErrors reports whether the parser should give up.
func (p *Parser) TooManyErrors() bool { return len(p.Errs) >= MaxErrors }

// ErrorAt records a syntax error (code CodeSyntax) at pos, once per position.
func (p *Parser) ErrorAt(pos Pos, format string, args ...any) {
	p.ErrorCodeAt(pos, CodeSyntax, format, args...)
}

// ErrorCodeAt records an error of kind code at pos, once per position.
func (p *Parser) ErrorCodeAt(pos Pos, code Code, format string, args ...any) {
	if pos == p.lastErr && len(p.Errs) > 0 {
		return
	}
	p.lastErr = pos
	p.ErrorCodef(pos, code, format, args...)
}

// ErrorExpected records "expected what, found <current token>".
func (p *Parser) ErrorExpected(what string) {
	t := p.Tok()
	if t.Kind == Illegal {
		return // the lexer has reported the character already
	}
	p.ErrorAt(t.Pos, "expected %s, found %s", what, t.Describe())
}

// Expect consumes a token of kind k, or records an error naming what was
// expected and returns false without consuming.
func (p *Parser) Expect(k Kind) bool {
	if p.Got(k) {
		return true
	}
	p.ErrorExpected("'" + k.String() + "'")
	return false
}

// ExpectKeyword consumes the word w or records an error.
func (p *Parser) ExpectKeyword(w string) bool {
	if p.GotKeyword(w) {
		return true
	}
	p.ErrorExpected("'" + w + "'")
	return false
}

// ExpectName consumes a name that is not a reserved word, or records an
// error mentioning what the name is for, and returns nil.
func (p *Parser) ExpectName(what string) *Ident {
	t := p.Tok()
	if t.Kind == Name && !IsReserved(t.Text) {
		p.Next()
		return &Ident{NamePos: t.Pos, Name: t.Text}
	}
	p.ErrorExpected(what)
	return nil
}

// SkipNewlines consumes newline and ';' tokens.
func (p *Parser) SkipNewlines() {
	for p.At(Newline) || p.At(Semi) {
		p.Next()
	}
}

// EndLine expects the end of a declaration or statement: a newline, a ';',
// a '}' (left unconsumed) or the end of the file. On anything else it
// records an error and skips to the end of the line.
func (p *Parser) EndLine() {
	switch p.Tok().Kind {
	case Newline, Semi:
		p.Next()
	case RBrace, EOF:
	default:
		p.ErrorExpected("end of line")
		p.SkipLine()
	}
}

// SkipLine skips tokens up to and including the next newline or ';',
// stopping before '{', '}' and EOF so that block structure survives an
// error. It is the parsers' error recovery.
func (p *Parser) SkipLine() {
	for {
		switch p.Tok().Kind {
		case EOF, RBrace:
			return
		case LBrace:
			// Skip a whole nested block: its contents belong to the
			// broken construct.
			p.skipBlock()
		case Newline, Semi:
			p.Next()
			return
		default:
			p.Next()
		}
	}
}

func (p *Parser) skipBlock() {
	depth := 0
	for {
		switch p.Tok().Kind {
		case EOF:
			return
		case LBrace:
			depth++
		case RBrace:
			depth--
			if depth == 0 {
				p.Next()
				return
			}
		}
		p.Next()
	}
}

// reserved words cannot name parameters, tensors, arrays or variables.
// "_" is reserved too: it names the placeholder expression left by a
// syntax error, so a successful parse never contains it.
var reserved = map[string]bool{
	"and": true, "or": true, "not": true, "true": true, "false": true, "_": true,
}

// IsReserved reports whether w is a word of the expression language that
// cannot be used as a name.
func IsReserved(w string) bool { return reserved[w] }

// ParseType parses a scalar type name.
func (p *Parser) ParseType() (Type, Pos) {
	t := p.Tok()
	if t.Kind == Name {
		if ty := TypeByName(t.Text); ty != Invalid {
			p.Next()
			return ty, t.Pos
		}
	}
	p.ErrorExpected("a type (bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64)")
	return Invalid, t.Pos
}

// ParseExpr parses an expression. On a syntax error it records the error
// and returns a non-nil placeholder (an Ident named "_") so callers can go
// on; callers check Failed.
func (p *Parser) ParseExpr() Expr {
	return p.binary(1)
}

// ParseExprList parses a comma-separated list of expressions up to the
// closing token close, which it consumes. An empty list is allowed.
func (p *Parser) ParseExprList(close Kind) []Expr {
	var list []Expr
	if p.Got(close) {
		return list
	}
	for {
		list = append(list, p.ParseExpr())
		if p.Got(Comma) {
			continue
		}
		if !p.Expect(close) {
			// Skip to the closing token on this line if there is one.
			for !p.At(close) && !p.At(Newline) && !p.At(EOF) && !p.At(RBrace) && !p.At(LBrace) {
				p.Next()
			}
			p.Got(close)
		}
		return list
	}
}

// binaryOp returns the binary operator of the current token, if any.
func (p *Parser) binaryOp() (Op, bool) {
	t := p.Tok()
	switch t.Kind {
	case Name:
		switch t.Text {
		case "or":
			return OpOr, true
		case "and":
			return OpAnd, true
		}
	case OrOr:
		return OpOr, true
	case AndAnd:
		return OpAnd, true
	case Eq:
		return OpEq, true
	case Ne:
		return OpNe, true
	case Lt:
		return OpLt, true
	case Le:
		return OpLe, true
	case Gt:
		return OpGt, true
	case Ge:
		return OpGe, true
	case Plus:
		return OpAdd, true
	case Minus:
		return OpSub, true
	case Pipe:
		return OpBitOr, true
	case Caret:
		return OpBitXor, true
	case Star:
		return OpMul, true
	case Slash:
		return OpDiv, true
	case Percent:
		return OpRem, true
	case Shl:
		return OpShl, true
	case Shr:
		return OpShr, true
	case Amp:
		return OpBitAnd, true
	}
	return OpNone, false
}

// binary parses operators of precedence prec and tighter. Precedence 3 is
// the prefix `not`; 4, the comparisons, which may form a chain.
func (p *Parser) binary(prec int) Expr {
	if prec == 3 {
		return p.not()
	}
	if prec > 6 {
		return p.unary()
	}
	x := p.binary(prec + 1)
	if prec == 4 {
		return p.comparison(x)
	}
	for {
		op, ok := p.binaryOp()
		if !ok || op.Precedence() != prec {
			return x
		}
		p.Next()
		y := p.binary(prec + 1)
		x = &Binary{X: x, Op: op, Y: y}
	}
}

func (p *Parser) comparison(x Expr) Expr {
	var ops []Op
	operands := []Expr{x}
	for {
		op, ok := p.binaryOp()
		if !ok || !op.IsComparison() {
			break
		}
		p.Next()
		ops = append(ops, op)
		operands = append(operands, p.binary(5))
	}
	switch len(ops) {
	case 0:
		return x
	case 1:
		return &Binary{X: operands[0], Op: ops[0], Y: operands[1]}
	}
	return &Chain{Operands: operands, Ops: ops}
}

// nested parses one level of nesting with f, or reports an error and
// returns a placeholder when the nesting is too deep.
func (p *Parser) nested(pos Pos, f func() Expr) Expr {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		p.ErrorAt(p.Tok().Pos, "expression nested too deeply")
		return p.bad(pos)
	}
	return f()
}

func (p *Parser) not() Expr {
	t := p.Tok()
	if t.Kind == Bang || (t.Kind == Name && t.Text == "not") {
		return p.nested(t.Pos, func() Expr {
			p.Next()
			return &Unary{OpPos: t.Pos, Op: OpNot, X: p.not()}
		})
	}
	return p.binary(4)
}

func (p *Parser) unary() Expr {
	t := p.Tok()
	var op Op
	switch t.Kind {
	case Minus:
		op = OpNeg
	case Tilde:
		op = OpBitNot
	default:
		return p.primary()
	}
	return p.nested(t.Pos, func() Expr {
		p.Next()
		return &Unary{OpPos: t.Pos, Op: op, X: p.unary()}
	})
}

// bad returns the placeholder expression used after a syntax error.
func (p *Parser) bad(pos Pos) Expr { return &Ident{NamePos: pos, Name: "_"} }

func (p *Parser) primary() Expr {
	t := p.Tok()
	switch t.Kind {
	case Int:
		p.Next()
		return &Lit{ValuePos: t.Pos, Kind: IntLiteral, Text: t.Text}
	case Float:
		p.Next()
		return &Lit{ValuePos: t.Pos, Kind: FloatLiteral, Text: t.Text}
	case Name:
		switch t.Text {
		case "true", "false":
			p.Next()
			return &Lit{ValuePos: t.Pos, Kind: BoolLiteral, Text: t.Text}
		}
		if IsReserved(t.Text) {
			p.ErrorExpected("an expression")
			return p.bad(t.Pos)
		}
		p.Next()
		id := &Ident{NamePos: t.Pos, Name: t.Text}
		switch p.Tok().Kind {
		case LParen:
			return p.nested(t.Pos, func() Expr {
				p.Next()
				return &Call{Fun: id, Args: p.ParseExprList(RParen)}
			})
		case LBrack:
			return p.nested(t.Pos, func() Expr {
				p.Next()
				return &Index{Array: id, Indices: p.ParseExprList(RBrack)}
			})
		}
		return id
	case LParen:
		return p.nested(t.Pos, func() Expr {
			p.Next()
			x := p.ParseExpr()
			p.Expect(RParen)
			return x
		})
	}
	p.ErrorExpected("an expression")
	return p.bad(t.Pos)
}

// ParseExprString parses text as one whole expression; it is meant for
// tests and programmatic construction.
func ParseExprString(text string) (Expr, error) {
	p := NewParser(&Source{Name: "expr", Text: text})
	x := p.ParseExpr()
	p.SkipNewlines()
	if !p.At(EOF) {
		p.ErrorExpected("end of expression")
	}
	if err := p.Errs.Err(); err != nil {
		return nil, fmt.Errorf("parse expression %q: %w", text, err)
	}
	return x, nil
}
