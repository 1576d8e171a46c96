package sare

import (
	"fmt"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// Check checks a parsed specification: names (no duplicates, no reserved
// words, parameters, variables and tensors kept apart), arities, types,
// the quasi-affine index language of tensor arguments and where clauses,
// assumptions affine in the parameters only, equations with distinct
// variables on the left, and outputs that are declared computed tensors.
// It returns the types of every value expression and every error found,
// sorted by position. Errors are rendered against spec.Src when present.
func Check(spec *Spec) (*expr.Info, syntax.ErrorList) {
	c := &checker{spec: spec, r: &syntax.Reporter{Src: spec.Src}, info: expr.NewInfo()}
	c.info.Overflow = spec.Overflow
	c.check()
	c.r.Errs.Sort()
	return c.info, c.r.Errs
}

// Load parses and checks a specification. On failure the error is a
// syntax.ErrorList holding every syntax error, or else every check error.
func Load(src *syntax.Source) (*Spec, *expr.Info, error) {
	spec, errs := Parse(src)
	if err := errs.Err(); err != nil {
		return spec, nil, err
	}
	info, errs := Check(spec)
	if err := errs.Err(); err != nil {
		return spec, info, err
	}
	return spec, info, nil
}

// keywords are the words of the specification language that cannot name
// anything, besides those of the expression language.
var keywords = map[string]bool{
	"param": true, "assume": true, "input": true, "tensor": true, "output": true, "where": true,
	"_": true,
}

// IsKeyword reports whether name is reserved in specifications: a keyword
// of either language's expressions or declarations, a type name, a
// built-in function or a bit cast (reinterpret_f32).
func IsKeyword(name string) bool {
	if keywords[name] || syntax.IsReserved(name) || syntax.TypeByName(name) != syntax.Invalid {
		return true
	}
	_, ok := value.LookupBuiltin(name)
	if ok {
		return true
	}
	_, ok = value.ReinterpretType(name)
	return ok
}

type checker struct {
	spec *Spec
	r    *syntax.Reporter
	info *expr.Info
}

func (c *checker) errorf(pos syntax.Pos, code syntax.Code, format string, args ...any) {
	c.r.ErrorCodef(pos, code, format, args...)
}

// scope resolves names for the expression checker: parameters and the
// current equation's variables are indices; tensors are the spec's.
type scope struct {
	spec *Spec
	vars map[string]bool
}

func (s *scope) IsIndex(name string) bool { return s.vars[name] || s.spec.IsParam(name) }
func (s *scope) Tensor(name string) (syntax.Type, int, bool) {
	if s.vars[name] || s.spec.IsParam(name) {
		return syntax.Invalid, 0, false
	}
	return s.spec.TensorType(name)
}
func (s *scope) Array(string) (syntax.Type, int, bool) { return syntax.Invalid, 0, false }

func (c *checker) exprChecker(vars map[string]bool) *expr.Checker {
	return &expr.Checker{R: c.r, Scope: &scope{spec: c.spec, vars: vars}, Info: c.info, AllowTensors: true}
}

// name checks that a declared name is usable.
func (c *checker) name(id *syntax.Ident, what string) bool {
	if !syntax.ValidName(id.Name) || IsKeyword(id.Name) {
		c.errorf(id.Pos(), syntax.CodeReserved, "%s is reserved and cannot name a %s", id.Name, what)
		return false
	}
	return true
}

func (c *checker) check() {
	spec := c.spec
	params := map[string]*syntax.Ident{}
	for _, p := range spec.Params {
		if !c.name(p, "parameter") {
			continue
		}
		if prev, dup := params[p.Name]; dup {
			c.errorf(p.Pos(), syntax.CodeRedeclared, "parameter %s declared twice (first at %s)", p.Name, prev.Pos())
			continue
		}
		params[p.Name] = p
	}
	tensors := map[string]*Tensor{}
	for _, t := range spec.Tensors {
		if !c.name(t.Name, "tensor") {
			continue
		}
		if _, isParam := params[t.Name.Name]; isParam {
			c.errorf(t.Name.Pos(), syntax.CodeRedeclared, "tensor %s has the name of a parameter", t.Name.Name)
			continue
		}
		if prev, dup := tensors[t.Name.Name]; dup {
			c.errorf(t.Name.Pos(), syntax.CodeRedeclared, "tensor %s declared twice (first at %s)", t.Name.Name, prev.Name.Pos())
			continue
		}
		tensors[t.Name.Name] = t
		if t.Type == syntax.Invalid {
			c.errorf(t.TypePos, syntax.CodeType, "tensor %s has no valid type", t.Name.Name)
		}
		c.vars(t.Vars, "dimension", tensors)
	}
	for _, a := range spec.Assumes {
		// Parameters only: no variables in scope.
		c.exprChecker(nil).Constraint(a.Cond)
	}
	for _, t := range spec.Tensors {
		if tensors[t.Name.Name] != t {
			continue // a duplicate, already reported
		}
		if t.Input && len(t.Eqs) > 0 {
			c.errorf(t.Eqs[0].Pos(), syntax.CodeDefinition, "input tensor %s cannot have equations (declare it with tensor)", t.Name.Name)
		}
		if !t.Input && len(t.Eqs) == 0 {
			c.errorf(t.Name.Pos(), syntax.CodeDefinition, "tensor %s has no equations (declare it input if its values are arbitrary)", t.Name.Name)
		}
		for _, eq := range t.Eqs {
			c.equation(t, eq, tensors)
		}
	}
	outputs := map[string]*syntax.Ident{}
	for _, o := range spec.Outputs {
		if prev, dup := outputs[o.Name]; dup {
			c.errorf(o.Pos(), syntax.CodeRedeclared, "output %s listed twice (first at %s)", o.Name, prev.Pos())
			continue
		}
		outputs[o.Name] = o
		t := tensors[o.Name]
		switch {
		case t == nil && params[o.Name] != nil:
			c.errorf(o.Pos(), syntax.CodeDefinition, "output %s is a parameter, not a tensor", o.Name)
		case t == nil:
			c.errorf(o.Pos(), syntax.CodeUndeclared, "output %s is not a declared tensor", o.Name)
		case t.Input:
			c.errorf(o.Pos(), syntax.CodeDefinition, "output %s is an input tensor: outputs must be computed", o.Name)
		}
	}
}

// vars checks a list of variable names: valid, distinct, and neither
// parameters nor tensors.
func (c *checker) vars(vars []*syntax.Ident, what string, tensors map[string]*Tensor) map[string]bool {
	set := map[string]bool{}
	for _, v := range vars {
		if !c.name(v, what) {
			continue
		}
		switch {
		case set[v.Name]:
			c.errorf(v.Pos(), syntax.CodeRedeclared, "variable %s appears twice", v.Name)
		case c.spec.IsParam(v.Name):
			c.errorf(v.Pos(), syntax.CodeRedeclared, "variable %s has the name of a parameter", v.Name)
		case c.spec.Tensor(v.Name) != nil:
			c.errorf(v.Pos(), syntax.CodeRedeclared, "variable %s has the name of a tensor", v.Name)
		}
		set[v.Name] = true
	}
	return set
}

func (c *checker) equation(t *Tensor, eq *Equation, tensors map[string]*Tensor) {
	if eq.Tensor.Name != t.Name.Name {
		c.errorf(eq.Pos(), "", "equation for %s listed under tensor %s", eq.Tensor.Name, t.Name.Name)
		return
	}
	if len(eq.Vars) != t.Rank() {
		c.errorf(eq.Pos(), syntax.CodeArity, "tensor %s has %s, equation has %s", t.Name.Name, dimensions(t.Rank()), variables(len(eq.Vars)))
	}
	vars := c.vars(eq.Vars, "variable", tensors)
	ec := c.exprChecker(vars)
	if eq.Where != nil {
		ec.Constraint(eq.Where)
	}
	if eq.Reduce != nil {
		c.checkReduction(t, eq, vars, tensors)
		return
	}
	if eq.RHS != nil && t.Type != syntax.Invalid {
		// An equation's value, and nothing else, may access tensors at
		// data-dependent indices.
		ec.AllowDataIndex = true
		ec.Value(eq.RHS, t.Type)
	}
}

// dimensions renders "1 dimension", "2 dimensions".
func dimensions(n int) string {
	if n == 1 {
		return "1 dimension"
	}
	return fmt.Sprintf("%d dimensions", n)
}

// variables renders "1 variable", "2 variables".
func variables(n int) string {
	if n == 1 {
		return "1 variable"
	}
	return fmt.Sprintf("%d variables", n)
}
