package encode

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// TestIntDivisionExact: a division, remainder or right shift by a constant
// of a converted integer, which stays in the integers, is value.Binary's
// for every integer type, at edge values and at integers outside the
// type's range (which the conversion wraps), the integer fixed by an
// assertion rather than folded.
func TestIntDivisionExact(t *testing.T) {
	z, e, s := newEncoder(t, Real)
	r := rand.New(rand.NewPCG(3, 4))
	n := z.IntConst("n")
	for _, typ := range allTypes {
		if !typ.IsInteger() {
			continue
		}
		w := uint(typ.Bits())
		half := new(big.Int).Lsh(big.NewInt(1), w-1)
		lo, hi := new(big.Int).Neg(half), new(big.Int).Sub(half, big.NewInt(1))
		as := []*big.Int{big.NewInt(0), big.NewInt(7), big.NewInt(-7), lo, hi, new(big.Int).Add(hi, big.NewInt(5)), new(big.Int).Sub(lo, big.NewInt(9))}
		bs := []int64{1, -1, 2, 3, -3, 4, -4, 8, int64(w) - 1, int64(w), 0, -1 << (w - 1)}
		for range 3 {
			as = append(as, big.NewInt(r.Int64()>>r.IntN(63)))
			bs = append(bs, r.Int64()>>r.IntN(63))
		}
		for _, a := range as {
			for _, b := range bs {
				for _, op := range []syntax.Op{syntax.OpDiv, syntax.OpRem, syntax.OpShr} {
					bk := z.BV(uint64(b), w)
					got, err := e.binaryOp(op, typ, n.ToBV(w), bk)
					if err != nil {
						t.Fatal(err)
					}
					_, inInts := got.ModularInt()
					amount := uint64(b) & (1<<w - 1) // the constant as an unsigned number
					inRange := amount != 0
					if op == syntax.OpShr {
						inRange = amount < uint64(w)
					}
					if inInts != inRange {
						t.Errorf("%s: %d %s %d in the integers: %v, want %v", typ, a, op, b, inInts, inRange)
					}
					av := value.Uint(typ, new(big.Int).And(a, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), w), big.NewInt(1))).Uint64())
					want, err := value.Binary(op, av, value.Uint(typ, uint64(b)))
					if err != nil {
						t.Fatal(err)
					}
					k, err := e.constant(want)
					if err != nil {
						t.Fatal(err)
					}
					eq, _ := e.Equal(got, k, typ)
					if res := check(t, s, n.Eq(z.BigInt(a)), eq.Not()); res != smt.Unsat {
						t.Errorf("%s: %d %s %d is not %v: %v", typ, a, op, b, want, res)
					}
				}
			}
		}
	}
}

// TestIntEqualModular: two conversions of integers are equal exactly when
// the integers are congruent modulo 2^w.
func TestIntEqualModular(t *testing.T) {
	z, e, s := newEncoder(t, Real)
	x, y := z.IntConst("x"), z.IntConst("y")
	eq, err := e.Equal(x.ToBV(8), y.ToBV(8).BVAdd(z.BV(1, 8)), syntax.I8)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		x, y int64
		want bool
	}{{5, 4, true}, {5, 5, false}, {-1, 254, true}, {0, -1, true}, {256 + 3, 2, true}, {3, 3 - 256, false}} {
		want := eq
		if !tc.want {
			want = eq.Not()
		}
		if r := check(t, s, x.Eq(z.Int(tc.x)), y.Eq(z.Int(tc.y)), want.Not()); r != smt.Unsat {
			t.Errorf("i8(%d) = i8(%d) + 1: want %v, solver %v", tc.x, tc.y, tc.want, r)
		}
	}
}

// TestIntComparisonModular: the operators == and != on two conversions
// of integers are their congruence modulo 2^w, in the integers (no
// bit-vector left), exactly: i32(x % 2) == i32(0) holds at even x, also
// past the type's range, and != is its negation.
func TestIntComparisonModular(t *testing.T) {
	z, e, s := newEncoder(t, Real)
	x := z.IntConst("x")
	rem, err := e.binaryOp(syntax.OpRem, syntax.I32, x.ToBV(32), z.BV(2, 32))
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []syntax.Op{syntax.OpEq, syntax.OpNe} {
		got, err := e.binaryOp(op, syntax.I32, rem, z.BV(0, 32))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(got.String(), "int2bv") || strings.Contains(got.String(), "bv") {
			t.Errorf("%s: left on bit-vectors: %s", op, got)
		}
		for _, n := range []int64{0, 1, -1, 6, 7, 1 << 31, 1<<32 + 1, -(1 << 33)} {
			holds := n%2 == 0
			if op == syntax.OpNe {
				holds = !holds
			}
			want := got
			if !holds {
				want = got.Not()
			}
			if r := check(t, s, x.Eq(z.Int(n)), want.Not()); r != smt.Unsat {
				t.Errorf("i32(%d %% 2) %s 0: want %v, solver %v", n, op, holds, r)
			}
		}
	}
}

// TestTruncationsDecided: in the Real model, conversions toward zero of
// clamped floats, halved before or after, negated or floored, are decided
// within a small resource limit: proved equal where they are, refuted
// where floor differs from the truncation.
func TestTruncationsDecided(t *testing.T) {
	src := `
param N
input A(i) : f32
tensor Spec(i) : i32
Spec(i) = i32(clamp(A(i), 0, 1000) * 0.5)
tensor Halved(i) : i32
Halved(i) = i32(clamp(A(i), 0, 1000)) / 2
tensor Shifted(i) : i32
Shifted(i) = i32(clamp(A(i), 0, 1000)) >> 1
tensor Signed(i) : i32
Signed(i) = i32(clamp(A(i), -1000, 1000))
tensor Odd(i) : i32
Odd(i) = select(A(i) < 0, -i32(clamp(-A(i), 0, 1000)), i32(clamp(A(i), 0, 1000)))
tensor Floored(i) : i32
Floored(i) = i32(floor(clamp(A(i), -1000, 1000)))
tensor RoundedUp(i) : i32
RoundedUp(i) = (i32(clamp(A(i), 0, 1000)) + 1) / 2
`
	spec, info, err := sare.Load(&syntax.Source{Name: "trunc.sare", Text: src})
	if err != nil {
		t.Fatal(err)
	}
	z, err := smt.NewContext(smt.WithResourceLimit(3_000_000))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { z.Close() })
	e := New(z, spec, info, Real)
	s, err := z.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	idx := func(name string) (*smt.Term, bool) { return z.IntConst(name), true }
	expr := func(tensor string) (val, def *smt.Term) {
		val, def, err := e.Expr(spec.Tensor(tensor).Eqs[0].RHS, info.Types, idx, ExprOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return val.SimplifyArith(), def
	}
	for _, tc := range []struct {
		impl, spec string
		want       smt.Result
	}{
		{"Halved", "Spec", smt.Unsat},
		{"Shifted", "Spec", smt.Unsat},
		{"RoundedUp", "Spec", smt.Sat},
		{"Odd", "Signed", smt.Unsat},
		{"Floored", "Signed", smt.Sat},
	} {
		iv, idef := expr(tc.impl)
		sv, sdef := expr(tc.spec)
		eq, err := e.Equal(iv, sv, syntax.I32)
		if err != nil {
			t.Fatal(err)
		}
		if r := check(t, s, z.And(idef, sdef, eq).Not()); r != tc.want {
			t.Errorf("%s against %s: %v, want %v (%s)", tc.impl, tc.spec, r, tc.want, s.ReasonUnknown())
		}
	}
}

// TestWidenedBinDecided: a histogram's bin, the truncation of a clamped
// float, compared with a cell's index d in [0, 255] after both are
// widened to i64 (a data-dependent write's test) and as i32 (the
// specification's), decides in linear integer arithmetic: the sign
// extension of the truncation and the index the i32 denotes are the
// truncation's integer, not bit-vector conversions Z3 relates bit by bit
// (ten million resource units on the solver's own); and an ordered
// comparison of conversions of index sums, i32(d) >= i32(m + e), is the
// integers' where they are int32 (unknown within a million units as
// bit-vectors).
func TestWidenedBinDecided(t *testing.T) {
	src := `
input A(i) : f32
tensor Wide(d) : bool
Wide(d) = i64(d) == i64(i32(clamp(A(0), 0, 255)))
tensor Narrow(d) : bool
Narrow(d) = i32(d) == i32(clamp(A(0), 0, 255))
tensor Off(d) : bool
Off(d) = i64(d) == i64(i32(clamp(A(0), 0, 255)) + i32(1))
tensor Below(d) : bool
Below(d) = i32(d) < i32(clamp(A(0), 0, 255)) + i32(1)
tensor BelowWide(d) : bool
BelowWide(d) = i64(d) <= i64(i32(clamp(A(0), 0, 255)))
tensor Past(d, m, e) : bool
Past(d, m, e) = i32(d) >= i32(m + e)
`
	spec, info, err := sare.Load(&syntax.Source{Name: "bin.sare", Text: src})
	if err != nil {
		t.Fatal(err)
	}
	z, err := smt.NewContext(smt.WithResourceLimit(1_000_000))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { z.Close() })
	e := New(z, spec, info, Real)
	s, err := z.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := z.IntConst("d")
	idx := func(name string) (*smt.Term, bool) { return z.IntConst(name), true }
	expr := func(tensor string) (val, def *smt.Term) {
		val, def, err := e.Expr(spec.Tensor(tensor).Eqs[0].RHS, info.Types, idx, ExprOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return val, def
	}
	inCell := z.And(d.Ge(z.Int(0)), d.Le(z.Int(255)))
	// An ordered comparison of conversions of index sums: i32(d) >=
	// i32(m + e) is d >= m + e where all are int32 (a buffer's bound).
	m, ex := z.IntConst("m"), z.IntConst("e")
	in32 := func(x *smt.Term) *smt.Term {
		return z.And(x.Ge(z.Int(-1<<31)), x.Le(z.Int(1<<31-1)))
	}
	past, pdef := expr("Past")
	if r := check(t, s, in32(d), in32(m), in32(ex), in32(m.Add(ex)), pdef, past.Xor(d.Ge(m.Add(ex)))); r != smt.Unsat {
		t.Errorf("i32(d) >= i32(m + e) in int32: %v, want unsat (%s)", r, s.ReasonUnknown())
	}
	for _, tc := range []struct {
		impl string
		want smt.Result
		spec string
	}{{"Wide", smt.Unsat, "Narrow"}, {"Off", smt.Sat, "Narrow"}, {"BelowWide", smt.Unsat, "Below"}} {
		iv, idef := expr(tc.impl)
		sv, sdef := expr(tc.spec)
		if r := check(t, s, inCell, idef, sdef, iv.Eq(sv).Not()); r != tc.want {
			t.Errorf("%s against %s: %v, want %v (%s)", tc.impl, tc.spec, r, tc.want, s.ReasonUnknown())
		}
	}
}
