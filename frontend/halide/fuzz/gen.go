package fuzz

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// GenOptions choose what Generate draws.
type GenOptions struct {
	// Sliding schedules a sliding window in every case that has a
	// producer with a single consumer stage: the producer stored at root
	// (or an outer loop) and computed at an inner loop of its consumer,
	// where Halide slides it.
	Sliding bool
}

// Generate draws the index-th case of the seed: the same seed and index
// give the same case.
func Generate(seed uint64, index int, o GenOptions) *Case {
	g := &gen{r: rand.New(rand.NewPCG(seed, uint64(index))), o: o}
	g.c = &Case{Name: fmt.Sprintf("s%d-%d", seed, index)}
	g.algorithm()
	g.schedule()
	return g.c.Pruned()
}

// gen draws one case.
type gen struct {
	r    *rand.Rand
	o    GenOptions
	c    *Case
	dims int
	typ  Type
	// uses lists, for each func or input, the stages that read it, as
	// "f.K".
	uses map[string][]stageRef
	// loops are each stage's loop variables, outermost first; path each
	// computed func's enclosing loops.
	loops map[stageRef][]string
	path  map[string][]level
	fresh int
	// parallel are the parallel loops; rooted the stages rfactor'd,
	// whose intermediate is computed at root; inners the variables of
	// constant extent a split made, predicated those of a split
	// predicated.
	parallel   map[level]bool
	rooted     map[stageRef]bool
	inners     map[string]bool
	predicated map[string]bool
}

type stageRef struct {
	f string
	k int
}

// level is a loop of a stage: a place to compute or store a func.
type level struct {
	s stageRef
	v string
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func pick[T any](g *gen, xs []T) T { return xs[g.r.IntN(len(xs))] }

func (g *gen) algorithm() {
	g.dims = 2
	if g.chance(0.2) {
		g.dims = 1
	}
	g.typ = pick(g, []Type{Int32, Int32, Int32, Float32, Float32, Int16, UInt8})
	g.uses = map[string][]stageRef{}
	srcs := []string{"in0"}
	g.c.Inputs = append(g.c.Inputs, Input{Name: "in0", Type: g.typ, Dims: g.dims})
	if g.chance(0.25) {
		g.c.Inputs = append(g.c.Inputs, Input{Name: "in1", Type: g.typ, Dims: g.dims})
		srcs = append(srcs, "in1")
	}
	if g.chance(0.4) {
		// The translator takes the clamps of repeat_edge and the selects
		// of constant_exterior; the other conditions index by a remainder
		// over the input's extent, which it refuses: drawn less often.
		bc := pick(g, []string{"repeat_edge", "repeat_edge", "constant_exterior", "constant_exterior", pick(g, BCKinds)})
		g.c.Defs = append(g.c.Defs, Def{Kind: BCDef, Name: "b0", BC: bc, Src: "in0"})
		srcs = append(srcs, "b0")
	}
	n := 1 + g.r.IntN(4)
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("f%d", i)
		prods := []string{srcs[len(srcs)-1]}
		if g.chance(0.5) {
			prods = append(prods, pick(g, srcs))
		}
		g.c.Defs = append(g.c.Defs, Def{Kind: FuncDef, Name: name, Type: g.typ, Dims: g.dims, Value: g.combine(name, 0, prods)})
		if g.chance(0.35) {
			src := pick(g, srcs)
			if g.chance(0.5) {
				// A reduction from the identity of +, as Halide's sum,
				// of the stage's first producer.
				g.c.Defs[len(g.c.Defs)-1].Value = Int(0)
				for p, us := range g.uses {
					g.uses[p] = slices.DeleteFunc(us, func(u stageRef) bool { return u.f == name })
				}
				src = prods[0]
			}
			g.update(name, src)
		}
		srcs = append(srcs, name)
	}
	g.c.Output = srcs[len(srcs)-1]
}

// combine is a stencil over the producers: one to three terms, each a
// producer at an offset (or up- or downsampled by 2), summed, or combined
// with max, min or a difference.
func (g *gen) combine(f string, k int, prods []string) *Expr {
	var e *Expr
	terms := 1 + g.r.IntN(3)
	for i := range terms {
		p := prods[i%len(prods)]
		t := g.access(p, g.dims)
		g.uses[p] = append(g.uses[p], stageRef{f, k})
		if g.chance(0.3) {
			coef := Int(1 + g.r.IntN(3))
			if g.typ == Float32 {
				coef = Atom(pick(g, []string{"0.5", "0.25", "2.0"}))
			}
			t = Call("*", coef, t)
		}
		if e == nil {
			e = t
			continue
		}
		e = Call(pick(g, []string{"+", "+", "+", "max", "min", "-"}), e, t)
	}
	return e
}

// access reads p at an offset of each pure variable, or sampled, with
// the RDom variables rvs added to the first coordinates.
func (g *gen) access(p string, dims int, rvs ...string) *Expr {
	var args []*Expr
	sample := g.chance(0.15)
	for d := range dims {
		v := Atom(string(rune('x' + d)))
		var a *Expr
		switch {
		case sample && d == 0 && g.chance(0.5):
			a = Call("/", v, Int(2))
		case sample && d == 0:
			a = Call("*", v, Int(2))
			if g.chance(0.5) {
				a = Call("+", a, Int(1))
			}
		default:
			a = v
			if off := g.r.IntN(5) - 2; off != 0 {
				a = Call("+", v, Int(off))
			}
		}
		if d < len(rvs) {
			a = Call("+", a, Atom(rvs[d]))
		}
		args = append(args, a)
	}
	return Call(p, args...)
}

// update adds a sum or a max over an RDom of one or two dimensions.
func (g *gen) update(f, src string) {
	k := g.c.Updates(f) + 1
	n := 1
	if g.dims == 2 && g.chance(0.4) {
		n = 2
	}
	var rdom [][2]int
	for range n {
		rdom = append(rdom, [2]int{-g.r.IntN(2), 2 + g.r.IntN(3)})
	}
	rvs := []string{"rx", "ry"}[:n]
	a := g.access(src, g.dims, rvs...)
	g.uses[src] = append(g.uses[src], stageRef{f, k})
	self := Call(f)
	for d := range g.dims {
		self.Args = append(self.Args, Atom(string(rune('x'+d))))
	}
	op := pick(g, []string{"+", "+", "max"})
	if g.c.Def(f).Value.String() == "0" {
		op = "+"
	}
	g.c.Defs = append(g.c.Defs, Def{Kind: UpdateDef, Name: f, RDom: rdom, Value: Call(op, self, a)})
}

func (g *gen) add(words ...any) {
	var d Directive
	for _, w := range words {
		d = append(d, fmt.Sprint(w))
	}
	g.c.Sched = append(g.c.Sched, d)
}

func (s stageRef) String() string {
	if s.k == 0 {
		return s.f
	}
	return fmt.Sprintf("%s.%d", s.f, s.k)
}

// funcs are the case's funcs, the output first, producers after their
// consumers.
func (g *gen) funcs() []string {
	var fs []string
	for i := len(g.c.Defs) - 1; i >= 0; i-- {
		if d := g.c.Defs[i]; d.Kind != UpdateDef {
			fs = append(fs, d.Name)
		}
	}
	return fs
}

func (g *gen) schedule() {
	g.loops = map[stageRef][]string{}
	g.path = map[string][]level{}
	g.parallel, g.rooted = map[level]bool{}, map[stageRef]bool{}
	g.inners, g.predicated = map[string]bool{}, map[string]bool{}
	inlined := map[string]bool{}
	slid := false
	for i, f := range g.funcs() {
		if i > 0 {
			uses := g.effectiveUses(f, inlined)
			if len(uses) == 0 {
				inlined[f] = true
				continue
			}
			if !g.place(f, uses, g.o.Sliding && !slid) {
				inlined[f] = true
				continue
			}
			if len(g.path[f]) > 0 {
				slid = true
			}
		}
		for k := 0; k <= g.c.Updates(f); k++ {
			g.stage(stageRef{f, k}, f == g.c.Output)
		}
	}
	if g.chance(0.1) {
		g.add("bound", g.c.Output, "x", 0, pick(g, []int{8, 16}))
	}
}

// effectiveUses are the stages that read f, through funcs inlined.
func (g *gen) effectiveUses(f string, inlined map[string]bool) []stageRef {
	var out []stageRef
	for _, u := range g.uses[f] {
		if inlined[u.f] {
			out = append(out, g.effectiveUses(u.f, inlined)...)
		} else if !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out
}

// place draws where f is computed and stored, given the stages that use
// it; false means inline.
func (g *gen) place(f string, uses []stageRef, sliding bool) bool {
	var cands []level
	if len(uses) == 1 {
		u := uses[0]
		cands = slices.Clone(g.path[u.f])
		for _, v := range g.loops[u] {
			cands = append(cands, level{u, v})
		}
	} else {
		cands = g.path[uses[0].f]
		for _, u := range uses[1:] {
			cands = commonPrefix(cands, g.path[u.f])
		}
	}
	if slices.ContainsFunc(uses, func(u stageRef) bool { return g.rooted[u] }) {
		cands = nil
	}
	hasUpdates := g.c.Updates(f) > 0
	if sliding && len(uses) == 1 && len(cands) > 1 {
		at := 1 + g.r.IntN(len(cands)-1)
		g.computeAt(f, cands[:at+1])
		g.storeAt(f, cands, g.outerStore(cands, at))
		return true
	}
	switch x := g.r.IntN(10); {
	case x < 3 && !hasUpdates:
		return false
	case x < 5 || len(cands) == 0:
		g.add("compute_root", f)
		g.path[f] = nil
	default:
		at := g.r.IntN(len(cands))
		g.computeAt(f, cands[:at+1])
		if lo := g.outerStore(cands, at); lo < at+1 && g.chance(0.5) {
			g.storeAt(f, cands, lo+g.r.IntN(at+1-lo))
		}
	}
	if g.chance(0.1) {
		g.add("align_bounds", f, "x", 2)
	}
	return true
}

// outerStore is the outermost place f may be stored at when computed at
// cands[at]: 0 for root, i+1 for cands[i], inside every parallel loop
// between.
func (g *gen) outerStore(cands []level, at int) int {
	lo := 0
	for i := 0; i <= at; i++ {
		if g.parallel[cands[i]] {
			lo = i + 1
		}
	}
	return lo
}

// storeAt stores f at root (s 0) or at cands[s-1], and may fold it.
func (g *gen) storeAt(f string, cands []level, s int) {
	if s == 0 {
		g.add("store_root", f)
	} else {
		st := cands[s-1]
		g.add("store_at", f, st.s.f, st.s.k, st.v)
	}
	g.foldMaybe(f)
}

func (g *gen) computeAt(f string, path []level) {
	l := path[len(path)-1]
	g.add("compute_at", f, l.s.f, l.s.k, l.v)
	g.path[f] = path
}

func (g *gen) foldMaybe(f string) {
	if g.dims == 2 && g.chance(0.4) {
		g.add("fold", f, "y", pick(g, []int{2, 4, 8}))
	}
}

func commonPrefix(a, b []level) []level {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n]
}

func (g *gen) name(base string) string {
	g.fresh++
	return fmt.Sprintf("%s%d", base, g.fresh)
}
