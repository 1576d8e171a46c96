package encode

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// exprGen builds random well-typed value expressions with constant leaves,
// recording the type of every value node as the checker would.
type exprGen struct {
	r     *rand.Rand
	types map[syntax.Expr]syntax.Type
	// uninterpreted allows exp, log, pow, sin, cos, tanh, fast_inverse and
	// fast_inverse_sqrt.
	uninterpreted bool
}

var allTypes = []syntax.Type{syntax.Bool, syntax.I8, syntax.I16, syntax.I32, syntax.I64,
	syntax.U8, syntax.U16, syntax.U32, syntax.U64, syntax.F32, syntax.F64}

func (g *exprGen) rec(x syntax.Expr, t syntax.Type) syntax.Expr {
	g.types[x] = t
	return x
}

func (g *exprGen) anyType() syntax.Type { return allTypes[g.r.IntN(len(allTypes))] }

func (g *exprGen) numType() syntax.Type { return allTypes[1+g.r.IntN(len(allTypes)-1)] }

// expr returns an expression of type t of depth at most d.
func (g *exprGen) expr(t syntax.Type, d int) syntax.Expr {
	if d <= 0 || g.r.IntN(5) == 0 {
		return g.leaf(t)
	}
	switch {
	case t == syntax.Bool:
		return g.boolExpr(d)
	case t.IsInteger():
		return g.intExpr(t, d)
	}
	return g.floatExpr(t, d)
}

func (g *exprGen) pickOp(ops ...syntax.Op) syntax.Op { return ops[g.r.IntN(len(ops))] }

func (g *exprGen) binary(op syntax.Op, t syntax.Type, d int) syntax.Expr {
	return &syntax.Binary{X: g.expr(t, d-1), Op: op, Y: g.expr(t, d-1)}
}

func (g *exprGen) call(name string, t syntax.Type, args ...syntax.Expr) syntax.Expr {
	return g.rec(&syntax.Call{Fun: &syntax.Ident{Name: name}, Args: args}, t)
}

// common are the forms every type has: select and casts, and for
// numbers, bit casts from a type of the same width.
func (g *exprGen) common(t syntax.Type, d int) syntax.Expr {
	switch g.r.IntN(4) {
	case 3:
		if t == syntax.Bool {
			break
		}
		var same []syntax.Type
		for _, u := range allTypes {
			if value.CanReinterpret(t, u) {
				same = append(same, u)
			}
		}
		return g.call(value.ReinterpretName(t), t, g.expr(same[g.r.IntN(len(same))], d-1))
	case 0:
		return g.call("select", t, g.expr(syntax.Bool, d-1), g.expr(t, d-1), g.expr(t, d-1))
	case 1:
		// A cast of an index: an untyped integer literal.
		return g.call(t.String(), t, g.indexLit())
	}
	return g.call(t.String(), t, g.expr(g.anyType(), d-1))
}

func (g *exprGen) intExpr(t syntax.Type, d int) syntax.Expr {
	switch g.r.IntN(6) {
	case 0, 1:
		op := g.pickOp(syntax.OpAdd, syntax.OpSub, syntax.OpMul, syntax.OpDiv, syntax.OpRem,
			syntax.OpBitAnd, syntax.OpBitOr, syntax.OpBitXor, syntax.OpShl, syntax.OpShr)
		return g.rec(g.binary(op, t, d), t)
	case 2:
		x := g.expr(t, d-1)
		op := g.pickOp(syntax.OpNeg, syntax.OpBitNot)
		if _, ok := x.(*syntax.Lit); ok && op == syntax.OpNeg && t.IsUnsigned() {
			return x // -255 is one literal, which does not fit u8: ill-typed
		}
		return g.rec(&syntax.Unary{Op: op, X: x}, t)
	case 3:
		return g.builtin(t, d, "min", "max", "abs", "clamp")
	}
	return g.common(t, d)
}

func (g *exprGen) floatExpr(t syntax.Type, d int) syntax.Expr {
	switch g.r.IntN(6) {
	case 0, 1:
		op := g.pickOp(syntax.OpAdd, syntax.OpSub, syntax.OpMul, syntax.OpDiv, syntax.OpRem)
		return g.rec(g.binary(op, t, d), t)
	case 2:
		return g.rec(&syntax.Unary{Op: syntax.OpNeg, X: g.expr(t, d-1)}, t)
	case 3:
		names := []string{"min", "max", "abs", "clamp", "sqrt", "floor", "ceil", "round"}
		if g.uninterpreted {
			names = append(names, "exp", "log", "pow", "sin", "cos", "tanh", "fast_inverse", "fast_inverse_sqrt")
		}
		return g.builtin(t, d, names...)
	}
	return g.common(t, d)
}

func (g *exprGen) builtin(t syntax.Type, d int, names ...string) syntax.Expr {
	name := names[g.r.IntN(len(names))]
	b, _ := value.LookupBuiltin(name)
	args := make([]syntax.Expr, b.Arity)
	for i := range args {
		args[i] = g.expr(t, d-1)
	}
	return g.call(name, t, args...)
}

func (g *exprGen) boolExpr(d int) syntax.Expr {
	switch g.r.IntN(7) {
	case 0:
		op := g.pickOp(syntax.OpAnd, syntax.OpOr, syntax.OpEq, syntax.OpNe)
		return g.rec(g.binary(op, syntax.Bool, d), syntax.Bool)
	case 1:
		return g.rec(&syntax.Unary{Op: syntax.OpNot, X: g.expr(syntax.Bool, d-1)}, syntax.Bool)
	case 2:
		t := g.numType()
		op := g.pickOp(syntax.OpEq, syntax.OpNe, syntax.OpLt, syntax.OpLe, syntax.OpGt, syntax.OpGe)
		return g.rec(g.binary(op, t, d), syntax.Bool)
	case 3:
		t := g.numType()
		ch := &syntax.Chain{Ops: []syntax.Op{g.pickOp(syntax.OpLt, syntax.OpLe, syntax.OpEq), g.pickOp(syntax.OpLt, syntax.OpNe, syntax.OpGe)}}
		for range 3 {
			ch.Operands = append(ch.Operands, g.expr(t, d-1))
		}
		return g.rec(ch, syntax.Bool)
	case 4:
		// An index constraint inside a value: untyped operands.
		op := g.pickOp(syntax.OpEq, syntax.OpNe, syntax.OpLt, syntax.OpLe, syntax.OpGt, syntax.OpGe)
		c := &syntax.Binary{X: g.indexLit(), Op: op, Y: g.indexLit()}
		if g.r.IntN(3) == 0 {
			c = &syntax.Binary{X: c, Op: g.pickOp(syntax.OpAnd, syntax.OpOr), Y: &syntax.Chain{
				Operands: []syntax.Expr{g.indexLit(), g.indexLit(), g.indexLit()}, Ops: []syntax.Op{syntax.OpLe, syntax.OpLt}}}
		}
		return g.rec(c, syntax.Bool)
	}
	return g.common(syntax.Bool, d)
}

// indexLit is an untyped integer literal of the index language, possibly
// negated, or a small index expression of literals.
func (g *exprGen) indexLit() syntax.Expr {
	vals := []int64{0, 1, -1, 2, 3, 7, -8, 255, 256, -129, 65535, 1 << 31, -(1 << 31), 1<<53 + 1, math.MaxInt64, math.MinInt64}
	n := vals[g.r.IntN(len(vals))]
	lit := func(n int64) syntax.Expr {
		if n < 0 {
			return &syntax.Unary{Op: syntax.OpNeg, X: &syntax.Lit{Kind: syntax.IntLiteral, Text: new(big.Int).Neg(big.NewInt(n)).String()}}
		}
		return &syntax.Lit{Kind: syntax.IntLiteral, Text: strconv.FormatInt(n, 10)}
	}
	if g.r.IntN(4) == 0 {
		a, b := g.r.Int64N(100)-50, g.r.Int64N(7)+1
		op := g.pickOp(syntax.OpAdd, syntax.OpSub, syntax.OpDiv, syntax.OpRem, syntax.OpMul)
		return &syntax.Binary{X: lit(a), Op: op, Y: lit(b)}
	}
	return lit(n)
}

// leaf is a constant of type t: a literal, or for floats NaN and the
// infinities, which have no literal.
func (g *exprGen) leaf(t syntax.Type) syntax.Expr {
	switch {
	case t == syntax.Bool:
		return g.rec(&syntax.Lit{Kind: syntax.BoolLiteral, Text: []string{"true", "false"}[g.r.IntN(2)]}, t)
	case t.IsInteger():
		return g.intLit(t)
	}
	if g.r.IntN(4) == 0 {
		return g.special(t, g.r.IntN(3))
	}
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1.5, 2.5, -2.5, 3.7, -3.7, 0.1, 1e10,
		3e9, -3e9, 4294967295.5, 1 << 31, -(1 << 63), 1 << 64, 1e20, 1e300, math.MaxFloat32,
		math.SmallestNonzeroFloat32, 1e-40, math.SmallestNonzeroFloat64, 2.2250738585072014e-308,
		128.5, -128.5, 255.9, -0.7, 16777217, 9007199254740993}
	f := vals[g.r.IntN(len(vals))]
	if g.r.IntN(4) == 0 {
		f = float64(g.r.IntN(200)-100) / 8
	}
	bits := 64
	if t == syntax.F32 {
		bits = 32
		if math.Abs(f) > math.MaxFloat32 {
			f = 1.5
		}
	}
	text := strconv.FormatFloat(f, 'g', -1, bits)
	if !strings.ContainsAny(text, ".e") && g.r.IntN(2) == 0 {
		text += ".0" // a float spelling; otherwise an integer literal read as a float
	}
	return g.floatLit(t, text)
}

// special is NaN (k = 0), +∞ (1) or -∞ (2) of type t, as 0/0, 1/0, -1/0.
func (g *exprGen) special(t syntax.Type, k int) syntax.Expr {
	num := []string{"0.0", "1.0", "-1.0"}[k]
	return g.rec(&syntax.Binary{X: g.floatLit(t, num), Op: syntax.OpDiv, Y: g.floatLit(t, "0.0")}, t)
}

// floatLit is the literal text of type t, negated as a whole if it starts
// with '-' (as the checker records -0.0: one literal).
func (g *exprGen) floatLit(t syntax.Type, text string) syntax.Expr {
	body, neg := strings.CutPrefix(text, "-")
	kind := syntax.IntLiteral
	if strings.ContainsAny(body, ".e") {
		kind = syntax.FloatLiteral
	}
	lit := g.rec(&syntax.Lit{Kind: kind, Text: body}, t)
	if neg {
		return g.rec(&syntax.Unary{Op: syntax.OpNeg, X: lit}, t)
	}
	return lit
}

func (g *exprGen) intLit(t syntax.Type) syntax.Expr {
	lo, hi := value.Range(t)
	var n *big.Int
	switch g.r.IntN(8) {
	case 0:
		n = lo
	case 1:
		n = hi
	case 2:
		n = big.NewInt(g.r.Int64N(3) - 1)
		if n.Sign() < 0 && !t.IsSigned() {
			n = big.NewInt(1)
		}
	case 3, 4:
		n = big.NewInt(g.r.Int64N(int64(t.Bits()) + 3)) // shift amounts
	default:
		v := value.Uint(t, g.r.Uint64()>>g.r.IntN(64))
		if t.IsSigned() {
			n = big.NewInt(v.Int64())
		} else {
			n = new(big.Int).SetUint64(v.Uint64())
		}
	}
	text := new(big.Int).Abs(n).String()
	if n.Sign() > 0 && g.r.IntN(4) == 0 {
		text = "0x" + new(big.Int).Abs(n).Text(16)
	}
	lit := g.rec(&syntax.Lit{Kind: syntax.IntLiteral, Text: text}, t)
	if n.Sign() < 0 {
		return g.rec(&syntax.Unary{Op: syntax.OpNeg, X: lit}, t)
	}
	return lit
}
