package symeval

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sched"
)

// carrySpec and carryKernel: a buffer of 80 columns flattened and
// delinearised again, as Halide's folded buffers are at the final stage:
// the store at column 16 * t + l writes (p % 80, p / 80), and the loop's
// range, a let of a min and a max, keeps p below 80 only under the loop's
// facts (of several conjunctions), never under their common constraints.
const carrySpec = `param P
input A(x) : f32
tensor F(x) : f32
F(x) = A(x) * 2
output F
`

const carryKernel = `kernel carry(P)
assume P >= 0
in  a[x] : f32[80] = A(x)
out g[x, y] : f32[80, 1] = F(x + 80 * y)
{
  let m = max(min((P + 17) / 16, 5), 0)
  for t < m {
    for l < 16 {
      g[(16 * t + l) % 80, (16 * t + l) / 80] {F((16 * t + l) % 80)} := a[16 * t + l] * 2
    }
  }
}
`

// TestStoreCarryFixed: the prophecy's write of the store has no floor
// division by the buffer's width (fixedDivisions): the carry is 0 and
// the remainder the column itself wherever the store runs. Kept, the
// divisions by 80 split the loops' iterated updates.
func TestStoreCarryFixed(t *testing.T) {
	p := loadPair(t, "carry.sare", carrySpec, "carry.sched", carryKernel)
	pr := prophesy(t, p)
	var st *sched.Assign
	sched.Walk(p.kernel.Body, func(s sched.Stmt) bool {
		if a, ok := s.(*sched.Assign); ok {
			st = a
		}
		return true
	})
	if st == nil {
		t.Fatal("no store")
	}
	got := pr.Effect(st).String()
	if strings.Contains(got, "/80)") || strings.Contains(got, "/ 80)") {
		t.Errorf("the store's write keeps its carry:\n%s", got)
	}
	// The write is the same wherever the store runs: column 16t + l of
	// row 0, holding F(16t + l).
	want, err := presburger.ParseUnionMap(named(t, pr.Contexts,
		"[P, t, l] -> { g[16t + l, 0] -> «F(□1)»[16t + l] }"))
	if err != nil {
		t.Fatal(err)
	}
	facts, err := presburger.ParseMap("[P, t, l] -> { : 0 <= l < 16 and 0 <= t < 5 and 16t <= P + 1 }")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := pr.Effect(st).UnionMap().IntersectParams(facts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := want.IntersectParams(facts)
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := a.IsEqual(ctx, b); err != nil || !eq {
		t.Errorf("the store's write where it runs:\n%s\nwant\n%s (%v)", a, b, err)
	}
}
