package value

import (
	"math/rand/v2"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// nativeOp computes a op b with Go's own wrapping arithmetic on T, with
// the language's rules for division and shifts written out.
func nativeOp[T integer](op syntax.Op, a, b T, signed bool, width uint) (T, bool) {
	var zero T
	switch op {
	case syntax.OpAdd:
		return a + b, true
	case syntax.OpSub:
		return a - b, true
	case syntax.OpMul:
		return a * b, true
	case syntax.OpBitAnd:
		return a & b, true
	case syntax.OpBitOr:
		return a | b, true
	case syntax.OpBitXor:
		return a ^ b, true
	case syntax.OpDiv, syntax.OpRem:
		if b == 0 {
			return zero, true
		}
		q, r := a/b, a%b
		if signed && r < zero {
			if b > zero {
				q, r = q-1, r+b
			} else {
				q, r = q+1, r-b
			}
		}
		if op == syntax.OpDiv {
			return q, true
		}
		return r, true
	case syntax.OpShl, syntax.OpShr:
		if b < zero || uint64(b) >= uint64(width) {
			if op == syntax.OpShr && a < zero {
				return ^zero, true
			}
			return zero, true
		}
		if op == syntax.OpShl {
			return a << uint64(b), true
		}
		return a >> uint64(b), true
	}
	return zero, false
}

func nativeCmp[T integer](op syntax.Op, a, b T) bool {
	switch op {
	case syntax.OpEq:
		return a == b
	case syntax.OpNe:
		return a != b
	case syntax.OpLt:
		return a < b
	case syntax.OpLe:
		return a <= b
	case syntax.OpGt:
		return a > b
	}
	return a >= b
}

var intOps = []syntax.Op{syntax.OpAdd, syntax.OpSub, syntax.OpMul, syntax.OpDiv, syntax.OpRem,
	syntax.OpBitAnd, syntax.OpBitOr, syntax.OpBitXor, syntax.OpShl, syntax.OpShr}
var cmpOps = []syntax.Op{syntax.OpEq, syntax.OpNe, syntax.OpLt, syntax.OpLe, syntax.OpGt, syntax.OpGe}

func checkNative[T integer](t *testing.T, ty syntax.Type, r *rand.Rand) {
	signed := ty.IsSigned()
	width := uint(ty.Bits())
	small := func() Value {
		// Small values and shift amounts matter as much as random bits.
		if r.IntN(3) == 0 {
			return Int(ty, int64(r.IntN(int(2*width+3)))-int64(width)-1)
		}
		return Random(ty, r)
	}
	for range 3000 {
		a, b := small(), small()
		na, nb := T(a.Uint64()), T(b.Uint64())
		for _, op := range intOps {
			got, err := Binary(op, a, b)
			if err != nil {
				t.Fatalf("%s %v %s %v: %v", ty, a, op, b, err)
			}
			want, _ := nativeOp(op, na, nb, signed, width)
			if !got.Equal(Int(ty, int64(want))) {
				t.Fatalf("%s: %v %s %v = %v, want %v", ty, a, op, b, got, want)
			}
		}
		for _, op := range cmpOps {
			got, _ := Binary(op, a, b)
			if got.Bool() != nativeCmp(op, na, nb) {
				t.Fatalf("%s: %v %s %v = %v", ty, a, op, b, got)
			}
		}
		neg, _ := Unary(syntax.OpNeg, a)
		if T(neg.Uint64()) != -na {
			t.Fatalf("%s: -%v = %v", ty, a, neg)
		}
		not, _ := Unary(syntax.OpBitNot, a)
		if T(not.Uint64()) != ^na {
			t.Fatalf("%s: ~%v = %v", ty, a, not)
		}
	}
}

// TestNativeIntegers compares every integer operator with Go's wrapping
// arithmetic on the corresponding Go type.
func TestNativeIntegers(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	checkNative[int8](t, syntax.I8, r)
	checkNative[int16](t, syntax.I16, r)
	checkNative[int32](t, syntax.I32, r)
	checkNative[int64](t, syntax.I64, r)
	checkNative[uint8](t, syntax.U8, r)
	checkNative[uint16](t, syntax.U16, r)
	checkNative[uint32](t, syntax.U32, r)
	checkNative[uint64](t, syntax.U64, r)
}

// TestNativeFloat32 compares f32 arithmetic with Go's float32.
func TestNativeFloat32(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		fa, fb := float32(r.NormFloat64()*1e3), float32(r.NormFloat64()*1e-3)
		a, b := Float(syntax.F32, float64(fa)), Float(syntax.F32, float64(fb))
		for _, c := range []struct {
			op   syntax.Op
			want float32
		}{
			{syntax.OpAdd, fa + fb}, {syntax.OpSub, fa - fb}, {syntax.OpMul, fa * fb}, {syntax.OpDiv, fa / fb},
		} {
			got, _ := Binary(c.op, a, b)
			if !got.Equal(Float(syntax.F32, float64(c.want))) {
				t.Fatalf("%v %s %v = %v, want %v", fa, c.op, fb, got, c.want)
			}
		}
	}
}
