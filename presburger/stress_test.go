package presburger

import (
	"context"
	"math/rand"
	"testing"
)

// TestEmptinessCrossCheck compares the Omega test (with its simplex and
// branch-and-bound shortcuts), the Omega test alone, and plain branch and
// bound on random unbounded systems with up to 7 variables and 24
// constraints, where enumeration is impossible: every conclusive answer
// must agree, and the combined test must finish within its budget.
func TestEmptinessCrossCheck(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	n := propCount(1000)
	feasible := 0
	for it := 0; it < n; it++ {
		nv := 3 + r.Intn(5)
		nc := 5 + r.Intn(20)
		var ineqs [][]Int
		for k := 0; k < nc; k++ {
			row := make([]Int, nv+1)
			for c := 0; c < nv; c++ {
				if r.Intn(3) == 0 {
					row[c] = NewInt(int64(r.Intn(11) - 5))
				}
			}
			row[nv] = NewInt(int64(r.Intn(21) - 5))
			ineqs = append(ineqs, row)
		}
		ctx := context.Background()
		res, err := omegaFeasible(newMeter(ctx), nil, ineqs, nv)
		if err != nil {
			t.Fatalf("case %d: %v", it, err)
		}
		if res {
			feasible++
		}
		small := WithBudget(ctx, Budget{MaxSteps: 20000})
		if o, err := omegaOnly(newMeter(small), nil, ineqs, nv); err == nil && o != res {
			t.Fatalf("case %d: combined %v, Omega alone %v", it, res, o)
		}
		if b, err := branchAndBound(newMeter(small), nil, ineqs, nv, 200); err == nil && b != bbUnknown && (b == bbFeasible) != res {
			t.Fatalf("case %d: combined %v, branch and bound %v", it, res, b)
		}
	}
	t.Logf("%d cases, %d feasible", n, feasible)
}
