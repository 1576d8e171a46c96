package smt

// #include <z3.h>
import "C"

// Integer and real arithmetic. Operands of one operation have one sort, Int
// or Real; Z3 reports mixing them as a sort error (convert with ToReal or
// ToInt).

// Add is the sum of ts (Z3_mk_add); it needs at least one term.
func (c *Context) Add(ts ...*Term) *Term {
	return c.mkN("Add", ts, 1, func(z C.Z3_context, n C.uint, p *C.Z3_ast) C.Z3_ast { return C.Z3_mk_add(z, n, p) })
}

// Mul is the product of ts (Z3_mk_mul); it needs at least one term.
func (c *Context) Mul(ts ...*Term) *Term {
	return c.mkN("Mul", ts, 1, func(z C.Z3_context, n C.uint, p *C.Z3_ast) C.Z3_ast { return C.Z3_mk_mul(z, n, p) })
}

// Add is x + y.
func (x *Term) Add(y *Term) *Term {
	return x.mk2("Add", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast {
		args := [2]C.Z3_ast{a, b}
		return C.Z3_mk_add(z, 2, &args[0])
	})
}

// Sub is x - y (Z3_mk_sub).
func (x *Term) Sub(y *Term) *Term {
	return x.mk2("Sub", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast {
		args := [2]C.Z3_ast{a, b}
		return C.Z3_mk_sub(z, 2, &args[0])
	})
}

// Mul is x · y.
func (x *Term) Mul(y *Term) *Term {
	return x.mk2("Mul", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast {
		args := [2]C.Z3_ast{a, b}
		return C.Z3_mk_mul(z, 2, &args[0])
	})
}

// Neg is -x (Z3_mk_unary_minus).
func (x *Term) Neg() *Term {
	return x.mk1("Neg", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_unary_minus(z, a) })
}

// Div is x / y (Z3_mk_div): on reals, division; on integers, SMT-LIB's
// Euclidean division, the q with x = q·y + r and 0 ≤ r < |y|. Division by
// zero is not an error: x/0 is an unspecified value, the same for the
// same x.
func (x *Term) Div(y *Term) *Term {
	return x.mk2("Div", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_div(z, a, b) })
}

// Mod is the Euclidean remainder of integers (Z3_mk_mod): 0 ≤ x mod y < |y|
// for y ≠ 0.
func (x *Term) Mod(y *Term) *Term {
	return x.mk2("Mod", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_mod(z, a, b) })
}

// Rem is Z3's integer remainder (Z3_mk_rem): x rem y has the absolute value
// of x mod y and the sign of y.
func (x *Term) Rem(y *Term) *Term {
	return x.mk2("Rem", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_rem(z, a, b) })
}

// Power is x^y (Z3_mk_power); Z3's support of nonlinear powers is partial.
func (x *Term) Power(y *Term) *Term {
	return x.mk2("Power", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_power(z, a, b) })
}

// Lt is x < y (Z3_mk_lt).
func (x *Term) Lt(y *Term) *Term {
	return x.mk2("Lt", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_lt(z, a, b) })
}

// Le is x ≤ y (Z3_mk_le).
func (x *Term) Le(y *Term) *Term {
	return x.mk2("Le", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_le(z, a, b) })
}

// Gt is x > y (Z3_mk_gt).
func (x *Term) Gt(y *Term) *Term {
	return x.mk2("Gt", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_gt(z, a, b) })
}

// Ge is x ≥ y (Z3_mk_ge).
func (x *Term) Ge(y *Term) *Term {
	return x.mk2("Ge", y, func(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_ge(z, a, b) })
}

// ToReal converts an integer term to the equal real (Z3_mk_int2real).
func (x *Term) ToReal() *Term {
	return x.mk1("ToReal", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_int2real(z, a) })
}

// ToInt converts a real term to the greatest integer not above it, its
// floor (Z3_mk_real2int).
func (x *Term) ToInt() *Term {
	return x.mk1("ToInt", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_real2int(z, a) })
}

// IsInt holds when the real x is an integer (Z3_mk_is_int).
func (x *Term) IsInt() *Term {
	return x.mk1("IsInt", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_is_int(z, a) })
}

// ToBV converts an integer to the bit-vector of the given width holding it
// modulo 2^width (Z3_mk_int2bv).
func (x *Term) ToBV(width uint) *Term {
	if width == 0 {
		return x.withErr(opError("ToBV", "bit-vector width must be positive"))
	}
	return x.mk1("ToBV", func(z C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_int2bv(z, C.uint(width), a) })
}

// withErr returns a term carrying err, or x's own error if it has one.
func (x *Term) withErr(err error) *Term {
	if x.Err() != nil {
		return x.errTerm()
	}
	return x.ctx.termErr(err)
}
