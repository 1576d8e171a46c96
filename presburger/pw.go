package presburger

import (
	"context"
	"fmt"
	"strings"
)

// PwPiece is one piece of a piecewise function: Func applies on the
// integer points of Domain (a conjunction in the function's domain space).
type PwPiece struct {
	Domain *BasicMap
	Func   *MultiAff
}

// PwMultiAff is a piecewise quasi-affine function (isl's pw_multi_aff): a
// finite list of pieces (D_i, f_i) with pairwise disjoint domains, denoting
// the partial function x -> f_i(x) for x in D_i, undefined outside the
// union of the D_i. Its space is the space of its graph: a relation space
// in -> out (the domain space is the set space of in), or a set space
// whose functions depend on the parameters only (the domain space is the
// parameter space).
type PwMultiAff struct {
	space  Space
	pieces []PwPiece
}

// NewPwMultiAff returns the piecewise function with the given pieces in
// function space sp. The domains must be pairwise disjoint; this is the
// caller's obligation and is not checked (see CheckDisjoint).
func NewPwMultiAff(sp Space, pieces ...PwPiece) (*PwMultiAff, error) {
	dom := sp.Domain()
	p := &PwMultiAff{space: sp.Copy()}
	for i, pc := range pieces {
		if pc.Domain.Space().Key() != dom.Key() || pc.Func.space.Key() != dom.Key() {
			return nil, fmt.Errorf("presburger: piece %d does not live on the domain %v", i, dom)
		}
		if pc.Func.out.Dim() != sp.NumOut() {
			return nil, fmt.Errorf("presburger: piece %d has %d outputs, want %d", i, pc.Func.out.Dim(), sp.NumOut())
		}
		p.pieces = append(p.pieces, PwPiece{Domain: pc.Domain.Copy(), Func: pc.Func})
	}
	return p, nil
}

// Space returns the space of the graph of p.
func (p *PwMultiAff) Space() Space { return p.space.Copy() }

// Pieces returns the pieces of p (domains are copies).
func (p *PwMultiAff) Pieces() []PwPiece {
	out := make([]PwPiece, len(p.pieces))
	for i, pc := range p.pieces {
		out[i] = PwPiece{Domain: pc.Domain.Copy(), Func: pc.Func}
	}
	return out
}

// NumPieces returns the number of pieces of p.
func (p *PwMultiAff) NumPieces() int { return len(p.pieces) }

// Domain returns the set of points where p is defined: the union of the
// piece domains (in the domain space, a parameter space for a function of
// the parameters).
func (p *PwMultiAff) Domain() *Map {
	bs := make([]*BasicMap, len(p.pieces))
	for i, pc := range p.pieces {
		bs[i] = pc.Domain
	}
	return NewMap(p.space.Domain(), bs...)
}

// Eval returns p(x) at the integer point x = [params | domain dims] and
// whether p is defined there. Membership in a domain with plain existential
// locals is decided exactly with an emptiness test.
func (p *PwMultiAff) Eval(ctx context.Context, x []Int) ([]Int, bool, error) {
	for _, pc := range p.pieces {
		in, err := pwContains(ctx, pc.Domain, x)
		if err != nil {
			return nil, false, err
		}
		if in {
			v, err := pc.Func.Eval(x)
			return v, err == nil, err
		}
	}
	return nil, false, nil
}

// pwContains reports whether the point x (values of the parameter and
// dimension columns) belongs to b.
func pwContains(ctx context.Context, b *BasicMap, x []Int) (bool, error) {
	nd := b.NumParams() + b.NumIn() + b.NumOut()
	if len(x) != nd {
		return false, fmt.Errorf("presburger: point has %d coordinates, want %d", len(x), nd)
	}
	if b.KnownEmpty() {
		return false, nil
	}
	nl := b.NumLocals()
	v := make([]Int, nd+nl+1)
	copy(v, x)
	v[len(v)-1] = NewInt(1)
	for i := 0; i < nl; i++ {
		num, den := b.Local(i)
		if den.IsZero() {
			// A plain existential: decide by emptiness with the point fixed.
			c := b.Copy()
			for j := 0; j < nd; j++ {
				e := make([]Int, c.NumCols())
				e[j] = NewInt(1)
				e[len(e)-1] = x[j].Neg()
				c.AddEq(e)
			}
			empty, err := c.IsEmpty(ctx)
			return !empty, err
		}
		v[nd+i] = affDot(num, v).FloorDiv(den)
	}
	for _, e := range b.Eqs() {
		if !affDot(e, v).IsZero() {
			return false, nil
		}
	}
	for _, r := range b.Ineqs() {
		if affDot(r, v).Sign() < 0 {
			return false, nil
		}
	}
	return true, nil
}

// ToMap returns the graph of p: { x -> p(x) : x in dom(p) } (for a
// function of the parameters, the set { p() }).
func (p *PwMultiAff) ToMap() *Map {
	var bs []*BasicMap
	for _, pc := range p.pieces {
		bs = append(bs, pwPieceGraph(p.space, pc))
	}
	return NewMap(p.space, bs...)
}

// pwPieceGraph returns the conjunction { x -> f(x) : x in D } in space sp.
func pwPieceGraph(sp Space, pc PwPiece) *BasicMap {
	nP, nI := sp.NumParams(), sp.NumIn()
	g := NewBasicMap(sp)
	d := pc.Domain
	nd := nP + nI
	// Domain column i maps to graph column i (params, in); locals follow.
	dcols := make([]int, 0, d.NumCols())
	for i := 0; i < nd; i++ {
		dcols = append(dcols, i)
	}
	conv := func(r []Int) []Int {
		out := make([]Int, g.NumCols())
		for i, c := range r[:len(r)-1] {
			if !c.IsZero() {
				out[dcols[i]] = c
			}
		}
		out[len(out)-1] = r[len(r)-1]
		return out
	}
	for i := 0; i < d.NumLocals(); i++ {
		num, den := d.Local(i)
		var idx int
		if den.IsZero() {
			idx = g.AddExistential()
		} else {
			idx = g.AddLocalDiv(conv(num), den)
		}
		dcols = append(dcols, g.NumCols()-1-g.NumLocals()+idx)
	}
	for _, e := range d.Eqs() {
		g.AddEq(conv(e))
	}
	for _, r := range d.Ineqs() {
		g.AddIneq(conv(r))
	}
	dimCols := make([]int, nd)
	for i := range dimCols {
		dimCols[i] = i
	}
	for i, a := range pc.Func.affs {
		// The row has g's current width, constant last.
		e := affExprIntoBasic(g, a, dimCols)
		e[nd+i] = e[nd+i].Sub(NewInt(1))
		g.AddEq(e)
	}
	return g
}

// String returns p in isl notation, e.g.
// "[N] -> { A[i] -> [(i + 1)] : i >= 0; A[i] -> [(floor((i)/2))] : i < 0 }".
func (p *PwMultiAff) String() string {
	dom := p.space.Domain()
	names := affNames(dom)
	var b strings.Builder
	if len(dom.Params) > 0 {
		b.WriteString("[" + strings.Join(dom.Params, ", ") + "] -> ")
	}
	b.WriteString("{ ")
	for i, pc := range p.pieces {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(affPieceString(dom, names, p.space.Out, pc.Func.exprsString(names), pwCondString(pc.Domain, names)))
	}
	b.WriteString(" }")
	return b.String()
}

// pwCondString prints the constraints of a domain conjunction over the
// given names ("" when it has none). Existential locals are printed as
// "exists (e0, ...: ...)".
func pwCondString(d *BasicMap, names []string) string {
	cols := append([]string(nil), names...)
	var ex []string
	for i := 0; i < d.NumLocals(); i++ {
		num, den := d.Local(i)
		if den.IsZero() {
			n := fmt.Sprintf("e%d", len(ex))
			ex = append(ex, n)
			cols = append(cols, n)
			continue
		}
		nc := make([]string, len(num))
		copy(nc, cols)
		cols = append(cols, fmt.Sprintf("floor((%s)/%s)", affTermString(num, nc), den))
	}
	cols = append(cols, "")
	var parts []string
	for _, e := range d.Eqs() {
		parts = append(parts, pwRelString(e, cols, " = "))
	}
	for _, r := range d.Ineqs() {
		parts = append(parts, pwRelString(r, cols, " >= "))
	}
	s := strings.Join(parts, " and ")
	if len(ex) > 0 {
		if s == "" {
			s = "true"
		}
		return "exists (" + strings.Join(ex, ", ") + " : " + s + ")"
	}
	return s
}

// pwRelString prints row op 0 as "positive terms op negated negative terms".
func pwRelString(r []Int, cols []string, op string) string {
	pos, neg := make([]Int, len(r)), make([]Int, len(r))
	for i, c := range r {
		if c.Sign() > 0 {
			pos[i] = c
		} else if c.Sign() < 0 {
			neg[i] = c.Neg()
		}
	}
	return affTermString(pos, cols) + op + affTermString(neg, cols)
}

// pwLexCombine returns the piecewise lexicographic minimum (maximum if
// max) of a and b: on the intersection of their domains the smaller
// (larger) value, elsewhere the one that is defined.
func pwLexCombine(ctx context.Context, a, b *PwMultiAff, max bool) (*PwMultiAff, error) {
	return nil, fmt.Errorf("presburger: union of conjunctions not supported yet")
}
