package presburger

import (
	"context"
	"fmt"
)

// This file turns every plain existential of a conjunction into explicit
// integer divisions, exactly, so that the conjunction can be negated
// (Subtract, Complement). The method follows the Omega test's exact
// projection:
//
//   - an existential with a unit coefficient in an equality is substituted;
//   - an existential l that is the only existential of an equality
//     a·l + r = 0 becomes the division floor(-r/a) (the equality, kept,
//     then expresses that a divides r: a stride constraint);
//   - an equality between several existentials, none with a unit
//     coefficient, is reduced with Pugh's mod-hat variable;
//   - an existential bounded on one side only is dropped with its bounds;
//   - an existential with unit coefficients on all its lower (or upper)
//     bounds is eliminated by Fourier-Motzkin, which is then exact;
//   - otherwise, any solution has l equal to the largest of its lower
//     bounds rounded up, ceil(L_i/a_i), for some i: the conjunction splits
//     into one piece per lower bound where l is that division (upper bounds
//     are used instead when there are fewer). When those bounds involve
//     another existential, l is eliminated by Pugh's exact projection
//     instead (darkSplinters): the dark shadow, and splinters where a lower
//     bound is pinned to each value of a band, an equality handled as
//     above.

// ExplicitDivs returns a union of conjunctions, equal to b as a set of
// points, in which every local is a division with an explicit definition.
func (b *BasicMap) ExplicitDivs(ctx context.Context) ([]*BasicMap, error) {
	return b.explicitDivs(newMeter(ctx))
}

func (b *BasicMap) hasPlainLocals() bool {
	for _, d := range b.divs {
		if d.Den.IsZero() {
			return true
		}
	}
	return false
}

func (b *BasicMap) explicitDivs(m *meter) ([]*BasicMap, error) {
	if !b.hasPlainLocals() {
		c := b.Copy()
		if !c.normalize() {
			return nil, nil
		}
		return []*BasicMap{c}, nil
	}
	var out []*BasicMap
	work := []*BasicMap{b.Copy()}
	for len(work) > 0 {
		if err := m.step(); err != nil {
			return nil, fmt.Errorf("eliminating existentials: %w", err)
		}
		if err := m.checkDisjuncts(len(work) + len(out)); err != nil {
			return nil, fmt.Errorf("eliminating existentials: %w", err)
		}
		c := work[len(work)-1]
		work = work[:len(work)-1]
		if !c.normalize() {
			continue
		}
		if !c.hasPlainLocals() {
			out = append(out, c)
			continue
		}
		if c.boundedDivs() {
			work = append(work, c)
			continue
		}
		pieces, err := c.elimStep(m)
		if err != nil {
			return nil, err
		}
		work = append(work, pieces...)
	}
	return out, nil
}

// plainIn reports the plain locals with a nonzero coefficient in row r.
func (b *BasicMap) plainIn(r []Int) []int {
	var ls []int
	for l, d := range b.divs {
		if d.Den.IsZero() && !r[b.locCol(l)].IsZero() {
			ls = append(ls, l)
		}
	}
	return ls
}

// replaceByDiv makes plain local l equal to the new division floor(num/den)
// and removes l. num must not refer to plain locals.
func (b *BasicMap) replaceByDiv(l int, num []Int, den Int) {
	q := b.AddLocalDiv(num, den)
	cl, cq := b.locCol(l), b.locCol(q)
	move := func(r []Int) {
		if !r[cl].IsZero() {
			r[cq] = r[cq].Add(r[cl])
			r[cl] = Int{}
		}
	}
	for _, r := range b.eqs {
		move(r)
	}
	for _, r := range b.ineqs {
		move(r)
	}
	b.removeLocal(l)
}

// elimStep performs one elimination step on a normalised conjunction with
// at least one plain local and returns the resulting pieces: the
// equality steps when an equality mentions a plain local, otherwise the
// inequality steps on the best candidate local (dropping it when bounded
// on one side, exact Fourier-Motzkin, or a split on its bounds).
func (b *BasicMap) elimStep(m *meter) ([]*BasicMap, error) {
	if b.elimEqualityLocal() {
		return []*BasicMap{b}, nil
	}
	cands, dropped := b.elimCandidates()
	if dropped {
		return []*BasicMap{b}, nil
	}
	if cd, ok := bestExactCandidate(cands); ok {
		if err := b.fourierMotzkinLocal(m, cd); err != nil {
			return nil, err
		}
		return []*BasicMap{b}, nil
	}
	return b.splitOnAttainedBound(m, cands)
}

// elimEqualityLocal performs the equality step on the first equality that
// mentions plain locals, and reports whether there was one. A single plain
// local l in a·l + r = 0 becomes the division floor(-r/a) (the equality,
// kept, then says that a divides r). Several plain locals, none with a
// unit coefficient (normalize substitutes those), are reduced by Pugh's
// mod-hat variable on the one with the smallest coefficient.
func (b *BasicMap) elimEqualityLocal() bool {
	for ei, e := range b.eqs {
		ls := b.plainIn(e)
		if len(ls) == 0 {
			continue
		}
		if len(ls) == 1 {
			l := ls[0]
			c := b.locCol(l)
			row := e
			if row[c].Sign() < 0 {
				row = negRow(row)
			}
			a := row[c]
			num := negRow(row)
			num[c] = Int{}
			b.replaceByDiv(l, num, a)
			return true
		}
		best := ls[0]
		for _, l := range ls[1:] {
			if e[b.locCol(l)].Abs().Cmp(e[b.locCol(best)].Abs()) < 0 {
				best = l
			}
		}
		mm := e[b.locCol(best)].Abs().Add(NewInt(1))
		s := b.AddExistential()
		e = b.eqs[ei]
		ne := make([]Int, len(e))
		for i := range e {
			ne[i] = modHat(e[i], mm)
		}
		ne[b.locCol(s)] = mm.Neg()
		// ne has coefficient ±1 on best: substitute best everywhere.
		b.substituteLocal(best, ne)
		b.removeLocal(best)
		return true
	}
	return false
}

// elimCand describes a plain local l that occurs in inequalities only:
// the indices of its lower and upper bound rows, whether Fourier-Motzkin
// is exact on it (unit coefficients on all its lower or all its upper
// bounds), and whether its lower (upper) bounds mention no other plain
// local.
type elimCand struct {
	l         int
	lows, ups []int
	exact     bool
	cleanLow  bool
	cleanUp   bool
}

// elimCandidates describes every plain local (none occurs in an
// equality). A local bounded on one side only (or unused) is instead
// dropped with its bounds at once, and dropped is then true.
func (b *BasicMap) elimCandidates() (cands []elimCand, dropped bool) {
	for l, d := range b.divs {
		if !d.Den.IsZero() {
			continue
		}
		c := b.locCol(l)
		cd := elimCand{l: l, cleanLow: true, cleanUp: true}
		lowUnit, upUnit := true, true
		for i, r := range b.ineqs {
			switch r[c].Sign() {
			case 1:
				cd.lows = append(cd.lows, i)
				lowUnit = lowUnit && r[c].IsOne()
				cd.cleanLow = cd.cleanLow && len(b.plainIn(r)) == 1
			case -1:
				cd.ups = append(cd.ups, i)
				upUnit = upUnit && r[c].Neg().IsOne()
				cd.cleanUp = cd.cleanUp && len(b.plainIn(r)) == 1
			}
		}
		if len(cd.lows) == 0 || len(cd.ups) == 0 {
			keep := b.ineqs[:0:0]
			for _, r := range b.ineqs {
				if r[c].IsZero() {
					keep = append(keep, r)
				}
			}
			b.ineqs = keep
			b.removeLocal(l)
			return nil, true
		}
		cd.exact = lowUnit || upUnit
		cands = append(cands, cd)
	}
	return cands, false
}

// bestExactCandidate returns the candidate on which Fourier-Motzkin is
// exact and creates the fewest rows, if any.
func bestExactCandidate(cands []elimCand) (elimCand, bool) {
	bestI := -1
	for i, cd := range cands {
		if cd.exact && (bestI < 0 || len(cd.lows)*len(cd.ups) < len(cands[bestI].lows)*len(cands[bestI].ups)) {
			bestI = i
		}
	}
	if bestI < 0 {
		return elimCand{}, false
	}
	return cands[bestI], true
}

// fourierMotzkinLocal eliminates the candidate local cd, on which
// Fourier-Motzkin is exact: its bounds are replaced by their pairwise
// combinations.
func (b *BasicMap) fourierMotzkinLocal(m *meter, cd elimCand) error {
	c := b.locCol(cd.l)
	var rows [][]Int
	for _, r := range b.ineqs {
		if r[c].IsZero() {
			rows = append(rows, r)
		}
	}
	for _, li := range cd.lows {
		for _, ui := range cd.ups {
			lr, ur := b.ineqs[li], b.ineqs[ui]
			a, bb := lr[c], ur[c].Neg()
			r := make([]Int, len(lr))
			for k := range r {
				r[k] = bb.Mul(lr[k]).Add(a.Mul(ur[k]))
			}
			rows = append(rows, r)
		}
	}
	if err := m.checkConstraints(len(rows)); err != nil {
		return fmt.Errorf("eliminating existentials: %w", err)
	}
	b.ineqs = rows
	b.removeLocal(cd.l)
	return nil
}

// splitCost is the cost of splitting on the lower bounds of cd (on the
// upper bounds if not low): their number, plus a penalty when they
// mention another plain local.
func (cd elimCand) splitCost(low bool) int {
	n := len(cd.ups)
	clean := cd.cleanUp
	if low {
		n, clean = len(cd.lows), cd.cleanLow
	}
	if !clean {
		n += 1000
	}
	return n
}

// splitOnAttainedBound splits the conjunction on the lower (or upper)
// bound of a candidate local that is attained, choosing the side of the
// cheapest split. When the bounds of that side mention no other plain
// local, each piece makes the local the division equal to one bound
// (rounded), within a band of width a; otherwise the local is eliminated
// by darkSplinters.
func (b *BasicMap) splitOnAttainedBound(m *meter, cands []elimCand) ([]*BasicMap, error) {
	pick, useLow := -1, true
	bestScore := 0
	for i, cd := range cands {
		for _, low := range []bool{true, false} {
			if s := cd.splitCost(low); pick < 0 || s < bestScore {
				pick, useLow, bestScore = i, low, s
			}
		}
	}
	cd := cands[pick]
	c := b.locCol(cd.l)
	bounds := cd.ups
	clean := cd.cleanUp
	if useLow {
		bounds, clean = cd.lows, cd.cleanLow
	}
	if !clean {
		return b.darkSplinters(m, cd.l, cd.lows, cd.ups)
	}
	var pieces []*BasicMap
	for _, bi := range bounds {
		if err := m.step(); err != nil {
			return nil, fmt.Errorf("eliminating existentials: %w", err)
		}
		r := b.ineqs[bi]
		// Lower bound a·l + rest >= 0 attained at l = ceil(-rest/a)
		//   = floor((-rest + a - 1)/a); band: a·l + rest <= a - 1.
		// Upper bound -a·l + rest >= 0 attained at l = floor(rest/a);
		//   band: rest - a·l <= a - 1.
		a := r[c].Abs()
		p := b.Copy()
		band := negRow(r)
		k := len(band) - 1
		band[k] = band[k].Add(a).Sub(NewInt(1))
		p.ineqs = append(p.ineqs, band)
		var num []Int
		if useLow {
			num = negRow(r)
			num[k] = num[k].Add(a).Sub(NewInt(1))
		} else {
			num = copyRow(r)
		}
		num[c] = Int{}
		p.replaceByDiv(cd.l, num, a)
		pieces = append(pieces, p)
	}
	return pieces, nil
}

// darkSplinters eliminates plain local l (which occurs in no equality) by
// Pugh's exact projection: the dark shadow, a conjunction without l whose
// integer points all have an integer l, together with the splinters, where
// a lower bound a·l >= L is pinned to a·l = L + i for
// 0 <= i <= (cmax·a - cmax - a)/cmax (cmax the largest upper coefficient).
// Every integer point of the projection lies in the dark shadow or in the
// projection of a splinter; empty pieces are dropped.
func (b *BasicMap) darkSplinters(m *meter, l int, lows, ups []int) ([]*BasicMap, error) {
	c := b.locCol(l)
	k := b.NumCols() - 1
	one := NewInt(1)
	keep := func(p *BasicMap, out []*BasicMap) ([]*BasicMap, error) {
		if !p.normalize() {
			return out, nil
		}
		empty, err := p.isEmpty(m)
		if err != nil {
			return nil, fmt.Errorf("eliminating existentials: %w", err)
		}
		if !empty {
			out = append(out, p)
		}
		return out, nil
	}
	dark := b.Copy()
	var rows [][]Int
	for _, r := range b.ineqs {
		if r[c].IsZero() {
			rows = append(rows, r)
		}
	}
	cmax := Int{}
	for _, ui := range ups {
		if v := b.ineqs[ui][c].Neg(); v.Cmp(cmax) > 0 {
			cmax = v
		}
	}
	for _, li := range lows {
		for _, ui := range ups {
			lr, ur := b.ineqs[li], b.ineqs[ui]
			a, bb := lr[c], ur[c].Neg()
			r := make([]Int, len(lr))
			for j := range r {
				r[j] = bb.Mul(lr[j]).Add(a.Mul(ur[j]))
			}
			r[k] = r[k].Sub(a.Sub(one).Mul(bb.Sub(one)))
			rows = append(rows, r)
		}
	}
	if err := m.checkConstraints(len(rows)); err != nil {
		return nil, fmt.Errorf("eliminating existentials: %w", err)
	}
	dark.ineqs = rows
	dark.removeLocal(l)
	out, err := keep(dark, nil)
	if err != nil {
		return nil, err
	}
	for _, li := range lows {
		lr := b.ineqs[li]
		a := lr[c]
		hi := cmax.Mul(a).Sub(cmax).Sub(a).FloorDiv(cmax)
		for i := NewInt(0); i.Cmp(hi) <= 0; i = i.Add(one) {
			if err := m.step(); err != nil {
				return nil, fmt.Errorf("eliminating existentials: %w", err)
			}
			q := b.Copy()
			e := copyRow(lr)
			e[k] = e[k].Sub(i)
			q.eqs = append(q.eqs, e)
			if out, err = keep(q, out); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// boundedDivs turns into divisions the plain locals that their bounds
// determine, as a tile index is by the point it contains, and reports
// whether it changed b. A plain local l that no equality mentions, with
// two inequalities
//
//	r - k·l >= 0  and  k·l - r + c >= 0,  0 <= c < k,
//
// where r is over the dimensions, the divisions and the constant only, is
// the division floor(r/k): those rows say k·l <= r <= k·l + c <= k·l + k-1,
// which the one integer floor(r/k) satisfies and no other. So b's points
// are those of b with l replaced by that division (every row kept): the
// rewrite is exact. Once l is a division, a local whose bounds mention l
// can be one in turn, hence the loop. Without it, elimination would
// splinter on such bounds (one piece per value of the point in its tile).
//
// Only explicitDivs calls it, for subtraction and the subset test, so that
// the conjunctions of other operations do not change.
func (b *BasicMap) boundedDivs() bool {
	changed := false
	for found := true; found; {
		found = false
		for l, d := range b.divs {
			if !d.Den.IsZero() || b.inEquality(l) || b.inDivision(l) {
				continue
			}
			if num, den, ok := b.divFromBounds(l); ok {
				b.replaceByDiv(l, num, den)
				found, changed = true, true
				break
			}
		}
	}
	return changed
}

// inEquality reports whether local l has a nonzero coefficient in an
// equality of b.
func (b *BasicMap) inEquality(l int) bool {
	cl := b.locCol(l)
	for _, e := range b.eqs {
		if !e[cl].IsZero() {
			return true
		}
	}
	return false
}

// inDivision reports whether local l appears in the definition of a
// division of b: replaceByDiv moves l's coefficients in the rows only, so
// boundedDivs leaves such a local to elimination.
func (b *BasicMap) inDivision(l int) bool {
	cl := b.locCol(l)
	for _, d := range b.divs {
		if d.Num != nil && !d.Num[cl].IsZero() {
			return true
		}
	}
	return false
}

// divFromBounds finds two inequalities of b that make plain local l the
// division floor(num/den) (see boundedDivs); num is the first row without
// its l term, over b's columns.
func (b *BasicMap) divFromBounds(l int) (num []Int, den Int, ok bool) {
	cl := b.locCol(l)
	w := b.NumCols()
	for _, lo := range b.ineqs {
		k := lo[cl].Neg()
		if k.Sign() <= 0 || len(b.plainIn(lo)) != 1 {
			continue
		}
		for _, hi := range b.ineqs {
			if !hi[cl].Equal(k) {
				continue
			}
			// hi must be -lo + c: opposite in every column but the constant.
			opposite := true
			for j := 0; j < w-1; j++ {
				if !hi[j].isNegOf(lo[j]) {
					opposite = false
					break
				}
			}
			if !opposite {
				continue
			}
			c := hi[w-1].Add(lo[w-1])
			if c.Sign() < 0 || c.Cmp(k) >= 0 {
				continue
			}
			num = copyRow(lo)
			num[cl] = Int{}
			return num, k, true
		}
	}
	return nil, Int{}, false
}
