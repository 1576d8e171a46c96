//go:build isl

package islcheck

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// This file generates random sets and relations as isl-notation strings.
// An object keeps its pieces as lists of atoms (strings) so that a failing
// case can be shrunk by dropping pieces and atoms.

// tuple is a flat tuple name[dims] or a wrapped pair [left -> right].
type tuple struct {
	name        string
	dims        []string
	left, right *tuple
}

func (t *tuple) String() string {
	if t.left != nil {
		return t.name + "[" + t.left.String() + " -> " + t.right.String() + "]"
	}
	return t.name + "[" + strings.Join(t.dims, ", ") + "]"
}

func (t *tuple) allDims() []string {
	if t.left != nil {
		return append(t.left.allDims(), t.right.allDims()...)
	}
	return t.dims
}

func (t *tuple) nested() bool { return t.left != nil }

// shape is the space of a generated object: parameters, an optional input
// tuple (nil for a set) and the output tuple.
type shape struct {
	params []string
	in     *tuple
	out    *tuple
}

func (s *shape) isSet() bool { return s.in == nil }

func (s *shape) dims() []string {
	var d []string
	if s.in != nil {
		d = append(d, s.in.allDims()...)
	}
	return append(d, s.out.allDims()...)
}

func (s *shape) vars() []string { return append(append([]string(nil), s.params...), s.dims()...) }

func (s *shape) tuples() string {
	if s.in != nil {
		return s.in.String() + " -> " + s.out.String()
	}
	return s.out.String()
}

func (s *shape) prefix() string {
	if len(s.params) == 0 {
		return ""
	}
	return "[" + strings.Join(s.params, ", ") + "] -> "
}

// obj is a generated set or relation: a union of pieces, each a
// conjunction of atoms.
type obj struct {
	sh     *shape
	pieces [][]string
	args   []int  // operation arguments drawn with the object
	raw    string // if set, the object's text (a fixed case, not shrunk)
}

// rawObj returns a fixed object with text src; set tells whether it is a
// set or a relation.
func rawObj(src string, set bool) obj {
	sh := &shape{out: &tuple{}}
	if !set {
		sh.in = &tuple{}
	}
	return obj{sh: sh, raw: src}
}

// A piece whose first atom starts with "@" uses the rest of that atom as
// its tuples instead of the shape's (a tuple with expressions, see head).
func pieceString(sh *shape, atoms []string) string {
	head := sh.tuples()
	if len(atoms) > 0 && strings.HasPrefix(atoms[0], "@") {
		head, atoms = atoms[0][1:], atoms[1:]
	}
	if len(atoms) == 0 {
		return head
	}
	return head + " : " + strings.Join(atoms, " and ")
}

func (o obj) String() string {
	if o.raw != "" {
		return o.raw
	}
	if len(o.pieces) == 0 {
		return o.sh.prefix() + "{ " + o.sh.tuples() + " : false }"
	}
	parts := make([]string, len(o.pieces))
	for i, p := range o.pieces {
		parts[i] = pieceString(o.sh, p)
	}
	return o.sh.prefix() + "{ " + strings.Join(parts, "; ") + " }"
}

func (o obj) copy() obj {
	ps := make([][]string, len(o.pieces))
	for i, p := range o.pieces {
		ps[i] = append([]string(nil), p...)
	}
	return obj{o.sh, ps, append([]int(nil), o.args...), o.raw}
}

// gen draws random objects from a fixed-seed generator.
type gen struct {
	r      *rand.Rand
	nextID int
	// hard selects harder inputs: larger and huge coefficients, tuple
	// expressions, zero-dimensional tuples, implications, more pieces.
	hard bool
}

func newGen(seed uint64) *gen { return &gen{r: rand.New(rand.NewPCG(seed, 0x15c))} }

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func (g *gen) between(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }

var paramPool = []string{"N", "M"}

func (g *gen) params() []string {
	switch g.r.IntN(3) {
	case 0:
		return nil
	case 1:
		return []string{paramPool[g.r.IntN(2)]}
	}
	return []string{"N", "M"}
}

// flat returns name[prefix0, prefix1, ...] with n dimensions.
func flat(name, prefix string, n int) *tuple {
	t := &tuple{name: name, dims: []string{}}
	for i := 0; i < n; i++ {
		t.dims = append(t.dims, fmt.Sprintf("%s%d", prefix, i))
	}
	return t
}

// setShape returns a random set shape with 1 to maxDims dimensions,
// sometimes a wrapped pair [a[..] -> E[..]].
func (g *gen) setShape(params []string, maxDims int) *shape {
	if maxDims >= 2 && g.chance(0.2) {
		nl := g.between(1, maxDims-1)
		nr := g.between(1, maxDims-nl)
		return &shape{params: params, out: &tuple{left: flat("a", "i", nl), right: flat("E", "j", nr)}}
	}
	names := []string{"S", "T", ""}
	lo := 1
	if g.hard && len(params) > 0 {
		lo = 0
	}
	return &shape{params: params, out: flat(names[g.r.IntN(3)], "i", g.between(lo, maxDims))}
}

// mapShape returns a random relation shape in -> out.
func (g *gen) mapShape(params []string, inName, outName string, nin, nout int) *shape {
	sh := &shape{params: params, in: flat(inName, "i", nin), out: flat(outName, "o", nout)}
	if nin >= 2 && g.chance(0.15) {
		sh.in = &tuple{left: flat("a", "i", nin-1), right: flat("E", "k", 1)}
	}
	return sh
}

func (g *gen) randomMapShape(params []string) *shape {
	return g.mapShape(params, "A", "B", g.between(1, 3), g.between(1, 3))
}

// aff returns a random affine expression over vars.
func (g *gen) aff(vars []string, maxTerms int) string {
	var b strings.Builder
	n := g.between(1, maxTerms)
	used := map[string]bool{}
	for k := 0; k < n && len(vars) > 0; k++ {
		v := vars[g.r.IntN(len(vars))]
		if used[v] {
			continue
		}
		used[v] = true
		c := []int{1, 1, 1, -1, -1, 2, -2, 3}[g.r.IntN(8)]
		if g.hard && g.chance(0.3) {
			c = g.between(-7, 7)
			if c == 0 {
				c = 5
			}
			if g.chance(0.1) {
				c *= 1 << 31
			}
		}
		writeTerm(&b, c, v, b.Len() == 0, g.chance(0.5))
	}
	if b.Len() == 0 || g.chance(0.6) {
		c := g.between(-6, 6)
		if g.hard && g.chance(0.08) {
			c = g.between(-3, 3) * (1 << 40)
		}
		if c != 0 || b.Len() == 0 {
			writeTerm(&b, c, "", b.Len() == 0, false)
		}
	}
	return b.String()
}

func writeTerm(b *strings.Builder, c int, v string, first, star bool) {
	switch {
	case first && c < 0:
		b.WriteString("-")
	case !first && c < 0:
		b.WriteString(" - ")
	case !first:
		b.WriteString(" + ")
	}
	if c < 0 {
		c = -c
	}
	switch {
	case v == "":
		fmt.Fprint(b, c)
	case c == 1:
		b.WriteString(v)
	case star:
		fmt.Fprintf(b, "%d*%s", c, v)
	default:
		fmt.Fprintf(b, "%d%s", c, v)
	}
}

func (g *gen) cmp() string { return []string{"<=", "<", ">=", ">"}[g.r.IntN(4)] }

// div returns a divisor for floor and mod.
func (g *gen) div(lo, hi int) int {
	if g.hard {
		hi += 8
	}
	return g.between(lo, hi)
}

func (g *gen) fresh() string {
	g.nextID++
	return fmt.Sprintf("e%d", g.nextID%10)
}

// atom returns one random quasi-affine constraint over vars.
func (g *gen) atom(vars []string, depth int) string {
	k := g.r.IntN(100)
	switch {
	case k < 28:
		return fmt.Sprintf("%s %s %s", g.aff(vars, 2), g.cmp(), g.aff(vars, 1))
	case k < 36:
		return fmt.Sprintf("%s = %s", g.aff(vars, 2), g.aff(vars, 2))
	case k < 48:
		return fmt.Sprintf("(%s) mod %d = %d", g.aff(vars, 2), g.div(2, 4), g.between(0, 1))
	case k < 60:
		return fmt.Sprintf("floor((%s)/%d) %s %s", g.aff(vars, 2), g.div(2, 5), g.cmp(), g.aff(vars, 2))
	case k < 64:
		return fmt.Sprintf("ceil((%s)/%d) %s %s", g.aff(vars, 2), g.between(2, 3), g.cmp(), g.aff(vars, 1))
	case k < 76:
		e := g.fresh()
		ev := append(append([]string(nil), vars...), e)
		if g.chance(0.5) {
			return fmt.Sprintf("exists (%s: %s = %d%s + %s)", e, g.aff(vars, 2), g.div(2, 4), e, g.aff(vars, 1))
		}
		return fmt.Sprintf("exists (%s: %s <= %s and %s >= %s)", e, g.aff(ev, 2), g.aff(vars, 1), g.aff(ev, 2), g.aff(vars, 1))
	case k < 84:
		fn := []string{"min", "max"}[g.r.IntN(2)]
		return fmt.Sprintf("%s %s %s(%s, %s)", g.aff(vars, 2), []string{"=", "<=", ">="}[g.r.IntN(3)], fn, g.aff(vars, 2), g.aff(vars, 1))
	case k < 92 && depth == 0:
		return fmt.Sprintf("(%s or %s)", g.atom(vars, 1), g.atom(vars, 1))
	case k < 96 && depth == 0:
		if g.hard && g.chance(0.5) {
			return fmt.Sprintf("(%s implies %s)", g.atom(vars, 1), g.atom(vars, 1))
		}
		return fmt.Sprintf("not (%s)", g.atom(vars, 1))
	}
	return fmt.Sprintf("%s != %s", g.aff(vars, 2), g.aff(vars, 1))
}

// bound returns constraints bounding dimension v, in terms of constants,
// parameters and the dimensions before it.
func (g *gen) bound(sh *shape, v string, before []string) []string {
	lo := fmt.Sprint(g.between(-4, 2))
	hi := fmt.Sprint(g.between(3, 9))
	if len(sh.params) > 0 && g.chance(0.4) {
		hi = sh.params[g.r.IntN(len(sh.params))]
		if g.chance(0.3) {
			hi += fmt.Sprintf(" - %d", g.between(1, 3))
		}
	}
	if len(before) > 0 && g.chance(0.25) {
		lo = before[g.r.IntN(len(before))]
	}
	switch g.r.IntN(6) {
	case 0:
		return []string{fmt.Sprintf("%s <= %s", lo, v)}
	case 1:
		return []string{fmt.Sprintf("%s < %s", v, hi)}
	}
	return []string{fmt.Sprintf("%s <= %s <= %s", lo, v, hi)}
}

// object returns a random union of 1 to maxPieces pieces in shape sh; with
// probability bounded every dimension is bounded in every piece.
func (g *gen) object(sh *shape, maxPieces, maxAtoms int, bounded float64) obj {
	o := obj{sh: sh}
	if g.hard {
		maxPieces += 2
	}
	np := g.between(1, maxPieces)
	allBounded := g.chance(bounded)
	for p := 0; p < np; p++ {
		var atoms []string
		vars, dims := sh.vars(), sh.dims()
		if g.hard && g.chance(0.3) {
			var head, gone string
			head, gone = g.head(sh)
			if head != "" {
				atoms = append(atoms, head)
				vars, dims = without(vars, gone), without(dims, gone)
			}
		}
		for i, d := range dims {
			if allBounded || g.chance(0.6) {
				atoms = append(atoms, g.bound(sh, d, dims[:i])...)
			}
		}
		for a := g.between(0, maxAtoms); a > 0; a-- {
			atoms = append(atoms, g.atom(vars, 0))
		}
		o.pieces = append(o.pieces, atoms)
	}
	return o
}

func without(xs []string, x string) []string {
	var out []string
	for _, y := range xs {
		if y != x {
			out = append(out, y)
		}
	}
	return out
}

// head returns the tuples of sh with one output dimension replaced by an
// expression of the input dimensions and parameters (for a set, of the
// dimensions before it), as a piece's "@" atom, and the name replaced; it
// returns "" if sh has no such dimension.
func (g *gen) head(sh *shape) (string, string) {
	if sh.out.nested() || len(sh.out.dims) == 0 {
		return "", ""
	}
	var k int
	var over []string
	if sh.in != nil {
		k = g.r.IntN(len(sh.out.dims))
		over = append(append([]string(nil), sh.params...), sh.in.allDims()...)
	} else {
		if len(sh.out.dims) < 2 {
			return "", ""
		}
		k = g.between(1, len(sh.out.dims)-1)
		over = append(append([]string(nil), sh.params...), sh.out.dims[:k]...)
	}
	var e string
	if g.chance(0.3) && len(over) > len(sh.params) {
		e = over[len(sh.params)+g.r.IntN(len(over)-len(sh.params))] // a repeated name
	} else {
		e = g.aff(over, 2)
	}
	elems := append([]string(nil), sh.out.dims...)
	elems[k] = e
	t := sh.out.name + "[" + strings.Join(elems, ", ") + "]"
	if sh.in != nil {
		t = sh.in.String() + " -> " + t
	}
	return "@" + t, sh.out.dims[k]
}
