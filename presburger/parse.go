package presburger

import (
	"context"
	"fmt"
)

// This file reads isl notation, such as
//
//	[N] -> { A[i, j] -> B[i + j] : 0 <= i < N and exists (e = floor(j/4): j = 4e) }
//
// in three stages: the lexer (parse_lexer.go) splits the source into
// tokens, the parser (parse_parser.go) builds a syntax tree, and the
// builder (parse_builder.go) evaluates the tree into Maps. parseAll runs
// the three.
//
// Grammar (informally): an optional parameter list "[p, ...] ->", then
// braces around pieces separated by ";". A piece is a tuple, or two tuples
// joined by "->", or nothing (a parameter domain "{ : N > 0 }"), followed
// by an optional ": formula". Tuples may be named, anonymous ("[i]") and
// nested ("[A[i] -> B[j]]"); an element that is a fresh identifier names a
// dimension, any other expression adds an equality. Formulas combine
// comparison chains ("0 <= i, j < N", "=", "!=", "<", "<=", ">", ">=") with
// and/or/not/implies (also &&, ||, !), true, false, parentheses and
// "exists (e, f = expr: formula)", or without its parentheses
// "exists e, f = expr: formula", whose formula then extends as far to the
// right as possible, as in isl. Expressions are quasi-affine: integer
// constants, identifiers, +, -, multiplication by a constant ("2i", "2*i",
// "2(i + 1)"), floor(e/c), ceil(e/c), "e mod c", "e % c", min(...) and
// max(...). An identifier that is neither a dimension, an existential nor
// a declared parameter is an error (as in isl): a misspelt name must not
// silently become a parameter.

// ParseError describes malformed input, with the 1-based line and column of
// the offending token and the kind of the error: CodeSyntax, CodeUndeclared
// (a name that is neither a dimension, an existential nor a parameter),
// CodeNotAffine (an expression outside the quasi-affine language),
// CodeArity (floor or ceil of several arguments) or CodeRange (a division
// or modulo by zero); empty for a failure of the operations that build the
// set (a budget run out).
type ParseError struct {
	Line, Col int
	Msg       string
	Code      ErrorCode
}

// ErrorCode identifies the kind of a ParseError independently of its
// wording; the zero ErrorCode is "no code". Each is spelt as the code of
// Augur's input languages (syntax.Code) for the same kind of error.
type ErrorCode string

// The kinds of a ParseError.
const (
	// CodeSyntax: the text does not follow the grammar.
	CodeSyntax ErrorCode = "syntax"
	// CodeUndeclared: a name that is neither a dimension, an existential
	// nor a declared parameter.
	CodeUndeclared ErrorCode = "undeclared"
	// CodeNotAffine: an expression outside the quasi-affine language (a
	// product of variables, a division by a non-constant).
	CodeNotAffine ErrorCode = "not-affine"
	// CodeArity: floor or ceil of several arguments.
	CodeArity ErrorCode = "arity"
	// CodeRange: a division or modulo by zero.
	CodeRange ErrorCode = "range"
)

// Error returns "line:col: message".
func (e *ParseError) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
}

// parseAll lexes, parses and evaluates src, converting any internal panic
// into an error.
func parseAll(ctx context.Context, src string) (ms []*Map, params []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			ms, err = nil, fmt.Errorf("presburger: internal error while parsing: %v", r)
		}
	}()
	toks, err := lex(src)
	if err != nil {
		return nil, nil, err
	}
	p := &parser{toks: toks}
	in, err := p.parseInput()
	if err != nil {
		return nil, nil, err
	}
	ms, err = evalInput(ctx, in)
	if err != nil {
		return nil, nil, err
	}
	return ms, in.params, nil
}

// ParseUnionMapContext parses a union of sets and/or relations in isl
// notation. Negations (not, implies) are computed exactly with ctx's
// budget.
func ParseUnionMapContext(ctx context.Context, src string) (*UnionMap, error) {
	ms, _, err := parseAll(ctx, src)
	if err != nil {
		return nil, err
	}
	return NewUnionMap(ms...), nil
}

// ParseUnionMap parses a union of sets and/or relations in isl notation,
// e.g. "{ A[i] -> B[i + 1] : i >= 0; C[] -> D[] }", with the default budget.
func ParseUnionMap(src string) (*UnionMap, error) {
	return ParseUnionMapContext(context.Background(), src)
}

// ParseUnionSet parses a union of sets; it fails if a piece is a relation.
func ParseUnionSet(src string) (*UnionMap, error) {
	u, err := ParseUnionMap(src)
	if err != nil {
		return nil, err
	}
	for _, m := range u.Maps() {
		if !m.space.IsSet() {
			return nil, fmt.Errorf("presburger: %s is a relation, not a set", m.space)
		}
	}
	return u, nil
}

// ParseMapContext parses a relation (or set) whose pieces all live in one
// space; see ParseUnionMapContext.
func ParseMapContext(ctx context.Context, src string) (*Map, error) {
	ms, params, err := parseAll(ctx, src)
	if err != nil {
		return nil, err
	}
	if len(ms) == 0 {
		return Empty(ParamSpace(params)), nil
	}
	r := ms[0]
	for _, m := range ms[1:] {
		if !m.sameShape(r) {
			return nil, fmt.Errorf("presburger: pieces in different spaces %s and %s; use ParseUnionMap", r.space, m.space)
		}
		if r, err = r.Union(m); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// ParseMap parses a relation (or set) whose pieces all live in one space,
// e.g. "[N] -> { A[i] -> B[j] : j = i + 1 and 0 <= i < N }". An input
// without pieces ("{ }") gives the empty parameter domain.
func ParseMap(src string) (*Map, error) { return ParseMapContext(context.Background(), src) }

// ParseSet parses a set (or parameter domain) whose pieces all live in one
// space, e.g. "{ S[i, j] : 0 <= i <= j < 10 }".
func ParseSet(src string) (*Map, error) {
	m, err := ParseMap(src)
	if err != nil {
		return nil, err
	}
	if !m.space.IsSet() {
		return nil, fmt.Errorf("presburger: %s is a relation, not a set", m.space)
	}
	return m, nil
}
