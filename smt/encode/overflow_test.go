package encode

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
)

// TestSignedOverflow: the overflow term of + - * / on i32 and i64
// operands agrees with package value's Overflow on edge operands.
func TestSignedOverflow(t *testing.T) {
	z, e, _ := newEncoder(t, IEEE)
	_ = e
	m := emptyModel(t, z)
	ops := []syntax.Op{syntax.OpAdd, syntax.OpSub, syntax.OpMul, syntax.OpDiv, syntax.OpRem}
	for _, typ := range []syntax.Type{syntax.I32, syntax.I64} {
		lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
		if typ == syntax.I64 {
			lo, hi = math.MinInt64, math.MaxInt64
		}
		edges := []int64{0, 1, -1, 2, -2, 3, lo, lo + 1, hi, hi - 1, hi / 2, hi/2 + 1, lo / 2, lo/2 - 1, hi / 3, hi/3 + 1, lo / 3, lo/3 - 1}
		w := uint(typ.Bits())
		for _, op := range ops {
			for _, a := range edges {
				for _, b := range edges {
					bv := func(n int64) *smt.Term { return z.BV(uint64(n)&(^uint64(0)>>(64-w)), w) }
					got, err := m.Bool(signedOverflow(z, op, typ, bv(a), bv(b)).Simplify())
					if err != nil {
						t.Fatal(err)
					}
					want := overflowsExactly(op, a, b, lo, hi)
					if got != want {
						t.Errorf("%s %d %s %d: overflow %v, want %v", typ, a, op, b, got, want)
					}
				}
			}
		}
	}
}

// TestIntOverflow: for operands that are conversions of integers, the
// overflow of + - * is decided in the integers (Encoder.signedOverflow),
// agreeing with package value's Overflow on edge operands given as
// integers anywhere in their congruence class (the conversion reads them
// modulo 2^w), and with exact arithmetic on random operands.
func TestIntOverflow(t *testing.T) {
	z, e, _ := newEncoder(t, Real)
	m := emptyModel(t, z)
	for _, typ := range []syntax.Type{syntax.I32, syntax.I64} {
		lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
		if typ == syntax.I64 {
			lo, hi = math.MinInt64, math.MaxInt64
		}
		w := uint(typ.Bits())
		wrap := new(big.Int).Lsh(big.NewInt(3), w) // 3 * 2^w
		conv := func(n int64) *smt.Term {
			return z.BigInt(new(big.Int).Add(big.NewInt(n), wrap)).ToBV(w)
		}
		edges := []int64{0, 1, -1, 2, -2, 3, lo, lo + 1, hi, hi - 1, hi / 2, hi/2 + 1, lo / 2, lo/2 - 1, hi / 3, hi/3 + 1, lo / 3, lo/3 - 1}
		for _, op := range []syntax.Op{syntax.OpAdd, syntax.OpSub, syntax.OpMul} {
			for _, a := range edges {
				for _, b := range edges {
					r, ok := e.intOverflow(op, typ, conv(a), conv(b))
					if !ok {
						t.Fatalf("%s %s: conversions of integers not read as such", typ, op)
					}
					got, err := m.Bool(r.Simplify())
					if err != nil {
						t.Fatal(err)
					}
					if want := overflowsExactly(op, a, b, lo, hi); got != want {
						t.Errorf("%s %d %s %d: overflow %v, want %v", typ, a, op, b, got, want)
					}
				}
			}
		}
	}
	// Random operands anywhere in the integers, against exact
	// arithmetic on their readings in the type's range.
	rng := rand.New(rand.NewPCG(1, 2))
	for _, typ := range []syntax.Type{syntax.I32, syntax.I64} {
		w := uint(typ.Bits())
		mod, half := new(big.Int).Lsh(big.NewInt(1), w), new(big.Int).Lsh(big.NewInt(1), w-1)
		read := func(n *big.Int) *big.Int { // n in [-2^(w-1), 2^(w-1))
			r := new(big.Int).Add(n, half)
			r.Mod(r, mod)
			return r.Sub(r, half)
		}
		for range 100 {
			a := new(big.Int).Mul(big.NewInt(rng.Int64()), big.NewInt(int64(rng.IntN(5))-2))
			b := big.NewInt(rng.Int64() >> rng.IntN(64))
			for _, op := range []syntax.Op{syntax.OpAdd, syntax.OpSub, syntax.OpMul} {
				r, _ := e.intOverflow(op, typ, z.BigInt(a).ToBV(w), z.BigInt(b).ToBV(w))
				got, err := m.Bool(r.Simplify())
				if err != nil {
					t.Fatal(err)
				}
				x, y := read(a), read(b)
				exact := new(big.Int)
				switch op {
				case syntax.OpAdd:
					exact.Add(x, y)
				case syntax.OpSub:
					exact.Sub(x, y)
				default:
					exact.Mul(x, y)
				}
				want := exact.Cmp(new(big.Int).Neg(half)) < 0 || exact.Cmp(half) >= 0
				if got != want {
					t.Errorf("%s %v %s %v: overflow %v, want %v", typ, a, op, b, got, want)
				}
			}
		}
	}
	// A bit-vector constant is no conversion of an integer: the
	// bit-level term.
	if _, ok := e.intOverflow(syntax.OpMul, syntax.I32, z.BVConst("b", 32), z.IntConst("x").ToBV(32)); ok {
		t.Error("a bit-vector constant read as a conversion of an integer")
	}
}

// overflowsExactly decides overflow in float64-free exact arithmetic
// where it can, by Euclidean division's one overflowing case otherwise.
func overflowsExactly(op syntax.Op, a, b, lo, hi int64) bool {
	switch op {
	case syntax.OpAdd:
		return (b > 0 && a > hi-b) || (b < 0 && a < lo-b)
	case syntax.OpSub:
		return (b < 0 && a > hi+b) || (b > 0 && a < lo+b)
	case syntax.OpMul:
		if a == 0 || b == 0 {
			return false
		}
		p := a * b
		if lo == math.MinInt32 {
			return p < lo || p > hi
		}
		return p/b != a || (a == -1 && b == lo) || (b == -1 && a == lo)
	case syntax.OpDiv:
		return a == lo && b == -1
	}
	return false
}

const unconstrainedSpec = `overflow unconstrained
param N
input A(i) : i32
tensor F(i) : i32
F(i) = A(i) * 3
tensor G(i) : i32
G(i) = select(A(i) > 0, 1, F(i))
tensor H(i) : i8
H(i) = i8(A(i)) * 3
`

// TestUnconstrainedUnfolding: under overflow unconstrained, an unfolded
// element is free where its body overflows, its value is then the
// tensor's application, and select's freedom is its chosen branch's; i8
// wraps.
func TestUnconstrainedUnfolding(t *testing.T) {
	spec, info, err := sare.Load(&syntax.Source{Name: "u.sare", Text: unconstrainedSpec})
	if err != nil {
		t.Fatal(err)
	}
	z := newContext(t)
	e := New(z, spec, info, IEEE)
	s, err := z.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fa, _ := e.Tensor("A")
	ff, _ := e.Tensor("F")
	a := fa.Apply(z.IntConst("i"))
	call := func(name string) syntax.Expr {
		x := &syntax.Call{Fun: &syntax.Ident{Name: name}, Args: []syntax.Expr{&syntax.Ident{Name: "i"}}}
		info.Types[x] = spec.Tensor(name).Type
		return x
	}
	opts := ExprOptions{UnfoldTop: true}
	val, _, free, err := e.ExprFree(call("F"), info.Types, names(z), opts)
	if err != nil {
		t.Fatal(err)
	}
	big := a.BVSGt(z.BV(715827882, 32)).Or(a.BVSLt(z.BV(uint64(0xFFFFFFFF)-715827882+1, 32)))
	if r := check(t, s, free.Iff(big).Not()); r != smt.Unsat {
		t.Errorf("F(i) is not free exactly where A(i) * 3 overflows: %v", r)
	}
	if r := check(t, s, free, val.Eq(ff.Apply(z.IntConst("i"))).Not()); r != smt.Unsat {
		t.Errorf("a free F(i) is not the tensor's application: %v", r)
	}
	if r := check(t, s, free.Not(), val.Eq(a.BVMul(z.BV(3, 32))).Not()); r != smt.Unsat {
		t.Errorf("F(i) is not A(i) * 3 where it is constrained: %v", r)
	}
	_, _, gfree, err := e.ExprFree(call("G"), info.Types, names(z), ExprOptions{UnfoldTop: true, Unfold: func(string) bool { return true }, Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r := check(t, s, gfree, a.BVSGt(z.BV(0, 32))); r != smt.Unsat {
		t.Errorf("G(i) free where select chooses the constant 1: %v", r)
	}
	if r := check(t, s, gfree.Not(), big, a.BVSLt(z.BV(0, 32))); r != smt.Unsat {
		t.Errorf("G(i) constrained where it chooses an overflowing F(i): %v", r)
	}
	e.ResetUnfoldings()
	_, _, hfree, err := e.ExprFree(call("H"), info.Types, names(z), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !hfree.Simplify().IsFalse() {
		t.Errorf("i8 arithmetic is free: %s", hfree)
	}
}
