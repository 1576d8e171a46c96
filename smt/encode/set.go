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
	if len(dims) != sp.TupleDims() {
		return nil, fmt.Errorf("encode: set %s has %d dimensions, given %d terms", sp, sp.TupleDims(), len(dims))
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

// basic encodes one conjunction. Each column of b's rows gets its term:
// a parameter the term param gives, a dimension its term in dims, a local
// a fresh constant.
func (e *Encoder) basic(b *presburger.BasicMap, param func(string) (*smt.Term, bool), dims []*smt.Term) (*smt.Term, error) {
	if b.KnownEmpty() {
		return e.fls, nil
	}
	cols := make([]*smt.Term, b.ConstCol())
	for i, name := range b.Space().Params {
		if param == nil {
			return nil, fmt.Errorf("no term for parameter %s", name)
		}
		t, ok := param(name)
		if !ok || t == nil {
			return nil, fmt.Errorf("no term for parameter %s", name)
		}
		cols[b.Col(presburger.DimParam, i)] = t
	}
	if b.TupleDims() != len(dims) {
		return nil, fmt.Errorf("a piece has %d dimensions, given %d terms", b.TupleDims(), len(dims))
	}
	for i, d := range dims {
		cols[b.TupleCol(i)] = d
	}
	var conj []*smt.Term
	for i := 0; i < b.NumLocals(); i++ {
		num, den := b.Local(i)
		if den.IsZero() {
			cols[b.LocalCol(i)] = e.z.FreshConst("exists", e.z.IntSort())
			continue
		}
		// num only uses the columns before this local.
		n := e.affine(num, cols)
		q := e.z.FreshConst("div", e.z.IntSort())
		dq := e.z.BigInt(den.Big()).Mul(q)
		conj = append(conj, dq.Le(n), n.Le(dq.Add(e.z.BigInt(den.Sub(presburger.NewInt(1)).Big()))))
		cols[b.LocalCol(i)] = q
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

// affine is row·[cols | 1]: row has one column more than cols, its
// constant. A column whose term is not set yet (a local after the
// division being defined) must have a zero coefficient.
func (e *Encoder) affine(row []presburger.Int, cols []*smt.Term) *smt.Term {
	if len(row) != len(cols)+1 {
		panic(fmt.Sprintf("affine row of %d columns over %d terms", len(row), len(cols)))
	}
	var terms []*smt.Term
	for i, a := range row[:len(cols)] {
		if a.IsZero() {
			continue
		}
		if cols[i] == nil {
			panic(fmt.Sprintf("affine row refers to column %d, not yet defined", i))
		}
		if a.IsOne() {
			terms = append(terms, cols[i])
		} else {
			terms = append(terms, e.z.BigInt(a.Big()).Mul(cols[i]))
		}
	}
	if k := row[len(cols)]; !k.IsZero() || len(terms) == 0 {
		terms = append(terms, e.z.BigInt(k.Big()))
	}
	if len(terms) == 1 {
		return terms[0]
	}
	return e.z.Add(terms...)
}
