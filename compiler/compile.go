package compiler

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/compiler/alg"
	"github.com/augur-verify/augur/syntax"
)

// Result is a compiled algorithm: the specification and the kernel, as text.
type Result struct {
	Spec  string // .sare
	Sched string // .sched
}

// Compile compiles the checked program p with the default schedule into a
// specification and an annotated kernel named name. Constructs outside this
// milestone (scheduling directives, update definitions whose left-hand side
// is not the pure variables in place, RDoms of more than one variable,
// bounds that are not a single quasi-affine expression) are errors; the
// error is a syntax.ErrorList positioned at the construct when it has one.
func Compile(ctx context.Context, p *alg.Program, name string) (*Result, error) {
	c := &compiler{p: p, name: name}
	if err := c.supported(); err != nil {
		return nil, err
	}
	c.stageNames()
	spec := c.spec()
	sched, err := c.lower(ctx)
	if err != nil {
		return nil, err
	}
	return &Result{Spec: spec, Sched: sched}, nil
}

type compiler struct {
	p      *alg.Program
	name   string
	params []string
	// stage tensors of each func: stages[F][0] is the pure definition's
	// tensor, stages[F][u+1] the u-th update's; final[F] is F's value.
	stages map[string][]string
	// regions of the live funcs and inputs, filled by bounds.
	regions map[string]*box
	context string // the assumptions in isl notation
}

func (c *compiler) errAt(pos syntax.Pos, format string, args ...any) error {
	r := &syntax.Reporter{Src: c.p.Src}
	r.Errorf(pos, format, args...)
	return r.Errs
}

// supported rejects what this milestone does not compile.
func (c *compiler) supported() error {
	if s := c.p.Schedule; s != nil && len(s.Directives) > 0 {
		d := s.Directives[0]
		return c.errAt(d.Pos, "schedule directive %s is not supported yet (this version compiles the default schedule only: every func compute_root, loops in their natural order)", d.Name)
	}
	for _, u := range c.p.Updates() {
		for i, a := range u.Args {
			if id, ok := a.(*syntax.Ident); !ok || id.Name != u.Target.Vars[i].Name {
				return c.errAt(a.Pos(), "update of %s with %s in dimension %d: left-hand sides other than the pure variables in place are not supported yet", u.Func.Name, syntax.ExprString(a), i+1)
			}
		}
	}
	for _, o := range c.p.Outputs() {
		for _, f := range c.p.Funcs() {
			if f.Name.Name == o.Func.Name {
				continue
			}
			if reads(f, o.Func.Name) {
				return c.errAt(o.Pos, "output %s is also read by %s: outputs read by other funcs are not supported yet", o.Func.Name, f.Name.Name)
			}
		}
	}
	empty := func(v *alg.RVar, what string) error {
		if l, ok := linearize(sub(v.Hi, v.Lo)); ok && allZero(l) && l.c < 1 {
			return c.errAt(v.Lo.Pos(), "%s %s in %s .. %s is empty: empty ranges are not supported yet", what, v.Name.Name, syntax.ExprString(v.Lo), syntax.ExprString(v.Hi))
		}
		return nil
	}
	for _, o := range c.p.Outputs() {
		for _, d := range o.Dims {
			if err := empty(d, "output dimension"); err != nil {
				return err
			}
		}
	}
	for _, r := range c.p.RDoms() {
		for _, v := range r.Vars {
			if err := empty(v, "RDom variable"); err != nil {
				return err
			}
		}
	}
	for _, id := range c.p.Params {
		c.params = append(c.params, id.Name)
	}
	return nil
}

// reads reports whether a definition of f reads the func or input name.
func reads(f *alg.Func, name string) bool {
	found := false
	check := func(x syntax.Expr) {
		syntax.Inspect(x, func(e syntax.Expr) bool {
			if cl, ok := e.(*syntax.Call); ok && cl.Fun.Name == name {
				found = true
			}
			return true
		})
	}
	check(f.Value)
	for _, u := range f.Updates {
		if u.Func.Name != name {
			check(u.Value)
		}
	}
	return found
}

func (c *compiler) stageNames() {
	c.stages = map[string][]string{}
	taken := map[string]bool{}
	for _, id := range c.p.Params {
		taken[id.Name] = true
	}
	for _, in := range c.p.Inputs() {
		taken[in.Name.Name] = true
	}
	for _, f := range c.p.Funcs() {
		taken[f.Name.Name] = true
		for _, v := range f.Vars {
			taken[v.Name] = true
		}
	}
	for _, in := range c.p.Inputs() {
		for _, v := range in.Vars {
			taken[v.Name] = true
		}
	}
	fresh := func(base string) string {
		n := base
		for i := 2; taken[n]; i++ {
			n = fmt.Sprintf("%s%d", base, i)
		}
		taken[n] = true
		return n
	}
	for _, f := range c.p.Funcs() {
		if len(f.Updates) == 0 {
			c.stages[f.Name.Name] = []string{f.Name.Name}
			continue
		}
		var names []string
		for u := 0; u <= len(f.Updates); u++ {
			names = append(names, fresh(fmt.Sprintf("%s_%d", f.Name.Name, u)))
		}
		c.stages[f.Name.Name] = names
	}
}

// rvar is the name of the RDom variable r.k as a loop variable and a
// tensor dimension: r_k.
func rvar(name string) string { return strings.ReplaceAll(name, ".", "_") }

// assumptions returns the program's assumptions and those the compilation
// needs: every output region and every RDom non-empty.
func (c *compiler) assumptions() []string {
	var out []string
	for _, a := range c.p.Assumes() {
		out = append(out, syntax.ExprString(a.Cond))
	}
	nonEmpty := func(v *alg.RVar) {
		ext := sub(v.Hi, v.Lo)
		if n, ok := litInt(ext); ok && n >= 1 {
			return // a constant, non-empty range
		}
		out = append(out, syntax.ExprString(ext)+" >= 1")
	}
	for _, o := range c.p.Outputs() {
		for _, d := range o.Dims {
			nonEmpty(d)
		}
	}
	for _, r := range c.p.RDoms() {
		for _, v := range r.Vars {
			nonEmpty(v)
		}
	}
	return out
}

// litInt returns the value of an integer literal.
func litInt(x syntax.Expr) (int64, bool) {
	l, ok := x.(*syntax.Lit)
	if !ok || l.Kind != syntax.IntLiteral {
		return 0, false
	}
	v, err := strconv.ParseInt(l.Text, 0, 64)
	return v, err == nil
}

// allZero reports whether the affine form has no variable.
func allZero(l *linear) bool {
	for _, k := range l.coef {
		if k != 0 {
			return false
		}
	}
	return true
}

// rdomDims returns the RDom variables of an update, outermost first (the
// RDom's last variable is its outermost loop, as in Halide), with their
// names as loop variables and tensor dimensions (r_k).
func rdomDims(u *alg.Update) ([]string, []*alg.RVar) {
	if u.RDom == nil {
		return nil, nil
	}
	var names []string
	var vars []*alg.RVar
	for i := len(u.RDom.Vars) - 1; i >= 0; i-- {
		v := u.RDom.Vars[i]
		names = append(names, rvar(u.RDom.Name.Name+"."+v.Name.Name))
		vars = append(vars, v)
	}
	return names, vars
}
