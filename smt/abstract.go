package smt

// #include <stdlib.h>
// #include <z3.h>
import "C"

import (
	"errors"
	"runtime"
)

// An Abstraction is a set of formulas whose arithmetic over the integers
// and reals has been replaced by fresh constants (AbstractArith), with
// what remains of the formulas' theories.
type Abstraction struct {
	// Terms are the abstracted formulas, in the order given.
	Terms []*Term
	// Replaced counts the distinct subterms replaced by fresh constants.
	Replaced int
	// Bits reports whether the abstracted formulas keep a term of
	// bit-vector or floating-point sort (otherwise they are a boolean
	// combination of fresh constants, which decides nothing about the
	// bits).
	Bits bool
	// Floats and Functions report whether the abstracted formulas use
	// floating-point sorts and uninterpreted functions.
	Floats, Functions bool
}

// errNotAbstractable is AbstractArith's error for a formula with a
// quantifier, a bound variable or a sort it does not keep.
var errNotAbstractable = errors.New("smt: AbstractArith: not a quantifier-free formula over booleans, bit-vectors and floats")

// AbstractArith replaces, in the formulas ts, every maximal subterm of
// sort Bool, bit-vector, floating point or rounding mode that has an
// argument of another sort (an integer or real: an uninterpreted
// function applied to indices, a conversion of an index, a comparison of
// indices) by a fresh constant of its sort, equal subterms by the same
// constant. What is left is a formula over booleans, bit-vectors and
// floats alone, which Z3 bit-blasts, where the arithmetic mixed with it
// sends the query to Z3's general SMT kernel, far slower on bit-vectors.
//
// The abstraction is implied by the formulas: a model of ts gives each
// fresh constant the value of the subterm it replaces. So when the
// abstraction is unsatisfiable, so are the formulas; a model of it may be
// no model of them (two applications of a function to indices that are
// equal may get different constants). A formula that is itself of
// another sort, or that has a quantifier or a bound variable, is an
// error.
func (c *Context) AbstractArith(ts ...*Term) (*Abstraction, error) {
	z, err := c.enter()
	if err != nil {
		return nil, err
	}
	as, err := astsOf(c, ts)
	if err != nil {
		return nil, err
	}
	w := abstracter{c: c, z: z, done: map[C.uint]*Term{}, res: &Abstraction{}}
	for i, a := range as {
		if !w.kept(C.Z3_get_sort(z, a)) {
			return nil, errNotAbstractable
		}
		r, err := w.walk(ts[i], a)
		if err != nil {
			return nil, err
		}
		w.res.Terms = append(w.res.Terms, r)
	}
	return w.res, nil
}

// abstracter is one AbstractArith pass; done holds the result for each
// term met, by identifier (the terms are alive: subterms of the input).
type abstracter struct {
	c    *Context
	z    C.Z3_context
	done map[C.uint]*Term
	res  *Abstraction
	// bounded, when not nil, keeps the bounded arithmetic (BoundedToBV).
	bounded *bounder
}

// kept reports whether the abstraction keeps terms of sort s, noting
// floating-point sorts.
func (w *abstracter) kept(s C.Z3_sort) bool {
	switch C.Z3_get_sort_kind(w.z, s) {
	case C.Z3_BOOL_SORT, C.Z3_BV_SORT:
		return true
	case C.Z3_FLOATING_POINT_SORT, C.Z3_ROUNDING_MODE_SORT:
		w.res.Floats = true
		return true
	}
	return false
}

// walk abstracts the term t (whose raw term is a, of a kept sort).
func (w *abstracter) walk(t *Term, a C.Z3_ast) (*Term, error) {
	z := w.z
	id := C.Z3_get_ast_id(z, a)
	if r, ok := w.done[id]; ok {
		return r, nil
	}
	if t == nil {
		t = w.c.term(z, a, "AbstractArith")
	}
	var r *Term
	switch C.Z3_get_ast_kind(z, a) {
	case C.Z3_NUMERAL_AST:
		r = t
	case C.Z3_APP_AST:
		var err error
		if r, err = w.app(t, a); err != nil {
			return nil, err
		}
	default:
		return nil, errNotAbstractable
	}
	w.done[id] = r
	return r, nil
}

// app abstracts the application t (raw term a).
func (w *abstracter) app(t *Term, a C.Z3_ast) (*Term, error) {
	z := w.z
	app := C.Z3_to_app(z, a)
	n := int(C.Z3_get_app_num_args(z, app))
	raw := make([]C.Z3_ast, n)
	for i := range raw {
		raw[i] = C.Z3_get_app_arg(z, app, C.uint(i))
		if !w.kept(C.Z3_get_sort(z, raw[i])) {
			if r, ok, err := w.bounded.translate(a, func(x C.Z3_ast) (*Term, error) { return w.walk(nil, x) }); err != nil {
				return nil, err
			} else if ok {
				w.res.Bits = true
				return r, nil
			}
			w.res.Replaced++
			return w.c.FreshConst("abs", t.Sort()), nil
		}
	}
	if n > 0 && C.Z3_get_decl_kind(z, C.Z3_get_app_decl(z, app)) == C.Z3_OP_UNINTERPRETED {
		w.res.Functions = true
	}
	switch C.Z3_get_sort_kind(z, C.Z3_get_sort(z, a)) {
	case C.Z3_BV_SORT, C.Z3_FLOATING_POINT_SORT:
		w.res.Bits = true
	}
	args := make([]*Term, n)
	changed := false
	for i, b := range raw {
		r, err := w.walk(nil, b)
		if err != nil {
			return nil, err
		}
		args[i] = r
		changed = changed || r.a != b
	}
	if !changed {
		return t, nil
	}
	upd := make([]C.Z3_ast, n)
	for i, r := range args {
		upd[i] = r.a
	}
	r := w.c.term(z, C.Z3_update_term(z, a, C.uint(n), &upd[0]), "AbstractArith")
	runtime.KeepAlive(args) // their terms must outlive the call
	return r, nil
}

// Mentions reports whether the formulas ts have a subterm of bit-vector
// or floating-point sort (bits) and an application of bv2int, the
// conversion of a bit-vector to an integer (conv), walking each shared
// subterm once and building no term. Without bits, AbstractArith and
// BoundedToBV leave no term of those sorts (Abstraction.Bits is false);
// without conv, BoundedToBV keeps no arithmetic but what numerals alone
// build, which Z3's simplifier folds.
func (c *Context) Mentions(ts ...*Term) (bits, conv bool) {
	z, err := c.enter()
	if err != nil {
		return false, false
	}
	as, err := astsOf(c, ts)
	if err != nil {
		return false, false
	}
	walkDAG(z, as, func() bool { return bits && conv }, func(a C.Z3_ast) {
		switch C.Z3_get_sort_kind(z, C.Z3_get_sort(z, a)) {
		case C.Z3_BV_SORT, C.Z3_FLOATING_POINT_SORT:
			bits = true
		}
		if C.Z3_get_ast_kind(z, a) == C.Z3_APP_AST &&
			C.Z3_get_decl_kind(z, C.Z3_get_app_decl(z, C.Z3_to_app(z, a))) == C.Z3_OP_BV2INT {
			conv = true
		}
	})
	runtime.KeepAlive(ts)
	return bits, conv
}

// walkDAG calls visit once on each distinct term reachable from the raw
// terms as (shared subterms once), depth first, until done reports true.
func walkDAG(z C.Z3_context, as []C.Z3_ast, done func() bool, visit func(a C.Z3_ast)) {
	seen := map[C.uint]bool{}
	stack := append([]C.Z3_ast(nil), as...)
	for len(stack) > 0 && !done() {
		a := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		id := C.Z3_get_ast_id(z, a)
		if seen[id] {
			continue
		}
		seen[id] = true
		visit(a)
		if C.Z3_get_ast_kind(z, a) != C.Z3_APP_AST {
			continue
		}
		app := C.Z3_to_app(z, a)
		for i := range C.uint(C.Z3_get_app_num_args(z, app)) {
			stack = append(stack, C.Z3_get_app_arg(z, app, i))
		}
	}
}
