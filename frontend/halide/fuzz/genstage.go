package fuzz

import (
	"slices"
	"strings"
)

// Tails are the tail strategies of the format, Halide's TailStrategy.
var Tails = []string{"auto", "round_up", "guard_with_if", "shift_inwards", "predicate", "predicate_loads", "predicate_stores"}

// stage draws the loop transformations of one stage and records its
// loops, outermost first, for the funcs computed inside it.
func (g *gen) stage(s stageRef, output bool) {
	var loops []string
	for d := g.dims - 1; d >= 0; d-- {
		loops = append(loops, string(rune('x'+d)))
	}
	update := s.k > 0
	if update {
		for d := len(g.c.Defs[g.updateIndex(s)].RDom) - 1; d >= 0; d-- {
			loops = append(loops, "r"+string(rune('x'+d)))
		}
	}
	st := s.String()
	pure := func() []string {
		return slices.DeleteFunc(slices.Clone(loops), func(v string) bool { return strings.HasPrefix(v, "r") })
	}
	// The predicated tails, which the translator refuses, are drawn less
	// often than the others.
	tails := slices.Concat(Tails[:4], Tails[:4], Tails)
	if update {
		// Halide refuses to round up or shift inwards an update's loops.
		tails = slices.DeleteFunc(tails, func(t string) bool { return t == "round_up" || t == "shift_inwards" })
	}
	if g.chance(0.5) {
		v := pick(g, pure())
		o, i := g.name(v+"o"), g.name(v+"i")
		tail := pick(g, tails)
		g.add("split", st, v, o, i, pick(g, []int{2, 3, 4, 8}), tail)
		loops = replace(loops, v, o, i)
		g.inner(i, tail)
	}
	if g.dims == 2 && g.chance(0.25) && slices.Contains(loops, "x") && slices.Contains(loops, "y") {
		xo, yo, xi, yi := g.name("xo"), g.name("yo"), g.name("xi"), g.name("yi")
		tail := pick(g, tails)
		g.add("tile", st, "x", "y", xo, yo, xi, yi, pick(g, []int{2, 4, 8}), pick(g, []int{2, 4}), tail)
		loops = slices.DeleteFunc(loops, func(v string) bool { return v == "x" || v == "y" })
		loops = append([]string{yo, xo, yi, xi}, loops...)
		g.inner(xi, tail)
		g.inner(yi, tail)
	}
	if p := pure(); len(p) > 1 && g.chance(0.3) {
		i := g.r.IntN(len(p) - 1)
		loops = swap(loops, p[i], p[i+1])
		g.add(append([]any{"reorder", st}, reversed(loops)...)...)
	}
	if p := pure(); len(p) > 1 && g.chance(0.15) {
		i := g.r.IntN(len(p) - 1)
		if a, b := slices.Index(loops, p[i]), slices.Index(loops, p[i+1]); b == a+1 {
			fu := g.name("fu")
			g.add("fuse", st, p[i+1], p[i], fu)
			loops = replace(loops, p[i], fu)
			loops = slices.Delete(loops, b, b+1)
		}
	}
	if update {
		loops = g.reduction(s, loops)
	}
	g.vectorParallel(s, loops, pure())
	g.loops[s] = loops
}

// inner records the inner variable of a split.
func (g *gen) inner(v, tail string) {
	g.inners[v] = true
	if strings.HasPrefix(tail, "predicate") {
		g.predicated[v] = true
	}
}

// reduction draws the schedule of an update's RDom: a split of rx, an
// rfactor (whose intermediate is computed at root) or an atomic parallel
// loop. After rfactor the stage's loops are its pure ones only.
func (g *gen) reduction(s stageRef, loops []string) []string {
	st := s.String()
	rv := "rx"
	if g.chance(0.3) {
		o, i := g.name("rxo"), g.name("rxi")
		g.add("split", st, "rx", o, i, pick(g, []int{2, 3}), pick(g, []string{"auto", "guard_with_if"}))
		loops = replace(loops, "rx", o, i)
		rv = o
	}
	if g.c.Def(s.f).Value.String() != "0" {
		return loops
	}
	switch x := g.r.IntN(10); {
	case x < 4:
		g.add("rfactor", st, rv, "u")
		g.rooted[s] = true
		return slices.DeleteFunc(loops, func(v string) bool { return strings.HasPrefix(v, "r") })
	case x < 7 && rv == "rx":
		g.add("atomic", st)
		g.add("parallel", st, "rx")
		g.parallel[level{s, "rx"}] = true
	}
	return loops
}

// vectorParallel draws vectorize, unroll, parallel and specialize: the
// inner variable of a split is vectorized or unrolled whole (Halide
// refuses to split it again when its split is predicated), another with
// a factor.
func (g *gen) vectorParallel(s stageRef, loops, pure []string) {
	if len(pure) == 0 {
		return
	}
	st := s.String()
	inner := pure[len(pure)-1]
	how := func(words ...any) []any {
		if g.predicated[inner] || g.inners[inner] && g.chance(0.7) {
			return words
		}
		return append(words, pick(g, []int{2, 4, 8}))
	}
	switch x := g.r.IntN(10); {
	case x < 3 && loops[len(loops)-1] == inner:
		g.add(how("vectorize", st, inner)...)
	case x < 4:
		g.add(how("unroll", st, inner)...)
	}
	if g.chance(0.25) {
		g.add("parallel", st, pure[0])
		g.parallel[level{s, pure[0]}] = true
	}
	if g.chance(0.1) {
		sp := []any{"specialize", st, 0, pick(g, []int{4, 8, 16})}
		if g.chance(0.5) && !g.predicated[inner] {
			sp = append(sp, "unroll", inner, 2)
		}
		g.add(sp...)
	}
}

// updateIndex is the index in Defs of the stage's update.
func (g *gen) updateIndex(s stageRef) int {
	n := 0
	for i, d := range g.c.Defs {
		if d.Kind == UpdateDef && d.Name == s.f {
			if n++; n == s.k {
				return i
			}
		}
	}
	return -1
}

func replace(loops []string, v string, with ...string) []string {
	i := slices.Index(loops, v)
	if i < 0 {
		return loops
	}
	return slices.Insert(slices.Delete(slices.Clone(loops), i, i+1), i, with...)
}

func swap(loops []string, a, b string) []string {
	out := slices.Clone(loops)
	i, j := slices.Index(out, a), slices.Index(out, b)
	out[i], out[j] = out[j], out[i]
	return out
}

// reversed lists loops innermost first, as Halide's reorder takes them.
func reversed(loops []string) []any {
	var out []any
	for i := len(loops) - 1; i >= 0; i-- {
		out = append(out, loops[i])
	}
	return out
}
