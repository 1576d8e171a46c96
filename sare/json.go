package sare

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// SpecJSON is the JSON form of a specification, for compilers that emit
// specifications programmatically. Expressions use syntax.ExprJSON.
// Positions ("pos") are optional everywhere and ignored by Equal.
//
//	{
//	  "params":  ["N", "P"],
//	  "assumes": [{"cond": <expr>}],
//	  "tensors": [
//	    {"name": "A", "input": true, "vars": ["i", "k"], "type": "f32"},
//	    {"name": "R", "vars": ["i", "k"], "type": "f32",
//	     "equations": [{"vars": ["i", "k"], "rhs": <expr>, "where": <expr>}]}
//	  ],
//	  "outputs": ["R"]
//	}
//
// "where" is omitted for an equation over every point.
type SpecJSON struct {
	Params  []string      `json:"params,omitempty"`
	Assumes []*AssumeJSON `json:"assumes,omitempty"`
	Tensors []*TensorJSON `json:"tensors,omitempty"`
	Outputs []string      `json:"outputs,omitempty"`
	// Overflow is the overflow directive's word ("unconstrained"),
	// omitted for wrapping.
	Overflow string `json:"overflow,omitempty"`
}

// AssumeJSON is the JSON form of an assumption.
type AssumeJSON struct {
	Cond *syntax.ExprJSON `json:"cond"`
	Pos  *syntax.Pos      `json:"pos,omitempty"`
}

// TensorJSON is the JSON form of a tensor declaration and its equations.
type TensorJSON struct {
	Name      string          `json:"name"`
	Input     bool            `json:"input,omitempty"`
	Vars      []string        `json:"vars"`
	Type      string          `json:"type"`
	Equations []*EquationJSON `json:"equations,omitempty"`
	Pos       *syntax.Pos     `json:"pos,omitempty"`
}

// EquationJSON is the JSON form of an equation; its tensor is the one it
// is listed under.
type EquationJSON struct {
	Vars  []string         `json:"vars"`
	RHS   *syntax.ExprJSON `json:"rhs"`
	Where *syntax.ExprJSON `json:"where,omitempty"`
	Pos   *syntax.Pos      `json:"pos,omitempty"`
	// Reduce makes the equation a reduction whose body is RHS.
	Reduce *ReductionJSON `json:"reduce,omitempty"`
}

// ReductionJSON is the JSON form of a reduction header: the operator
// ("+", "*", "min", "max", "&", "|", "^"), one range per variable and the
// optional condition.
type ReductionJSON struct {
	Op     string           `json:"op"`
	Ranges []*RangeJSON     `json:"ranges"`
	Where  *syntax.ExprJSON `json:"where,omitempty"`
}

// RangeJSON is one reduction variable with its range [lo, hi).
type RangeJSON struct {
	Var string           `json:"var"`
	Lo  *syntax.ExprJSON `json:"lo"`
	Hi  *syntax.ExprJSON `json:"hi"`
}

func reductionToJSON(r *Reduction) *ReductionJSON {
	j := &ReductionJSON{Op: r.Op.String()}
	for i, v := range r.Vars {
		j.Ranges = append(j.Ranges, &RangeJSON{Var: v.Name, Lo: syntax.ToJSON(r.Los[i]), Hi: syntax.ToJSON(r.His[i])})
	}
	if r.Cond != nil {
		j.Where = syntax.ToJSON(r.Cond)
	}
	return j
}

func reductionFromJSON(j *ReductionJSON) (*Reduction, error) {
	op, ok := expr.ReduceOpByName(j.Op)
	if !ok {
		return nil, fmt.Errorf("unknown reduction operator %q", j.Op)
	}
	if len(j.Ranges) == 0 {
		return nil, fmt.Errorf("reduction without ranges")
	}
	r := &Reduction{Op: op}
	for k, rg := range j.Ranges {
		if rg == nil {
			return nil, fmt.Errorf("range %d: missing", k)
		}
		if !syntax.ValidName(rg.Var) {
			return nil, fmt.Errorf("range %d: invalid variable %q", k, rg.Var)
		}
		lo, err := syntax.FromJSON(rg.Lo)
		if err != nil {
			return nil, fmt.Errorf("range %d: lo: %w", k, err)
		}
		hi, err := syntax.FromJSON(rg.Hi)
		if err != nil {
			return nil, fmt.Errorf("range %d: hi: %w", k, err)
		}
		r.Vars = append(r.Vars, &syntax.Ident{Name: rg.Var})
		r.Los, r.His = append(r.Los, lo), append(r.His, hi)
	}
	if j.Where != nil {
		c, err := syntax.FromJSON(j.Where)
		if err != nil {
			return nil, fmt.Errorf("where: %w", err)
		}
		r.Cond = c
	}
	return r, nil
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

func names(ids []*syntax.Ident) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.Name
	}
	return out
}

// ToJSON converts spec to its JSON form.
func ToJSON(spec *Spec) *SpecJSON {
	j := &SpecJSON{Params: names(spec.Params), Outputs: names(spec.Outputs)}
	if spec.Overflow != value.OverflowWraps {
		j.Overflow = spec.Overflow.String()
	}
	for _, a := range spec.Assumes {
		j.Assumes = append(j.Assumes, &AssumeJSON{Cond: syntax.ToJSON(a.Cond), Pos: posPtr(a.Pos)})
	}
	for _, t := range spec.Tensors {
		tj := &TensorJSON{Name: t.Name.Name, Input: t.Input, Vars: names(t.Vars), Type: t.Type.String(), Pos: posPtr(t.Pos)}
		for _, eq := range t.Eqs {
			ej := &EquationJSON{Vars: names(eq.Vars), RHS: syntax.ToJSON(eq.RHS), Pos: posPtr(eq.Pos())}
			if eq.Where != nil {
				ej.Where = syntax.ToJSON(eq.Where)
			}
			if eq.Reduce != nil {
				ej.Reduce = reductionToJSON(eq.Reduce)
			}
			tj.Equations = append(tj.Equations, ej)
		}
		j.Tensors = append(j.Tensors, tj)
	}
	return j
}

// MarshalSpec encodes spec as indented JSON.
func MarshalSpec(spec *Spec) ([]byte, error) {
	data, err := json.MarshalIndent(ToJSON(spec), "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode specification: %w", err)
	}
	return data, nil
}

// UnmarshalSpec decodes a specification from JSON, rejecting unknown
// fields, and validates its shape with FromJSON. The result still needs
// Check.
func UnmarshalSpec(data []byte) (*Spec, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var j SpecJSON
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("decode specification: %w", err)
	}
	spec, err := FromJSON(&j)
	if err != nil {
		return nil, fmt.Errorf("decode specification: %w", err)
	}
	return spec, nil
}

// FromJSON converts the JSON form back to a specification, checking what
// the text syntax guarantees: valid names, known types, well-formed
// expressions, variable lists for every tensor and equation. It does not
// resolve names or check types: that is Check's job.
func FromJSON(j *SpecJSON) (*Spec, error) {
	spec := &Spec{}
	ident := func(name, what string) (*syntax.Ident, error) {
		if !syntax.ValidName(name) || keywords[name] {
			return nil, fmt.Errorf("invalid %s name %q", what, name)
		}
		return &syntax.Ident{Name: name}, nil
	}
	identList := func(ns []string, what string) ([]*syntax.Ident, error) {
		out := make([]*syntax.Ident, 0, len(ns))
		for _, n := range ns {
			id, err := ident(n, what)
			if err != nil {
				return nil, err
			}
			out = append(out, id)
		}
		return out, nil
	}
	if j.Overflow != "" {
		o, ok := value.ParseOverflow(j.Overflow)
		if !ok {
			return nil, fmt.Errorf("invalid overflow %q, want wraps or unconstrained", j.Overflow)
		}
		spec.Overflow = o
	}
	var err error
	if spec.Params, err = identList(j.Params, "parameter"); err != nil {
		return nil, err
	}
	if spec.Outputs, err = identList(j.Outputs, "output"); err != nil {
		return nil, err
	}
	for i, a := range j.Assumes {
		if a == nil {
			return nil, fmt.Errorf("assumption %d: missing", i)
		}
		cond, err := syntax.FromJSON(a.Cond)
		if err != nil {
			return nil, fmt.Errorf("assumption %d: %w", i, err)
		}
		spec.Assumes = append(spec.Assumes, &Assume{Pos: posOf(a.Pos), Cond: cond})
	}
	for _, tj := range j.Tensors {
		if tj == nil {
			return nil, fmt.Errorf("missing tensor")
		}
		name, err := ident(tj.Name, "tensor")
		if err != nil {
			return nil, err
		}
		name.NamePos = posOf(tj.Pos)
		t := &Tensor{Pos: posOf(tj.Pos), Input: tj.Input, Name: name, Type: syntax.TypeByName(tj.Type)}
		if t.Type == syntax.Invalid {
			return nil, fmt.Errorf("tensor %s: unknown type %q", tj.Name, tj.Type)
		}
		if tj.Vars == nil {
			return nil, fmt.Errorf("tensor %s: missing vars (use [] for a scalar)", tj.Name)
		}
		if t.Vars, err = identList(tj.Vars, "variable"); err != nil {
			return nil, fmt.Errorf("tensor %s: %w", tj.Name, err)
		}
		for k, ej := range tj.Equations {
			if ej == nil || ej.Vars == nil {
				return nil, fmt.Errorf("tensor %s: equation %d: missing vars", tj.Name, k)
			}
			eq := &Equation{Tensor: &syntax.Ident{NamePos: posOf(ej.Pos), Name: tj.Name}}
			if eq.Vars, err = identList(ej.Vars, "variable"); err != nil {
				return nil, fmt.Errorf("tensor %s: equation %d: %w", tj.Name, k, err)
			}
			if eq.RHS, err = syntax.FromJSON(ej.RHS); err != nil {
				return nil, fmt.Errorf("tensor %s: equation %d: rhs: %w", tj.Name, k, err)
			}
			if ej.Where != nil {
				if eq.Where, err = syntax.FromJSON(ej.Where); err != nil {
					return nil, fmt.Errorf("tensor %s: equation %d: where: %w", tj.Name, k, err)
				}
			}
			if ej.Reduce != nil {
				if eq.Reduce, err = reductionFromJSON(ej.Reduce); err != nil {
					return nil, fmt.Errorf("tensor %s: equation %d: reduce: %w", tj.Name, k, err)
				}
			}
			t.Eqs = append(t.Eqs, eq)
		}
		spec.Tensors = append(spec.Tensors, t)
	}
	return spec, nil
}
