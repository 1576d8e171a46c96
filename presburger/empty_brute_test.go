package presburger

import (
	"context"
	"math/rand"
	"testing"
)

// This file checks the emptiness test on conjunctions that look like the
// ones the tiling and scheduling code produces: two parameters, two
// dimensions and two or three floor divisions with small denominators,
// with constraints that couple the divisions to each other and to the
// dimensions. Every parameter and dimension is bounded explicitly, and a
// division is a function of them, so enumerating the box decides
// emptiness exactly. The Omega test alone, the Omega test with its
// branch-and-bound shortcut, plain branch and bound and Sample must all
// agree with the enumeration.

const divBox = 3 // parameters and dimensions range over [-divBox, divBox]

// divCase is a random conjunction over [N, M, x0, x1, q0, q1 (, q2)] with
// q_k = floor(num_k / den_k).
type divCase struct {
	nd    int // parameters and dimensions
	nums  [][]int64
	dens  []int64
	ineqs [][]int64 // over nd + len(dens) variables, then the constant
	eqs   [][]int64
}

func (c *divCase) nv() int { return c.nd + len(c.dens) }

// randDivCase builds a case. Constraints are drawn as random rows, half of
// them made to hold at a random anchor point so that both empty and
// non-empty cases are frequent; coefficients on a division are biased to
// multiples of its denominator (as in 2*q >= x), which couples it tightly
// with its numerator.
func randDivCase(r *rand.Rand) *divCase { return randDivCaseDens(r, 2, 2) }

// randDivCaseDens is randDivCase with the denominators drawn from
// [minDen, minDen+spread).
func randDivCaseDens(r *rand.Rand, minDen, spread int) *divCase {
	c := &divCase{nd: 4}
	nq := 2 + r.Intn(2)
	for k := 0; k < nq; k++ {
		num := make([]int64, c.nd+k+1)
		for i := 0; i < c.nd+k; i++ {
			if r.Intn(2) == 0 {
				num[i] = int64(r.Intn(5) - 2)
			}
		}
		num[len(num)-1] = int64(r.Intn(5) - 2)
		c.nums = append(c.nums, num)
		c.dens = append(c.dens, int64(minDen+r.Intn(spread)))
	}
	nv := c.nv()
	anchor := make([]int64, nv)
	for i := 0; i < c.nd; i++ {
		anchor[i] = int64(r.Intn(2*divBox+1) - divBox)
	}
	c.evalDivs(anchor)
	n := 4 + r.Intn(13)
	for k := 0; k < n; k++ {
		row := make([]int64, nv+1)
		for i := 0; i < nv; i++ {
			if r.Intn(5) < 2 {
				continue
			}
			if i >= c.nd && r.Intn(2) == 0 {
				row[i] = c.dens[i-c.nd] * int64(1-2*r.Intn(2))
			} else {
				row[i] = int64(r.Intn(5) - 2)
			}
		}
		row[nv] = int64(r.Intn(9) - 4)
		if r.Intn(2) == 0 {
			// Make the row hold at the anchor with a small slack.
			v := dot(row, anchor)
			row[nv] += -v + int64(r.Intn(3)) - row[nv]
		}
		if r.Intn(12) == 0 {
			row[nv] -= dot(row, anchor) // an equality through the anchor
			c.eqs = append(c.eqs, row)
		} else {
			c.ineqs = append(c.ineqs, row)
		}
	}
	return c
}

func dot(row, vals []int64) int64 {
	s := row[len(row)-1]
	for i, v := range vals {
		s += row[i] * v
	}
	return s
}

func floorDiv64(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// evalDivs fills the division values of vals from its first nd entries.
func (c *divCase) evalDivs(vals []int64) {
	for k, num := range c.nums {
		vals[c.nd+k] = floorDiv64(dot(num, vals[:c.nd+k]), c.dens[k])
	}
}

// holds reports whether the point (first nd entries of vals) is in the
// boxed set.
func (c *divCase) holds(vals []int64) bool {
	for i := 0; i < c.nd; i++ {
		if vals[i] < -divBox || vals[i] > divBox {
			return false
		}
	}
	return c.holdsOpen(vals)
}

// holdsOpen reports whether the point is in the set without the box.
func (c *divCase) holdsOpen(vals []int64) bool {
	c.evalDivs(vals)
	for _, e := range c.eqs {
		if dot(e, vals) != 0 {
			return false
		}
	}
	for _, e := range c.ineqs {
		if dot(e, vals) < 0 {
			return false
		}
	}
	return true
}

// bruteNonEmpty enumerates the box.
func (c *divCase) bruteNonEmpty() bool {
	vals := make([]int64, c.nv())
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == c.nd {
			return c.holds(vals)
		}
		for v := int64(-divBox); v <= divBox; v++ {
			vals[i] = v
			if rec(i + 1) {
				return true
			}
		}
		return false
	}
	return rec(0)
}

func intRow(r []int64) []Int {
	out := make([]Int, len(r))
	for i, v := range r {
		out[i] = NewInt(v)
	}
	return out
}

// basic builds the case as a BasicMap [N, M] -> { S[x0, x1] : ... },
// with the box constraints unless open.
func (c *divCase) basic(open bool) *BasicMap {
	b := NewBasicMap(SetSpace([]string{"N", "M"}, FlatTuple("S", "x0", "x1")))
	for k, num := range c.nums {
		b.AddLocalDiv(intRow(num), NewInt(c.dens[k]))
	}
	for i := 0; i < c.nd && !open; i++ {
		addBox(b, i, divBox)
	}
	for _, e := range c.eqs {
		b.AddEq(intRow(e))
	}
	for _, e := range c.ineqs {
		b.AddIneq(intRow(e))
	}
	return b
}

func TestEmptinessDivsBrute(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	ctx := context.Background()
	n := propCount(600)
	small := WithBudget(ctx, Budget{MaxSteps: 1000})
	bounded := WithBudget(ctx, Budget{MaxSteps: 200000})
	nonempty, omegaCapped, quick := 0, 0, 0
	for it := 0; it < n; it++ {
		c := randDivCase(r)
		want := c.bruteNonEmpty()
		b := c.basic(false)
		empty, err := b.IsEmpty(bounded)
		if err != nil {
			t.Fatalf("case %d: %v\n%v", it, err, dumpBasic(b))
		}
		if empty == want {
			t.Fatalf("case %d: IsEmpty = %v, enumeration finds a point: %v\n%v", it, empty, want, dumpBasic(b))
		}
		eqs, ineqs := b.flatRows()
		// Without the shortcut the Omega test may splinter for long on
		// these boxes; it runs under a budget and must be right whenever
		// it answers.
		switch feas, err := omegaOnly(newMeter(small), eqs, ineqs, b.nVars()); {
		case errorsIs(err, ErrBudget):
			omegaCapped++
		case err != nil || feas != want:
			t.Fatalf("case %d: Omega test alone says feasible=%v (%v), enumeration %v\n%v", it, feas, err, want, dumpBasic(b))
		}
		if res, err := branchAndBound(newMeter(ctx), eqs, ineqs, b.nVars(), 2000); err != nil || res != bbUnknown && (res == bbFeasible) != want {
			t.Fatalf("case %d: branch and bound says %v (%v), enumeration %v\n%v", it, res, err, want, dumpBasic(b))
		}
		anyPt, err := b.SampleAny(bounded)
		if err != nil {
			t.Fatalf("case %d: SampleAny: %v", it, err)
		}
		if (anyPt != nil) != want {
			t.Fatalf("case %d: SampleAny = %v, enumeration finds a point: %v\n%v", it, anyPt, want, dumpBasic(b))
		}
		if anyPt != nil && !c.holds(int64s(t, anyPt, c.nv())) {
			t.Fatalf("case %d: SampleAny = %v not in the set\n%v", it, anyPt, dumpBasic(b))
		}
		// A quick point, when there is one, is a point of the set.
		quickPt, err := b.SampleQuick(ctx, 4)
		if err != nil {
			t.Fatalf("case %d: SampleQuick: %v", it, err)
		}
		if quickPt != nil {
			if !want || !c.holds(int64s(t, quickPt, c.nv())) {
				t.Fatalf("case %d: SampleQuick = %v not in the set\n%v", it, quickPt, dumpBasic(b))
			}
			quick++
		}
		pt, err := b.Sample(bounded)
		if err != nil {
			t.Fatalf("case %d: Sample: %v", it, err)
		}
		if !want {
			if pt != nil {
				t.Fatalf("case %d: Sample = %v for an empty set\n%v", it, pt, dumpBasic(b))
			}
			continue
		}
		nonempty++
		vals := make([]int64, c.nv())
		for i := range pt {
			v, ok := pt[i].Int64()
			if !ok {
				t.Fatalf("case %d: Sample = %v out of range", it, pt)
			}
			vals[i] = v
		}
		if pt == nil || !c.holds(vals) {
			t.Fatalf("case %d: Sample = %v not in the set\n%v", it, pt, dumpBasic(b))
		}
	}
	if quick == 0 && nonempty > 0 {
		t.Errorf("SampleQuick found a point in none of the %d non-empty sets", nonempty)
	}
	t.Logf("%d cases, %d non-empty (%d with a quick point), Omega test alone over budget in %d", n, nonempty, quick, omegaCapped)
}

// TestEmptinessDivsOpen drops the box: the set may then be unbounded, and
// the variables bounded on one side only are exactly what the Omega
// test's pruning (one-sided variables, Chernikov's rule, box reduction)
// acts on. Enumeration of the box still shows some sets non-empty, and a
// non-empty answer must come with a Sample point that satisfies every
// constraint, so a wrong answer either way is caught (an empty set
// answered non-empty has no point for Sample to find).
func TestEmptinessDivsOpen(t *testing.T) {
	r := rand.New(rand.NewSource(12))
	ctx := context.Background()
	n := propCount(600)
	small := WithBudget(ctx, Budget{MaxSteps: 1000})
	bounded := WithBudget(ctx, Budget{MaxSteps: 200000})
	nonempty, omegaCapped := 0, 0
	for it := 0; it < n; it++ {
		c := randDivCase(r)
		inBox := c.bruteNonEmpty()
		b := c.basic(true)
		empty, err := b.IsEmpty(bounded)
		if err != nil {
			t.Fatalf("case %d: %v\n%v", it, err, dumpBasic(b))
		}
		if empty && inBox {
			t.Fatalf("case %d: IsEmpty = true, enumeration finds a point\n%v", it, dumpBasic(b))
		}
		eqs, ineqs := b.flatRows()
		switch feas, err := omegaOnly(newMeter(small), eqs, ineqs, b.nVars()); {
		case errorsIs(err, ErrBudget):
			omegaCapped++
		case err != nil || feas == empty:
			t.Fatalf("case %d: Omega test alone says feasible=%v (%v), IsEmpty %v\n%v", it, feas, err, empty, dumpBasic(b))
		}
		pt, err := b.Sample(bounded)
		if err != nil {
			t.Fatalf("case %d: Sample: %v\n%v", it, err, dumpBasic(b))
		}
		if empty {
			if pt != nil {
				t.Fatalf("case %d: Sample = %v for an empty set\n%v", it, pt, dumpBasic(b))
			}
			continue
		}
		nonempty++
		vals := make([]int64, c.nv())
		for i := range pt {
			v, ok := pt[i].Int64()
			if !ok || v > 1<<20 || v < -(1<<20) {
				t.Fatalf("case %d: Sample = %v out of range", it, pt)
			}
			vals[i] = v
		}
		if pt == nil || !c.holdsOpen(vals) {
			t.Fatalf("case %d: Sample = %v not in the set (IsEmpty = false)\n%v", it, pt, dumpBasic(b))
		}
	}
	t.Logf("%d cases, %d non-empty, Omega test alone over budget in %d", n, nonempty, omegaCapped)
}

// int64s returns the point's coordinates in a slice of length n (the
// rest zero), failing the test when one does not fit in an int64.
func int64s(t *testing.T, pt []Int, n int) []int64 {
	t.Helper()
	out := make([]int64, max(n, len(pt)))
	for i, v := range pt {
		x, ok := v.Int64()
		if !ok {
			t.Fatalf("point %v out of range", pt)
		}
		out[i] = x
	}
	return out
}
