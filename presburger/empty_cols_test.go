package presburger

import (
	"context"
	"math/rand"
	"testing"
)

// TestOmegaUnusedColumns checks that the Omega test, which drops the
// columns of the variables no row uses (newOmegaProblem, dropDeadCols),
// decides random bounded systems as enumerating their box does, whatever
// zero columns surround the variables: the constant must stay last and
// the columns kept must keep their order. The equalities make the
// substitutions leave columns unused in the course of the test.
func TestOmegaUnusedColumns(t *testing.T) {
	const box = 2
	rng := rand.New(rand.NewSource(11))
	m := newMeter(context.Background())
	for iter := 0; iter < 1500; iter++ {
		nv := 1 + rng.Intn(3)
		ineqs := randRows(rng, 1+rng.Intn(4), nv)
		for j := 0; j < nv; j++ { // -box <= x_j <= box
			lo, hi := make([]Int, nv+1), make([]Int, nv+1)
			lo[j], lo[nv] = NewInt(1), NewInt(box)
			hi[j], hi[nv] = NewInt(-1), NewInt(box)
			ineqs = append(ineqs, lo, hi)
		}
		var eqs [][]Int
		for k := rng.Intn(3); k > 0; k-- {
			e := randRows(rng, 1, nv)[0]
			e[rng.Intn(nv)] = NewInt(int64(1 - 2*rng.Intn(2)))
			eqs = append(eqs, e)
		}
		want := bruteFeasible(eqs, ineqs, nv, box)

		// Pad: the variables at random positions among zero columns.
		width := nv + rng.Intn(5)
		pos := rng.Perm(width)[:nv]
		pad := func(rows [][]Int) [][]Int {
			out := make([][]Int, len(rows))
			for i, r := range rows {
				p := make([]Int, width+1)
				for j := 0; j < nv; j++ {
					p[pos[j]] = r[j]
				}
				p[width] = r[nv]
				out[i] = p
			}
			return out
		}
		peqs, pineqs := pad(eqs), pad(ineqs)
		for _, f := range []func(*meter, [][]Int, [][]Int, int) (bool, error){omegaFeasible, omegaOnly} {
			got, err := f(m, peqs, pineqs, width)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("iter %d: eqs %v ineqs %v over %d columns: feasible %v, enumeration %v", iter, peqs, pineqs, width, got, want)
			}
		}
		used := 0
		for j := 0; j < width; j++ {
			for _, r := range append(append([][]Int(nil), peqs...), pineqs...) {
				if !r[j].IsZero() {
					used++
					break
				}
			}
		}
		if p := newOmegaProblem(peqs, pineqs, width); p.nv != used || p.bbVars != width {
			t.Fatalf("iter %d: problem over %d columns (%d for branch and bound), want the %d used (%d)", iter, p.nv, p.bbVars, used, width)
		}
	}
}

// bruteFeasible reports whether some point of [-box, box]^nv satisfies the
// rows.
func bruteFeasible(eqs, ineqs [][]Int, nv int, box int64) bool {
	x := make([]Int, nv)
	var rec func(j int) bool
	rec = func(j int) bool {
		if j == nv {
			for _, e := range eqs {
				if !rowValueAtPoint(e, x).IsZero() {
					return false
				}
			}
			for _, r := range ineqs {
				if rowValueAtPoint(r, x).Sign() < 0 {
					return false
				}
			}
			return true
		}
		for v := -box; v <= box; v++ {
			x[j] = NewInt(v)
			if rec(j + 1) {
				return true
			}
		}
		return false
	}
	return rec(0)
}
