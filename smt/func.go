package smt

// #include <z3.h>
import "C"

import (
	"errors"
	"runtime"
)

// A FuncDecl is a function symbol (Z3_func_decl): an uninterpreted
// function, a recursive function, or the symbol of a constant.
type FuncDecl struct {
	ctx *Context
	d   C.Z3_func_decl
	err error
}

var errNilFunc = errors.New("smt: nil function declaration")

// Err is the error the declaration carries, nil for a valid one.
func (f *FuncDecl) Err() error {
	if f == nil {
		return errNilFunc
	}
	return f.err
}

func (c *Context) funcDecl(z C.Z3_context, d C.Z3_func_decl, op string) *FuncDecl {
	if err := check(z, op); err != nil {
		return &FuncDecl{ctx: c, err: err}
	}
	if d == nil {
		return &FuncDecl{ctx: c, err: opError(op, "Z3 returned no declaration")}
	}
	w := &FuncDecl{ctx: c, d: d}
	incRef(c, w, z, C.Z3_func_decl_to_ast(z, d))
	return w
}

func (c *Context) declare(op, name string, domain []*Sort, rng *Sort,
	mk func(z C.Z3_context, sym C.Z3_symbol, n C.uint, dom *C.Z3_sort, r C.Z3_sort) C.Z3_func_decl) *FuncDecl {
	z, err := c.enter()
	if err != nil {
		return &FuncDecl{ctx: c, err: err}
	}
	dom, err := sortsOf(c, domain)
	if err != nil {
		return &FuncDecl{ctx: c, err: err}
	}
	r, err := rng.use(c)
	if err != nil {
		return &FuncDecl{ctx: c, err: err}
	}
	return c.funcDecl(z, mk(z, symbol(z, name), C.uint(len(dom)), firstSort(dom), r), op)
}

// FuncDecl declares the uninterpreted function name: domain → rng
// (Z3_mk_func_decl). Nothing is known of it but that it is a function:
// equal arguments give equal results.
func (c *Context) FuncDecl(name string, domain []*Sort, rng *Sort) *FuncDecl {
	return c.declare("FuncDecl", name, domain, rng,
		func(z C.Z3_context, sym C.Z3_symbol, n C.uint, dom *C.Z3_sort, r C.Z3_sort) C.Z3_func_decl {
			return C.Z3_mk_func_decl(z, sym, n, dom, r)
		})
}

// RecFuncDecl declares the recursive function name: domain → rng
// (Z3_mk_rec_func_decl). Give its definition with DefineRec before using it
// in a query. Z3 unfolds recursive definitions on demand, so queries whose
// arguments are bounded (numerals, or variables with small bounds) are
// decided; others may give Unknown.
func (c *Context) RecFuncDecl(name string, domain []*Sort, rng *Sort) *FuncDecl {
	return c.declare("RecFuncDecl", name, domain, rng,
		func(z C.Z3_context, sym C.Z3_symbol, n C.uint, dom *C.Z3_sort, r C.Z3_sort) C.Z3_func_decl {
			return C.Z3_mk_rec_func_decl(z, sym, n, dom, r)
		})
}

// DefineRec defines the recursive function f by f(params...) = body
// (Z3_add_rec_def). params are distinct constants (made with Const) of f's
// domain sorts; body may apply f.
func (c *Context) DefineRec(f *FuncDecl, params []*Term, body *Term) error {
	z, err := c.enter()
	if err != nil {
		return err
	}
	if f.Err() != nil {
		return f.Err()
	}
	if f.ctx != c {
		return errForeign
	}
	args, err := astsOf(c, params)
	if err != nil {
		return err
	}
	if err := constants(z, "DefineRec", args); err != nil {
		return err
	}
	b, err := body.use(c)
	if err != nil {
		return err
	}
	if n := C.Z3_get_domain_size(z, f.d); int(n) != len(args) {
		return opError("DefineRec", "wrong number of parameters")
	}
	C.Z3_add_rec_def(z, f.d, C.uint(len(args)), firstAST(args), b)
	return check(z, "DefineRec")
}

// constants checks that every term is an uninterpreted constant, as Z3
// requires of bound variables and of the parameters of definitions.
func constants(z C.Z3_context, op string, as []C.Z3_ast) error {
	for _, a := range as {
		if C.Z3_get_ast_kind(z, a) != C.Z3_APP_AST {
			return opError(op, "not a constant: "+C.GoString(C.Z3_ast_to_string(z, a)))
		}
		app := C.Z3_to_app(z, a)
		d := C.Z3_get_app_decl(z, app)
		if C.Z3_get_app_num_args(z, app) != 0 || C.Z3_get_decl_kind(z, d) != C.Z3_OP_UNINTERPRETED {
			return opError(op, "not a constant: "+C.GoString(C.Z3_ast_to_string(z, a)))
		}
	}
	return nil
}

// Apply is the application f(args...) (Z3_mk_app); the arguments must
// match f's domain.
func (f *FuncDecl) Apply(args ...*Term) *Term {
	if f.Err() != nil {
		var c *Context
		if f != nil {
			c = f.ctx
		}
		return c.termErr(f.Err())
	}
	c := f.ctx
	z, err := c.enter()
	if err != nil {
		return c.termErr(err)
	}
	as, err := astsOf(c, args)
	if err != nil {
		return c.termErr(err)
	}
	return c.term(z, C.Z3_mk_app(z, f.d, C.uint(len(as)), firstAST(as)), "Apply")
}

// Name is the declaration's name (Z3_get_decl_name).
func (f *FuncDecl) Name() string {
	if f.Err() != nil {
		return ""
	}
	z, err := f.ctx.enter()
	if err != nil {
		return ""
	}
	return C.GoString(C.Z3_get_symbol_string(z, C.Z3_get_decl_name(z, f.d)))
}

// Arity is the number of arguments f takes (Z3_get_arity).
func (f *FuncDecl) Arity() int {
	if f.Err() != nil {
		return 0
	}
	z, err := f.ctx.enter()
	if err != nil {
		return 0
	}
	return int(C.Z3_get_arity(z, f.d))
}

// Range is f's result sort (Z3_get_range).
func (f *FuncDecl) Range() *Sort {
	if f.Err() != nil {
		var c *Context
		if f != nil {
			c = f.ctx
		}
		return c.sortErr(f.Err())
	}
	z, err := f.ctx.enter()
	if err != nil {
		return f.ctx.sortErr(err)
	}
	return f.ctx.sort(z, C.Z3_get_range(z, f.d), "Range")
}

// String is the declaration in SMT-LIB2 notation (Z3_func_decl_to_string).
func (f *FuncDecl) String() string {
	if err := f.Err(); err != nil {
		return "<error: " + err.Error() + ">"
	}
	z, err := f.ctx.enter()
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return C.GoString(C.Z3_func_decl_to_string(z, f.d))
}

// A Pattern is a multi-pattern guiding the instantiation of a quantifier
// (Z3_pattern): the quantifier is instantiated with the terms that make
// all of the pattern's terms match terms of the current problem.
type Pattern struct {
	ctx *Context
	p   C.Z3_pattern
	err error
}

// Pattern makes a multi-pattern of the given terms (Z3_mk_pattern). Each
// term is an application (typically of an uninterpreted function) that
// mentions bound variables; together they must mention all of them.
func (c *Context) Pattern(ts ...*Term) *Pattern {
	z, err := c.enter()
	if err != nil {
		return &Pattern{ctx: c, err: err}
	}
	if len(ts) == 0 {
		return &Pattern{ctx: c, err: opError("Pattern", "no terms")}
	}
	as, err := astsOf(c, ts)
	if err != nil {
		return &Pattern{ctx: c, err: err}
	}
	for _, a := range as {
		if C.Z3_get_ast_kind(z, a) != C.Z3_APP_AST {
			return &Pattern{ctx: c, err: opError("Pattern", "not an application: "+C.GoString(C.Z3_ast_to_string(z, a)))}
		}
	}
	p := C.Z3_mk_pattern(z, C.uint(len(as)), firstAST(as))
	if err := check(z, "Pattern"); err != nil {
		return &Pattern{ctx: c, err: err}
	}
	if p == nil {
		return &Pattern{ctx: c, err: opError("Pattern", "Z3 returned no pattern")}
	}
	w := &Pattern{ctx: c, p: p}
	incRef(c, w, z, C.Z3_pattern_to_ast(z, p))
	return w
}

// Err is the error the pattern carries, nil for a valid one.
func (p *Pattern) Err() error {
	if p == nil {
		return errors.New("smt: nil pattern")
	}
	return p.err
}

// Forall is ∀ bound. body (Z3_mk_forall_const): bound are constants (made
// with Const) that body's occurrences of them refer to, and patterns
// optionally guide instantiation; without patterns Z3 chooses its own.
func (c *Context) Forall(bound []*Term, body *Term, patterns ...*Pattern) *Term {
	return c.quantifier("Forall", true, bound, body, patterns)
}

// Exists is ∃ bound. body (Z3_mk_exists_const), with Forall's conventions.
func (c *Context) Exists(bound []*Term, body *Term, patterns ...*Pattern) *Term {
	return c.quantifier("Exists", false, bound, body, patterns)
}

func (c *Context) quantifier(op string, forall bool, bound []*Term, body *Term, patterns []*Pattern) *Term {
	z, err := c.enter()
	if err != nil {
		return c.termErr(err)
	}
	if len(bound) == 0 {
		return c.termErr(opError(op, "no bound variables"))
	}
	as, err := astsOf(c, bound)
	if err != nil {
		return c.termErr(err)
	}
	if err := constants(z, op, as); err != nil {
		return c.termErr(err)
	}
	apps := make([]C.Z3_app, len(as))
	for i, a := range as {
		apps[i] = C.Z3_to_app(z, a)
	}
	ps := make([]C.Z3_pattern, len(patterns))
	for i, p := range patterns {
		if p.Err() != nil {
			return c.termErr(p.Err())
		}
		if p.ctx != c {
			return c.termErr(errForeign)
		}
		ps[i] = p.p
	}
	b, err := body.use(c)
	if err != nil {
		return c.termErr(err)
	}
	var pp *C.Z3_pattern
	if len(ps) > 0 {
		pp = &ps[0]
	}
	var q C.Z3_ast
	if forall {
		q = C.Z3_mk_forall_const(z, 0, C.uint(len(apps)), &apps[0], C.uint(len(ps)), pp, b)
	} else {
		q = C.Z3_mk_exists_const(z, 0, C.uint(len(apps)), &apps[0], C.uint(len(ps)), pp, b)
	}
	t := c.term(z, q, op)
	runtime.KeepAlive(patterns)
	return t
}

// Applications returns the argument lists of every application of f in
// the terms ts (each distinct application once, in no particular order).
func (f *FuncDecl) Applications(ts ...*Term) ([][]*Term, error) {
	if f.Err() != nil {
		return nil, f.Err()
	}
	c := f.ctx
	z, err := c.enter()
	if err != nil {
		return nil, err
	}
	seen := map[C.uint]bool{}
	var out [][]*Term
	var walk func(a C.Z3_ast)
	walk = func(a C.Z3_ast) {
		id := C.Z3_get_ast_id(z, a)
		if seen[id] {
			return
		}
		seen[id] = true
		if C.Z3_get_ast_kind(z, a) != C.Z3_APP_AST {
			return
		}
		app := C.Z3_to_app(z, a)
		n := int(C.Z3_get_app_num_args(z, app))
		if C.Z3_is_eq_func_decl(z, C.Z3_get_app_decl(z, app), f.d) {
			args := make([]*Term, n)
			for i := range args {
				args[i] = c.term(z, C.Z3_get_app_arg(z, app, C.uint(i)), "Applications")
			}
			out = append(out, args)
		}
		for i := 0; i < n; i++ {
			walk(C.Z3_get_app_arg(z, app, C.uint(i)))
		}
	}
	for _, t := range ts {
		a, err := t.use(c)
		if err != nil {
			return nil, err
		}
		walk(a)
	}
	return out, nil
}

// SubtermIDs returns the identifiers (Term.ID) of t and of every term
// under it. An identifier names one term only while that term is alive,
// so the set is meaningful while t is.
func (t *Term) SubtermIDs() (map[uint]bool, error) {
	if t.Err() != nil {
		return nil, t.Err()
	}
	c := t.ctx
	z, err := c.enter()
	if err != nil {
		return nil, err
	}
	a, err := t.use(c)
	if err != nil {
		return nil, err
	}
	seen := map[uint]bool{}
	var walk func(a C.Z3_ast)
	walk = func(a C.Z3_ast) {
		id := uint(C.Z3_get_ast_id(z, a))
		if seen[id] {
			return
		}
		seen[id] = true
		if C.Z3_get_ast_kind(z, a) != C.Z3_APP_AST {
			return
		}
		app := C.Z3_to_app(z, a)
		n := int(C.Z3_get_app_num_args(z, app))
		for i := 0; i < n; i++ {
			walk(C.Z3_get_app_arg(z, app, C.uint(i)))
		}
	}
	walk(a)
	runtime.KeepAlive(t)
	return seen, nil
}
