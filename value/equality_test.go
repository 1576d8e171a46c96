package value

import (
	"math"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

// TestEquality checks the equalities of the two value models: −0 and +0
// are one number in the real model and two values in the ieee model;
// everything else compares as Value.Equal does in both.
func TestEquality(t *testing.T) {
	negZero := Float(syntax.F32, math.Copysign(0, -1))
	zero := Float(syntax.F32, 0)
	nan := Float(syntax.F32, math.NaN())
	for _, tc := range []struct {
		name       string
		v, w       Value
		ieee, real bool
	}{
		{"-0 and +0", negZero, zero, false, true},
		{"+0 and -0", zero, negZero, false, true},
		{"-0 and -0", negZero, negZero, true, true},
		{"f64 -0 and +0", Float(syntax.F64, math.Copysign(0, -1)), Float(syntax.F64, 0), false, true},
		{"f32 -0 and f64 +0", negZero, Float(syntax.F64, 0), false, false},
		{"-0 and undefined", negZero, Undef(syntax.F32), false, false},
		{"0 and 1", zero, Float(syntax.F32, 1), false, false},
		{"NaN and NaN", nan, nan, true, true},
		{"NaN and 0", nan, zero, false, false},
		{"integer 0 and 0", Int(syntax.I32, 0), Int(syntax.I32, 0), true, true},
		{"undefined", Undef(syntax.F32), Undef(syntax.F32), true, true},
	} {
		if got := BitExact.Equal(tc.v, tc.w); got != tc.ieee {
			t.Errorf("%s: BitExact.Equal = %v, want %v", tc.name, got, tc.ieee)
		}
		if got := RealEqual.Equal(tc.v, tc.w); got != tc.real {
			t.Errorf("%s: RealEqual.Equal = %v, want %v", tc.name, got, tc.real)
		}
		if got := BitExact.Close(tc.v, tc.w, 0); got != tc.ieee {
			t.Errorf("%s: BitExact.Close(0) = %v, want %v", tc.name, got, tc.ieee)
		}
		if got := RealEqual.Close(tc.v, tc.w, 0); got != tc.real {
			t.Errorf("%s: RealEqual.Close(0) = %v, want %v", tc.name, got, tc.real)
		}
	}
	if !BitExact.Close(negZero, zero, 1e-6) {
		t.Error("BitExact.Close(-0, +0, 1e-6) = false, want true (within the tolerance)")
	}
}
