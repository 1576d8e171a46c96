package syntax

import "strings"

// Lex splits src into tokens, ending with EOF. Newline tokens are emitted
// where a newline ends a declaration or statement: not inside ( ) or [ ],
// not after a binary operator, a comma or the keywords and/or/not, and
// never two in a row. Comments run from # to the end of the line. Lexical
// errors are recorded in r and the offending characters become Illegal
// tokens.
func Lex(src *Source, r *Reporter) []Token[Kind] {
	lx := lexer{text: src.Text, line: 1, col: 1, r: r}
	return lx.run()
}

type lexer struct {
	text      string
	off       int
	line, col int
	depth     int // nesting of ( and [
	toks      []Token[Kind]
	r         *Reporter
}

func (lx *lexer) pos() Pos { return Pos{Line: lx.line, Col: lx.col} }

func (lx *lexer) advance(n int) {
	for i := 0; i < n && lx.off < len(lx.text); i++ {
		if lx.text[lx.off] == '\n' {
			lx.line++
			lx.col = 1
		} else {
			lx.col++
		}
		lx.off++
	}
}

func (lx *lexer) emit(k Kind, text string, p Pos) {
	lx.toks = append(lx.toks, Token[Kind]{Kind: k, Text: text, Pos: p})
}

// lastContinues reports whether the previous token lets the expression
// continue on the next line.
func (lx *lexer) lastContinues() bool {
	if len(lx.toks) == 0 {
		return true // leading newlines are dropped
	}
	t := lx.toks[len(lx.toks)-1]
	if t.Kind == Newline || t.Kind.continues() {
		return true
	}
	if t.Kind == Name {
		switch t.Text {
		case "and", "or", "not":
			return true
		}
	}
	return false
}

var punct = []struct {
	text string
	kind Kind
}{
	// Longest first.
	{":=", Define}, {"..", DotDot}, {"==", Eq}, {"!=", Ne}, {"<=", Le}, {">=", Ge},
	{"<<", Shl}, {">>", Shr}, {"&&", AndAnd}, {"||", OrOr},
	{"(", LParen}, {")", RParen}, {"[", LBrack}, {"]", RBrack}, {"{", LBrace}, {"}", RBrace},
	{",", Comma}, {";", Semi}, {":", Colon}, {"=", Assign}, {"<", Lt}, {">", Gt},
	{"+", Plus}, {"-", Minus}, {"*", Star}, {"/", Slash}, {"%", Percent}, {"&", Amp},
	{"|", Pipe}, {"^", Caret}, {"~", Tilde}, {"!", Bang}, {"@", At},
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isHex(c byte) bool    { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func (lx *lexer) run() []Token[Kind] {
	for lx.off < len(lx.text) {
		c := lx.text[lx.off]
		p := lx.pos()
		switch {
		case c == '\n':
			if lx.depth == 0 && !lx.lastContinues() {
				lx.emit(Newline, "\n", p)
			}
			lx.advance(1)
		case c == ' ' || c == '\t' || c == '\r':
			lx.advance(1)
		case c == '#':
			for lx.off < len(lx.text) && lx.text[lx.off] != '\n' {
				lx.advance(1)
			}
		case isLetter(c):
			end := lx.off
			for end < len(lx.text) && (isLetter(lx.text[end]) || isDigit(lx.text[end])) {
				end++
			}
			lx.emit(Name, lx.text[lx.off:end], p)
			lx.advance(end - lx.off)
		case isDigit(c) || c == '.' && lx.off+1 < len(lx.text) && isDigit(lx.text[lx.off+1]):
			lx.number(p)
		default:
			matched := false
			for _, pu := range punct {
				if strings.HasPrefix(lx.text[lx.off:], pu.text) {
					switch pu.kind {
					case LParen, LBrack:
						lx.depth++
					case RParen, RBrack:
						if lx.depth > 0 {
							lx.depth--
						}
					case LBrace, RBrace:
						// Braces open statement blocks, where newlines matter
						// again; unbalanced brackets before one are an error
						// the parser reports, so reset the nesting here.
						lx.depth = 0
					}
					lx.emit(pu.kind, pu.text, p)
					lx.advance(len(pu.text))
					matched = true
					break
				}
			}
			if !matched {
				// Consume one whole UTF-8 sequence so the message shows it.
				n := 1
				for lx.off+n < len(lx.text) && lx.text[lx.off+n]&0xC0 == 0x80 {
					n++
				}
				text := lx.text[lx.off : lx.off+n]
				lx.r.ErrorCodef(p, CodeSyntax, "unexpected character %q", text)
				lx.emit(Illegal, text, p)
				lx.advance(n)
			}
		}
	}
	if lx.depth == 0 && !lx.lastContinues() {
		lx.emit(Newline, "\n", lx.pos())
	}
	lx.emit(EOF, "", lx.pos())
	return lx.toks
}

// number scans a decimal or hexadecimal integer or a float literal
// (1.0, 1., .5, 1e-3). A '.' followed by another '.' is the range operator,
// not a decimal point.
func (lx *lexer) number(p Pos) {
	t := lx.text
	i := lx.off
	if t[i] == '0' && i+1 < len(t) && (t[i+1] == 'x' || t[i+1] == 'X') {
		j := i + 2
		for j < len(t) && isHex(t[j]) {
			j++
		}
		if j == i+2 {
			lx.r.ErrorCodef(p, CodeSyntax, "hexadecimal literal has no digits")
		}
		lx.emit(Int, t[i:j], p)
		lx.advance(j - i)
		return
	}
	j := i
	for j < len(t) && isDigit(t[j]) {
		j++
	}
	kind := Int
	if j < len(t) && t[j] == '.' && !(j+1 < len(t) && t[j+1] == '.') {
		kind = Float
		j++
		for j < len(t) && isDigit(t[j]) {
			j++
		}
	}
	if j < len(t) && (t[j] == 'e' || t[j] == 'E') {
		k := j + 1
		if k < len(t) && (t[k] == '+' || t[k] == '-') {
			k++
		}
		if k < len(t) && isDigit(t[k]) {
			for k < len(t) && isDigit(t[k]) {
				k++
			}
			kind = Float
			j = k
		}
	}
	if j < len(t) && (isLetter(t[j])) {
		// 2i is not a number followed by an identifier in these languages.
		k := j
		for k < len(t) && (isLetter(t[k]) || isDigit(t[k])) {
			k++
		}
		lx.r.ErrorCodef(p, CodeSyntax, "malformed number %q (write a multiplication as 2 * i)", t[i:k])
		lx.emit(Illegal, t[i:k], p)
		lx.advance(k - i)
		return
	}
	lx.emit(kind, t[i:j], p)
	lx.advance(j - i)
}
