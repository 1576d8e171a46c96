package smt

// #include <z3.h>
import "C"

import (
	"runtime"
	"slices"
	"strings"
)

// Names of the uninterpreted functions that stand for the real products
// and quotients AbstractProducts replaces. Their signature, Real × Real →
// Real, is that of no tensor (whose arguments are integer indices).
const (
	productName  = "nl.mul"
	quotientName = "nl.div"
)

// AbstractProducts replaces, in the formulas ts, every product of real
// terms with two or more factors that are not numerals by applications of
// an uninterpreted function nl.mul : Real × Real → Real (the factors
// ordered by the names of their outermost functions, so that A(i)·B(j)
// and B(j)·A(k) have their reads of A at the same place, and folded from
// the left: x·y·z is nl.mul(nl.mul(x, y), z) times the numerals of the
// product), and every quotient of real terms whose divisor
// is not a numeral by nl.div. Integer arithmetic, quantifiers and the
// bodies of recursive functions are kept as they are. It returns the
// formulas and the number of products and quotients replaced (zero: the
// formulas are ts themselves).
//
// What is left is linear where only real values multiplied one another:
// Z3 4.8.12's plain SMT kernel can loop on nonlinear real arithmetic,
// heeding neither its resource limit nor Z3_interrupt, where the proofs
// that a value equals another need the products only as terms equal to
// terms.
//
// The abstraction is implied by the formulas: a model of ts is one of
// the abstraction with nl.mul interpreted as multiplication and nl.div as
// the model's division (commutative multiplication makes the order of the
// factors irrelevant). So when the abstraction is unsatisfiable, so are
// the formulas; a model of it need not be one of them (nl.mul(x, x) may
// be negative), and proves nothing.
func (c *Context) AbstractProducts(ts ...*Term) ([]*Term, int, error) {
	z, err := c.enter()
	if err != nil {
		return nil, 0, err
	}
	as, err := astsOf(c, ts)
	if err != nil {
		return nil, 0, err
	}
	r := c.RealSort()
	w := producer{c: c, z: z, done: map[C.uint]*Term{},
		mul: c.FuncDecl(productName, []*Sort{r, r}, r),
		div: c.FuncDecl(quotientName, []*Sort{r, r}, r)}
	if err := w.mul.Err(); err != nil {
		return nil, 0, err
	}
	if err := w.div.Err(); err != nil {
		return nil, 0, err
	}
	out := make([]*Term, len(ts))
	for i, a := range as {
		if out[i], err = w.walk(ts[i], a); err != nil {
			return nil, 0, err
		}
	}
	if w.replaced == 0 {
		return ts, 0, nil
	}
	return out, w.replaced, nil
}

// producer is one AbstractProducts pass; done holds the result for each
// term met, by identifier (the terms are alive: subterms of the input).
type producer struct {
	c        *Context
	z        C.Z3_context
	done     map[C.uint]*Term
	mul, div *FuncDecl
	replaced int
}

// walk abstracts the term t (raw term a; t may be nil, made on demand).
func (w *producer) walk(t *Term, a C.Z3_ast) (*Term, error) {
	id := C.Z3_get_ast_id(w.z, a)
	if r, ok := w.done[id]; ok {
		return r, nil
	}
	if t == nil {
		t = w.c.term(w.z, a, "AbstractProducts")
	}
	r := t
	if C.Z3_get_ast_kind(w.z, a) == C.Z3_APP_AST {
		var err error
		if r, err = w.app(t, a); err != nil {
			return nil, err
		}
	}
	w.done[id] = r
	return r, nil
}

// app abstracts the application t (raw term a): its arguments first, then
// the application itself when it is a nonlinear real product or quotient.
func (w *producer) app(t *Term, a C.Z3_ast) (*Term, error) {
	z := w.z
	app := C.Z3_to_app(z, a)
	n := int(C.Z3_get_app_num_args(z, app))
	if n == 0 {
		return t, nil
	}
	args := make([]*Term, n)
	changed := false
	for i := range args {
		b := C.Z3_get_app_arg(z, app, C.uint(i))
		r, err := w.walk(nil, b)
		if err != nil {
			return nil, err
		}
		args[i] = r
		changed = changed || r.a != b
	}
	isReal := C.Z3_get_sort_kind(z, C.Z3_get_sort(z, a)) == C.Z3_REAL_SORT
	switch kind := C.Z3_get_decl_kind(z, C.Z3_get_app_decl(z, app)); {
	case isReal && kind == C.Z3_OP_MUL:
		if r := w.product(args); r != nil {
			return r, r.Err()
		}
	case isReal && kind == C.Z3_OP_DIV && n == 2 && !w.constant(args[1].a):
		w.replaced++
		r := w.div.Apply(args[0], args[1])
		return r, r.Err()
	}
	if !changed {
		return t, nil
	}
	upd := make([]C.Z3_ast, n)
	for i, r := range args {
		upd[i] = r.a
	}
	r := w.c.term(z, C.Z3_update_term(z, a, C.uint(n), &upd[0]), "AbstractProducts")
	runtime.KeepAlive(args) // their terms must outlive the call
	return r, r.Err()
}

// product is the abstraction of the product of the (abstracted) factors
// args, or nil when fewer than two of them are not numerals (a linear
// product, kept).
func (w *producer) product(args []*Term) *Term {
	var nums, others []*Term
	for _, f := range args {
		if w.constant(f.a) {
			nums = append(nums, f)
		} else {
			others = append(others, f)
		}
	}
	if len(others) < 2 {
		return nil
	}
	slices.SortStableFunc(others, func(x, y *Term) int { return strings.Compare(w.head(x.a), w.head(y.a)) })
	acc := others[0]
	for _, f := range others[1:] {
		w.replaced++
		acc = w.mul.Apply(acc, f)
	}
	if len(nums) == 0 {
		return acc
	}
	return w.c.Mul(append(nums, acc)...)
}

// head is the name of the outermost function of the raw term a ("" for a
// numeral or a bound variable): the key that orders a product's factors,
// the same for terms whose arguments differ.
func (w *producer) head(a C.Z3_ast) string {
	if C.Z3_get_ast_kind(w.z, a) != C.Z3_APP_AST {
		return ""
	}
	d := C.Z3_get_app_decl(w.z, C.Z3_to_app(w.z, a))
	return C.GoString(C.Z3_get_symbol_string(w.z, C.Z3_get_decl_name(w.z, d)))
}

// constant reports whether the raw term a is a numeral or arithmetic on
// numerals alone, as (/ 1.0 3.0) or (- 2.0): a factor that keeps a
// product linear.
func (w *producer) constant(a C.Z3_ast) bool {
	z := w.z
	if C.Z3_is_numeral_ast(z, a) {
		return true
	}
	if C.Z3_get_ast_kind(z, a) != C.Z3_APP_AST {
		return false
	}
	app := C.Z3_to_app(z, a)
	switch C.Z3_get_decl_kind(z, C.Z3_get_app_decl(z, app)) {
	case C.Z3_OP_UMINUS, C.Z3_OP_DIV, C.Z3_OP_MUL, C.Z3_OP_ADD, C.Z3_OP_SUB, C.Z3_OP_TO_REAL:
	default:
		return false
	}
	for i := range int(C.Z3_get_app_num_args(z, app)) {
		if !w.constant(C.Z3_get_app_arg(z, app, C.uint(i))) {
			return false
		}
	}
	return true
}
