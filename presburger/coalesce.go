package presburger

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
)

// maxCoalesceCover bounds the number of conjunctions for which Coalesce
// tests whether one is covered by the union of all the others.
const maxCoalesceCover = 8

// Coalesce returns a representation of m with fewer conjunctions and the
// same points (isl's coalesce). It removes empty conjunctions and those
// contained in another one (or, for small unions, in the union of the
// others), and replaces two conjunctions A and B by a single one H when H
// is exactly A ∪ B: H is built from the constraints of A valid on all of
// B and those of B valid on all of A, so H ⊇ A ∪ B, and the merge happens
// only when H ⊆ A ∪ B is proved. Conjunctions are merged only when they
// have the same local variables (same division definitions and no plain
// existentials). The result is exact; it fails only on budget or context
// errors.
func Coalesce(ctx context.Context, m *Map) (*Map, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trMapCoalesce, func(ctx context.Context) (*Map, error) { return Coalesce(ctx, m) }, m)
	}
	return coalesce(ctx, m, false)
}

// CoalesceSimplified is Coalesce for a map that Map.Simplify has just
// returned: it has no empty piece and, when it has 32 pieces or fewer, no
// piece inside another, so those two passes are not done again.
func CoalesceSimplified(ctx context.Context, m *Map) (*Map, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trMapCoalesceSimp, func(ctx context.Context) (*Map, error) { return CoalesceSimplified(ctx, m) }, m)
	}
	return coalesce(ctx, m, true)
}

func coalesce(ctx context.Context, m *Map, simplified bool) (_ *Map, err error) {
	defer lxRecover("coalesce", &err)
	if len(m.basics) == 0 || (len(m.basics) == 1 && simplified) {
		return m, nil // nothing to merge or drop (maps are not changed in place)
	}
	if len(m.basics) == 1 {
		if decided, e := quickIsEmpty(m.basics[0]); decided {
			if e {
				return &Map{space: m.space}, nil
			}
			return m, nil
		}
		e, err := m.basics[0].isEmpty(newMeter(ctx))
		switch {
		case err != nil:
			return nil, fmt.Errorf("coalesce: %w", err)
		case e:
			return &Map{space: m.space}, nil
		}
		return m, nil
	}
	ctx = withOneMeter(ctx) // the budget bounds the whole coalescing
	// The pieces of m are read, never changed: the tests below and the
	// result share them instead of copies (a merged piece is new).
	sp := m.space
	var bs []*BasicMap
	for _, b := range m.basics {
		if simplified {
			bs = append(bs, b)
			continue
		}
		decided, e := quickIsEmpty(b)
		if !decided {
			var err error
			if e, err = b.IsEmpty(ctx); err != nil {
				return nil, fmt.Errorf("coalesce: %w", err)
			}
		}
		if !e {
			bs = append(bs, b)
		}
	}
	// The pieces tested are not empty (those of a simplified map, those
	// that passed the emptiness tests above, and merged ones, which
	// contain two of them); a wrong "not covered" would only keep a
	// piece. A traced run records the test as IsSubset.
	subset := func(a *BasicMap, others ...*BasicMap) (bool, error) {
		am, om := &Map{space: sp, basics: []*BasicMap{a}}, &Map{space: sp, basics: others}
		if tracerFrom(ctx) != nil {
			return am.IsSubset(ctx, om)
		}
		return am.isSubset(ctx, om, true)
	}
	// Drop conjunctions contained in another. The tests run on the
	// conjunctions with their existentials made divisions where rows pin
	// them down (elimEqDivs: the same points), which spares most of them
	// the general inclusion test.
	tabs := make(map[*BasicMap]*simplifier)
	var plain []*BasicMap
	if !(simplified && len(m.basics) <= simplifySubsetLimit) {
		plain = make([]*BasicMap, len(bs))
		for i, b := range bs {
			plain[i] = elimEqDivs(b)
		}
	}
	for i := 0; i < len(bs) && plain != nil; i++ {
		for j := 0; j < len(bs); j++ {
			if i == j {
				continue
			}
			// A step per pair tested: most tests are decided by
			// syntactic checks and known points, which cost no step of
			// their own, and coalescing hundreds of pieces is mostly
			// such tests.
			mt := newMeter(ctx)
			if err := mt.step(); err != nil {
				return nil, fmt.Errorf("coalesce: %w", err)
			}
			in, err := pieceSubsetTab(ctx, mt, sp, plain[i], plain[j], tabs)
			if err != nil {
				return nil, fmt.Errorf("coalesce: %w", err)
			}
			if in {
				bs = append(bs[:i], bs[i+1:]...)
				plain = append(plain[:i], plain[i+1:]...)
				i--
				break
			}
		}
	}
	bs, err = coalesceMergeTab(ctx, sp, bs, tabs)
	if err != nil {
		return nil, fmt.Errorf("coalesce: %w", err)
	}
	// Drop conjunctions covered by the union of the others.
	if len(bs) <= maxCoalesceCover {
		for i := 0; i < len(bs) && len(bs) > 1; i++ {
			others := append(append([]*BasicMap(nil), bs[:i]...), bs[i+1:]...)
			in, err := subset(bs[i], others...)
			if err != nil {
				return nil, fmt.Errorf("coalesce: %w", err)
			}
			if in {
				bs = others
				i--
			}
		}
	}
	out := &Map{space: sp}
	for _, b := range bs {
		if b.empty {
			continue
		}
		if !slices.Contains(m.basics, b) {
			b.space = sp // a merged piece, new
		}
		out.basics = append(out.basics, b)
	}
	return out, nil
}

// pieceSubset reports whether the non-empty conjunction a is contained in
// b. With the same division locals, a ⊆ b exactly when every row of b
// holds on all of a: the rows that a's own rows decide are settled first
// (one that fails on all of a settles the answer), the others by an
// emptiness test each, stopping at the first that fails. The tests count
// their steps on mt.
//
// When the locals differ and b's are all divisions, a gets b's divisions
// (functions of the dimensions, so its points do not change) and b's rows
// are read over a's columns.
func pieceSubset(ctx context.Context, mt *meter, sp Space, a, b *BasicMap) (bool, error) {
	return pieceSubsetTab(ctx, mt, sp, a, b, nil)
}

// pieceSubsetTab is pieceSubset that decides the rows' tests on a rational
// tableau of a where it can (simplifier.holds), with tabs, if not nil,
// keeping one tableau per conjunction across calls.
func pieceSubsetTab(ctx context.Context, mt *meter, sp Space, a, b *BasicMap, tabs map[*BasicMap]*simplifier) (bool, error) {
	var rows [][]Int
	var s *simplifier
	var tab func() *simplifier
	switch {
	case coalesceSameLocals(a, b):
		// The rows are only read (validity, tableau rows, negations
		// are new): b's own, not copies.
		rows = asInequalities(b, func(r []Int) []Int { return r })
		a0 := a
		tab = func() *simplifier {
			if tabs == nil {
				return newKnownSimplifier(mt, a0)
			}
			if tabs[a0] == nil {
				tabs[a0] = newKnownSimplifier(mt, a0)
			}
			tabs[a0].setMeter(mt)
			return tabs[a0]
		}
	default:
		// b's rows over the dimensions alone need none of b's
		// divisions: one that fails on a settles the answer on a's
		// own (cached) tableau, before a copy of a gets b's divisions.
		if out, err := dimRowsFail(mt, a, b, tabs); err != nil || out {
			return false, err
		}
		c, mapRow, ok := withDivsOf(a, b)
		if !ok {
			return NewMap(sp, a).IsSubset(ctx, NewMap(sp, b))
		}
		a = c
		rows = asInequalities(b, mapRow)
		tab = func() *simplifier { return newKnownSimplifier(mt, c) }
	}
	var open [][]Int
	vi := newValidityIndex(a)
	for _, r := range rows {
		switch vi.validity(r) {
		case validityFails:
			return false, nil
		case validityUnknown:
			open = append(open, r)
		}
	}
	for _, r := range open {
		if s == nil {
			s = tab()
		}
		holds, decided, err := s.holds(r)
		if err != nil {
			return false, err
		}
		if decided {
			if !holds {
				return false, nil
			}
			continue
		}
		n := negRow(r)
		n[len(n)-1] = n[len(n)-1].Sub(NewInt(1))
		empty, err := a.emptyWith(mt, a.eqs, withRow(a.ineqs, n))
		if err != nil || !empty {
			return false, err
		}
	}
	return true, nil
}

// dimRowsFail reports whether some row of b without locals is proved not
// to hold on all of a (not empty), syntactically or on a's tableau (kept
// in tabs, if not nil). false means nothing was proved.
func dimRowsFail(mt *meter, a, b *BasicMap, tabs map[*BasicMap]*simplifier) (bool, error) {
	nd, w := b.nDims(), a.NumCols()
	var vi *validityIndex
	var s *simplifier
	for _, r := range asInequalities(b, func(r []Int) []Int { return r }) {
		if !isZeroRow(r[nd:], len(r)-1-nd) {
			continue
		}
		row := make([]Int, w)
		copy(row, r[:nd])
		row[w-1] = r[len(r)-1]
		if vi == nil {
			vi = newValidityIndex(a)
		}
		switch vi.validity(row) {
		case validityFails:
			return true, nil
		case validityHolds:
			continue
		}
		if tabs == nil {
			continue
		}
		if s == nil {
			if tabs[a] == nil {
				tabs[a] = newKnownSimplifier(mt, a)
			}
			s = tabs[a]
			s.setMeter(mt)
		}
		holds, decided, err := s.holds(row)
		if err != nil {
			return false, err
		}
		if decided && !holds {
			return true, nil
		}
	}
	return false, nil
}

// asInequalities returns b's constraints as inequalities, each passed
// through row: its inequalities, then both halves of each equality.
func asInequalities(b *BasicMap, row func([]Int) []Int) [][]Int {
	out := make([][]Int, 0, len(b.ineqs)+2*len(b.eqs))
	for _, r := range b.ineqs {
		out = append(out, row(r))
	}
	for _, e := range b.eqs {
		e = row(e)
		out = append(out, e, negRow(e))
	}
	return out
}

// withDivsOf returns a copy of a that also has the division locals of b
// it lacks (a division of b with the same definition as one of a's is
// a's), and the function that rewrites a row over b's columns over the
// copy's. ok is false when b has a plain existential local.
//
// The copy is built at its final width in one allocation: its rows and
// divisions are those of a.Copy() followed by one AddLocalDiv per new
// division, in the order of b's, which copied all of its rows again for
// each.
func withDivsOf(a, b *BasicMap) (c *BasicMap, mapRow func([]Int) []Int, ok bool) {
	for _, d := range b.divs {
		if d.Den.IsZero() {
			return nil, nil, false
		}
	}
	nd, na := a.nDims(), len(a.divs)
	// b's local i is the copy's column colOf[i]; the new divisions come
	// after a's locals in the order found, so a column index is the same
	// whatever the final number of new divisions.
	colOf := make([]int, len(b.divs))
	// over writes r (a row over b's columns) over the columns of the
	// copy with width w (its constant last).
	over := func(r []Int, w int) []Int {
		out := make([]Int, w)
		copy(out, r[:nd])
		for i := range b.divs {
			if v := r[nd+i]; !v.IsZero() {
				out[colOf[i]] = out[colOf[i]].Add(v)
			}
		}
		out[w-1] = r[len(r)-1]
		return out
	}
	// sameDef reports whether num (over the copy's columns, at the widest
	// width) defines the same division as a's local l.
	sameDef := func(num []Int, l int) bool {
		an := a.divs[l].Num
		if !intsEqual(num[:nd+na], an[:nd+na]) || !num[len(num)-1].Equal(an[len(an)-1]) {
			return false
		}
		return isZeroRow(num[nd+na:], len(num)-nd-na-1)
	}
	widest := nd + na + len(b.divs) + 1
	var fresh []Div // new divisions, numerators at the widest width
	for i, d := range b.divs {
		num := over(d.Num, widest) // only dimensions and earlier locals
		colOf[i] = -1
		for l, ad := range a.divs {
			if !ad.Den.IsZero() && ad.Den.Equal(d.Den) && sameDef(num, l) {
				colOf[i] = nd + l
				break
			}
		}
		for k := 0; k < len(fresh) && colOf[i] < 0; k++ {
			if fresh[k].Den.Equal(d.Den) && intsEqual(fresh[k].Num, num) {
				colOf[i] = nd + na + k
			}
		}
		if colOf[i] < 0 {
			colOf[i] = nd + na + len(fresh)
			fresh = append(fresh, Div{Num: num, Den: d.Den})
		}
	}
	w := nd + na + len(fresh) + 1
	// narrow returns row, over a's columns or at the widest width, at w.
	narrow := func(row []Int, out []Int) []Int {
		n := nd + na
		if len(row) == widest {
			n += len(fresh)
		}
		copy(out, row[:n])
		out[w-1] = row[len(row)-1]
		return out
	}
	c = &BasicMap{space: a.space, nP: a.nP, nI: a.nI, nO: a.nO, empty: a.empty}
	slab := newRowSlab(len(a.eqs)+len(a.ineqs)+len(fresh)+definedDivs(a.divs), w)
	next := slab.next
	c.divs = make([]Div, 0, na+len(fresh))
	for _, d := range a.divs {
		var num []Int
		if d.Num != nil {
			num = narrow(d.Num, next())
		}
		c.divs = append(c.divs, Div{Num: num, Den: d.Den})
	}
	for _, d := range fresh {
		c.divs = append(c.divs, Div{Num: narrow(d.Num, next()), Den: d.Den})
	}
	c.eqs = make([][]Int, len(a.eqs))
	for i, r := range a.eqs {
		c.eqs[i] = narrow(r, next())
	}
	c.ineqs = make([][]Int, len(a.ineqs))
	for i, r := range a.ineqs {
		c.ineqs[i] = narrow(r, next())
	}
	mapRow = func(r []Int) []Int { return over(r, w) }
	return c, mapRow, true
}

// maxAlignedDivs bounds the divisions of a pair that coalescing aligns
// (alignDivs): each pair tried costs two new tableaux.
const maxAlignedDivs = 4

// alignDivs returns a and b over the same division locals, in the same
// order: a with b's divisions it lacks appended (withDivsOf), and b with
// those same locals, its rows moved to their columns. A division is a
// function of the dimensions, so neither conjunction's points change
// (isl's coalescing aligns the divisions of a pair when those of one are
// among the other's, coalesce_after_aligning_divs in isl_coalesce.c;
// here any two sets of divisions are). ok is false, and a and b are
// returned as they are, when either has a plain existential or the pair
// would have more than maxAlignedDivs divisions.
func alignDivs(a, b *BasicMap) (a2, b2 *BasicMap, ok bool) {
	for _, x := range []*BasicMap{a, b} {
		for _, d := range x.divs {
			if d.Den.IsZero() {
				return a, b, false
			}
		}
	}
	c, mapRow, ok := withDivsOf(a, b)
	if !ok || len(c.divs) > maxAlignedDivs {
		return a, b, false
	}
	d := &BasicMap{space: b.space, nP: b.nP, nI: b.nI, nO: b.nO}
	d.divs = make([]Div, len(c.divs))
	for i, dv := range c.divs {
		d.divs[i] = Div{Num: copyRow(dv.Num), Den: dv.Den}
	}
	d.eqs = make([][]Int, len(b.eqs))
	for i, e := range b.eqs {
		d.eqs[i] = mapRow(e)
	}
	d.ineqs = make([][]Int, len(b.ineqs))
	for i, r := range b.ineqs {
		d.ineqs[i] = mapRow(r)
	}
	return c, d, true
}

// dropDivDefRows returns h without the inequalities that the definition
// of one of its divisions implies (den*q <= num <= den*q + den - 1, or
// looser), normalised, which drops the divisions no row needs any more
// (a merge of aligned pieces keeps such rows: they hold on both pieces).
// It returns h itself when normalising finds nothing to do or fails.
func dropDivDefRows(h *BasicMap) *BasicMap {
	c := h.Copy()
	var defs [][]Int
	for i, d := range c.divs {
		if !d.Den.IsZero() {
			lo, hi := c.divRows(i)
			for _, r := range [][]Int{lo, hi} {
				if r, ok := normRow(r, false); ok {
					defs = append(defs, r)
				}
			}
		}
	}
	def := &BasicMap{space: c.space, nP: c.nP, nI: c.nI, nO: c.nO, divs: c.divs, ineqs: defs}
	kept := c.ineqs[:0:0]
	for _, r := range c.ineqs {
		if syntacticValidity(r, def) != validityHolds {
			kept = append(kept, r)
		}
	}
	c.ineqs = kept
	if !c.normalize() {
		return h
	}
	return c
}

// divsKey identifies a list of division locals (in order).
func divsKey(divs []Div) string {
	var sb strings.Builder
	for _, d := range divs {
		sb.WriteString(rowKey(d.Num))
		sb.WriteByte('/')
		sb.WriteString(d.Den.String())
		sb.WriteByte(';')
	}
	return sb.String()
}

// coalesceSameLocals reports whether a and b have the same division
// locals (and no plain existentials), so their rows share columns.
func coalesceSameLocals(a, b *BasicMap) bool {
	if a.NumLocals() != b.NumLocals() {
		return false
	}
	for i := 0; i < a.NumLocals(); i++ {
		na, da := a.Local(i)
		nb, db := b.Local(i)
		if da.IsZero() || db.IsZero() || !da.Equal(db) || !intsEqual(na, nb) {
			return false
		}
	}
	return true
}

// rowValidity is what the rows of one conjunction say about a row r >= 0
// of another without solving anything.
type rowValidity int

const (
	validityUnknown rowValidity = iota
	// validityHolds: a row of the conjunction implies r >= 0.
	validityHolds
	// validityFails: a row of the conjunction implies r <= -1, so r >= 0
	// holds nowhere on it (it is not empty: coalesce drops empty pieces).
	validityFails
)

// syntacticValidity decides, when the rows of x do, whether r >= 0 holds
// on all of x: x has a row with r's coefficients (an inequality, or an
// equality of either sign) whose constant bounds r's from the right side.
// Rows are normalised (coprime coefficients), and x and the conjunction r
// comes from have the same locals, so equal coefficients mean the same
// affine form.
func syntacticValidity(r []Int, x *BasicMap) rowValidity {
	n := len(r) - 1
	c := r[n]
	sameCoefs := func(o []Int, sign int) bool {
		for i := 0; i < n; i++ {
			if sign > 0 && !o[i].Equal(r[i]) || sign < 0 && !o[i].Equal(r[i].Neg()) {
				return false
			}
		}
		return true
	}
	for _, o := range x.ineqs {
		switch {
		case sameCoefs(o, 1):
			// r + c >= r + o_c >= 0 when o_c <= c.
			if o[n].Cmp(c) <= 0 {
				return validityHolds
			}
		case sameCoefs(o, -1):
			// -r + o_c >= 0: r <= o_c, so r + c <= o_c + c < 0 when o_c + c < 0.
			if o[n].Add(c).Sign() < 0 {
				return validityFails
			}
		}
	}
	for _, e := range x.eqs {
		var v Int // the value of r's constant term at which r + c = 0 on x
		switch {
		case sameCoefs(e, 1):
			v = e[n] // r = -e_c, so r + c = c - e_c
			if c.Sub(v).Sign() >= 0 {
				return validityHolds
			}
			return validityFails
		case sameCoefs(e, -1):
			v = e[n] // r = e_c, so r + c = c + e_c
			if c.Add(v).Sign() >= 0 {
				return validityHolds
			}
			return validityFails
		}
	}
	return validityUnknown
}

// validityIndex answers syntacticValidity for many rows against one
// conjunction x: it keeps the hashes of x's rows' coefficients, so that
// only the rows with r's coefficients (or their negation) are compared.
type validityIndex struct {
	x      *BasicMap
	hi, he []uint64 // coefHash of x's inequalities, equalities
}

func newValidityIndex(x *BasicMap) *validityIndex {
	n := x.NumCols() - 1
	v := &validityIndex{x: x, hi: make([]uint64, len(x.ineqs)), he: make([]uint64, len(x.eqs))}
	for i, o := range x.ineqs {
		v.hi[i] = coefHash(o, n)
	}
	for i, e := range x.eqs {
		v.he[i] = coefHash(e, n)
	}
	return v
}

// validity is syntacticValidity(r, v.x): the same rows are tried, in the
// same order, skipping those whose hash rules them out.
func (v *validityIndex) validity(r []Int) rowValidity {
	return v.validityHashed(r, hashRow(r))
}

// rowHash is what validityIndex.validity needs of a row besides its
// entries: coefHash of its coefficients, or plain when the row is
// checked by syntacticValidity's scan instead.
type rowHash struct {
	h     uint64
	plain bool
}

// hashRow returns r's rowHash. A row without coefficients, or one whose
// negation may not hash as it does (a coefficient beyond int64's
// symmetric range), is plain.
func hashRow(r []Int) rowHash {
	n := len(r) - 1
	plain := true
	for _, a := range r[:n] {
		if a.big != nil || a.small == math.MinInt64 {
			return rowHash{plain: true}
		}
		plain = plain && a.small == 0
	}
	if plain {
		return rowHash{plain: true}
	}
	return rowHash{h: coefHash(r, n)} // r's negation hashes alike
}

// validityHashed is validity given rh = hashRow(r).
func (v *validityIndex) validityHashed(r []Int, rh rowHash) rowValidity {
	if rh.plain {
		return syntacticValidity(r, v.x)
	}
	n := len(r) - 1
	h := rh.h
	c := r[n]
	sameCoefs := func(o []Int, sign int) bool {
		for i := 0; i < n; i++ {
			if sign > 0 && !o[i].Equal(r[i]) || sign < 0 && !o[i].isNegOf(r[i]) {
				return false
			}
		}
		return true
	}
	for k, o := range v.x.ineqs {
		switch {
		case v.hi[k] == h && sameCoefs(o, 1):
			if o[n].Cmp(c) <= 0 {
				return validityHolds
			}
		case v.hi[k] == h && sameCoefs(o, -1):
			if o[n].Add(c).Sign() < 0 {
				return validityFails
			}
		}
	}
	for k, e := range v.x.eqs {
		switch {
		case v.he[k] == h && sameCoefs(e, 1):
			if c.Sub(e[n]).Sign() >= 0 {
				return validityHolds
			}
			return validityFails
		case v.he[k] == h && sameCoefs(e, -1):
			if c.Add(e[n]).Sign() >= 0 {
				return validityHolds
			}
			return validityFails
		}
	}
	return validityUnknown
}

// pieceRows is what coalescePair reads of a conjunction in every pair it
// is in: its constraints as inequalities (asInequalities, shared with
// the conjunction), their hashes, and its validityIndex. It also keeps
// the answers of the exact tests of rows of its partners on it: pieces
// of one union share many rows (the same bounds of the parameters, of
// a tile), so the same row is asked of the same conjunction in many
// pairs (63% of sgemmTB's tests).
type pieceRows struct {
	rows   [][]Int
	hashes []rowHash
	vi     *validityIndex
	tested map[uint64][]testedRow // by coefHash of the row's coefficients
	hits   int                    // answers read from tested
	// outside are integer points, over the conjunction's columns, that
	// refuted a merge with it: points of the hull of a pair outside both.
	// A point in the hull of a later pair and outside both refutes that
	// merge too, without the hull's tableau.
	outside [][]Int
	refuted int // merges refuted by a point of outside
}

// maxOutsidePoints bounds the points pieceRows.outside keeps.
const maxOutsidePoints = 8

// refutes reports whether the integer point z (over the columns of a and
// b, which have the same division locals) shows that the hull h of a and
// b is not inside a ∪ b: z satisfies the divisions' definitions and the
// rows of h (keep), and violates a row of a (one of restA: the others are
// in keep) and one of b.
func refutes(z []Int, a *BasicMap, keep, restA, restB [][]Int) bool {
	if len(z) != a.NumCols()-1 {
		return false
	}
	for i, d := range a.divs {
		if d.Den.IsZero() {
			return false
		}
		lo, hi := a.divRows(i)
		if rowValueAtPoint(lo, z).Sign() < 0 || rowValueAtPoint(hi, z).Sign() < 0 {
			return false
		}
	}
	for _, r := range keep {
		if rowValueAtPoint(r, z).Sign() < 0 {
			return false
		}
	}
	violates := func(rows [][]Int) bool {
		for _, r := range rows {
			if rowValueAtPoint(r, z).Sign() < 0 {
				return true
			}
		}
		return false
	}
	return violates(restA) && violates(restB)
}

// testedRow is the answer of an exact test: whether row >= 0 holds on all
// of a conjunction.
type testedRow struct {
	row   []Int
	holds bool
}

// lookup returns the kept answer for row (rh = hashRow(row), not plain).
func (p *pieceRows) lookup(row []Int, rh rowHash) (holds, ok bool) {
	for _, t := range p.tested[rh.h] {
		if intsEqual(t.row, row) {
			p.hits++
			return t.holds, true
		}
	}
	return false, false
}

// keep records the answer for row (rh = hashRow(row), not plain). The
// rows are the partners' and are never modified, so they are kept
// without a copy.
func (p *pieceRows) keep(row []Int, rh rowHash, holds bool) {
	if p.tested == nil {
		p.tested = map[uint64][]testedRow{}
	}
	p.tested[rh.h] = append(p.tested[rh.h], testedRow{row: row, holds: holds})
}

func newPieceRows(b *BasicMap) *pieceRows {
	p := &pieceRows{rows: asInequalities(b, func(r []Int) []Int { return r }), vi: newValidityIndex(b)}
	p.hashes = make([]rowHash, len(p.rows))
	for i, r := range p.rows {
		p.hashes[i] = hashRow(r)
	}
	return p
}

// coalescePair returns a single conjunction equal to a ∪ b, or nil. With
// tabs (a and b not empty), the tests run on rational tableaux where that
// is exact, kept in tabs across calls; infos, if not nil, keeps the
// pieceRows of the conjunctions across calls likewise.
func coalescePair(ctx context.Context, sp Space, a, b *BasicMap, tabs map[*BasicMap]*simplifier, infos map[*BasicMap]*pieceRows) (*BasicMap, error) {
	if !coalesceSameLocals(a, b) {
		return nil, nil
	}
	c := &pairCoalescer{ctx: ctx, tabs: tabs}
	ia, ib := pieceRowsOf(a, infos), pieceRowsOf(b, infos)
	c.infoOf = map[*BasicMap]*pieceRows{a: ia, b: ib}
	restA, err := c.collect(ia, b)
	if err != nil {
		return nil, err
	}
	restB, err := c.collect(ib, a)
	if err != nil {
		return nil, err
	}
	if len(restA) > 0 && len(restB) > 0 {
		for _, p := range []*pieceRows{ia, ib} {
			for _, z := range p.outside {
				if refutes(z, a, c.keep, restA, restB) {
					p.refuted++
					return nil, nil
				}
			}
		}
	}
	h := gistRebuild(a, nil, c.keep)
	covered, err := c.covered(h, restA, restB, ia, ib)
	if err != nil || !covered {
		return nil, err
	}
	return h, nil
}

// pieceRowsOf returns x's pieceRows, kept in infos when it is not nil.
func pieceRowsOf(x *BasicMap, infos map[*BasicMap]*pieceRows) *pieceRows {
	if infos == nil {
		return newPieceRows(x)
	}
	if infos[x] == nil {
		infos[x] = newPieceRows(x)
	}
	return infos[x]
}

// pairCoalescer holds the state of one coalescePair: the tableaux kept
// across calls, the rows of both conjunctions, and the rows kept for the
// candidate hull.
type pairCoalescer struct {
	ctx    context.Context
	tabs   map[*BasicMap]*simplifier
	infoOf map[*BasicMap]*pieceRows
	keep   [][]Int
}

// tab returns x's rational tableau metered by mt, or nil without tabs.
func (c *pairCoalescer) tab(x *BasicMap, mt *meter) *simplifier {
	if c.tabs == nil {
		return nil
	}
	if c.tabs[x] == nil {
		c.tabs[x] = newKnownSimplifier(mt, x)
	}
	c.tabs[x].setMeter(mt)
	return c.tabs[x]
}

// validOn reports whether row >= 0 holds on all of x (rh is hashRow(row)).
func (c *pairCoalescer) validOn(row []Int, rh rowHash, x *BasicMap) (bool, error) {
	ix := c.infoOf[x]
	switch ix.vi.validityHashed(row, rh) {
	case validityHolds:
		return true, nil
	case validityFails:
		return false, nil
	}
	if !rh.plain {
		if holds, ok := ix.lookup(row, rh); ok {
			return holds, nil
		}
	}
	holds, err := validOnExact(c.ctx, row, x, c.tab)
	if err == nil && !rh.plain {
		ix.keep(row, rh, holds)
	}
	return holds, err
}

// collect keeps the rows of from valid on all of on, and returns the
// others. The rows are from's: gistRebuild copies those it keeps.
func (c *pairCoalescer) collect(from *pieceRows, on *BasicMap) ([][]Int, error) {
	var rest [][]Int
	for i, r := range from.rows {
		ok, err := c.validOn(r, from.hashes[i], on)
		if err != nil {
			return nil, err
		}
		if ok {
			c.keep = append(c.keep, r)
		} else {
			rest = append(rest, r)
		}
	}
	return rest, nil
}

// covered reports whether the candidate hull h is within A ∪ B. H ⊆ A ∪ B
// iff H ∧ ¬A ∧ ¬B is empty. The locals are the same divisions in H, A and
// B (functions of the dimensions), so ¬A within H is the union of H ∧ ¬r
// for the rows r of A not kept (restA), and likewise for B: every pair
// must give an empty conjunction.
func (c *pairCoalescer) covered(h *BasicMap, restA, restB [][]Int, ia, ib *pieceRows) (bool, error) {
	neg := func(r []Int) []Int {
		n := negRow(r)
		n[len(n)-1] = n[len(n)-1].Sub(NewInt(1))
		return n
	}
	var hs *simplifier // h ⊇ a is not empty
	for _, ra := range restA {
		for _, rb := range restB {
			// A step per pair of rows, decided by a known point or not.
			mt := newMeter(c.ctx)
			if err := mt.step(); err != nil {
				return false, err
			}
			if c.tabs != nil {
				if hs == nil {
					hs = newKnownSimplifier(mt, h)
				}
				hs.setMeter(mt)
				na, nb := neg(ra), neg(rb)
				e, decided, err := hs.emptyWithRows(na, nb)
				if err != nil {
					return false, err
				}
				if decided {
					if !e {
						keepOutside(hs, na, nb, ia, ib)
						return false, nil
					}
					continue
				}
			}
			e, err := h.emptyWith(mt, h.eqs, withRow(h.ineqs, neg(ra), neg(rb)))
			if err != nil || !e {
				return false, err
			}
		}
	}
	return true, nil
}

// validOnExact reports whether row >= 0 holds on all of the non-empty
// conjunction x: on x's rational tableau (tab, which may return nil)
// where that decides it, otherwise by the Omega test.
func validOnExact(ctx context.Context, row []Int, x *BasicMap, tab func(*BasicMap, *meter) *simplifier) (bool, error) {
	mt := newMeter(ctx)
	if s := tab(x, mt); s != nil {
		holds, decided, err := s.holds(row)
		if err != nil || decided {
			return holds, err
		}
	}
	n := negRow(row)
	n[len(n)-1] = n[len(n)-1].Sub(NewInt(1))
	return x.emptyWith(mt, x.eqs, withRow(x.ineqs, n))
}

// keepOutside records, on the pieceRows of both conjunctions of a pair,
// a point of the hull's simplifier hs that satisfies the negated rows na
// and nb (the point that refuted the merge), if hs holds one.
func keepOutside(hs *simplifier, na, nb []Int, ia, ib *pieceRows) {
	for i := len(hs.points) - 1; i >= 0; i-- {
		z := hs.points[i]
		if rowValueAtPoint(na, z).Sign() < 0 || rowValueAtPoint(nb, z).Sign() < 0 {
			continue
		}
		for _, p := range []*pieceRows{ia, ib} {
			if len(p.outside) == maxOutsidePoints {
				p.outside = p.outside[1:]
			}
			p.outside = append(p.outside, z)
		}
		return
	}
}

// coalesceMergeTab merges pairs of conjunctions whose union is one
// conjunction, until nothing changes. A pair that did not merge is not
// tried again: the test depends only on the two conjunctions, and a merge
// replaces them by a new one. For non-empty conjunctions the tests run on
// rational tableaux where that is exact (tabs keeps one per conjunction;
// nil: the Omega test only, for conjunctions that may be empty).
func coalesceMergeTab(ctx context.Context, sp Space, bs []*BasicMap, tabs map[*BasicMap]*simplifier) ([]*BasicMap, error) {
	failed := map[[2]*BasicMap]bool{}
	infos := map[*BasicMap]*pieceRows{}
	plain := map[*BasicMap]*BasicMap{} // elimEqDivs of each conjunction
	elim := func(b *BasicMap) *BasicMap {
		if p, ok := plain[b]; ok {
			return p
		}
		p := elimEqDivs(b)
		plain[b] = p
		return p
	}
	// A piece aligned to a list of divisions is kept, so that its
	// tableau (in tabs) serves every partner with those divisions.
	type alignKey struct {
		b    *BasicMap
		divs string
	}
	aligns := map[alignKey]*BasicMap{}
	alignCached := func(a, b *BasicMap) (*BasicMap, *BasicMap, bool) {
		a2, b2, ok := alignDivs(a, b)
		if !ok {
			return a, b, false
		}
		k := divsKey(a2.divs)
		if c, hit := aligns[alignKey{a, k}]; hit {
			a2 = c
		} else {
			aligns[alignKey{a, k}] = a2
		}
		if c, hit := aligns[alignKey{b, k}]; hit {
			b2 = c
		} else {
			aligns[alignKey{b, k}] = b2
		}
		return a2, b2, true
	}
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(bs) && !changed; i++ {
			for j := i + 1; j < len(bs) && !changed; j++ {
				if failed[[2]*BasicMap{bs[i], bs[j]}] {
					continue
				}
				// A step per pair tried (see coalesce).
				if err := newMeter(ctx).step(); err != nil {
					return nil, err
				}
				a, b := bs[i], bs[j]
				aligned := false
				if !coalesceSameLocals(a, b) {
					// Divisions that equalities fix may be all that
					// differs: try the pair without them; otherwise
					// each gets the other's divisions.
					a, b = elim(a), elim(b)
					if !coalesceSameLocals(a, b) {
						a, b, aligned = alignCached(a, b)
					}
				}
				h, err := coalescePair(ctx, sp, a, b, tabs, infos)
				if err != nil {
					return nil, err
				}
				if h != nil && aligned {
					h = dropDivDefRows(h)
				}
				if h == nil {
					failed[[2]*BasicMap{bs[i], bs[j]}] = true
				}
				if h != nil {
					bs[i] = h
					bs = append(bs[:j], bs[j+1:]...)
					changed = true
				}
			}
		}
	}
	return bs, nil
}
