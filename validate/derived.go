package validate

import (
	"context"
	"fmt"
	"maps"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/presburger"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
)

// Derived is a hypothesis on a kernel parameter: the parameter is an
// integer that the compiler computes from the specification's inputs of no
// dimension (a Halide pipeline's float parameters), such as
// int32(max(1.0f / r_sigma, 0.0f)), so that only the values its
// computation gives occur. The value conditions assume, of every such
// parameter they read, that it equals its computation wherever the
// computation is defined, in the value model of the validation (over the
// reals in the real model, in binary32 in the ieee one); the quick test
// runs the kernel with each parameter computed from the run's inputs.
// Options.Derived holds them; without them a parameter is free.
type Derived struct {
	// Param is the kernel's parameter (and the specification's).
	Param string
	// Def is its computation: an i32 value expression of the
	// specification's language over its inputs of no dimension, its
	// parameters (none of them derived) and constants.
	Def syntax.Expr
}

// hypothesis is a Derived with the types of its computation.
type hypothesis struct {
	Derived
	types map[syntax.Expr]syntax.Type
}

// derivedSpec is the specification with a tensor of no dimension for
// each derived parameter's computation (derivedTensor), which the quick
// test evaluates.
type derivedSpec struct {
	spec *sare.Spec
	info *expr.Info
}

// derivedTensor is the name of the tensor of no dimension whose equation
// is a derived parameter's computation, in the specification that checks
// them (checkDerived).
func derivedTensor(i int) string { return fmt.Sprintf("augur_derived_%d", i) }

// checkDerived checks each computation of ds against spec, as the
// equation of a tensor of no dimension of its own added to a copy of it,
// and returns them with their types, and that copy.
func checkDerived(spec *sare.Spec, ds []Derived) ([]hypothesis, *derivedSpec, error) {
	if len(ds) == 0 {
		return nil, nil, nil
	}
	cp := *spec
	cp.Tensors = append([]*sare.Tensor(nil), spec.Tensors...)
	params := map[string]bool{}
	for _, p := range spec.Params {
		params[p.Name] = true
	}
	for i, d := range ds {
		if !params[d.Param] {
			return nil, nil, fmt.Errorf("derived parameter %s: not a parameter of the specification", d.Param)
		}
		name := &syntax.Ident{Name: derivedTensor(i)}
		cp.Tensors = append(cp.Tensors, &sare.Tensor{Name: name, Type: syntax.I32,
			Eqs: []*sare.Equation{{Tensor: name, RHS: d.Def}}})
	}
	info, errs := sare.Check(&cp)
	if err := errs.Err(); err != nil {
		return nil, nil, fmt.Errorf("the computations of the derived parameters: %w", err)
	}
	out := make([]hypothesis, len(ds))
	for i, d := range ds {
		if reads := readsParams(d.Def, ds); reads != "" {
			return nil, nil, fmt.Errorf("derived parameter %s: its computation reads the derived parameter %s", d.Param, reads)
		}
		if t := info.Types[d.Def]; t != syntax.I32 {
			return nil, nil, fmt.Errorf("derived parameter %s: its computation is of type %s, not i32", d.Param, t)
		}
		out[i] = hypothesis{Derived: d, types: info.Types}
	}
	return out, &derivedSpec{spec: &cp, info: info}, nil
}

// readsParams returns the first derived parameter of ds that e reads, or "".
func readsParams(e syntax.Expr, ds []Derived) string {
	names := map[string]bool{}
	for _, d := range ds {
		names[d.Param] = true
	}
	found := ""
	syntax.Inspect(e, func(x syntax.Expr) bool {
		if id, ok := x.(*syntax.Ident); ok && names[id.Name] && found == "" {
			found = id.Name
		}
		return found == ""
	})
	return found
}

// derivedAxioms returns, for each hypothesis whose parameter params
// holds, the axiom that the parameter equals its computation wherever
// the computation is defined, encoded by enc with the parameters of
// params.
func derivedAxioms(enc *encode.Encoder, hs []hypothesis, params map[string]*smt.Term) ([]*smt.Term, error) {
	var out []*smt.Term
	idx := func(name string) (*smt.Term, bool) { t, ok := params[name]; return t, ok }
	for _, h := range hs {
		p, ok := params[h.Param]
		if !ok {
			continue
		}
		v, def, err := enc.Expr(h.Def, h.types, idx, encode.ExprOptions{})
		if err != nil {
			return nil, fmt.Errorf("derived parameter %s: %w", h.Param, err)
		}
		out = append(out, def.Implies(p.Eq(v.BVToInt(true))).Simplify())
	}
	return out, nil
}

// deriveQuick returns the quick test's point params with each derived
// parameter computed from the run's inputs (sare.RandomInputs(seed)),
// the other parameters as given; false when a computation has no value
// there, or when the point leaves the kernel's assumption domain dom.
func (sh *shared) deriveQuick(ctx context.Context, params map[string]int64, seed uint64, dom *presburger.Map) (map[string]int64, bool) {
	if len(sh.derived) == 0 {
		return params, true
	}
	out := maps.Clone(params)
	for _, h := range sh.derived {
		out[h.Param] = 0
	}
	ev, err := sare.NewEvaluator(sh.dspec.spec, sh.dspec.info, out, sare.RandomInputs(seed))
	if err != nil {
		return nil, false
	}
	for i, h := range sh.derived {
		v, err := ev.Eval(ctx, derivedTensor(i), nil)
		if err != nil || v.IsUndef() {
			return nil, false
		}
		out[h.Param] = v.Int64()
	}
	in := dom
	for _, name := range dom.Space().Params {
		v, ok := out[name]
		if !ok {
			continue
		}
		if in, err = in.FixParam(name, presburger.NewInt(v)); err != nil {
			return nil, false
		}
	}
	empty, err := in.IsEmpty(ctx)
	return out, err == nil && !empty
}

// ParseDerived returns the hypothesis that param equals def, an
// expression of the specification's language (as augur halide writes
// the computations of its derived parameters).
func ParseDerived(param, def string) (Derived, error) {
	spec, err := sare.ParseString("derived "+param, fmt.Sprintf("tensor %s() : i32\n%s() = %s\n", derivedTensor(0), derivedTensor(0), def))
	if err != nil {
		return Derived{}, fmt.Errorf("the computation of %s: %w", param, err)
	}
	if len(spec.Tensors) != 1 || len(spec.Tensors[0].Eqs) != 1 || len(spec.Params) > 0 || len(spec.Outputs) > 0 {
		return Derived{}, fmt.Errorf("the computation of %s: %q is not one expression", param, def)
	}
	return Derived{Param: param, Def: spec.Tensors[0].Eqs[0].RHS}, nil
}
