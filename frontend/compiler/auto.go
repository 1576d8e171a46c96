package compiler

import (
	"context"
	"fmt"
	"strings"

	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/syntax"
)

// Tile and vector sizes of the autoscheduler.
const (
	autoVector = 8
	autoTile   = 8
)

// AutoSchedule chooses a schedule for p (augur compile --auto), in the
// spirit of Halide's classic heuristics:
//
//   - every stage of an output or of a func computed at the root is tiled
//     over its two innermost pure dimensions (split over its only one), its
//     innermost tile loop vectorised and its outermost loop parallel; an
//     update stage keeps its RDom loops outside the vectorised loop and
//     inside the tiles;
//   - a producer read by one consumer only is computed at that consumer's
//     tile loop (recomputing halos, for locality), else at the root.
//
// Each choice is checked by compiling with it; a placement that is not
// legal falls back to the root, a stage schedule that is not legal to the
// default loops.
func AutoSchedule(ctx context.Context, p *alg.Program) (*alg.Schedule, error) {
	consumers := map[string][]string{}
	for _, f := range p.Funcs() {
		for _, g := range p.Funcs() {
			if g != f && reads(g, f.Name.Name) {
				consumers[f.Name.Name] = append(consumers[f.Name.Name], g.Name.Name)
			}
		}
	}
	outer := map[string]string{} // func -> its outermost tile loop
	stageLines := map[string][]string{}
	for _, f := range p.Funcs() {
		for s := 0; s <= len(f.Updates); s++ {
			line, out := autoStage(p, f, s)
			if line != "" {
				stageLines[f.Name.Name] = append(stageLines[f.Name.Name], line)
				if s == 0 {
					outer[f.Name.Name] = out
				}
			}
		}
	}
	var lines []string
	try := func(extra ...string) bool {
		text := strings.Join(append(append([]string(nil), lines...), extra...), "\n") + "\n"
		src := &syntax.Source{Name: "autoschedule", Text: text}
		s, errs := alg.ParseSchedule(src)
		if len(errs) > 0 {
			return false
		}
		_, err := Compile(ctx, p, "auto", Options{Schedule: s, ScheduleSrc: src})
		return err == nil
	}
	funcs := p.Funcs()
	for i := len(funcs) - 1; i >= 0; i-- {
		f := funcs[i]
		name := f.Name.Name
		var place []string
		if cs := consumers[name]; len(cs) == 1 && !isOutputOf(p, name) && len(f.Updates) == 0 {
			if lp := outer[cs[0]]; lp != "" {
				place = []string{fmt.Sprintf("%s.compute_at(%s, %s)", name, cs[0], lp)}
			}
		}
		st := stageLines[name]
		switch {
		case len(place) > 0 && try(place...):
			lines = append(lines, place...)
			// a producer computed inside a tile keeps its default loops,
			// vectorised when it can be
			if v := autoVectorOnly(f); v != "" && try(v) {
				lines = append(lines, v)
			}
		case try(st...):
			lines = append(lines, st...)
		default:
			for _, l := range st {
				if try(l) {
					lines = append(lines, l)
				}
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	text := strings.Join(lines, "\n") + "\n"
	s, errs := alg.ParseSchedule(&syntax.Source{Name: "autoschedule", Text: text})
	if len(errs) > 0 {
		return nil, errs
	}
	return s, nil
}

func isOutputOf(p *alg.Program, name string) bool {
	for _, o := range p.Outputs() {
		if o.Func.Name == name {
			return true
		}
	}
	return false
}

// autoStage returns the directive chain tiling stage s of f, and the name
// of its outermost loop.
func autoStage(p *alg.Program, f *alg.Func, s int) (string, string) {
	head := f.Name.Name
	if s > 0 {
		head = fmt.Sprintf("%s.update(%d)", f.Name.Name, s-1)
	}
	var rdom []string
	if s > 0 && f.Updates[s-1].RDom != nil {
		r := f.Updates[s-1].RDom
		for _, v := range r.Vars {
			rdom = append(rdom, r.Name.Name+"."+v.Name.Name)
		}
	}
	vars := identNames(f.Vars)
	switch len(vars) {
	case 0:
		return "", ""
	case 1:
		x := vars[0]
		xo, xi := x+"_o", x+"_i"
		line := fmt.Sprintf("%s.split(%s, %s, %s, %d)", head, x, xo, xi, autoVector)
		if len(rdom) > 0 {
			line += fmt.Sprintf(".reorder(%s, %s, %s)", xi, strings.Join(rdom, ", "), xo)
		}
		return line + fmt.Sprintf(".vectorize(%s).parallel(%s)", xi, xo), xo
	}
	x, y := vars[0], vars[1]
	xo, yo, xi, yi := x+"_o", y+"_o", x+"_i", y+"_i"
	line := fmt.Sprintf("%s.tile(%s, %s, %s, %s, %s, %s, %d, %d)", head, x, y, xo, yo, xi, yi, autoTile, autoTile)
	if len(rdom) > 0 {
		line += fmt.Sprintf(".reorder(%s, %s, %s, %s, %s)", xi, yi, strings.Join(rdom, ", "), xo, yo)
	}
	outermost := yo
	if len(vars) > 2 {
		outermost = vars[len(vars)-1]
	}
	return line + fmt.Sprintf(".vectorize(%s).parallel(%s)", xi, outermost), xo
}

// autoVectorOnly vectorises the innermost pure loop of f's pure stage.
func autoVectorOnly(f *alg.Func) string {
	if len(f.Vars) == 0 {
		return ""
	}
	return fmt.Sprintf("%s.vectorize(%s, %d)", f.Name.Name, f.Vars[0].Name, autoVector)
}
