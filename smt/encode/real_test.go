package encode

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// ratGen builds random float expressions of + - * /, negation, min, max,
// abs, floor, ceil, round and casts, together with their exact rational
// value, the Real model's meaning.
type ratGen struct{ exprGen }

func (g *ratGen) expr(t syntax.Type, d int) (syntax.Expr, *big.Rat) {
	if d <= 0 || g.r.IntN(4) == 0 {
		return g.leaf(t)
	}
	switch k := g.r.IntN(8); k {
	case 0, 1, 2:
		op := g.pickOp(syntax.OpAdd, syntax.OpSub, syntax.OpMul, syntax.OpDiv)
		x, a := g.expr(t, d-1)
		y, b := g.expr(t, d-1)
		if op == syntax.OpDiv && b.Sign() == 0 {
			op = syntax.OpSub
		}
		r := new(big.Rat)
		switch op {
		case syntax.OpAdd:
			r.Add(a, b)
		case syntax.OpSub:
			r.Sub(a, b)
		case syntax.OpMul:
			r.Mul(a, b)
		default:
			r.Quo(a, b)
		}
		return g.rec(&syntax.Binary{X: x, Op: op, Y: y}, t), r
	case 3:
		x, a := g.expr(t, d-1)
		if _, ok := x.(*syntax.Lit); ok {
			return x, a // a negated literal is a literal of its own
		}
		return g.rec(&syntax.Unary{Op: syntax.OpNeg, X: x}, t), new(big.Rat).Neg(a)
	case 4:
		x, a := g.expr(t, d-1)
		y, b := g.expr(t, d-1)
		if g.r.IntN(2) == 0 {
			if a.Cmp(b) > 0 {
				a = b
			}
			return g.call("min", t, x, y), a
		}
		if a.Cmp(b) < 0 {
			a = b
		}
		return g.call("max", t, x, y), a
	case 5:
		name := []string{"abs", "floor", "ceil", "round"}[g.r.IntN(4)]
		x, a := g.expr(t, d-1)
		return g.call(name, t, x), ratBuiltin(name, a)
	case 6:
		// Through a small integer: truncation toward zero.
		x, a := g.expr(t, d-1)
		q := new(big.Int).Quo(a.Num(), a.Denom())
		if q.CmpAbs(big.NewInt(1<<31-1)) > 0 {
			return x, a
		}
		return g.call(t.String(), t, g.call("i32", syntax.I32, x)), new(big.Rat).SetInt(q)
	}
	// The other float type: the identity on reals.
	u := syntax.F32
	if t == syntax.F32 {
		u = syntax.F64
	}
	x, a := g.expr(u, d-1)
	return g.call(t.String(), t, x), a
}

func ratBuiltin(name string, a *big.Rat) *big.Rat {
	floor := func(a *big.Rat) *big.Int {
		q, _ := new(big.Int).DivMod(a.Num(), a.Denom(), new(big.Int))
		return q // Euclidean with a positive denominator: the floor
	}
	switch name {
	case "abs":
		return new(big.Rat).Abs(a)
	case "floor":
		return new(big.Rat).SetInt(floor(a))
	case "ceil":
		return new(big.Rat).Neg(new(big.Rat).SetInt(floor(new(big.Rat).Neg(a))))
	}
	f := floor(a)
	d := new(big.Rat).Sub(a, new(big.Rat).SetInt(f))
	switch d.Cmp(big.NewRat(1, 2)) {
	case 1:
		f.Add(f, big.NewInt(1))
	case 0:
		if f.Bit(0) == 1 {
			f.Add(f, big.NewInt(1))
		}
	}
	return new(big.Rat).SetInt(f)
}

func (g *ratGen) leaf(t syntax.Type) (syntax.Expr, *big.Rat) {
	if g.r.IntN(6) == 0 {
		// f32(i): an index cast, exact in the Real model.
		n := g.r.Int64N(41) - 20
		var arg syntax.Expr = &syntax.Lit{Kind: syntax.IntLiteral, Text: strconv.FormatInt(max(n, -n), 10)}
		if n < 0 {
			arg = &syntax.Unary{Op: syntax.OpNeg, X: arg}
		}
		return g.call(t.String(), t, arg), big.NewRat(n, 1)
	}
	vals := []float64{0, 1, -1, 0.1, 2.5, -3.75, 1e10, 3, 7, 0.5, 1e-3, -0.3, 1.5, 16777217}
	f := vals[g.r.IntN(len(vals))]
	x := g.floatLit(t, strconv.FormatFloat(f, 'g', -1, 64))
	// In the real model a literal is the decimal number it spells: 0.1
	// is 1/10, in f32 as in f64.
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	return x, r
}

// TestRealExact checks the Real model against exact rational arithmetic.
func TestRealExact(t *testing.T) {
	z := newContext(t)
	e := New(z, &sare.Spec{}, expr.NewInfo(), Real)
	m := emptyModel(t, z)
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 600 {
		g := &ratGen{exprGen{r: r, types: map[syntax.Expr]syntax.Type{}}}
		typ := []syntax.Type{syntax.F32, syntax.F64}[i%2]
		x, want := g.expr(typ, 1+r.IntN(4))
		val, def, err := e.Expr(x, g.types, nil, ExprOptions{})
		if err != nil {
			t.Fatalf("encode %s: %v", syntax.ExprString(x), err)
		}
		if ok, err := m.Bool(def); err != nil || !ok {
			t.Fatalf("%s: undefined (%v)", syntax.ExprString(x), err)
		}
		got, err := e.ExactString(m, val)
		if err != nil {
			t.Fatalf("%s: %v", syntax.ExprString(x), err)
		}
		if got != want.RatString() {
			t.Errorf("%s = %s, want %s", syntax.ExprString(x), got, want.RatString())
		}
		// Value rounds the exact result to the nearest float of the type.
		v, err := e.Value(m, val, typ)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := want.Float64()
		if typ == syntax.F32 {
			f32, _ := want.Float32()
			f = float64(f32)
		}
		if w := value.Float(typ, f); !v.Equal(w) {
			t.Errorf("%s reads as %#v, want %#v", syntax.ExprString(x), v, w)
		}
	}
}

// TestRealLiteral: a literal is the decimal number it spells, not the
// float nearest to it in its type, and the Real model has no NaN.
func TestRealLiteral(t *testing.T) {
	z := newContext(t)
	e := New(z, &sare.Spec{}, expr.NewInfo(), Real)
	m := emptyModel(t, z)
	g := &exprGen{types: map[syntax.Expr]syntax.Type{}}
	x := g.floatLit(syntax.F32, "0.1")
	val, _, err := e.Expr(x, g.types, nil, ExprOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := e.ExactString(m, val)
	if want := "1/10"; got != want {
		t.Errorf("f32 0.1 = %s, want %s", got, want)
	}
	if _, err := e.constant(value.Float(syntax.F64, math.NaN())); err == nil {
		t.Error("NaN has a real value")
	}
}
