package rink

import (
	"fmt"

	"github.com/augur-verify/augur/syntax"
)

// tokKind is the kind of a token.
type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tPunct // one of : [ ] ( ) = + - * / # . ^
	tIllegal
)

// token is a lexeme with its position.
type token = syntax.Token[tokKind]

// Describe names a token of kind k for "expected X, found Y" messages.
func (k tokKind) Describe(text string) string {
	switch k {
	case tEOF:
		return "end of file"
	case tIdent:
		return fmt.Sprintf("name %s", text)
	case tInt:
		return fmt.Sprintf("integer %s", text)
	}
	return fmt.Sprintf("'%s'", text)
}

// lex splits the source into tokens, ending with tEOF. Blanks and
// newlines only separate tokens; "//" starts a comment that runs to the
// end of the line ('#' is the outer product, so it cannot start one).
func lex(src *syntax.Source, r *syntax.Reporter) []token {
	var toks []token
	text := src.Text
	line, col := 1, 1
	for i := 0; i < len(text); {
		c := text[i]
		pos := syntax.Pos{Line: line, Col: col}
		n := 1
		switch {
		case c == '\n':
			line++
			col = 1
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
		case c == '/' && i+1 < len(text) && text[i+1] == '/':
			for n = 0; i+n < len(text) && text[i+n] != '\n'; n++ {
			}
		case isLetter(c):
			for i+n < len(text) && (isLetter(text[i+n]) || isDigit(text[i+n])) {
				n++
			}
			toks = append(toks, token{Kind: tIdent, Text: text[i : i+n], Pos: pos})
		case isDigit(c):
			for i+n < len(text) && isDigit(text[i+n]) {
				n++
			}
			toks = append(toks, token{Kind: tInt, Text: text[i : i+n], Pos: pos})
		case c < 0x80 && containsByte(":[]()=+-*/#.^", c):
			toks = append(toks, token{Kind: tPunct, Text: text[i : i+1], Pos: pos})
		default:
			// One whole UTF-8 sequence, so the message shows the character.
			for i+n < len(text) && text[i+n]&0xC0 == 0x80 {
				n++
			}
			r.ErrorCodef(pos, syntax.CodeSyntax, "unexpected character %q", text[i:i+n])
			toks = append(toks, token{Kind: tIllegal, Text: text[i : i+n], Pos: pos})
		}
		i += n
		col += n
	}
	return append(toks, token{Kind: tEOF, Text: "", Pos: syntax.Pos{Line: line, Col: col}})
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}
