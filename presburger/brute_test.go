package presburger

import (
	"math/rand"
	"os"
	"strconv"
	"testing"
)

// This file holds the brute-force oracle shared by the property tests:
// random small conjunctions whose variables (parameters, dimensions and
// plain existentials) are all bounded by explicit constraints, so that
// enumeration over a box is exact.

const boxB = 4 // dimensions and parameters range over [-boxB, boxB]
const boxE = 8 // plain existentials range over [-boxE, boxE]

// propCount returns n, reduced under -short and scaled by PRESBURGER_SWEEP.
func propCount(n int) int {
	if s := os.Getenv("PRESBURGER_SWEEP"); s != "" {
		if k, err := strconv.Atoi(s); err == nil && k > 0 {
			return n * k
		}
	}
	if testing.Short() {
		return n / 5
	}
	return n
}

// evalRow returns row·vals (vals has one entry per column but the constant).
func evalRow(row []Int, vals []Int) Int {
	s := row[len(row)-1]
	for i, v := range vals {
		if !row[i].IsZero() {
			s = s.Add(row[i].Mul(v))
		}
	}
	return s
}

// bruteContains decides whether the point (params, in, out) is in b by
// evaluating divisions and enumerating plain existentials over [-boxE, boxE].
func bruteContains(b *BasicMap, point []Int) bool {
	if b.empty {
		return false
	}
	nd := b.nDims()
	vals := make([]Int, b.nVars())
	copy(vals, point[:nd])
	var rec func(l int) bool
	rec = func(l int) bool {
		if l == len(b.divs) {
			for _, e := range b.eqs {
				if !evalRow(e, vals).IsZero() {
					return false
				}
			}
			for _, e := range b.ineqs {
				if evalRow(e, vals).Sign() < 0 {
					return false
				}
			}
			return true
		}
		d := b.divs[l]
		if !d.Den.IsZero() {
			vals[nd+l] = evalRow(d.Num, vals).FloorDiv(d.Den)
			return rec(l + 1)
		}
		for v := -boxE; v <= boxE; v++ {
			vals[nd+l] = NewInt(int64(v))
			if rec(l + 1) {
				return true
			}
		}
		return false
	}
	return rec(0)
}

func bruteMapContains(m *Map, point []Int) bool {
	for _, b := range m.basics {
		if bruteContains(b, point) {
			return true
		}
	}
	return false
}

// forBox calls f on every point of [-r, r]^n.
func forBox(n, r int, f func(p []Int) bool) {
	p := make([]Int, n)
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == n {
			return f(p)
		}
		for v := -r; v <= r; v++ {
			p[i] = NewInt(int64(v))
			if !rec(i + 1) {
				return false
			}
		}
		return true
	}
	rec(0)
}

// randGen draws the random relations of the property tests.
type randGen struct{ r *rand.Rand }

// newRandGen returns a generator seeded with seed: every run of a test
// draws the same cases.
func newRandGen(seed int64) randGen { return randGen{rand.New(rand.NewSource(seed))} }

func (g randGen) coef(k int) Int { return NewInt(int64(g.r.Intn(2*k+1) - k)) }

// randBasic returns a random conjunction in sp whose dims and params are
// boxed to [-boxB, boxB], with up to nc random constraints, up to one
// division and up to one boxed plain existential.
func (g randGen) randBasic(sp Space, nc int) *BasicMap {
	b := NewBasicMap(sp)
	nd := b.nDims()
	for c := 0; c < nd; c++ {
		addBox(b, c, boxB)
	}
	if g.r.Intn(3) == 0 {
		num := make([]Int, b.NumCols())
		for c := 0; c < nd; c++ {
			num[c] = g.coef(2)
		}
		num[len(num)-1] = g.coef(3)
		b.AddLocalDiv(num, NewInt(int64(2+g.r.Intn(3))))
	}
	if g.r.Intn(3) == 0 {
		l := b.AddExistential()
		addBox(b, b.locCol(l), boxE)
	}
	g.addRandRows(b, 1+g.r.Intn(nc), 6)
	return b
}

// addRandRows adds n random constraints to b over all its columns, with
// coefficients in [-3, 3] (each column at even odds) and a constant in
// [-5, 5]; one in eqOneIn is an equality, the others inequalities.
func (g randGen) addRandRows(b *BasicMap, n, eqOneIn int) {
	for k := 0; k < n; k++ {
		w := b.NumCols()
		row := make([]Int, w)
		for c := 0; c < w-1; c++ {
			if g.r.Intn(2) == 0 {
				row[c] = g.coef(3)
			}
		}
		row[w-1] = g.coef(5)
		if g.r.Intn(eqOneIn) == 0 {
			b.AddEq(row)
		} else {
			b.AddIneq(row)
		}
	}
}

func (g randGen) randMap(sp Space, pieces, nc int) *Map {
	n := 1 + g.r.Intn(pieces)
	bs := make([]*BasicMap, n)
	for i := range bs {
		bs[i] = g.randBasic(sp, nc)
	}
	return NewMap(sp, bs...)
}

func (g randGen) randSetSpace(params []string) Space {
	d := 1 + g.r.Intn(2)
	dims := make([]string, d)
	for i := range dims {
		dims[i] = "x" + strconv.Itoa(i)
	}
	return SetSpace(params, FlatTuple("S", dims...))
}

func TestEmptinessBrute(t *testing.T) {
	g := newRandGen(1)
	ctx := t.Context()
	n := propCount(3000)
	nonempty := 0
	for it := 0; it < n; it++ {
		params := []string{"N"}[:g.r.Intn(2)]
		sp := g.randSetSpace(params)
		b := g.randBasic(sp, 4)
		want := false
		forBox(b.nDims(), boxB, func(p []Int) bool {
			if bruteContains(b, p) {
				want = true
				return false
			}
			return true
		})
		got, err := b.IsEmpty(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// The Omega test alone and branch and bound alone must agree too.
		eqs, ineqs := b.flatRows()
		feas, err := omegaOnly(newMeter(ctx), eqs, ineqs, b.nVars())
		if err != nil || feas != want {
			t.Fatalf("case %d: Omega test alone says feasible=%v (%v), brute force %v\n%v", it, feas, err, want, dumpBasic(b))
		}
		if r, err := branchAndBound(newMeter(ctx), eqs, ineqs, b.nVars(), 1000); err != nil || (r == bbFeasible) != want && r != bbUnknown {
			t.Fatalf("case %d: branch and bound says %v (%v), brute force %v\n%v", it, r, err, want, dumpBasic(b))
		}
		if got == want {
			t.Fatalf("case %d: IsEmpty = %v, brute force nonempty = %v\n%v", it, got, want, dumpBasic(b))
		}
		if want {
			nonempty++
			pt, err := b.Sample(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if pt == nil || !bruteContains(b, pt) {
				t.Fatalf("case %d: Sample = %v not in set\n%v", it, pt, dumpBasic(b))
			}
		}
	}
	t.Logf("%d cases, %d nonempty", n, nonempty)
}

func dumpBasic(b *BasicMap) string {
	s := "eqs:\n"
	for _, r := range b.eqs {
		s += "  " + rowKey(r) + "\n"
	}
	s += "ineqs:\n"
	for _, r := range b.ineqs {
		s += "  " + rowKey(r) + "\n"
	}
	for i, d := range b.divs {
		if d.Num != nil {
			s += "div " + strconv.Itoa(i) + ": floor(" + rowKey(d.Num) + "/" + d.Den.String() + ")\n"
		} else {
			s += "exists " + strconv.Itoa(i) + "\n"
		}
	}
	return s
}

// addBox bounds column col of b to [-r, r] with two inequalities.
func addBox(b *BasicMap, col, r int) {
	w := b.NumCols()
	lo, hi := make([]Int, w), make([]Int, w)
	lo[col], lo[w-1] = NewInt(1), NewInt(int64(r))
	hi[col], hi[w-1] = NewInt(-1), NewInt(int64(r))
	b.AddIneq(lo)
	b.AddIneq(hi)
}
