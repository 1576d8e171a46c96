package encode

import (
	"math"
	"testing"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// TestIndexCastSymbolic: t(i) for a symbolic index i, fixed by an assertion
// rather than folded, is value.FromIndex in the IEEE model.
func TestIndexCastSymbolic(t *testing.T) {
	z := newContext(t)
	e := New(z, &sare.Spec{}, sare.NewInfo(), IEEE)
	s, err := z.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	i := z.IntConst("i")
	idx := func(name string) (*smt.Term, bool) { return i, name == "i" }
	for _, n := range []int64{0, -1, 255, -129, 1<<24 + 1, -(1<<24 + 3), 1<<53 + 1, math.MaxInt64, math.MinInt64} {
		for _, typ := range allTypes {
			x := &syntax.Call{Fun: &syntax.Ident{Name: typ.String()}, Args: []syntax.Expr{&syntax.Ident{Name: "i"}}}
			types := map[syntax.Expr]syntax.Type{x: typ}
			val, def, err := e.Expr(x, types, idx, ExprOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want, err := value.FromIndex(typ, n)
			if err != nil {
				t.Fatal(err)
			}
			k, err := e.constant(want)
			if err != nil {
				t.Fatal(err)
			}
			eq, _ := e.Equal(val, k, typ)
			if r := check(t, s, i.Eq(z.Int(n)), def.And(eq).Not()); r != smt.Unsat {
				t.Errorf("%s(%d) is not %#v: %v", typ, n, want, r)
			}
		}
	}
}
