package compiler

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// Trial is one schedule of FuzzSchedules: the schedule, and the
// compilation it gave.
type Trial struct {
	Index    int
	Schedule *alg.Schedule
	Text     string // the schedule block
	Result   *Result
}

// FuzzSchedules generates n distinct random legal schedules for p from the
// seed and calls yield with each compiled one, in order; yield returning
// false stops. Random schedules that the compiler rejects as illegal are
// drawn again (at most 50 draws per schedule); any other compilation error
// is returned, since a legal schedule must compile. A schedule whose
// compilation exceeds 5 seconds (bounds inference out of its budget) is
// drawn again too. It returns the number
// of schedules yielded.
func FuzzSchedules(ctx context.Context, p *alg.Program, n int, seed uint64, yield func(Trial) bool) (int, error) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	seen := map[string]bool{}
	count := 0
	for draws := 0; count < n && draws < 50*n+50; draws++ {
		if err := ctx.Err(); err != nil {
			return count, err
		}
		text := RandomSchedule(p, rng)
		if seen[text] {
			continue
		}
		src := &syntax.Source{Name: "fuzz-schedule", Text: text}
		s, errs := alg.ParseSchedule(src)
		if len(errs) > 0 {
			return count, fmt.Errorf("generated schedule does not parse: %v\n%s", errs, text)
		}
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		res, err := Compile(cctx, p, "fuzz", Options{Schedule: s, ScheduleSrc: src})
		timedOut := errors.Is(cctx.Err(), context.DeadlineExceeded)
		cancel()
		if err != nil && ctx.Err() == nil && (timedOut || errors.Is(err, presburger.ErrBudget)) {
			continue // too costly to compile (bounds inference out of budget): drawn again
		}
		if err != nil {
			if _, ok := err.(syntax.ErrorList); ok {
				continue // illegal: rejected with its rule
			}
			return count, fmt.Errorf("schedule\n%s: %w", text, err)
		}
		seen[text] = true
		count++
		if !yield(Trial{Index: count, Schedule: s, Text: s.String(), Result: res}) {
			break
		}
	}
	return count, nil
}

// stageModel tracks a stage's loops while a random schedule is drawn.
type stageModel struct {
	head  string   // F or F.update(k)
	dims  []string // innermost first
	pure  map[string]bool
	konst map[string]bool // constant extent
	pureS bool            // a pure stage
	n     int
}

// RandomSchedule draws a random schedule for p, as directive lines: loop
// directives on every stage, placements and storage for the producers.
// It may be illegal; FuzzSchedules draws again when it is.
func RandomSchedule(p *alg.Program, rng *rand.Rand) string {
	var lines []string
	loops := map[string][]string{} // func -> loop names of its stages
	for _, f := range p.Funcs() {
		for s := 0; s <= len(f.Updates); s++ {
			m := &stageModel{head: f.Name.Name, pure: map[string]bool{}, konst: map[string]bool{}, pureS: s == 0}
			if s > 0 {
				m.head = fmt.Sprintf("%s.update(%d)", f.Name.Name, s-1)
				if r := f.Updates[s-1].RDom; r != nil {
					for _, v := range r.Vars {
						m.dims = append(m.dims, r.Name.Name+"."+v.Name.Name)
					}
				}
			}
			for _, v := range f.Vars {
				m.dims = append(m.dims, v.Name)
				m.pure[v.Name] = true
			}
			var chain []string
			for k := rng.IntN(4); k > 0; k-- {
				if d := m.draw(rng); d != "" {
					chain = append(chain, d)
				}
			}
			if len(chain) > 0 {
				if rng.IntN(5) == 0 && len(p.Params) > 0 {
					// a specialization on a size, small or beyond what
					// the assumptions allow (an empty region there), its
					// directives either after it (the specialised copy) or
					// before it (both copies)
					prm := p.Params[rng.IntN(len(p.Params))].Name
					spec := fmt.Sprintf("specialize(%s >= %d)", prm, []int{2, 3, 5, 7, 1000}[rng.IntN(5)])
					at := rng.IntN(len(chain) + 1)
					chain = append(chain[:at:at], append([]string{spec}, chain[at:]...)...)
				}
				lines = append(lines, m.head+"."+strings.Join(chain, "."))
			}
			loops[f.Name.Name] = append(loops[f.Name.Name], m.dims...)
		}
	}
	outputs := map[string]bool{}
	for _, o := range p.Outputs() {
		outputs[o.Func.Name] = true
	}
	funcs := p.Funcs()
	placed := map[string]string{} // func -> where it is computed ("" the root, "-" inline)
	for i, f := range funcs {
		name := f.Name.Name
		if outputs[name] {
			continue
		}
		var cons []string
		for _, g := range funcs[i+1:] {
			if reads(g, name) {
				cons = append(cons, g.Name.Name)
			}
		}
		switch r := rng.IntN(6); {
		case r == 0 && len(f.Updates) == 0:
			lines = append(lines, name+".compute_inline()")
			placed[name] = "-"
		case r <= 3 && len(cons) > 0:
			g := cons[rng.IntN(len(cons))]
			ls := loops[g]
			lp := ls[rng.IntN(len(ls))]
			line := fmt.Sprintf("%s.compute_at(%s, %s)", name, g, lp)
			placed[name] = g + "." + lp
			if rng.IntN(3) == 0 && len(f.Vars) > 0 {
				line += ".store_root()"
				v := f.Vars[rng.IntN(len(f.Vars))].Name
				line += fmt.Sprintf(".fold_storage(%s, %d)", v, 2+rng.IntN(6))
			}
			if rng.IntN(4) == 0 && len(f.Vars) > 0 {
				v := f.Vars[rng.IntN(len(f.Vars))].Name
				line += fmt.Sprintf(".bound_extent(%s, %d)", v, 1+rng.IntN(12))
			}
			lines = append(lines, line)
		case r == 4 && len(f.Vars) > 0:
			v := f.Vars[rng.IntN(len(f.Vars))].Name
			lines = append(lines, fmt.Sprintf("%s.compute_root().align_bounds(%s, %d)", name, v, 2+rng.IntN(3)))
		}
	}
	if line := randomComputeWith(p, rng, loops, placed); line != "" {
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n") + "\n"
}

// randomComputeWith draws F.compute_with(G, x) for two funcs of pure
// definitions alone, neither inlined nor reading the other, x one of the
// outermost loops their stages share (loops gives each func's loops,
// innermost first), with F computed where G is (placed gives where each
// func is computed: "" the root, "-" inline, else G.x); one time in two
// where there are such funcs, else "".
func randomComputeWith(p *alg.Program, rng *rand.Rand, loops map[string][]string, placed map[string]string) string {
	var cands []string
	for _, f := range p.Funcs() {
		for _, g := range p.Funcs() {
			a, b := f.Name.Name, g.Name.Name
			if a == b || len(f.Updates) > 0 || len(g.Updates) > 0 || placed[a] == "-" || placed[b] == "-" || reads(f, b) || reads(g, a) {
				continue
			}
			at := ""
			switch {
			case placed[a] == placed[b]:
			case placed[b] == "":
				at = a + ".compute_root()\n"
			default:
				gl := strings.SplitN(placed[b], ".", 2)
				at = fmt.Sprintf("%s.compute_at(%s, %s)\n", a, gl[0], gl[1])
			}
			la, lb := loops[a], loops[b]
			for k := 1; k <= len(la) && k <= len(lb) && la[len(la)-k] == lb[len(lb)-k]; k++ {
				cands = append(cands, fmt.Sprintf("%s%s.compute_with(%s, %s)", at, a, b, la[len(la)-k]))
			}
		}
	}
	// the random numbers drawn only where there are candidates: the
	// schedules of other algorithms stay those of their seeds
	if len(cands) == 0 || rng.IntN(2) > 0 {
		return ""
	}
	return cands[rng.IntN(len(cands))]
}

// draw returns one random loop directive for the stage and updates the
// model, or "" when none was drawn.
func (m *stageModel) draw(rng *rand.Rand) string {
	if len(m.dims) == 0 {
		return ""
	}
	m.n++
	pick := func(pred func(string) bool) string {
		var c []string
		for _, d := range m.dims {
			if pred(d) {
				c = append(c, d)
			}
		}
		if len(c) == 0 {
			return ""
		}
		return c[rng.IntN(len(c))]
	}
	fresh := func(base string) string {
		return fmt.Sprintf("%s_%d%c", strings.ReplaceAll(base, ".", "_"), m.n, 'a'+rune(rng.IntN(26)))
	}
	switch rng.IntN(7) {
	case 0, 1: // split
		x := pick(func(string) bool { return true })
		o, in := fresh("o"), fresh("i")
		k := 2 + rng.IntN(4)
		tail := "guard"
		if m.pure[x] && m.pureS {
			tail = []string{"guard", "shift", "round"}[rng.IntN(3)]
		}
		at := index(m.dims, x)
		m.dims = append(m.dims[:at], append([]string{in, o}, m.dims[at+1:]...)...)
		m.pure[in], m.pure[o] = m.pure[x], m.pure[x]
		m.konst[in] = true
		return fmt.Sprintf("split(%s, %s, %s, %d, %s)", x, o, in, k, tail)
	case 2: // reorder two pure loops
		a := pick(func(d string) bool { return m.pure[d] })
		b := pick(func(d string) bool { return m.pure[d] && d != a })
		if a == "" || b == "" {
			return ""
		}
		i, j := index(m.dims, a), index(m.dims, b)
		m.dims[i], m.dims[j] = m.dims[j], m.dims[i]
		if i > j {
			i, j = j, i
		}
		return fmt.Sprintf("reorder(%s, %s)", m.dims[i], m.dims[j])
	case 3:
		x := pick(func(d string) bool { return m.pure[d] })
		if x == "" {
			return ""
		}
		return fmt.Sprintf("parallel(%s)", x)
	case 4:
		// a loop of constant extent, or, one time in two, any pure loop:
		// bounded where the func is computed inside a loop (a constant
		// upper bound, each lane guarded), rejected where unbounded
		any := rng.IntN(2) == 0
		x := pick(func(d string) bool { return m.pure[d] && (m.konst[d] || any) })
		if x == "" {
			return ""
		}
		return fmt.Sprintf("vectorize(%s)", x)
	case 5:
		any := rng.IntN(2) == 0
		x := pick(func(d string) bool { return m.konst[d] || any })
		if x == "" {
			return ""
		}
		return fmt.Sprintf("unroll(%s)", x)
	case 6: // fuse a loop with the one just outside it (of any extent: two nested loops where not constant)
		i := rng.IntN(len(m.dims))
		if i+1 >= len(m.dims) || m.pure[m.dims[i]] != m.pure[m.dims[i+1]] {
			return ""
		}
		in, out := m.dims[i], m.dims[i+1]
		fz := fresh("f")
		m.dims = append(m.dims[:i], append([]string{fz}, m.dims[i+2:]...)...)
		m.pure[fz] = m.pure[in]
		return fmt.Sprintf("fuse(%s, %s, %s)", in, out, fz)
	}
	return ""
}
func index(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}
