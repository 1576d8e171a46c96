package smt

// #include <z3.h>
import "C"

import (
	"errors"
	"unsafe"
)

// A Sort is a Z3 sort (a type of terms). Like a Term, a Sort built from a
// failed call carries the error (Sort.Err) and passes it on to whatever is
// built from it.
type Sort struct {
	ctx *Context
	s   C.Z3_sort
	err error
}

// SortKind classifies sorts (Z3_sort_kind).
type SortKind int

// The kinds of sort this package builds.
const (
	KindUninterpreted SortKind = C.Z3_UNINTERPRETED_SORT
	KindBool          SortKind = C.Z3_BOOL_SORT
	KindInt           SortKind = C.Z3_INT_SORT
	KindReal          SortKind = C.Z3_REAL_SORT
	KindBV            SortKind = C.Z3_BV_SORT
	KindFloat         SortKind = C.Z3_FLOATING_POINT_SORT
	KindRoundingMode  SortKind = C.Z3_ROUNDING_MODE_SORT
	KindUnknown       SortKind = C.Z3_UNKNOWN_SORT
)

var errNilSort = errors.New("smt: nil sort")

func (c *Context) sort(z C.Z3_context, s C.Z3_sort, op string) *Sort {
	if err := check(z, op); err != nil {
		return &Sort{ctx: c, err: err}
	}
	if s == nil {
		return &Sort{ctx: c, err: opError(op, "Z3 returned no sort")}
	}
	w := &Sort{ctx: c, s: s}
	incRef(c, w, z, C.Z3_sort_to_ast(z, s))
	return w
}

func (c *Context) sortErr(err error) *Sort { return &Sort{ctx: c, err: err} }

func (c *Context) mkSort(op string, f func(z C.Z3_context) C.Z3_sort) *Sort {
	z, err := c.enter()
	if err != nil {
		return c.sortErr(err)
	}
	return c.sort(z, f(z), op)
}

// BoolSort is the sort of booleans.
func (c *Context) BoolSort() *Sort {
	return c.mkSort("BoolSort", func(z C.Z3_context) C.Z3_sort { return C.Z3_mk_bool_sort(z) })
}

// IntSort is the sort of mathematical integers.
func (c *Context) IntSort() *Sort {
	return c.mkSort("IntSort", func(z C.Z3_context) C.Z3_sort { return C.Z3_mk_int_sort(z) })
}

// RealSort is the sort of mathematical reals.
func (c *Context) RealSort() *Sort {
	return c.mkSort("RealSort", func(z C.Z3_context) C.Z3_sort { return C.Z3_mk_real_sort(z) })
}

// BVSort is the sort of bit-vectors of the given width (Z3_mk_bv_sort);
// width must be positive.
func (c *Context) BVSort(width uint) *Sort {
	if width == 0 || width > 1<<30 {
		return c.sortErr(opError("BVSort", "bit-vector width must be positive"))
	}
	return c.mkSort("BVSort", func(z C.Z3_context) C.Z3_sort { return C.Z3_mk_bv_sort(z, C.uint(width)) })
}

// FloatSort is the IEEE 754 sort with ebits exponent bits and sbits
// significand bits, the hidden bit included (Z3_mk_fpa_sort): Float32 is
// (8, 24), Float64 is (11, 53). Z3 requires ebits > 1 and sbits > 2.
func (c *Context) FloatSort(ebits, sbits uint) *Sort {
	if ebits < 2 || sbits < 3 || ebits > 1<<20 || sbits > 1<<20 {
		return c.sortErr(opError("FloatSort", "needs ebits > 1 and sbits > 2"))
	}
	return c.mkSort("FloatSort", func(z C.Z3_context) C.Z3_sort { return C.Z3_mk_fpa_sort(z, C.uint(ebits), C.uint(sbits)) })
}

// Float32Sort is IEEE binary32, FloatSort(8, 24).
func (c *Context) Float32Sort() *Sort { return c.FloatSort(8, 24) }

// Float64Sort is IEEE binary64, FloatSort(11, 53).
func (c *Context) Float64Sort() *Sort { return c.FloatSort(11, 53) }

// RoundingModeSort is the sort of IEEE rounding modes
// (Z3_mk_fpa_rounding_mode_sort).
func (c *Context) RoundingModeSort() *Sort {
	return c.mkSort("RoundingModeSort", func(z C.Z3_context) C.Z3_sort { return C.Z3_mk_fpa_rounding_mode_sort(z) })
}

// UninterpretedSort is the uninterpreted sort called name
// (Z3_mk_uninterpreted_sort): a nonempty set about which nothing else is
// known. Two calls with the same name give the same sort.
func (c *Context) UninterpretedSort(name string) *Sort {
	return c.mkSort("UninterpretedSort", func(z C.Z3_context) C.Z3_sort { return C.Z3_mk_uninterpreted_sort(z, symbol(z, name)) })
}

// Err is the error the sort carries, nil for a valid sort.
func (s *Sort) Err() error {
	if s == nil {
		return errNilSort
	}
	return s.err
}

// use checks that s is a valid sort of c and returns its Z3 pointer.
func (s *Sort) use(c *Context) (C.Z3_sort, error) {
	if s == nil {
		return nil, errNilSort
	}
	if s.err != nil {
		return nil, s.err
	}
	if s.ctx != c {
		return nil, errForeign
	}
	return s.s, nil
}

// Kind classifies the sort (Z3_get_sort_kind); KindUnknown if the sort is
// invalid.
func (s *Sort) Kind() SortKind {
	if s.Err() != nil {
		return KindUnknown
	}
	z, err := s.ctx.enter()
	if err != nil {
		return KindUnknown
	}
	return SortKind(C.Z3_get_sort_kind(z, s.s))
}

// BVWidth is the width of a bit-vector sort (Z3_get_bv_sort_size), 0 for
// other sorts.
func (s *Sort) BVWidth() uint {
	if s.Kind() != KindBV {
		return 0
	}
	z, _ := s.ctx.enter()
	return uint(C.Z3_get_bv_sort_size(z, s.s))
}

// FloatBits gives the exponent and significand widths of a floating-point
// sort (Z3_fpa_get_ebits, Z3_fpa_get_sbits; sbits counts the hidden bit),
// zeros for other sorts.
func (s *Sort) FloatBits() (ebits, sbits uint) {
	if s.Kind() != KindFloat {
		return 0, 0
	}
	z, _ := s.ctx.enter()
	return uint(C.Z3_fpa_get_ebits(z, s.s)), uint(C.Z3_fpa_get_sbits(z, s.s))
}

// Equal reports whether s and t are the same sort (Z3_is_eq_sort).
func (s *Sort) Equal(t *Sort) bool {
	if s.Err() != nil || t.Err() != nil || s.ctx != t.ctx {
		return false
	}
	z, err := s.ctx.enter()
	if err != nil {
		return false
	}
	return bool(C.Z3_is_eq_sort(z, s.s, t.s))
}

// String is the sort in SMT-LIB2 notation (Z3_sort_to_string).
func (s *Sort) String() string {
	if err := s.Err(); err != nil {
		return "<error: " + err.Error() + ">"
	}
	z, err := s.ctx.enter()
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return C.GoString(C.Z3_sort_to_string(z, s.s))
}

// sortsOf checks sorts and returns their Z3 pointers in a slice that can be
// passed to C (it holds only C pointers).
func sortsOf(c *Context, ss []*Sort) ([]C.Z3_sort, error) {
	out := make([]C.Z3_sort, len(ss))
	for i, s := range ss {
		p, err := s.use(c)
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

// firstSort returns a pointer to the first element, or nil for an empty
// slice, as C wants for arrays.
func firstSort(ss []C.Z3_sort) *C.Z3_sort {
	if len(ss) == 0 {
		return nil
	}
	return (*C.Z3_sort)(unsafe.Pointer(&ss[0]))
}
