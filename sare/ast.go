package sare

import (
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// Spec is a parsed specification. Declarations of each kind keep their
// source order; the canonical printer groups them by kind (parameters,
// assumptions, tensors with their equations, outputs).
type Spec struct {
	Params  []*syntax.Ident // param N, M
	Assumes []*Assume       // assume ...
	Tensors []*Tensor       // input and computed tensors, in declaration order
	Outputs []*syntax.Ident // output C, D

	// Overflow is what the equations' signed integer arithmetic gives on
	// overflow: wrapping unless the directive "overflow unconstrained"
	// gives Halide's meaning (value.OverflowUnconstrained).
	Overflow value.Overflow

	// Src is the text the specification was parsed from, used to render
	// errors with their source line; nil for a specification decoded from
	// JSON or built in code. Equal ignores it.
	Src *syntax.Source
}

// Assume is one assumption on the parameters: assume Cond.
type Assume struct {
	Pos  syntax.Pos // the keyword
	Cond syntax.Expr
}

// Tensor is an input or computed tensor declaration:
//
//	input  A(i, k) : f32
//	tensor R(i, j, k) : f32
//
// with, for a computed tensor, its defining equations.
type Tensor struct {
	Pos     syntax.Pos // the keyword input or tensor
	Input   bool
	Name    *syntax.Ident
	Vars    []*syntax.Ident // the declaration's variable names (documentation only)
	Type    syntax.Type
	TypePos syntax.Pos
	Eqs     []*Equation
}

// Rank is the number of dimensions of the tensor.
func (t *Tensor) Rank() int { return len(t.Vars) }

// Equation is one defining equation T(x1, ..., xn) = RHS where Where.
type Equation struct {
	Tensor   *syntax.Ident   // the left-hand side's tensor name
	Vars     []*syntax.Ident // the left-hand side's variables
	RHS      syntax.Expr
	Where    syntax.Expr // nil: every point
	WherePos syntax.Pos  // the keyword where, if any
	// Reduce, when set, makes the equation a reduction (Clément 2022,
	// Section 7.4): RHS is then the body folded over Reduce's domain.
	Reduce *Reduction
}

// Pos is the position of the equation's first character.
func (e *Equation) Pos() syntax.Pos { return e.Tensor.NamePos }

// Tensor returns the tensor declared with the given name, or nil. With
// duplicate declarations (an error Check reports) it returns the first.
func (s *Spec) Tensor(name string) *Tensor {
	for _, t := range s.Tensors {
		if t.Name.Name == name {
			return t
		}
	}
	return nil
}

// TensorType returns the element type and rank of the tensor declared
// with the given name, as Tensor finds it.
func (s *Spec) TensorType(name string) (elem syntax.Type, rank int, ok bool) {
	t := s.Tensor(name)
	if t == nil {
		return syntax.Invalid, 0, false
	}
	return t.Type, t.Rank(), true
}

// IsParam reports whether name is declared as a parameter.
func (s *Spec) IsParam(name string) bool {
	for _, p := range s.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}

// ParamNames returns the names of the parameters, in declaration order.
func (s *Spec) ParamNames() []string { return names(s.Params) }

// OutputNames returns the names of the outputs, in declaration order.
func (s *Spec) OutputNames() []string { return names(s.Outputs) }

// Reserved reports whether name is reserved in specifications
// (IsKeyword), which a kernel cannot declare either.
func (*Spec) Reserved(name string) bool { return IsKeyword(name) }

// IsOutput reports whether the tensor called name is an output.
func (s *Spec) IsOutput(name string) bool {
	for _, o := range s.Outputs {
		if o.Name == name {
			return true
		}
	}
	return false
}

// Equal reports whether a and b are the same specification, ignoring
// positions and sources.
func Equal(a, b *Spec) bool {
	if a == nil || b == nil {
		return a == b
	}
	if !identsEqual(a.Params, b.Params) || !identsEqual(a.Outputs, b.Outputs) ||
		len(a.Assumes) != len(b.Assumes) || len(a.Tensors) != len(b.Tensors) || a.Overflow != b.Overflow {
		return false
	}
	for i := range a.Assumes {
		if !syntax.Equal(a.Assumes[i].Cond, b.Assumes[i].Cond) {
			return false
		}
	}
	for i := range a.Tensors {
		if !tensorEqual(a.Tensors[i], b.Tensors[i]) {
			return false
		}
	}
	return true
}

func tensorEqual(a, b *Tensor) bool {
	if a.Input != b.Input || a.Name.Name != b.Name.Name || a.Type != b.Type ||
		!identsEqual(a.Vars, b.Vars) || len(a.Eqs) != len(b.Eqs) {
		return false
	}
	for i, e := range a.Eqs {
		f := b.Eqs[i]
		if e.Tensor.Name != f.Tensor.Name || !identsEqual(e.Vars, f.Vars) ||
			!syntax.Equal(e.RHS, f.RHS) || !syntax.Equal(e.Where, f.Where) || !reductionEqual(e.Reduce, f.Reduce) {
			return false
		}
	}
	return true
}

func identsEqual(a, b []*syntax.Ident) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name {
			return false
		}
	}
	return true
}
