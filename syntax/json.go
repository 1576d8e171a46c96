package syntax

import (
	"encoding/json"
	"fmt"
)

// ExprJSON is the JSON form of an expression, for compilers that emit
// specifications and kernels programmatically. Kind is one of ident, int,
// float, bool, unary, binary, chain, call, index.
//
//	{"kind":"binary","op":"add","x":{"kind":"ident","name":"i"},"y":{"kind":"int","value":"1"}}
//
// Operators use the names of Op.Name ("add", "lt", "neg", ...). Pos is
// optional and ignored by equality.
type ExprJSON struct {
	Kind  string      `json:"kind"`
	Name  string      `json:"name,omitempty"`  // ident; call's function; index's array
	Value string      `json:"value,omitempty"` // literal spelling
	Op    string      `json:"op,omitempty"`    // unary, binary
	Ops   []string    `json:"ops,omitempty"`   // chain
	X     *ExprJSON   `json:"x,omitempty"`     // unary operand; binary left
	Y     *ExprJSON   `json:"y,omitempty"`     // binary right
	Args  []*ExprJSON `json:"args,omitempty"`  // call arguments; index indices; chain operands
	Pos   *Pos        `json:"pos,omitempty"`
}

func posPtr(p Pos) *Pos {
	if !p.IsValid() {
		return nil
	}
	return &p
}

func (j *ExprJSON) pos() Pos {
	if j.Pos == nil {
		return Pos{}
	}
	return *j.Pos
}

// ToJSON converts x to its JSON form.
func ToJSON(x Expr) *ExprJSON {
	switch x := x.(type) {
	case *Ident:
		return &ExprJSON{Kind: "ident", Name: x.Name, Pos: posPtr(x.NamePos)}
	case *Lit:
		return &ExprJSON{Kind: x.Kind.String(), Value: x.Text, Pos: posPtr(x.ValuePos)}
	case *Unary:
		return &ExprJSON{Kind: "unary", Op: x.Op.Name(), X: ToJSON(x.X), Pos: posPtr(x.OpPos)}
	case *Binary:
		return &ExprJSON{Kind: "binary", Op: x.Op.Name(), X: ToJSON(x.X), Y: ToJSON(x.Y)}
	case *Chain:
		j := &ExprJSON{Kind: "chain", Args: ListToJSON(x.Operands)}
		for _, op := range x.Ops {
			j.Ops = append(j.Ops, op.Name())
		}
		return j
	case *Call:
		return &ExprJSON{Kind: "call", Name: x.Fun.Name, Args: ListToJSON(x.Args), Pos: posPtr(x.Fun.NamePos)}
	case *Index:
		return &ExprJSON{Kind: "index", Name: x.Array.Name, Args: ListToJSON(x.Indices), Pos: posPtr(x.Array.NamePos)}
	}
	return nil
}

// ListToJSON converts a list of expressions.
func ListToJSON(xs []Expr) []*ExprJSON {
	out := make([]*ExprJSON, len(xs))
	for i, x := range xs {
		out[i] = ToJSON(x)
	}
	return out
}

// MarshalExpr encodes x as JSON.
func MarshalExpr(x Expr) ([]byte, error) { return json.Marshal(ToJSON(x)) }

// UnmarshalExpr decodes an expression from JSON.
func UnmarshalExpr(data []byte) (Expr, error) {
	var j ExprJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("decode expression: %w", err)
	}
	return FromJSON(&j)
}

// FromJSON converts the JSON form back to an expression, checking that it
// is well-formed (known kinds and operators, operand counts, literal
// spellings that the lexer would accept).
func FromJSON(j *ExprJSON) (Expr, error) { return fromJSON(j, 0) }

func fromJSON(j *ExprJSON, depth int) (Expr, error) {
	if j == nil {
		return nil, fmt.Errorf("missing expression")
	}
	if depth > maxDepth {
		return nil, fmt.Errorf("expression nested too deeply")
	}
	list := func(js []*ExprJSON) ([]Expr, error) {
		out := make([]Expr, len(js))
		for i, a := range js {
			x, err := fromJSON(a, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	}
	name := func() (*Ident, error) {
		if !validName(j.Name) {
			return nil, fmt.Errorf("%s: invalid name %q", j.Kind, j.Name)
		}
		return &Ident{NamePos: j.pos(), Name: j.Name}, nil
	}
	switch j.Kind {
	case "ident":
		return name()
	case "int", "float", "bool":
		kind := map[string]LitKind{"int": IntLiteral, "float": FloatLiteral, "bool": BoolLiteral}[j.Kind]
		if !validLit(kind, j.Value) {
			return nil, fmt.Errorf("invalid %s literal %q", j.Kind, j.Value)
		}
		return &Lit{ValuePos: j.pos(), Kind: kind, Text: j.Value}, nil
	case "unary":
		op, ok := OpByName(j.Op)
		if !ok || (op != OpNeg && op != OpNot && op != OpBitNot) {
			return nil, fmt.Errorf("unknown unary operator %q", j.Op)
		}
		x, err := fromJSON(j.X, depth+1)
		if err != nil {
			return nil, err
		}
		return &Unary{OpPos: j.pos(), Op: op, X: x}, nil
	case "binary":
		op, ok := OpByName(j.Op)
		if !ok || op.Precedence() == 0 {
			return nil, fmt.Errorf("unknown binary operator %q", j.Op)
		}
		x, err := fromJSON(j.X, depth+1)
		if err != nil {
			return nil, err
		}
		y, err := fromJSON(j.Y, depth+1)
		if err != nil {
			return nil, err
		}
		return &Binary{X: x, Op: op, Y: y}, nil
	case "chain":
		if len(j.Ops) < 2 || len(j.Args) != len(j.Ops)+1 {
			return nil, fmt.Errorf("chain needs at least two operators and one more operand than operators")
		}
		c := &Chain{}
		for _, name := range j.Ops {
			op, ok := OpByName(name)
			if !ok || !op.IsComparison() {
				return nil, fmt.Errorf("chain operator %q is not a comparison", name)
			}
			c.Ops = append(c.Ops, op)
		}
		var err error
		if c.Operands, err = list(j.Args); err != nil {
			return nil, err
		}
		return c, nil
	case "call":
		fun, err := name()
		if err != nil {
			return nil, err
		}
		args, err := list(j.Args)
		if err != nil {
			return nil, err
		}
		return &Call{Fun: fun, Args: args}, nil
	case "index":
		arr, err := name()
		if err != nil {
			return nil, err
		}
		idx, err := list(j.Args)
		if err != nil {
			return nil, err
		}
		return &Index{Array: arr, Indices: idx}, nil
	}
	return nil, fmt.Errorf("unknown expression kind %q", j.Kind)
}

// validName reports whether s lexes as one name that is not reserved.
func validName(s string) bool {
	if s == "" || !isLetter(s[0]) || IsReserved(s) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isLetter(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// ValidName reports whether s can be used as a name in either language.
func ValidName(s string) bool { return validName(s) }

// validLit reports whether s lexes as exactly one literal of the kind.
func validLit(kind LitKind, s string) bool {
	if kind == BoolLiteral {
		return s == "true" || s == "false"
	}
	var r Reporter
	toks := Lex(&Source{Text: s}, &r)
	want := Int
	if kind == FloatLiteral {
		want = Float
	}
	return len(r.Errs) == 0 && len(toks) == 3 && toks[0].Kind == want && toks[0].Text == s
}
