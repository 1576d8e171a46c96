package smt

import "testing"

// TestSubstitute: Substitute replaces the occurrences of each term at
// once, and only structural ones; Disjuncts lists an or's operands, and
// any other term alone.
func TestSubstitute(t *testing.T) {
	c, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	x, y, p := c.IntConst("x"), c.IntConst("y"), c.BoolConst("p")
	sum := x.Add(y)
	f := p.Ite(sum, x.Add(c.Int(1))).Substitute([]*Term{p, x}, []*Term{c.False(), y})
	if got, want := f.Simplify().String(), "(+ 1 y)"; got != want {
		t.Errorf("substituted: %s, want %s", got, want)
	}
	// y + x is x + y in value, not in structure: left as it is.
	g := y.Add(x).Eq(c.Int(3)).Substitute([]*Term{sum}, []*Term{c.Int(0)})
	if got, want := g.String(), "(= (+ y x) 3)"; got != want {
		t.Errorf("substituted: %s, want %s", got, want)
	}
	if bad := x.Substitute([]*Term{x}, nil); bad.Err() == nil {
		t.Error("no error for unpaired terms")
	}
	or := c.Or(p, x.Lt(y), x.Eq(y))
	if ds := or.Disjuncts(); len(ds) != 3 || !ds[1].Equal(x.Lt(y)) {
		t.Errorf("disjuncts of %s: %v", or, ds)
	}
	if ds := p.And(x.Lt(y)).Disjuncts(); len(ds) != 1 {
		t.Errorf("a conjunction has %d disjuncts, want itself", len(ds))
	}
}
