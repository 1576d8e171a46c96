package encode

import (
	"errors"
	"fmt"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/smt"
)

// Set encodes membership of a point in the Presburger set or relation m:
// the disjunction, over m's basic maps, of their constraints with the
// parameters given by param(name) and the dimensions [in | out] bound to
// dims (len(dims) must be NumIn+NumOut).
//
// Division locals q = floor(num/den) become fresh Int constants constrained
// by den·q ≤ num ≤ den·q + den - 1, and existential variables fresh Int
// constants. The formula therefore means "the point is in m" only when
// asserted positively (at the top level, or under conjunctions and
// disjunctions that are themselves asserted). NEVER negate it, nor use it
// as an ite condition or under an implication's premise: its fresh constants
// would then be read universally, and "the point is not in m" would not be
// what Z3 checks, an unsound encoding.
func (e *Encoder) Set(m *presburger.Map, param func(name string) (*smt.Term, bool), dims []*smt.Term) (t *smt.Term, err error) {
	defer guard(&err, "set")
	if m == nil {
		return nil, errors.New("encode: nil set")
	}
	sp := m.Space()
	if len(dims) != sp.NumIn()+sp.NumOut() {
		return nil, fmt.Errorf("encode: set %s has %d dimensions, given %d terms", sp, sp.NumIn()+sp.NumOut(), len(dims))
	}
	var pieces []*smt.Term
	for _, b := range m.Basics() {
		p, err := e.basic(b, param, dims)
		if err != nil {
			return nil, fmt.Errorf("encode: set %s: %w", m, err)
		}
		pieces = append(pieces, p)
	}
	r := e.z.Or(pieces...)
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("encode: set %s: %w", m, err)
	}
	return r, nil
}

// basic encodes one conjunction.
func (e *Encoder) basic(b *presburger.BasicMap, param func(string) (*smt.Term, bool), dims []*smt.Term) (*smt.Term, error) {
	if b.KnownEmpty() {
		return e.fls, nil
	}
	var cols []*smt.Term
	for _, name := range b.Space().Params {
		if param == nil {
			return nil, fmt.Errorf("no term for parameter %s", name)
		}
		t, ok := param(name)
		if !ok || t == nil {
			return nil, fmt.Errorf("no term for parameter %s", name)
		}
		cols = append(cols, t)
	}
	if b.NumIn()+b.NumOut() != len(dims) {
		return nil, fmt.Errorf("a piece has %d dimensions, given %d terms", b.NumIn()+b.NumOut(), len(dims))
	}
	cols = append(cols, dims...)
	var conj []*smt.Term
	for i := 0; i < b.NumLocals(); i++ {
		num, den := b.Local(i)
		if den.IsZero() {
			cols = append(cols, e.z.FreshConst("exists", e.z.IntSort()))
			continue
		}
		// num only uses the columns before this local.
		n := e.affine(num, cols)
		q := e.z.FreshConst("div", e.z.IntSort())
		dq := e.z.BigInt(den.Big()).Mul(q)
		conj = append(conj, dq.Le(n), n.Le(dq.Add(e.z.BigInt(den.Sub(presburger.NewInt(1)).Big()))))
		cols = append(cols, q)
	}
	zero := e.z.Int(0)
	for _, row := range b.Eqs() {
		conj = append(conj, e.affine(row, cols).Eq(zero))
	}
	for _, row := range b.Ineqs() {
		conj = append(conj, e.affine(row, cols).Ge(zero))
	}
	return e.z.And(conj...), nil
}

// affine is row·[cols | 1]; the row may be longer than cols+1 only with
// zeros (a division's numerator over later locals).
func (e *Encoder) affine(row []presburger.Int, cols []*smt.Term) *smt.Term {
	var terms []*smt.Term
	last := len(row) - 1
	for i, a := range row[:last] {
		if a.IsZero() {
			continue
		}
		if i >= len(cols) {
			panic(fmt.Sprintf("affine row refers to column %d of %d", i, len(cols)))
		}
		if a.IsOne() {
			terms = append(terms, cols[i])
		} else {
			terms = append(terms, e.z.BigInt(a.Big()).Mul(cols[i]))
		}
	}
	if k := row[last]; !k.IsZero() || len(terms) == 0 {
		terms = append(terms, e.z.BigInt(k.Big()))
	}
	if len(terms) == 1 {
		return terms[0]
	}
	return e.z.Add(terms...)
}
