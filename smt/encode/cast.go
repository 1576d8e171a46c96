package encode

import (
	"fmt"
	"math/big"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// This file encodes conversions t(x), following value.Cast and
// value.FromIndex.

// fromIndex converts the exact integer n (an Int term) to type t, as
// value.FromIndex does: n is taken as an i64 (expr.EvalIndex fails on
// anything larger), then converted. Integer types wrap; floats round to
// nearest (in the Real model, n itself); bool is n ≠ 0.
//
// An integer conversion is pushed through n's sums and products
// (smt.Term.ToBVModular), exact modulo 2^width: i32(x + 1) and i32(x) + 1
// are then one term, where Z3 would have to relate the conversions of two
// different integers.
func (e *Encoder) fromIndex(t syntax.Type, n *smt.Term) *smt.Term {
	switch {
	case t == syntax.Bool:
		return n.Ne(e.z.Int(0))
	case t.IsInteger():
		return n.ToBVModular(uint(t.Bits()))
	case e.model == Real:
		return n.ToReal()
	}
	s, _ := e.Sort(t)
	return n.ToBV(64).SBVToFP(smt.RNE, s)
}

// cast converts the value a of type from to type to. ok is the condition
// under which the result is defined (true but for float-to-integer casts).
func (e *Encoder) cast(to, from syntax.Type, a *smt.Term) (r, ok *smt.Term, err error) {
	if to == syntax.Invalid || from == syntax.Invalid {
		return nil, nil, fmt.Errorf("cannot convert %s to %s", from, to)
	}
	ok = e.tru
	switch {
	case to == from:
		return a, ok, nil
	case to == syntax.Bool:
		return e.isNonZero(from, a), ok, nil
	case from == syntax.Bool:
		one, err := e.one(to)
		if err != nil {
			return nil, nil, err
		}
		zero, err := e.zero(to)
		if err != nil {
			return nil, nil, err
		}
		return a.Ite(one, zero), ok, nil
	case from.IsInteger() && to.IsInteger():
		return bvResize(a, from, to), ok, nil
	case from.IsInteger():
		if e.model == Real {
			r := e.bvInt(a, from).ToReal()
			e.intReals[r.ID()] = intReal{real: r, bv: a, t: from}
			return r, ok, nil
		}
		s, _ := e.Sort(to)
		if from.IsSigned() {
			return a.SBVToFP(smt.RNE, s), ok, nil
		}
		return a.UBVToFP(smt.RNE, s), ok, nil
	case to.IsFloat():
		if e.model == Real {
			return a, ok, nil
		}
		s, _ := e.Sort(to)
		return a.FPToFP(smt.RNE, s), ok, nil
	}
	return e.floatToInt(to, from, a)
}

// floatToInt truncates the float a toward zero into the integer type to;
// the result is defined when the truncation lies in to's range (NaN and the
// infinities never do).
func (e *Encoder) floatToInt(to, from syntax.Type, a *smt.Term) (r, ok *smt.Term, err error) {
	w := uint(to.Bits())
	lo, hi := new(big.Int), new(big.Int).Lsh(big.NewInt(1), w) // [lo, hi)
	if to.IsSigned() {
		hi.Rsh(hi, 1)
		lo.Neg(hi)
	}
	if e.model == Real {
		if n, isInt := e.intReals[a.ID()]; isInt && a.ID() != 0 {
			// An integer converted to a real and back: exact, defined
			// when the integer fits the target type, which the round
			// trip through it tells.
			return bvResize(n.bv, n.t, to), e.bvFits(n.bv, n.t, to), nil
		}
		zero := e.z.Real(0, 1)
		tr := a.Ge(zero).Ite(a.ToInt(), a.Neg().ToInt().Neg())
		ok = e.z.BigInt(lo).Le(tr).And(tr.Lt(e.z.BigInt(hi)))
		return tr.ToBV(w), ok, nil
	}
	// lo and hi are powers of two or zero: exact in f32 and f64.
	flo, _ := new(big.Float).SetInt(lo).Float64()
	fhi, _ := new(big.Float).SetInt(hi).Float64()
	klo, err := e.floatConst(from, flo)
	if err != nil {
		return nil, nil, err
	}
	khi, err := e.floatConst(from, fhi)
	if err != nil {
		return nil, nil, err
	}
	tr := a.FPRoundToIntegral(smt.RTZ)
	// IEEE comparisons are false on NaN, and ±∞ lie outside [lo, hi).
	ok = tr.FPGe(klo).And(tr.FPLt(khi))
	if to.IsSigned() {
		return a.FPToSBV(smt.RTZ, w), ok, nil
	}
	return a.FPToUBV(smt.RTZ, w), ok, nil
}

// bvFits is the condition that the integer a of type from lies in the
// range of the integer type to, compared in a width where both ranges are
// exact.
func (e *Encoder) bvFits(a *smt.Term, from, to syntax.Type) *smt.Term {
	fw, tw := uint(from.Bits()), uint(to.Bits())
	w := max(fw, tw) + 1
	x := a.ZeroExt(w - fw)
	if from.IsSigned() {
		x = a.SignExt(w - fw)
	}
	lo, hi := new(big.Int), new(big.Int).Lsh(big.NewInt(1), tw) // [lo, hi)
	if to.IsSigned() {
		hi.Rsh(hi, 1)
		lo.Neg(hi)
	}
	hi.Sub(hi, big.NewInt(1))
	mod := new(big.Int).Lsh(big.NewInt(1), w)
	bv := func(v *big.Int) *smt.Term { return e.z.BigBV(new(big.Int).Mod(v, mod), w) }
	return bv(lo).BVSLe(x).And(x.BVSLe(bv(hi)))
}

// isNonZero is x ≠ 0 for a value of type t (for floats: NaN is not zero,
// and neither zero is).
func (e *Encoder) isNonZero(t syntax.Type, a *smt.Term) *smt.Term {
	switch {
	case t.IsInteger():
		return a.Ne(e.z.BV(0, uint(t.Bits())))
	case e.model == Real:
		return a.Ne(e.z.Real(0, 1))
	}
	return a.FPIsZero().Not()
}

func (e *Encoder) one(t syntax.Type) (*smt.Term, error) {
	if t.IsInteger() {
		return e.z.BV(1, uint(t.Bits())), nil
	}
	return e.floatConst(t, 1)
}

func (e *Encoder) zero(t syntax.Type) (*smt.Term, error) {
	if t.IsInteger() {
		return e.z.BV(0, uint(t.Bits())), nil
	}
	return e.floatConst(t, 0)
}

// isReinterpret reports whether name is a bit cast, reinterpret_T.
func isReinterpret(name string) bool {
	_, ok := value.ReinterpretType(name)
	return ok
}

// reinterpret is the bit cast of the value a of type from to type to
// (value.Reinterpret); ok is the condition under which it is defined.
//
// Integers of one width have the same bit-vector: the cast is the
// identity. In the IEEE model, bits become a float by (_ to_fp e s)
// applied to the bit-vector, exactly (every NaN encoding gives Z3's one
// NaN, as value gives a NaN); a float becomes bits by fp.to_ieee_bv and is
// defined when it is not NaN, whose encoding value leaves undefined (Z3's
// fp.to_ieee_bv leaves it unspecified too). In the Real model, where a
// float is a real number with no encoding, both directions are
// uninterpreted functions, one per float type, of the bits or of the real,
// always defined: the same bit cast of the same value is the same value on
// both sides of an obligation, and nothing else is known of it.
func (e *Encoder) reinterpret(to, from syntax.Type, a *smt.Term) (r, ok *smt.Term, err error) {
	if !value.CanReinterpret(to, from) {
		return nil, nil, fmt.Errorf("cannot reinterpret %s as %s: the widths differ or one is not a number", from, to)
	}
	ok = e.tru
	switch {
	case to == from || to.IsInteger() && from.IsInteger():
		return a, ok, nil
	case e.model == Real:
		// from and to differ, one is a float: f32 and i32 or u32, say.
		var f *smt.FuncDecl
		if to.IsFloat() {
			f, err = e.bitFunction(fmt.Sprintf("%s.b%d", value.ReinterpretName(to), to.Bits()), to, true)
		} else {
			f, err = e.bitFunction("reinterpret_bits."+from.String(), from, false)
		}
		if err != nil {
			return nil, nil, err
		}
		return f.Apply(a), ok, nil
	case to.IsFloat():
		s, err := e.Sort(to)
		if err != nil {
			return nil, nil, err
		}
		return a.BVToFP(s), ok, nil
	}
	return a.FPToIEEEBV(), a.FPIsNaN().Not(), nil
}

// bitFunction is the uninterpreted function of the Real model between the
// float type f and the bit-vectors of its width, called name in Z3
// (reinterpret_f32.b32, reinterpret_bits.f32: a dot, so that no tensor
// has the name): from
// the bits to f when toFloat, from f to the bits otherwise. Its uses count
// among the uninterpreted builtins (Encoder.UninterpretedBuiltins): a
// model of an obligation may give it values no bit cast has.
func (e *Encoder) bitFunction(name string, f syntax.Type, toFloat bool) (*smt.FuncDecl, error) {
	e.opaqueFuncs++
	if d, ok := e.funcs[name]; ok {
		return d, nil
	}
	fs, err := e.Sort(f)
	if err != nil {
		return nil, err
	}
	bs := e.z.BVSort(uint(f.Bits()))
	dom, rng := bs, fs
	if !toFloat {
		dom, rng = fs, bs
	}
	d := e.z.FuncDecl(name, []*smt.Sort{dom}, rng)
	if err := d.Err(); err != nil {
		return nil, fmt.Errorf("function %s: %w", name, err)
	}
	e.funcs[name] = d
	return d, nil
}
