package symeval

import (
	"fmt"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/syntax"
)

// This file lets a data-dependent read range over cells of two forms
// where the specification says that they are one: a scan's first cells
// hold the pure definition's values (a cumulative sum's cdf_s0(0)), the
// others the scan's (cdf_s1(x)), and the specification's equation
// cdf_s1(x) = cdf_s0(x) where not (1 <= x < 256) makes the first ones
// the scan's too. Such an equation T(x1..xn) = U(x1..xn), whose
// right-hand side is the other tensor at the equation's own variables in
// order, is a copy (specCopy). A heap component whose cells hold U(h)
// for hole values h all within the copy's domain holds T(h) as well: its
// cells are relabelled to the form of a component holding T, and the
// two are read as one (mergeCopies).

// specCopy is an equation T(x1..xn) = U(x1..xn) of the specification:
// from is U, dom its domain, a set over the specification's parameters
// whose tuple is unnamed.
type specCopy struct {
	from string
	dom  *presburger.Map
}

// copyEquations returns the copies of the specification by the tensor
// they define. An equation whose domain does not translate is left out.
func copyEquations(spec *sare.Spec) map[string][]specCopy {
	out := map[string][]specCopy{}
	params := spec.ParamNames()
	for _, t := range spec.Tensors {
		if t.Input {
			continue
		}
		for _, eq := range t.Eqs {
			u, ok := copiedTensor(spec, eq)
			if !ok {
				continue
			}
			dims := make([]string, len(eq.Vars))
			for k := range dims {
				dims[k] = fmt.Sprintf("x%d", k+1)
			}
			sp := presburger.SetSpace(params, presburger.FlatTuple("", dims...))
			where := dnfTrue()
			if eq.Where != nil {
				tr := &translator{lookup: func(name string) (binding, bool) {
					for k, v := range eq.Vars {
						if v.Name == name {
							return binding{v: presburger.OutVar(k)}, true
						}
					}
					if spec.IsParam(name) {
						return binding{v: presburger.ParamVar(name)}, true
					}
					return binding{}, false
				}}
				var err error
				if where, err = tr.cond(eq.Where, false); err != nil {
					continue
				}
			}
			dom, err := lowerDNF(sp, where, nil)
			if err != nil {
				continue
			}
			out[t.Name.Name] = append(out[t.Name.Name], specCopy{from: u, dom: dom})
		}
	}
	return out
}

// copiedTensor returns U when eq is T(x1..xn) = U(x1..xn), U a computed
// tensor other than T read at the equation's variables in order, these
// distinct and none of them a parameter.
func copiedTensor(spec *sare.Spec, eq *sare.Equation) (string, bool) {
	call, ok := eq.RHS.(*syntax.Call)
	if !ok || eq.Reduce != nil || len(call.Args) != len(eq.Vars) || call.Fun.Name == eq.Tensor.Name {
		return "", false
	}
	if u := spec.Tensor(call.Fun.Name); u == nil || u.Input {
		return "", false
	}
	seen := map[string]bool{}
	for k, a := range call.Args {
		id, ok := a.(*syntax.Ident)
		if !ok || id.Name != eq.Vars[k].Name || seen[id.Name] || spec.IsParam(id.Name) {
			return "", false
		}
		seen[id.Name] = true
	}
	return call.Fun.Name, true
}

// holeAccess returns the tensor T when the template of c is T(□1..□n)
// with n the context's holes: the content is the tensor's element at
// the holes' values.
func holeAccess(c *Context) (string, bool) {
	call, ok := c.Expr.(*syntax.Call)
	if !ok || len(call.Args) != c.Holes || c.Holes == 0 {
		return "", false
	}
	for k, a := range call.Args {
		id, ok := a.(*syntax.Ident)
		if !ok {
			return "", false
		}
		if n, ok := holeIndex(id.Name); !ok || n != k+1 {
			return "", false
		}
	}
	return call.Fun.Name, true
}

// mergeCopies returns the heap components comps of one array with every
// component whose cells hold U(h) merged into one whose cells hold T(h),
// where a copy of the specification makes T(h) = U(h) for each hole value
// h the component holds under the parameter domain known. The content
// of each cell is unchanged: the specification gives it both forms.
func (ev *valueEval) mergeCopies(comps []*presburger.Map, known *presburger.Map) ([]*presburger.Map, error) {
	if len(ev.copies) == 0 || len(comps) < 2 {
		return comps, nil
	}
	tensors := make([]string, len(comps))
	for i, m := range comps {
		if c := ev.cs.Lookup(m.Space().Out.Name); c != nil {
			tensors[i], _ = holeAccess(c)
		}
	}
	merged := make([]bool, len(comps))
	for i, m := range comps {
		if tensors[i] == "" {
			continue
		}
		for j := range comps {
			if j == i || merged[j] || tensors[j] == "" || comps[j].Space().NumOut() != m.Space().NumOut() {
				continue
			}
			ok, err := ev.copyHolds(m, tensors[j], tensors[i], known)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			sp := comps[j].Space()
			sp.Params = m.Space().Params
			moved, err := m.Relabel(sp)
			if err != nil {
				return nil, err
			}
			if comps[j], err = comps[j].Union(moved); err != nil {
				return nil, err
			}
			merged[i] = true
			break
		}
	}
	var out []*presburger.Map
	for i, m := range comps {
		if !merged[i] {
			out = append(out, m)
		}
	}
	return out, nil
}

// copyHolds reports whether a copy t(x) = u(x) of the specification
// holds at every hole value of the component m under known.
func (ev *valueEval) copyHolds(m *presburger.Map, t, u string, known *presburger.Map) (bool, error) {
	vals, err := m.Range().IntersectParams(known)
	if err != nil {
		return false, err
	}
	for _, cp := range ev.copies[t] {
		if cp.from != u {
			continue
		}
		dom, err := respace(cp.dom, vals.Space())
		if err != nil {
			return false, err
		}
		sub, err := vals.IsSubset(ev.ctx, dom)
		if err != nil {
			return false, err
		}
		if sub {
			return true, nil
		}
	}
	return false, nil
}
