package value

import (
	"testing"

	"github.com/augur-verify/augur/syntax"
)

// TestInexact checks which operations mark their results as possibly
// different from the real model's, and that the mark propagates.
func TestInexact(t *testing.T) {
	must := func(v Value, err error) Value {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	bin := func(op syntax.Op, x, y Value) Value { t.Helper(); return must(Binary(op, x, y)) }
	tenth := lit(t, f32, "0.1")
	cases := []struct {
		name string
		v    Value
		want bool
	}{
		{"f32 literal 0.5", lit(t, f32, "0.5"), false},
		{"f32 literal 0.1", tenth, true},
		{"f64 literal 0.1", lit(t, f64, "0.1"), true},
		{"f32 literal 1e3", lit(t, f32, "1e3"), false},
		{"f32 integer literal 3", lit(t, f32, "3"), false},
		{"f32 integer literal 16777217", lit(t, f32, "16777217"), true},
		{"i32 literal", lit(t, i32, "7"), false},
		{"f32 0.125 + 0.25", bin(syntax.OpAdd, lit(t, f32, "0.125"), lit(t, f32, "0.25")), false},
		{"f32 2^24 + 1", bin(syntax.OpAdd, lit(t, f32, "16777216"), lit(t, f32, "1")), true},
		{"f64 2^53 + 1", bin(syntax.OpAdd, lit(t, f64, "9007199254740992"), lit(t, f64, "1")), true},
		{"f64 1 - 2^-60", bin(syntax.OpSub, lit(t, f64, "1"), lit(t, f64, "8.673617379884035e-19")), true},
		{"f32 3 * 0.375", bin(syntax.OpMul, lit(t, f32, "3"), lit(t, f32, "0.375")), false},
		{"f32 4097 * 4097", bin(syntax.OpMul, lit(t, f32, "4097"), lit(t, f32, "4097")), true},
		{"f32 1 / 4", bin(syntax.OpDiv, lit(t, f32, "1"), lit(t, f32, "4")), false},
		{"f32 1 / 3", bin(syntax.OpDiv, lit(t, f32, "1"), lit(t, f32, "3")), true},
		{"f64 1 / 3", bin(syntax.OpDiv, lit(t, f64, "1"), lit(t, f64, "3")), true},
		{"f32 1 / 0", bin(syntax.OpDiv, lit(t, f32, "1"), lit(t, f32, "0")), true},
		{"f32 5 % 3", bin(syntax.OpRem, lit(t, f32, "5"), lit(t, f32, "3")), true},
		{"f32 0.1 + 0 (propagates)", bin(syntax.OpAdd, tenth, lit(t, f32, "0")), true},
		{"f32 0.1 < 1 (comparison inherits)", bin(syntax.OpLt, tenth, lit(t, f32, "1")), true},
		{"f32 0.5 < 1", bin(syntax.OpLt, lit(t, f32, "0.5"), lit(t, f32, "1")), false},
		{"i32 7 / 0", bin(syntax.OpDiv, lit(t, i32, "7"), lit(t, i32, "0")), true},
		{"i8 overflow wraps exactly", bin(syntax.OpAdd, lit(t, i8, "127"), lit(t, i8, "1")), false},
		{"-0.1", must(Unary(syntax.OpNeg, tenth)), true},
		{"-0.5", must(Unary(syntax.OpNeg, lit(t, f32, "0.5"))), false},
		{"f32(i32 3)", must(Cast(f32, lit(t, i32, "3"))), false},
		{"f32(i32 16777217)", must(Cast(f32, lit(t, i32, "16777217"))), true},
		{"i32(f32 2.5)", must(Cast(i32, lit(t, f32, "2.5"))), true},
		{"i32(f32 2.0)", must(Cast(i32, lit(t, f32, "2.0"))), false},
		{"f32(f64 0.5)", must(Cast(f32, lit(t, f64, "0.5"))), false},
		{"f32(f64 1 + 2^-40)", must(Cast(f32, bin(syntax.OpAdd, lit(t, f64, "1"), lit(t, f64, "9.094947017729282e-13")))), true},
		{"sqrt(f32 4)", must(Call("sqrt", []Value{lit(t, f32, "4")})), false},
		{"sqrt(f32 2)", must(Call("sqrt", []Value{lit(t, f32, "2")})), true},
		{"sqrt(f64 2)", must(Call("sqrt", []Value{lit(t, f64, "2")})), true},
		{"exp(f32 0)", must(Call("exp", []Value{lit(t, f32, "0")})), true},
		{"floor(f32 2.5)", must(Call("floor", []Value{lit(t, f32, "2.5")})), true},
		{"floor(f32 2)", must(Call("floor", []Value{lit(t, f32, "2")})), false},
		{"min(0.5, 0.1)", must(Call("min", []Value{lit(t, f32, "0.5"), tenth})), true},
		{"min(0.5, 0.25)", must(Call("min", []Value{lit(t, f32, "0.5"), lit(t, f32, "0.25")})), false},
		{"select(true, 0.5, 0.1)", must(Call("select", []Value{Bool(true), lit(t, f32, "0.5"), tenth})), false},
		{"select(false, 0.5, 0.1)", must(Call("select", []Value{Bool(false), lit(t, f32, "0.5"), tenth})), true},
		{"select on an inexact condition", must(Call("select", []Value{bin(syntax.OpLt, tenth, lit(t, f32, "1")), lit(t, f32, "0.5"), lit(t, f32, "0.25")})), true},
		{"reinterpret_i32(f32 1)", must(Reinterpret(i32, lit(t, f32, "1"))), true},
		{"reinterpret_f32(f32 1)", must(Reinterpret(f32, lit(t, f32, "1"))), false},
	}
	for _, c := range cases {
		if got := c.v.Inexact(); got != c.want {
			t.Errorf("%s = %#v: Inexact() = %v, want %v", c.name, c.v, got, c.want)
		}
	}
	// The mark does not take part in equality.
	a := bin(syntax.OpAdd, tenth, lit(t, f32, "0"))
	if !a.Equal(tenth) || !a.Equal(Float(f32, tenth.Float64())) {
		t.Errorf("Equal must ignore the inexact mark")
	}
}
