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
// product; a factor that is itself a product, abstracted or not, or a sum
// whose terms all scale by one numeral, gives the product its own factors
// and numerals: see factors), and every quotient of real terms whose divisor
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
		nums, others = w.factors(f, nums, others)
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

// factors appends the factors of the (abstracted) real term f to nums
// (the numerals) and others: a product's own factors, an abstracted
// product's (nl.mul) too, so that a product's abstraction does not depend
// on how its factors were grouped or scaled: (c1·x)·(c2·y), c·(x·y) and
// x·(c·y) all have the factors x and y and numerals, and abstract to a
// numeral times nl.mul(x, y), which linear arithmetic then relates
// (harris's kernel scales a squared gradient by a constant Halide folded,
// its specification squares the scaled gradient). Multiplication being
// associative and commutative, the abstraction stays implied by the
// formulas.
func (w *producer) factors(f *Term, nums, others []*Term) ([]*Term, []*Term) {
	z := w.z
	if w.constant(f.a) {
		return append(nums, f), others
	}
	if C.Z3_get_ast_kind(z, f.a) == C.Z3_APP_AST && C.Z3_get_sort_kind(z, C.Z3_get_sort(z, f.a)) == C.Z3_REAL_SORT {
		app := C.Z3_to_app(z, f.a)
		d := C.Z3_get_app_decl(z, app)
		if C.Z3_get_decl_kind(z, d) == C.Z3_OP_MUL || C.Z3_is_eq_func_decl(z, d, w.mul.d) {
			for i := range int(C.Z3_get_app_num_args(z, app)) {
				arg := w.c.term(z, C.Z3_get_app_arg(z, app, C.uint(i)), "AbstractProducts")
				nums, others = w.factors(arg, nums, others)
			}
			runtime.KeepAlive(f) // its arguments are alive while it is
			return nums, others
		}
		if C.Z3_get_decl_kind(z, d) == C.Z3_OP_ADD {
			if c, sum := w.commonNumeral(app); c != nil {
				runtime.KeepAlive(f)
				return append(nums, c), append(others, sum)
			}
		}
	}
	return nums, append(others, f)
}

// commonNumeral splits the real sum app, when each of its terms is a
// product of the same numeral c and one term m_i (c·m_1 + c·m_2 + ...),
// into c and the sum m_1 + m_2 + ...; nil otherwise. A scaled sum is then
// the same factor as the sum it scales (harris: its kernel's
// S · (c·x1·x1 + ...) and its specification's c · S · S, S = x1·x1 + ...).
func (w *producer) commonNumeral(app C.Z3_app) (*Term, *Term) {
	z := w.z
	n := int(C.Z3_get_app_num_args(z, app))
	var c C.Z3_ast
	terms := make([]*Term, n)
	for i := range n {
		a := C.Z3_get_app_arg(z, app, C.uint(i))
		if C.Z3_get_ast_kind(z, a) != C.Z3_APP_AST {
			return nil, nil
		}
		m := C.Z3_to_app(z, a)
		if C.Z3_get_decl_kind(z, C.Z3_get_app_decl(z, m)) != C.Z3_OP_MUL || C.Z3_get_app_num_args(z, m) != 2 {
			return nil, nil
		}
		k := C.Z3_get_app_arg(z, m, 0)
		if !w.constant(k) || c != nil && !bool(C.Z3_is_eq_ast(z, k, c)) {
			return nil, nil
		}
		c = k
		terms[i] = w.c.term(z, C.Z3_get_app_arg(z, m, 1), "AbstractProducts")
	}
	if c == nil {
		return nil, nil
	}
	return w.c.term(z, c, "AbstractProducts"), w.c.Add(terms...)
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
