package iscc

import (
	"fmt"
	"strings"

	"github.com/augur-verify/augur/syntax"
)

// This file splits a script into statements and a statement into tokens.
// Literal sets and relations are single tokens: their text is handed to
// the isl-notation parser of package presburger when evaluated.

type tokKind int

const (
	tEOF     tokKind = iota
	tIdent           // a name or a keyword
	tInt             // a decimal integer (only after ^-)
	tLiteral         // "{ ... }" or "[params] -> { ... }"
	tOp              // punctuation and operators
)

type token = syntax.Token[tokKind]

// Describe renders a token of kind k for "found ..." in error messages.
func (k tokKind) Describe(text string) string {
	switch k {
	case tEOF:
		return "end of statement"
	case tIdent:
		return fmt.Sprintf("name %q", text)
	case tInt:
		return fmt.Sprintf("integer %s", text)
	case tLiteral:
		return "a literal set or relation"
	}
	return fmt.Sprintf("%q", text)
}

// operators lists the punctuation tokens, longest first.
var operators = [...]string{":=", "<=", ">=", "(", ")", ";", "+", "-", "*", ".", "=", "<", ">", "^"}

// advance returns the position reached from p after reading s.
func advance(p syntax.Pos, s string) syntax.Pos {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			p.Line++
			p.Col = 1
		} else {
			p.Col++
		}
	}
	return p
}

// stmtEnd returns the index just past the first ";" of text[from:] that is
// not inside braces or a comment, and whether there is one: only the braces
// of a literal can hold a ";" (between the pieces of a union), so an
// unclosed parenthesis or bracket does not run into the next statement.
// Closing braces without an opening one are ignored.
func stmtEnd(text string, from int) (int, bool) {
	depth := 0
	for i := from; i < len(text); i++ {
		switch c := text[i]; c {
		case '#':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case ';':
			if depth == 0 {
				return i + 1, true
			}
		}
	}
	return len(text), false
}

// isBlank reports whether s holds only white space and comments.
func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// lexer reads the tokens of text[off:end], one statement of src.
type lexer struct {
	src  *syntax.Source
	text string
	off  int
	end  int
	pos  syntax.Pos
}

func (l *lexer) errorf(pos syntax.Pos, format string, args ...any) *Error {
	return newError(l.src, pos, nil, format, args...)
}

// move advances the lexer by n bytes.
func (l *lexer) move(n int) {
	l.pos = advance(l.pos, l.text[l.off:l.off+n])
	l.off += n
}

// skip passes white space and comments.
func (l *lexer) skip() {
	for l.off < l.end {
		c := l.text[l.off]
		switch {
		case c == '#':
			n := strings.IndexByte(l.text[l.off:l.end], '\n')
			if n < 0 {
				n = l.end - l.off
			}
			l.move(n)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			l.move(1)
		default:
			return
		}
	}
}

// all returns the tokens of the statement, ending with tEOF.
func (l *lexer) all() ([]token, *Error) {
	var toks []token
	for {
		t, err := l.next()
		if err != nil {
			return nil, err
		}
		toks = append(toks, t)
		if t.Kind == tEOF {
			return toks, nil
		}
	}
}

func (l *lexer) next() (token, *Error) {
	l.skip()
	start, pos := l.off, l.pos
	if l.off >= l.end {
		return token{Kind: tEOF, Pos: pos}, nil
	}
	c := l.text[l.off]
	switch {
	case isLetter(c):
		n := 1
		for l.off+n < l.end && (isLetter(l.text[l.off+n]) || isDigit(l.text[l.off+n]) || l.text[l.off+n] == '\'') {
			n++
		}
		l.move(n)
		return token{Kind: tIdent, Text: l.text[start:l.off], Pos: pos}, nil
	case isDigit(c):
		n := 1
		for l.off+n < l.end && isDigit(l.text[l.off+n]) {
			n++
		}
		l.move(n)
		return token{Kind: tInt, Text: l.text[start:l.off], Pos: pos}, nil
	case c == '{' || c == '[':
		if err := l.literal(); err != nil {
			return token{}, err
		}
		return token{Kind: tLiteral, Text: l.text[start:l.off], Pos: pos}, nil
	}
	for _, op := range operators {
		if strings.HasPrefix(l.text[l.off:l.end], op) {
			l.move(len(op))
			return token{Kind: tOp, Text: op, Pos: pos}, nil
		}
	}
	return token{}, l.errorf(pos, "unexpected character %q", rune(c))
}

// literal reads "{ ... }" or "[ ... ] -> { ... }" starting at the current
// offset.
func (l *lexer) literal() *Error {
	if l.text[l.off] == '[' {
		open := l.pos
		if !l.balanced('[', ']') {
			return l.errorf(open, "unterminated parameter list: missing ]")
		}
		l.skip()
		if !strings.HasPrefix(l.text[l.off:l.end], "->") {
			return l.errorf(l.pos, "expected -> after the parameter list of a literal")
		}
		l.move(2)
		l.skip()
		if l.off >= l.end || l.text[l.off] != '{' {
			return l.errorf(l.pos, "expected { after [params] ->")
		}
	}
	open := l.pos
	if !l.balanced('{', '}') {
		return l.errorf(open, "unterminated literal: missing }")
	}
	return nil
}

// balanced moves past the bracket that opens at the current offset and
// its matching close, skipping comments, and reports whether the close was
// found before the end of the statement.
func (l *lexer) balanced(open, close byte) bool {
	depth := 0
	for l.off < l.end {
		c := l.text[l.off]
		switch c {
		case '#':
			l.skip()
			continue
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				l.move(1)
				return true
			}
		}
		l.move(1)
	}
	return false
}
