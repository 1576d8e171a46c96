package encode

import (
	"fmt"
	"math"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// Equal is the formula "a equals b" for two values of type t: Z3's
// structural equality, bit-exact on IEEE floats (NaN equals NaN, +0 differs
// from -0), as value.Value.Equal compares.
func (e *Encoder) Equal(a, b *smt.Term, t syntax.Type) (r *smt.Term, err error) {
	defer guard(&err, "equal")
	s, err := e.Sort(t)
	if err != nil {
		return nil, err
	}
	if !a.Sort().Equal(s) || !b.Sort().Equal(s) {
		return nil, fmt.Errorf("encode: equality of %s: terms of sorts %s and %s, want %s", t, a.Sort(), b.Sort(), s)
	}
	r = a.Eq(b)
	if t.IsInteger() {
		if k, ok := e.intEqual(a, b, uint(t.Bits())); ok {
			r = k
		}
	}
	return r, r.Err()
}

// Value reads the value of the term t of type typ in the model m (with
// model completion: what the model leaves open takes a default value).
// Integers and booleans are exact, IEEE floats bit-exact; a Real-model float
// is rounded to the nearest value of its type (ExactString gives the exact
// rational). The result is never undefined: definedness is a separate term.
func (e *Encoder) Value(m *smt.Model, t *smt.Term, typ syntax.Type) (v value.Value, err error) {
	defer guard(&err, "value")
	k, err := m.Eval(t, true)
	if err != nil {
		return value.Value{}, fmt.Errorf("encode: evaluate %s: %w", typ, err)
	}
	switch {
	case typ == syntax.Bool:
		b, err := k.BoolValue()
		if err != nil {
			return value.Value{}, fmt.Errorf("encode: read bool: %w", err)
		}
		return value.Bool(b), nil
	case typ.IsInteger():
		u, err := k.Uint64Value()
		if err != nil {
			return value.Value{}, fmt.Errorf("encode: read %s: %w", typ, err)
		}
		return value.Uint(typ, u), nil
	case typ.IsFloat() && e.model == Real:
		r, err := k.RatValue()
		if err != nil {
			return value.Value{}, fmt.Errorf("encode: read %s: %w", typ, err)
		}
		if typ == syntax.F32 {
			f, _ := r.Float32()
			return value.Float(typ, float64(f)), nil
		}
		f, _ := r.Float64()
		return value.Float(typ, f), nil
	case typ.IsFloat():
		bits, err := k.FloatBitsValue()
		if err != nil {
			return value.Value{}, fmt.Errorf("encode: read %s: %w", typ, err)
		}
		if typ == syntax.F32 {
			return value.Float(typ, float64(math.Float32frombits(uint32(bits.Uint64())))), nil
		}
		return value.Float(typ, math.Float64frombits(bits.Uint64())), nil
	}
	return value.Value{}, fmt.Errorf("encode: no value of type %s", typ)
}

// ExactString reads the term t, a float of the Real model (or any real or
// integer term), from the model m as an exact rational, such as "1/3" or
// "-2".
func (e *Encoder) ExactString(m *smt.Model, t *smt.Term) (s string, err error) {
	defer guard(&err, "exact value")
	k, err := m.Eval(t, true)
	if err != nil {
		return "", fmt.Errorf("encode: evaluate: %w", err)
	}
	r, err := k.RatValue()
	if err != nil {
		return "", fmt.Errorf("encode: read rational: %w", err)
	}
	return r.RatString(), nil
}
