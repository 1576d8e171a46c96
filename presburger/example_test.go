package presburger_test

import (
	"context"
	"fmt"

	"github.com/augur-verify/augur/presburger"
)

// A race check: two distinct iterations of a parallel loop that write the
// same array cell.
func Example_raceCheck() {
	ctx := context.Background()
	w, err := presburger.ParseMap("[N] -> { S[i] -> A[floor(i/2)] : 0 <= i < N }")
	if err != nil {
		panic(err)
	}
	conflict, _ := w.ApplyRange(w.Reverse())
	before, _ := presburger.LexLT(w.Space().Domain())
	race, _ := conflict.Intersect(before)
	empty, _ := race.IsEmpty(ctx)
	fmt.Println("race-free:", empty)
	pt, _ := race.Sample(ctx)
	fmt.Println("witness (N, i, i'):", pt)
	// Output:
	// race-free: false
	// witness (N, i, i'): [2 0 1]
}

func ExampleMap_Subtract() {
	ctx := context.Background()
	all, _ := presburger.ParseSet("{ A[i] : 0 <= i < 8 }")
	even, _ := presburger.ParseSet("{ A[i] : exists (k: i = 2k) }")
	odd, _ := all.Subtract(ctx, even)
	odd, _ = odd.Simplify(ctx)
	fmt.Println(odd)
	// Output:
	// { A[i] : exists (e0 = floor(i/2): i = 2*e0 + 1 and i >= 0 and 7 >= i) }
}

func ExampleMap_ApplyRange() {
	r, _ := presburger.ParseMap("{ S[i] -> A[i + 1] : 0 <= i < 4 }")
	s, _ := presburger.ParseMap("{ A[j] -> B[2j] }")
	c, _ := r.ApplyRange(s)
	fmt.Println(c)
	// Output:
	// { S[i] -> B[o0] : 2*i + 2 = o0 and i >= 0 and 3 >= i }
}
