package alg

import (
	"strings"

	"github.com/augur-verify/augur/syntax"
)

// ParseSchedule parses a schedule kept apart from its algorithm (augur
// compile --schedule FILE): either a schedule { ... } block or the same
// directive lines without the block around them. Names are resolved by
// CheckSchedule.
func ParseSchedule(src *syntax.Source) (*Schedule, syntax.ErrorList) {
	text, dots := hideDots(src.Text)
	p := &parser{Parser: syntax.NewParser(&syntax.Source{Name: src.Name, Text: text}), dots: dots, prog: &Program{}}
	p.Src = src
	p.SkipNewlines()
	if t := p.Tok(); t.Kind == syntax.Name && t.Text == "schedule" && p.Peek(1).Kind == syntax.LBrace {
		p.Next()
		p.schedule(t.Pos)
		p.SkipNewlines()
		if !p.At(syntax.EOF) {
			p.ErrorExpected("the end of the schedule file")
		}
	} else {
		s := &Schedule{Pos: p.Tok().Pos}
		for !p.At(syntax.EOF) && !p.TooManyErrors() {
			start := p.Tok()
			p.directiveLine(s)
			if p.Tok() == start {
				p.Next()
			}
			p.SkipNewlines()
		}
		p.prog.Schedule = s
	}
	p.Errs.Sort()
	if p.prog.Schedule == nil {
		p.prog.Schedule = &Schedule{}
	}
	return p.prog.Schedule, p.Errs
}

// RFactorName returns the name of the intermediate func that the
// directive F.update(0).rfactor(rv, u[, I]) makes: I, or F_intm by
// default (Halide's name); "" when the third argument is not a name.
func RFactorName(d *Directive) string {
	if len(d.Args) < 3 {
		return d.Func.Name + "_intm"
	}
	if id, ok := d.Args[2].(*syntax.Ident); ok && !strings.Contains(id.Name, ".") {
		return id.Name
	}
	return ""
}

// scheduledFuncs resolves the func each directive schedules: a func of the
// program, or an intermediate an earlier rfactor made (one update), or
// reports the directive.
func scheduledFuncs(p *Program, s *Schedule, r *syntax.Reporter) {
	made := map[string]bool{}
	for _, d := range s.Directives {
		updates := 1
		if f := p.Func(d.Func.Name); f != nil {
			updates = len(f.Updates)
		} else if !made[d.Func.Name] {
			code := syntax.CodeUndeclared
			if p.Input(d.Func.Name) != nil || p.RDomNamed(d.Func.Name) != nil {
				code = syntax.CodeWrongKind
			}
			r.ErrorCodef(d.Func.Pos(), code, "schedule of %s, which is not a func", d.Func.Name)
			continue
		}
		if d.Update >= updates {
			r.ErrorCodef(d.Pos, syntax.CodeRange, "%s.update(%d): %s has %d update definitions", d.Func.Name, d.Update, d.Func.Name, updates)
		}
		if d.Name == "rfactor" {
			if n := RFactorName(d); n != "" && p.Func(n) == nil {
				made[n] = true
			}
		}
	}
}

// CheckSchedule resolves the funcs and update stages a schedule names
// against the checked program p; errors are positioned in the schedule's
// own source.
func CheckSchedule(p *Program, s *Schedule, src *syntax.Source) syntax.ErrorList {
	r := &syntax.Reporter{Src: src}
	scheduledFuncs(p, s, r)
	return r.Errs
}
