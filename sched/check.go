package sched

import (
	"strings"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
)

// Info is what Check computes about a well-formed kernel; the interpreter
// needs it.
type Info struct {
	// Types holds the type of every value expression of the kernel:
	// assignments' values and annotations.
	Types *expr.Info
	// Arrays lists the kernel's global arrays (those with bindings), in
	// order of their first binding.
	Arrays []*Array

	// spec is the specification the kernel was checked against, whose
	// reductions Run reads.
	spec Spec
}

// Array is a global array of a kernel with its bindings. Its element type
// and extents are those of its first binding; Check ensures that the
// other bindings agree.
type Array struct {
	Name     string
	Elem     syntax.Type
	Extents  []syntax.Expr
	Bindings []*Binding // in source order, in and out mixed
}

// Array returns the global array called name, or nil.
func (info *Info) Array(name string) *Array {
	for _, a := range info.Arrays {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Check type-checks k against the checked specification spec following
// the kernel language's typing rules (Clément 2022, Fig. 4.7): index
// expressions, bounds, conditions and lets are quasi-affine; values are
// typed against the arrays' element types and annotations against the
// specification's tensors; bindings agree with the specification. It
// returns every error found, sorted by position.
func Check(k *Kernel, spec Spec) (*Info, syntax.ErrorList) {
	c := &checker{
		r:    &syntax.Reporter{Src: k.Src},
		spec: spec,
		info: &Info{Types: expr.NewInfo(), spec: spec},
	}
	c.kernel(k)
	errs := c.r.Errs
	errs.Sort()
	return c.info, errs
}

// Load parses a kernel and checks it against the checked specification
// spec. On failure the error is a syntax.ErrorList holding every syntax
// error, or else every check error; the kernel is returned when it parsed.
func Load(src *syntax.Source, spec Spec) (*Kernel, *Info, error) {
	k, errs := Parse(src)
	if err := errs.Err(); err != nil {
		return nil, nil, err
	}
	info, errs := Check(k, spec)
	if err := errs.Err(); err != nil {
		return k, nil, err
	}
	return k, info, nil
}

type checker struct {
	r    *syntax.Reporter
	spec Spec
	info *Info

	indices []string    // parameters, loop, let and binding variables in scope
	arrays  []arrayDecl // arrays in scope, innermost last
}

type arrayDecl struct {
	name string
	elem syntax.Type
	rank int
}

// checker implements expr.Scope.

func (c *checker) IsIndex(name string) bool {
	for _, n := range c.indices {
		if n == name {
			return true
		}
	}
	return false
}

func (c *checker) Tensor(name string) (syntax.Type, int, bool) { return c.spec.TensorType(name) }

func (c *checker) Array(name string) (syntax.Type, int, bool) {
	for i := len(c.arrays) - 1; i >= 0; i-- {
		if c.arrays[i].name == name {
			return c.arrays[i].elem, c.arrays[i].rank, true
		}
	}
	return syntax.Invalid, 0, false
}

func (c *checker) errorf(pos syntax.Pos, code syntax.Code, format string, args ...any) {
	c.r.ErrorCodef(pos, code, format, args...)
}

// exprs returns an expression checker; arrays selects kernel values (array
// reads allowed), otherwise annotations and bindings (tensor accesses).
func (c *checker) exprs(arrays bool) *expr.Checker {
	return &expr.Checker{R: c.r, Scope: c, Info: c.info.Types, AllowArrays: arrays, AllowTensors: !arrays}
}

// declare adds an index variable to the scope, reporting a clash with a
// name already in scope.
func (c *checker) declare(id *syntax.Ident, what string) {
	switch {
	case id.Name == "_":
		// The placeholder left by a syntax error, already reported.
	case c.spec.Reserved(id.Name):
		c.errorf(id.Pos(), syntax.CodeReserved, "%s %s has a reserved name (a type, a built-in function or a keyword)", what, id.Name)
	case c.IsIndex(id.Name):
		c.errorf(id.Pos(), syntax.CodeRedeclared, "%s %s redeclares a name already in scope", what, id.Name)
	case isTensor(c.spec, id.Name):
		c.errorf(id.Pos(), syntax.CodeRedeclared, "%s %s has the name of a tensor of the specification", what, id.Name)
	}
	c.indices = append(c.indices, id.Name)
}

func (c *checker) kernel(k *Kernel) {
	c.params(k)
	for _, a := range k.Assumes {
		c.exprs(false).Constraint(a.Cond)
	}
	c.bindings(k)
	if k.Body != nil {
		c.block(k.Body)
	}
}

// params checks that the kernel's parameters are the specification's.
func (c *checker) params(k *Kernel) {
	seen := map[string]bool{}
	for _, p := range k.Params {
		switch {
		case seen[p.Name]:
			c.errorf(p.Pos(), syntax.CodeRedeclared, "parameter %s declared twice", p.Name)
			continue
		case !c.spec.IsParam(p.Name):
			c.errorf(p.Pos(), syntax.CodeUndeclared, "parameter %s is not a parameter of the specification", p.Name)
		}
		seen[p.Name] = true
		c.indices = append(c.indices, p.Name)
	}
	var missing []string
	for _, p := range c.spec.ParamNames() {
		if !seen[p] {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		pos := k.KernelPos
		if k.Name != nil && k.Name.Pos().IsValid() {
			pos = k.Name.Pos()
		}
		c.errorf(pos, syntax.CodeBinding, "kernel %s lacks the specification's parameter%s %s", kernelName(k), plural(len(missing)), strings.Join(missing, ", "))
	}
}

func kernelName(k *Kernel) string {
	if k.Name == nil {
		return "_"
	}
	return k.Name.Name
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// bindings checks every binding and how the bindings of one array relate,
// then declares the global arrays.
func (c *checker) bindings(k *Kernel) {
	for _, b := range k.Bindings {
		c.binding(b)
		a := c.info.Array(b.Array.Name)
		if a == nil {
			c.info.Arrays = append(c.info.Arrays, &Array{Name: b.Array.Name, Elem: b.Elem, Extents: b.Extents, Bindings: []*Binding{b}})
			continue
		}
		first := a.Bindings[0]
		if b.Elem != first.Elem || !syntax.EqualList(b.Extents, first.Extents) {
			c.errorf(b.Array.Pos(), syntax.CodeBinding, "array %s is declared %s here but %s at %s: bindings of one array declare the same type and extents",
				b.Array.Name, shapeString(b.Elem, b.Extents), shapeString(first.Elem, first.Extents), first.Pos())
		}
		for _, o := range a.Bindings {
			if o.Dir != b.Dir {
				continue
			}
			switch {
			case o.Where == nil || b.Where == nil:
				c.errorf(b.Pos(), syntax.CodeBinding, "%s bindings of array %s overlap: the binding at %s and this one must have disjoint where domains, and one has no where clause",
					b.Dir, b.Array.Name, o.Pos())
			case syntax.Equal(o.Where, b.Where):
				c.errorf(b.Pos(), syntax.CodeBinding, "%s bindings of array %s overlap: the binding at %s has the same where clause",
					b.Dir, b.Array.Name, o.Pos())
			}
		}
		a.Bindings = append(a.Bindings, b)
	}
	for _, a := range c.info.Arrays {
		c.arrays = append(c.arrays, arrayDecl{name: a.Name, elem: a.Elem, rank: len(a.Extents)})
	}
	for _, out := range c.spec.OutputNames() {
		produced := false
		for _, b := range k.Bindings {
			if b.Dir == Out && b.Tensor != nil && b.Tensor.Fun.Name == out {
				produced = true
			}
		}
		if !produced {
			pos := k.KernelPos
			if k.Name != nil && k.Name.Pos().IsValid() {
				pos = k.Name.Pos()
			}
			c.errorf(pos, syntax.CodeBinding, "output %s of the specification is not produced by any out binding", out)
		}
	}
}

func shapeString(t syntax.Type, ext []syntax.Expr) string {
	var b strings.Builder
	b.WriteString(t.String())
	b.WriteByte('[')
	syntax.WriteExprList(&b, ext)
	b.WriteByte(']')
	return b.String()
}

func (c *checker) binding(b *Binding) {
	// Extents are over the parameters only.
	for _, x := range b.Extents {
		c.exprs(false).Index(x)
	}
	if len(b.Vars) != len(b.Extents) {
		c.errorf(b.Array.Pos(), syntax.CodeArity, "array %s has %d index variable%s for %d extent%s",
			b.Array.Name, len(b.Vars), plural(len(b.Vars)), len(b.Extents), plural(len(b.Extents)))
	}
	mark := len(c.indices)
	defer func() { c.indices = c.indices[:mark] }()
	seen := map[string]bool{}
	for _, v := range b.Vars {
		if seen[v.Name] {
			c.errorf(v.Pos(), syntax.CodeRedeclared, "index variable %s appears twice", v.Name)
			continue
		}
		seen[v.Name] = true
		c.declare(v, "index variable")
	}
	if b.Tensor == nil {
		return
	}
	name := b.Tensor.Fun.Name
	if !isTensor(c.spec, name) {
		c.errorf(b.Tensor.Pos(), syntax.CodeUndeclared, "undefined tensor: %s", name)
	} else if t := c.exprs(false).Value(b.Tensor, syntax.Invalid); t != syntax.Invalid && t != b.Elem {
		c.errorf(b.Tensor.Pos(), syntax.CodeType, "tensor %s has type %s but array %s is declared %s", name, t, b.Array.Name, b.Elem)
	}
	if b.Where != nil {
		c.exprs(false).Constraint(b.Where)
	}
}

// block checks a block in a scope of its own: lets end with it.
func (c *checker) block(b *Block) {
	mark := len(c.indices)
	defer func() { c.indices = c.indices[:mark] }()
	for _, s := range b.Stmts {
		c.stmt(s)
	}
}

func (c *checker) stmt(s Stmt) {
	switch s := s.(type) {
	case *Skip:
	case *Assign:
		c.assign(s)
	case *If:
		c.exprs(false).Constraint(s.Cond)
		c.block(s.Then)
		if s.Else != nil {
			c.stmt(s.Else)
		}
	case *Let:
		c.exprs(false).Index(s.Value)
		c.declare(s.Var, "variable")
	case *Alloc:
		for _, x := range s.Extents {
			c.exprs(false).Index(x)
		}
		if _, _, ok := c.Array(s.Array.Name); ok {
			c.errorf(s.Array.Pos(), syntax.CodeRedeclared, "array %s is already declared", s.Array.Name)
		} else if isTensor(c.spec, s.Array.Name) {
			c.errorf(s.Array.Pos(), syntax.CodeRedeclared, "array %s has the name of a tensor of the specification", s.Array.Name)
		}
		c.arrays = append(c.arrays, arrayDecl{name: s.Array.Name, elem: s.Elem, rank: len(s.Extents)})
		c.block(s.Body)
		c.arrays = c.arrays[:len(c.arrays)-1]
	case *Loop:
		lo, hi := s.Bounds()
		if s.Lo != nil {
			c.exprs(false).Index(lo)
		}
		c.exprs(false).Index(hi)
		mark := len(c.indices)
		c.declare(s.Var, "loop variable")
		c.block(s.Body)
		c.indices = c.indices[:mark]
	case *Block:
		c.block(s)
	default:
		c.errorf(s.Pos(), "", "unknown statement %T", s)
	}
}

func (c *checker) assign(s *Assign) {
	elem, rank, ok := c.Array(s.Array.Name)
	if !ok {
		if isTensor(c.spec, s.Array.Name) {
			c.errorf(s.Array.Pos(), syntax.CodeWrongKind, "cannot assign to tensor %s: kernels write arrays", s.Array.Name)
		} else {
			c.errorf(s.Array.Pos(), syntax.CodeUndeclared, "undefined array: %s", s.Array.Name)
		}
	} else if len(s.Indices) != rank {
		indices := "indices"
		if len(s.Indices) == 1 {
			indices = "index"
		}
		c.errorf(s.Array.Pos(), syntax.CodeArity, "array %s has %d dimension%s, indexed with %d %s",
			s.Array.Name, rank, plural(rank), len(s.Indices), indices)
	}
	// An assignment that is not a reduction's may write at a
	// data-dependent index (Clément 2022, section 9.6.3), which reads
	// arrays.
	for _, x := range s.Indices {
		if s.IsReduction() {
			c.exprs(false).Index(x)
			continue
		}
		ic := c.exprs(true)
		ic.AllowDataIndex = true
		ic.AccessIndex(x)
	}
	if !ok {
		elem = syntax.Invalid
	}
	// The value reads arrays; the annotation, a prophecy, reads tensors.
	// Both must have the array's element type; literals take it.
	// An assignment that is not a reduction's may read at data-dependent
	// indices.
	vc, ac := c.exprs(true), c.exprs(false)
	vc.AllowDataIndex, ac.AllowDataIndex = !s.IsReduction(), !s.IsReduction()
	vc.Value(s.Value, elem)
	ac.Value(s.Annot, elem)
	if s.IsReduction() {
		c.reductionAssign(s)
	}
}
