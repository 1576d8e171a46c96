package smt

// #include <stdlib.h>
// #include <z3.h>
import "C"

import (
	"strings"
	"unsafe"
)

// ReasonResourceLimit is ReasonUnknown after a Check ran out of its
// resource limit (see SetResourceLimit).
const ReasonResourceLimit = "resource limit"

// WithResourceLimit sets the default resource limit of every Check made by
// solvers of the context (see Solver.SetResourceLimit, which overrides it).
// Zero, the default, means no limit.
func WithResourceLimit(n uint64) Option {
	return func(c *Context) { c.rlimit = n }
}

// SetResourceLimit bounds the work of each later Check to n of Z3's
// resource units (Z3's "rlimit" solver parameter); zero means no limit.
// A Check that exhausts it returns Unknown with a nil error and
// ReasonUnknown ReasonResourceLimit.
//
// Unlike a time limit, the resource limit counts Z3's own steps: the same
// query on the same Z3 gets the same answer however loaded the machine is,
// which is what makes a verdict that depends on it reproducible.
func (s *Solver) SetResourceLimit(n uint64) error {
	z, err := s.enter()
	if err != nil {
		return err
	}
	// Z3 4.8 reads the parameter as an unsigned int.
	if n > 1<<32-1 {
		n = 1<<32 - 1
	}
	p := C.Z3_mk_params(z)
	C.Z3_params_inc_ref(z, p)
	defer C.Z3_params_dec_ref(z, p)
	name := C.CString("rlimit")
	defer C.free(unsafe.Pointer(name))
	C.Z3_params_set_uint(z, p, C.Z3_mk_string_symbol(z, name), C.uint(n))
	C.Z3_solver_set_params(z, s.s, p)
	if err := check(z, "SetResourceLimit"); err != nil {
		return err
	}
	s.rlimit = n
	return nil
}

// ResourcesUsed returns the resource units Z3 has counted in this solver's
// checks so far (its "rlimit count" statistic), the unit of
// SetResourceLimit.
func (s *Solver) ResourcesUsed() uint64 {
	z, err := s.enter()
	if err != nil {
		return 0
	}
	st := C.Z3_solver_get_statistics(z, s.s)
	if check(z, "ResourcesUsed") != nil || st == nil {
		return 0
	}
	C.Z3_stats_inc_ref(z, st)
	defer C.Z3_stats_dec_ref(z, st)
	n := int(C.Z3_stats_size(z, st))
	for i := 0; i < n; i++ {
		key := C.GoString(C.Z3_stats_get_key(z, st, C.uint(i)))
		if key != "rlimit count" {
			continue
		}
		if C.Z3_stats_is_uint(z, st, C.uint(i)) {
			return uint64(C.Z3_stats_get_uint_value(z, st, C.uint(i)))
		}
		return uint64(C.Z3_stats_get_double_value(z, st, C.uint(i)))
	}
	return 0
}

// normaliseReason maps Z3's wording of a resource-limit stop to
// ReasonResourceLimit.
func normaliseReason(r string) string {
	if strings.Contains(r, "resource limit") || strings.Contains(r, "rlimit") {
		return ReasonResourceLimit
	}
	return r
}

// memoryReason reports whether a reason of Z3's for an unknown answer is
// its memory limit ("max. memory exceeded", "memout").
func memoryReason(r string) bool {
	return strings.Contains(strings.ToLower(r), "memory") || r == "memout"
}
