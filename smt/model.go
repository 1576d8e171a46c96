package smt

// #include <z3.h>
import "C"

import (
	"errors"
	"math"
	"math/big"
	"runtime"
	"unsafe"
)

// A Model assigns values to the constants and functions of a satisfiable
// set of assertions (Z3_model).
type Model struct {
	ctx     *Context
	m       C.Z3_model
	cleanup runtime.Cleanup
	closed  bool
}

func (c *Context) model(z C.Z3_context, m C.Z3_model) *Model {
	C.Z3_model_inc_ref(z, m)
	c.take(relModel, unsafe.Pointer(m))
	w := &Model{ctx: c, m: m}
	w.cleanup = runtime.AddCleanup(w, c.h.releaseModel, unsafe.Pointer(m))
	return w
}

func (m *Model) enter() (C.Z3_context, error) {
	if m == nil {
		return nil, errors.New("smt: nil model")
	}
	z, err := m.ctx.enter()
	if err != nil {
		return nil, err
	}
	if m.closed {
		return nil, errors.New("smt: model is closed")
	}
	return z, nil
}

// Close gives the model back to Z3 at once rather than when the garbage
// collector finds it unreachable. Terms obtained from it stay valid.
func (m *Model) Close() error {
	if m == nil || m.closed || m.ctx == nil || m.ctx.h == nil {
		return nil
	}
	m.closed = true
	m.cleanup.Stop()
	if z := m.ctx.h.z; z != nil {
		C.Z3_model_dec_ref(z, m.m)
		m.ctx.give(release{relModel, unsafe.Pointer(m.m)})
	}
	return nil
}

// Eval evaluates t in the model (Z3_model_eval). With completion, constants
// and functions the model leaves unspecified are given default values, so
// that the result is a value (a numeral, true or false); without it they
// stay symbolic.
func (m *Model) Eval(t *Term, completion bool) (*Term, error) {
	z, err := m.enter()
	if err != nil {
		return nil, err
	}
	a, err := t.use(m.ctx)
	if err != nil {
		return nil, err
	}
	var out C.Z3_ast
	ok := C.Z3_model_eval(z, m.m, a, C.bool(completion), &out)
	if err := check(z, "Eval"); err != nil {
		return nil, err
	}
	if !ok || out == nil {
		return nil, opError("Eval", "cannot evaluate "+t.String())
	}
	r := m.ctx.term(z, out, "Eval")
	return r, r.err
}

// Consts are the constants the model gives values to
// (Z3_model_get_const_decl).
func (m *Model) Consts() ([]*FuncDecl, error) {
	z, err := m.enter()
	if err != nil {
		return nil, err
	}
	n := int(C.Z3_model_get_num_consts(z, m.m))
	out := make([]*FuncDecl, n)
	for i := range out {
		out[i] = m.ctx.funcDecl(z, C.Z3_model_get_const_decl(z, m.m, C.uint(i)), "Consts")
		if out[i].err != nil {
			return nil, out[i].err
		}
	}
	return out, nil
}

// ConstValue is the value the model gives the constant f
// (Z3_model_get_const_interp).
func (m *Model) ConstValue(f *FuncDecl) (*Term, error) {
	z, err := m.enter()
	if err != nil {
		return nil, err
	}
	if f.Err() != nil {
		return nil, f.Err()
	}
	if f.ctx != m.ctx {
		return nil, errForeign
	}
	if C.Z3_get_arity(z, f.d) != 0 {
		return nil, opError("ConstValue", "not a constant: "+f.Name())
	}
	a := C.Z3_model_get_const_interp(z, m.m, f.d)
	if err := check(z, "ConstValue"); err != nil {
		return nil, err
	}
	if a == nil {
		return nil, opError("ConstValue", "the model does not interpret "+f.Name())
	}
	r := m.ctx.term(z, a, "ConstValue")
	return r, r.err
}

// String is Z3's rendering of the model (Z3_model_to_string).
func (m *Model) String() string {
	z, err := m.enter()
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return C.GoString(C.Z3_model_to_string(z, m.m))
}

// The methods below evaluate a term with model completion and read the
// value back as a Go value.

// Bool evaluates a boolean term.
func (m *Model) Bool(t *Term) (bool, error) {
	v, err := m.Eval(t, true)
	if err != nil {
		return false, err
	}
	return v.BoolValue()
}

// Int evaluates an integer term, or a bit-vector term as unsigned.
func (m *Model) Int(t *Term) (*big.Int, error) {
	v, err := m.Eval(t, true)
	if err != nil {
		return nil, err
	}
	return v.IntValue()
}

// Int64 evaluates an integer term that fits int64.
func (m *Model) Int64(t *Term) (int64, error) {
	v, err := m.Eval(t, true)
	if err != nil {
		return 0, err
	}
	return v.Int64Value()
}

// Uint64 evaluates a bit-vector term of width at most 64, or an integer
// term that fits uint64.
func (m *Model) Uint64(t *Term) (uint64, error) {
	v, err := m.Eval(t, true)
	if err != nil {
		return 0, err
	}
	return v.Uint64Value()
}

// Rat evaluates a real or integer term with a rational value.
func (m *Model) Rat(t *Term) (*big.Rat, error) {
	v, err := m.Eval(t, true)
	if err != nil {
		return nil, err
	}
	return v.RatValue()
}

// Float32 evaluates a Float32Sort term.
func (m *Model) Float32(t *Term) (float32, error) {
	v, err := m.Eval(t, true)
	if err != nil {
		return 0, err
	}
	return v.Float32Value()
}

// Float64 evaluates a Float64Sort term.
func (m *Model) Float64(t *Term) (float64, error) {
	v, err := m.Eval(t, true)
	if err != nil {
		return 0, err
	}
	return v.Float64Value()
}

// BoolValue is the value of the term true or false (Z3_get_bool_value).
func (t *Term) BoolValue() (bool, error) {
	if err := t.Err(); err != nil {
		return false, err
	}
	z, err := t.ctx.enter()
	if err != nil {
		return false, err
	}
	switch C.Z3_get_bool_value(z, t.a) {
	case C.Z3_L_TRUE:
		return true, nil
	case C.Z3_L_FALSE:
		return false, nil
	}
	return false, opError("BoolValue", "not true or false: "+t.String())
}

// numeral returns the decimal spelling of a numeral term of one of the
// given sort kinds (Z3_get_numeral_string).
func (t *Term) numeral(op string, kinds ...SortKind) (string, SortKind, error) {
	if err := t.Err(); err != nil {
		return "", 0, err
	}
	z, err := t.ctx.enter()
	if err != nil {
		return "", 0, err
	}
	k := SortKind(C.Z3_get_sort_kind(z, C.Z3_get_sort(z, t.a)))
	ok := false
	for _, want := range kinds {
		ok = ok || k == want
	}
	if !ok || !bool(C.Z3_is_numeral_ast(z, t.a)) {
		return "", k, opError(op, "not a numeral of the right sort: "+t.String())
	}
	s := C.GoString(C.Z3_get_numeral_string(z, t.a))
	return s, k, check(z, op)
}

// IntValue is the value of an integer numeral, or the unsigned value of a
// bit-vector numeral.
func (t *Term) IntValue() (*big.Int, error) {
	s, _, err := t.numeral("IntValue", KindInt, KindBV)
	if err != nil {
		return nil, err
	}
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, opError("IntValue", "cannot read numeral "+s)
	}
	return v, nil
}

// Int64Value is IntValue when it fits int64.
func (t *Term) Int64Value() (int64, error) {
	v, err := t.IntValue()
	if err != nil {
		return 0, err
	}
	if !v.IsInt64() {
		return 0, opError("Int64Value", v.String()+" does not fit int64")
	}
	return v.Int64(), nil
}

// Uint64Value is IntValue when it fits uint64.
func (t *Term) Uint64Value() (uint64, error) {
	v, err := t.IntValue()
	if err != nil {
		return 0, err
	}
	if !v.IsUint64() {
		return 0, opError("Uint64Value", v.String()+" does not fit uint64")
	}
	return v.Uint64(), nil
}

// RatValue is the value of a real or integer numeral. Irrational values
// (Z3's algebraic numbers, e.g. the root of x·x = 2) are an error.
func (t *Term) RatValue() (*big.Rat, error) {
	s, _, err := t.numeral("RatValue", KindInt, KindReal)
	if err != nil {
		return nil, err
	}
	v, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, opError("RatValue", "cannot read numeral "+s)
	}
	return v, nil
}

// FloatBitsValue is the IEEE interchange encoding of a floating-point
// numeral, with NaN encoded as the quiet NaN of positive sign and zero
// payload (Go's math.NaN pattern for Float64).
func (t *Term) FloatBitsValue() (*big.Int, error) {
	if err := t.Err(); err != nil {
		return nil, err
	}
	c := t.ctx
	z, err := c.enter()
	if err != nil {
		return nil, err
	}
	sp := C.Z3_get_sort(z, t.a)
	if SortKind(C.Z3_get_sort_kind(z, sp)) != KindFloat || !bool(C.Z3_is_numeral_ast(z, t.a)) {
		return nil, opError("FloatBitsValue", "not a floating-point numeral: "+t.String())
	}
	eb, sb := uint(C.Z3_fpa_get_ebits(z, sp)), uint(C.Z3_fpa_get_sbits(z, sp))
	if C.Z3_fpa_is_numeral_nan(z, t.a) {
		v := new(big.Int).Lsh(big.NewInt(1), eb+1)
		v.Sub(v, big.NewInt(1))    // 0 followed by eb+1 ones
		return v.Lsh(v, sb-2), nil // exponent all ones, top significand bit set
	}
	// Every non-NaN numeral has a single encoding, which the simplifier
	// computes.
	bits := c.term(z, C.Z3_mk_fpa_to_ieee_bv(z, t.a), "FloatBitsValue").Simplify()
	return bits.IntValue()
}

// Float64Value is the value of a Float64Sort numeral.
func (t *Term) Float64Value() (float64, error) {
	if err := t.floatSort(11, 53); err != nil {
		return 0, err
	}
	v, err := t.FloatBitsValue()
	if err != nil {
		return 0, err
	}
	return math.Float64frombits(v.Uint64()), nil
}

// Float32Value is the value of a Float32Sort numeral.
func (t *Term) Float32Value() (float32, error) {
	if err := t.floatSort(8, 24); err != nil {
		return 0, err
	}
	v, err := t.FloatBitsValue()
	if err != nil {
		return 0, err
	}
	return math.Float32frombits(uint32(v.Uint64())), nil
}

func (t *Term) floatSort(eb, sb uint) error {
	if err := t.Err(); err != nil {
		return err
	}
	e, s := t.Sort().FloatBits()
	if e != eb || s != sb {
		return opError("FloatValue", "wrong floating-point sort: "+t.Sort().String())
	}
	return nil
}
