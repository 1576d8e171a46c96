package encode

import (
	"errors"
	"fmt"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// ExprOptions control the encoding of tensor accesses.
type ExprOptions struct {
	// Unfold reports whether accesses to the computed tensor called tensor
	// may be replaced by its equations (see the package documentation);
	// nil means never. Input tensors are never unfolded.
	Unfold func(tensor string) bool
	// UnfoldTop unfolds the accesses of the expression itself whatever
	// Unfold says (an obligation's specification side is one access, to
	// the tensor the implementation's own reads may hold earlier
	// elements of).
	UnfoldTop bool
	// Keep, when set, is asked about each access (the application of its
	// tensor's function) before it is unfolded; an access it reports true
	// for stays an access. Matching keeps the elements the other side of
	// an obligation names.
	Keep func(access *smt.Term) bool
	// Axioms keeps unfolded accesses as applications of the tensor's
	// function and records their definitions (Encoder.Axioms) instead of
	// substituting them, so that equal elements reached through different
	// index terms are identified by congruence.
	Axioms bool
	// Decide, when set, is asked whether an unfolded equation's domain
	// condition always holds (true, true) or never holds (false, true)
	// where the expression is evaluated; the unfolding then keeps only
	// the equation that applies. It must answer only what the caller's
	// facts imply.
	Decide func(cond *smt.Term) (value, known bool)
	// Depth bounds the nesting of unfoldings: an access met inside Depth
	// unfolded equations is not unfolded further. 0 (the default) means 1:
	// accesses of the expression itself are unfolded, those of the
	// equations they unfold to are not.
	Depth int
	// Unfoldings bounds the number of accesses unfolded since the last
	// ResetUnfoldings (0: no bound): past it, accesses are left without
	// their definition, as at the depth limit (CutOffs counts them). A
	// ground evaluation through a recursion whose reads are not memoised
	// (data-dependent indices) grows with the product of its fan-outs;
	// the bound keeps its cost, and its memory, finite.
	Unfoldings int
}

// tv is an encoded value: its term, the Bool term of its definedness and
// the Bool term free that holds where the value is unconstrained (computed
// from a signed overflow of a specification's equation under
// value.OverflowUnconstrained; nil for never).
type tv struct{ val, def, free *smt.Term }

// exprEnc encodes one value expression.
type exprEnc struct {
	e *Encoder
	// overflow is the meaning of signed overflow here: the
	// specification's in the equations that unfolding substitutes,
	// wrapping in the expression itself (a kernel's value or annotation).
	overflow value.Overflow
	types    map[syntax.Expr]syntax.Type
	idx      Index // the names of this expression (equation variables when unfolding)
	root     Index // the caller's names (parameters, when unfolding)
	opts     ExprOptions
	level    int // the number of unfoldings this expression is nested in
}

// Expr encodes the value expression x, whose value nodes' types are in types
// (as expr.Info.Types holds them; nodes without a type are index expressions
// or constraints, encoded by IndexExpr and Constraint with idx). It returns
// the term of x's value, of sort Sort(types[x]), and the Bool term def that
// holds exactly when the value is defined (see the package documentation:
// float-to-integer casts out of range are undefined, undefinedness
// propagates through every operation, select included, and tensor accesses
// are taken to be defined). When def is false, val is unspecified.
func (e *Encoder) Expr(x syntax.Expr, types map[syntax.Expr]syntax.Type, idx Index, opts ExprOptions) (val, def *smt.Term, err error) {
	val, def, _, err = e.ExprFree(x, types, idx, opts)
	return val, def, err
}

// ExprFree is Expr, and also returns the Bool term free that holds where
// the value is unconstrained (value.Value.IsUnconstrained): computed from
// a tensor element whose equation's body overflows under the
// specification's value.OverflowUnconstrained (see the package
// documentation, "Unconstrained values"). free is false for a
// specification that wraps.
func (e *Encoder) ExprFree(x syntax.Expr, types map[syntax.Expr]syntax.Type, idx Index, opts ExprOptions) (val, def, free *smt.Term, err error) {
	defer guard(&err, "value expression")
	c := &exprEnc{e: e, types: types, idx: idx, root: idx, opts: opts}
	r, err := c.expr(x)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := r.val.Err(); err != nil {
		return nil, nil, nil, fmt.Errorf("encode: %s: %w", syntax.ExprString(x), err)
	}
	if err := r.def.Err(); err != nil {
		return nil, nil, nil, fmt.Errorf("encode: definedness of %s: %w", syntax.ExprString(x), err)
	}
	free = e.fls
	if r.free != nil {
		if err := r.free.Err(); err != nil {
			return nil, nil, nil, fmt.Errorf("encode: overflow of %s: %w", syntax.ExprString(x), err)
		}
		free = r.free
	}
	return r.val, r.def, free, nil
}

// typeOf is the recorded type of the value node x.
func (c *exprEnc) typeOf(x syntax.Expr) (syntax.Type, bool) {
	t, ok := c.types[x]
	return t, ok && t != syntax.Invalid
}

// defined is a value that is always defined.
func (c *exprEnc) defined(val *smt.Term) tv { return tv{val, c.e.tru, nil} }

func (c *exprEnc) expr(x syntax.Expr) (tv, error) {
	if x == nil {
		return tv{}, errors.New("encode: nil value expression")
	}
	if c.e.meter != nil {
		if err := c.e.meter(); err != nil {
			return tv{}, err
		}
	}
	t, ok := c.typeOf(x)
	if !ok {
		return tv{}, exprError(x, "not type-checked as a value")
	}
	switch x := x.(type) {
	case *syntax.Lit:
		return c.literal(x, t, x.Text)
	case *syntax.Unary:
		return c.unary(x, t)
	case *syntax.Binary:
		return c.binary(x, t)
	case *syntax.Chain:
		return c.chain(x)
	case *syntax.Call:
		return c.call(x, t)
	case *syntax.Index:
		return tv{}, exprError(x, "array reads cannot be encoded (the verifier replaces them by their contents)")
	}
	return tv{}, exprError(x, "not a value expression")
}

// literal encodes a literal of type t spelled text, as value.Literal reads it.
func (c *exprEnc) literal(x syntax.Expr, t syntax.Type, text string) (tv, error) {
	v, err := value.Literal(t, text)
	if err != nil {
		return tv{}, exprError(x, "%v", err)
	}
	if t.IsFloat() && c.e.model == Real && !v.IsUndef() {
		// In the real model a float literal is the real number it
		// spells (0.1 is one tenth), not its nearest float: the model
		// reasons about the computation as exact arithmetic, literals
		// included; or the constant derived from the specification's
		// that it is a rounding of (SetReadings). See docs/validate.md.
		if r, ok := c.e.readings.Rat(t, text); ok {
			return c.defined(c.e.z.Rat(r)), nil
		}
		if r, ok := value.DecimalRat(text); ok {
			return c.defined(c.e.z.Rat(r)), nil
		}
	}
	k, err := c.e.constant(v)
	if err != nil {
		return tv{}, exprError(x, "%v", err)
	}
	return c.defined(k), nil
}

// constant is the term of the defined value v.
// Constant returns the term of the defined value v in the encoder's model
// (a float as its exact rational in the Real model).
func (e *Encoder) Constant(v value.Value) (*smt.Term, error) { return e.constant(v) }

func (e *Encoder) constant(v value.Value) (*smt.Term, error) {
	t := v.Type()
	switch {
	case v.IsUndef():
		return nil, fmt.Errorf("undefined %s constant", t)
	case t == syntax.Bool:
		return e.z.Bool(v.Bool()), nil
	case t.IsInteger():
		return e.z.BV(v.Uint64(), uint(t.Bits())), nil
	case t.IsFloat():
		return e.floatConst(t, v.Float64())
	}
	return nil, fmt.Errorf("no constant of type %s", t)
}

func (c *exprEnc) unary(x *syntax.Unary, t syntax.Type) (tv, error) {
	if lit, ok := x.X.(*syntax.Lit); ok && x.Op == syntax.OpNeg && lit.Kind != syntax.BoolLiteral {
		// -128 is one literal, so that it fits i8; -0.0 is negative zero.
		return c.literal(x, t, "-"+lit.Text)
	}
	if _, typed := c.typeOf(x.X); !typed && x.Op == syntax.OpNot {
		k, err := c.e.constraint(x, c.idx)
		return c.defined(k), err
	}
	a, err := c.expr(x.X)
	if err != nil {
		return tv{}, err
	}
	if at, _ := c.typeOf(x.X); at != t {
		return tv{}, exprError(x, "operand of type %s, result of type %s", at, t)
	}
	var r *smt.Term
	switch {
	case x.Op == syntax.OpNeg && t.IsInteger():
		r = a.val.BVNeg()
	case x.Op == syntax.OpNeg && t.IsFloat():
		r = c.e.floatNeg(a.val)
	case x.Op == syntax.OpBitNot && t.IsInteger():
		r = a.val.BVNot()
	case x.Op == syntax.OpNot && t == syntax.Bool:
		r = a.val.Not()
	default:
		return tv{}, exprError(x, "operator %s does not apply to %s", x.Op, t)
	}
	free := a.free
	if x.Op == syntax.OpNeg && c.overflow.Checked(t) {
		free = c.e.or(free, a.val.Eq(c.e.z.BV(minBits(t), uint(t.Bits()))))
	}
	return tv{r, a.def, free}, nil
}

func (c *exprEnc) binary(x *syntax.Binary, t syntax.Type) (tv, error) {
	if _, typed := c.typeOf(x.X); !typed && (x.Op.IsComparison() || x.Op.IsLogical()) {
		k, err := c.e.constraint(x, c.idx)
		return c.defined(k), err
	}
	a, err := c.expr(x.X)
	if err != nil {
		return tv{}, err
	}
	b, err := c.expr(x.Y)
	if err != nil {
		return tv{}, err
	}
	ot, _ := c.typeOf(x.X)
	if yt, _ := c.typeOf(x.Y); yt != ot {
		return tv{}, exprError(x, "operands of types %s and %s", ot, yt)
	}
	if !value.Applies(x.Op, ot) || value.ResultType(x.Op, ot) != t {
		return tv{}, exprError(x, "operator %s does not apply to %s giving %s", x.Op, ot, t)
	}
	r, err := c.e.binaryOp(x.Op, ot, a.val, b.val)
	if err != nil {
		return tv{}, exprError(x, "%v", err)
	}
	free := c.e.or(a.free, b.free)
	if c.overflow.Checked(ot) {
		free = c.e.or(free, c.e.signedOverflow(x.Op, ot, a.val, b.val))
	}
	return tv{r, c.e.and(a.def, b.def), free}, nil
}

func (c *exprEnc) chain(x *syntax.Chain) (tv, error) {
	if _, typed := c.typeOf(x.Operands[0]); !typed {
		k, err := c.e.constraint(x, c.idx)
		return c.defined(k), err
	}
	vals := make([]tv, len(x.Operands))
	defs := make([]*smt.Term, len(x.Operands))
	var free *smt.Term
	ot, _ := c.typeOf(x.Operands[0])
	for i, o := range x.Operands {
		v, err := c.expr(o)
		if err != nil {
			return tv{}, err
		}
		if t, _ := c.typeOf(o); t != ot {
			return tv{}, exprError(x, "operands of types %s and %s", ot, t)
		}
		vals[i], defs[i] = v, v.def
		free = c.e.or(free, v.free)
	}
	cs := make([]*smt.Term, len(x.Ops))
	for i, op := range x.Ops {
		if !op.IsComparison() || !value.Applies(op, ot) {
			return tv{}, exprError(x, "operator %s does not apply to %s", op, ot)
		}
		k, err := c.e.binaryOp(op, ot, vals[i].val, vals[i+1].val)
		if err != nil {
			return tv{}, exprError(x, "%v", err)
		}
		cs[i] = k
	}
	return tv{c.e.z.And(cs...), c.e.and(defs...), free}, nil
}

// binaryOp applies op to two operands of type t (value.Binary's semantics).
func (e *Encoder) binaryOp(op syntax.Op, t syntax.Type, a, b *smt.Term) (*smt.Term, error) {
	// Commutative operators get their operands in a canonical order, so
	// that b * a and a * b are the same term: exact in every model (IEEE
	// addition and multiplication commute), and it spares the solver
	// proving a commuted floating-point multiplier equal to itself, which
	// bit-blasting makes very hard. The order is that of first use, which
	// keeps operands as written unless a commuted pair met before: it
	// depends on the order of encoding only, never on Z3's identifiers,
	// which depend on when the collector freed terms. (Term.SimplifyArith
	// puts whole terms into a structural order before they are compared.)
	switch op {
	case syntax.OpAdd, syntax.OpMul, syntax.OpBitAnd, syntax.OpBitOr, syntax.OpBitXor:
		// Simplified first, so that equal operands are the same term
		// (hash-consed) whatever unfolding produced them.
		// An ite (an unfolding substituted in place) keeps its place: it
		// resolves to an operand whose rank is not known yet.
		a, b = a.Simplify(), b.Simplify()
		if !a.IsIte() && !b.IsIte() && e.rank(a) > e.rank(b) {
			a, b = b, a
		}
	}
	switch {
	case t == syntax.Bool:
		switch op {
		case syntax.OpAnd:
			return a.And(b), nil
		case syntax.OpOr:
			return a.Or(b), nil
		case syntax.OpEq:
			return a.Iff(b), nil
		case syntax.OpNe:
			return a.Xor(b), nil
		}
	case t.IsInteger():
		if r, ok := e.intDivision(op, t, a, b); ok {
			return r, nil
		}
		if op == syntax.OpEq || op == syntax.OpNe {
			if r, ok := e.intEqual(a, b, uint(t.Bits())); ok {
				if op == syntax.OpNe {
					r = r.Not()
				}
				return r, nil
			}
		}
		if r, ok := e.intOrder(op, t, a, b); ok {
			return r, nil
		}
		return bvBinary(e.z, op, t, a, b)
	case t.IsFloat():
		return e.floatBinary(op, t, a, b)
	}
	return nil, fmt.Errorf("operator %s does not apply to %s", op, t)
}

func (c *exprEnc) call(x *syntax.Call, t syntax.Type) (tv, error) {
	name := x.Fun.Name
	if to := syntax.TypeByName(name); to != syntax.Invalid && len(x.Args) == 1 {
		if to != t {
			return tv{}, exprError(x, "conversion to %s recorded as %s", to, t)
		}
		arg := x.Args[0]
		from, typed := c.typeOf(arg)
		if !typed {
			n, err := c.e.indexExpr(arg, c.idx)
			if err != nil {
				return tv{}, err
			}
			return c.defined(c.e.fromIndex(t, n)), nil
		}
		a, err := c.expr(arg)
		if err != nil {
			return tv{}, err
		}
		r, ok, err := c.e.cast(t, from, a.val)
		if err != nil {
			return tv{}, exprError(x, "%v", err)
		}
		if from.IsFloat() && t.IsInteger() {
			if c.e.truncationFits(arg, c.types, t) {
				ok = c.e.tru // rangefacts.go
			} else {
				c.e.floatInts++
			}
		}
		return tv{r, c.e.and(a.def, ok), a.free}, nil
	}
	if to, ok := value.ReinterpretType(name); ok && len(x.Args) == 1 {
		if to != t {
			return tv{}, exprError(x, "bit cast to %s recorded as %s", to, t)
		}
		from, typed := c.typeOf(x.Args[0])
		if !typed {
			return tv{}, exprError(x, "the argument of %s has no recorded type", name)
		}
		a, err := c.expr(x.Args[0])
		if err != nil {
			return tv{}, err
		}
		r, ok, err := c.e.reinterpret(t, from, a.val)
		if err != nil {
			return tv{}, exprError(x, "%v", err)
		}
		return tv{r, c.e.and(a.def, ok), a.free}, nil
	}
	if isBuiltin(name) {
		return c.builtin(x, t)
	}
	return c.access(x, t)
}
