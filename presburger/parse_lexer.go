package presburger

import (
	"fmt"
	"strings"
)

// This file is the lexer of isl notation (the grammar is in parse.go): it
// turns the source into identifiers, integers and punctuation, each with
// its 1-based line and column, skipping blanks and "#" comments.

// tokKind is the kind of a token.
type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tPunct
)

// token is one token of the source, at a 1-based line and column.
type token struct {
	kind      tokKind
	text      string
	line, col int
}

// describe names the token in an error message.
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

// puncts lists the punctuation tokens, each before its own prefixes.
var puncts = [...]string{"->", "<=", ">=", "!=", "==", "&&", "||", "[", "]", "{", "}", "(", ")", ",", ";", ":", "+", "-", "*", "/", "%", "=", "<", ">", "!"}

// lexer is the position of the lexer in its source.
type lexer struct {
	src       string
	i         int // offset of the next byte
	line, col int // position of the next byte
}

// advance moves n bytes forward, keeping track of lines and columns.
func (lx *lexer) advance(n int) {
	for k := 0; k < n; k++ {
		if lx.src[lx.i] == '\n' {
			lx.line++
			lx.col = 1
		} else {
			lx.col++
		}
		lx.i++
	}
}

// take returns the token of kind k made of the next n bytes and moves
// past them.
func (lx *lexer) take(k tokKind, n int) token {
	t := token{k, lx.src[lx.i : lx.i+n], lx.line, lx.col}
	lx.advance(n)
	return t
}

// lex splits src into tokens, ending with a tEOF token. A character that
// starts no token is an error at its position.
func lex(src string) ([]token, error) {
	var toks []token
	lx := &lexer{src: src, line: 1, col: 1}
	for lx.i < len(src) {
		c := src[lx.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			lx.advance(1)
		case c == '#':
			for lx.i < len(src) && src[lx.i] != '\n' {
				lx.advance(1)
			}
		case c >= '0' && c <= '9':
			j := lx.i
			for j < len(src) && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			toks = append(toks, lx.take(tInt, j-lx.i))
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := lx.i
			for j < len(src) && isIdentByte(src[j]) {
				j++
			}
			toks = append(toks, lx.take(tIdent, j-lx.i))
		default:
			p := punctAt(src[lx.i:])
			if p == "" {
				return nil, &ParseError{lx.line, lx.col, fmt.Sprintf("unexpected character %q", rune(c)), CodeSyntax}
			}
			toks = append(toks, lx.take(tPunct, len(p)))
		}
	}
	toks = append(toks, token{tEOF, "", lx.line, lx.col})
	return toks, nil
}

// isIdentByte reports whether d may continue an identifier.
func isIdentByte(d byte) bool {
	return d == '_' || d == '\'' || d == '$' || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d >= '0' && d <= '9'
}

// punctAt returns the punctuation token at the start of s, or "".
func punctAt(s string) string {
	for _, p := range puncts {
		if strings.HasPrefix(s, p) {
			return p
		}
	}
	return ""
}
