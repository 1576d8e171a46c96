package smt

// #include <stdlib.h>
// #include <z3.h>
import "C"

import (
	"runtime"
	"unsafe"
)

// Truncations of nonlinear real terms. Z3 4.8.12's default arithmetic
// solver (arith.solver 6) can run on a query that truncates a product of
// reals to an integer, to_int(x · (1 / r)) beside integer bounds, without
// counting its resource units: bilateral_grid's counterexample searches
// ran past a limit of 2,000,000 units for minutes of CPU, counting a few
// million. Its legacy arithmetic solver (arith.solver 2) decides the same
// queries within a few million units, and stops at its resource limit
// where it does not.

// TruncatesNonlinear reports whether the formulas ts both convert a real
// term to an integer (to_int, which a float-to-integer cast and a
// truncation encode) and multiply or divide real terms of which two are
// not numerals (x · y, or x / y with y not a numeral): the mix on which
// Z3's default arithmetic solver may ignore its resource limit (see
// Solver.UseLegacyArithmetic).
func (c *Context) TruncatesNonlinear(ts ...*Term) bool {
	z, err := c.enter()
	if err != nil {
		return false
	}
	as, err := astsOf(c, ts)
	if err != nil {
		return false
	}
	w := producer{c: c, z: z}
	toInt, nonlinear := false, false
	walkDAG(z, as, func() bool { return toInt && nonlinear }, func(a C.Z3_ast) {
		if C.Z3_get_ast_kind(z, a) != C.Z3_APP_AST || C.Z3_get_sort_kind(z, C.Z3_get_sort(z, a)) != C.Z3_REAL_SORT &&
			C.Z3_get_decl_kind(z, C.Z3_get_app_decl(z, C.Z3_to_app(z, a))) != C.Z3_OP_TO_INT {
			return
		}
		app := C.Z3_to_app(z, a)
		n := int(C.Z3_get_app_num_args(z, app))
		switch C.Z3_get_decl_kind(z, C.Z3_get_app_decl(z, app)) {
		case C.Z3_OP_TO_INT:
			toInt = true
		case C.Z3_OP_MUL:
			others := 0
			for i := range n {
				if !w.constant(C.Z3_get_app_arg(z, app, C.uint(i))) {
					others++
				}
			}
			nonlinear = nonlinear || others >= 2
		case C.Z3_OP_DIV:
			nonlinear = nonlinear || n == 2 && !w.constant(C.Z3_get_app_arg(z, app, 1))
		}
	})
	runtime.KeepAlive(ts)
	return toInt && nonlinear
}

// UseLegacyArithmetic makes the solver's later checks use Z3's legacy
// arithmetic solver (the parameter arith.solver set to 2) instead of its
// default one. On queries that truncate nonlinear real terms
// (Context.TruncatesNonlinear) the default solver of Z3 4.8.12 can go on
// without counting resource units, so that only a time guard
// (SetCPUGuard) stops it; the legacy solver counts them and stops at the resource limit.
func (s *Solver) UseLegacyArithmetic() error {
	return s.setParam("UseLegacyArithmetic", "arith.solver", func(z C.Z3_context, p C.Z3_params, k C.Z3_symbol) {
		C.Z3_params_set_uint(z, p, k, 2)
	})
}

// setParam sets the solver's parameter name by set (a Z3_params_set_*
// call on the parameter set and the name's symbol); op names the
// operation in errors.
func (s *Solver) setParam(op, name string, set func(C.Z3_context, C.Z3_params, C.Z3_symbol)) error {
	z, err := s.enter()
	if err != nil {
		return err
	}
	p := C.Z3_mk_params(z)
	C.Z3_params_inc_ref(z, p)
	defer C.Z3_params_dec_ref(z, p)
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	set(z, p, C.Z3_mk_string_symbol(z, cname))
	C.Z3_solver_set_params(z, s.s, p)
	return check(z, op)
}

// UseBoundedNonlinear makes the solver's later checks leave out the
// complete procedure for nonlinear real arithmetic of Z3's default
// arithmetic solver (the parameter arith.nl.nra set to false), keeping its
// incomplete ones. That procedure counts no resource units: on the
// definedness probe of Halide's nl_means, a product of reals truncated to
// an integer (testdata/probe_nonlinear.smt2), Z3 4.8.12 ran in it past a
// limit of 1,000,000 units for minutes, where without it the solver gives
// up at once, incomplete. What it then answers sat or unsat stands.
func (s *Solver) UseBoundedNonlinear() error {
	return s.setParam("UseBoundedNonlinear", "arith.nl.nra", func(z C.Z3_context, p C.Z3_params, k C.Z3_symbol) {
		C.Z3_params_set_bool(z, p, k, false)
	})
}
