package presburger

import (
	"context"
	"fmt"
)

// This file is the engine's builder of quasi-affine constraints, the one
// translation from quasi-affine expressions to constraint rows: the
// reader of isl notation (parse_builder.go) and every front end build
// through it.

// Cmp is a comparison of two quasi-affine expressions.
type Cmp int

// The comparisons, x Cmp y.
const (
	CmpLE Cmp = iota // x <= y
	CmpLT            // x < y
	CmpGE            // x >= y
	CmpGT            // x > y
	CmpEQ            // x = y
	CmpNE            // x != y
)

// Var refers to a variable of a space independently of its columns: a
// parameter by name, or an input or output dimension by position.
type Var struct {
	Kind DimKind
	Name string // of a parameter
	Pos  int    // of an input or output dimension
}

// ParamVar returns the parameter called name.
func ParamVar(name string) Var { return Var{Kind: DimParam, Name: name} }

// InVar returns the k-th input dimension.
func InVar(k int) Var { return Var{Kind: DimIn, Pos: k} }

// OutVar returns the k-th output dimension (of a set: its k-th dimension).
func OutVar(k int) Var { return Var{Kind: DimOut, Pos: k} }

// Builder builds one conjunction over a space from quasi-affine
// expressions (isl's aff over a local space): the values it returns
// (QuasiAff) are rows over the columns of that conjunction, every floor
// division adding a local floor(e / k) to it (Verdoolaege 2010,
// section 2.1). From those values it builds the conjunction itself
// (Constrain, BasicMap) or the set of points where comparisons hold
// (Chain), each pair of pieces of the compared values one conjunction.
//
// A builder made by NewBuilderContext counts its constructions against
// the budget of its context: a step per piece, division local and
// conjunction it builds, and a step per EntriesPerStep entries of their
// rows (BuildSteps), each counted before it is built. Once the budget
// is spent, the builder builds nothing more: its expressions are empty,
// Err and Chain return the error.
//
// The zero Builder is not usable; call NewBuilder or NewBuilderContext.
type Builder struct {
	ab *BasicMap
	// mt counts the constructions (NewBuilderContext); nil: uncounted.
	mt *meter
	// err is the first error of the count.
	err error
}

// QuasiAff is a piecewise quasi-affine expression built by a Builder: on
// the points satisfying a piece's conditions, its value is the piece's
// row. min and max split an expression into pieces; every other
// expression has one piece without conditions. A QuasiAff is only
// meaningful to the Builder that made it.
type QuasiAff struct {
	pieces []qpiece
}

// qpiece is one piece of a QuasiAff. Rows are over the columns of the
// builder's conjunction at the time they were built, and padded (zero
// locals inserted before the constant) when used.
type qpiece struct {
	conds []qcond
	aff   []Int
}

// qcond is row >= 0, or row = 0 when eq.
type qcond struct {
	row []Int
	eq  bool
}

// NewBuilder returns a builder of a conjunction over sp, which starts
// without constraints.
func NewBuilder(sp Space) *Builder { return &Builder{ab: NewBasicMap(sp)} }

// NewBuilderContext returns a builder of a conjunction over sp whose
// constructions count against the budget of ctx: the meter ctx shares
// (WithSharedBudget), or one of ctx's budget for the whole builder, and
// the allowance of ctx. A construction of sets from expressions that
// grow (a piece per pair of the operands' pieces at each min, max or
// sum, a division column per piece at each division) then stops at the
// budget, as the engine's operations do.
func NewBuilderContext(ctx context.Context, sp Space) *Builder {
	return &Builder{ab: NewBasicMap(sp), mt: newMeter(ctx)}
}

// Err returns the error that stopped the builder's count (a wrapped
// ErrBudget, ErrAllowance or the context's error), or nil.
func (b *Builder) Err() error { return b.err }

// charge counts the steps of building n pieces, locals or conjunctions
// of entries entries in all (BuildSteps), and reports whether the
// builder may build them: false once the count has failed.
func (b *Builder) charge(n, entries int) bool {
	if b.err != nil {
		return false
	}
	if b.mt == nil {
		return true
	}
	if err := b.mt.stepN(BuildSteps(n, entries)); err != nil {
		b.err = fmt.Errorf("building quasi-affine constraints: %w", err)
		return false
	}
	return true
}

// Space returns the space of the conjunction.
func (b *Builder) Space() Space { return b.ab.Space() }

// single returns the one-piece expression with row r.
func single(r []Int) QuasiAff { return QuasiAff{[]qpiece{{aff: r}}} }

// Const returns the constant v.
func (b *Builder) Const(v Int) QuasiAff {
	r := b.ab.NewRow()
	r[len(r)-1] = v
	return single(r)
}

// Dim returns the i-th variable of kind k (i < the number of variables of
// that kind).
func (b *Builder) Dim(k DimKind, i int) QuasiAff {
	r := b.ab.NewRow()
	r[b.ab.Col(k, i)] = NewInt(1)
	return single(r)
}

// Var returns the variable v, or an error if the space has no such
// variable.
func (b *Builder) Var(v Var) (QuasiAff, error) {
	sp := b.ab.space
	switch v.Kind {
	case DimParam:
		if i := sp.ParamCol(v.Name); i >= 0 {
			return b.Dim(DimParam, i), nil
		}
		return QuasiAff{}, fmt.Errorf("%s is not a parameter of %s", v.Name, sp)
	case DimIn:
		if v.Pos >= sp.NumIn() {
			return QuasiAff{}, fmt.Errorf("input dimension %d out of range in %s", v.Pos, sp)
		}
	default:
		if v.Pos >= sp.NumOut() {
			return QuasiAff{}, fmt.Errorf("output dimension %d out of range in %s", v.Pos, sp)
		}
	}
	return b.Dim(v.Kind, v.Pos), nil
}

// NumPieces returns the number of pieces of x: one without min or max,
// the product of its operands' pieces, doubled, for each min or max. The
// conjunctions of a comparison (Chain) are the products of the compared
// values' pieces.
func (x QuasiAff) NumPieces() int { return len(x.pieces) }

// Constant returns the value of x when it is an unconditional constant.
func (x QuasiAff) Constant() (Int, bool) {
	if len(x.pieces) != 1 || len(x.pieces[0].conds) != 0 {
		return Int{}, false
	}
	r := x.pieces[0].aff
	if !isZeroRow(r, len(r)-1) {
		return Int{}, false
	}
	return r[len(r)-1], true
}

// Add returns x + y.
func (b *Builder) Add(x, y QuasiAff) QuasiAff { return b.AddScaled(x, NewInt(1), y) }

// Sub returns x - y.
func (b *Builder) Sub(x, y QuasiAff) QuasiAff { return b.AddScaled(x, NewInt(-1), y) }

// AddScaled returns x + k * y: on every pair of pieces of x and y, the
// conjunction of their conditions.
func (b *Builder) AddScaled(x QuasiAff, k Int, y QuasiAff) QuasiAff {
	// a step per piece when the pieces multiply: the sum of two values
	// of one piece is one row, as a constant is, counted by its entries
	steps := 0
	if len(x.pieces)*len(y.pieces) > 1 {
		steps = 1
	}
	var out []qpiece
	for _, px := range x.pieces {
		for _, py := range y.pieces {
			n := b.ab.NumCols()
			if !b.charge(steps, (len(px.conds)+len(py.conds)+1)*n) {
				return QuasiAff{}
			}
			conds := append(append([]qcond(nil), px.conds...), py.conds...)
			out = append(out, qpiece{conds, addScaled(pad(px.aff, n), k, pad(py.aff, n))})
		}
	}
	return QuasiAff{out}
}

// Scale returns k * x.
func (b *Builder) Scale(x QuasiAff, k Int) QuasiAff {
	out := make([]qpiece, len(x.pieces))
	for i, p := range x.pieces {
		out[i] = qpiece{p.conds, scaleRow(p.aff, k)}
	}
	return QuasiAff{out}
}

// Neg returns -x.
func (b *Builder) Neg(x QuasiAff) QuasiAff {
	out := make([]qpiece, len(x.pieces))
	for i, p := range x.pieces {
		out[i] = qpiece{p.conds, negRow(p.aff)}
	}
	return QuasiAff{out}
}

// FloorDiv returns floor(x / k) for k > 0, adding one division local per
// piece of x (none when k is 1).
func (b *Builder) FloorDiv(x QuasiAff, k Int) QuasiAff {
	out := make([]qpiece, 0, len(x.pieces))
	for _, p := range x.pieces {
		if k.IsOne() {
			out = append(out, p)
			continue
		}
		// the new column is inserted in every row of the conjunction
		if !b.charge(1, b.ab.numEntries()+b.ab.NumCols()) {
			return QuasiAff{}
		}
		q := b.ab.AddLocalDiv(pad(p.aff, b.ab.NumCols()), k)
		r := b.ab.NewRow()
		r[b.ab.locCol(q)] = NewInt(1)
		out = append(out, qpiece{p.conds, r})
	}
	return QuasiAff{out}
}

// Mod returns the remainder of the floor division of x by k > 0,
// x - k * floor(x / k), in [0, k).
func (b *Builder) Mod(x QuasiAff, k Int) QuasiAff {
	return b.AddScaled(x, k.Neg(), b.FloorDiv(x, k))
}

// Min returns min(x, y): x where x <= y, y where y < x.
func (b *Builder) Min(x, y QuasiAff) QuasiAff { return b.minMax(x, y, true) }

// Max returns max(x, y): x where x >= y, y where y > x.
func (b *Builder) Max(x, y QuasiAff) QuasiAff { return b.minMax(x, y, false) }

// minMax returns min(x, y), or max(x, y) unless isMin, with two pieces
// per pair of pieces of x and y.
func (b *Builder) minMax(x, y QuasiAff, isMin bool) QuasiAff {
	var out []qpiece
	for _, px := range x.pieces {
		for _, py := range y.pieces {
			n := b.ab.NumCols()
			if !b.charge(2, 2*(len(px.conds)+len(py.conds)+2)*n) {
				return QuasiAff{}
			}
			u, v := pad(px.aff, n), pad(py.aff, n)
			d := addScaled(v, NewInt(-1), u) // v - u
			if !isMin {
				d = negRow(d) // u - v
			}
			strict := negRow(d)
			strict[n-1] = strict[n-1].Sub(NewInt(1))
			base := append(append([]qcond(nil), px.conds...), py.conds...)
			out = append(out,
				qpiece{append(append([]qcond(nil), base...), qcond{d, false}), u},
				qpiece{append(append([]qcond(nil), base...), qcond{strict, false}), v})
		}
	}
	return QuasiAff{out}
}

// Constrain adds x >= 0 (x = 0 when eq) to the conjunction; x must be an
// expression of one piece without conditions (no min or max).
func (b *Builder) Constrain(x QuasiAff, eq bool) {
	if len(x.pieces) != 1 || len(x.pieces[0].conds) != 0 {
		panic("presburger: Constrain with a piecewise expression")
	}
	row := pad(x.pieces[0].aff, b.ab.NumCols())
	if eq {
		b.ab.AddEq(row)
	} else {
		b.ab.AddIneq(row)
	}
}

// BasicMap returns the conjunction built so far: its locals are the
// divisions of the expressions built, its constraints those of
// Constrain. The builder must not be used afterwards.
func (b *Builder) BasicMap() *BasicMap { return b.ab }

// Chain returns the set of points of the builder's space where every
// comparison of operands[k] ops[k] operands[k+1] holds, for every
// element of the list operands[k] and every element of operands[k+1]
// (isl's lists: a, b <= c is a <= c and b <= c). Each comparison of two
// elements is the union, over every pair of their pieces, of one
// conjunction: the builder's divisions and constraints, the pieces'
// conditions and the comparison of their rows; the comparisons are
// intersected in order. len(operands) must be len(ops) + 1.
func (b *Builder) Chain(operands [][]QuasiAff, ops []Cmp) (*Map, error) {
	if len(operands) != len(ops)+1 {
		return nil, fmt.Errorf("presburger: a chain of %d comparisons with %d operands", len(ops), len(operands))
	}
	if b.err != nil {
		return nil, b.err
	}
	sp := b.ab.space
	result, first := Universe(sp), true
	for k, op := range ops {
		for _, x := range operands[k] {
			for _, y := range operands[k+1] {
				bs, err := b.compare(x, op, y)
				if err != nil {
					return nil, err
				}
				m := NewMap(sp, bs...)
				// a conjunction per pair of their pieces; the first
				// intersection, with the universe, copies the
				// conjunctions compare counted
				if !first && !b.charge(result.NumBasics()*m.NumBasics(), result.NumEntries()*m.NumBasics()+m.NumEntries()*result.NumBasics()) {
					return nil, b.err
				}
				first = false
				if result, err = result.Intersect(m); err != nil {
					return nil, err
				}
			}
		}
	}
	return result, nil
}

// compare returns the conjunctions of x op y, one per pair of pieces of x
// and y (two for !=), normalised; those found empty are dropped.
func (b *Builder) compare(x QuasiAff, op Cmp, y QuasiAff) ([]*BasicMap, error) {
	w := b.ab.NumCols()
	one := NewInt(1)
	var bs []*BasicMap
	nc := 1 // conjunctions per pair of pieces
	if op == CmpNE {
		nc = 2
	}
	for _, px := range x.pieces {
		for _, py := range y.pieces {
			// the copies of the conjunction with the pieces' conditions
			if !b.charge(nc, nc*(b.ab.numEntries()+(len(px.conds)+len(py.conds)+1)*w)) {
				return nil, b.err
			}
			base := b.ab.Copy()
			for _, c := range append(append([]qcond(nil), px.conds...), py.conds...) {
				if c.eq {
					base.eqs = append(base.eqs, pad(c.row, w))
				} else {
					base.ineqs = append(base.ineqs, pad(c.row, w))
				}
			}
			d := addScaled(pad(py.aff, w), NewInt(-1), pad(px.aff, w)) // y - x
			add := func(row []Int, eq bool) {
				c := base.Copy()
				if eq {
					c.eqs = append(c.eqs, row)
				} else {
					c.ineqs = append(c.ineqs, row)
				}
				if c.normalize() {
					bs = append(bs, c)
				}
			}
			minusOne := func(row []Int) []Int {
				row[w-1] = row[w-1].Sub(one)
				return row
			}
			switch op {
			case CmpLE:
				add(d, false)
			case CmpLT:
				add(minusOne(copyRow(d)), false)
			case CmpGE:
				add(negRow(d), false)
			case CmpGT:
				add(minusOne(negRow(d)), false)
			case CmpEQ:
				add(d, true)
			case CmpNE:
				add(minusOne(copyRow(d)), false)
				add(minusOne(negRow(d)), false)
			default:
				return nil, fmt.Errorf("presburger: unknown comparison %d", op)
			}
		}
	}
	return bs, nil
}

// pad extends row (whose last entry is the constant) to width w: the
// columns of locals added since it was built are zero.
func pad(row []Int, w int) []Int {
	if len(row) == w {
		return row
	}
	out := make([]Int, w)
	copy(out, row[:len(row)-1])
	out[w-1] = row[len(row)-1]
	return out
}
