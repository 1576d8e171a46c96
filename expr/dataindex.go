package expr

import (
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// This file checks and evaluates data-dependent indices (Clément 2022,
// section 9.6.1): an index of a tensor access or array read that is an
// integer value expression, such as the i32(clamp(A(x), 0, 255)) of
// LUT(i32(clamp(A(x), 0, 255))), instead of a quasi-affine expression.

// isDataIndex reports whether the index x of an access is to be checked as
// a data-dependent index: when they are allowed, an index that reads a
// tensor or an array somewhere. Any other index stays in the index
// language, checked (and diagnosed) as before.
func (c *Checker) isDataIndex(x syntax.Expr) bool {
	return c.AllowDataIndex && readsData(c, x)
}

// readsData reports whether x contains a tensor access, an array read or
// a conversion (i32(floor(f32(i32(y)) / f32(P))), a coordinate computed
// in float from a variable): the index language has none of them.
func readsData(c *Checker, x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.Index:
		return true
	case *syntax.Unary:
		return readsData(c, x.X)
	case *syntax.Binary:
		return readsData(c, x.X) || readsData(c, x.Y)
	case *syntax.Chain:
		for _, o := range x.Operands {
			if readsData(c, o) {
				return true
			}
		}
	case *syntax.Call:
		if c.isTensor(x.Fun.Name) || syntax.TypeByName(x.Fun.Name) != syntax.Invalid {
			return true
		}
		for _, a := range x.Args {
			if readsData(c, a) {
				return true
			}
		}
	}
	return false
}

// accessIndex checks one index of a tensor access or array read: a
// quasi-affine index expression, or, where allowed, a data-dependent index
// of an integer type whose values all fit in int64 (every integer type
// but u64). The checker records the type of a data-dependent index in
// Info.Types, and of no other index: that is how IsDataIndex tells them
// apart.
func (c *Checker) accessIndex(x syntax.Expr) bool {
	if !c.isDataIndex(x) {
		return c.Index(x)
	}
	t := c.Value(x, syntax.Invalid)
	if t == syntax.Invalid {
		return false
	}
	if !t.IsInteger() || t == syntax.U64 {
		c.errorf(x.Pos(), syntax.CodeType, "data-dependent index %s has type %s, want a signed integer type or u8, u16, u32", syntax.ExprString(x), t)
		return false
	}
	return true
}

// IsDataIndex reports whether the index x of a checked tensor access or
// array read is data-dependent: an integer value expression rather than a
// quasi-affine index expression.
func (info *Info) IsDataIndex(x syntax.Expr) bool {
	if info == nil || plainIndex(x) {
		return false
	}
	_, ok := info.Types[x]
	return ok
}

// plainIndex reports whether x is made of identifiers, literals and
// unary and binary operators only: no access, read or call, so that x is
// no data-dependent index (readsData) and the checker records no type
// for it (accessIndex). IsDataIndex answers so without looking x up in
// Info.Types, a large table, at every index an interpreter evaluates.
func plainIndex(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.Ident, *syntax.Lit:
		return true
	case *syntax.Unary:
		return plainIndex(x.X)
	case *syntax.Binary:
		return plainIndex(x.X) && plainIndex(x.Y)
	}
	return false
}

// HasDataIndex reports whether the checked expression x contains a tensor
// access or an array read with a data-dependent index.
func (info *Info) HasDataIndex(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.Index:
		for _, i := range x.Indices {
			if info.IsDataIndex(i) || info.HasDataIndex(i) {
				return true
			}
		}
	case *syntax.Unary:
		return info.HasDataIndex(x.X)
	case *syntax.Binary:
		return info.HasDataIndex(x.X) || info.HasDataIndex(x.Y)
	case *syntax.Chain:
		for _, o := range x.Operands {
			if info.HasDataIndex(o) {
				return true
			}
		}
	case *syntax.Call:
		tensor := isTensorAccess(x)
		for _, a := range x.Args {
			if tensor && info.IsDataIndex(a) || info.HasDataIndex(a) {
				return true
			}
		}
	}
	return false
}

// isTensorAccess reports whether the call x is a tensor access: neither a
// conversion, a bit cast nor a built-in function.
func isTensorAccess(x *syntax.Call) bool {
	name := x.Fun.Name
	if _, ok := value.LookupBuiltin(name); ok {
		return false
	}
	return syntax.TypeByName(name) == syntax.Invalid && !isReinterpret(name)
}

// evalAccessIndices evaluates the indices of a tensor access or array read
// in env: a data-dependent index by its value (info records its type).
// defined is false when a data-dependent index is undefined: the access
// then reads nothing and is undefined. free is true when one is
// unconstrained (value.Value.IsUnconstrained): so is the access then.
func evalAccessIndices(xs []syntax.Expr, info *Info, env Env) (idx []int64, defined, free bool, err error) {
	idx = make([]int64, len(xs))
	for i, a := range xs {
		if !info.IsDataIndex(a) {
			n, err := EvalIndex(a, env)
			if err != nil {
				return nil, false, false, err
			}
			idx[i] = n
			continue
		}
		v, err := EvalValue(a, info, env)
		if err != nil {
			return nil, false, false, err
		}
		if v.IsUndef() {
			return nil, false, false, nil
		}
		free = free || v.IsUnconstrained()
		if v.Type().IsUnsigned() {
			idx[i] = int64(v.Uint64())
		} else {
			idx[i] = v.Int64()
		}
	}
	return idx, true, free, nil
}

// AccessIndex checks the index x of an array write (Clément 2022, section
// 9.6.3): a quasi-affine index expression or, where AllowDataIndex permits
// it, a data-dependent index checked as accessIndex checks a read's.
func (c *Checker) AccessIndex(x syntax.Expr) bool { return c.accessIndex(x) }

// EvalDataIndex evaluates a data-dependent index x (one that info records
// as such) in env to the integer its value denotes. defined is false when
// the value is undefined.
func EvalDataIndex(x syntax.Expr, info *Info, env Env) (n int64, defined bool, err error) {
	idx, defined, _, err := evalAccessIndices([]syntax.Expr{x}, info, env)
	if err != nil || !defined {
		return 0, defined, err
	}
	return idx[0], true, nil
}
