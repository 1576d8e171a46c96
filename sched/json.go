package sched

import (
	"encoding/json"
	"fmt"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
)

// KernelJSON is the JSON form of a kernel, for compilers that emit kernels
// programmatically. Expressions use syntax.ExprJSON. The matrix product of
// the format description reads, in part:
//
//	{"name": "matmul", "params": ["N", "M", "P"],
//	 "assume": [{"kind":"binary","op":"ge",...}],
//	 "bindings": [{"dir": "in", "array": "a", "vars": ["i", "k"], "type": "f32",
//	               "extents": [{"kind":"ident","name":"N"}, {"kind":"ident","name":"P"}],
//	               "tensor": {"kind":"call","name":"A","args":[...]}}, ...],
//	 "body": [{"kind": "par", "var": "i", "hi": {"kind":"ident","name":"N"},
//	           "body": [...]}]}
//
// Every "pos" member ({"line": 3, "col": 5}) is optional and ignored by
// Equal. Decoding validates the kernel's shape: known kinds, valid names
// and types, required members present. It does not type-check.
type KernelJSON struct {
	Name     string             `json:"name"`
	Params   []string           `json:"params"`
	Assume   []*syntax.ExprJSON `json:"assume,omitempty"`
	Bindings []*BindingJSON     `json:"bindings"`
	Body     []*StmtJSON        `json:"body"`
	Pos      *syntax.Pos        `json:"pos,omitempty"`
}

// BindingJSON is the JSON form of a binding. Dir is "in" or "out"; Where
// is omitted when the binding has no where clause.
type BindingJSON struct {
	Dir     string             `json:"dir"`
	Array   string             `json:"array"`
	Vars    []string           `json:"vars"`
	Type    string             `json:"type"`
	Extents []*syntax.ExprJSON `json:"extents"`
	Tensor  *syntax.ExprJSON   `json:"tensor"`
	Where   *syntax.ExprJSON   `json:"where,omitempty"`
	Pos     *syntax.Pos        `json:"pos,omitempty"`
}

// StmtJSON is the JSON form of a statement. Kind selects the members used:
//
//	skip
//	assign  array, indices, annot, value
//	if      cond, then, else (optional: a statement of kind "if" or "block")
//	let     var, value
//	alloc   array, type, extents, body
//	for/par var, lo (optional: present for the `x in lo .. hi` form), hi, body
//	block   body
type StmtJSON struct {
	Kind    string             `json:"kind"`
	Array   string             `json:"array,omitempty"`
	Var     string             `json:"var,omitempty"`
	Indices []*syntax.ExprJSON `json:"indices,omitempty"`
	Annot   *syntax.ExprJSON   `json:"annot,omitempty"`
	// At is the reduction position of the annotation (`@`): present,
	// possibly empty, only on reduction assignments.
	At *[]*syntax.ExprJSON `json:"at,omitempty"`
	// Op is the operator of an accumulating assignment ("+", "min", ...).
	Op      string             `json:"op,omitempty"`
	Value   *syntax.ExprJSON   `json:"value,omitempty"`
	Cond    *syntax.ExprJSON   `json:"cond,omitempty"`
	Then    []*StmtJSON        `json:"then,omitempty"`
	Else    *StmtJSON          `json:"else,omitempty"`
	Type    string             `json:"type,omitempty"`
	Extents []*syntax.ExprJSON `json:"extents,omitempty"`
	Lo      *syntax.ExprJSON   `json:"lo,omitempty"`
	Hi      *syntax.ExprJSON   `json:"hi,omitempty"`
	Body    []*StmtJSON        `json:"body,omitempty"`
	Pos     *syntax.Pos        `json:"pos,omitempty"`
}

func posPtr(p syntax.Pos) *syntax.Pos {
	if !p.IsValid() {
		return nil
	}
	return &p
}

func posOf(p *syntax.Pos) syntax.Pos {
	if p == nil {
		return syntax.Pos{}
	}
	return *p
}

// Marshal encodes k as JSON.
func Marshal(k *Kernel) ([]byte, error) {
	data, err := json.Marshal(ToJSON(k))
	if err != nil {
		return nil, fmt.Errorf("encode kernel: %w", err)
	}
	return data, nil
}

// Unmarshal decodes and validates a kernel from JSON.
func Unmarshal(data []byte) (*Kernel, error) {
	var j KernelJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("decode kernel: %w", err)
	}
	k, err := FromJSON(&j)
	if err != nil {
		return nil, fmt.Errorf("decode kernel: %w", err)
	}
	return k, nil
}

// ToJSON converts k to its JSON form.
func ToJSON(k *Kernel) *KernelJSON {
	j := &KernelJSON{Params: []string{}, Bindings: []*BindingJSON{}, Body: []*StmtJSON{}, Pos: posPtr(k.KernelPos)}
	if k.Name != nil {
		j.Name = k.Name.Name
	}
	for _, p := range k.Params {
		j.Params = append(j.Params, p.Name)
	}
	for _, a := range k.Assumes {
		j.Assume = append(j.Assume, syntax.ToJSON(a.Cond))
	}
	for _, b := range k.Bindings {
		bj := &BindingJSON{
			Dir: b.Dir.String(), Array: b.Array.Name, Vars: []string{}, Type: b.Elem.String(),
			Extents: syntax.ListToJSON(b.Extents), Pos: posPtr(b.DirPos),
		}
		for _, v := range b.Vars {
			bj.Vars = append(bj.Vars, v.Name)
		}
		if b.Tensor != nil {
			bj.Tensor = syntax.ToJSON(b.Tensor)
		}
		if b.Where != nil {
			bj.Where = syntax.ToJSON(b.Where)
		}
		j.Bindings = append(j.Bindings, bj)
	}
	if k.Body != nil {
		j.Body = stmtsToJSON(k.Body.Stmts)
	}
	return j
}

func stmtsToJSON(list []Stmt) []*StmtJSON {
	out := make([]*StmtJSON, 0, len(list))
	for _, s := range list {
		out = append(out, stmtToJSON(s))
	}
	return out
}

func stmtToJSON(s Stmt) *StmtJSON {
	j := &StmtJSON{Pos: posPtr(s.Pos())}
	switch s := s.(type) {
	case *Skip:
		j.Kind = "skip"
	case *Assign:
		j.Kind = "assign"
		j.Array = s.Array.Name
		j.Indices = syntax.ListToJSON(s.Indices)
		j.Annot = syntax.ToJSON(s.Annot)
		j.Value = syntax.ToJSON(s.Value)
		if s.At != nil {
			at := syntax.ListToJSON(s.At)
			if at == nil {
				at = []*syntax.ExprJSON{}
			}
			j.At = &at
		}
		if s.Op != expr.NoReduce {
			j.Op = s.Op.String()
		}
	case *If:
		j.Kind = "if"
		j.Cond = syntax.ToJSON(s.Cond)
		j.Then = stmtsToJSON(s.Then.Stmts)
		if s.Else != nil {
			j.Else = stmtToJSON(s.Else)
		}
	case *Let:
		j.Kind = "let"
		j.Var = s.Var.Name
		j.Value = syntax.ToJSON(s.Value)
	case *Alloc:
		j.Kind = "alloc"
		j.Array = s.Array.Name
		j.Type = s.Elem.String()
		j.Extents = syntax.ListToJSON(s.Extents)
		j.Body = stmtsToJSON(s.Body.Stmts)
	case *Loop:
		j.Kind = s.Keyword()
		j.Var = s.Var.Name
		if s.Lo != nil {
			j.Lo = syntax.ToJSON(s.Lo)
		}
		j.Hi = syntax.ToJSON(s.Hi)
		j.Body = stmtsToJSON(s.Body.Stmts)
	case *Block:
		j.Kind = "block"
		j.Body = stmtsToJSON(s.Stmts)
	}
	return j
}

// FromJSON converts the JSON form back to a kernel, validating it.
func FromJSON(j *KernelJSON) (*Kernel, error) {
	if j == nil {
		return nil, fmt.Errorf("missing kernel")
	}
	k := &Kernel{KernelPos: posOf(j.Pos)}
	var err error
	if k.Name, err = ident(j.Name, "kernel name", k.KernelPos); err != nil {
		return nil, err
	}
	for _, p := range j.Params {
		id, err := ident(p, "parameter", syntax.Pos{})
		if err != nil {
			return nil, err
		}
		k.Params = append(k.Params, id)
	}
	for i, a := range j.Assume {
		x, err := syntax.FromJSON(a)
		if err != nil {
			return nil, fmt.Errorf("assume %d: %w", i+1, err)
		}
		k.Assumes = append(k.Assumes, &Assume{AssumePos: x.Pos(), Cond: x})
	}
	for i, bj := range j.Bindings {
		b, err := bindingFromJSON(bj)
		if err != nil {
			return nil, fmt.Errorf("binding %d: %w", i+1, err)
		}
		k.Bindings = append(k.Bindings, b)
	}
	body, err := stmtsFromJSON(j.Body, 0)
	if err != nil {
		return nil, fmt.Errorf("body: %w", err)
	}
	k.Body = &Block{Stmts: body}
	return k, nil
}

func ident(name, what string, pos syntax.Pos) (*syntax.Ident, error) {
	if !validName(name) {
		return nil, fmt.Errorf("invalid %s %q", what, name)
	}
	return &syntax.Ident{NamePos: pos, Name: name}, nil
}

func typeFromJSON(name string) (syntax.Type, error) {
	t := syntax.TypeByName(name)
	if t == syntax.Invalid {
		return t, fmt.Errorf("invalid type %q", name)
	}
	return t, nil
}

func exprsFromJSON(list []*syntax.ExprJSON, what string) ([]syntax.Expr, error) {
	out := make([]syntax.Expr, 0, len(list))
	for i, xj := range list {
		x, err := syntax.FromJSON(xj)
		if err != nil {
			return nil, fmt.Errorf("%s %d: %w", what, i+1, err)
		}
		out = append(out, x)
	}
	return out, nil
}

func exprFromJSON(xj *syntax.ExprJSON, what string) (syntax.Expr, error) {
	if xj == nil {
		return nil, fmt.Errorf("missing %s", what)
	}
	x, err := syntax.FromJSON(xj)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return x, nil
}

func bindingFromJSON(j *BindingJSON) (*Binding, error) {
	if j == nil {
		return nil, fmt.Errorf("missing binding")
	}
	b := &Binding{DirPos: posOf(j.Pos)}
	switch j.Dir {
	case "in":
		b.Dir = In
	case "out":
		b.Dir = Out
	default:
		return nil, fmt.Errorf("direction %q is neither \"in\" nor \"out\"", j.Dir)
	}
	var err error
	if b.Array, err = ident(j.Array, "array name", b.DirPos); err != nil {
		return nil, err
	}
	b.Vars = []*syntax.Ident{}
	for _, v := range j.Vars {
		id, err := ident(v, "index variable", syntax.Pos{})
		if err != nil {
			return nil, err
		}
		b.Vars = append(b.Vars, id)
	}
	if b.Elem, err = typeFromJSON(j.Type); err != nil {
		return nil, err
	}
	if b.Extents, err = exprsFromJSON(j.Extents, "extent"); err != nil {
		return nil, err
	}
	x, err := exprFromJSON(j.Tensor, "tensor access")
	if err != nil {
		return nil, err
	}
	call, ok := x.(*syntax.Call)
	if !ok {
		return nil, fmt.Errorf("expected a tensor access T(...), found %s", syntax.ExprString(x))
	}
	b.Tensor = call
	if j.Where != nil {
		if b.Where, err = exprFromJSON(j.Where, "where"); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func stmtsFromJSON(list []*StmtJSON, depth int) ([]Stmt, error) {
	out := make([]Stmt, 0, len(list))
	for i, sj := range list {
		s, err := stmtFromJSON(sj, depth)
		if err != nil {
			return nil, fmt.Errorf("statement %d: %w", i+1, err)
		}
		out = append(out, s)
	}
	return out, nil
}

func blockFromJSON(list []*StmtJSON, depth int) (*Block, error) {
	stmts, err := stmtsFromJSON(list, depth+1)
	if err != nil {
		return nil, err
	}
	return &Block{Stmts: stmts}, nil
}

func stmtFromJSON(j *StmtJSON, depth int) (Stmt, error) {
	if j == nil {
		return nil, fmt.Errorf("missing statement")
	}
	if depth > maxNesting {
		return nil, fmt.Errorf("statements nested too deeply")
	}
	pos := posOf(j.Pos)
	var err error
	switch j.Kind {
	case "skip":
		return &Skip{SkipPos: pos}, nil
	case "assign":
		s := &Assign{}
		if s.Array, err = ident(j.Array, "array name", pos); err != nil {
			return nil, err
		}
		if s.Indices, err = exprsFromJSON(j.Indices, "index"); err != nil {
			return nil, err
		}
		if s.Annot, err = exprFromJSON(j.Annot, "annotation"); err != nil {
			return nil, err
		}
		if s.Value, err = exprFromJSON(j.Value, "value"); err != nil {
			return nil, err
		}
		if j.At != nil {
			if s.At, err = exprsFromJSON(*j.At, "reduction position"); err != nil {
				return nil, err
			}
			if s.At == nil {
				s.At = []syntax.Expr{}
			}
		}
		if j.Op != "" {
			op, ok := expr.ReduceOpByName(j.Op)
			if !ok {
				return nil, fmt.Errorf("unknown accumulation operator %q", j.Op)
			}
			s.Op = op
		}
		return s, nil
	case "if":
		s := &If{IfPos: pos}
		if s.Cond, err = exprFromJSON(j.Cond, "condition"); err != nil {
			return nil, err
		}
		if s.Then, err = blockFromJSON(j.Then, depth); err != nil {
			return nil, fmt.Errorf("then: %w", err)
		}
		if j.Else != nil {
			if j.Else.Kind != "if" && j.Else.Kind != "block" {
				return nil, fmt.Errorf("else: kind %q is neither \"if\" nor \"block\"", j.Else.Kind)
			}
			if s.Else, err = stmtFromJSON(j.Else, depth+1); err != nil {
				return nil, fmt.Errorf("else: %w", err)
			}
		}
		return s, nil
	case "let":
		s := &Let{LetPos: pos}
		if s.Var, err = ident(j.Var, "variable name", syntax.Pos{}); err != nil {
			return nil, err
		}
		if s.Value, err = exprFromJSON(j.Value, "value"); err != nil {
			return nil, err
		}
		return s, nil
	case "alloc":
		s := &Alloc{AllocPos: pos}
		if s.Array, err = ident(j.Array, "array name", syntax.Pos{}); err != nil {
			return nil, err
		}
		if s.Elem, err = typeFromJSON(j.Type); err != nil {
			return nil, err
		}
		if s.Extents, err = exprsFromJSON(j.Extents, "extent"); err != nil {
			return nil, err
		}
		if s.Body, err = blockFromJSON(j.Body, depth); err != nil {
			return nil, err
		}
		return s, nil
	case "for", "par":
		s := &Loop{KwPos: pos, Par: j.Kind == "par"}
		if s.Var, err = ident(j.Var, "loop variable", syntax.Pos{}); err != nil {
			return nil, err
		}
		if j.Lo != nil {
			if s.Lo, err = exprFromJSON(j.Lo, "lower bound"); err != nil {
				return nil, err
			}
		}
		if s.Hi, err = exprFromJSON(j.Hi, "upper bound"); err != nil {
			return nil, err
		}
		if s.Body, err = blockFromJSON(j.Body, depth); err != nil {
			return nil, err
		}
		return s, nil
	case "block":
		b, err := blockFromJSON(j.Body, depth)
		if err != nil {
			return nil, err
		}
		b.Lbrace = pos
		return b, nil
	}
	return nil, fmt.Errorf("unknown statement kind %q", j.Kind)
}
