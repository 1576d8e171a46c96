package symeval

import (
	"fmt"
	"sort"

	"github.com/augur-verify/augur/presburger"
)

// This file lowers the piecewise forms of affine.go to presburger objects
// through the engine's builder of quasi-affine constraints
// (presburger.Builder): one BasicMap per conjunction, divisions as
// division locals.

// lowering builds one conjunction.
type lowering struct {
	b      *presburger.Builder
	locals map[string]presburger.QuasiAff // division key -> its local
}

func newLowering(sp presburger.Space) *lowering {
	return &lowering{b: presburger.NewBuilder(sp), locals: map[string]presburger.QuasiAff{}}
}

// declare adds the divisions of l (inner ones first) as locals.
func (lw *lowering) declare(l linear) error {
	keys := make([]string, 0, len(l.divs))
	for k := range l.divs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		d := l.divs[k]
		if _, ok := lw.locals[k]; ok {
			continue
		}
		if err := lw.declare(d.num); err != nil {
			return err
		}
		num, err := lw.value(d.num)
		if err != nil {
			return err
		}
		lw.locals[k] = lw.b.FloorDiv(num, d.den)
	}
	return nil
}

// value returns l as an expression of the builder; its divisions must be
// declared.
func (lw *lowering) value(l linear) (presburger.QuasiAff, error) {
	out := lw.b.Const(l.c)
	for t, v := range l.terms {
		x, ok := lw.locals[t.div]
		if t.div == "" {
			var err error
			if x, err = lw.b.Var(t.v); err != nil {
				return presburger.QuasiAff{}, err
			}
		} else if !ok {
			return presburger.QuasiAff{}, fmt.Errorf("undeclared division %s", t.div)
		}
		out = lw.b.AddScaled(out, v, x)
	}
	return out, nil
}

// add adds an atom.
func (lw *lowering) add(a atom) error {
	if err := lw.declare(a.e); err != nil {
		return err
	}
	x, err := lw.value(a.e)
	if err != nil {
		return err
	}
	lw.b.Constrain(x, a.eq)
	return nil
}

// lowerConj returns the conjunction of atoms as a BasicMap of sp.
func lowerConj(sp presburger.Space, atoms ...conj) (*presburger.BasicMap, error) {
	lw := newLowering(sp)
	for _, c := range atoms {
		for _, a := range c {
			if err := lw.add(a); err != nil {
				return nil, err
			}
		}
	}
	return lw.b.BasicMap(), nil
}

// lowerDNF returns the set of points of sp satisfying d (with the extra
// conjunction extra in every piece).
func lowerDNF(sp presburger.Space, d dnf, extra conj) (*presburger.Map, error) {
	var basics []*presburger.BasicMap
	for _, c := range d {
		b, err := lowerConj(sp, c, extra)
		if err != nil {
			return nil, err
		}
		basics = append(basics, b)
	}
	return presburger.NewMap(sp, basics...), nil
}

// equalities returns the pieces of the simultaneous equalities
// vars_k = e_k: the cartesian product of the expressions' pieces, each a
// conjunction of the pieces' conditions and the equalities. Its work is
// charged to no meter (work.equalities charges it).
func equalities(vars []presburger.Var, es []pwExpr) (dnf, error) {
	return (*work)(nil).equalities(vars, es)
}

// equalities is the function equalities, its work charged to w.
func (w *work) equalities(vars []presburger.Var, es []pwExpr) (dnf, error) {
	out := dnfTrue()
	for k, e := range es {
		var alts dnf
		for _, p := range e {
			eq := conj{{e: p.e.add(varLinear(vars[k]), presburger.NewInt(-1)), eq: true}}
			c, err := p.cond.and(w, dnf{eq})
			if err != nil {
				return nil, err
			}
			alts = append(alts, c...)
		}
		var err error
		if out, err = out.and(w, alts); err != nil {
			return nil, err
		}
	}
	return out, nil
}
