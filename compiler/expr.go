package compiler

import (
	"fmt"
	"strconv"
	"strings"

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

// mustParse parses an index expression the compiler generated itself.
func mustParse(s string) syntax.Expr {
	x, err := syntax.ParseExprString(s)
	if err != nil {
		panic(fmt.Sprintf("compiler: generated expression %q: %v", s, err))
	}
	return x
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
	return norm(mustParse(syntax.ExprString(x) + " - (" + syntax.ExprString(y) + ")"))
}

// simplifyAdd returns x + k, in canonical affine form when x is affine
// (N - 1 + 1 is N).
func simplifyAdd(x syntax.Expr, k int64) syntax.Expr {
	if cl, ok := x.(*syntax.Call); ok && (cl.Fun.Name == "min" || cl.Fun.Name == "max") && len(cl.Args) == 2 && k != 0 {
		return call(cl.Fun.Name, simplifyAdd(cl.Args[0], k), simplifyAdd(cl.Args[1], k))
	}
	return norm(mustParse(fmt.Sprintf("(%s) + %d", syntax.ExprString(x), k)))
}

// affExpr renders a quasi-affine function of the parameters (a lexicographic
// optimum of a set) as an index expression.
func affExpr(a *presburger.Aff, params []string) (syntax.Expr, error) {
	np := len(params)
	if a.Space().NumParams() != np || a.Space().NumDims() != np {
		return nil, fmt.Errorf("unexpected bound %s", a)
	}
	divs := a.Divs()
	var divText []string
	row := func(num []presburger.Int, den presburger.Int) string {
		var b strings.Builder
		term := func(c presburger.Int, name string) {
			if c.IsZero() {
				return
			}
			s := c.String()
			neg := c.Sign() < 0
			if neg {
				s = c.Neg().String()
			}
			if b.Len() > 0 {
				if neg {
					b.WriteString(" - ")
				} else {
					b.WriteString(" + ")
				}
			} else if neg {
				b.WriteString("-")
			}
			switch {
			case name == "":
				b.WriteString(s)
			case s == "1":
				b.WriteString(name)
			default:
				b.WriteString(s + " * " + name)
			}
		}
		for i := 0; i < np; i++ {
			term(num[i], params[i])
		}
		for i := 0; i < len(divText) && np+i < len(num)-1; i++ {
			term(num[np+i], divText[i])
		}
		term(num[len(num)-1], "")
		s := b.String()
		if s == "" {
			s = "0"
		}
		if !den.IsOne() {
			s = "(" + s + ") / " + den.String()
		}
		return s
	}
	for _, d := range divs {
		divText = append(divText, "("+row(d.Num, d.Den)+")")
	}
	s := row(a.Num(), a.Den())
	return syntax.ParseExprString(s)
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

func (l *linear) String() string {
	var b strings.Builder
	for _, n := range l.names {
		k := l.coef[n]
		if k == 0 {
			continue
		}
		a := k
		if a < 0 {
			a = -a
		}
		switch {
		case b.Len() == 0 && k < 0:
			b.WriteString("-")
		case b.Len() > 0 && k < 0:
			b.WriteString(" - ")
		case b.Len() > 0:
			b.WriteString(" + ")
		}
		if a != 1 {
			fmt.Fprintf(&b, "%d * ", a)
		}
		b.WriteString(n)
	}
	switch {
	case b.Len() == 0:
		fmt.Fprintf(&b, "%d", l.c)
	case l.c > 0:
		fmt.Fprintf(&b, " + %d", l.c)
	case l.c < 0:
		fmt.Fprintf(&b, " - %d", -l.c)
	}
	return b.String()
}

// norm returns x in canonical affine form when it is affine (N - 1 + 1
// becomes N), else x.
func norm(x syntax.Expr) syntax.Expr {
	if l, ok := linearize(x); ok {
		return mustParse(l.String())
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
