package symeval

import (
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// This file lets the specification's analysis (spec.go) and the
// annotations' checks reason about tensor accesses at data-dependent
// indices (Clément 2022, section 9.6.1), such as L(clamp(A(x), 0, 255)):
// the access is taken to read every element that the index's range
// (valueRange) reaches, an over-approximation. A point is defined only if
// every such element is (restrictOver), so the defined sets stay sound;
// but a point removed that way may be defined after all, so a tensor that
// lost points through such an access has no defined set (approx), and an
// annotation that may read an element outside a defined set through one
// is undecided, never failed.

// accessDNF returns the constraints relating the output dimensions of an
// access relation to the indices of the tensor access c: the value of
// each index expression (translated by tr), or the range of each
// data-dependent index's values (types holds their types; any integer
// when the range is unknown), and whether some index was data-dependent.
func accessDNF(c *syntax.Call, tr *translator, types map[syntax.Expr]syntax.Type) (dnf, bool, error) {
	var vs []presburger.Var
	var pws []pwExpr
	var ranges conj
	over := false
	one := presburger.NewInt(1)
	for k, x := range c.Args {
		v := presburger.OutVar(k)
		if _, data := types[x]; data {
			over = true
			if lo, hi, ok := valueRange(x, types); ok {
				ranges = append(ranges,
					atom{e: varLinear(v).add(constLinear(lo), one.Neg())},
					atom{e: constLinear(hi).add(varLinear(v), one.Neg())})
			}
			continue
		}
		pw, err := tr.index(x)
		if err != nil {
			return nil, false, err
		}
		vs, pws = append(vs, v), append(pws, pw)
	}
	d := dnfTrue()
	if len(vs) > 0 {
		var err error
		if d, err = tr.w.equalities(vs, pws); err != nil {
			return nil, false, err
		}
	}
	if len(ranges) > 0 {
		var err error
		if d, err = d.and(tr.w, dnf{ranges}); err != nil {
			return nil, false, err
		}
	}
	return d, over, nil
}

// accessDNF is accessDNF over the specification's types.
func (an *specAnalyzer) accessDNF(c *syntax.Call, tr *translator) (dnf, bool, error) {
	return accessDNF(c, tr, an.info.Types)
}

// restrictOver returns the points of d whose access r, at a
// data-dependent index, reaches only defined elements: d without the
// preimage of the undefined elements.
func (an *specAnalyzer) restrictOver(d *presburger.Map, r specRead) (*presburger.Map, error) {
	def := an.tensors[r.tensor].def
	undef, err := presburger.Universe(def.Space()).Subtract(an.ctx, def)
	if err != nil {
		return nil, err
	}
	bad, err := undef.Preimage(r.acc)
	if err != nil {
		return nil, err
	}
	return d.Subtract(an.ctx, bad)
}

// markApprox marks the tensors that lost points through an access at a
// data-dependent index, or through an access to a tensor so marked: their
// defined sets may lack defined points.
func (an *specAnalyzer) markApprox() error {
	for changed := true; changed; {
		changed = false
		for _, name := range an.order {
			st := an.tensors[name]
			if st.failed || st.approx {
				continue
			}
			for _, se := range st.eqs {
				if !an.mayLack(se) || se.start == nil || se.def == nil {
					continue
				}
				gone, err := se.start.Subtract(an.ctx, se.def)
				empty := false
				if err == nil {
					empty, err = gone.IsEmpty(an.ctx)
				}
				if err != nil && !isBudget(err) {
					return err
				}
				if !empty {
					st.approx, changed = true, true
					break
				}
			}
		}
	}
	return nil
}

// mayLack reports whether the defined set of se may lack defined points:
// it reads at a data-dependent index, or reads a tensor marked approx.
func (an *specAnalyzer) mayLack(se *specEq) bool {
	for _, r := range se.reads {
		if r.over || an.tensors[r.tensor].approx {
			return true
		}
	}
	return false
}
