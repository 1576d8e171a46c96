package smt

import "strings"

// pruneRecDefs removes from an SMT-LIB2 script the recursive definitions
// (in define-fun-rec and define-funs-rec) of functions that no other kept
// command uses, directly or through kept definitions. Z3_solver_to_string
// prints every recursive definition of the context in one define-funs-rec;
// without pruning, a script for a query over bit-vectors would define
// functions over Int and clash with (set-logic QF_BV). A script it cannot
// split into commands is returned unchanged.
func pruneRecDefs(script string) string {
	cmds, ok := splitCommands(script)
	if !ok {
		return script
	}
	// A recursive function: its declaration and body (in define-funs-rec)
	// or its whole define-fun-rec command, and the symbols its body uses.
	type recFun struct {
		name       string
		decl, body any
		atoms      map[string]bool
		keep       bool
	}
	type command struct {
		text string
		funs []*recFun // nil for commands that are not recursive definitions
		many bool      // define-funs-rec rather than define-fun-rec
	}
	var cs []*command
	needed := map[string]bool{}
	for _, text := range cmds {
		e, ok := parseSExpr(text)
		if !ok {
			return script
		}
		c := &command{text: text}
		l, _ := e.([]any)
		switch {
		case len(l) == 3 && l[0] == "define-funs-rec":
			decls, ok1 := l[1].([]any)
			bodies, ok2 := l[2].([]any)
			if !ok1 || !ok2 || len(decls) != len(bodies) {
				return script
			}
			c.many = true
			for i, d := range decls {
				dl, ok := d.([]any)
				if !ok || len(dl) == 0 {
					return script
				}
				name, ok := dl[0].(string)
				if !ok {
					return script
				}
				f := &recFun{name: name, decl: d, body: bodies[i], atoms: map[string]bool{}}
				collectAtoms(bodies[i], f.atoms)
				c.funs = append(c.funs, f)
			}
		case len(l) == 5 && l[0] == "define-fun-rec":
			name, ok := l[1].(string)
			if !ok {
				return script
			}
			f := &recFun{name: name, atoms: map[string]bool{}}
			collectAtoms(l[4], f.atoms)
			c.funs = []*recFun{f}
		default:
			collectAtoms(e, needed)
		}
		cs = append(cs, c)
	}
	for changed := true; changed; {
		changed = false
		for _, c := range cs {
			for _, f := range c.funs {
				if !f.keep && needed[f.name] {
					f.keep, changed = true, true
					for a := range f.atoms {
						needed[a] = true
					}
				}
			}
		}
	}
	var b strings.Builder
	for _, c := range cs {
		if c.funs == nil {
			b.WriteString(c.text)
			b.WriteByte('\n')
			continue
		}
		var decls, bodies []any
		for _, f := range c.funs {
			if f.keep {
				decls, bodies = append(decls, f.decl), append(bodies, f.body)
			}
		}
		switch {
		case len(decls) == 0:
		case len(decls) == len(c.funs):
			b.WriteString(c.text)
			b.WriteByte('\n')
		default: // only in define-funs-rec
			b.WriteString("(define-funs-rec ")
			writeSExpr(&b, decls)
			b.WriteString("\n  ")
			writeSExpr(&b, bodies)
			b.WriteString(")\n")
		}
	}
	return b.String()
}

func writeSExpr(b *strings.Builder, e any) {
	switch e := e.(type) {
	case string:
		b.WriteString(e)
	case []any:
		b.WriteByte('(')
		for i, x := range e {
			if i > 0 {
				b.WriteByte(' ')
			}
			writeSExpr(b, x)
		}
		b.WriteByte(')')
	}
}

// splitCommands cuts a script into its top-level s-expressions, skipping
// comments and whitespace between them; it honours string literals and
// |quoted| symbols.
func splitCommands(s string) ([]string, bool) {
	var out []string
	depth, start := 0, -1
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; ch {
		case ';':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case '"':
			i++
			for ; i < len(s); i++ {
				if s[i] == '"' {
					if i+1 < len(s) && s[i+1] == '"' { // "" escapes a quote
						i++
						continue
					}
					break
				}
			}
			if i >= len(s) {
				return nil, false
			}
		case '|':
			j := strings.IndexByte(s[i+1:], '|')
			if j < 0 {
				return nil, false
			}
			i += j + 1
		case '(':
			if depth == 0 {
				start = i
			}
			depth++
		case ')':
			depth--
			if depth < 0 {
				return nil, false
			}
			if depth == 0 {
				out = append(out, s[start:i+1])
			}
		default:
			if depth == 0 && ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r' {
				return nil, false // an atom at top level: not a script
			}
		}
	}
	return out, depth == 0
}

// parseSExpr reads one s-expression: a list is a []any, an atom (symbol,
// numeral, string literal, quoted symbol) a string as written.
func parseSExpr(s string) (any, bool) {
	p := &sexprParser{s: s}
	e, ok := p.expr()
	return e, ok
}

type sexprParser struct {
	s string
	i int
}

func (p *sexprParser) skip() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		case ';':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		default:
			return
		}
	}
}

func (p *sexprParser) expr() (any, bool) {
	p.skip()
	if p.i >= len(p.s) {
		return nil, false
	}
	switch p.s[p.i] {
	case '(':
		p.i++
		var l []any
		for {
			p.skip()
			if p.i >= len(p.s) {
				return nil, false
			}
			if p.s[p.i] == ')' {
				p.i++
				return l, true
			}
			e, ok := p.expr()
			if !ok {
				return nil, false
			}
			l = append(l, e)
		}
	case ')':
		return nil, false
	case '|':
		j := strings.IndexByte(p.s[p.i+1:], '|')
		if j < 0 {
			return nil, false
		}
		a := p.s[p.i : p.i+j+2]
		p.i += j + 2
		return a, true
	case '"':
		k := p.i + 1
		for ; k < len(p.s); k++ {
			if p.s[k] == '"' {
				if k+1 < len(p.s) && p.s[k+1] == '"' {
					k++
					continue
				}
				break
			}
		}
		if k >= len(p.s) {
			return nil, false
		}
		a := p.s[p.i : k+1]
		p.i = k + 1
		return a, true
	}
	k := p.i
	for k < len(p.s) && !strings.ContainsRune(" \t\n\r();\"|", rune(p.s[k])) {
		k++
	}
	a := p.s[p.i:k]
	p.i = k
	return a, true
}

func collectAtoms(e any, into map[string]bool) {
	switch e := e.(type) {
	case string:
		into[e] = true
	case []any:
		for _, x := range e {
			collectAtoms(x, into)
		}
	}
}
