package symeval

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/presburger"
)

// This file lowers the piecewise forms of affine.go to presburger objects:
// one BasicMap per conjunction, divisions as division locals.

// lowering builds the constraint rows of one BasicMap.
type lowering struct {
	b      *presburger.BasicMap
	sp     presburger.Space
	locals map[string]int // division key -> local index
}

func newLowering(sp presburger.Space) *lowering {
	return &lowering{b: presburger.NewBasicMap(sp), sp: sp, locals: map[string]int{}}
}

// column returns the column of a variable key, or -1 for a division.
func (lw *lowering) column(key string) (int, error) {
	switch {
	case strings.HasPrefix(key, "p:"):
		name := key[2:]
		if i := lw.sp.ParamCol(name); i >= 0 {
			return i, nil
		}
		return 0, fmt.Errorf("%s is not a parameter of %s", name, lw.sp)
	case strings.HasPrefix(key, "i:"), strings.HasPrefix(key, "o:"):
		k, err := strconv.Atoi(key[2:])
		if err != nil {
			return 0, fmt.Errorf("bad variable key %q", key)
		}
		if key[0] == 'i' {
			if k >= lw.sp.Dims(presburger.DimIn) {
				return 0, fmt.Errorf("input dimension %d out of range in %s", k, lw.sp)
			}
			return lw.sp.Col(presburger.DimIn, k), nil
		}
		if k >= lw.sp.Dims(presburger.DimOut) {
			return 0, fmt.Errorf("output dimension %d out of range in %s", k, lw.sp)
		}
		return lw.sp.Col(presburger.DimOut, k), nil
	}
	return -1, nil
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
		row, err := lw.row(d.num)
		if err != nil {
			return err
		}
		lw.locals[k] = lw.b.AddLocalDiv(row, d.den)
	}
	return nil
}

// row returns l as a row over the current columns; its divisions must be
// declared.
func (lw *lowering) row(l linear) ([]presburger.Int, error) {
	row := lw.b.NewRow()
	for k, v := range l.terms {
		col, err := lw.column(k)
		if err != nil {
			return nil, err
		}
		if col < 0 {
			li, ok := lw.locals[k]
			if !ok {
				return nil, fmt.Errorf("undeclared division %s", k)
			}
			col = lw.b.LocalCol(li)
		}
		row[col] = row[col].Add(v)
	}
	c := lw.b.ConstCol()
	row[c] = row[c].Add(l.c)
	return row, nil
}

// add adds an atom.
func (lw *lowering) add(a atom) error {
	if err := lw.declare(a.e); err != nil {
		return err
	}
	row, err := lw.row(a.e)
	if err != nil {
		return err
	}
	if a.eq {
		lw.b.AddEq(row)
	} else {
		lw.b.AddIneq(row)
	}
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
	return lw.b, nil
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
// key_k = e_k: the cartesian product of the expressions' pieces, each a
// conjunction of the pieces' conditions and the equalities.
func equalities(keys []string, es []pwExpr) (dnf, error) {
	out := dnfTrue()
	for k, e := range es {
		var alts dnf
		for _, p := range e {
			eq := conj{{e: p.e.add(varLinear(keys[k]), presburger.NewInt(-1)), eq: true}}
			c, err := p.cond.and(dnf{eq})
			if err != nil {
				return nil, err
			}
			alts = append(alts, c...)
		}
		var err error
		if out, err = out.and(alts); err != nil {
			return nil, err
		}
	}
	return out, nil
}
