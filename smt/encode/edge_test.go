package encode

import (
	"math"
	"strconv"
	"testing"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// edgeLeaves are constants of type t at the edges of its range: for
// integers 0, ±1, the extremes and shift amounts; for floats the signed
// zeros, NaN, the infinities, subnormals, halves and the extremes.
func edgeLeaves(g *exprGen, t syntax.Type) []syntax.Expr {
	var out []syntax.Expr
	lit := func(text string) {
		if t.IsFloat() {
			out = append(out, g.floatLit(t, text))
			return
		}
		body, neg := text, false
		if text[0] == '-' {
			body, neg = text[1:], true
		}
		var x syntax.Expr = g.rec(&syntax.Lit{Kind: syntax.IntLiteral, Text: body}, t)
		if neg {
			x = g.rec(&syntax.Unary{Op: syntax.OpNeg, X: x}, t)
		}
		out = append(out, x)
	}
	switch {
	case t == syntax.Bool:
		out = append(out, g.rec(&syntax.Lit{Kind: syntax.BoolLiteral, Text: "true"}, t),
			g.rec(&syntax.Lit{Kind: syntax.BoolLiteral, Text: "false"}, t))
	case t.IsInteger():
		lo, hi := value.Range(t)
		for _, s := range []string{"0", "1", "2", "7", strconv.Itoa(t.Bits() - 1), strconv.Itoa(t.Bits()), lo.String(), hi.String()} {
			lit(s)
		}
		if t.IsSigned() {
			lit("-1")
			lit("-3")
		}
	default:
		for k := range 3 {
			out = append(out, g.special(t, k))
		}
		bits := 64
		if t == syntax.F32 {
			bits = 32
		}
		for _, f := range []float64{1, -1, 2.5, -2.5, 0.5, -0.7, 3, 1e-40, 5e-324, math.MaxFloat32, 2147483647.5, -2147483648.5, 1 << 63, 1e300} {
			if bits == 32 && math.Abs(f) > math.MaxFloat32 {
				continue
			}
			lit(strconv.FormatFloat(f, 'g', -1, bits))
		}
		lit("0.0")
		lit("-0.0")
	}
	return out
}

// TestEdgesIEEE applies every operator, builtin and cast to every pair of
// edge constants of every type, in the IEEE model, and compares with value.
func TestEdgesIEEE(t *testing.T) {
	z := newContext(t)
	e := New(z, &sare.Spec{}, expr.NewInfo(), IEEE)
	m := emptyModel(t, z)
	n := 0
	failures := 0
	try := func(g *exprGen, x syntax.Expr) {
		t.Helper()
		n++
		want, err := expr.EvalValue(x, &expr.Info{Types: g.types}, noEnv{})
		if err != nil {
			t.Fatalf("value of %s: %v", syntax.ExprString(x), err)
		}
		val, def, err := e.Expr(x, g.types, nil, ExprOptions{})
		if err != nil {
			t.Fatalf("encode %s: %v", syntax.ExprString(x), err)
		}
		isDef, err := m.Bool(def)
		if err != nil {
			t.Fatal(err)
		}
		got := value.Undef(want.Type())
		if isDef {
			if got, err = e.Value(m, val, want.Type()); err != nil {
				t.Fatal(err)
			}
		}
		if !got.Equal(want) {
			t.Errorf("%s = %#v, value says %#v", syntax.ExprString(x), got, want)
			if failures++; failures > 20 {
				t.FailNow()
			}
		}
	}
	for _, typ := range allTypes {
		g := &exprGen{types: map[syntax.Expr]syntax.Type{}}
		leaves := edgeLeaves(g, typ)
		for _, a := range leaves {
			for _, op := range []syntax.Op{syntax.OpNeg, syntax.OpBitNot, syntax.OpNot} {
				if _, isLit := a.(*syntax.Lit); isLit && op == syntax.OpNeg && typ.IsUnsigned() {
					continue // -255 is one literal: ill-typed in u8
				}
				if _, err := value.Unary(op, value.Undef(typ)); err == nil {
					try(g, g.rec(&syntax.Unary{Op: op, X: a}, typ))
				}
			}
			for _, to := range allTypes {
				try(g, g.call(to.String(), to, a))
			}
			for _, name := range []string{"abs", "sqrt", "floor", "ceil", "round"} {
				if b, _ := value.LookupBuiltin(name); typ.IsNumeric() && (typ.IsFloat() || !b.FloatOnly) {
					try(g, g.call(name, typ, a))
				}
			}
			for _, b := range leaves {
				for op := syntax.OpOr; op <= syntax.OpBitAnd; op++ {
					if value.Applies(op, typ) {
						try(g, g.rec(&syntax.Binary{X: a, Op: op, Y: b}, value.ResultType(op, typ)))
					}
				}
				if typ.IsNumeric() {
					try(g, g.call("min", typ, a, b))
					try(g, g.call("max", typ, a, b))
					try(g, g.call("clamp", typ, a, b, leaves[len(leaves)/2]))
					try(g, g.call("clamp", typ, leaves[len(leaves)/3], a, b))
				}
			}
		}
	}
	t.Logf("%d cases", n)
}
