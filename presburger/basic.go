package presburger

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
)

// Div describes a local variable of a BasicMap. If Den is nonzero the local
// is the integer division floor(Num · x / Den), where Num is a row over the
// columns [params | in | out | locals | constant] that only uses columns
// before the local itself; its two defining inequalities
//
//	Num·x - Den·q >= 0   and   Den·q - Num·x + Den - 1 >= 0
//
// are implicit (not listed in Ineqs). If Den is zero the local is a plain
// existentially quantified variable constrained only by the rows.
type Div struct {
	Num []Int
	Den Int
}

// BasicMap is a conjunction of affine equalities (row·x = 0) and
// inequalities (row·x >= 0) with exact integer coefficients over the columns
// [params | in dims | out dims | locals | constant]. The relation it denotes
// is { in -> out : exists locals : constraints }, for every value of the
// parameters; a set is a BasicMap in a set space (NumIn() = 0).
//
// A BasicMap is mutable through its Add methods; every other operation
// returns a new object and leaves its operands unchanged.
type BasicMap struct {
	space      Space
	nP, nI, nO int
	divs       []Div
	eqs        [][]Int
	ineqs      [][]Int
	empty      bool // known to be empty (a contradiction was found)
}

// NewBasicMap returns the universe relation (no constraints) of space.
func NewBasicMap(space Space) *BasicMap {
	return &BasicMap{space: space.Copy(), nP: space.NumParams(), nI: space.NumIn(), nO: space.NumOut()}
}

// EmptyBasicMap returns a basic map of space without any point.
func EmptyBasicMap(space Space) *BasicMap {
	b := NewBasicMap(space)
	b.setEmpty()
	return b
}

// Space returns the space of b.
func (b *BasicMap) Space() Space { return b.space.Copy() }

// NumParams returns the number of parameters.
func (b *BasicMap) NumParams() int { return b.nP }

// NumIn returns the number of input dimensions (0 for a set).
func (b *BasicMap) NumIn() int { return b.nI }

// NumOut returns the number of output dimensions (set dimensions for a set).
func (b *BasicMap) NumOut() int { return b.nO }

// NumLocals returns the number of local variables (divisions and existentials).
func (b *BasicMap) NumLocals() int { return len(b.divs) }

// NumCols returns the width of a constraint row: params + in + out + locals + 1.
func (b *BasicMap) NumCols() int { return b.nP + b.nI + b.nO + len(b.divs) + 1 }

func (b *BasicMap) nDims() int       { return b.nP + b.nI + b.nO }
func (b *BasicMap) nVars() int       { return b.nDims() + len(b.divs) }
func (b *BasicMap) locCol(i int) int { return b.nDims() + i }

// NumConstraints returns the number of b's equality and inequality rows.
func (b *BasicMap) NumConstraints() int { return len(b.eqs) + len(b.ineqs) }

// numEntries returns the entries of b's rows: its constraints and its
// divisions' numerators, each of NumCols() columns.
func (b *BasicMap) numEntries() int {
	return (len(b.eqs) + len(b.ineqs) + len(b.divs)) * b.NumCols()
}

// Eqs returns copies of the equality rows (row·x = 0).
func (b *BasicMap) Eqs() [][]Int { return copyRows(b.eqs) }

// Ineqs returns copies of the inequality rows (row·x >= 0), not including the
// implicit defining inequalities of division locals (see AllIneqs).
func (b *BasicMap) Ineqs() [][]Int { return copyRows(b.ineqs) }

// AllIneqs returns the inequality rows together with the two defining
// inequalities of every division local.
func (b *BasicMap) AllIneqs() [][]Int {
	out := copyRows(b.ineqs)
	for i, d := range b.divs {
		if !d.Den.IsZero() {
			lo, hi := b.divRows(i)
			out = append(out, lo, hi)
		}
	}
	return out
}

// allIneqsRef is AllIneqs without copying the explicit rows (read only).
func (b *BasicMap) allIneqsRef() [][]Int {
	out := make([][]Int, 0, len(b.ineqs)+2*len(b.divs))
	out = append(out, b.ineqs...)
	for i, d := range b.divs {
		if !d.Den.IsZero() {
			lo, hi := b.divRows(i)
			out = append(out, lo, hi)
		}
	}
	return out
}

// Local returns the definition of local i: for a division floor(num/den),
// its numerator row (over all columns, zero on the local itself and later
// locals) and den > 0; for a plain existential, a nil row and den = 0.
func (b *BasicMap) Local(i int) (num []Int, den Int) {
	d := b.divs[i]
	if d.Den.IsZero() {
		return nil, Int{}
	}
	return copyRow(d.Num), d.Den
}

// IsDiv reports whether local i is a division with an explicit definition.
func (b *BasicMap) IsDiv(i int) bool { return !b.divs[i].Den.IsZero() }

// KnownEmpty reports whether a contradiction has already been detected in b
// (a cheap, incomplete test; use IsEmpty for the exact answer).
func (b *BasicMap) KnownEmpty() bool { return b.empty }

// copyRows returns copies of the rows rs, in one allocation (each row's
// capacity is its length, so appending to one never touches the next).
func copyRows(rs [][]Int) [][]Int {
	out := make([][]Int, len(rs))
	n := 0
	for _, r := range rs {
		n += len(r)
	}
	flat := make([]Int, n)
	for i, r := range rs {
		if len(r) == 0 {
			continue
		}
		k := copy(flat, r)
		out[i] = flat[:k:k]
		flat = flat[k:]
	}
	return out
}

// Copy returns a deep copy of b's rows and divisions. The space is shared:
// inside the package a Space is never changed in place (a changed space is
// a new value with new slices), and outside it is only seen through
// Space(), which copies.
func (b *BasicMap) Copy() *BasicMap {
	c := &BasicMap{space: b.space, nP: b.nP, nI: b.nI, nO: b.nO, empty: b.empty}
	c.divs = make([]Div, len(b.divs))
	for i, d := range b.divs {
		c.divs[i] = Div{Num: copyRow(d.Num), Den: d.Den}
	}
	c.eqs = copyRows(b.eqs)
	c.ineqs = copyRows(b.ineqs)
	return c
}

// share returns a new BasicMap with b's rows and divisions, shared, not
// copied: every operation of the package leaves the rows of its operands
// as they are (Map.Pieces shares whole conjunctions), and the slices are
// clipped, so that an Add method on either appends to a slice of its own.
// Only the fields of the struct (its space, set by Map.withBasics) are
// the new object's own.
func (b *BasicMap) share() *BasicMap {
	c := *b
	c.divs = slices.Clip(b.divs)
	c.eqs = slices.Clip(b.eqs)
	c.ineqs = slices.Clip(b.ineqs)
	return &c
}

func (b *BasicMap) checkRow(row []Int) {
	if len(row) != b.NumCols() {
		panic(fmt.Sprintf("presburger: row has %d columns, want %d", len(row), b.NumCols()))
	}
}

// AddEq adds the equality row·x = 0; row has NumCols() entries. It panics if
// the width is wrong (a programming error).
func (b *BasicMap) AddEq(row []Int) {
	b.checkRow(row)
	b.eqs = append(b.eqs, copyRow(row))
}

// AddIneq adds the inequality row·x >= 0; row has NumCols() entries.
func (b *BasicMap) AddIneq(row []Int) {
	b.checkRow(row)
	b.ineqs = append(b.ineqs, copyRow(row))
}

// AddLocalDiv adds the local q = floor(num·x / den) and returns its index.
// num has NumCols() entries as they are before the call (so it can only
// refer to existing columns); den must be positive. Existing rows get a
// zero column for the new local.
func (b *BasicMap) AddLocalDiv(num []Int, den Int) int {
	b.checkRow(num)
	if den.Sign() <= 0 {
		panic("presburger: AddLocalDiv with non-positive denominator")
	}
	n := copyRow(num)
	for i, d := range b.divs {
		if d.Den.IsZero() && !n[b.locCol(i)].IsZero() {
			panic("presburger: division refers to a plain existential")
		}
	}
	idx := b.addLocal()
	n = insertCol(n, b.locCol(idx))
	b.divs[idx] = Div{Num: n, Den: den}
	return idx
}

// AddExistential adds a plain existentially quantified local and returns
// its index.
func (b *BasicMap) AddExistential() int {
	return b.addLocal()
}

// addLocal appends a zero column for a new local (before the constant).
func (b *BasicMap) addLocal() int {
	pos := b.NumCols() - 1
	b.insertColumns(pos, 1)
	b.divs = append(b.divs, Div{})
	return len(b.divs) - 1
}

func insertCol(r []Int, pos int) []Int {
	out := make([]Int, len(r)+1)
	copy(out, r[:pos])
	copy(out[pos+1:], r[pos:])
	return out
}

func insertCols(r []Int, pos, n int) []Int {
	out := make([]Int, len(r)+n)
	copy(out, r[:pos])
	copy(out[pos+n:], r[pos:])
	return out
}

// insertColumns inserts n zero columns at position pos of every row and
// division numerator. The caller updates the dimension counts.
func (b *BasicMap) insertColumns(pos, n int) {
	for i := range b.eqs {
		b.eqs[i] = insertCols(b.eqs[i], pos, n)
	}
	for i := range b.ineqs {
		b.ineqs[i] = insertCols(b.ineqs[i], pos, n)
	}
	for i := range b.divs {
		if b.divs[i].Num != nil {
			b.divs[i].Num = insertCols(b.divs[i].Num, pos, n)
		}
	}
}

// removeColumn deletes column pos (which must be zero in every row and
// numerator, or the caller must accept dropping it).
// The new rows are cut from one allocation (as copyRows does): a
// projection removes local after local, each time from every row.
func (b *BasicMap) removeColumn(pos int) {
	n := 0
	for _, r := range b.eqs {
		n += len(r) - 1
	}
	for _, r := range b.ineqs {
		n += len(r) - 1
	}
	for _, d := range b.divs {
		if d.Num != nil {
			n += len(d.Num) - 1
		}
	}
	flat := make([]Int, max(n, 0))
	cut := func(r []Int) []Int {
		k := len(r) - 1
		out := flat[:k:k]
		flat = flat[k:]
		copy(out, r[:pos])
		copy(out[pos:], r[pos+1:])
		return out
	}
	for i := range b.eqs {
		b.eqs[i] = cut(b.eqs[i])
	}
	for i := range b.ineqs {
		b.ineqs[i] = cut(b.ineqs[i])
	}
	for i := range b.divs {
		if b.divs[i].Num != nil {
			b.divs[i].Num = cut(b.divs[i].Num)
		}
	}
}

// removeLocal deletes local i; the caller guarantees it no longer occurs.
func (b *BasicMap) removeLocal(i int) {
	b.removeColumn(b.locCol(i))
	b.divs = append(b.divs[:i], b.divs[i+1:]...)
}

// divRows returns the two defining inequalities of division local i.
func (b *BasicMap) divRows(i int) (lo, hi []Int) {
	d := b.divs[i]
	c := b.locCol(i)
	lo = copyRow(d.Num)
	lo[c] = lo[c].Sub(d.Den) // num - den*q >= 0
	hi = negRow(lo)          // den*q - num + den - 1 >= 0
	k := len(hi) - 1
	hi[k] = hi[k].Add(d.Den).Sub(NewInt(1))
	return lo, hi
}

func (b *BasicMap) setEmpty() {
	b.empty = true
	w := b.NumCols()
	row := make([]Int, w)
	row[w-1] = NewInt(-1)
	b.eqs = nil
	b.ineqs = [][]Int{row}
}

// Intersect returns the conjunction of b and o, which must live in the same
// space (equal tuples and parameter lists; Map.Intersect aligns parameters).
// The result's locals are b's followed by o's.
//
// It builds the rows of the result at their final width, in one
// allocation: they are those of b.Copy() followed by conjoin(o), which
// copied b's rows twice when o has locals (once, then again to insert
// o's local columns) and o's rows one by one.
func (b *BasicMap) Intersect(o *BasicMap) *BasicMap {
	if b.nDims() != o.nDims() {
		panic("presburger: intersecting basic maps of different spaces")
	}
	nd, nb, no := b.nDims(), len(b.divs), len(o.divs)
	w := nd + nb + no + 1
	r := &BasicMap{space: b.space, nP: b.nP, nI: b.nI, nO: b.nO, empty: b.empty || o.empty}
	slab := newRowSlab(len(b.eqs)+len(o.eqs)+len(b.ineqs)+len(o.ineqs)+definedDivs(b.divs)+definedDivs(o.divs), w)
	next := slab.next
	// b's columns keep their places, o's locals come after b's.
	fromB := func(row []Int) []Int {
		out := next()
		copy(out, row[:nd+nb])
		out[w-1] = row[len(row)-1]
		return out
	}
	fromO := func(row []Int) []Int {
		out := next()
		copy(out, row[:nd])
		copy(out[nd+nb:], row[nd:nd+no])
		out[w-1] = row[len(row)-1]
		return out
	}
	r.divs = make([]Div, nb+no)
	for i, d := range b.divs {
		r.divs[i].Den = d.Den
		if d.Num != nil {
			r.divs[i].Num = fromB(d.Num)
		}
	}
	for i, d := range o.divs {
		if d.Num != nil {
			r.divs[nb+i] = Div{Num: fromO(d.Num), Den: d.Den}
		}
	}
	r.eqs = make([][]Int, 0, len(b.eqs)+len(o.eqs))
	for _, row := range b.eqs {
		r.eqs = append(r.eqs, fromB(row))
	}
	for _, row := range o.eqs {
		r.eqs = append(r.eqs, fromO(row))
	}
	r.ineqs = make([][]Int, 0, len(b.ineqs)+len(o.ineqs))
	for _, row := range b.ineqs {
		r.ineqs = append(r.ineqs, fromB(row))
	}
	for _, row := range o.ineqs {
		r.ineqs = append(r.ineqs, fromO(row))
	}
	return r
}

// conjoin adds o's locals and constraints to b (same dims required).
func (b *BasicMap) conjoin(o *BasicMap) {
	if b.nDims() != o.nDims() {
		panic("presburger: intersecting basic maps of different spaces")
	}
	base := len(b.divs)
	nd := b.nDims()
	if len(o.divs) > 0 {
		// One pass over b's rows for all of o's locals.
		b.insertColumns(b.NumCols()-1, len(o.divs))
		b.divs = append(b.divs, make([]Div, len(o.divs))...)
	}
	w := b.NumCols()
	mapRow := func(r []Int) []Int {
		out := make([]Int, w)
		copy(out, r[:nd])
		for i := 0; i < len(o.divs); i++ {
			out[nd+base+i] = r[nd+i]
		}
		out[w-1] = r[len(r)-1]
		return out
	}
	for i, d := range o.divs {
		if d.Num != nil {
			b.divs[base+i] = Div{Num: mapRow(d.Num), Den: d.Den}
		} else {
			b.divs[base+i] = Div{}
		}
	}
	for _, r := range o.eqs {
		b.eqs = append(b.eqs, mapRow(r))
	}
	for _, r := range o.ineqs {
		b.ineqs = append(b.ineqs, mapRow(r))
	}
	b.empty = b.empty || o.empty
}

// remap returns a basic map in space sp whose dimension columns are obtained
// from b's via perm: perm[i] is the new dimension column of b's dimension
// column i (params, in, out). New dimension columns not hit are
// unconstrained. Locals keep their order after the new dimensions.
func (b *BasicMap) remap(sp Space, perm []int) *BasicMap {
	r := NewBasicMap(sp)
	nd := r.nDims()
	w := nd + len(b.divs) + 1
	old := b.nDims()
	mapRow := func(row []Int) []Int {
		if row == nil {
			return nil
		}
		out := make([]Int, w)
		for i := 0; i < old; i++ {
			if !row[i].IsZero() {
				out[perm[i]] = out[perm[i]].Add(row[i])
			}
		}
		for i := range b.divs {
			out[nd+i] = row[old+i]
		}
		out[w-1] = row[len(row)-1]
		return out
	}
	r.divs = make([]Div, len(b.divs))
	for i, d := range b.divs {
		r.divs[i] = Div{Num: mapRow(d.Num), Den: d.Den}
	}
	for _, e := range b.eqs {
		r.eqs = append(r.eqs, mapRow(e))
	}
	for _, e := range b.ineqs {
		r.ineqs = append(r.ineqs, mapRow(e))
	}
	r.empty = b.empty
	return r
}

// alignParams returns b with its parameters re-ordered and extended to
// params, which must contain all of b's parameters.
func (b *BasicMap) alignParams(params []string) *BasicMap {
	if sameStrings(params, b.space.Params) {
		return b
	}
	sp := b.space.Copy()
	sp.Params = append([]string(nil), params...)
	perm := make([]int, b.nDims())
	for i, p := range b.space.Params {
		j := sp.paramIndex(p)
		if j < 0 {
			panic("presburger: alignParams: missing parameter " + p)
		}
		perm[i] = j
	}
	for i := b.nP; i < b.nDims(); i++ {
		perm[i] = i - b.nP + len(params)
	}
	return b.remap(sp, perm)
}

// withSpace returns b re-labelled with space sp, which must have the same
// numbers of params and dimensions in the same column order (used by
// Wrap, Unwrap, Curry and Uncurry, which do not move columns). The rows
// are shared (BasicMap.share), as a union's pieces are, and so is sp.
func (b *BasicMap) withSpace(sp Space) *BasicMap {
	c := b.share()
	c.space = sp
	c.nP, c.nI, c.nO = sp.NumParams(), sp.NumIn(), sp.NumOut()
	if c.nDims() != b.nDims() {
		panic("presburger: withSpace changes the number of dimensions")
	}
	return c
}

// ---------------------------------------------------------------------------
// Normalisation

// normRow divides row (with n variable columns followed by a constant) by the
// gcd of its variable coefficients. For an inequality the constant is
// floored (tightening over the integers). For an equality, ok is false if
// the gcd does not divide the constant (no integer solution).
func normRow(row []Int, eq bool) (out []Int, ok bool) {
	n := len(row) - 1
	g := rowGcd(row, n)
	if g.IsZero() {
		c := row[n]
		if eq {
			return row, c.IsZero()
		}
		return row, c.Sign() >= 0
	}
	if g.IsOne() {
		return row, true
	}
	out = make([]Int, len(row))
	for i := 0; i < n; i++ {
		out[i] = row[i].FloorDiv(g)
	}
	if eq {
		if !row[n].Mod(g).IsZero() {
			return row, false
		}
		out[n] = row[n].FloorDiv(g)
	} else {
		out[n] = row[n].FloorDiv(g)
	}
	return out, true
}

func rowKey(r []Int) string {
	buf := make([]byte, 0, len(r)*3)
	for _, v := range r {
		if v.big == nil {
			buf = strconv.AppendInt(buf, v.small, 36)
		} else {
			buf = append(buf, 'b')
			buf = v.big.Append(buf, 36)
		}
		buf = append(buf, ',')
	}
	return string(buf)
}

// normalize simplifies b in place: gcd-normalises rows, tightens inequality
// constants, drops trivially true rows, detects trivially false rows,
// removes duplicate rows, merges opposite inequalities into equalities,
// substitutes out plain existentials that have a unit coefficient in an
// equality, and drops unused plain existentials. It returns false if b was
// found to be empty (b is then marked empty).
func (b *BasicMap) normalize() bool {
	if b.empty {
		return false
	}
	// The plain existentials substituted out, whose columns are then zero
	// in every row: they are removed together, in one pass over the rows,
	// once no equality substitutes another (removing each at once copied
	// every row once per local).
	var substituted []bool
	for changed := true; changed; {
		changed = false
		if !b.normRows() {
			b.setEmpty()
			if substituted != nil {
				b.removeLocals(substituted)
			}
			return false
		}
		// Substitute a plain existential with unit coefficient in an equality.
		for ei, e := range b.eqs {
			for l := range b.divs {
				if !b.divs[l].Den.IsZero() || substituted != nil && substituted[l] {
					continue
				}
				c := e[b.locCol(l)]
				if c.IsOne() || c.Equal(NewInt(-1)) {
					b.eqs = append(b.eqs[:ei:ei], b.eqs[ei+1:]...)
					b.substituteLocal(l, e)
					if substituted == nil {
						substituted = make([]bool, len(b.divs))
					}
					substituted[l] = true
					changed = true
					break
				}
			}
			if changed {
				break
			}
		}
		if changed {
			continue
		}
		if substituted != nil {
			b.removeLocals(substituted)
			substituted = nil
		}
		// A division whose numerator is a multiple of its denominator
		// (including a constant numerator, floor(c/d)) is an affine
		// expression of earlier columns: substitute it.
		for i := 0; i < len(b.divs) && !changed; i++ {
			d := b.divs[i]
			if d.Den.IsZero() {
				continue
			}
			var expr []Int
			if isZeroRow(d.Num, len(d.Num)-1) {
				expr = make([]Int, len(d.Num))
				expr[len(expr)-1] = d.Num[len(d.Num)-1].FloorDiv(d.Den)
			} else if rowGcd(d.Num, len(d.Num)).Mod(d.Den).IsZero() {
				expr = make([]Int, len(d.Num))
				for j, v := range d.Num {
					expr[j] = v.FloorDiv(d.Den)
				}
			} else {
				continue
			}
			b.replaceLocalByExpr(i, expr)
			changed = true
		}
		// Merge divisions with identical definitions: each division into
		// the first one equal to it, in one pass (a numerator only uses
		// earlier columns, so the merges of earlier divisions are made in
		// it before it is compared), then drop the merged ones.
		if !changed {
			var merged []bool
			for j := 1; j < len(b.divs); j++ {
				dj := b.divs[j]
				if dj.Den.IsZero() {
					continue
				}
				for i := 0; i < j; i++ {
					di := b.divs[i]
					if (merged != nil && merged[i]) || !di.Den.Equal(dj.Den) || !intsEqual(di.Num, dj.Num) {
						continue
					}
					ci, cj := b.locCol(i), b.locCol(j)
					move := func(r []Int) {
						if r != nil && !r[cj].IsZero() {
							r[ci] = r[ci].Add(r[cj])
							r[cj] = Int{}
						}
					}
					for _, r := range b.eqs {
						move(r)
					}
					for _, r := range b.ineqs {
						move(r)
					}
					for k := range b.divs {
						move(b.divs[k].Num)
					}
					if merged == nil {
						merged = make([]bool, len(b.divs))
					}
					merged[j] = true
					changed = true
					break
				}
			}
			if merged != nil {
				b.removeLocals(merged)
			}
		}
		// Drop locals that occur nowhere (an unused division is a total
		// function and an unused existential is unconstrained).
		b.removeUnusedLocals()
	}
	return true
}

// replaceLocalByExpr substitutes local i by the affine expression expr
// (a row over all columns, zero on i) everywhere and removes it.
func (b *BasicMap) replaceLocalByExpr(i int, expr []Int) {
	c := b.locCol(i)
	sub := func(r []Int) []Int {
		if r == nil || r[c].IsZero() {
			return r
		}
		k := r[c]
		out := addScaled(r, k, expr)
		out[c] = Int{}
		return out
	}
	for j := range b.eqs {
		b.eqs[j] = sub(b.eqs[j])
	}
	for j := range b.ineqs {
		b.ineqs[j] = sub(b.ineqs[j])
	}
	for j := range b.divs {
		if b.divs[j].Num != nil {
			b.divs[j].Num = sub(b.divs[j].Num)
		}
	}
	b.removeLocal(i)
}

// removeUnusedLocals drops the locals that occur in no row and in the
// numerator of no local that stays, in one pass over the rows. (A
// numerator only uses earlier columns, so deciding from the last local
// to the first sees every numerator's fate before its columns'.)
func (b *BasicMap) removeUnusedLocals() {
	var drop []bool
	for l := len(b.divs) - 1; l >= 0; l-- {
		c := b.locCol(l)
		used := false
		for _, r := range b.eqs {
			if !r[c].IsZero() {
				used = true
				break
			}
		}
		for i := 0; i < len(b.ineqs) && !used; i++ {
			used = !b.ineqs[i][c].IsZero()
		}
		for k := l + 1; k < len(b.divs) && !used; k++ {
			used = b.divs[k].Num != nil && (drop == nil || !drop[k]) && !b.divs[k].Num[c].IsZero()
		}
		if !used {
			if drop == nil {
				drop = make([]bool, len(b.divs))
			}
			drop[l] = true
		}
	}
	if drop != nil {
		b.removeLocals(drop)
	}
}

// removeLocals deletes the locals l with drop[l], which occur nowhere
// else, in one pass over the rows.
func (b *BasicMap) removeLocals(drop []bool) {
	nd := b.nDims()
	w := b.NumCols()
	keep := make([]bool, w)
	n := 0
	for j := range keep {
		keep[j] = j < nd || j == w-1 || !drop[j-nd]
		if keep[j] {
			n++
		}
	}
	// The new rows are cut from one allocation, as removeColumn's.
	rows := len(b.eqs) + len(b.ineqs)
	for l, d := range b.divs {
		if !drop[l] && d.Num != nil {
			rows++
		}
	}
	flat := make([]Int, rows*n)
	squeeze := func(r []Int) []Int {
		if r == nil {
			return nil
		}
		out := flat[:0:n]
		flat = flat[n:]
		for j, v := range r {
			if keep[j] {
				out = append(out, v)
			}
		}
		return out
	}
	for i := range b.eqs {
		b.eqs[i] = squeeze(b.eqs[i])
	}
	for i := range b.ineqs {
		b.ineqs[i] = squeeze(b.ineqs[i])
	}
	divs := b.divs[:0]
	for l, d := range b.divs {
		if !drop[l] {
			d.Num = squeeze(d.Num)
			divs = append(divs, d)
		}
	}
	for l := len(divs); l < len(b.divs); l++ {
		b.divs[l] = Div{}
	}
	b.divs = divs
}

// substituteLocal eliminates local l using equality row e (whose coefficient
// on l is ±1) from all rows and division numerators.
func (b *BasicMap) substituteLocal(l int, e []Int) {
	c := b.locCol(l)
	a := e[c] // ±1
	// x_c = -(e - a x_c)/a ; row r: r + k*e with k = -r[c]/a = -r[c]*a.
	sub := func(r []Int) []Int {
		if r == nil || r[c].IsZero() {
			return r
		}
		k := r[c].Mul(a).Neg()
		return addScaled(r, k, e)
	}
	for i := range b.eqs {
		b.eqs[i] = sub(b.eqs[i])
	}
	for i := range b.ineqs {
		b.ineqs[i] = sub(b.ineqs[i])
	}
	for i := range b.divs {
		if b.divs[i].Num != nil {
			b.divs[i].Num = sub(b.divs[i].Num)
		}
	}
}

// normRows gcd-normalises rows, removes trivial and duplicate rows and
// pairs opposite inequalities. It returns false on a trivial contradiction.
func (b *BasicMap) normRows() bool {
	n := b.NumCols() - 1
	eqs := make([][]Int, 0, len(b.eqs))
	// Equalities are compared whole (constant included), in canonical sign.
	seen := newCoefIndex(n+1, len(b.eqs))
	addEq := func(r []Int) {
		h := coefHash(r, n+1)
		if seen.findHash(eqs, r, false, h) >= 0 || seen.findHash(eqs, r, true, h) >= 0 {
			return
		}
		seen.addHash(h, len(eqs))
		eqs = append(eqs, r)
	}
	for _, r := range b.eqs {
		r2, ok := normRow(r, true)
		if !ok {
			return false
		}
		if isZeroRow(r2, n) {
			continue
		}
		// Canonical sign: first nonzero coefficient positive.
		for i := 0; i < n; i++ {
			if !r2[i].IsZero() {
				if r2[i].Sign() < 0 {
					r2 = negRow(r2)
				}
				break
			}
		}
		addEq(r2)
	}
	// Inequalities: keep the tightest constant per coefficient vector, in
	// the order of first appearance.
	best := make([][]Int, 0, len(b.ineqs))
	coefs := newCoefIndex(n, len(b.ineqs))
	for _, r := range b.ineqs {
		r2, ok := normRow(r, false)
		if !ok {
			return false
		}
		if isZeroRow(r2, n) {
			continue
		}
		h := coefHash(r2, n)
		if j := coefs.findHash(best, r2, false, h); j >= 0 {
			if r2[n].Cmp(best[j][n]) < 0 {
				best[j] = r2
			}
			continue
		}
		coefs.addHash(h, len(best))
		best = append(best, r2)
	}
	var ineqs [][]Int
	var done []bool // allocated at the first pair of opposite rows
	for i, r := range best {
		if done != nil && done[i] {
			continue
		}
		// best[i] was added as coefs' i-th entry, with its hash (its
		// negation's too).
		if j := coefs.findHash(best, r, true, coefs.ents[i].h); j >= 0 && (done == nil || !done[j]) {
			// r·x + c1 >= 0 and -r·x + c2 >= 0: -c1 <= r·x <= c2.
			s := r[n].Add(best[j][n])
			if s.Sign() < 0 {
				return false
			}
			if s.IsZero() {
				if done == nil {
					// The rows before i were all kept.
					done = make([]bool, len(best))
					ineqs = append(make([][]Int, 0, len(best)), best[:i]...)
				}
				done[i], done[j] = true, true
				addEq(r)
				continue
			}
		}
		if done != nil {
			ineqs = append(ineqs, r)
		}
	}
	if done == nil && len(best) > 0 {
		ineqs = best // every row kept
	}
	b.eqs, b.ineqs = eqs, ineqs
	return true
}

// sortRows orders rows deterministically (for stable printing and tests).
func sortRows(rs [][]Int) {
	sort.SliceStable(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		for k := range a {
			if c := a[k].Cmp(b[k]); c != 0 {
				return c > 0
			}
		}
		return false
	})
}

// reshape returns a basic map in space sp built from b: dimMap[i] gives,
// for each dimension column i of b (params, in, out), its column in sp, or
// -1 to turn it into a plain existential local. The new existentials come
// first among the locals, followed by b's locals. Divisions that come to
// depend on an existential are turned into existentials constrained by
// their defining inequalities, so the result denotes
// { sp-dims : exists projected dims : b }.
func (b *BasicMap) reshape(sp Space, dimMap []int) *BasicMap {
	r := NewBasicMap(sp)
	nd := r.nDims()
	k := 0
	for _, j := range dimMap {
		if j < 0 {
			k++
		}
	}
	nl := k + len(b.divs)
	w := nd + nl + 1
	colMap := make([]int, b.NumCols())
	pi := 0
	for i, j := range dimMap {
		if j >= 0 {
			colMap[i] = j
		} else {
			colMap[i] = nd + pi
			pi++
		}
	}
	for l := range b.divs {
		colMap[b.nDims()+l] = nd + k + l
	}
	colMap[b.NumCols()-1] = w - 1
	mapRow := func(row []Int) []Int {
		out := make([]Int, w)
		for i, v := range row {
			if !v.IsZero() {
				out[colMap[i]] = out[colMap[i]].Add(v)
			}
		}
		return out
	}
	r.divs = make([]Div, nl)
	for l, d := range b.divs {
		if d.Num != nil {
			r.divs[k+l] = Div{Num: mapRow(d.Num), Den: d.Den}
		}
	}
	for _, e := range b.eqs {
		r.eqs = append(r.eqs, mapRow(e))
	}
	for _, e := range b.ineqs {
		r.ineqs = append(r.ineqs, mapRow(e))
	}
	r.empty = b.empty
	r.demoteDivs()
	return r
}

// demoteDivs turns every division whose numerator refers to a plain
// existential into a plain existential with its two defining inequalities.
func (b *BasicMap) demoteDivs() {
	for changed := true; changed; {
		changed = false
		for i, d := range b.divs {
			if d.Den.IsZero() {
				continue
			}
			bad := false
			for j, e := range b.divs {
				if e.Den.IsZero() && !d.Num[b.locCol(j)].IsZero() {
					bad = true
					break
				}
			}
			if bad {
				lo, hi := b.divRows(i)
				b.ineqs = append(b.ineqs, lo, hi)
				b.divs[i] = Div{}
				changed = true
			}
		}
	}
}

// rowSlab hands out the rows of one width of a conjunction built at once
// from a single allocation: fewer and larger allocations for the
// collector than a row at a time.
type rowSlab struct {
	flat []Int
	w    int
}

// newRowSlab returns a slab of rows rows of width w.
func newRowSlab(rows, w int) rowSlab { return rowSlab{flat: make([]Int, rows*w), w: w} }

// next returns the slab's next row, zeroed, whose capacity ends at its
// length (appending to it copies it). It panics past the slab's rows.
func (s *rowSlab) next() []Int {
	out := s.flat[:s.w:s.w]
	s.flat = s.flat[s.w:]
	return out
}

// definedDivs counts the divisions of ds with a definition (the
// others are plain existentials, without a row).
func definedDivs(ds []Div) int {
	n := 0
	for _, d := range ds {
		if d.Num != nil {
			n++
		}
	}
	return n
}
