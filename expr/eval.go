package expr

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// Env gives expressions their meaning during evaluation.
type Env interface {
	// Index returns the value of a parameter or index variable.
	Index(name string) (int64, bool)
	// Tensor returns a specification tensor's element: the undefined value
	// of its type outside every equation's domain.
	Tensor(name string, idx []int64) (value.Value, error)
	// Array returns a kernel array's cell.
	Array(name string, idx []int64) (value.Value, error)
}

// IdentEnv is an Env that looks an index name up by its identifier node:
// EvalIndex calls IndexIdent rather than Index when its environment
// implements it, so that the environment may remember where each
// identifier of an expression evaluated many times resolves. IndexIdent
// must return what Index(id.Name) returns.
type IdentEnv interface {
	Env
	IndexIdent(id *syntax.Ident) (int64, bool)
}

var errNoTensor = errors.New("no tensors or arrays in this context")

// errorAt returns an evaluation error at pos. The error is a
// *syntax.Error so that callers holding the source can render it with
// its line and caret.
func errorAt(pos syntax.Pos, format string, args ...any) error {
	return &syntax.Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// EvalIndex evaluates an index expression exactly over int64, with floor
// division and non-negative remainder. Overflow of int64 is an error, as
// are an unbound name and a divisor that is not positive.
func EvalIndex(x syntax.Expr, env Env) (int64, error) {
	switch x := x.(type) {
	case *syntax.Ident:
		var n int64
		var ok bool
		if ie, isIdent := env.(IdentEnv); isIdent {
			n, ok = ie.IndexIdent(x)
		} else {
			n, ok = env.Index(x.Name)
		}
		if !ok {
			return 0, errorAt(x.Pos(), "no value for index %s", x.Name)
		}
		return n, nil
	case *syntax.Lit:
		if x.Kind != syntax.IntLiteral {
			return 0, errorAt(x.Pos(), "%s literal %s in an index expression", x.Kind, x.Text)
		}
		if n, ok := decimalIndex(x.Text); ok {
			return n, nil
		}
		v, err := value.Literal(syntax.I64, x.Text)
		if err != nil {
			return 0, errorAt(x.Pos(), "integer literal %s overflows the index range", x.Text)
		}
		return v.Int64(), nil
	case *syntax.Unary:
		if x.Op != syntax.OpNeg {
			break
		}
		if lit, ok := x.X.(*syntax.Lit); ok && lit.Kind == syntax.IntLiteral {
			if n, ok := decimalIndex(lit.Text); ok {
				return -n, nil
			}
			v, err := value.Literal(syntax.I64, "-"+lit.Text)
			if err != nil {
				return 0, errorAt(x.Pos(), "integer literal -%s overflows the index range", lit.Text)
			}
			return v.Int64(), nil
		}
		n, err := EvalIndex(x.X, env)
		if err != nil {
			return 0, err
		}
		if n == math.MinInt64 {
			return 0, errorAt(x.Pos(), "index overflow in %s", syntax.ExprString(x))
		}
		return -n, nil
	case *syntax.Binary:
		a, err := EvalIndex(x.X, env)
		if err != nil {
			return 0, err
		}
		b, err := EvalIndex(x.Y, env)
		if err != nil {
			return 0, err
		}
		r, ok := indexOp(x.Op, a, b)
		if !ok {
			if (x.Op == syntax.OpDiv || x.Op == syntax.OpRem) && b <= 0 {
				return 0, errorAt(x.Y.Pos(), "%s by %d in an index expression (the divisor must be positive)", x.Op, b)
			}
			return 0, errorAt(x.Pos(), "index overflow in %s (%d %s %d)", syntax.ExprString(x), a, x.Op, b)
		}
		return r, nil
	case *syntax.Call:
		switch x.Fun.Name {
		case "min", "max":
			if len(x.Args) != 2 {
				break
			}
			a, err := EvalIndex(x.Args[0], env)
			if err != nil {
				return 0, err
			}
			b, err := EvalIndex(x.Args[1], env)
			if err != nil {
				return 0, err
			}
			if x.Fun.Name == "min" {
				return min(a, b), nil
			}
			return max(a, b), nil
		case "select":
			if len(x.Args) != 3 {
				break
			}
			c, err := EvalCond(x.Args[0], env)
			if err != nil {
				return 0, err
			}
			// Both branches are evaluated, as everywhere in the language.
			a, err := EvalIndex(x.Args[1], env)
			if err != nil {
				return 0, err
			}
			b, err := EvalIndex(x.Args[2], env)
			if err != nil {
				return 0, err
			}
			if c {
				return a, nil
			}
			return b, nil
		}
	}
	return 0, errorAt(x.Pos(), "%s is not an index expression", syntax.ExprString(x))
}

// indexOp applies an index-language operator; ok is false on overflow or
// a divisor that is not positive.
func indexOp(op syntax.Op, a, b int64) (int64, bool) {
	switch op {
	case syntax.OpAdd:
		r := a + b
		return r, (r > a) == (b > 0)
	case syntax.OpSub:
		r := a - b
		return r, (r < a) == (b > 0)
	case syntax.OpMul:
		if a == 0 || b == 0 {
			return 0, true
		}
		hi, lo := bits.Mul64(uint64(abs64(a)), uint64(abs64(b)))
		if a == math.MinInt64 || b == math.MinInt64 {
			// Only ±1 times MinInt64 fits.
			if a == 1 || b == 1 {
				return math.MinInt64, true
			}
			return 0, false
		}
		neg := (a < 0) != (b < 0)
		if hi != 0 || lo > math.MaxInt64+boolU(neg) {
			return 0, false
		}
		if neg {
			return -int64(lo), true // lo == 1<<63 gives MinInt64
		}
		return int64(lo), true
	case syntax.OpDiv, syntax.OpRem:
		if b <= 0 {
			return 0, false
		}
		q, r := value.EuclidDiv(a, b)
		if op == syntax.OpDiv {
			return q, true
		}
		return r, true
	}
	return 0, false
}

func abs64(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

func boolU(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// EvalCond evaluates a constraint over exact integers.
func EvalCond(x syntax.Expr, env Env) (bool, error) {
	switch x := x.(type) {
	case *syntax.Lit:
		if x.Kind == syntax.BoolLiteral {
			return x.Text == "true", nil
		}
	case *syntax.Unary:
		if x.Op == syntax.OpNot {
			b, err := EvalCond(x.X, env)
			return !b, err
		}
	case *syntax.Binary:
		switch {
		case x.Op == syntax.OpAnd || x.Op == syntax.OpOr:
			a, err := EvalCond(x.X, env)
			if err != nil {
				return false, err
			}
			b, err := EvalCond(x.Y, env)
			if err != nil {
				return false, err
			}
			if x.Op == syntax.OpAnd {
				return a && b, nil
			}
			return a || b, nil
		case x.Op.IsComparison():
			a, err := EvalIndex(x.X, env)
			if err != nil {
				return false, err
			}
			b, err := EvalIndex(x.Y, env)
			if err != nil {
				return false, err
			}
			return compare(x.Op, a, b), nil
		}
	case *syntax.Chain:
		vals := make([]int64, len(x.Operands))
		for i, o := range x.Operands {
			n, err := EvalIndex(o, env)
			if err != nil {
				return false, err
			}
			vals[i] = n
		}
		for i, op := range x.Ops {
			if !compare(op, vals[i], vals[i+1]) {
				return false, nil
			}
		}
		return true, nil
	}
	return false, errorAt(x.Pos(), "%s is not a constraint", syntax.ExprString(x))
}

func compare(op syntax.Op, a, b int64) bool {
	switch op {
	case syntax.OpEq:
		return a == b
	case syntax.OpNe:
		return a != b
	case syntax.OpLt:
		return a < b
	case syntax.OpLe:
		return a <= b
	case syntax.OpGt:
		return a > b
	case syntax.OpGe:
		return a >= b
	}
	return false
}

// EvalValue evaluates a checked value expression. info must hold the
// types the checker recorded for x. Every operand is evaluated (select is
// eager), and undefined values propagate.
func EvalValue(x syntax.Expr, info *Info, env Env) (value.Value, error) {
	if info == nil {
		return value.Value{}, errors.New("evaluate value expression: no type information")
	}
	t, ok := info.Types[x]
	if !ok {
		return value.Value{}, errorAt(x.Pos(), "%s was not type-checked", syntax.ExprString(x))
	}
	wrapErr := func(err error) error {
		if err == nil {
			return nil
		}
		var se *syntax.Error
		if errors.As(err, &se) {
			return err
		}
		return errorAt(x.Pos(), "%s: %v", syntax.ExprString(x), err)
	}
	switch x := x.(type) {
	case *syntax.Lit:
		v, err := info.literal(x, t, x.Text)
		return v, wrapErr(err)
	case *syntax.Unary:
		if lit, ok := x.X.(*syntax.Lit); ok && x.Op == syntax.OpNeg && lit.Kind != syntax.BoolLiteral {
			if v, ok := info.lits.Load(x); ok {
				return v.(value.Value), nil // without building the text again
			}
			v, err := info.literal(x, t, "-"+lit.Text)
			return v, wrapErr(err)
		}
		if _, ok := info.Types[x.X]; !ok && x.Op == syntax.OpNot {
			b, err := EvalCond(x, env)
			return value.Bool(b), err
		}
		v, err := EvalValue(x.X, info, env)
		if err != nil {
			return v, err
		}
		v, err = info.Overflow.Unary(x.Op, v)
		return v, wrapErr(err)
	case *syntax.Binary:
		if _, ok := info.Types[x.X]; !ok && (x.Op.IsComparison() || x.Op.IsLogical()) {
			b, err := EvalCond(x, env)
			return value.Bool(b), err
		}
		a, err := EvalValue(x.X, info, env)
		if err != nil {
			return a, err
		}
		b, err := EvalValue(x.Y, info, env)
		if err != nil {
			return b, err
		}
		v, err := info.Overflow.Binary(x.Op, a, b)
		return v, wrapErr(err)
	case *syntax.Chain:
		if _, ok := info.Types[x.Operands[0]]; !ok {
			b, err := EvalCond(x, env)
			return value.Bool(b), err
		}
		vals := make([]value.Value, len(x.Operands))
		for i, o := range x.Operands {
			v, err := EvalValue(o, info, env)
			if err != nil {
				return v, err
			}
			vals[i] = v
		}
		result := value.Bool(true)
		for i, op := range x.Ops {
			c, err := value.Binary(op, vals[i], vals[i+1])
			if err != nil {
				return c, wrapErr(err)
			}
			if result, err = value.Binary(syntax.OpAnd, result, c); err != nil {
				return result, wrapErr(err)
			}
		}
		return result, nil
	case *syntax.Call:
		return evalCall(x, t, info, env)
	case *syntax.Index:
		idx, defined, free, err := evalAccessIndices(x.Indices, info, env)
		if err != nil || !defined {
			return value.Undef(t), err
		}
		if free {
			// An index computed from an unconstrained overflow (a
			// kernel's under value.OverflowUnconstrained) is any
			// index: the read is of any cell, in bounds or not, and
			// its value any value of its type.
			return value.Unconstrained(anyValue(t)), nil
		}
		v, err := env.Array(x.Array.Name, idx)
		return v, wrapErr(err)
	}
	return value.Value{}, errorAt(x.Pos(), "%s is not a value expression", syntax.ExprString(x))
}

// anyValue is a defined value of type t (its bits are not meant).
func anyValue(t syntax.Type) value.Value {
	switch {
	case t == syntax.Bool:
		return value.Bool(false)
	case t.IsInteger():
		return value.Int(t, 0)
	}
	return value.Float(t, 0)
}

// A callClass is a kind of call of the expression language, as EvalValue
// evaluates it.
type callClass int

const (
	conversionCall callClass = iota // a type's name applied to one operand: i32(x)
	bitCastCall                     // reinterpret_f32(x)
	builtinCall                     // a built-in function: sqrt, min, ...
	elementCall                     // a tensor's element or an array's cell, read from the Env
)

// callKind is the class of the call x.
func callKind(x *syntax.Call) callClass {
	name := x.Fun.Name
	if syntax.TypeByName(name) != syntax.Invalid && len(x.Args) == 1 {
		return conversionCall
	}
	if _, ok := value.ReinterpretType(name); ok && len(x.Args) == 1 {
		return bitCastCall
	}
	if _, ok := value.LookupBuiltin(name); ok {
		return builtinCall
	}
	return elementCall
}

// ReadsElement reports whether EvalValue evaluates the call x as the read
// of an element from its Env (Env.Tensor), not as a conversion, a bit
// cast or a built-in function.
func ReadsElement(x *syntax.Call) bool { return callKind(x) == elementCall }

func evalCall(x *syntax.Call, t syntax.Type, info *Info, env Env) (value.Value, error) {
	name := x.Fun.Name
	kind := callKind(x)
	if kind == conversionCall {
		arg := x.Args[0]
		if _, typed := info.Types[arg]; !typed {
			n, err := EvalIndex(arg, env)
			if err != nil {
				return value.Value{}, err
			}
			v, err := value.FromIndex(t, n)
			if err != nil {
				return v, errorAt(x.Pos(), "%s: %v", syntax.ExprString(x), err)
			}
			return v, nil
		}
		v, err := EvalValue(arg, info, env)
		if err != nil {
			return v, err
		}
		v, err = value.Cast(t, v)
		if err != nil {
			return v, errorAt(x.Pos(), "%s: %v", syntax.ExprString(x), err)
		}
		return v, nil
	}
	if kind == bitCastCall {
		v, err := EvalValue(x.Args[0], info, env)
		if err != nil {
			return v, err
		}
		v, err = value.Reinterpret(t, v)
		if err != nil {
			return v, errorAt(x.Pos(), "%s: %v", syntax.ExprString(x), err)
		}
		return v, nil
	}
	if kind == builtinCall {
		args := make([]value.Value, len(x.Args))
		for i, a := range x.Args {
			v, err := EvalValue(a, info, env)
			if err != nil {
				return v, err
			}
			args[i] = v
		}
		v, err := value.Call(name, args)
		if err != nil {
			return v, errorAt(x.Pos(), "%s: %v", syntax.ExprString(x), err)
		}
		return v, nil
	}
	idx, defined, free, err := evalAccessIndices(x.Args, info, env)
	if err != nil || !defined {
		return value.Undef(t), err
	}
	v, err := env.Tensor(name, idx)
	if err != nil {
		var se *syntax.Error
		if errors.As(err, &se) {
			return v, err
		}
		return v, errorAt(x.Pos(), "%s: %v", syntax.ExprString(x), err)
	}
	if free {
		v = value.Unconstrained(v)
	}
	return v, nil
}

// FormatIndex renders a tensor element or array cell such as R(1, 2, -1).
func FormatIndex(name string, idx []int64, open, close byte) string {
	b := make([]byte, 0, len(name)+2+4*len(idx))
	b = append(b, name...)
	b = append(b, open)
	for i, n := range idx {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, n, 10)
	}
	return string(append(b, close))
}

// decimalIndex is the value of an integer literal spelled with at most
// 18 decimal digits and nothing else, which value.Literal gives as an
// i64 too and which no i64 overflows; ok is false for any other spelling
// (a hexadecimal, a separator, more digits), left to value.Literal.
// Index expressions are evaluated at every iteration of a run, and
// their literals are not memoised (Info.literal).
func decimalIndex(text string) (n int64, ok bool) {
	if text == "" || len(text) > 18 {
		return 0, false
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// literal is value.Literal(t, text) for the literal node x, memoised in
// info: x's type never changes once checked. Errors are not memoised.
func (info *Info) literal(x syntax.Expr, t syntax.Type, text string) (value.Value, error) {
	if v, ok := info.lits.Load(x); ok {
		return v.(value.Value), nil
	}
	v, err := value.Literal(t, text)
	if err == nil {
		info.lits.Store(x, v)
	}
	return v, err
}
