package atl

import "github.com/augur-verify/augur/syntax"

// Program is a parsed ATL source file: its declarations, the definition
// of the computed tensor and, optionally, a schedule of it.
type Program struct {
	Params  []*Ident
	Assumes []Cond
	Inputs  []*Input
	// Def is the program's meaning: the specification.
	Def *Def
	// Schedule, when present, is a rewritten form of Def (tiled, fused,
	// ...): it is lowered in Def's place, and the kernel is validated
	// against Def's meaning.
	Schedule *Def
}

// Ident is a name with its position.
type Ident struct {
	Name string
	At   syntax.Pos
}

// Input declares an input tensor and its shape.
type Input struct {
	Name *Ident
	Dims []Ix
}

// Def binds a name to a tensor expression: "def NAME = e" or
// "schedule NAME = e".
type Def struct {
	Name *Ident
	Body Expr
}

// Expr is a tensor expression (ATL's ATLExp).
type Expr interface{ Pos() syntax.Pos }

// Gen is the tensor comprehension Gen i lo hi body: the tensor of the
// body's values for i in [lo, hi).
type Gen struct {
	At     syntax.Pos
	Var    *Ident
	Lo, Hi Ix
	Body   Expr
}

// Sum is the elementwise summation Sum i lo hi body over i in [lo, hi).
type Sum struct {
	At     syntax.Pos
	Var    *Ident
	Lo, Hi Ix
	Body   Expr
}

// Guard is the Iverson bracket [p]·e: e where p holds, padding elsewhere.
type Guard struct {
	At   syntax.Pos
	Cond Cond
	Body Expr
}

// Let is let x := Val in Body.
type Let struct {
	At   syntax.Pos
	Var  *Ident
	Val  Expr
	Body Expr
}

// Concat is e1 ++ e2, along the outermost dimension.
type Concat struct {
	At   syntax.Pos
	X, Y Expr
}

// Flatten collapses the two outermost dimensions.
type Flatten struct {
	At syntax.Pos
	X  Expr
}

// Split splits the outermost dimension n into ceil(n/K) rows of K
// (padding the last row); K is a constant.
type Split struct {
	At syntax.Pos
	K  Ix
	X  Expr
}

// Transpose swaps the two outermost dimensions.
type Transpose struct {
	At syntax.Pos
	X  Expr
}

// Trunc drops K elements of the outermost dimension, on the left
// (trunc_l) or on the right (trunc_r).
type Trunc struct {
	At   syntax.Pos
	Left bool
	K    Ix
	X    Expr
}

// Pad adds K elements of padding to the outermost dimension, on the left
// (pad_l) or on the right (pad_r).
type Pad struct {
	At   syntax.Pos
	Left bool
	K    Ix
	X    Expr
}

// Scalar is a scalar expression used as a (rank 0) tensor.
type Scalar struct {
	S Sx
}

// Wide is a wide binding (Wbind): lanes computed by one fused loop over
// Var in [Lo, Hi), each bound to its name in Body. An assign lane
// (x = e) is Gen Var Lo Hi e; a reduce lane (x += e) is Sum Var Lo Hi e.
type Wide struct {
	At     syntax.Pos
	Var    *Ident
	Lo, Hi Ix
	Lanes  []*Lane
	Body   Expr
}

// Lane is one lane of a wide binding.
type Lane struct {
	Name   *Ident
	Reduce bool // x += e rather than x = e
	Val    Expr
}

// GenRec is sequential computation: Out is bound to Gen Var Lo Hi Body,
// whose Body may read Out's earlier elements (lookbacks), in In.
type GenRec struct {
	At     syntax.Pos
	Out    *Ident
	Var    *Ident
	Lo, Hi Ix
	Body   Expr
	In     Expr
}

// Pos methods.
func (e *Gen) Pos() syntax.Pos       { return e.At }
func (e *Sum) Pos() syntax.Pos       { return e.At }
func (e *Guard) Pos() syntax.Pos     { return e.At }
func (e *Let) Pos() syntax.Pos       { return e.At }
func (e *Concat) Pos() syntax.Pos    { return e.At }
func (e *Flatten) Pos() syntax.Pos   { return e.At }
func (e *Split) Pos() syntax.Pos     { return e.At }
func (e *Transpose) Pos() syntax.Pos { return e.At }
func (e *Trunc) Pos() syntax.Pos     { return e.At }
func (e *Pad) Pos() syntax.Pos       { return e.At }
func (e *Scalar) Pos() syntax.Pos    { return e.S.Pos() }
func (e *Wide) Pos() syntax.Pos      { return e.At }
func (e *GenRec) Pos() syntax.Pos    { return e.At }

// Sx is a scalar expression (ATL's Sexpr).
type Sx interface{ Pos() syntax.Pos }

// Num is a literal.
type Num struct {
	At   syntax.Pos
	Text string
	Val  float64
}

// Ref names a value: an element of a tensor (Get, with Index), a
// let-bound scalar (Var), or a parameter or index variable used as a
// number (no Index).
type Ref struct {
	Name  *Ident
	Index []Ix // nil when the name stands alone
	Brack bool // written with brackets (possibly empty, x[])
}

// Bin is a scalar operation: one of + - * /.
type Bin struct {
	At   syntax.Pos
	Op   byte
	X, Y Sx
}

// Neg is unary minus.
type Neg struct {
	At syntax.Pos
	X  Sx
}

func (e *Num) Pos() syntax.Pos { return e.At }
func (e *Ref) Pos() syntax.Pos { return e.Name.At }
func (e *Bin) Pos() syntax.Pos { return e.At }
func (e *Neg) Pos() syntax.Pos { return e.At }

// Ix is an index expression (ATL's Zexpr): integers, parameters and
// index variables under + - *, floor division /, ceiling division //
// and remainder %.
type Ix interface{ Pos() syntax.Pos }

// IxName is a parameter or index variable.
type IxName struct{ Name *Ident }

// IxConst is an integer literal.
type IxConst struct {
	At  syntax.Pos
	Val int64
}

// IxBin is a binary index operation; Op is '+', '-', '*', '/', '%' or
// 'c' (ceiling division, written //).
type IxBin struct {
	At   syntax.Pos
	Op   byte
	X, Y Ix
}

// IxNeg is unary minus.
type IxNeg struct {
	At syntax.Pos
	X  Ix
}

func (e *IxName) Pos() syntax.Pos  { return e.Name.At }
func (e *IxConst) Pos() syntax.Pos { return e.At }
func (e *IxBin) Pos() syntax.Pos   { return e.At }
func (e *IxNeg) Pos() syntax.Pos   { return e.At }

// Cond is a boolean condition over index expressions (guards,
// assumptions).
type Cond interface{ Pos() syntax.Pos }

// Cmp compares two index expressions; Op is one of == != < <= > >=.
type Cmp struct {
	At   syntax.Pos
	Op   string
	X, Y Ix
}

// Logic is a conjunction ("and") or disjunction ("or").
type Logic struct {
	At   syntax.Pos
	Op   string
	X, Y Cond
}

// Not negates a condition.
type Not struct {
	At syntax.Pos
	X  Cond
}

// Truth is true or false.
type Truth struct {
	At  syntax.Pos
	Val bool
}

func (c *Cmp) Pos() syntax.Pos   { return c.At }
func (c *Logic) Pos() syntax.Pos { return c.At }
func (c *Not) Pos() syntax.Pos   { return c.At }
func (c *Truth) Pos() syntax.Pos { return c.At }
