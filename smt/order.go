package smt

// #include <z3.h>
import "C"

import "unsafe"

// Before reports whether t comes before u in the structural order of
// terms: by Z3's structural hash (Term.Hash), then, for the rare distinct
// terms with equal hashes, by their printed form. The order depends on the
// terms alone, unlike one by identifier (a freed term's identifier goes to
// a later term, so identifiers depend on when the collector released
// terms), and so it is the same in every run.
func (t *Term) Before(u *Term) bool {
	ht, hu := t.Hash(), u.Hash()
	if ht != hu {
		return ht < hu
	}
	if t.ID() == u.ID() {
		return false
	}
	return t.String() < u.String()
}

// OrderOperands returns t with the two operands of every floating-point
// addition and multiplication under it in structural order (Before), from
// the leaves up. IEEE addition and multiplication commute exactly, so the
// result equals t in every model; two sides that differ only in the order
// of such operands become one term, which Z3's simplifier does not do for
// floating point (it sorts integer, real and bit-vector sums itself).
func (t *Term) OrderOperands() *Term {
	z, bad := t.enter()
	if bad != nil {
		return bad
	}
	c := t.ctx
	o := operandOrder{z: z, done: map[C.uint]C.Z3_ast{}}
	defer o.release()
	r := o.walk(t.a)
	return c.term(z, r, "OrderOperands")
}

// operandOrder is one OrderOperands pass. Every term it makes is held by
// a reference until the pass ends: in Z3's reference-counting mode a new
// term without one may be freed by the next call.
type operandOrder struct {
	z    C.Z3_context
	done map[C.uint]C.Z3_ast // by identifier of the input term (alive during the pass)
	held []C.Z3_ast
}

func (o *operandOrder) release() {
	for _, a := range o.held {
		C.Z3_dec_ref(o.z, a)
	}
}

func (o *operandOrder) hold(a C.Z3_ast) C.Z3_ast {
	C.Z3_inc_ref(o.z, a)
	o.held = append(o.held, a)
	return a
}

// before is Before on raw terms of the pass.
func (o *operandOrder) before(a, b C.Z3_ast) bool {
	ha, hb := C.Z3_get_ast_hash(o.z, a), C.Z3_get_ast_hash(o.z, b)
	if ha != hb {
		return ha < hb
	}
	if C.Z3_is_eq_ast(o.z, a, b) {
		return false
	}
	return C.GoString(C.Z3_ast_to_string(o.z, a)) < C.GoString(C.Z3_ast_to_string(o.z, b))
}

func (o *operandOrder) walk(a C.Z3_ast) C.Z3_ast {
	id := C.Z3_get_ast_id(o.z, a)
	if r, ok := o.done[id]; ok {
		return r
	}
	r := a
	if C.Z3_get_ast_kind(o.z, a) == C.Z3_APP_AST {
		app := C.Z3_to_app(o.z, a)
		n := int(C.Z3_get_app_num_args(o.z, app))
		if n > 0 {
			args := make([]C.Z3_ast, n)
			changed := false
			for i := range args {
				arg := C.Z3_get_app_arg(o.z, app, C.uint(i))
				args[i] = o.walk(arg)
				changed = changed || args[i] != arg
			}
			switch C.Z3_get_decl_kind(o.z, C.Z3_get_app_decl(o.z, app)) {
			case C.Z3_OP_FPA_ADD, C.Z3_OP_FPA_MUL:
				// (rounding mode, x, y)
				if n == 3 && o.before(args[2], args[1]) {
					args[1], args[2] = args[2], args[1]
					changed = true
				}
			}
			if changed {
				r = o.hold(C.Z3_update_term(o.z, a, C.uint(n), (*C.Z3_ast)(unsafe.Pointer(&args[0]))))
			}
		}
	}
	o.done[id] = r
	return r
}
