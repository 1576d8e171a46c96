package atl

import (
	"strconv"

	"github.com/augur-verify/augur/syntax"
)

// Parse reads an ATL program. Syntax errors are returned as a
// syntax.ErrorList, each positioned and rendered with a caret by Detail.
func Parse(src *syntax.Source) (*Program, error) {
	p := &parser{toks: lex(src.Text), rep: &syntax.Reporter{Src: src}}
	prog := p.program()
	if err := p.rep.Errs.Err(); err != nil {
		return nil, err
	}
	return prog, nil
}

type parser struct {
	toks []token
	pos  int
	rep  *syntax.Reporter
}

// bailout unwinds the parse of one declaration after its first error.
type bailout struct{}

func (p *parser) tok() token { return p.toks[p.pos] }

func (p *parser) next() token {
	t := p.toks[p.pos]
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
	return t
}

func (p *parser) is(text string) bool {
	t := p.tok()
	return (t.Kind == tPunct || t.Kind == tName) && t.Text == text
}

func (p *parser) accept(text string) bool {
	if p.is(text) {
		p.next()
		return true
	}
	return false
}

// fail records "expected WHAT, found TOKEN" at the current token and
// abandons the declaration.
func (p *parser) fail(what string) {
	t := p.tok()
	if t.Kind == tIllegal {
		p.rep.ErrorCodef(t.Pos, syntax.CodeSyntax, "%s", t.Describe())
	} else {
		p.rep.ErrorCodef(t.Pos, syntax.CodeSyntax, "expected %s, found %s", what, t.Describe())
	}
	panic(bailout{})
}

// errorAt records an error of kind code at pos and abandons the
// declaration.
func (p *parser) errorAt(pos syntax.Pos, code syntax.Code, format string, args ...any) {
	p.rep.ErrorCodef(pos, code, format, args...)
	panic(bailout{})
}

func (p *parser) expect(text string) syntax.Pos {
	if !p.is(text) {
		p.fail(quote(text))
	}
	return p.next().Pos
}

func (p *parser) ident(what string) *Ident {
	t := p.tok()
	if t.Kind != tName || keywords[t.Text] {
		p.fail(what)
	}
	p.next()
	return &Ident{Name: t.Text, At: t.Pos}
}

var declKeywords = map[string]bool{"param": true, "assume": true, "input": true, "def": true, "schedule": true}

func (p *parser) program() *Program {
	prog := &Program{}
	for p.tok().Kind != tEOF {
		start := p.pos
		func() {
			defer func() {
				if r := recover(); r != nil {
					if _, ok := r.(bailout); !ok {
						panic(r)
					}
					// Skip to the next declaration.
					if p.pos == start {
						p.next()
					}
					for p.tok().Kind != tEOF && !(p.tok().Kind == tName && declKeywords[p.tok().Text]) {
						p.next()
					}
				}
			}()
			p.decl(prog)
		}()
	}
	if prog.Def == nil && len(p.rep.Errs) == 0 {
		p.rep.ErrorCodef(p.tok().Pos, syntax.CodeDefinition, "expected a definition: def NAME = expression")
	}
	return prog
}

func (p *parser) decl(prog *Program) {
	t := p.tok()
	switch {
	case p.accept("param"):
		prog.Params = append(prog.Params, p.ident("a parameter name"))
		for p.accept(",") {
			prog.Params = append(prog.Params, p.ident("a parameter name"))
		}
	case p.accept("assume"):
		prog.Assumes = append(prog.Assumes, p.cond())
	case p.accept("input"):
		in := &Input{Name: p.ident("an input tensor name")}
		p.expect("[")
		if !p.is("]") {
			in.Dims = append(in.Dims, p.ix())
			for p.accept(",") {
				in.Dims = append(in.Dims, p.ix())
			}
		}
		p.expect("]")
		prog.Inputs = append(prog.Inputs, in)
	case p.accept("def"), p.accept("schedule"):
		d := &Def{Name: p.ident("a definition name")}
		p.expect("=")
		d.Body = p.expr()
		switch {
		case t.Text == "def" && prog.Def != nil:
			p.errorAt(t.Pos, syntax.CodeDefinition, "a second def: a program defines one tensor (a rewrite of it is a schedule)")
		case t.Text == "def":
			prog.Def = d
		case prog.Schedule != nil:
			p.errorAt(t.Pos, syntax.CodeDefinition, "a second schedule")
		default:
			prog.Schedule = d
		}
	default:
		p.fail("a declaration (param, assume, input, def or schedule)")
	}
}

// expr parses a tensor expression.
func (p *parser) expr() Expr {
	x := p.additive()
	for p.is("++") {
		at := p.next().Pos
		y := p.additive()
		x = &Concat{At: at, X: x, Y: y}
	}
	return x
}

func (p *parser) additive() Expr {
	x := p.multiplicative()
	for p.is("+") || p.is("-") {
		t := p.next()
		y := p.multiplicative()
		x = p.scalarBin(t, x, y)
	}
	return x
}

func (p *parser) multiplicative() Expr {
	x := p.unary()
	for p.is("*") || p.is("/") {
		t := p.next()
		y := p.unary()
		x = p.scalarBin(t, x, y)
	}
	return x
}

// scalarBin combines two scalar expressions; ATL's arithmetic applies to
// scalars only (a Sum or a Gen is bound with let first).
func (p *parser) scalarBin(op token, x, y Expr) Expr {
	sx, ok1 := x.(*Scalar)
	sy, ok2 := y.(*Scalar)
	if !ok1 || !ok2 {
		p.errorAt(op.Pos, syntax.CodeShape, "the operands of '%s' must be scalar expressions (numbers, tensor elements, let-bound scalars): bind a tensor expression with let first", op.Text)
	}
	return &Scalar{S: &Bin{At: op.Pos, Op: op.Text[0], X: sx.S, Y: sy.S}}
}

func (p *parser) unary() Expr {
	if p.is("-") {
		at := p.next().Pos
		x := p.unary()
		s, ok := x.(*Scalar)
		if !ok {
			p.errorAt(at, syntax.CodeShape, "unary '-' applies to scalar expressions only")
		}
		return &Scalar{S: &Neg{At: at, X: s.S}}
	}
	return p.primary()
}

var reshapes = map[string]string{
	"flatten": "flatten", "transpose": "transpose", "split": "split",
	"truncl": "truncl", "trunc_l": "truncl", "truncr": "truncr", "trunc_r": "truncr",
	"padl": "padl", "pad_l": "padl", "padr": "padr", "pad_r": "padr",
}

func (p *parser) primary() Expr {
	t := p.tok()
	switch {
	case t.Kind == tInt || t.Kind == tFloat:
		p.next()
		v, err := strconv.ParseFloat(t.Text, 64)
		if err != nil {
			p.errorAt(t.Pos, syntax.CodeSyntax, "malformed number %s", t.Text)
		}
		return &Scalar{S: &Num{At: t.Pos, Text: t.Text, Val: v}}
	case p.is("("):
		p.next()
		x := p.expr()
		p.expect(")")
		return x
	case t.Kind != tName:
		p.fail("an expression")
	}
	switch t.Text {
	case "gen", "sum":
		p.next()
		v, lo, hi := p.rng()
		body := p.expr()
		if t.Text == "gen" {
			return &Gen{At: t.Pos, Var: v, Lo: lo, Hi: hi, Body: body}
		}
		return &Sum{At: t.Pos, Var: v, Lo: lo, Hi: hi, Body: body}
	case "guard":
		p.next()
		p.expect("[")
		c := p.cond()
		p.expect("]")
		return &Guard{At: t.Pos, Cond: c, Body: p.expr()}
	case "let":
		p.next()
		v := p.ident("a variable name")
		p.expect("=")
		val := p.expr()
		p.expect("in")
		return &Let{At: t.Pos, Var: v, Val: val, Body: p.expr()}
	case "wide":
		p.next()
		v, lo, hi := p.rng()
		w := &Wide{At: t.Pos, Var: v, Lo: lo, Hi: hi}
		p.expect("(")
		for {
			l := &Lane{Name: p.ident("a lane name")}
			switch {
			case p.accept("+="):
				l.Reduce = true
			case p.accept("="):
			default:
				p.fail("'=' or '+='")
			}
			l.Val = p.expr()
			w.Lanes = append(w.Lanes, l)
			if !p.accept(",") {
				break
			}
		}
		p.expect(")")
		p.expect("in")
		w.Body = p.expr()
		return w
	case "genrec":
		p.next()
		out := p.ident("the name of the generated tensor")
		v, lo, hi := p.rng()
		body := p.expr()
		p.expect("in")
		return &GenRec{At: t.Pos, Out: out, Var: v, Lo: lo, Hi: hi, Body: body, In: p.expr()}
	}
	if op, ok := reshapes[t.Text]; ok {
		p.next()
		p.expect("(")
		var k Ix
		if op != "flatten" && op != "transpose" {
			k = p.ix()
			p.expect(",")
		}
		x := p.expr()
		p.expect(")")
		switch op {
		case "flatten":
			return &Flatten{At: t.Pos, X: x}
		case "transpose":
			return &Transpose{At: t.Pos, X: x}
		case "split":
			return &Split{At: t.Pos, K: k, X: x}
		case "truncl", "truncr":
			return &Trunc{At: t.Pos, Left: op == "truncl", K: k, X: x}
		default:
			return &Pad{At: t.Pos, Left: op == "padl", K: k, X: x}
		}
	}
	ref := &Ref{Name: p.ident("an expression")}
	if p.accept("[") {
		ref.Brack = true
		if !p.is("]") {
			ref.Index = append(ref.Index, p.ix())
			for p.accept(",") {
				ref.Index = append(ref.Index, p.ix())
			}
		}
		p.expect("]")
	}
	return &Scalar{S: ref}
}

// rng parses "[i < hi]" or "[lo <= i < hi]".
func (p *parser) rng() (*Ident, Ix, Ix) {
	open := p.expect("[")
	var lo Ix
	if p.tok().Kind == tName && !keywords[p.tok().Text] && p.toks[p.pos+1].Kind == tPunct && p.toks[p.pos+1].Text == "<" {
		lo = &IxConst{At: open, Val: 0}
	} else {
		lo = p.ix()
		p.expect("<=")
	}
	v := p.ident("an index variable")
	p.expect("<")
	hi := p.ix()
	p.expect("]")
	return v, lo, hi
}

// ix parses an index expression.
func (p *parser) ix() Ix {
	x := p.ixMul()
	for p.is("+") || p.is("-") {
		t := p.next()
		x = &IxBin{At: t.Pos, Op: t.Text[0], X: x, Y: p.ixMul()}
	}
	return x
}

func (p *parser) ixMul() Ix {
	x := p.ixUnary()
	for p.is("*") || p.is("/") || p.is("//") || p.is("%") {
		t := p.next()
		op := t.Text[0]
		if t.Text == "//" {
			op = 'c'
		}
		x = &IxBin{At: t.Pos, Op: op, X: x, Y: p.ixUnary()}
	}
	return x
}

func (p *parser) ixUnary() Ix {
	t := p.tok()
	switch {
	case p.is("-"):
		p.next()
		return &IxNeg{At: t.Pos, X: p.ixUnary()}
	case p.is("("):
		p.next()
		x := p.ix()
		p.expect(")")
		return x
	case t.Kind == tInt:
		p.next()
		v, err := strconv.ParseInt(t.Text, 10, 64)
		if err != nil || v > 1<<40 {
			p.errorAt(t.Pos, syntax.CodeRange, "integer %s is too large", t.Text)
		}
		return &IxConst{At: t.Pos, Val: v}
	case t.Kind == tName && !keywords[t.Text]:
		p.next()
		return &IxName{Name: &Ident{Name: t.Text, At: t.Pos}}
	}
	p.fail("an index expression")
	return nil
}

// cond parses a condition: comparisons of index expressions (chains such
// as 0 <= i < n included) under and, or, not.
func (p *parser) cond() Cond {
	x := p.condAnd()
	for p.is("or") || p.is("||") {
		t := p.next()
		x = &Logic{At: t.Pos, Op: "or", X: x, Y: p.condAnd()}
	}
	return x
}

func (p *parser) condAnd() Cond {
	x := p.condNot()
	for p.is("and") || p.is("&&") {
		t := p.next()
		x = &Logic{At: t.Pos, Op: "and", X: x, Y: p.condNot()}
	}
	return x
}

func (p *parser) condNot() Cond {
	t := p.tok()
	switch {
	case p.is("not") || p.is("!"):
		p.next()
		return &Not{At: t.Pos, X: p.condNot()}
	case p.is("true") || p.is("false"):
		p.next()
		return &Truth{At: t.Pos, Val: t.Text == "true"}
	case p.is("("):
		// Either a parenthesised condition or a comparison whose first
		// operand is parenthesised: try the comparison first.
		save, nerr := p.pos, len(p.rep.Errs)
		if c, ok := p.tryCompare(); ok {
			return c
		}
		p.pos, p.rep.Errs = save, p.rep.Errs[:nerr]
		p.next()
		c := p.cond()
		p.expect(")")
		return c
	}
	return p.compare()
}

func (p *parser) tryCompare() (c Cond, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(bailout); !isBail {
				panic(r)
			}
			c, ok = nil, false
		}
	}()
	return p.compare(), true
}

var cmpOps = map[string]bool{"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true}

func (p *parser) compare() Cond {
	x := p.ix()
	if !(p.tok().Kind == tPunct && cmpOps[p.tok().Text]) {
		p.fail("a comparison (==, !=, <, <=, >, >=)")
	}
	var c Cond
	for p.tok().Kind == tPunct && cmpOps[p.tok().Text] {
		t := p.next()
		y := p.ix()
		cmp := &Cmp{At: t.Pos, Op: t.Text, X: x, Y: y}
		if c == nil {
			c = cmp
		} else {
			c = &Logic{At: t.Pos, Op: "and", X: c, Y: cmp}
		}
		x = y
	}
	return c
}
