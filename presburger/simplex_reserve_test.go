package presburger

import (
	"context"
	"fmt"
	"testing"
)

// TestSimplexReserve checks that rows taken from reserved storage make
// the same tableau as rows allocated one by one, and that a clone adding
// rows (which must not take from the original's reserve) leaves the
// original's rows as they were.
func TestSimplexReserve(t *testing.T) {
	g := newRandGen(21)
	dump := func(tab *simplexTab) string { return fmt.Sprint(tab.rows, tab.rowU, tab.isRow, tab.pos, tab.restr) }
	for it := 0; it < propCount(500); it++ {
		sp := g.randSetSpace(randParams(g))
		b := g.randBasic(sp, 5)
		rows := b.AllIneqs()
		plain, reserved := newSimplexTab(newMeter(context.Background()), b.nVars()), newSimplexTab(newMeter(context.Background()), b.nVars())
		reserved.reserve(len(rows) - 1) // one row past the reserve
		for _, r := range rows {
			plain.addRow(r)
			reserved.addRow(r)
		}
		if dump(plain) != dump(reserved) {
			t.Fatalf("case %d: reserved rows %s, want %s", it, dump(reserved), dump(plain))
		}
		orig := newSimplexTab(newMeter(context.Background()), b.nVars())
		orig.reserve(2 * len(rows))
		for _, r := range rows {
			orig.addRow(r)
		}
		before := dump(orig)
		c := orig.clone()
		for _, r := range rows {
			c.addRow(negRow(r))
		}
		if dump(orig) != before {
			t.Fatalf("case %d: adding rows to a clone changed the original", it)
		}
		cloned := dump(c)
		for _, r := range rows {
			orig.addRow(r)
		}
		if dump(c) != cloned {
			t.Fatalf("case %d: adding rows to the original changed the clone", it)
		}
	}
}

// TestNewSimplifierRows checks that newSimplifier's tableau has the rows
// of the conjunction's equalities (both ways), inequalities and division
// rows (divRows), in that order, on random conjunctions with divisions.
func TestNewSimplifierRows(t *testing.T) {
	g := newRandGen(23)
	dump := func(tab *simplexTab) string { return fmt.Sprint(tab.rows, tab.rowU, tab.isRow, tab.pos, tab.restr) }
	check := func(it int, c *BasicMap) {
		if c.empty {
			return
		}
		want := newSimplexTab(newMeter(context.Background()), c.nVars())
		for _, e := range c.eqs {
			want.addRow(e)
			want.addRow(negRow(e))
		}
		for _, r := range c.ineqs {
			want.addRow(r)
		}
		for i, d := range c.divs {
			if !d.Den.IsZero() {
				lo, hi := c.divRows(i)
				want.addRow(lo)
				want.addRow(hi)
			}
		}
		if got := newSimplifier(newMeter(context.Background()), c).t; dump(got) != dump(want) {
			t.Fatalf("case %d: %s: tableau %s, want %s", it, dumpBasic(c), dump(got), dump(want))
		}
	}
	forRandomBasics(g, check)
}
