package syntax

// Expr is an expression of either language: an index expression, a
// constraint or a value expression. Which it is, and whether it is
// well-formed for its place, is decided by the checkers, not the parser.
type Expr interface {
	// Pos is the position of the expression's first character.
	Pos() Pos
	exprNode()
}

// Ident is a variable, parameter or constant name.
type Ident struct {
	NamePos Pos
	Name    string
}

// LitKind distinguishes literals.
type LitKind int

// Literal kinds.
const (
	IntLiteral LitKind = iota
	FloatLiteral
	BoolLiteral
)

func (k LitKind) String() string {
	switch k {
	case IntLiteral:
		return "int"
	case FloatLiteral:
		return "float"
	case BoolLiteral:
		return "bool"
	}
	return "?"
}

// Lit is a literal; Text is its source spelling ("42", "0x1F", "1e-3",
// "true"). Its type comes from the context.
type Lit struct {
	ValuePos Pos
	Kind     LitKind
	Text     string
}

// Op is a unary or binary operator.
type Op int

// Operators. The spellings `and`/`&&`, `or`/`||` and `not`/`!` denote the
// same operator.
const (
	OpNone Op = iota
	OpOr
	OpAnd
	OpNot
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpAdd
	OpSub
	OpBitOr
	OpBitXor
	OpMul
	OpDiv
	OpRem
	OpShl
	OpShr
	OpBitAnd
	OpNeg
	OpBitNot
	numOps
)

var opText = [numOps]string{
	OpOr: "or", OpAnd: "and", OpNot: "not", OpEq: "==", OpNe: "!=", OpLt: "<", OpLe: "<=",
	OpGt: ">", OpGe: ">=", OpAdd: "+", OpSub: "-", OpBitOr: "|", OpBitXor: "^", OpMul: "*",
	OpDiv: "/", OpRem: "%", OpShl: "<<", OpShr: ">>", OpBitAnd: "&", OpNeg: "-", OpBitNot: "~",
}

var opName = [numOps]string{
	OpOr: "or", OpAnd: "and", OpNot: "not", OpEq: "eq", OpNe: "ne", OpLt: "lt", OpLe: "le",
	OpGt: "gt", OpGe: "ge", OpAdd: "add", OpSub: "sub", OpBitOr: "bitor", OpBitXor: "bitxor",
	OpMul: "mul", OpDiv: "div", OpRem: "rem", OpShl: "shl", OpShr: "shr", OpBitAnd: "bitand",
	OpNeg: "neg", OpBitNot: "bitnot",
}

// String is the operator's canonical spelling.
func (o Op) String() string {
	if o > OpNone && o < numOps {
		return opText[o]
	}
	return "?"
}

// Name is the operator's identifier in the JSON encoding ("add", "lt", ...).
func (o Op) Name() string {
	if o > OpNone && o < numOps {
		return opName[o]
	}
	return ""
}

// OpByName returns the operator with the given JSON name.
func OpByName(name string) (Op, bool) {
	for o := OpNone + 1; o < numOps; o++ {
		if opName[o] == name {
			return o, true
		}
	}
	return OpNone, false
}

// IsComparison reports whether o is one of == != < <= > >=.
func (o Op) IsComparison() bool { return o >= OpEq && o <= OpGe }

// IsLogical reports whether o is and, or or not.
func (o Op) IsLogical() bool { return o == OpAnd || o == OpOr || o == OpNot }

// Precedence is the binding strength of a binary operator: 1 (or) to 5
// (multiplicative), following Go. Unary operators bind tighter than all.
func (o Op) Precedence() int {
	switch o {
	case OpOr:
		return 1
	case OpAnd:
		return 2
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		return 4
	case OpAdd, OpSub, OpBitOr, OpBitXor:
		return 5
	case OpMul, OpDiv, OpRem, OpShl, OpShr, OpBitAnd:
		return 6
	}
	return 0
}

// Unary is a prefix operation: -x, ~x, not x.
type Unary struct {
	OpPos Pos
	Op    Op // OpNeg, OpBitNot or OpNot
	X     Expr
}

// Binary is a binary operation x op y, comparisons included.
type Binary struct {
	X  Expr
	Op Op
	Y  Expr
}

// Chain is a chain of two or more comparisons, a op1 b op2 c ..., meaning
// (a op1 b) and (b op2 c) and ... . len(Operands) == len(Ops)+1 >= 3.
type Chain struct {
	Operands []Expr
	Ops      []Op
}

// Call is F(args): a tensor access, a built-in function (min, max, select,
// sqrt, ...) or a cast named by its type (f32(x)). The checker decides
// which from the name.
type Call struct {
	Fun  *Ident
	Args []Expr
}

// Index is an array read a[i, j] (only in kernels).
type Index struct {
	Array   *Ident
	Indices []Expr
}

func (x *Ident) Pos() Pos  { return x.NamePos }
func (x *Lit) Pos() Pos    { return x.ValuePos }
func (x *Unary) Pos() Pos  { return x.OpPos }
func (x *Binary) Pos() Pos { return x.X.Pos() }
func (x *Chain) Pos() Pos  { return x.Operands[0].Pos() }
func (x *Call) Pos() Pos   { return x.Fun.NamePos }
func (x *Index) Pos() Pos  { return x.Array.NamePos }

func (*Ident) exprNode()  {}
func (*Lit) exprNode()    {}
func (*Unary) exprNode()  {}
func (*Binary) exprNode() {}
func (*Chain) exprNode()  {}
func (*Call) exprNode()   {}
func (*Index) exprNode()  {}

// Comparisons expands a Chain into its pairwise comparisons.
func (x *Chain) Comparisons() []*Binary {
	out := make([]*Binary, len(x.Ops))
	for i, op := range x.Ops {
		out[i] = &Binary{X: x.Operands[i], Op: op, Y: x.Operands[i+1]}
	}
	return out
}
