package fuzz

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Case is one fuzzing case: a Halide pipeline (its inputs, its
// definitions in order, its output) and its schedule. Its text form is
// the case format of docs/fuzz-halide.md, which the fuzz driver reads.
type Case struct {
	Name   string // an identifier of the case, such as "s7-42"
	Inputs []Input
	Defs   []Def
	Output string
	Sched  []Directive
}

// Type is an element type of the case format.
type Type string

// The element types.
const (
	Int32   Type = "int32"
	Int16   Type = "int16"
	UInt8   Type = "uint8"
	Float32 Type = "float32"
)

var types = []Type{Int32, Int16, UInt8, Float32}

// Input is an input buffer (a Halide ImageParam).
type Input struct {
	Name string
	Type Type
	Dims int
}

// DefKind is the kind of a definition.
type DefKind int

// The kinds of definitions.
const (
	// FuncDef defines a func over its pure variables x, y, z.
	FuncDef DefKind = iota
	// UpdateDef adds an update over an RDom to a func, keeping its pure
	// variables in place; rx and ry name the RDom's variables.
	UpdateDef
	// BCDef defines a func as a boundary condition of an input.
	BCDef
)

// Def is one line of the algorithm.
type Def struct {
	Kind  DefKind
	Name  string   // the func defined or updated
	Type  Type     // FuncDef
	Dims  int      // FuncDef
	BC    string   // BCDef: repeat_edge, constant_exterior, mirror_image, mirror_interior, repeat_image
	Src   string   // BCDef: the input
	RDom  [][2]int // UpdateDef: min and extent of each of the RDom's 1 or 2 dimensions
	Value *Expr    // FuncDef, UpdateDef
}

// BCKinds are the boundary conditions of the format.
var BCKinds = []string{"repeat_edge", "constant_exterior", "mirror_image", "mirror_interior", "repeat_image"}

// Expr is an expression: an atom (a number, a pure variable x, y, z or an
// RDom variable rx, ry) when Op is empty, else an operation or a call of
// the func or input Op.
type Expr struct {
	Op   string
	Atom string
	Args []*Expr
}

// Ops are the operations of the format, by their number of arguments;
// any other Op calls a func or an input.
var Ops = map[string]int{
	"+": 2, "-": 2, "*": 2, "/": 2, "%": 2, "min": 2, "max": 2, "<": 2, "<=": 2, "==": 2, "&&": 2,
	"select": 3, "clamp": 3, "cast": 2,
}

// Atom returns the atom a.
func Atom(a string) *Expr { return &Expr{Atom: a} }

// Call returns the operation or call op of args.
func Call(op string, args ...*Expr) *Expr { return &Expr{Op: op, Args: args} }

// Int returns the integer literal v.
func Int(v int) *Expr { return Atom(strconv.Itoa(v)) }

func (e *Expr) String() string {
	if e.Op == "" {
		return e.Atom
	}
	var b strings.Builder
	b.WriteString("(" + e.Op)
	for _, a := range e.Args {
		b.WriteString(" " + a.String())
	}
	b.WriteString(")")
	return b.String()
}

// Clone returns a deep copy of e.
func (e *Expr) Clone() *Expr {
	c := &Expr{Op: e.Op, Atom: e.Atom}
	for _, a := range e.Args {
		c.Args = append(c.Args, a.Clone())
	}
	return c
}

// Directive is one schedule line: its words after "s", the directive and
// its stage first ("split f.1 rx rxo rxi 4 auto"). Func directives
// (compute_root, store_root, compute_at, store_at, fold, bound,
// align_bounds) name a func; the others a stage, "f" or "f.K" for the
// K-th update.
type Directive []string

func (d Directive) String() string { return strings.Join(d, " ") }

// Func is the func the directive schedules.
func (d Directive) Func() string {
	if len(d) < 2 {
		return ""
	}
	f, _, _ := strings.Cut(d[1], ".")
	return f
}

// Clone returns a deep copy of c.
func (c *Case) Clone() *Case {
	n := &Case{Name: c.Name, Inputs: slices.Clone(c.Inputs), Output: c.Output}
	for _, d := range c.Defs {
		d.RDom = slices.Clone(d.RDom)
		if d.Value != nil {
			d.Value = d.Value.Clone()
		}
		n.Defs = append(n.Defs, d)
	}
	for _, d := range c.Sched {
		n.Sched = append(n.Sched, slices.Clone(d))
	}
	return n
}

// String is the case's text, without the closing "end" line the driver
// needs with an action.
func (c *Case) String() string {
	var b strings.Builder
	if c.Name != "" {
		fmt.Fprintf(&b, "case %s\n", c.Name)
	}
	for _, in := range c.Inputs {
		fmt.Fprintf(&b, "input %s %s %d\n", in.Name, in.Type, in.Dims)
	}
	for _, d := range c.Defs {
		switch d.Kind {
		case FuncDef:
			fmt.Fprintf(&b, "func %s %s %d %s\n", d.Name, d.Type, d.Dims, d.Value)
		case UpdateDef:
			fmt.Fprintf(&b, "update %s %d", d.Name, len(d.RDom))
			for _, r := range d.RDom {
				fmt.Fprintf(&b, " %d %d", r[0], r[1])
			}
			fmt.Fprintf(&b, " %s\n", d.Value)
		case BCDef:
			fmt.Fprintf(&b, "bc %s %s %s\n", d.Name, d.BC, d.Src)
		}
	}
	fmt.Fprintf(&b, "output %s\n", c.Output)
	for _, d := range c.Sched {
		fmt.Fprintf(&b, "s %s\n", d)
	}
	return b.String()
}

// Def returns the pure definition (FuncDef or BCDef) of the func name,
// or nil.
func (c *Case) Def(name string) *Def {
	for i := range c.Defs {
		if c.Defs[i].Name == name && c.Defs[i].Kind != UpdateDef {
			return &c.Defs[i]
		}
	}
	return nil
}

// Dims is the number of dimensions of the func or input name (0 when
// unknown).
func (c *Case) Dims(name string) int {
	for _, in := range c.Inputs {
		if in.Name == name {
			return in.Dims
		}
	}
	d := c.Def(name)
	switch {
	case d == nil:
		return 0
	case d.Kind == BCDef:
		return c.Dims(d.Src)
	}
	return d.Dims
}

// Updates is the number of updates of the func name.
func (c *Case) Updates(name string) int {
	n := 0
	for _, d := range c.Defs {
		if d.Kind == UpdateDef && d.Name == name {
			n++
		}
	}
	return n
}

// OutputType is the element type of the output.
func (c *Case) OutputType() Type {
	if d := c.Def(c.Output); d != nil && d.Kind == FuncDef {
		return d.Type
	}
	return Int32
}

// Pruned returns the case without the inputs nothing reads (Halide's
// bounds query gives those no buffer to fill).
func (c *Case) Pruned() *Case {
	used := map[string]bool{}
	var walk func(e *Expr)
	walk = func(e *Expr) {
		used[e.Op] = true
		for _, a := range e.Args {
			walk(a)
		}
	}
	for _, d := range c.Defs {
		used[d.Src] = true
		if d.Value != nil {
			walk(d.Value)
		}
	}
	n := c.Clone()
	n.Inputs = slices.DeleteFunc(n.Inputs, func(in Input) bool { return !used[in.Name] })
	return n
}
