package compiler

import (
	"context"
	"fmt"
	"strings"

	"github.com/augur-verify/augur/compiler/alg"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// box is the region of a func or input: per dimension, the inclusive
// bounds [Lo, Hi] and the extent Hi - Lo + 1, quasi-affine in the
// parameters.
type box struct {
	Lo, Hi, Extent []syntax.Expr
}

// bounds infers the region of every func and input the outputs need (seed
// 003, section 2.7, for compute_root): an output's region is its declared
// box; any other func's or input's is the bounding box of the union, over
// its consumers' stages, of the images of its accesses over the
// consumer's loop domain (its region, times the RDom of an update). Each
// bound is the lexicographic minimum or maximum of the exact image computed
// by package presburger, under the assumptions. Dead funcs get no region.
func (c *compiler) bounds(ctx context.Context) error {
	c.regions = map[string]*box{}
	var ctxt []string
	for _, a := range c.assumptions() {
		s, err := toISL(mustParse(a), same)
		if err != nil {
			return fmt.Errorf("assumption %s: %v", a, err)
		}
		ctxt = append(ctxt, s)
	}
	c.context = strings.Join(append(ctxt, "0 = 0"), " and ")
	outputs := map[string]*alg.Output{}
	for _, o := range c.p.Outputs() {
		outputs[o.Func.Name] = o
	}
	funcs := c.p.Funcs()
	for i := len(funcs) - 1; i >= 0; i-- {
		f := funcs[i]
		if o := outputs[f.Name.Name]; o != nil {
			b := &box{}
			for d, dim := range o.Dims {
				set := fmt.Sprintf("%s <= buf_o < %s", isl(dim.Lo), isl(dim.Hi))
				if err := c.extrema(ctx, b, set, f.Name.Name, d, dim.Lo.Pos()); err != nil {
					return err
				}
			}
			c.regions[f.Name.Name] = b
			continue
		}
		if b, err := c.imageBox(ctx, f.Name.Name, len(f.Vars), funcs[i+1:], f.Pos); err != nil {
			return err
		} else if b != nil {
			c.regions[f.Name.Name] = b
		}
	}
	for _, in := range c.p.Inputs() {
		if b, err := c.imageBox(ctx, in.Name.Name, len(in.Vars), funcs, in.Pos); err != nil {
			return err
		} else if b != nil {
			c.regions[in.Name.Name] = b
		}
	}
	return nil
}

func same(s string) string { return s }

func isl(x syntax.Expr) string {
	s, err := toISL(x, func(n string) string { return rvar(n) })
	if err != nil {
		panic(err) // callers pass checked affine expressions
	}
	return s
}

// access is one read G(args) in a stage, with the stage's loop domain.
type access struct {
	vars []string // the loop variables
	dom  string   // their domain, in isl notation
	args []syntax.Expr
}

// accesses lists the reads of name in the definitions of the live funcs
// among consumers.
func (c *compiler) accesses(name string, consumers []*alg.Func) []access {
	var out []access
	for _, f := range consumers {
		b := c.regions[f.Name.Name]
		if b == nil {
			continue
		}
		vars := identNames(f.Vars)
		var dom []string
		for d, v := range vars {
			dom = append(dom, fmt.Sprintf("%s <= %s <= %s", isl(b.Lo[d]), v, isl(b.Hi[d])))
		}
		collect := func(x syntax.Expr, vars []string, dom []string) {
			syntax.Inspect(x, func(e syntax.Expr) bool {
				if cl, ok := e.(*syntax.Call); ok && cl.Fun.Name == name {
					out = append(out, access{vars: vars, dom: strings.Join(append(dom, "0 = 0"), " and "), args: cl.Args})
				}
				return true
			})
		}
		collect(f.Value, vars, dom)
		for _, u := range f.Updates {
			uv, ud := vars, dom
			ks, rvs := rdomDims(u)
			if len(ks) > 0 {
				uv = append(append([]string{}, vars...), ks...)
				ud = append([]string{}, dom...)
				for i, v := range rvs {
					ud = append(ud, fmt.Sprintf("%s <= %s < %s", isl(v.Lo), ks[i], isl(v.Hi)))
				}
			}
			collect(u.Value, uv, ud)
		}
	}
	return out
}

// imageBox returns the bounding box of the reads of name by consumers, or
// nil if nothing reads it.
func (c *compiler) imageBox(ctx context.Context, name string, rank int, consumers []*alg.Func, pos syntax.Pos) (*box, error) {
	acc := c.accesses(name, consumers)
	if len(acc) == 0 {
		return nil, nil
	}
	b := &box{}
	for d := 0; d < rank; d++ {
		var disj []string
		for _, a := range acc {
			arg, err := toISL(a.args[d], rvar)
			if err != nil {
				return nil, c.errAt(a.args[d].Pos(), "bounds of %s: %v", name, err)
			}
			disj = append(disj, fmt.Sprintf("(exists (%s : %s and buf_o = %s))", strings.Join(a.vars, ", "), a.dom, arg))
		}
		if err := c.extrema(ctx, b, strings.Join(disj, " or "), name, d, pos); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// extrema adds to b the minimum and maximum of o over the set
// { [buf_o] : cond } under the assumptions, and the extent. (The set's
// dimension has the prefix buf_, which the checker reserves, so that it
// names no parameter or variable.)
func (c *compiler) extrema(ctx context.Context, b *box, cond, name string, d int, pos syntax.Pos) error {
	set, err := presburger.ParseSet(fmt.Sprintf("[%s] -> { [buf_o] : %s and (%s) }", strings.Join(c.params, ", "), c.context, cond))
	if err != nil {
		return c.errAt(pos, "bounds of %s in dimension %d: %v", name, d+1, err)
	}
	lo, err := c.optimum(ctx, set, false, true)
	if err != nil {
		return c.errAt(pos, "lower bound of %s in dimension %d: %v", name, d+1, err)
	}
	hi, err := c.optimum(ctx, set, true, true)
	if err != nil {
		return c.errAt(pos, "upper bound of %s in dimension %d: %v", name, d+1, err)
	}
	ext, err := c.simplify(ctx, fmt.Sprintf("buf_o = (%s) - (%s) + 1", isl(hi), isl(lo)))
	if err != nil {
		// A piecewise extent (bounds widened with min or max): the
		// expression itself.
		ext = simplifyAdd(sub(hi, lo), 1)
	}
	b.Lo = append(b.Lo, lo)
	b.Hi = append(b.Hi, hi)
	b.Extent = append(b.Extent, ext)
	return nil
}

// simplify returns the value of buf_o in { [buf_o] : cond } (a function of the
// parameters) in canonical form.
func (c *compiler) simplify(ctx context.Context, cond string) (syntax.Expr, error) {
	set, err := presburger.ParseSet(fmt.Sprintf("[%s] -> { [buf_o] : %s and %s }", strings.Join(c.params, ", "), c.context, cond))
	if err != nil {
		return nil, err
	}
	return c.optimum(ctx, set, false, false)
}

// optimum returns the lexicographic minimum or maximum of the
// one-dimensional set as an index expression of the parameters; a
// piecewise optimum is an error unless widen is set.
func (c *compiler) optimum(ctx context.Context, set *presburger.Map, max, widen bool) (syntax.Expr, error) {
	var f *presburger.PwMultiAff
	var err error
	if max {
		f, err = presburger.LexMax(ctx, set)
	} else {
		f, err = presburger.LexMin(ctx, set)
	}
	if err != nil {
		return nil, err
	}
	if f, err = f.Coalesce(ctx); err != nil {
		return nil, err
	}
	// A piecewise optimum is widened to the minimum (for a lower bound) or
	// maximum (upper) of its pieces' expressions: a box at least as large,
	// as Halide's interval arithmetic would give. Funcs are defined over all
	// integers and inputs hold values everywhere, so computing or loading
	// more points is harmless.
	if !widen && f.NumPieces() != 1 {
		return nil, fmt.Errorf("%s is piecewise", f)
	}
	var out syntax.Expr
	for _, pc := range f.Pieces() {
		affs := pc.Func.Affs()
		if len(affs) != 1 {
			return nil, fmt.Errorf("unexpected bound %s", f)
		}
		e, err := affExpr(affs[0], c.params)
		if err != nil {
			return nil, err
		}
		switch {
		case out == nil:
			out = e
		case syntax.Equal(out, e):
		case max:
			out = call("max", out, e)
		default:
			out = call("min", out, e)
		}
	}
	if out == nil {
		return nil, fmt.Errorf("the region is empty")
	}
	return out, nil
}
