package encode

import (
	"testing"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

func TestParseModel(t *testing.T) {
	for _, m := range []Model{Real, IEEE} {
		if got, err := ParseModel(m.String()); err != nil || got != m {
			t.Errorf("ParseModel(%q) = %v, %v", m.String(), got, err)
		}
	}
	if _, err := ParseModel("fast"); err == nil {
		t.Error(`ParseModel("fast"): no error`)
	}
}

func TestSortsAndTensors(t *testing.T) {
	spec, info := loadMatmul(t, "")
	z := newContext(t)
	for _, c := range []struct {
		m    Model
		t    syntax.Type
		kind smt.SortKind
		w    uint
	}{
		{IEEE, syntax.Bool, smt.KindBool, 0}, {IEEE, syntax.U16, smt.KindBV, 16}, {Real, syntax.I64, smt.KindBV, 64},
		{IEEE, syntax.F32, smt.KindFloat, 24}, {IEEE, syntax.F64, smt.KindFloat, 53}, {Real, syntax.F32, smt.KindReal, 0},
	} {
		s, err := New(z, spec, info, c.m).Sort(c.t)
		if err != nil || s.Kind() != c.kind {
			t.Errorf("%v %s: %v, %v", c.m, c.t, s, err)
			continue
		}
		if _, sb := s.FloatBits(); c.kind == smt.KindFloat && sb != c.w || c.kind == smt.KindBV && s.BVWidth() != c.w {
			t.Errorf("%v %s: %v", c.m, c.t, s)
		}
	}
	e := New(z, spec, info, IEEE)
	if _, err := e.Sort(syntax.Invalid); err == nil {
		t.Error("Sort(invalid): no error")
	}
	r, err := e.Tensor("R")
	if err != nil || r.Arity() != 3 || r.Range().Kind() != smt.KindFloat {
		t.Errorf("Tensor(R) = %v, %v", r, err)
	}
	if r2, _ := e.Tensor("R"); r2 != r {
		t.Error("Tensor(R) is not cached")
	}
	if _, err := e.Tensor("Nope"); err == nil {
		t.Error("Tensor(Nope): no error")
	}
}

// TestUninterpreted: exp and the like are functions, about which nothing
// else is known, in both models.
func TestUninterpreted(t *testing.T) {
	spec, info := loadMatmul(t, `
tensor E1(i, k) : f32
E1(i, k) = exp(A(i, k)) + pow(A(i, k), 2.0)
tensor E2(i, k) : f32
E2(i, k) = exp(A(i, k)) + pow(A(i, k), 2.0)
tensor E3(i, k) : f32
E3(i, k) = exp(A(i, k + 1)) + pow(A(i, k), 2.0)
tensor E4(i, k) : f32
E4(i, k) = sqrt(A(i, k) * A(i, k))
tensor E5(i, k) : f32
E5(i, k) = abs(A(i, k))
`)
	for _, model := range []Model{IEEE, Real} {
		e := New(newContext(t), spec, info, model)
		if r := proves(t, e, spec, info, "true", "E1", "E2", ExprOptions{}); r != smt.Unsat {
			t.Errorf("%v: exp(x) + pow(x, 2) differs from itself: %v", model, r)
		}
		// Never proved; in IEEE, finding the model may take longer than
		// proves allows on a loaded machine (ieeeSatResources).
		if r := proves(t, e, spec, info, "true", "E1", "E3", ExprOptions{}); !notProved(model, r) {
			t.Errorf("%v: exp(A(i, k)) = exp(A(i, k + 1)): %v", model, r)
		}
	}
	// sqrt(x*x) is not |x| in floats (overflow, underflow).
	e := New(newContext(t), spec, info, IEEE)
	if r := proves(t, e, spec, info, "true", "E4", "E5", ExprOptions{}); !notProved(IEEE, r) {
		t.Errorf("sqrt(x*x) = abs(x) in IEEE: %v", r)
	}
}

// TestUnfoldInputsAndOutside: input tensors are never unfolded, and outside
// every equation's domain an unfolded access is the tensor's function.
func TestUnfoldInputsAndOutside(t *testing.T) {
	spec, info := loadMatmul(t, `
tensor In(i, k) : f32
In(i, k) = A(i, k)
tensor Out(i, j, k) : f32
Out(i, j, k) = R(i, j, k)
`)
	z := newContext(t)
	e := New(z, spec, info, Real)
	all := func(string) bool { return true }
	a, _, err := e.Expr(rhs(t, spec, "In"), info.Types, names(z), ExprOptions{Unfold: all})
	if err != nil {
		t.Fatal(err)
	}
	f, _ := e.Tensor("A")
	if !a.Equal(f.Apply(z.IntConst("i"), z.IntConst("k"))) {
		t.Errorf("A(i, k) encoded as %v", a)
	}
	// At k = P, R(i, j, k) is outside both equations: it stays R(i, j, k).
	r, _, err := e.Expr(rhs(t, spec, "Out"), info.Types, names(z), ExprOptions{Unfold: all})
	if err != nil {
		t.Fatal(err)
	}
	fr, _ := e.Tensor("R")
	s, _ := z.NewSolver()
	defer s.Close()
	k, p := z.IntConst("k"), z.IntConst("P")
	if got := check(t, s, k.Eq(p), p.Ge(z.Int(0)), r.Ne(fr.Apply(z.IntConst("i"), z.IntConst("j"), k))); got != smt.Unsat {
		t.Errorf("R(i, j, P) unfolded is not R(i, j, P): %v", got)
	}
}

func TestExprErrors(t *testing.T) {
	spec, info := loadMatmul(t, "")
	z := newContext(t)
	e := New(z, spec, info, IEEE)
	i := &syntax.Ident{Name: "i"}
	types := map[syntax.Expr]syntax.Type{}
	bad := []syntax.Expr{
		i, // an index, not a value
		&syntax.Index{Array: &syntax.Ident{Name: "a"}, Indices: []syntax.Expr{i}},
		&syntax.Call{Fun: &syntax.Ident{Name: "Nope"}, Args: []syntax.Expr{i}},
		&syntax.Call{Fun: &syntax.Ident{Name: "A"}, Args: []syntax.Expr{i}},
		&syntax.Lit{Kind: syntax.FloatLiteral, Text: "1.5"},
		nil,
	}
	for _, x := range bad[:4] {
		types[x] = syntax.F32
	}
	types[bad[4]] = syntax.I32 // a float literal used as an integer
	for _, x := range bad {
		if v, _, err := e.Expr(x, types, names(z), ExprOptions{}); err == nil {
			t.Errorf("Expr(%v) = %v, no error", x, v)
		}
	}
	if _, err := e.Equal(z.Int(1), z.Int(1), syntax.I32); err == nil {
		t.Error("Equal of Int terms as i32: no error")
	}
}

// TestReadings: with a derived reading, the Real model reads the binary32
// value nearest 1/3 as 1/3 (x * 0.333333343 is x / 3), negated too, and
// only it; the IEEE model reads every literal as its binary value.
func TestReadings(t *testing.T) {
	const third = "0.3333333432674407958984375" // the binary32 value nearest 1/3, exactly
	spec, info := loadMatmul(t, `
tensor Div(i, k) : f32
Div(i, k) = A(i, k) / 3.0
tensor Mul(i, k) : f32
Mul(i, k) = A(i, k) * `+third+`
tensor Neg(i, k) : f32
Neg(i, k) = A(i, k) * -`+third+` + A(i, k) * 2.0
tensor Five(i, k) : f32
Five(i, k) = A(i, k) * 5.0 / 3.0
tensor Wrong(i, k) : f32
Wrong(i, k) = A(i, k) * 0.33
`)
	readings := value.DeriveReadings(
		[]value.Constant{{Type: syntax.F32, Text: "3.0"}},
		[]value.Constant{{Type: syntax.F32, Text: third}, {Type: syntax.F32, Text: "0.33"}, {Type: syntax.F32, Text: "2.0"}})
	if readings.Len() != 1 {
		t.Fatalf("readings %v, want 1/3 alone", readings.List())
	}
	for _, c := range []struct {
		model    Model
		readings *value.Readings
		a, b     string
		proved   bool
	}{
		{Real, readings, "Mul", "Div", true},
		{Real, readings, "Neg", "Five", true},
		{Real, readings, "Wrong", "Div", false},
		{Real, nil, "Mul", "Div", false},
		{IEEE, readings, "Mul", "Div", false},
	} {
		e := New(newContext(t), spec, info, c.model)
		e.SetReadings(c.readings)
		r := proves(t, e, spec, info, "true", c.a, c.b, ExprOptions{})
		if c.proved && r != smt.Unsat || !c.proved && !notProved(c.model, r) {
			t.Errorf("%v, %d readings: %s = %s is %v", c.model, c.readings.Len(), c.a, c.b, r)
		}
	}
}
