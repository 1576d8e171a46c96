package value

import (
	"math"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

// TestOverflowUnconstrained: i32 and i64 + - * / and negation that
// overflow are unconstrained under OverflowUnconstrained, with the wrapped
// bits; narrower and unsigned types, casts and the default wrap; the mark
// propagates, through select by its condition and chosen branch.
func TestOverflowUnconstrained(t *testing.T) {
	u := OverflowUnconstrained
	i32 := func(n int64) Value { return Int(syntax.I32, n) }
	i64 := func(n int64) Value { return Int(syntax.I64, n) }
	for _, c := range []struct {
		op   syntax.Op
		x, y Value
		free bool
		want Value
	}{
		{syntax.OpAdd, i32(math.MaxInt32), i32(1), true, i32(math.MinInt32)},
		{syntax.OpAdd, i32(math.MaxInt32), i32(0), false, i32(math.MaxInt32)},
		{syntax.OpSub, i32(math.MinInt32), i32(1), true, i32(math.MaxInt32)},
		{syntax.OpSub, i32(-1), i32(math.MaxInt32), false, i32(math.MinInt32)},
		{syntax.OpMul, i32(715827883), i32(3), true, i32(-2147483647)},
		{syntax.OpMul, i32(715827882), i32(3), false, i32(2147483646)},
		{syntax.OpMul, i32(-65536), i32(32768), false, i32(math.MinInt32)},
		{syntax.OpDiv, i32(math.MinInt32), i32(-1), true, i32(math.MinInt32)},
		{syntax.OpRem, i32(math.MinInt32), i32(-1), false, i32(0)},
		{syntax.OpMul, i64(math.MinInt64), i64(-1), true, i64(math.MinInt64)},
		{syntax.OpMul, i64(1 << 32), i64(1 << 31), true, i64(math.MinInt64)},
		{syntax.OpMul, i64(-(1 << 32)), i64(1 << 31), false, i64(math.MinInt64)},
		{syntax.OpAdd, i64(math.MaxInt64), i64(1), true, i64(math.MinInt64)},
		{syntax.OpAdd, Int(syntax.I16, math.MaxInt16), Int(syntax.I16, 1), false, Int(syntax.I16, math.MinInt16)},
		{syntax.OpAdd, Uint(syntax.U32, math.MaxUint32), Uint(syntax.U32, 1), false, Uint(syntax.U32, 0)},
		{syntax.OpLt, Unconstrained(i32(1)), i32(2), true, Bool(true)},
	} {
		got, err := u.Binary(c.op, c.x, c.y)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(c.want) || got.IsUnconstrained() != c.free {
			t.Errorf("%#v %s %#v = %#v (unconstrained %v), want %#v (unconstrained %v)", c.x, c.op, c.y, got, got.IsUnconstrained(), c.want, c.free)
		}
		if w, _ := OverflowWraps.Binary(c.op, c.x, c.y); w.IsUnconstrained() != (c.x.IsUnconstrained() || c.y.IsUnconstrained()) {
			t.Errorf("wrapping %#v %s %#v is unconstrained", c.x, c.op, c.y)
		}
	}
	if n, _ := u.Unary(syntax.OpNeg, i32(math.MinInt32)); !n.IsUnconstrained() {
		t.Errorf("-MinInt32 is constrained")
	}
	if n, _ := u.Unary(syntax.OpNeg, i32(math.MinInt32+1)); n.IsUnconstrained() {
		t.Errorf("-(MinInt32+1) is unconstrained")
	}
	free := Unconstrained(i32(5))
	if c, _ := Cast(syntax.I8, free); !c.IsUnconstrained() {
		t.Errorf("a cast drops the mark")
	}
	if s, _ := Call("select", []Value{Bool(true), i32(1), free}); s.IsUnconstrained() {
		t.Errorf("select(true, 1, free) is unconstrained")
	}
	if s, _ := Call("select", []Value{Bool(false), i32(1), free}); !s.IsUnconstrained() {
		t.Errorf("select(false, 1, free) is constrained")
	}
	if m, _ := Call("max", []Value{i32(7), free}); !m.IsUnconstrained() {
		t.Errorf("max(7, free) is constrained")
	}
	if Unconstrained(Undef(syntax.I32)).IsUnconstrained() {
		t.Errorf("undef is unconstrained")
	}
	if !BitExact.Accepts(free, i32(9), 0) || BitExact.Accepts(i32(5), i32(9), 0) || BitExact.Accepts(Undef(syntax.I32), i32(9), 0) {
		t.Errorf("Accepts: want true for unconstrained, false for a different or undefined value")
	}
}
