package value

// Equality is the equality of values in a value model: when a value
// computed by a kernel is the one its specification gives.
type Equality uint8

// Equalities.
const (
	// BitExact is Value.Equal: the same type and the same bits, NaNs
	// aside (every NaN equals every NaN), so that −0 and +0 differ. It is
	// the equality of the ieee value model, where an IEEE 754 float is
	// its bits, and the zero Equality.
	BitExact Equality = iota
	// RealEqual is the equality of the real value model, where floats
	// stand for real numbers: BitExact, except that −0 and +0 of one
	// float type are the same number, zero.
	RealEqual
)

// Equal reports whether v and w are the same value under q.
func (q Equality) Equal(v, w Value) bool {
	if v.Equal(w) {
		return true
	}
	return q == RealEqual && v.def && w.def && v.typ == w.typ && v.typ.IsFloat() &&
		v.Float64() == 0 && w.Float64() == 0
}

// Close reports whether v and w agree up to the tolerance tol
// (Value.Close), with q deciding equality: a tolerance of 0 is q.Equal.
func (q Equality) Close(v, w Value, tol float64) bool {
	return q.Equal(v, w) || v.Close(w, tol)
}

// Accepts reports whether a kernel's value got satisfies its
// specification's value spec: spec is defined, and either unconstrained
// (Value.IsUnconstrained: any value does) or Close to got under q.
func (q Equality) Accepts(spec, got Value, tol float64) bool {
	return !spec.IsUndef() && (spec.IsUnconstrained() || q.Close(got, spec, tol))
}
