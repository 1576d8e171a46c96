package compiler

import (
	"fmt"
	"strconv"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// rewrite returns a copy of x in which f has replaced subexpressions: f is
// called on every node, children first; a nil result keeps the (copied)
// node.
func rewrite(x syntax.Expr, f func(syntax.Expr) syntax.Expr) syntax.Expr {
	if x == nil {
		return nil
	}
	var y syntax.Expr
	switch x := x.(type) {
	case *syntax.Ident:
		c := *x
		y = &c
	case *syntax.Lit:
		c := *x
		y = &c
	case *syntax.Unary:
		y = &syntax.Unary{OpPos: x.OpPos, Op: x.Op, X: rewrite(x.X, f)}
	case *syntax.Binary:
		y = &syntax.Binary{X: rewrite(x.X, f), Op: x.Op, Y: rewrite(x.Y, f)}
	case *syntax.Chain:
		c := &syntax.Chain{Ops: append([]syntax.Op(nil), x.Ops...)}
		for _, o := range x.Operands {
			c.Operands = append(c.Operands, rewrite(o, f))
		}
		y = c
	case *syntax.Call:
		c := &syntax.Call{Fun: &syntax.Ident{NamePos: x.Fun.NamePos, Name: x.Fun.Name}}
		for _, a := range x.Args {
			c.Args = append(c.Args, rewrite(a, f))
		}
		y = c
	case *syntax.Index:
		c := &syntax.Index{Array: &syntax.Ident{NamePos: x.Array.NamePos, Name: x.Array.Name}}
		for _, a := range x.Indices {
			c.Indices = append(c.Indices, rewrite(a, f))
		}
		y = c
	default:
		panic(fmt.Sprintf("compiler: unknown expression %T", x))
	}
	if z := f(y); z != nil {
		return z
	}
	return y
}

func ident(name string) *syntax.Ident { return &syntax.Ident{Name: name} }
func intLit(v int64) *syntax.Lit {
	return &syntax.Lit{Kind: syntax.IntLiteral, Text: strconv.FormatInt(v, 10)}
}
func bin(x syntax.Expr, op syntax.Op, y syntax.Expr) syntax.Expr {
	return &syntax.Binary{X: x, Op: op, Y: y}
}
func call(name string, args ...syntax.Expr) *syntax.Call {
	return &syntax.Call{Fun: ident(name), Args: args}
}
func idents(names []string) []syntax.Expr {
	var out []syntax.Expr
	for _, n := range names {
		out = append(out, ident(n))
	}
	return out
}

// The constructors below build expressions in the shape the parser gives
// their canonical text (syntax.ExprString), without their positions: the
// compiler's output is printed from them, so that shape is the output's.

// num is the integer k as the parser reads its decimal spelling: a negative
// k is the unary minus of a literal.
func num(k int64) syntax.Expr {
	if k < 0 {
		return neg(&syntax.Lit{Kind: syntax.IntLiteral, Text: strconv.FormatUint(-uint64(k), 10)})
	}
	return intLit(k)
}

// neg is -x.
func neg(x syntax.Expr) syntax.Expr { return &syntax.Unary{Op: syntax.OpNeg, X: x} }

// mul is x * y, not simplified.
func mul(x, y syntax.Expr) syntax.Expr { return bin(x, syntax.OpMul, y) }

// floorDiv is x / y, not simplified: the division of index expressions,
// which rounds towards negative infinity.
func floorDiv(x, y syntax.Expr) syntax.Expr { return bin(x, syntax.OpDiv, y) }

// ceilDiv is (x + k - 1) / k, the number of tiles of size k covering x
// points, not simplified.
func ceilDiv(x syntax.Expr, k int64) syntax.Expr {
	return floorDiv(bin(x, syntax.OpAdd, num(k-1)), num(k))
}

// conj returns x and y (y alone when x is nil).
func conj(x, y syntax.Expr) syntax.Expr {
	if x == nil {
		return y
	}
	return bin(x, syntax.OpAnd, y)
}

// conjunction is xs[0] and xs[1] and ..., associated to the left; nil
// when xs is empty.
func conjunction(xs ...syntax.Expr) syntax.Expr {
	var c syntax.Expr
	for _, x := range xs {
		c = conj(c, x)
	}
	return c
}

// sumBuilder writes a sum of terms k * x the way it is spelled: the first
// term carries its sign (-3 * N, -N), the others are added or subtracted
// (N - 3 * M + 2).
type sumBuilder struct{ x syntax.Expr }

// term adds the term of magnitude mag (a decimal, "1" omitted) and sign
// negative times x, or the constant mag when x is nil.
func (b *sumBuilder) term(negative bool, mag string, x syntax.Expr) {
	k := &syntax.Lit{Kind: syntax.IntLiteral, Text: mag}
	var t syntax.Expr
	switch {
	case x == nil:
		t = k
	case mag == "1":
		t = x
	default:
		t = mul(k, x)
	}
	switch {
	case b.x != nil && negative:
		b.x = bin(b.x, syntax.OpSub, t)
	case b.x != nil:
		b.x = bin(b.x, syntax.OpAdd, t)
	case !negative:
		b.x = t
	case x != nil && mag != "1":
		// -3 * N is (-3) * N: the minus binds to the coefficient
		b.x = mul(neg(k), x)
	default:
		b.x = neg(t)
	}
}

// expr is the sum built, 0 when it has no term.
func (b *sumBuilder) expr() syntax.Expr {
	if b.x == nil {
		return intLit(0)
	}
	return b.x
}

// isZero reports whether x is the literal 0.
func isZero(x syntax.Expr) bool {
	l, ok := x.(*syntax.Lit)
	return ok && l.Kind == syntax.IntLiteral && l.Text == "0"
}

// sub returns x - y, in canonical affine form when both are affine.
func sub(x, y syntax.Expr) syntax.Expr {
	if isZero(y) {
		return x
	}
	return norm(bin(x, syntax.OpSub, y))
}

// simplifyAdd returns x + k, in canonical affine form when x is affine
// (N - 1 + 1 is N).
func simplifyAdd(x syntax.Expr, k int64) syntax.Expr {
	if cl, ok := x.(*syntax.Call); ok && (cl.Fun.Name == "min" || cl.Fun.Name == "max") && len(cl.Args) == 2 && k != 0 {
		return call(cl.Fun.Name, simplifyAdd(cl.Args[0], k), simplifyAdd(cl.Args[1], k))
	}
	return norm(bin(x, syntax.OpAdd, num(k)))
}

// affExpr renders a quasi-affine function of the parameters (a lexicographic
// optimum of a set) as an index expression.
func affExpr(a *presburger.Aff, params []string) (syntax.Expr, error) {
	np := len(params)
	if a.Space().NumParams() != np || a.Space().NumDims() != np {
		return nil, fmt.Errorf("unexpected bound %s", a)
	}
	divs := a.Divs()
	var divExprs []syntax.Expr
	row := func(num []presburger.Int, den presburger.Int) syntax.Expr {
		var b sumBuilder
		term := func(c presburger.Int, x syntax.Expr) {
			if !c.IsZero() {
				b.term(c.Sign() < 0, c.Abs().String(), x)
			}
		}
		for i := 0; i < np; i++ {
			term(num[i], ident(params[i]))
		}
		for i := 0; i < len(divExprs) && np+i < len(num)-1; i++ {
			term(num[np+i], divExprs[i])
		}
		term(num[len(num)-1], nil)
		if den.IsOne() {
			return b.expr()
		}
		return floorDiv(b.expr(), &syntax.Lit{Kind: syntax.IntLiteral, Text: den.String()})
	}
	for _, d := range divs {
		divExprs = append(divExprs, row(d.Num, d.Den))
	}
	return row(a.Num(), a.Den()), nil
}

// linear is an affine form: coefficients of names, in order of first
// appearance, and a constant.
type linear struct {
	names []string
	coef  map[string]int64
	c     int64
}

func (l *linear) add(name string, k int64) {
	if _, ok := l.coef[name]; !ok {
		l.names = append(l.names, name)
	}
	l.coef[name] += k
}

// linearize returns x as an affine form, if it is one: names, integer
// literals, + and -, unary -, and products by a literal.
func linearize(x syntax.Expr) (*linear, bool) {
	l := &linear{coef: map[string]int64{}}
	var walk func(x syntax.Expr, k int64) bool
	walk = func(x syntax.Expr, k int64) bool {
		switch x := x.(type) {
		case *syntax.Ident:
			l.add(x.Name, k)
			return true
		case *syntax.Lit:
			v, ok := litInt(x)
			l.c += k * v
			return ok
		case *syntax.Unary:
			return x.Op == syntax.OpNeg && walk(x.X, -k)
		case *syntax.Binary:
			switch x.Op {
			case syntax.OpAdd:
				return walk(x.X, k) && walk(x.Y, k)
			case syntax.OpSub:
				return walk(x.X, k) && walk(x.Y, -k)
			case syntax.OpMul:
				if v, ok := litInt(x.Y); ok {
					return walk(x.X, k*v)
				}
				if v, ok := litInt(x.X); ok {
					return walk(x.Y, k*v)
				}
			}
		}
		return false
	}
	if !walk(x, 1) {
		return nil, false
	}
	return l, true
}

// expr is the affine form as an expression: its terms in order, then its
// constant (N - 2 * M + 1).
func (l *linear) expr() syntax.Expr {
	var b sumBuilder
	for _, n := range l.names {
		k := l.coef[n]
		if k != 0 {
			b.term(k < 0, strconv.FormatUint(absInt(k), 10), ident(n))
		}
	}
	if l.c != 0 || b.x == nil {
		b.term(l.c < 0, strconv.FormatUint(absInt(l.c), 10), nil)
	}
	return b.expr()
}

// absInt is |k|, exact for the most negative int64 too.
func absInt(k int64) uint64 {
	if k < 0 {
		return -uint64(k)
	}
	return uint64(k)
}

func (l *linear) String() string { return syntax.ExprString(l.expr()) }

// norm returns x in canonical affine form when it is affine (N - 1 + 1
// becomes N), else x.
func norm(x syntax.Expr) syntax.Expr {
	if l, ok := linearize(x); ok {
		return l.expr()
	}
	return x
}

// add returns x + y, without a zero operand, in canonical affine form when
// it is affine.
func add(x, y syntax.Expr) syntax.Expr {
	switch {
	case isZero(x):
		return y
	case isZero(y):
		return x
	}
	return norm(bin(x, syntax.OpAdd, y))
}
