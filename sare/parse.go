package sare

import (
	"fmt"

	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// Parse parses a specification. It always returns a Spec, possibly
// partial, together with every syntax error found: after an error the
// parser resumes at the next line. A source that is not text (a NUL
// byte, invalid UTF-8) gets one error and is not parsed. Names are not resolved here, except
// that each equation is attached to the tensor it defines (an equation for
// an undeclared tensor is an error); Check does the rest.
func Parse(src *syntax.Source) (*Spec, syntax.ErrorList) {
	if err := src.TextError(); err != nil {
		return &Spec{Src: src}, syntax.ErrorList{err}
	}
	p := &parser{Parser: syntax.NewParser(src)}
	spec := p.spec()
	p.Errs.Sort()
	return spec, p.Errs
}

// ParseString parses text named name and returns the errors, if any, as
// one error (a syntax.ErrorList).
func ParseString(name, text string) (*Spec, error) {
	spec, errs := Parse(&syntax.Source{Name: name, Text: text})
	if err := errs.Err(); err != nil {
		return spec, err
	}
	return spec, nil
}

type parser struct {
	*syntax.Parser
	eqs []*Equation // in source order, attached to their tensors at the end
}

func (p *parser) spec() *Spec {
	spec := &Spec{Src: p.Src}
	p.SkipNewlines()
	for !p.At(syntax.EOF) && !p.TooManyErrors() {
		start := p.Tok()
		p.decl(spec)
		if p.Tok() == start {
			// No progress (a stray '}' or similar): drop the token.
			p.Next()
		}
		p.SkipNewlines()
	}
	for _, eq := range p.eqs {
		t := spec.Tensor(eq.Tensor.Name)
		if t == nil {
			p.ErrorCodeAt(eq.Pos(), syntax.CodeUndeclared, "equation for undeclared tensor %s", eq.Tensor.Name)
			continue
		}
		t.Eqs = append(t.Eqs, eq)
	}
	return spec
}

func (p *parser) decl(spec *Spec) {
	t := p.Tok()
	if t.Kind != syntax.Name {
		p.ErrorExpected("a declaration (param, assume, input, tensor, output) or an equation")
		p.SkipLine()
		return
	}
	switch {
	case t.Text == "param" && p.Peek(1).Kind != syntax.LParen:
		p.Next()
		names, ok := p.nameList("parameter name")
		spec.Params = append(spec.Params, names...)
		if !ok {
			return
		}
	case t.Text == "overflow" && p.Peek(1).Kind == syntax.Name:
		p.Next()
		w := p.Tok()
		o, ok := value.ParseOverflow(w.Text)
		if !ok {
			p.ErrorExpected("wraps or unconstrained")
			p.SkipLine()
			return
		}
		p.Next()
		spec.Overflow = o
	case t.Text == "output" && p.Peek(1).Kind != syntax.LParen:
		p.Next()
		names, ok := p.nameList("output tensor name")
		spec.Outputs = append(spec.Outputs, names...)
		if !ok {
			return
		}
	case t.Text == "assume" && p.Peek(1).Kind != syntax.Assign:
		p.Next()
		nerr := len(p.Errs)
		cond := p.ParseExpr()
		if len(p.Errs) > nerr {
			p.SkipLine()
			return
		}
		spec.Assumes = append(spec.Assumes, &Assume{Pos: t.Pos, Cond: cond})
	case (t.Text == "input" || t.Text == "tensor") && p.Peek(1).Kind == syntax.Name:
		p.Next()
		if d := p.tensorDecl(t); d != nil {
			spec.Tensors = append(spec.Tensors, d)
		}
		return
	case p.Peek(1).Kind == syntax.LParen:
		p.equation()
		return
	default:
		p.ErrorExpected("a declaration (param, assume, input, tensor, output) or an equation")
		p.SkipLine()
		return
	}
	p.EndLine()
}

// nameList parses name {, name}. After an error it skips the rest of the
// line and returns false.
func (p *parser) nameList(what string) ([]*syntax.Ident, bool) {
	var names []*syntax.Ident
	for {
		var id *syntax.Ident
		if t := p.Tok(); t.Kind == syntax.Name && keywords[t.Text] {
			// Most likely a declaration after a trailing comma.
			p.ErrorExpected(what)
		} else {
			id = p.ExpectName(what)
		}
		if id == nil {
			p.SkipLine()
			return names, false
		}
		names = append(names, id)
		if !p.Got(syntax.Comma) {
			return names, true
		}
	}
}

// vars parses ( name {, name} ) after the opening parenthesis is current.
func (p *parser) vars(what string) ([]*syntax.Ident, bool) {
	if !p.Expect(syntax.LParen) {
		return nil, false
	}
	if p.Got(syntax.RParen) {
		return []*syntax.Ident{}, true
	}
	var vars []*syntax.Ident
	for {
		t := p.Tok()
		if t.Kind != syntax.Name || syntax.IsReserved(t.Text) || p.Peek(1).Kind != syntax.Comma && p.Peek(1).Kind != syntax.RParen {
			p.ErrorAt(t.Pos, "expected %s (a variable name), found %s", what, p.describeArg())
			return nil, false
		}
		p.Next()
		vars = append(vars, &syntax.Ident{NamePos: t.Pos, Name: t.Text})
		if p.Got(syntax.RParen) {
			return vars, true
		}
		if !p.Expect(syntax.Comma) {
			return nil, false
		}
	}
}

// describeArg renders the current argument for an error message: the
// expression if it parses, else the token.
func (p *parser) describeArg() string {
	t := p.Tok()
	if t.Kind == syntax.Name || t.Kind == syntax.Int || t.Kind == syntax.Minus {
		return fmt.Sprintf("an expression starting with %s", t.Describe())
	}
	return t.Describe()
}

// tensorName parses the name of a tensor; `where` cannot be one, since
// it may start the continuation line of an equation.
func (p *parser) tensorName() *syntax.Ident {
	if p.AtKeyword("where") {
		p.ErrorCodeAt(p.Tok().Pos, syntax.CodeReserved, "where is a keyword and cannot name a tensor")
		return nil
	}
	return p.ExpectName("tensor name")
}

func (p *parser) tensorDecl(kw syntax.Token[syntax.Kind]) *Tensor {
	name := p.tensorName()
	if name == nil {
		p.SkipLine()
		return nil
	}
	vars, ok := p.vars("a dimension name")
	if !ok {
		p.SkipLine()
		return nil
	}
	if !p.Expect(syntax.Colon) {
		p.SkipLine()
		return nil
	}
	typ, typPos := p.ParseType()
	if typ == syntax.Invalid {
		p.SkipLine()
		return nil
	}
	p.EndLine()
	return &Tensor{Pos: kw.Pos, Input: kw.Text == "input", Name: name, Vars: vars, Type: typ, TypePos: typPos}
}

func (p *parser) equation() {
	name := p.tensorName()
	if name == nil {
		p.SkipLine()
		return
	}
	vars, ok := p.vars("an equation variable")
	if !ok {
		p.SkipLine()
		return
	}
	if !p.Expect(syntax.Assign) {
		p.SkipLine()
		return
	}
	nerr := len(p.Errs)
	eq := &Equation{Tensor: name, Vars: vars}
	if p.atReduce() {
		eq.Reduce, eq.RHS = p.reduction()
	} else {
		eq.RHS = p.ParseExpr()
	}
	if len(p.Errs) > nerr {
		p.SkipLine()
		return
	}
	// `where` may start a continuation line.
	if p.At(syntax.Newline) && p.Peek(1).Kind == syntax.Name && p.Peek(1).Text == "where" {
		p.Next()
	}
	if p.AtKeyword("where") {
		eq.WherePos = p.Next().Pos
		eq.Where = p.ParseExpr()
		if len(p.Errs) > nerr {
			p.SkipLine()
			return
		}
	}
	p.eqs = append(p.eqs, eq)
	p.EndLine()
}
