package atl

import (
	"github.com/augur-verify/augur/syntax"
)

// tokKind is the kind of a token.
type tokKind int

const (
	tEOF tokKind = iota
	tName
	tInt
	tFloat
	tPunct
	tIllegal
)

// token is one lexical token; for tPunct, Text is the operator.
type token = syntax.Token[tokKind]

// Describe renders a token of kind k for "found ..." in error messages.
func (k tokKind) Describe(text string) string {
	switch k {
	case tEOF:
		return "end of file"
	case tIllegal:
		return "illegal character " + quote(text)
	}
	return quote(text)
}

func quote(s string) string { return "'" + s + "'" }

// keywords may not name parameters, tensors or variables.
var keywords = map[string]bool{
	"param": true, "assume": true, "input": true, "def": true, "schedule": true,
	"gen": true, "sum": true, "guard": true, "let": true, "in": true,
	"wide": true, "genrec": true, "and": true, "or": true, "not": true,
	"true": true, "false": true, "flatten": true, "split": true,
	"transpose": true, "truncl": true, "truncr": true, "padl": true, "padr": true,
	"trunc_l": true, "trunc_r": true, "pad_l": true, "pad_r": true,
}

// puncts lists the operators, longest first where one is a prefix of
// another.
var puncts = []string{"++", "+=", "//", "<=", ">=", "==", "!=", "&&", "||",
	"(", ")", "[", "]", ",", ";", "=", "+", "-", "*", "/", "%", "<", ">", "!"}

// lex splits src into tokens; '#' starts a comment that runs to the end
// of the line. Illegal characters become tIllegal tokens, reported by
// the parser.
func lex(src string) []token {
	var toks []token
	line, col := 1, 1
	i := 0
	advance := func(n int) {
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
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			advance(1)
			continue
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				advance(1)
			}
			continue
		}
		at := syntax.Pos{Line: line, Col: col}
		start := i
		switch {
		case isLetter(c):
			j := i
			for j < len(src) && (isLetter(src[j]) || isDigit(src[j])) {
				j++
			}
			toks = append(toks, token{Kind: tName, Text: src[i:j], Pos: at})
			advance(j - i)
			continue
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			j, kind := scanNumber(src, i)
			toks = append(toks, token{Kind: kind, Text: src[start:j], Pos: at})
			advance(j - i)
			continue
		}
		matched := false
		for _, p := range puncts {
			if len(src)-i >= len(p) && src[i:i+len(p)] == p {
				toks = append(toks, token{Kind: tPunct, Text: p, Pos: at})
				advance(len(p))
				matched = true
				break
			}
		}
		if !matched {
			n := 1
			for n < 4 && i+n < len(src) && src[i+n]&0xC0 == 0x80 {
				n++ // keep a multi-byte character whole
			}
			toks = append(toks, token{Kind: tIllegal, Text: src[i : i+n], Pos: at})
			advance(n)
		}
	}
	return append(toks, token{Kind: tEOF, Text: "", Pos: syntax.Pos{Line: line, Col: col}})
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// scanNumber scans an integer (123) or a float (1.5, 1., .5, 1e-3,
// 2.5e3) starting at i.
func scanNumber(src string, i int) (int, tokKind) {
	j := i
	kind := tInt
	for j < len(src) && isDigit(src[j]) {
		j++
	}
	if j < len(src) && src[j] == '.' {
		kind = tFloat
		j++
		for j < len(src) && isDigit(src[j]) {
			j++
		}
	}
	if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
		k := j + 1
		if k < len(src) && (src[k] == '+' || src[k] == '-') {
			k++
		}
		if k < len(src) && isDigit(src[k]) {
			for k < len(src) && isDigit(src[k]) {
				k++
			}
			j, kind = k, tFloat
		}
	}
	return j, kind
}
