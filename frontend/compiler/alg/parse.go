package alg

import (
	"strconv"
	"strings"

	"github.com/augur-verify/augur/syntax"
)

// Parse parses an algorithm. It always returns a Program, possibly partial,
// with every syntax error found; after an error the parser resumes at the
// next line. Names are resolved by Check.
//
// The shared lexer has no '.' token, so the dots of r.k and of schedule
// chains (F.split(...).parallel(...)) are rewritten before lexing into
// characters of the same width (columns are preserved) and remembered; the
// parser turns them back into dotted names.
func Parse(src *syntax.Source) (*Program, syntax.ErrorList) {
	text, dots := hideDots(src.Text)
	p := &parser{Parser: syntax.NewParser(&syntax.Source{Name: src.Name, Text: text}), dots: dots}
	p.Src = src // errors show the original line
	prog := p.program()
	prog.Src = src
	p.Errs.Sort()
	return prog, p.Errs
}

// ParseString parses text named name and returns its errors as one error.
func ParseString(name, text string) (*Program, error) {
	prog, errs := Parse(&syntax.Source{Name: name, Text: text})
	return prog, errs.Err()
}

// hideDots replaces each '.' that joins a name (or a closing parenthesis)
// to a following name by '_' (after a name) or ' ' (after ')'), and returns
// the positions of the replaced dots.
func hideDots(text string) (string, map[syntax.Pos]bool) {
	b := []byte(text)
	dots := map[syntax.Pos]bool{}
	line, col := 1, 1
	inComment := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '\n':
			inComment = false
		case c == '#':
			inComment = true
		case c == '.' && !inComment && i > 0 && i+1 < len(b) && isLetter(b[i+1]):
			prev := b[i-1]
			if prev == ')' {
				b[i] = ' '
				dots[syntax.Pos{Line: line, Col: col}] = true
			} else if isLetter(prev) || isDigit(prev) {
				j := i - 1
				for j > 0 && (isLetter(b[j-1]) || isDigit(b[j-1])) {
					j--
				}
				if isLetter(b[j]) {
					b[i] = '_'
					dots[syntax.Pos{Line: line, Col: col}] = true
				}
			}
		}
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return string(b), dots
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

type parser struct {
	*syntax.Parser
	dots   map[syntax.Pos]bool
	prog   *Program
	chains int // schedule lines read so far
}

// split returns the parts of a name token separated by hidden dots.
func (p *parser) split(t syntax.Token[syntax.Kind]) []string {
	var parts []string
	start := 0
	for j := 0; j < len(t.Text); j++ {
		if p.dots[syntax.Pos{Line: t.Pos.Line, Col: t.Pos.Col + j}] {
			parts = append(parts, t.Text[start:j])
			start = j + 1
		}
	}
	return append(parts, t.Text[start:])
}

// undot restores the dotted names inside x, reporting names with more than
// one dot.
func (p *parser) undot(x syntax.Expr) {
	syntax.Inspect(x, func(e syntax.Expr) bool {
		switch e := e.(type) {
		case *syntax.Ident:
			p.fixIdent(e)
		case *syntax.Call:
			p.plainName(e.Fun, "function or func name")
		case *syntax.Index:
			p.plainName(e.Array, "array name")
		}
		return true
	})
}

func (p *parser) fixIdent(id *syntax.Ident) {
	parts := p.split(syntax.Token[syntax.Kind]{Text: id.Name, Pos: id.NamePos})
	switch len(parts) {
	case 1:
	case 2:
		id.Name = parts[0] + "." + parts[1]
	default:
		p.ErrorAt(id.NamePos, "malformed RDom variable %s (write r.k)", strings.Join(parts, "."))
	}
}

// plainName reports a dotted name where none is allowed.
func (p *parser) plainName(id *syntax.Ident, what string) bool {
	if id == nil {
		return false
	}
	if parts := p.split(syntax.Token[syntax.Kind]{Text: id.Name, Pos: id.NamePos}); len(parts) > 1 {
		p.ErrorAt(id.NamePos, "unexpected '.' in %s %s", what, strings.Join(parts, "."))
		return false
	}
	return true
}

func (p *parser) expr() syntax.Expr {
	x := p.ParseExpr()
	p.undot(x)
	return x
}

func (p *parser) name(what string) *syntax.Ident {
	if t := p.Tok(); t.Kind == syntax.Name && keywords[t.Text] {
		p.ErrorExpected(what)
		return nil
	}
	id := p.ExpectName(what)
	if id != nil && !p.plainName(id, what) {
		return nil
	}
	return id
}

var keywords = map[string]bool{
	"param": true, "assume": true, "input": true, "func": true, "rdom": true,
	"output": true, "over": true, "in": true, "where": true, "schedule": true,
}

func (p *parser) program() *Program {
	p.prog = &Program{}
	p.SkipNewlines()
	for !p.At(syntax.EOF) && !p.TooManyErrors() {
		start := p.Tok()
		p.decl()
		if p.Tok() == start {
			p.Next()
		}
		p.SkipNewlines()
	}
	return p.prog
}

const declWords = "a declaration (param, assume, input, func, rdom, output, schedule) or an update definition"

func (p *parser) add(d Decl) { p.prog.Decls = append(p.prog.Decls, d) }

func (p *parser) decl() {
	t := p.Tok()
	if t.Kind != syntax.Name {
		p.ErrorExpected(declWords)
		p.SkipLine()
		return
	}
	next := p.Peek(1).Kind
	switch {
	case t.Text == "param" && next == syntax.Name:
		p.Next()
		d := &ParamDecl{Pos: t.Pos}
		for {
			id := p.name("parameter name")
			if id == nil {
				p.SkipLine()
				break
			}
			d.Names = append(d.Names, id)
			if !p.Got(syntax.Comma) {
				p.EndLine()
				break
			}
		}
		if len(d.Names) > 0 {
			p.add(d)
			p.prog.Params = append(p.prog.Params, d.Names...)
		}
	case t.Text == "assume" && next != syntax.LParen:
		p.Next()
		n := len(p.Errs)
		cond := p.expr()
		if len(p.Errs) > n {
			p.SkipLine()
			return
		}
		p.add(&Assume{Pos: t.Pos, Cond: cond})
		p.EndLine()
	case t.Text == "input" && next == syntax.Name:
		p.Next()
		name, vars, typ, typPos, ok := p.signature("input")
		if !ok {
			return
		}
		p.add(&Input{Pos: t.Pos, Name: name, Vars: vars, Type: typ, TypePos: typPos})
		p.EndLine()
	case t.Text == "func" && next == syntax.Name:
		p.Next()
		name, vars, typ, typPos, ok := p.signature("func")
		if !ok {
			return
		}
		if !p.Expect(syntax.Assign) {
			p.SkipLine()
			return
		}
		n := len(p.Errs)
		v := p.expr()
		if len(p.Errs) > n {
			p.SkipLine()
			return
		}
		p.add(&Func{Pos: t.Pos, Name: name, Vars: vars, Type: typ, TypePos: typPos, Value: v})
		p.EndLine()
	case t.Text == "rdom" && next == syntax.Name:
		p.Next()
		p.rdom(t.Pos)
	case t.Text == "output" && next == syntax.Name:
		p.Next()
		p.output(t.Pos)
	case t.Text == "schedule" && next == syntax.LBrace:
		p.Next()
		p.schedule(t.Pos)
	case next == syntax.LParen:
		p.update()
	default:
		p.ErrorExpected(declWords)
		p.SkipLine()
	}
}

// signature parses Name(vars) : type.
func (p *parser) signature(what string) (*syntax.Ident, []*syntax.Ident, syntax.Type, syntax.Pos, bool) {
	name := p.name(what + " name")
	if name == nil {
		p.SkipLine()
		return nil, nil, 0, syntax.Pos{}, false
	}
	if !p.Expect(syntax.LParen) {
		p.SkipLine()
		return nil, nil, 0, syntax.Pos{}, false
	}
	vars := []*syntax.Ident{}
	if !p.Got(syntax.RParen) {
		for {
			id := p.name("a variable name")
			if id == nil {
				p.SkipLine()
				return nil, nil, 0, syntax.Pos{}, false
			}
			vars = append(vars, id)
			if p.Got(syntax.RParen) {
				break
			}
			if !p.Expect(syntax.Comma) {
				p.SkipLine()
				return nil, nil, 0, syntax.Pos{}, false
			}
		}
	}
	if !p.Expect(syntax.Colon) {
		p.SkipLine()
		return nil, nil, 0, syntax.Pos{}, false
	}
	typ, typPos := p.ParseType()
	if typ == syntax.Invalid {
		p.SkipLine()
		return nil, nil, 0, syntax.Pos{}, false
	}
	return name, vars, typ, typPos, true
}

// ranges parses x in lo .. hi {, x in lo .. hi}, up to close (EOF: the end
// of the line).
func (p *parser) ranges(close syntax.Kind) ([]*RVar, bool) {
	var out []*RVar
	for {
		id := p.name("a variable name")
		if id == nil {
			return nil, false
		}
		if !p.ExpectKeyword("in") {
			return nil, false
		}
		n := len(p.Errs)
		lo := p.expr()
		if len(p.Errs) > n || !p.Expect(syntax.DotDot) {
			return nil, false
		}
		hi := p.expr()
		if len(p.Errs) > n {
			return nil, false
		}
		out = append(out, &RVar{Name: id, Lo: lo, Hi: hi})
		if !p.Got(syntax.Comma) {
			break
		}
	}
	if close != syntax.EOF && !p.Expect(close) {
		return nil, false
	}
	return out, true
}

func (p *parser) rdom(pos syntax.Pos) {
	name := p.name("RDom name")
	if name == nil || !p.Expect(syntax.LParen) {
		p.SkipLine()
		return
	}
	vars, ok := p.ranges(syntax.RParen)
	if !ok {
		p.SkipLine()
		return
	}
	r := &RDom{Pos: pos, Name: name, Vars: vars}
	if t := p.Tok(); t.Kind == syntax.Name && t.Text == "possibly" {
		p.Next()
		if t := p.Tok(); t.Kind != syntax.Name || t.Text != "empty" {
			p.ErrorExpected("empty (possibly empty: the RDom's ranges may be empty)")
			p.SkipLine()
			return
		}
		p.Next()
		r.MayBeEmpty = true
	}
	p.add(r)
	p.EndLine()
}

func (p *parser) output(pos syntax.Pos) {
	name := p.name("func name")
	if name == nil {
		p.SkipLine()
		return
	}
	if k := p.Tok().Kind; k == syntax.Newline || k == syntax.EOF {
		// a zero-dimensional func: output D
		p.add(&Output{Pos: pos, Func: name})
		p.EndLine()
		return
	}
	if !p.ExpectKeyword("over") {
		p.SkipLine()
		return
	}
	dims, ok := p.ranges(syntax.EOF)
	if !ok {
		p.SkipLine()
		return
	}
	p.add(&Output{Pos: pos, Func: name, Dims: dims})
	p.EndLine()
}

func (p *parser) update() {
	name := p.name("func name")
	if name == nil {
		p.SkipLine()
		return
	}
	p.Next() // (
	n := len(p.Errs)
	args := p.ParseExprList(syntax.RParen)
	for _, a := range args {
		p.undot(a)
	}
	if len(p.Errs) > n {
		p.SkipLine()
		return
	}
	u := &Update{Func: name, Args: args, OpPos: p.Tok().Pos}
	switch t := p.Tok(); t.Kind {
	case syntax.Assign:
		u.Op = Set
	case syntax.Plus, syntax.Minus, syntax.Star:
		eq := p.Peek(1)
		if eq.Kind != syntax.Assign || eq.Pos.Line != t.Pos.Line || eq.Pos.Col != t.Pos.Col+1 {
			p.ErrorExpected("=, +=, -= or *=")
			p.SkipLine()
			return
		}
		u.Op = map[syntax.Kind]UpdateOp{syntax.Plus: AddTo, syntax.Minus: SubFrom, syntax.Star: MulBy}[t.Kind]
		p.Next()
	default:
		p.ErrorExpected("=, +=, -= or *=")
		p.SkipLine()
		return
	}
	p.Next()
	u.Value = p.expr()
	if len(p.Errs) > n {
		p.SkipLine()
		return
	}
	if p.At(syntax.Newline) && p.Peek(1).Kind == syntax.Name && p.Peek(1).Text == "where" {
		p.Next()
	}
	if p.AtKeyword("where") {
		u.WherePos = p.Next().Pos
		u.Where = p.expr()
		if len(p.Errs) > n {
			p.SkipLine()
			return
		}
	}
	p.add(u)
	p.EndLine()
}

// schedule parses schedule { F.d(args).d(args) ... } into one Directive
// per call.
func (p *parser) schedule(pos syntax.Pos) {
	if p.prog.Schedule != nil {
		p.ErrorCodeAt(pos, syntax.CodeDefinition, "second schedule block (the first is at %s)", p.prog.Schedule.Pos)
	}
	s := &Schedule{Pos: pos}
	p.Next() // {
	p.SkipNewlines()
	for !p.At(syntax.RBrace) && !p.At(syntax.EOF) && !p.TooManyErrors() {
		start := p.Tok()
		p.directiveLine(s)
		if p.Tok() == start {
			p.Next()
		}
		p.SkipNewlines()
	}
	p.Expect(syntax.RBrace)
	if p.prog.Schedule == nil {
		p.prog.Schedule = s
	}
	p.EndLine()
}

func (p *parser) directiveLine(s *Schedule) {
	t := p.Tok()
	if t.Kind != syntax.Name {
		p.ErrorExpected("a schedule directive such as F.parallel(y)")
		p.SkipLine()
		return
	}
	parts := p.split(t)
	if len(parts) < 2 || parts[0] == "" {
		p.ErrorAt(t.Pos, "expected a schedule directive such as F.parallel(y), found %s", t.Describe())
		p.SkipLine()
		return
	}
	fn := &syntax.Ident{NamePos: t.Pos, Name: parts[0]}
	update := -1
	names := parts[1:]
	namePos := syntax.Pos{Line: t.Pos.Line, Col: t.Pos.Col + len(parts[0]) + 1}
	p.Next()
	first := true
	start := len(s.Directives)
	for {
		if !first {
			// the next call of the chain: a name right after a hidden dot
			nt := p.Tok()
			if nt.Kind != syntax.Name || !p.dots[syntax.Pos{Line: nt.Pos.Line, Col: nt.Pos.Col - 1}] {
				break
			}
			names = p.split(nt)
			namePos = nt.Pos
			p.Next()
		}
		first = false
		for i, name := range names {
			if !p.At(syntax.LParen) || i < len(names)-1 {
				p.ErrorAt(namePos, "expected ( after the directive %s", name)
				p.SkipLine()
				return
			}
			p.Next()
			n := len(p.Errs)
			args := p.ParseExprList(syntax.RParen)
			for _, a := range args {
				p.undot(a)
			}
			if len(p.Errs) > n {
				p.SkipLine()
				return
			}
			if name == "update" {
				if update >= 0 || len(args) != 1 || len(s.Directives) > start {
					p.ErrorAt(namePos, "update takes one stage number and comes first: F.update(0).directive(...)")
					p.SkipLine()
					return
				}
				lit, ok := args[0].(*syntax.Lit)
				k, err := strconv.Atoi(litText(lit))
				if !ok || err != nil || k < 0 {
					p.ErrorAt(args[0].Pos(), "update takes a stage number, found %s", syntax.ExprString(args[0]))
					p.SkipLine()
					return
				}
				update = k
				continue
			}
			s.Directives = append(s.Directives, &Directive{Pos: namePos, Func: fn, Update: update, Name: name, Args: args, Chain: p.chains})
		}
	}
	p.chains++
	p.EndLine()
}

func litText(l *syntax.Lit) string {
	if l == nil || l.Kind != syntax.IntLiteral {
		return ""
	}
	return l.Text
}
