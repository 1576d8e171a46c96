package alg

import "github.com/augur-verify/augur/syntax"

// Program is a parsed algorithm. Decls keeps every declaration in source
// order; the typed slices index the same declarations by kind.
type Program struct {
	Decls    []Decl
	Params   []*syntax.Ident
	Schedule *Schedule // nil: no schedule block
	Src      *syntax.Source
}

// Decl is one declaration: *ParamDecl, *Assume, *Input, *Func, *RDom, *Update
// or *Output.
type Decl interface{ declPos() syntax.Pos }

// ParamDecl is param N, M.
type ParamDecl struct {
	Pos   syntax.Pos
	Names []*syntax.Ident
}

// Assume is assume Cond: a constraint on the parameters.
type Assume struct {
	Pos  syntax.Pos
	Cond syntax.Expr
}

// Input is input A(i, k) : f32, a buffer of arbitrary values.
type Input struct {
	Pos     syntax.Pos
	Name    *syntax.Ident
	Vars    []*syntax.Ident
	Type    syntax.Type
	TypePos syntax.Pos
}

// Func is func F(x, y) : f32 = Value, a func with its pure definition.
// Updates lists its update definitions once the program is checked.
type Func struct {
	Pos     syntax.Pos
	Name    *syntax.Ident
	Vars    []*syntax.Ident
	Type    syntax.Type
	TypePos syntax.Pos
	Value   syntax.Expr
	Updates []*Update // filled by Check
}

// RDom is rdom r(k in lo .. hi, ...): a recurrence domain, the box of its
// variables' half-open ranges; the first variable is the innermost.
type RDom struct {
	Pos  syntax.Pos
	Name *syntax.Ident
	Vars []*RVar
	// MayBeEmpty (written "possibly empty" after the ranges): the ranges
	// may be empty for some parameter values, where the updates over the
	// RDom change nothing; otherwise the compiler assumes them non-empty.
	MayBeEmpty bool
}

// RVar is one variable of an RDom with its half-open range [Lo, Hi).
type RVar struct {
	Name   *syntax.Ident
	Lo, Hi syntax.Expr
}

// UpdateOp is the operator of an update definition.
type UpdateOp int

// Update operators: F(...) = e, F(...) += e, F(...) -= e, F(...) *= e.
const (
	Set UpdateOp = iota
	AddTo
	SubFrom
	MulBy
)

func (o UpdateOp) String() string { return [...]string{"=", "+=", "-=", "*="}[o] }

// Update is an update definition F(args) op Value [where Where].
type Update struct {
	Func     *syntax.Ident
	Args     []syntax.Expr
	Op       UpdateOp
	OpPos    syntax.Pos
	Value    syntax.Expr
	Where    syntax.Expr // nil: no predicate
	WherePos syntax.Pos

	// Filled by Check.
	Target *Func
	Index  int   // 0 for the first update of its func
	RDom   *RDom // the RDom whose variables the update uses, or nil
}

// Output is output F over x in lo .. hi, ...: F is computed over the box.
type Output struct {
	Pos  syntax.Pos
	Func *syntax.Ident
	Dims []*RVar // the func's variables with their ranges
}

// Schedule is the schedule { ... } block: directives in source order.
type Schedule struct {
	Pos        syntax.Pos
	Directives []*Directive
}

// Directive is one call of a schedule: Func[.update(Update)].Name(Args).
type Directive struct {
	Pos    syntax.Pos // the directive's name
	Func   *syntax.Ident
	Update int // -1: the pure definition
	Name   string
	Args   []syntax.Expr
	// Chain numbers the lines of the schedule block from 0: the calls of
	// one chain (F.specialize(c).vectorize(x)) share it.
	Chain int
}

func (d *ParamDecl) declPos() syntax.Pos { return d.Pos }
func (d *Assume) declPos() syntax.Pos    { return d.Pos }
func (d *Input) declPos() syntax.Pos     { return d.Pos }
func (d *Func) declPos() syntax.Pos      { return d.Pos }
func (d *RDom) declPos() syntax.Pos      { return d.Pos }
func (d *Update) declPos() syntax.Pos    { return d.Func.NamePos }
func (d *Output) declPos() syntax.Pos    { return d.Pos }

// Inputs returns the input declarations in source order.
func (p *Program) Inputs() []*Input { return declsOf[*Input](p) }

// Funcs returns the func declarations in source order.
func (p *Program) Funcs() []*Func { return declsOf[*Func](p) }

// RDoms returns the RDom declarations in source order.
func (p *Program) RDoms() []*RDom { return declsOf[*RDom](p) }

// Outputs returns the output declarations in source order.
func (p *Program) Outputs() []*Output { return declsOf[*Output](p) }

// Assumes returns the assumptions in source order.
func (p *Program) Assumes() []*Assume { return declsOf[*Assume](p) }

// Updates returns the update definitions in source order.
func (p *Program) Updates() []*Update { return declsOf[*Update](p) }

func declsOf[T Decl](p *Program) []T {
	var out []T
	for _, d := range p.Decls {
		if t, ok := d.(T); ok {
			out = append(out, t)
		}
	}
	return out
}

// Func returns the func called name, or nil.
func (p *Program) Func(name string) *Func {
	for _, f := range p.Funcs() {
		if f.Name.Name == name {
			return f
		}
	}
	return nil
}

// Input returns the input called name, or nil.
func (p *Program) Input(name string) *Input {
	for _, in := range p.Inputs() {
		if in.Name.Name == name {
			return in
		}
	}
	return nil
}

// RDomNamed returns the RDom called name, or nil.
func (p *Program) RDomNamed(name string) *RDom {
	for _, r := range p.RDoms() {
		if r.Name.Name == name {
			return r
		}
	}
	return nil
}
