package presburger

import "fmt"

// Column accessors: where each kind of variable sits in a constraint row,
// as MLIR's IntegerRelation gives them (getVarKindOffset, getNumVarKind).
// A row over a space is [params | in | out | constant], a row of a
// BasicMap [params | in | out | locals | constant]; code outside the
// engine names a column with these accessors instead of adding counts.

// Offset returns the column of the first dimension of kind k in a row
// over s.
func (s Space) Offset(k DimKind) int {
	switch k {
	case DimParam:
		return 0
	case DimIn:
		return s.NumParams()
	}
	return s.NumParams() + s.NumIn()
}

// Dims returns the number of dimensions of kind k of s.
func (s Space) Dims(k DimKind) int {
	switch k {
	case DimParam:
		return s.NumParams()
	case DimIn:
		return s.NumIn()
	}
	return s.NumOut()
}

// Col returns the column of the i-th dimension of kind k in a row over s.
func (s Space) Col(k DimKind, i int) int { return s.Offset(k) + i }

// TupleDims returns the number of input and output dimensions together:
// the coordinates [in | out] of a point of s (MLIR's getNumDimVars).
func (s Space) TupleDims() int { return s.NumIn() + s.NumOut() }

// TupleCol returns the column of the i-th coordinate of a point [in | out]
// of s in a row over s: input dimensions first, then output dimensions.
func (s Space) TupleCol(i int) int { return s.Offset(DimIn) + i }

// ParamCol returns the column of the parameter called name, or -1 when s
// has no such parameter.
func (s Space) ParamCol(name string) int { return s.paramIndex(name) }

// ConstCol returns the column of the constant in a row over s without
// locals: the last one.
func (s Space) ConstCol() int { return s.NumDims() }

// NewRow returns a row of zeros over s without locals, ConstCol()+1 wide.
func (s Space) NewRow() []Int { return make([]Int, s.NumDims()+1) }

// Offset returns the column of the first dimension of kind k in b's rows.
func (b *BasicMap) Offset(k DimKind) int {
	switch k {
	case DimParam:
		return 0
	case DimIn:
		return b.nP
	}
	return b.nP + b.nI
}

// Dims returns the number of dimensions of kind k of b.
func (b *BasicMap) Dims(k DimKind) int {
	switch k {
	case DimParam:
		return b.nP
	case DimIn:
		return b.nI
	}
	return b.nO
}

// Col returns the column of the i-th dimension of kind k in b's rows.
func (b *BasicMap) Col(k DimKind, i int) int { return b.Offset(k) + i }

// TupleDims returns the number of input and output dimensions of b
// together: the coordinates [in | out] of a point.
func (b *BasicMap) TupleDims() int { return b.nI + b.nO }

// TupleCol returns the column of the i-th coordinate of a point [in | out]
// in b's rows.
func (b *BasicMap) TupleCol(i int) int { return b.nP + i }

// LocalOffset returns the column of b's first local variable, just after
// the dimensions.
func (b *BasicMap) LocalOffset() int { return b.nDims() }

// LocalCol returns the column of b's i-th local variable.
func (b *BasicMap) LocalCol(i int) int { return b.locCol(i) }

// ConstCol returns the column of the constant in b's rows: the last one.
func (b *BasicMap) ConstCol() int { return b.nVars() }

// NewRow returns a row of zeros as wide as b's rows (NumCols).
func (b *BasicMap) NewRow() []Int { return make([]Int, b.NumCols()) }

// Relabel returns m in the space sp, which must have as many parameters
// and as many dimensions in all (input and output together) as m's: every
// constraint is kept column for column, only the names change. It renames
// parameters or tuples, flattens a nested tuple into one, or splits a
// set's tuple into a relation's input and output.
func (m *Map) Relabel(sp Space) (*Map, error) {
	have := m.space
	if sp.NumParams() != have.NumParams() || sp.NumIn()+sp.NumOut() != have.NumIn()+have.NumOut() {
		return nil, fmt.Errorf("relabel %s as %s: different numbers of parameters or dimensions", have, sp)
	}
	return m.relabel(sp), nil
}
