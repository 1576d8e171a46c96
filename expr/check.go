package expr

import (
	"fmt"
	"sync"

	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// Scope tells the expression checker what a name denotes.
type Scope interface {
	// IsIndex reports whether name is an exact integer: a parameter, or a
	// loop, let or equation variable.
	IsIndex(name string) bool
	// Tensor returns the element type and rank of the specification
	// tensor called name.
	Tensor(name string) (elem syntax.Type, rank int, ok bool)
	// Array returns the element type and rank of the kernel array called
	// name (never found in specifications).
	Array(name string) (elem syntax.Type, rank int, ok bool)
}

// Info records what the checker computed.
type Info struct {
	// Types holds the type of every value expression and value
	// subexpression. Subexpressions evaluated as exact integers (index
	// expressions, such as the argument of f32(i)) and constraints' operands
	// have no entry: a comparison or cast whose type is recorded but whose
	// operands' are not is evaluated in the index language.
	Types map[syntax.Expr]syntax.Type

	// Overflow is what signed integer arithmetic of these expressions
	// gives on overflow (value.Overflow): a specification's option, the
	// zero value (wrapping) for kernels.
	Overflow value.Overflow

	// lits memoises the values of the literals EvalValue converted, by
	// node (a literal, or the negation of one): converting a float
	// literal decides whether it rounds, in exact rational arithmetic,
	// which an interpreter evaluating the same literal at every
	// iteration should not pay again. Safe for concurrent evaluations.
	lits sync.Map
}

// NewInfo returns an empty Info ready to be filled.
func NewInfo() *Info { return &Info{Types: make(map[syntax.Expr]syntax.Type)} }

// Checker checks the three sublanguages of expressions: quasi-affine
// index expressions, constraints and typed value expressions. Errors go to
// R; the types of value expressions go to Info (if not nil). R and Scope
// must not be nil.
type Checker struct {
	R     *syntax.Reporter
	Scope Scope
	Info  *Info
	// AllowArrays permits array reads a[...] in value expressions (kernel
	// code); AllowTensors permits tensor accesses T(...) (specifications,
	// annotations and bindings).
	AllowArrays, AllowTensors bool
	// AllowDataIndex permits data-dependent indices in the tensor
	// accesses and array reads of value expressions: an index that
	// reads a tensor or an array is then checked as an integer value
	// expression (dataindex.go).
	AllowDataIndex bool

	// untypedMemo memoises isUntyped, so that checking an expression takes
	// time linear in its size (each operator of a long chain asks about
	// its whole operand).
	untypedMemo map[syntax.Expr]bool
}

// isTensor reports whether name is a specification tensor.
func (c *Checker) isTensor(name string) bool {
	_, _, ok := c.Scope.Tensor(name)
	return ok
}

func (c *Checker) errorf(pos syntax.Pos, code syntax.Code, format string, args ...any) {
	c.R.ErrorCodef(pos, code, format, args...)
}

// Index checks that x is a quasi-affine index expression: integer
// literals, index names, + and -, multiplication where one factor is a
// constant, e / k and e % k with k a positive constant, min, max and
// select(constraint, e1, e2). It reports errors and returns whether x is
// well-formed.
func (c *Checker) Index(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.Ident:
		return c.indexName(x)
	case *syntax.Lit:
		switch x.Kind {
		case syntax.IntLiteral:
			if _, err := value.Literal(syntax.I64, x.Text); err != nil {
				c.errorf(x.Pos(), "", "integer literal %s is too large for an index expression", x.Text)
				return false
			}
			return true
		case syntax.FloatLiteral:
			c.errorf(x.Pos(), syntax.CodeNotAffine, "float literal %s in an index expression", x.Text)
		default:
			c.errorf(x.Pos(), syntax.CodeNotAffine, "boolean %s used as an index expression", x.Text)
		}
		return false
	case *syntax.Unary:
		if x.Op == syntax.OpNeg {
			return c.Index(x.X)
		}
		c.errorf(x.Pos(), syntax.CodeNotAffine, "operator %s in an index expression (want + - * / %% min max select)", x.Op)
		return false
	case *syntax.Binary:
		switch x.Op {
		case syntax.OpAdd, syntax.OpSub:
			l := c.Index(x.X)
			return c.Index(x.Y) && l
		case syntax.OpMul:
			l, r := c.Index(x.X), c.Index(x.Y)
			if !l || !r {
				return false
			}
			if _, ok := constIndex(x.X); ok {
				return true
			}
			if _, ok := constIndex(x.Y); ok {
				return true
			}
			c.errorf(x.Pos(), syntax.CodeNotAffine, "%s is not affine: a product needs a constant factor", syntax.ExprString(x))
			return false
		case syntax.OpDiv, syntax.OpRem:
			l := c.Index(x.X)
			if !c.Index(x.Y) {
				return false
			}
			k, ok := constIndex(x.Y)
			if !ok {
				c.errorf(x.Y.Pos(), syntax.CodeNotAffine, "%s by %s: the divisor of an index expression must be a constant", x.Op, syntax.ExprString(x.Y))
				return false
			}
			if k <= 0 {
				c.errorf(x.Y.Pos(), syntax.CodeNotAffine, "%s by %d: the divisor of an index expression must be positive", x.Op, k)
				return false
			}
			return l
		}
		if x.Op.IsComparison() || x.Op.IsLogical() {
			c.errorf(x.Pos(), syntax.CodeNotAffine, "constraint %s used as an index expression", syntax.ExprString(x))
		} else {
			c.errorf(x.Pos(), syntax.CodeNotAffine, "operator %s in an index expression (want + - * / %% min max select)", x.Op)
		}
		return false
	case *syntax.Chain:
		c.errorf(x.Pos(), syntax.CodeNotAffine, "constraint %s used as an index expression", syntax.ExprString(x))
		return false
	case *syntax.Call:
		name := x.Fun.Name
		switch name {
		case "min", "max":
			if len(x.Args) != 2 {
				c.errorf(x.Pos(), syntax.CodeArity, "%s takes 2 arguments, got %d", name, len(x.Args))
				return false
			}
			l := c.Index(x.Args[0])
			return c.Index(x.Args[1]) && l
		case "select":
			if len(x.Args) != 3 {
				c.errorf(x.Pos(), syntax.CodeArity, "select takes 3 arguments, got %d", len(x.Args))
				return false
			}
			ok := c.Constraint(x.Args[0])
			ok = c.Index(x.Args[1]) && ok
			return c.Index(x.Args[2]) && ok
		}
		switch {
		case syntax.TypeByName(name) != syntax.Invalid:
			c.errorf(x.Pos(), syntax.CodeNotAffine, "cast %s(...) in an index expression: index expressions are exact integers", name)
		case isReinterpret(name):
			c.errorf(x.Pos(), syntax.CodeNotAffine, "bit cast %s(...) in an index expression: index expressions are exact integers", name)
		case c.isTensor(name):
			c.errorf(x.Pos(), syntax.CodeNotAffine, "tensor access %s in an index expression", syntax.ExprString(x))
		default:
			if _, ok := value.LookupBuiltin(name); ok {
				c.errorf(x.Pos(), syntax.CodeNotAffine, "function %s in an index expression (want min, max or select)", name)
			} else {
				c.errorf(x.Pos(), syntax.CodeUndeclared, "undefined: %s", name)
			}
		}
		return false
	case *syntax.Index:
		c.errorf(x.Pos(), syntax.CodeNotAffine, "array read %s in an index expression", syntax.ExprString(x))
		return false
	}
	return false
}

func (c *Checker) indexName(x *syntax.Ident) bool {
	switch {
	case c.Scope.IsIndex(x.Name):
		return true
	case x.Name == "_":
		return false // placeholder left by a syntax error, already reported
	case c.isTensor(x.Name):
		c.errorf(x.Pos(), syntax.CodeNotAffine, "tensor %s used as an index", x.Name)
	default:
		if _, _, ok := c.Scope.Array(x.Name); ok {
			c.errorf(x.Pos(), syntax.CodeNotAffine, "array %s used as an index", x.Name)
		} else {
			c.errorf(x.Pos(), syntax.CodeUndeclared, "undefined: %s", x.Name)
		}
	}
	return false
}

// Constraint checks that x is a quasi-affine constraint: comparisons
// (chains included) of index expressions combined with and, or, not,
// true and false.
func (c *Checker) Constraint(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.Lit:
		if x.Kind == syntax.BoolLiteral {
			return true
		}
	case *syntax.Unary:
		if x.Op == syntax.OpNot {
			return c.Constraint(x.X)
		}
	case *syntax.Binary:
		switch {
		case x.Op == syntax.OpAnd || x.Op == syntax.OpOr:
			l := c.Constraint(x.X)
			return c.Constraint(x.Y) && l
		case x.Op.IsComparison():
			l := c.Index(x.X)
			return c.Index(x.Y) && l
		}
	case *syntax.Chain:
		ok := true
		for _, o := range x.Operands {
			ok = c.Index(o) && ok
		}
		return ok
	case *syntax.Ident:
		if x.Name == "_" {
			return false
		}
	}
	c.errorf(x.Pos(), syntax.CodeNotAffine, "expected a constraint (a comparison of index expressions), found %s", syntax.ExprString(x))
	return false
}

// constIndex evaluates an index expression without names, such as 4 or
// 2 * 3; ok is false if x has a name or overflows.
func constIndex(x syntax.Expr) (int64, bool) {
	n, err := EvalIndex(x, noNames{})
	return n, err == nil
}

type noNames struct{}

func (noNames) Index(string) (int64, bool) { return 0, false }
func (noNames) Tensor(string, []int64) (value.Value, error) {
	return value.Value{}, errNoTensor
}
func (noNames) Array(string, []int64) (value.Value, error) {
	return value.Value{}, errNoTensor
}

// isIndexLike reports whether x belongs to the index language
// syntactically: integer literals, index names, + - * / %, unary minus,
// min, max and select over them. Such an expression is evaluated exactly,
// not as a typed value.
func (c *Checker) isIndexLike(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.Ident:
		return c.Scope.IsIndex(x.Name)
	case *syntax.Lit:
		return x.Kind == syntax.IntLiteral
	case *syntax.Unary:
		return x.Op == syntax.OpNeg && c.isIndexLike(x.X)
	case *syntax.Binary:
		switch x.Op {
		case syntax.OpAdd, syntax.OpSub, syntax.OpMul, syntax.OpDiv, syntax.OpRem:
			return c.isIndexLike(x.X) && c.isIndexLike(x.Y)
		}
	case *syntax.Call:
		switch x.Fun.Name {
		case "min", "max":
			return len(x.Args) == 2 && c.isIndexLike(x.Args[0]) && c.isIndexLike(x.Args[1])
		case "select":
			return len(x.Args) == 3 && c.isConstraintLike(x.Args[0]) &&
				c.isIndexLike(x.Args[1]) && c.isIndexLike(x.Args[2])
		}
	}
	return false
}

func (c *Checker) isConstraintLike(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.Lit:
		return x.Kind == syntax.BoolLiteral
	case *syntax.Unary:
		return x.Op == syntax.OpNot && c.isConstraintLike(x.X)
	case *syntax.Binary:
		if x.Op == syntax.OpAnd || x.Op == syntax.OpOr {
			return c.isConstraintLike(x.X) && c.isConstraintLike(x.Y)
		}
		return x.Op.IsComparison() && c.isIndexLike(x.X) && c.isIndexLike(x.Y)
	case *syntax.Chain:
		for _, o := range x.Operands {
			if !c.isIndexLike(o) {
				return false
			}
		}
		return true
	}
	return false
}

// isUntyped reports whether x is a literal expression whose type comes
// from its context: a numeric literal, possibly negated, combined with
// other such literals by arithmetic, or passed to a built-in function
// (select(c, 1, 2), max(0, 1.5)).
func (c *Checker) isUntyped(x syntax.Expr) bool {
	switch x.(type) {
	case *syntax.Unary, *syntax.Binary, *syntax.Call:
	default:
		return isUntypedNode(c, x)
	}
	if u, ok := c.untypedMemo[x]; ok {
		return u
	}
	u := isUntypedNode(c, x)
	if c.untypedMemo == nil {
		c.untypedMemo = make(map[syntax.Expr]bool)
	}
	c.untypedMemo[x] = u
	return u
}

// isUntypedNode is isUntyped of x, its operands asked through c's memo.
func isUntypedNode(c *Checker, x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.Lit:
		return x.Kind != syntax.BoolLiteral
	case *syntax.Unary:
		return (x.Op == syntax.OpNeg || x.Op == syntax.OpBitNot) && c.isUntyped(x.X)
	case *syntax.Binary:
		return !x.Op.IsComparison() && !x.Op.IsLogical() && c.isUntyped(x.X) && c.isUntyped(x.Y)
	case *syntax.Call:
		b, ok := value.LookupBuiltin(x.Fun.Name)
		if !ok || len(x.Args) != b.Arity {
			return false
		}
		args := x.Args
		if b.Name == "select" {
			args = args[1:] // the condition is a bool whatever the context
		}
		for _, a := range args {
			if !c.isUntyped(a) {
				return false
			}
		}
		return true
	}
	return false
}

// hasFloatLit reports whether x contains a float literal.
func hasFloatLit(x syntax.Expr) bool {
	found := false
	syntax.Inspect(x, func(y syntax.Expr) bool {
		if l, ok := y.(*syntax.Lit); ok && l.Kind == syntax.FloatLiteral {
			found = true
		}
		return !found
	})
	return found
}

// needsFloat reports whether the literal expression x can only be a
// float: it has a float literal or calls a float function (sqrt(2)).
func needsFloat(x syntax.Expr) bool {
	found := false
	syntax.Inspect(x, func(y syntax.Expr) bool {
		switch y := y.(type) {
		case *syntax.Lit:
			found = found || y.Kind == syntax.FloatLiteral
		case *syntax.Call:
			b, ok := value.LookupBuiltin(y.Fun.Name)
			found = found || ok && b.FloatOnly
		}
		return !found
	})
	return found
}

// defaultType is the type of a literal expression with no context: f64
// if it can only be a float, i64 (an exact integer) otherwise.
func defaultType(x syntax.Expr) syntax.Type {
	if needsFloat(x) {
		return syntax.F64
	}
	return syntax.I64
}

// Value checks the value expression x and returns its type, or
// syntax.Invalid after reporting an error. want is the type the context
// demands, which literals take; with want syntax.Invalid the type is
// inferred. A result of another type than want is an error.
func (c *Checker) Value(x syntax.Expr, want syntax.Type) syntax.Type {
	t := c.value(x, want)
	if t != syntax.Invalid && want != syntax.Invalid && t != want {
		c.errorf(x.Pos(), syntax.CodeType, "%s has type %s, want %s", syntax.ExprString(x), t, want)
		return syntax.Invalid
	}
	return t
}

func (c *Checker) record(x syntax.Expr, t syntax.Type) syntax.Type {
	if t != syntax.Invalid && c.Info != nil {
		if c.Info.Types == nil {
			c.Info.Types = make(map[syntax.Expr]syntax.Type)
		}
		c.Info.Types[x] = t
	}
	return t
}

// value checks x; want only gives their type to context-typed literals.
func (c *Checker) value(x syntax.Expr, want syntax.Type) syntax.Type {
	if c.isUntyped(x) {
		if want == syntax.Invalid {
			want = defaultType(x)
		}
		return c.untyped(x, want)
	}
	switch x := x.(type) {
	case *syntax.Lit: // bool
		return c.record(x, syntax.Bool)
	case *syntax.Ident:
		c.valueName(x, want)
		return syntax.Invalid
	case *syntax.Unary:
		switch x.Op {
		case syntax.OpNot:
			if c.Value(x.X, syntax.Bool) == syntax.Invalid {
				return syntax.Invalid
			}
			return c.record(x, syntax.Bool)
		case syntax.OpNeg:
			t := c.value(x.X, want)
			if t == syntax.Invalid {
				return t
			}
			if !t.IsNumeric() {
				c.errorf(x.Pos(), syntax.CodeType, "operator - does not apply to %s", t)
				return syntax.Invalid
			}
			return c.record(x, t)
		case syntax.OpBitNot:
			t := c.value(x.X, want)
			if t == syntax.Invalid {
				return t
			}
			if !t.IsInteger() {
				c.errorf(x.Pos(), syntax.CodeType, "operator ~ does not apply to %s", t)
				return syntax.Invalid
			}
			return c.record(x, t)
		}
	case *syntax.Binary:
		return c.binary(x, want)
	case *syntax.Chain:
		if c.isConstraintLike(x) {
			if !c.Constraint(x) {
				return syntax.Invalid
			}
			return c.record(x, syntax.Bool)
		}
		t := c.unify(x.Operands, syntax.Invalid)
		if t == syntax.Invalid {
			return t
		}
		for _, op := range x.Ops {
			if !value.Applies(op, t) {
				c.errorf(x.Pos(), syntax.CodeType, "operator %s does not apply to %s", op, t)
				return syntax.Invalid
			}
		}
		return c.record(x, syntax.Bool)
	case *syntax.Call:
		return c.call(x, want)
	case *syntax.Index:
		return c.arrayRead(x)
	}
	c.errorf(x.Pos(), "", "unexpected expression %s", syntax.ExprString(x))
	return syntax.Invalid
}

// untyped checks a literal expression and gives it type t.
func (c *Checker) untyped(x syntax.Expr, t syntax.Type) syntax.Type {
	if t == syntax.Bool {
		c.errorf(x.Pos(), syntax.CodeType, "%s used as bool", syntax.ExprString(x))
		return syntax.Invalid
	}
	switch x := x.(type) {
	case *syntax.Lit:
		if _, err := value.Literal(t, x.Text); err != nil {
			c.errorf(x.Pos(), "", "%v", err)
			return syntax.Invalid
		}
		return c.record(x, t)
	case *syntax.Unary:
		if lit, ok := x.X.(*syntax.Lit); ok && x.Op == syntax.OpNeg {
			// -128 is one literal, so that it fits i8.
			if _, err := value.Literal(t, "-"+lit.Text); err != nil {
				c.errorf(x.Pos(), "", "%v", err)
				return syntax.Invalid
			}
			c.record(lit, t)
			return c.record(x, t)
		}
		if c.untyped(x.X, t) == syntax.Invalid {
			return syntax.Invalid
		}
		if x.Op == syntax.OpBitNot && !t.IsInteger() {
			c.errorf(x.Pos(), syntax.CodeType, "operator ~ does not apply to %s", t)
			return syntax.Invalid
		}
		return c.record(x, t)
	case *syntax.Call:
		b, _ := value.LookupBuiltin(x.Fun.Name)
		return c.builtin(x, b, t)
	case *syntax.Binary:
		l := c.untyped(x.X, t)
		r := c.untyped(x.Y, t)
		if l == syntax.Invalid || r == syntax.Invalid {
			return syntax.Invalid
		}
		if !value.Applies(x.Op, t) {
			c.errorf(x.Pos(), syntax.CodeType, "operator %s does not apply to %s", x.Op, t)
			return syntax.Invalid
		}
		return c.record(x, t)
	}
	return syntax.Invalid
}

func (c *Checker) valueName(x *syntax.Ident, want syntax.Type) {
	switch {
	case x.Name == "_":
	case c.Scope.IsIndex(x.Name):
		cast := want
		if !cast.IsNumeric() {
			cast = syntax.I32
		}
		c.errorf(x.Pos(), syntax.CodeType, "index %s used as a value must be cast, as in %s(%s)", x.Name, cast, x.Name)
	case c.isTensor(x.Name):
		c.errorf(x.Pos(), syntax.CodeWrongKind, "tensor %s needs its indices: %s(...)", x.Name, x.Name)
	default:
		if _, _, ok := c.Scope.Array(x.Name); ok {
			c.errorf(x.Pos(), syntax.CodeWrongKind, "array %s needs its indices: %s[...]", x.Name, x.Name)
		} else {
			c.errorf(x.Pos(), syntax.CodeUndeclared, "undefined: %s", x.Name)
		}
	}
}

// unify checks operands that must share one type: the type of the first
// operand that is not a context-typed literal, or want, or the literals'
// default type. It returns that type, or Invalid after an error.
func (c *Checker) unify(xs []syntax.Expr, want syntax.Type) syntax.Type {
	t := syntax.Invalid
	first := -1
	for i, x := range xs {
		if !c.isUntyped(x) {
			// want reaches the literals inside x, as in
			// sqrt(pow(2., .5)) in an f32 context.
			first = i
			t = c.value(x, want)
			break
		}
	}
	if first < 0 {
		t = want
		if t == syntax.Invalid {
			t = syntax.I64
			for _, x := range xs {
				if needsFloat(x) {
					t = syntax.F64
				}
			}
		}
	}
	ok := t != syntax.Invalid
	for i, x := range xs {
		if i == first {
			continue
		}
		if !ok {
			c.value(x, syntax.Invalid) // report errors inside
			continue
		}
		u := c.value(x, t)
		if u == syntax.Invalid {
			ok = false
		} else if u != t {
			c.errorf(x.Pos(), syntax.CodeType, "mismatched types %s and %s (no implicit conversion: cast one side)", t, u)
			ok = false
		}
	}
	if !ok {
		return syntax.Invalid
	}
	return t
}

func (c *Checker) binary(x *syntax.Binary, want syntax.Type) syntax.Type {
	switch {
	case x.Op == syntax.OpAnd || x.Op == syntax.OpOr:
		if c.isConstraintLike(x) {
			if !c.Constraint(x) {
				return syntax.Invalid
			}
			return c.record(x, syntax.Bool)
		}
		l := c.Value(x.X, syntax.Bool)
		r := c.Value(x.Y, syntax.Bool)
		if l == syntax.Invalid || r == syntax.Invalid {
			return syntax.Invalid
		}
		return c.record(x, syntax.Bool)
	case x.Op.IsComparison():
		if c.isIndexLike(x.X) && c.isIndexLike(x.Y) {
			if !c.Constraint(x) {
				return syntax.Invalid
			}
			return c.record(x, syntax.Bool)
		}
		t := c.unify([]syntax.Expr{x.X, x.Y}, syntax.Invalid)
		if t == syntax.Invalid {
			return t
		}
		if !value.Applies(x.Op, t) {
			c.errorf(x.Pos(), syntax.CodeType, "operator %s does not apply to %s", x.Op, t)
			return syntax.Invalid
		}
		return c.record(x, syntax.Bool)
	}
	t := c.unify([]syntax.Expr{x.X, x.Y}, want)
	if t == syntax.Invalid {
		return t
	}
	if !value.Applies(x.Op, t) {
		c.errorf(x.Pos(), syntax.CodeType, "operator %s does not apply to %s", x.Op, t)
		return syntax.Invalid
	}
	return c.record(x, t)
}

func (c *Checker) call(x *syntax.Call, want syntax.Type) syntax.Type {
	name := x.Fun.Name
	if t := syntax.TypeByName(name); t != syntax.Invalid {
		if len(x.Args) != 1 {
			c.errorf(x.Pos(), syntax.CodeArity, "conversion %s takes 1 argument, got %d", name, len(x.Args))
			return syntax.Invalid
		}
		arg := x.Args[0]
		if c.isIndexLike(arg) {
			// An exact integer: an index, a parameter or an integer literal.
			if !c.Index(arg) {
				return syntax.Invalid
			}
			return c.record(x, t)
		}
		from := syntax.Invalid
		if t.IsFloat() && c.isUntyped(arg) && hasFloatLit(arg) {
			// f32(0.1) is the f32 nearest 0.1, not a rounded f64.
			from = t
		}
		if c.value(arg, from) == syntax.Invalid {
			return syntax.Invalid
		}
		return c.record(x, t)
	}
	if t, ok := value.ReinterpretType(name); ok {
		return c.reinterpret(x, t)
	}
	if b, ok := value.LookupBuiltin(name); ok {
		return c.builtin(x, b, want)
	}
	if elem, rank, ok := c.Scope.Tensor(name); ok {
		if !c.AllowTensors {
			c.errorf(x.Pos(), syntax.CodeWrongKind, "tensor access %s is not allowed here (kernel code reads arrays)", syntax.ExprString(x))
			return syntax.Invalid
		}
		if len(x.Args) != rank {
			c.errorf(x.Pos(), syntax.CodeArity, "tensor %s has %s, accessed with %s", name, plural(rank, "dimension"), plural(len(x.Args), "index"))
			return syntax.Invalid
		}
		indexed := true
		for _, a := range x.Args {
			indexed = c.accessIndex(a) && indexed
		}
		if !indexed || elem == syntax.Invalid {
			return syntax.Invalid
		}
		return c.record(x, elem)
	}
	if _, _, ok := c.Scope.Array(name); ok {
		c.errorf(x.Pos(), syntax.CodeWrongKind, "array %s is read with brackets: %s[...]", name, name)
		return syntax.Invalid
	}
	if c.Scope.IsIndex(name) {
		c.errorf(x.Pos(), syntax.CodeWrongKind, "%s is an index, not a function or tensor", name)
		return syntax.Invalid
	}
	c.errorf(x.Pos(), syntax.CodeUndeclared, "undefined: %s", name)
	return syntax.Invalid
}

// reinterpret checks the bit cast reinterpret_T(x) to type t: x must be a
// value of an integer or float type of t's width. A literal argument takes
// the signed integer type of that width (the float type, if it can only be
// a float).
func (c *Checker) reinterpret(x *syntax.Call, t syntax.Type) syntax.Type {
	name := x.Fun.Name
	if len(x.Args) != 1 {
		c.errorf(x.Pos(), syntax.CodeArity, "bit cast %s takes 1 argument, got %d", name, len(x.Args))
		return syntax.Invalid
	}
	arg := x.Args[0]
	from := syntax.Invalid
	for _, u := range []syntax.Type{syntax.I8, syntax.I16, syntax.I32, syntax.I64, syntax.F32, syntax.F64} {
		if u.Bits() == t.Bits() && (from == syntax.Invalid || u.IsFloat() && needsFloat(arg)) {
			from = u
		}
	}
	if !c.isUntyped(arg) {
		from = syntax.Invalid
	}
	u := c.value(arg, from)
	if u == syntax.Invalid {
		return syntax.Invalid
	}
	if !value.CanReinterpret(t, u) {
		c.errorf(x.Pos(), syntax.CodeType, "bit cast %s needs an integer or float argument of %d bits, got %s", name, t.Bits(), u)
		return syntax.Invalid
	}
	return c.record(x, t)
}

func (c *Checker) builtin(x *syntax.Call, b value.Builtin, want syntax.Type) syntax.Type {
	if len(x.Args) != b.Arity {
		c.errorf(x.Pos(), syntax.CodeArity, "%s takes %d arguments, got %d", b.Name, b.Arity, len(x.Args))
		return syntax.Invalid
	}
	args := x.Args
	condOK := true
	if b.Name == "select" {
		condOK = c.Value(args[0], syntax.Bool) != syntax.Invalid
		args = args[1:]
	}
	if b.FloatOnly && !want.IsFloat() {
		want = syntax.F64
	}
	t := c.unify(args, want)
	if t == syntax.Invalid || !condOK {
		return syntax.Invalid
	}
	switch {
	case b.Name == "select":
	case b.FloatOnly && !t.IsFloat():
		c.errorf(x.Pos(), syntax.CodeType, "%s needs a float argument, got %s", b.Name, t)
		return syntax.Invalid
	case !t.IsNumeric():
		c.errorf(x.Pos(), syntax.CodeType, "%s needs a numeric argument, got %s", b.Name, t)
		return syntax.Invalid
	}
	return c.record(x, t)
}

func (c *Checker) arrayRead(x *syntax.Index) syntax.Type {
	name := x.Array.Name
	elem, rank, ok := c.Scope.Array(name)
	if !ok {
		if c.isTensor(name) {
			c.errorf(x.Pos(), syntax.CodeWrongKind, "tensor %s is accessed with parentheses: %s(...)", name, name)
		} else {
			c.errorf(x.Pos(), syntax.CodeUndeclared, "undefined: %s", name)
		}
		return syntax.Invalid
	}
	if !c.AllowArrays {
		c.errorf(x.Pos(), syntax.CodeWrongKind, "array read %s is not allowed here", syntax.ExprString(x))
		return syntax.Invalid
	}
	if len(x.Indices) != rank {
		c.errorf(x.Pos(), syntax.CodeArity, "array %s has %s, indexed with %s", name, plural(rank, "dimension"), plural(len(x.Indices), "index"))
		return syntax.Invalid
	}
	okAll := true
	for _, i := range x.Indices {
		okAll = c.accessIndex(i) && okAll
	}
	if !okAll || elem == syntax.Invalid {
		return syntax.Invalid
	}
	return c.record(x, elem)
}

// plural renders "1 index", "2 indices", "0 dimensions".
func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	if noun == "index" {
		return fmt.Sprintf("%d indices", n)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// isReinterpret reports whether name is a bit cast, reinterpret_T.
func isReinterpret(name string) bool {
	_, ok := value.ReinterpretType(name)
	return ok
}
