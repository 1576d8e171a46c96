package alg

import "github.com/augur-verify/augur/syntax"

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

// CheckSchedule resolves the funcs and update stages a schedule names
// against the checked program p; errors are positioned in the schedule's
// own source.
func CheckSchedule(p *Program, s *Schedule, src *syntax.Source) syntax.ErrorList {
	r := &syntax.Reporter{Src: src}
	for _, d := range s.Directives {
		f := p.Func(d.Func.Name)
		if f == nil {
			r.Errorf(d.Func.Pos(), "schedule of %s, which is not a func", d.Func.Name)
			continue
		}
		if d.Update >= len(f.Updates) {
			r.Errorf(d.Pos, "%s.update(%d): %s has %d update definitions", f.Name.Name, d.Update, f.Name.Name, len(f.Updates))
		}
	}
	return r.Errs
}
