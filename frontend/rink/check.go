package rink

import (
	"fmt"
	"strings"

	"github.com/augur-verify/augur/syntax"
)

// Shape is a tensor type: the extents of its dimensions, () for a scalar.
type Shape []int64

func (s Shape) String() string {
	var b strings.Builder
	b.WriteByte('[')
	for i, d := range s {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprint(&b, d)
	}
	b.WriteByte(']')
	return b.String()
}

// Equal reports whether s and t are the same type.
func (s Shape) Equal(t Shape) bool {
	if len(s) != len(t) {
		return false
	}
	for i := range s {
		if s[i] != t[i] {
			return false
		}
	}
	return true
}

// Info is what Check computes: the static context Γ and the type of every
// expression.
type Info struct {
	// Context maps each declared variable to its type (rule s-var).
	Context map[string]Shape
	// Types maps every well-typed expression of the program to its type
	// (never nil: a scalar's is empty).
	Types map[Expr]Shape
}

// Load parses and checks a program; the error, if any, is a
// syntax.ErrorList with every problem found.
func Load(src *syntax.Source) (*Program, *Info, error) {
	prog, errs := Parse(src)
	if len(errs) > 0 {
		return prog, nil, errs
	}
	info, errs := Check(prog)
	if len(errs) > 0 {
		return prog, info, errs
	}
	return prog, info, nil
}

// Check forms the static context from the declarations (Fig. 7) and
// checks every statement (Fig. 8) and expression (Fig. 9). It reports the
// five ways the paper lists for a program to be ill-formed (Section
// 3.2.1) as positioned errors, and also dimension numbers out of range and
// a contraction of a dimension with itself, which the rules leave
// unspecified. A pair [m n] with m > n is accepted and means [n m]: both
// operations are symmetric in their two dimensions.
func Check(p *Program) (*Info, syntax.ErrorList) {
	c := &checker{
		info: &Info{Context: map[string]Shape{}, Types: map[Expr]Shape{}},
		r:    &syntax.Reporter{Src: p.Src},
	}
	first := map[string]syntax.Pos{}
	for _, d := range p.Decls {
		if prev, dup := first[d.Name.Name]; dup {
			c.r.ErrorCodef(d.Name.Pos, syntax.CodeRedeclared, "%s redeclared (first declared at %s)", d.Name.Name, prev)
			continue
		}
		first[d.Name.Name] = d.Name.Pos
		c.info.Context[d.Name.Name] = append(Shape{}, d.Extents...)
	}
	for _, s := range p.Stmts {
		want, ok := c.info.Context[s.LHS.Name]
		got := c.expr(s.RHS)
		switch {
		case !ok:
			c.r.ErrorCodef(s.LHS.Pos, syntax.CodeUndeclared, "assignment to undeclared variable %s", s.LHS.Name)
		case got != nil && !got.Equal(want):
			c.r.ErrorCodef(s.RHS.Pos(), syntax.CodeType, "cannot assign a value of type %s to %s of type %s", got, s.LHS.Name, want)
		}
	}
	c.r.Errs.Sort()
	return c.info, c.r.Errs
}

type checker struct {
	info *Info
	r    *syntax.Reporter
}

// expr returns the type of e, or nil after reporting why it has none.
func (c *checker) expr(e Expr) Shape {
	t := c.typeOf(e)
	if t != nil {
		c.info.Types[e] = t
	}
	return t
}

func (c *checker) typeOf(e Expr) Shape {
	switch e := e.(type) {
	case *VarRef: // t-var
		t, ok := c.info.Context[e.Name]
		if !ok {
			c.r.ErrorCodef(e.Ident.Pos, syntax.CodeUndeclared, "undeclared variable %s", e.Name)
			return nil
		}
		return t
	case *Paren: // t-paren
		return c.expr(e.X)
	case *Product: // t-prod
		x, y := c.expr(e.X), c.expr(e.Y)
		if x == nil || y == nil {
			return nil
		}
		return append(append(Shape{}, x...), y...)
	case *Transpose: // t-trans
		x := c.expr(e.X)
		if x == nil || !c.dims(x, e.M, e.MPos, e.N, e.NPos, "transpose") {
			return nil
		}
		t := append(Shape{}, x...)
		t[e.M-1], t[e.N-1] = t[e.N-1], t[e.M-1]
		return t
	case *Contract: // t-contr
		x := c.expr(e.X)
		if x == nil || !c.dims(x, e.M, e.MPos, e.N, e.NPos, "contract") {
			return nil
		}
		if e.M == e.N {
			c.r.ErrorCodef(e.NPos, syntax.CodeShape, "cannot contract dimension %d with itself", e.M)
			return nil
		}
		if x[e.M-1] != x[e.N-1] {
			c.r.ErrorCodef(e.OpPos, syntax.CodeShape, "cannot contract dimensions %d and %d of a value of type %s: extents %d and %d differ",
				e.M, e.N, x, x[e.M-1], x[e.N-1])
			return nil
		}
		t := Shape{}
		for i, d := range x {
			if i != e.M-1 && i != e.N-1 {
				t = append(t, d)
			}
		}
		return t
	case *Binary: // t-elem, t-smul, t-sdiv
		x, y := c.expr(e.X), c.expr(e.Y)
		if x == nil || y == nil {
			return nil
		}
		switch {
		case x.Equal(y):
			return x
		case e.Op == '*' && len(x) == 0:
			return y
		case e.Op == '/' && len(y) == 0:
			return x
		}
		hint := ""
		switch {
		case e.Op == '*' && len(y) == 0:
			hint = " (a scalar multiplies from the left: write s * e)"
		case e.Op == '/' && len(x) == 0:
			hint = " (only division by a scalar is allowed, not of one)"
		}
		c.r.ErrorCodef(e.OpPos, syntax.CodeType, "mismatched types %s %c %s%s", x, e.Op, y, hint)
		return nil
	}
	return nil
}

// dims checks that m and n name dimensions of a value of type t.
func (c *checker) dims(t Shape, m int, mpos syntax.Pos, n int, npos syntax.Pos, verb string) bool {
	ok := true
	for _, d := range []struct {
		k   int
		pos syntax.Pos
	}{{m, mpos}, {n, npos}} {
		if d.k < 1 || d.k > len(t) {
			c.r.ErrorCodef(d.pos, syntax.CodeShape, "cannot %s dimension %d of a value of type %s (rank %d): dimensions are numbered from 1", verb, d.k, t, len(t))
			ok = false
		}
	}
	return ok
}
