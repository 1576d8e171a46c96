package alg

import (
	"strings"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/syntax"
)

// Check resolves names and checks p: distinct, non-reserved names; types
// as in docs/formats.md (no implicit conversion, indices cast to be used as
// values); quasi-affine indices and predicates; no use of a func before its
// definition, and the definitions of a func (pure, then updates) consecutive;
// and the syntactic separation rule of Reinking 2022, section 2.4: each
// argument of an update's left-hand side is either the func's pure variable
// of that position, in place, or an expression of RDom variables (written
// r.k) and parameters; the right-hand side uses only the pure variables kept
// in place, and its references to the func being updated keep them in place
// too. It fills Func.Updates and the Update fields Target, Index and RDom.
func Check(p *Program) syntax.ErrorList {
	c := &checker{p: p, r: &syntax.Reporter{Src: p.Src}, declared: map[string]string{}, defined: map[string]bool{}}
	c.check()
	c.r.Errs.Sort()
	return c.r.Errs
}

// Load parses and checks an algorithm; the error is a syntax.ErrorList.
func Load(src *syntax.Source) (*Program, error) {
	p, errs := Parse(src)
	if len(errs) > 0 {
		return p, errs
	}
	if errs := Check(p); len(errs) > 0 {
		return p, errs
	}
	return p, nil
}

type checker struct {
	p        *Program
	r        *syntax.Reporter
	declared map[string]string // name -> what it is
	defined  map[string]bool   // funcs whose pure definition has been seen
	last     *Func             // the func whose definitions are current
	params   map[string]bool
	tensors  map[string]*sare.Tensor
}

func (c *checker) errorf(pos syntax.Pos, code syntax.Code, format string, args ...any) {
	c.r.ErrorCodef(pos, code, format, args...)
}

// scope: parameters and the given variables are indices; inputs and funcs
// in tensors are tensors.
type scope struct {
	c    *checker
	vars map[string]bool
	self *sare.Tensor // the func being updated, or nil
}

func (s *scope) IsIndex(name string) bool { return s.vars[name] || s.c.params[name] }
func (s *scope) Tensor(name string) (syntax.Type, int, bool) {
	if s.IsIndex(name) {
		return syntax.Invalid, 0, false
	}
	t := s.c.tensors[name]
	if s.self != nil && s.self.Name.Name == name {
		t = s.self
	}
	if t == nil {
		return syntax.Invalid, 0, false
	}
	return t.Type, t.Rank(), true
}
func (s *scope) Array(string) (syntax.Type, int, bool) { return syntax.Invalid, 0, false }

func (c *checker) exprs(vars map[string]bool, self *sare.Tensor) *expr.Checker {
	return &expr.Checker{R: c.r, Scope: &scope{c: c, vars: vars, self: self}, AllowTensors: true}
}

func (c *checker) declare(id *syntax.Ident, what string) bool {
	if !syntax.ValidName(id.Name) || sare.IsKeyword(id.Name) || keywords[id.Name] || strings.Contains(id.Name, ".") {
		c.errorf(id.Pos(), syntax.CodeReserved, "%s is reserved and cannot name a %s", id.Name, what)
		return false
	}
	if prev, ok := c.declared[id.Name]; ok {
		c.errorf(id.Pos(), syntax.CodeRedeclared, "%s redeclared (already a %s)", id.Name, prev)
		return false
	}
	c.declared[id.Name] = what
	return true
}

func (c *checker) vars(ids []*syntax.Ident, what string) map[string]bool {
	m := map[string]bool{}
	for _, id := range ids {
		if !syntax.ValidName(id.Name) || sare.IsKeyword(id.Name) || keywords[id.Name] {
			c.errorf(id.Pos(), syntax.CodeReserved, "%s is reserved and cannot name a %s", id.Name, what)
		} else if m[id.Name] {
			c.errorf(id.Pos(), syntax.CodeRedeclared, "%s appears twice", id.Name)
		} else if c.params[id.Name] {
			c.errorf(id.Pos(), syntax.CodeRedeclared, "%s is a parameter and cannot name a %s", id.Name, what)
		}
		m[id.Name] = true
	}
	return m
}

func (c *checker) check() {
	c.params = map[string]bool{}
	c.tensors = map[string]*sare.Tensor{}
	for _, id := range c.p.Params {
		if c.declare(id, "parameter") {
			c.params[id.Name] = true
		}
	}
	// Names of funcs declared anywhere, to tell "used before its definition"
	// from "undefined".
	later := map[string]*Func{}
	for _, f := range c.p.Funcs() {
		later[f.Name.Name] = f
	}
	noVars := map[string]bool{}
	for _, d := range c.p.Decls {
		switch d := d.(type) {
		case *Assume:
			c.exprs(noVars, nil).Constraint(d.Cond)
		case *Input:
			c.last = nil
			if c.declare(d.Name, "input") {
				c.vars(d.Vars, "dimension")
				c.tensors[d.Name.Name] = &sare.Tensor{Pos: d.Pos, Input: true, Name: d.Name, Vars: d.Vars, Type: d.Type, TypePos: d.TypePos}
			}
		case *RDom:
			if c.declare(d.Name, "RDom") {
				seen := map[string]bool{}
				for _, v := range d.Vars {
					if seen[v.Name.Name] {
						c.errorf(v.Name.Pos(), syntax.CodeRedeclared, "%s appears twice in RDom %s", v.Name.Name, d.Name.Name)
					}
					seen[v.Name.Name] = true
					c.exprs(noVars, nil).Index(v.Lo)
					c.exprs(noVars, nil).Index(v.Hi)
				}
			}
		case *Func:
			ok := c.declare(d.Name, "func")
			vars := c.vars(d.Vars, "pure variable")
			c.usedBefore(d.Value, later, d.Name.Name)
			c.exprs(vars, nil).Value(d.Value, d.Type)
			c.last = d
			if ok {
				c.tensors[d.Name.Name] = &sare.Tensor{Pos: d.Pos, Name: d.Name, Vars: d.Vars, Type: d.Type, TypePos: d.TypePos}
				c.defined[d.Name.Name] = true
			}
		case *Update:
			c.update(d, later)
		case *Output:
			c.output(d)
		}
	}
	c.reserved()
	if len(c.p.Outputs()) == 0 && len(c.r.Errs) == 0 {
		pos := syntax.Pos{Line: 1, Col: 1}
		c.errorf(pos, syntax.CodeDefinition, "no output: add output F over x in 0 .. N")
	}
	if s := c.p.Schedule; s != nil {
		scheduledFuncs(c.p, s, c.r)
	}
}

// usedBefore reports the funcs x reads that are defined only later (or the
// func itself, in its pure definition).
func (c *checker) usedBefore(x syntax.Expr, later map[string]*Func, self string) {
	syntax.Inspect(x, func(e syntax.Expr) bool {
		call, ok := e.(*syntax.Call)
		if !ok {
			return true
		}
		name := call.Fun.Name
		if name == self {
			c.errorf(call.Pos(), syntax.CodeDefinition, "the pure definition of %s refers to %s itself (use an update definition)", self, self)
		} else if f := later[name]; f != nil && !c.defined[name] {
			c.errorf(call.Pos(), syntax.CodeUndeclared, "func %s used before its definition (line %d)", name, f.Pos.Line)
		}
		return true
	})
}

func (c *checker) update(u *Update, later map[string]*Func) {
	name := u.Func.Name
	f := c.p.Func(name)
	switch {
	case f == nil:
		code := syntax.CodeUndeclared
		if c.declared[name] != "" {
			code = syntax.CodeWrongKind
		}
		c.errorf(u.Func.Pos(), code, "update of %s, which is not a func", name)
		return
	case !c.defined[name]:
		c.errorf(u.Func.Pos(), syntax.CodeDefinition, "update of %s before its pure definition (line %d)", name, f.Pos.Line)
		return
	case c.last != f:
		c.errorf(u.Func.Pos(), syntax.CodeDefinition, "update of %s after another definition: the definitions of a func must be consecutive", name)
		return
	}
	u.Target = f
	u.Index = len(f.Updates)
	f.Updates = append(f.Updates, u)
	if len(u.Args) != len(f.Vars) {
		c.errorf(u.Func.Pos(), syntax.CodeArity, "%s has %d dimensions, the update gives %d", name, len(f.Vars), len(u.Args))
		return
	}
	rvars := c.updateRDom(u)
	pure := c.updateLHS(u, f, rvars)
	// Every pure variable is in scope for the type checker: those not kept
	// in place are reported below, once.
	vars := map[string]bool{}
	for k := range pure {
		vars[k] = true
	}
	for k := range rvars {
		vars[k] = true
	}
	c.updateReadsInPlace(u, f, pure)
	c.usedBefore(u.Value, later, "")
	self := c.tensors[name]
	c.exprs(vars, self).Value(u.Value, f.Type)
	if u.Where != nil {
		c.exprs(vars, self).Constraint(u.Where)
	}
}

// updateRDom finds the RDom of update u: every r.k it uses must name a
// variable of one RDom declared before. It returns the RDom variables
// used, by full name.
func (c *checker) updateRDom(u *Update) map[string]bool {
	name := u.Func.Name
	rvars := map[string]bool{}
	check := func(x syntax.Expr) {
		syntax.Inspect(x, func(e syntax.Expr) bool {
			id, ok := e.(*syntax.Ident)
			if !ok || !strings.Contains(id.Name, ".") {
				return true
			}
			rn, vn, _ := strings.Cut(id.Name, ".")
			r := c.p.RDomNamed(rn)
			if r == nil || r.Pos.Line > u.Func.NamePos.Line {
				c.errorf(id.Pos(), syntax.CodeUndeclared, "%s: %s is not an RDom declared before", id.Name, rn)
				return true
			}
			found := false
			for _, v := range r.Vars {
				found = found || v.Name.Name == vn
			}
			if !found {
				c.errorf(id.Pos(), syntax.CodeUndeclared, "RDom %s has no variable %s", rn, vn)
				return true
			}
			if u.RDom != nil && u.RDom != r {
				c.errorf(id.Pos(), syntax.CodeDefinition, "update of %s uses two RDoms, %s and %s", name, u.RDom.Name.Name, rn)
				return true
			}
			u.RDom = r
			rvars[id.Name] = true
			return true
		})
	}
	for _, a := range u.Args {
		check(a)
	}
	check(u.Value)
	if u.Where != nil {
		check(u.Where)
	}
	return rvars
}

// updateLHS checks the separation rule on the left-hand side of update u
// of f: each argument is its pure variable in place, or an index
// expression of the RDom variables rvars. It returns f's pure variables,
// true for those kept in place.
func (c *checker) updateLHS(u *Update, f *Func, rvars map[string]bool) map[string]bool {
	name := u.Func.Name
	pure := map[string]bool{}
	for _, v := range f.Vars {
		pure[v.Name] = false
	}
	for i, a := range u.Args {
		if id, ok := a.(*syntax.Ident); ok && id.Name == f.Vars[i].Name {
			pure[id.Name] = true
			continue
		}
		bad := false
		syntax.Inspect(a, func(e syntax.Expr) bool {
			if id, ok := e.(*syntax.Ident); ok {
				if _, isPure := pure[id.Name]; isPure && !bad {
					c.errorf(id.Pos(), syntax.CodeDefinition, "argument %d of the update of %s must be its pure variable %s in place or an expression of RDom variables, not %s",
						i+1, name, f.Vars[i].Name, syntax.ExprString(a))
					bad = true
				}
			}
			return true
		})
		if !bad {
			c.exprs(rvars, nil).Index(a)
		}
	}
	return pure
}

// updateReadsInPlace checks the right-hand side of update u of f: the pure
// variables not kept in place (false in pure) are undefined there, and f
// is read with those kept in place unchanged.
func (c *checker) updateReadsInPlace(u *Update, f *Func, pure map[string]bool) {
	name := u.Func.Name
	for _, x := range []syntax.Expr{u.Value, u.Where} {
		if x == nil {
			continue
		}
		syntax.Inspect(x, func(e syntax.Expr) bool {
			if id, ok := e.(*syntax.Ident); ok {
				if inPlace, isPure := pure[id.Name]; isPure && !inPlace {
					c.errorf(id.Pos(), syntax.CodeUndeclared, "pure variable %s is not defined in this update: the left-hand side does not keep it in place", id.Name)
				}
			}
			if call, ok := e.(*syntax.Call); ok && call.Fun.Name == name && len(call.Args) == len(f.Vars) {
				for i, a := range call.Args {
					if inPlace := pure[f.Vars[i].Name]; inPlace {
						if id, ok := a.(*syntax.Ident); !ok || id.Name != f.Vars[i].Name {
							c.errorf(a.Pos(), syntax.CodeDefinition, "%s reads %s at %s in dimension %d: an update must read its own func with the pure variable %s in place",
								syntax.ExprString(call), name, syntax.ExprString(a), i+1, f.Vars[i].Name)
						}
					}
				}
			}
			return true
		})
	}
}

func (c *checker) output(o *Output) {
	f := c.p.Func(o.Func.Name)
	if f == nil || !c.defined[o.Func.Name] {
		c.errorf(o.Func.Pos(), syntax.CodeUndeclared, "output %s is not a func defined before", o.Func.Name)
		return
	}
	for _, prev := range c.p.Outputs() {
		if prev == o {
			break
		}
		if prev.Func.Name == o.Func.Name {
			c.errorf(o.Func.Pos(), syntax.CodeRedeclared, "%s is already an output (line %d)", o.Func.Name, prev.Pos.Line)
			return
		}
	}
	if len(o.Dims) != len(f.Vars) {
		c.errorf(o.Func.Pos(), syntax.CodeArity, "%s has %d dimensions, the output region gives %d", f.Name.Name, len(f.Vars), len(o.Dims))
		return
	}
	noVars := map[string]bool{}
	for i, d := range o.Dims {
		if d.Name.Name != f.Vars[i].Name {
			c.errorf(d.Name.Pos(), syntax.CodeBinding, "dimension %d of %s is %s, not %s", i+1, f.Name.Name, f.Vars[i].Name, d.Name.Name)
		}
		c.exprs(noVars, nil).Index(d.Lo)
		c.exprs(noVars, nil).Index(d.Hi)
	}
}

// reserved reports variables named like a global (an input, func, RDom or
// parameter), and names the compiler keeps for itself: buf_ prefixes its
// arrays, r_k names the loop of the RDom variable r.k.
func (c *checker) reserved() {
	generated := map[string]bool{}
	for _, r := range c.p.RDoms() {
		for _, v := range r.Vars {
			generated[r.Name.Name+"_"+v.Name.Name] = true
		}
	}
	bad := func(id *syntax.Ident, global bool) {
		switch {
		case strings.HasPrefix(id.Name, "buf_"):
			c.errorf(id.Pos(), syntax.CodeReserved, "%s: names starting with buf_ are reserved for the compiler's arrays", id.Name)
		case generated[id.Name]:
			c.errorf(id.Pos(), syntax.CodeReserved, "%s is reserved for the loop of an RDom variable", id.Name)
		case !global && c.declared[id.Name] != "":
			c.errorf(id.Pos(), syntax.CodeRedeclared, "variable %s has the name of a %s", id.Name, c.declared[id.Name])
		}
	}
	for _, d := range c.p.Decls {
		switch d := d.(type) {
		case *ParamDecl:
			for _, id := range d.Names {
				bad(id, true)
			}
		case *Input:
			bad(d.Name, true)
			for _, id := range d.Vars {
				bad(id, false)
			}
		case *Func:
			bad(d.Name, true)
			for _, id := range d.Vars {
				bad(id, false)
			}
		case *RDom:
			bad(d.Name, true)
		}
	}
}
