package presburger

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Gist simplifies s under the context c (isl's gist): it returns a relation
// g with
//
//	g ∩ c = s ∩ c
//
// obtained by dropping, from each conjunction of s, every constraint that
// the context and the conjunction's remaining constraints imply, and by
// dropping the conjunctions disjoint from c. Outside c the result is
// unspecified (usually larger than s). c lives in the space of s, or is a
// parameter domain (isl's gist_params). Division definitions are never
// dropped. The result is exact: every implication is decided by an
// integer emptiness test.
func Gist(ctx context.Context, s, c *Map) (*Map, error) {
	return gist(ctx, s, c, true)
}

// gist is Gist, with the tests that a context's conjunction decides by
// itself (impliesRow, contextImplies) skipped if syntactic is set: the
// result is the same either way, only the cost differs.
func gist(ctx context.Context, s, c *Map, syntactic bool) (_ *Map, err error) {
	defer lxRecover("gist", &err)
	cm, err := gistLift(s, c)
	if err != nil {
		return nil, err
	}
	// Give s the (possibly longer) parameter list of the context.
	if s, err = s.Intersect(Universe(cm.Space())); err != nil {
		return nil, fmt.Errorf("gist: %w", err)
	}
	if !sameStrings(s.Space().Params, cm.Space().Params) {
		return nil, fmt.Errorf("gist: cannot align the parameters of %s and %s", s.Space(), cm.Space())
	}
	cbs := cm.Basics()
	var ci *contextImplies
	if syntactic {
		ci = &contextImplies{cbs: cbs, known: map[string]bool{}}
	}
	var out []*BasicMap
	for _, b := range s.Basics() {
		g, keep, err := gistBasic(ctx, b, cbs, ci)
		if err != nil {
			return nil, fmt.Errorf("gist: %w", err)
		}
		if !keep {
			continue
		}
		if len(g.Eqs()) == 0 && len(g.Ineqs()) == 0 && g.NumLocals() == 0 {
			// A conjunction without constraints covers everything.
			return NewMap(s.Space(), g), nil
		}
		out = append(out, g)
	}
	return NewMap(s.Space(), out...), nil
}

// gistLift returns c in the space of s (a parameter domain is extended to
// every tuple of s's space).
func gistLift(s, c *Map) (*Map, error) {
	sp, cs := s.Space(), c.Space()
	if cs.IsParams() && !sp.IsParams() {
		u, err := Universe(sp).IntersectParams(c)
		if err != nil {
			return nil, fmt.Errorf("gist: %w", err)
		}
		return u, nil
	}
	if cs.Key() != sp.Key() {
		return nil, fmt.Errorf("gist of %s in context %s: spaces differ", sp, cs)
	}
	if !sameStrings(cs.Params, sp.Params) {
		// Align parameters through an intersection with the universe.
		u, err := Universe(sp).Intersect(c)
		if err != nil {
			return nil, fmt.Errorf("gist: %w", err)
		}
		return u, nil
	}
	return c, nil
}

// gistBasic drops the constraints of b implied by the context (any of cbs)
// and b's other remaining constraints; keep is false when b is disjoint
// from the context. ci, if not nil, skips the tests that a context's
// conjunction decides by itself (gist's syntactic).
func gistBasic(ctx context.Context, b *BasicMap, cbs []*BasicMap, ci *contextImplies) (*BasicMap, bool, error) {
	eqs, ineqs := b.Eqs(), b.Ineqs()
	var ex rowExclusions
	if ci != nil {
		ex = newRowExclusions(cbs, b, eqs, ineqs)
	}
	// inContext reports whether the constraints, with extra, meet one
	// of the context's conjunctions; those that one of the constraints
	// contradicts (ex), and those that imply row (if not nil, and
	// extra is row's negation), are known not to.
	inContext := func(extra []Int, eqs, ineqs [][]Int, row []Int) (bool, error) {
		for k, c := range cbs {
			if ex.excluded(k, eqs, ineqs) {
				continue
			}
			if ci != nil && row != nil {
				imp, err := ci.implies(ctx, k, b, row)
				if err != nil {
					return false, err
				}
				if imp {
					continue
				}
			}
			t := gistRebuild(b, eqs, ineqs)
			if extra != nil {
				t.AddIneq(extra)
			}
			// Align b and c (same space after lifting); b's locals first.
			x := t.Intersect(c)
			e, err := x.IsEmpty(ctx)
			if err != nil {
				return false, err
			}
			if !e {
				return true, nil
			}
		}
		return false, nil
	}
	// Disjoint from the context?
	if nonEmpty, err := inContext(nil, eqs, ineqs, nil); err != nil || !nonEmpty {
		return nil, false, err
	}
	neg := func(r []Int) []Int {
		n := negRow(r)
		n[len(n)-1] = n[len(n)-1].Sub(NewInt(1))
		return n
	}
	for i := 0; i < len(ineqs); {
		rest := append(append([][]Int(nil), ineqs[:i]...), ineqs[i+1:]...)
		r := ineqs[i]
		possible, err := inContext(neg(r), eqs, rest, r)
		if err != nil {
			return nil, false, err
		}
		if !possible {
			ineqs = rest
			continue
		}
		i++
	}
	for i := 0; i < len(eqs); {
		rest := append(append([][]Int(nil), eqs[:i]...), eqs[i+1:]...)
		r, nr := eqs[i], negRow(eqs[i])
		lo, err := inContext(neg(r), rest, ineqs, r)
		if err != nil {
			return nil, false, err
		}
		hi := false
		if !lo {
			hi, err = inContext(neg(nr), rest, ineqs, nr)
			if err != nil {
				return nil, false, err
			}
		}
		if !lo && !hi {
			eqs = rest
			continue
		}
		i++
	}
	return gistRebuild(b, eqs, ineqs), true, nil
}

// contextImplies decides, once per gist, whether a conjunction of the
// context implies a constraint by itself. Where the relation is restricted
// to its context (the garbage iterations of an assignment under its
// scope's facts), each conjunction of the relation repeats the context's
// constraints, or ones these imply once combined (a tile's bound
// min(...) in its pieces), and gistBasic asks, for each of them and each
// context conjunction c_k, whether the conjunction's other constraints,
// the negated constraint and c_k have a common point. When c_k alone
// contradicts the negated constraint there is none, whatever the other
// constraints: the test c_k ∧ ¬row = ∅ (exact, smaller) decides it, and
// its answer holds for every conjunction of the relation with the same
// row, so it is computed once.
type contextImplies struct {
	cbs   []*BasicMap     // the context's conjunctions, lifted
	known map[string]bool // by k and row: whether cbs[k] implies row
}

// implies reports whether cbs[k] implies row·x >= 0, for a row over the
// columns of b. A row with local variables is left to the full test
// (false): b's locals mean nothing in cbs[k].
func (ci *contextImplies) implies(ctx context.Context, k int, b *BasicMap, row []Int) (bool, error) {
	c := ci.cbs[k]
	if impliesRow(c, b, row) {
		return true, nil
	}
	nd := b.nDims()
	if c.nDims() != nd {
		return false, nil
	}
	for _, x := range row[nd : len(row)-1] {
		if !x.IsZero() {
			return false, nil
		}
	}
	var key strings.Builder
	fmt.Fprintf(&key, "%d", k)
	for _, x := range row[:nd] {
		key.WriteByte(' ')
		key.WriteString(x.String())
	}
	key.WriteByte(' ')
	key.WriteString(row[len(row)-1].String())
	if imp, ok := ci.known[key.String()]; ok {
		return imp, nil
	}
	// ¬(row·x >= 0) is -row·x - 1 >= 0, over c's columns (its locals'
	// coefficients zero).
	n := make([]Int, c.NumCols())
	for j := range nd {
		n[j] = row[j].Neg()
	}
	for j := nd; j < len(n)-1; j++ {
		n[j] = NewInt(0)
	}
	n[len(n)-1] = row[len(row)-1].Neg().Sub(NewInt(1))
	x := c.Copy()
	x.AddIneq(n)
	imp, err := x.IsEmpty(ctx)
	if err != nil {
		return false, err
	}
	ci.known[key.String()] = imp
	return imp, nil
}

// rowExclusions records, for each conjunction of a context, the
// constraints of a conjunction b that contradict it by themselves
// (excludesRow), by identity of their rows (as sliced from b's Eqs and
// Ineqs). A set of constraints that keeps one of them does not meet that
// context conjunction, whatever else it holds: its emptiness test
// against it can be skipped, with the same answer.
type rowExclusions []map[*Int]bool

// newRowExclusions returns the exclusions of the rows eqs and ineqs of b
// by each of cbs.
func newRowExclusions(cbs []*BasicMap, b *BasicMap, eqs, ineqs [][]Int) rowExclusions {
	ex := make(rowExclusions, len(cbs))
	for k, c := range cbs {
		locals := sameLocals(c, b)
		for _, q := range ineqs {
			if excludesRow(c, b, locals, q) {
				ex[k] = addRowKey(ex[k], q)
			}
		}
		for _, q := range eqs {
			if excludesRow(c, b, locals, q) || excludesRow(c, b, locals, negRow(q)) {
				ex[k] = addRowKey(ex[k], q)
			}
		}
	}
	return ex
}

// excluded reports whether one of the constraints eqs and ineqs
// contradicts the context's conjunction k by itself: then they, with any
// further constraint, do not meet it.
func (ex rowExclusions) excluded(k int, eqs, ineqs [][]Int) bool {
	if ex == nil || len(ex[k]) == 0 {
		return false
	}
	for _, rows := range [][][]Int{eqs, ineqs} {
		for _, q := range rows {
			if len(q) > 0 && ex[k][&q[0]] {
				return true
			}
		}
	}
	return false
}

// addRowKey adds the row q to the set m of rows (by identity: the rows of
// one conjunction as gistBasic slices them), allocating m if needed.
func addRowKey(m map[*Int]bool, q []Int) map[*Int]bool {
	if m == nil {
		m = map[*Int]bool{}
	}
	m[&q[0]] = true
	return m
}

// excludesRow reports whether one constraint of the conjunction c, as it
// stands, contradicts q·x >= 0, for a row q over the columns of b, a
// conjunction of c's space, and locals, b's local i being c's local
// locals[i] (or none if negative, see sameLocals): a constraint of c that
// bounds the same combination of variables from the other side, beyond
// q's bound. For a conjunction of the relation that holds one side of a
// context's case split (a <= b of a min, say), every context conjunction
// on the other side is excluded this way, and a constraint of the
// relation need not be tested against it as long as that side stays
// among its constraints.
func excludesRow(c, b *BasicMap, locals []int, q []Int) bool {
	nd := b.nDims()
	if c.nDims() != nd {
		return false
	}
	// t is q over c's columns.
	t := make([]Int, c.NumCols())
	copy(t, q[:nd])
	t[len(t)-1] = q[len(q)-1]
	for i, x := range q[nd : len(q)-1] {
		if x.IsZero() {
			continue
		}
		if locals[i] < 0 {
			return false
		}
		t[nd+locals[i]] = x
	}
	n := len(t) - 1
	t0 := t[n]
	// sign returns s with p = s*t on the variables, or 0.
	sign := func(p []Int) int {
		same, opp, zero := true, true, true
		for j := range n {
			if !p[j].Equal(t[j]) {
				same = false
			}
			if !p[j].isNegOf(t[j]) {
				opp = false
			}
			if !t[j].IsZero() {
				zero = false
			}
			if !same && !opp {
				return 0
			}
		}
		switch {
		case zero: // q is a constant
			return 0
		case same:
			return 1
		}
		return -1
	}
	for _, p := range c.ineqs {
		// p·x >= 0 with p = -t on the variables: t's part is at most
		// p's constant, below -t0 if p0 + t0 < 0.
		if sign(p) == -1 && p[n].Add(t0).Sign() < 0 {
			return true
		}
	}
	for _, p := range c.eqs {
		// p = s*t on the variables: t's part is -s*p0, and t·x >= 0
		// fails if t0 - s*p0 < 0.
		switch sign(p) {
		case 1:
			if t0.Sub(p[n]).Sign() < 0 {
				return true
			}
		case -1:
			if t0.Add(p[n]).Sign() < 0 {
				return true
			}
		}
	}
	return false
}

// sameLocals returns, for each local of b, the index of a local of c (a
// conjunction of b's space) with the same definition, an integer division
// of the same affine function of the dimensions alone by the same
// denominator, or -1.
func sameLocals(c, b *BasicMap) []int {
	nd := b.nDims()
	out := make([]int, len(b.divs))
	for i, d := range b.divs {
		out[i] = -1
		if d.Den.IsZero() || c.nDims() != nd || !onDims(d.Num, nd) {
			continue
		}
		for j, e := range c.divs {
			if e.Den.Equal(d.Den) && onDims(e.Num, nd) && e.Num[len(e.Num)-1].Equal(d.Num[len(d.Num)-1]) && intsEqual(e.Num[:nd], d.Num[:nd]) {
				out[i] = j
				break
			}
		}
	}
	return out
}

// onDims reports whether the row has no local variable's coefficient.
func onDims(row []Int, nd int) bool {
	for _, x := range row[nd : len(row)-1] {
		if !x.IsZero() {
			return false
		}
	}
	return true
}

// impliesRow reports whether one constraint of the conjunction c, as it
// stands, implies row·x >= 0, for a row over the columns of b, a
// conjunction of c's space: a row and a constraint of c that involve no
// local variable and differ only in the constant, c's the stronger (an
// equality either way round). Then row's negation contradicts c, which
// an emptiness test would find at far greater cost: the gist of a
// relation restricted to its context, whose conjunctions repeat the
// context's constraints, asks that question of every one of them.
func impliesRow(c, b *BasicMap, row []Int) bool {
	nd := b.nDims()
	if c.nDims() != nd {
		return false
	}
	for _, x := range row[nd : len(row)-1] {
		if !x.IsZero() {
			return false
		}
	}
	k := row[len(row)-1]
	// match returns the sign s with q = s*row on the dimensions, or 0.
	match := func(q []Int) int {
		for _, x := range q[nd : len(q)-1] {
			if !x.IsZero() {
				return 0
			}
		}
		same, opp := true, true
		for j := range nd {
			if !q[j].Equal(row[j]) {
				same = false
			}
			if !q[j].isNegOf(row[j]) {
				opp = false
			}
			if !same && !opp {
				return 0
			}
		}
		if same {
			return 1
		}
		return -1
	}
	for _, q := range c.ineqs {
		// q·x >= 0 with q = row but for a constant no greater.
		if match(q) == 1 && q[len(q)-1].Cmp(k) <= 0 {
			return true
		}
	}
	for _, q := range c.eqs {
		// s*q·x = 0 makes row·x the difference of the constants.
		switch match(q) {
		case 1:
			if q[len(q)-1].Cmp(k) <= 0 {
				return true
			}
		case -1:
			if q[len(q)-1].Neg().Cmp(k) <= 0 {
				return true
			}
		}
	}
	return false
}

// gistRebuild returns a conjunction with b's space and locals and the
// given constraint rows (over b's columns).
func gistRebuild(b *BasicMap, eqs, ineqs [][]Int) *BasicMap {
	n := NewBasicMap(b.Space())
	for i := 0; i < b.NumLocals(); i++ {
		num, den := b.Local(i)
		if den.IsZero() {
			n.AddExistential()
			continue
		}
		w := n.NumCols()
		row := make([]Int, w)
		copy(row, num[:w-1])
		row[w-1] = num[len(num)-1]
		n.AddLocalDiv(row, den)
	}
	for _, e := range eqs {
		n.AddEq(e)
	}
	for _, r := range ineqs {
		n.AddIneq(r)
	}
	return n
}

// GistCover is Gist with a weaker test for dropping a constraint, for
// relations of several conjunctions: a constraint of a gisted conjunction
// is dropped when the points it then adds within the context all belong
// to s, not only when there are none. The result r still satisfies
//
//	r ∩ c = s ∩ c
//
// since every conjunction of s is within c contained in r, and every
// point r adds within c is in s. Where c has several conjunctions (the
// pieces of a min), Gist keeps, in each conjunction of s, the constraints
// that tell c's pieces apart, which the conjunctions of s together need
// not: s = {x : x < a and a <= b} ∪ {x : x < a and b < a} under
// c = {: a <= b or b < a} is {x : x < a} there.
//
// The conjunctions of s are taken in order, each gisted only when it is
// not contained in the union of those already done (their widened
// conjunctions contain it: it is left out). Where c's pieces split s's,
// the first conjunction of each kind widened usually contains the others
// of its kind, which then cost one inclusion test instead of a gist and
// the tests of its constraints. The points a dropped constraint adds are
// tested against the conjunctions done, the one at hand gisted and the
// others of s as they are: the same points as s within c. Every test is
// an exact integer emptiness test, counted against the budget of ctx.
func GistCover(ctx context.Context, s, c *Map) (_ *Map, err error) {
	defer lxRecover("gist", &err)
	if s.NumBasics() < 2 {
		return Gist(ctx, s, c)
	}
	cm, err := gistLift(s, c)
	if err != nil {
		return nil, err
	}
	if !sameStrings(s.Space().Params, cm.Space().Params) {
		return Gist(ctx, s, c)
	}
	sp := s.Space()
	cbs := cm.Basics()
	ci := &contextImplies{cbs: cbs, known: map[string]bool{}}
	// within holds, for the conjunction at hand, out, its gisted form and
	// the conjunctions of s after it: the same points as s within c.
	var within *Map
	// covered reports whether the points of the conjunction with the
	// given constraints and extra within c all belong to within. The
	// conjunctions of c that the constraints exclude by themselves
	// (ex) add no point.
	covered := func(b *BasicMap, ex rowExclusions, eqs, ineqs [][]Int, extra []Int) (bool, error) {
		t := gistRebuild(b, eqs, ineqs)
		t.AddIneq(extra)
		var meet []*BasicMap
		for k, c := range cbs {
			if !ex.excluded(k, eqs, ineqs) {
				meet = append(meet, c)
			}
		}
		x, err := NewMap(sp, t).Intersect(NewMap(cm.Space(), meet...))
		if err != nil {
			return false, err
		}
		d, err := x.Subtract(ctx, within)
		if err != nil {
			return false, err
		}
		return d.IsEmpty(ctx)
	}
	sbs := s.Basics()
	var out []*BasicMap
	for k, sb := range sbs {
		if len(out) > 0 {
			in, err := NewMap(sp, sb).IsSubset(ctx, NewMap(sp, out...))
			if err != nil && !errors.Is(err, ErrBudget) {
				return nil, fmt.Errorf("gist: %w", err)
			}
			if err == nil && in {
				continue
			}
		}
		b, keep, err := gistBasic(ctx, sb, cbs, ci)
		if err != nil {
			return nil, fmt.Errorf("gist: %w", err)
		}
		if !keep {
			continue
		}
		eqs, ineqs := b.Eqs(), b.Ineqs()
		if len(eqs) == 0 && len(ineqs) == 0 && b.NumLocals() == 0 {
			// A conjunction without constraints covers everything.
			return NewMap(sp, b), nil
		}
		ws := append(append(append([]*BasicMap(nil), out...), b), sbs[k+1:]...)
		within = NewMap(sp, ws...)
		ex := newRowExclusions(cbs, b, eqs, ineqs)
		for i := 0; i < len(ineqs); {
			rest := append(append([][]Int(nil), ineqs[:i]...), ineqs[i+1:]...)
			ok, err := covered(b, ex, eqs, rest, negRowMinusOne(ineqs[i]))
			if err != nil {
				return nil, fmt.Errorf("gist: %w", err)
			}
			if ok {
				ineqs = rest
				continue
			}
			i++
		}
		for i := 0; i < len(eqs); {
			rest := append(append([][]Int(nil), eqs[:i]...), eqs[i+1:]...)
			ok, err := covered(b, ex, rest, ineqs, negRowMinusOne(eqs[i]))
			if err == nil && ok {
				ok, err = covered(b, ex, rest, ineqs, negRowMinusOne(negRow(eqs[i])))
			}
			if err != nil {
				return nil, fmt.Errorf("gist: %w", err)
			}
			if ok {
				eqs = rest
				continue
			}
			i++
		}
		// The divisions only the dropped constraints used go too (a
		// division is a total function: the same points).
		w := gistRebuild(b, eqs, ineqs)
		w.removeUnusedLocals()
		out = append(out, w)
	}
	return NewMap(sp, out...), nil
}
