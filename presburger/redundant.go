package presburger

import (
	"context"
	"errors"
	"fmt"
)

// This file keeps results small: removal of empty pieces, of pieces
// contained in another piece, of redundant inequalities, and detection of
// implicit equalities. Every decision is exact over the integers; those
// on single constraints are taken on one rational tableau per conjunction
// where that is exact (simplifier, below), by the Omega test otherwise.

// Simplify returns a Map equal to m (as a set of points) with empty pieces
// removed, pieces contained in another piece removed (when m has at most
// 32 pieces), implicit equalities turned into equalities and redundant
// inequalities removed. An inequality r >= 0 is redundant if the piece
// without it has no integer point with r < 0; it is an implicit equality if
// the piece has no integer point with r > 0.
func (m *Map) Simplify(ctx context.Context) (*Map, error) {
	if t := tracerFrom(ctx); t != nil {
		return traced(ctx, t, trMapSimplify, m.Simplify, m)
	}
	if len(m.basics) == 1 && m.basics[0].isUniverse() {
		return m, nil // maps are immutable
	}
	mt := newMeter(ctx)
	bs := make([]*BasicMap, 0, len(m.basics))
	var pts [][]Int // a point of each of bs, when simplify found one
	same := true    // every piece came back as it was
	for _, b := range m.basics {
		c, p, err := b.simplifyPoint(mt)
		if err != nil {
			return nil, fmt.Errorf("simplify: %w", err)
		}
		same = same && c == b
		if c != nil {
			bs = append(bs, c)
			pts = append(pts, p)
		}
	}
	if same && len(bs) <= 1 {
		return m, nil // maps are immutable
	}
	if len(bs) > 1 && len(bs) <= simplifySubsetLimit {
		keep := make([]bool, len(bs))
		tabs := make(map[*BasicMap]*simplifier, len(bs))
		for i := range keep {
			keep[i] = true
		}
		wit := &pieceWitnesses{mt: mt, bs: bs, pts: pts, checked: make([]bool, len(bs))}
		for i := range bs {
			for j := range bs {
				if i == j || !keep[j] || !keep[i] {
					continue
				}
				if out, err := wit.refutes(i, j); err != nil {
					return nil, fmt.Errorf("simplify: %w", err)
				} else if out {
					continue
				}
				sub, err := pieceSubsetTab(ctx, mt, m.space, bs[i], bs[j], tabs)
				if err != nil {
					return nil, fmt.Errorf("simplify: %w", err)
				}
				if sub {
					keep[i] = false
				}
			}
		}
		var kept []*BasicMap
		for i, b := range bs {
			if keep[i] {
				kept = append(kept, b)
			}
		}
		bs = kept
	}
	return m.withBasics(bs), nil
}

// SimplifyBestEffort is Simplify that gives up on the pieces it cannot
// afford rather than failing: a map of at most simplifySubsetLimit pieces
// is first simplified as a whole (Simplify, under the budget of ctx);
// when that exceeds its budget, or the map has more pieces, each piece is
// simplified on its own under a budget of pieceSteps steps, and a piece
// whose simplification exceeds it is kept as it is. The result is equal
// to m as a set of points either way: simplifying a piece only changes
// its representation (an empty piece kept contains no points). The steps
// spent, those of the attempts that ran out included, count against the
// allowance of ctx (WithAllowance); errors other than ErrBudget (an
// exhausted allowance, a cancelled context) are returned. done reports
// that every piece was simplified, so that the result is one Simplify
// could have returned (CoalesceSimplified may take it).
func (m *Map) SimplifyBestEffort(ctx context.Context, pieceSteps int) (_ *Map, done bool, _ error) {
	if len(m.basics) <= simplifySubsetLimit {
		s, err := m.Simplify(ctx)
		if !errors.Is(err, ErrBudget) {
			return s, err == nil, err
		}
	}
	// Piece by piece, pieces inside another are kept: only a map too
	// large for that test is then as Simplify would return it.
	done = len(m.basics) > simplifySubsetLimit
	pctx := WithBudget(ctx, Budget{MaxSteps: pieceSteps})
	bs := make([]*BasicMap, 0, len(m.basics))
	for _, b := range m.basics {
		c, err := b.simplify(newMeter(pctx))
		switch {
		case errors.Is(err, ErrBudget):
			bs = append(bs, b) // kept as it is
			done = false
		case err != nil:
			return nil, false, fmt.Errorf("simplify: %w", err)
		case c != nil:
			bs = append(bs, c)
		}
	}
	return m.withBasics(bs), done, nil
}

// Simplify returns an equal conjunction without redundant inequalities and
// with implicit equalities made explicit, or nil if b is empty.
func (b *BasicMap) Simplify(ctx context.Context) (*BasicMap, error) {
	return b.simplify(newMeter(ctx))
}

// simplify is Simplify counting its steps on mt. It returns b itself
// when b has no locals and nothing changes (BasicMaps in a Map are never
// changed in place).
func (b *BasicMap) simplify(mt *meter) (*BasicMap, error) {
	c, _, err := b.simplifyPoint(mt)
	return c, err
}

// simplifyPoint is simplify that also returns, when the tests found one
// on the way, an integer point of the result over its dimensions
// (parameters, inputs, outputs), or nil.
func (b *BasicMap) simplifyPoint(mt *meter) (_ *BasicMap, point []Int, _ error) {
	var c *BasicMap
	if len(b.divs) == 0 {
		// Without locals, neither normalize nor the tests below change a
		// row in place (they replace rows), so c may share b's rows;
		// the lists are clipped so that appending to them copies.
		c = &BasicMap{space: b.space, nP: b.nP, nI: b.nI, nO: b.nO, empty: b.empty,
			eqs: b.eqs[:len(b.eqs):len(b.eqs)], ineqs: b.ineqs[:len(b.ineqs):len(b.ineqs)]}
	} else {
		c = b.Copy()
	}
	if !c.normalize() {
		return nil, nil, nil
	}
	if done, empty := quickSimplify(c); done {
		if empty {
			return nil, nil, nil
		}
		if len(b.divs) == 0 && sameRowList(c.eqs, b.eqs) && sameRowList(c.ineqs, b.ineqs) {
			return b, nil, nil
		}
		return c, nil, nil
	}
	s := newSimplifier(mt, c)
	empty, err := s.isEmpty()
	if err != nil || empty {
		return nil, nil, err
	}
	// Implicit equalities: r >= 0 with no point where r >= 1.
	found := false
	for i := 0; i < len(c.ineqs); i++ {
		e, err := s.implicitEq(i)
		if err != nil {
			return nil, nil, err
		}
		if e {
			found = true
			c.eqs = append(c.eqs, c.ineqs[i])
			c.ineqs = append(c.ineqs[:i:i], c.ineqs[i+1:]...)
			s.ineqU = append(s.ineqU[:i:i], s.ineqU[i+1:]...)
			i--
		}
	}
	before := c.ineqs
	cols := c.NumCols()
	if !c.normalize() {
		return nil, nil, nil
	}
	if found || !sameRowList(before, c.ineqs) || cols != c.NumCols() {
		// The rows or columns changed: a new tableau (c is not empty).
		s = newSimplifier(mt, c)
		s.known = true
		if empty, err := s.isEmpty(); err != nil || empty {
			return nil, nil, err
		}
	}
	// Redundant inequalities: no point of the others violates r.
	for i := 0; i < len(c.ineqs); i++ {
		e, err := s.redundant(i)
		if err != nil {
			return nil, nil, err
		}
		if e {
			c.ineqs = append(c.ineqs[:i:i], c.ineqs[i+1:]...)
			s.ineqU = append(s.ineqU[:i:i], s.ineqU[i+1:]...)
			i--
		}
	}
	if !c.normalize() {
		return nil, nil, nil
	}
	// The points found are c's (removing redundant rows and writing
	// implicit equalities as equalities keep its points), over the
	// tableau's variables: the dimensions, then the locals.
	if len(s.points) > 0 && len(s.points[0]) >= c.nDims() {
		point = s.points[0][:c.nDims()]
	}
	return c, point, nil
}

// sameRowList reports whether two lists hold the same row slices.
func sameRowList(a, b [][]Int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) || (len(a[i]) > 0 && &a[i][0] != &b[i][0]) {
			return false
		}
	}
	return true
}

// simplifier decides the tests of simplify on a shared rational tableau
// (simplex.go) where that is exact, and by the exact integer emptiness
// test otherwise. The rational tests are sound over the integers because
// every variable (locals included) ranges over the integers and every row
// has integer coefficients, so a row takes integer values at integer
// points:
//
//   - no rational point of the others with r <= -1: r is redundant;
//   - no rational point with r >= 1: r >= 0 is an implicit equality.
//
// Their negations need an integer point, which the tableau gives in three
// cases: the sample vertex is integral; the optimisation is unbounded;
// or a short branch and bound on copies of the tableau (searchInteger)
// finds one. In the second case there is an integer direction d of the
// rational polyhedron's recession cone along which r decreases
// (increases), and, as the conjunction has an integer point p (simplify
// tests that first), p + k*d is an integer point of the others with
// r <= -1 (of the conjunction with r >= 1) for k large enough. A branch
// and bound that closes every branch proves the positive answer. The
// rational tests are those of isl's isl_tab_detect_redundant and
// isl_tab_detect_implicit_equalities (isl_tab.c), made exact over the
// integers by the bounds -1 and 1 and by the witnesses. Anything else (a
// search out of nodes, a pivot limit) falls back to the exact test of
// empty.go, so the result is the one that deciding every test by the
// Omega test gives (TestSimplifyMatchesExact).
//
// The same tableau answers the containment tests of Map.Simplify and
// coalescing (holds, emptyWithRows) for a conjunction known not to be
// empty.
//
// Rows found redundant leave the tableau (their slack becomes free); the
// implicit equalities found stay as inequalities, a relaxation with the
// same integer points.
type simplifier struct {
	mt    *meter
	c     *BasicMap
	t     *simplexTab // nil once it failed (pivot limit): exact tests only
	ineqU []int       // the tableau unknown of each of c.ineqs
	// points are integer points of c found on the way (the variables'
	// values), which refute implicit equalities for free.
	points [][]Int
	known  bool // c is known to be nonempty
}

// simplexPivotLimit bounds the pivots of one optimisation, relative to
// the tableau's size; beyond it simplify falls back to exact tests.
func simplexPivotLimit(t *simplexTab) int { return 64 + 4*(len(t.rows)+t.ncol) }

// minimizeFree frees row u's slack (u may go negative) and minimizes u,
// stopping early at an integral point where u <= -1: a point of the other
// rows that refutes u >= 0.
func (t *simplexTab) minimizeFree(u int) (optStatus, error) {
	t.restr[u] = false
	t.limit = simplexPivotLimit(t)
	return t.optimize(u, -1, func() bool {
		num, den := t.value(u)
		return num.Cmp(den.Neg()) <= 0 && t.integral()
	})
}

func newSimplifier(mt *meter, c *BasicMap) *simplifier {
	s := &simplifier{mt: mt, c: c}
	if c.empty {
		return s
	}
	t := newSimplexTab(mt, c.nVars())
	n := 2*len(c.eqs) + len(c.ineqs)
	for _, d := range c.divs {
		if !d.Den.IsZero() {
			n += 2
		}
	}
	t.reserve(n)
	// addRow copies the row it is given: the negated equalities and the
	// divisions' rows are written in one scratch row.
	scratch := make([]Int, c.NumCols())
	for _, e := range c.eqs {
		t.addRow(e)
		for k, v := range e {
			scratch[k] = v.Neg()
		}
		t.addRow(scratch)
	}
	s.ineqU = make([]int, len(c.ineqs))
	for i, r := range c.ineqs {
		s.ineqU[i] = t.addRow(r)
	}
	one := NewInt(1)
	for i, d := range c.divs {
		if !d.Den.IsZero() {
			// num - den*q >= 0 and den*q - num + den - 1 >= 0 (divRows).
			col, k := c.locCol(i), len(scratch)-1
			copy(scratch, d.Num)
			scratch[col] = scratch[col].Sub(d.Den)
			t.addRow(scratch)
			for j, v := range scratch {
				scratch[j] = v.Neg()
			}
			scratch[k] = scratch[k].Add(d.Den).Sub(one)
			t.addRow(scratch)
		}
	}
	s.t = t
	return s
}

// newKnownSimplifier returns a simplifier for c, which the caller knows
// has an integer point, with a feasible tableau (or none, if making it
// feasible ran out of pivots).
func newKnownSimplifier(mt *meter, c *BasicMap) *simplifier {
	s := newSimplifier(mt, c)
	s.known = true
	if s.t != nil {
		s.t.limit = 4 * simplexPivotLimit(s.t)
		if feasible, err := s.t.restore(); err != nil || !feasible {
			s.t = nil
		}
	}
	return s
}

// setMeter makes the simplifier count its steps on mt.
func (s *simplifier) setMeter(mt *meter) {
	s.mt = mt
	if s.t != nil {
		s.t.m = mt
	}
}

// holds decides, where the tableau can, whether every integer point of c
// (known not to be empty) satisfies r >= 0 (r over c's columns): decided
// is false when it cannot. r joins the tableau as a free unknown for the
// test and leaves it after (rollback): coalescing asks one conjunction's
// tableau about the rows of every partner, and the tableau of a piece of
// dsc's heaps otherwise grew by a row for each, tens of pairs over. When
// rolling back fails, the simplifier drops its tableau (exact tests only).
func (s *simplifier) holds(r []Int) (holds, decided bool, err error) {
	t := s.t
	if t == nil || !s.known {
		return false, false, nil
	}
	for _, p := range s.points {
		if rowValueAtPoint(r, p).Sign() < 0 {
			return false, true, nil
		}
	}
	snap := t.snapshot()
	defer func() {
		if t.rollback(snap) != nil {
			s.t = nil
		}
	}()
	u := t.addRow(r)
	st, err := t.minimizeFree(u)
	if err != nil {
		return false, false, err
	}
	switch st {
	case optStopped:
		s.points = append(s.points, t.sample())
		return false, true, nil
	case optUnbounded:
		return false, true, nil
	case optOptimal:
		if num, den := t.value(u); num.Cmp(den.Neg()) > 0 {
			return true, true, nil
		}
		// r holds when no integer point has r <= -1.
		n := negRow(r)
		n[len(n)-1] = n[len(n)-1].Sub(NewInt(1))
		return s.emptyWithRows(n)
	}
	return false, false, nil
}

// emptyWithRows decides, where the tableau can, whether c with the extra
// inequalities rows (over c's columns) has no integer point: decided is
// false when it cannot. The tableau does not change.
func (s *simplifier) emptyWithRows(rows ...[]Int) (empty, decided bool, err error) {
	t := s.t
	if t == nil {
		return false, false, nil
	}
	for _, p := range s.points {
		in := true
		for _, r := range rows {
			if rowValueAtPoint(r, p).Sign() < 0 {
				in = false
				break
			}
		}
		if in {
			return false, true, nil
		}
	}
	if p := s.roundedPoint(-1, rows); p != nil {
		s.points = append(s.points, p)
		return false, true, nil
	}
	nodes := searchNodes
	p, res, err := t.searchInteger(rows, &nodes, func() []Int { return s.roundedPoint(-1, rows) })
	switch {
	case err != nil:
		return false, false, err
	case res == searchFound:
		if p != nil && len(s.points) < maxSearchPoints {
			s.points = append(s.points, p)
		}
		return false, true, nil
	case res == searchNone:
		return true, true, nil
	}
	return false, false, nil
}

// maxSearchPoints bounds the points of branch-and-bound searches that
// emptyWithRows adds to a simplifier's points.
const maxSearchPoints = 16

// rowValueAtPoint returns the value of row r (variables, then the
// constant) at the point p.
func rowValueAtPoint(r, p []Int) Int {
	v := r[len(p)]
	for j, x := range p {
		if !r[j].IsZero() && !x.IsZero() {
			v = v.Add(r[j].Mul(x))
		}
	}
	return v
}

// isEmpty decides whether c has no integer point, and makes the tableau
// feasible.
func (s *simplifier) isEmpty() (bool, error) {
	if s.t != nil {
		s.t.limit = 4 * simplexPivotLimit(s.t)
		feasible, err := s.t.restore()
		switch {
		case errors.Is(err, errSimplexLimit):
			s.t = nil
		case err != nil:
			return false, err
		case !feasible:
			return true, nil
		case s.t.integral():
			s.points = append(s.points, s.t.sample())
			s.known = true
			return false, nil
		case !s.known:
			nodes := searchNodes
			p, res, err := s.t.searchInteger(nil, &nodes, func() []Int { return s.roundedPoint(-1, nil) })
			switch {
			case err != nil:
				return false, err
			case res == searchFound:
				s.points = append(s.points, p)
				s.known = true
				return false, nil
			case res == searchNone:
				return true, nil
			}
		}
	}
	if s.known {
		return false, nil
	}
	e, err := s.c.isEmpty(s.mt)
	s.known = !e && err == nil
	return e, err
}

// implicitEq decides whether c.ineqs[i] is an implicit equality of c.

func (s *simplifier) implicitEq(i int) (bool, error) {
	c := s.c
	r := c.ineqs[i]
	for _, p := range s.points {
		if rowValueAtPoint(r, p).Sign() > 0 {
			return false, nil
		}
	}
	if t := s.t; t != nil && s.known {
		u := s.ineqU[i]
		t.limit = simplexPivotLimit(t)
		st, err := t.optimize(u, 1, func() bool {
			num, den := t.value(u)
			return num.Cmp(den) >= 0 && t.integral()
		})
		if err != nil {
			return false, err
		}
		switch st {
		case optStopped:
			s.points = append(s.points, t.sample())
			return false, nil
		case optUnbounded:
			return false, nil
		case optOptimal:
			if num, den := t.value(u); num.Cmp(den) < 0 {
				return true, nil
			}
			p, res, err := s.search(i, 1)
			if err != nil {
				return false, err
			}
			switch res {
			case searchFound:
				s.points = append(s.points, p)
				return false, nil
			case searchNone:
				return true, nil
			}
		}
	}
	w := c.NumCols()
	rr := copyRow(r)
	rr[w-1] = rr[w-1].Sub(NewInt(1))
	return c.emptyWith(s.mt, c.eqs, replaceRow(c.ineqs, i, rr))
}

// redundant decides whether c.ineqs[i] is implied by c's other rows over
// the integers; if so, it leaves the tableau.
func (s *simplifier) redundant(i int) (bool, error) {
	if t := s.t; t != nil && s.known {
		u := s.ineqU[i]
		st, err := t.minimizeFree(u)
		if err != nil {
			return false, err
		}
		decided, red := false, false
		switch st {
		case optStopped, optUnbounded:
			decided = true
		case optOptimal:
			if num, den := t.value(u); num.Cmp(den.Neg()) > 0 {
				decided, red = true, true
			} else {
				_, res, err := s.search(i, -1)
				if err != nil {
					return false, err
				}
				switch res {
				case searchFound:
					decided = true
				case searchNone:
					decided, red = true, true
				}
			}
		}
		if !decided {
			var err error
			if red, err = s.exactRedundant(i); err != nil {
				return false, err
			}
		}
		if red {
			return true, nil
		}
		t.restr[u] = true
		t.limit = 4 * simplexPivotLimit(t)
		feasible, err := t.restore()
		switch {
		case errors.Is(err, errSimplexLimit):
			s.t = nil
		case err != nil:
			return false, err
		case !feasible:
			return false, fmt.Errorf("presburger: internal error: simplify's tableau became infeasible")
		}
		return false, nil
	}
	return s.exactRedundant(i)
}

// searchNodes bounds the tableaux of one branch-and-bound search.
const searchNodes = 16

// search looks for an integer point of the tableau's rows with
// c.ineqs[i] >= 1 (sign 1: a point of c refuting an implicit equality) or
// c.ineqs[i] <= -1 (sign -1, with the row's slack free: a point of the
// others refuting redundancy), by a short branch and bound.
func (s *simplifier) search(i, sign int) ([]Int, searchResult, error) {
	r := copyRow(s.c.ineqs[i])
	if sign < 0 {
		r = negRow(r)
	}
	k := len(r) - 1
	r[k] = r[k].Sub(NewInt(1))
	skip := -1
	if sign < 0 {
		skip = i
	}
	if p := s.roundedPoint(skip, [][]Int{r}); p != nil {
		return p, searchFound, nil
	}
	nodes := searchNodes
	return s.t.searchInteger([][]Int{r}, &nodes, func() []Int { return s.roundedPoint(skip, [][]Int{r}) })
}

// roundedPoint tries the tableau's sample, rounded down and to the
// nearest integers (division locals recomputed from their definitions),
// as an integer point of c's rows but inequality skip (-1: none) and of
// the extra rows; it returns the first that is one, or nil. A point
// found is checked against every row, so it is a witness whatever the
// tableau holds; this spares the copies of a branch and bound when the
// vertex is close to an integer point.
func (s *simplifier) roundedPoint(skip int, extra [][]Int) []Int {
	t, c := s.t, s.c
	nd := c.nDims()
	for _, nearest := range []bool{false, true} {
		p := make([]Int, t.nvar)
		for v := range p {
			num, den := t.value(v)
			if nearest && !den.IsOne() {
				num = num.Add(num).Add(den)
				den = den.Add(den)
			}
			p[v] = num.FloorDiv(den)
		}
		for i, d := range c.divs {
			if !d.Den.IsZero() {
				p[nd+i] = rowValueAtPoint(d.Num, p).FloorDiv(d.Den)
			}
		}
		if s.isPoint(p, skip, extra) {
			return p
		}
	}
	return nil
}

// isPoint reports whether p satisfies c's rows (division locals
// included) but inequality skip, and the extra rows.
func (s *simplifier) isPoint(p []Int, skip int, extra [][]Int) bool {
	c := s.c
	nd := c.nDims()
	for i, d := range c.divs {
		if d.Den.IsZero() {
			continue
		}
		// 0 <= num - den*q <= den - 1.
		v := rowValueAtPoint(d.Num, p).Sub(d.Den.Mul(p[nd+i]))
		if v.Sign() < 0 || v.Cmp(d.Den) >= 0 {
			return false
		}
	}
	for _, e := range c.eqs {
		if !rowValueAtPoint(e, p).IsZero() {
			return false
		}
	}
	for k, r := range c.ineqs {
		if k != skip && rowValueAtPoint(r, p).Sign() < 0 {
			return false
		}
	}
	for _, r := range extra {
		if rowValueAtPoint(r, p).Sign() < 0 {
			return false
		}
	}
	return true
}

// exactRedundant decides redundant's question by the exact test.
func (s *simplifier) exactRedundant(i int) (bool, error) {
	c := s.c
	w := c.NumCols()
	r := negRow(c.ineqs[i])
	r[w-1] = r[w-1].Sub(NewInt(1))
	return c.emptyWith(s.mt, c.eqs, replaceRow(c.ineqs, i, r))
}

// simplifySubsetLimit bounds the number of pieces for which Map.Simplify
// drops the pieces contained in another (a quadratic number of tests).
const simplifySubsetLimit = 32

// pieceWitnesses refutes inclusions between the pieces of one map by
// points: an integer point of a that b does not contain proves that a is
// not a subset of b, which is exact, and costs a substitution into b's
// rows where the inclusion test (pieceSubsetTab) solves a linear program
// per row of b it cannot decide syntactically. The points are those that
// simplifying the pieces found on the way (simplifyPoint), so they cost
// nothing; each is checked to be in its piece before its first use, and
// a piece without one refutes nothing: its pairs take the inclusion test.
type pieceWitnesses struct {
	mt      *meter
	bs      []*BasicMap
	pts     [][]Int // pts[i] is a point of bs[i], or nil
	checked []bool  // pts[i] was checked to be in bs[i]
}

// refutes reports whether bs[i] has a witness point outside bs[j], so that
// bs[i] is not a subset of bs[j]; false says nothing. Both pieces are over
// the same dimensions (their locals may differ).
func (w *pieceWitnesses) refutes(i, j int) (bool, error) {
	if !w.checked[i] && w.pts[i] != nil {
		w.checked[i] = true
		in, err := w.bs[i].containsPoint(w.mt, w.pts[i])
		if err != nil {
			return false, err
		}
		if !in {
			w.pts[i] = nil
		}
	}
	if w.pts[i] == nil {
		return false, nil
	}
	in, err := w.bs[j].containsPoint(w.mt, w.pts[i])
	return !in, err
}
