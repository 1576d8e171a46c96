package smt

import (
	"context"
	"testing"
	"time"
)

// defineSum defines sum(n) = if n <= 0 then 0 else n + sum(n-1).
func defineSum(t *testing.T, c *Context) *FuncDecl {
	t.Helper()
	sum := c.RecFuncDecl("sum", []*Sort{c.IntSort()}, c.IntSort())
	n := c.IntConst("n")
	body := n.Le(c.Int(0)).Ite(c.Int(0), n.Add(sum.Apply(n.Sub(c.Int(1)))))
	if err := c.DefineRec(sum, []*Term{n}, body); err != nil {
		t.Fatal(err)
	}
	return sum
}

func TestRecursiveSum(t *testing.T) {
	c := newCtx(t)
	sum := defineSum(t, c)
	valid(t, c, sum.Apply(c.Int(10)).Eq(c.Int(55)))
	wantResult(t, c, Unsat, sum.Apply(c.Int(10)).Eq(c.Int(56)))

	// Gauss's formula for every n in [0, 12]: the bound lets Z3 unfold.
	k := c.IntConst("k")
	wantResult(t, c, Unsat,
		k.Ge(c.Int(0)), k.Le(c.Int(12)),
		sum.Apply(k).Mul(c.Int(2)).Ne(k.Mul(k.Add(c.Int(1)))))

	// A wrong formula is refuted with a counterexample in the bound.
	s := wantResult(t, c, Sat,
		k.Ge(c.Int(0)), k.Le(c.Int(12)),
		sum.Apply(k).Ne(k.Mul(k)))
	m, _ := s.Model()
	v, err := m.Int64(k)
	if err != nil || (v != 2 && v < 2) {
		// sum(k) = k² only for k = 0 and k = 1.
		t.Errorf("counterexample k = %d, %v", v, err)
	}
	if got, _ := m.Int64(sum.Apply(k)); got != v*(v+1)/2 {
		t.Errorf("model's sum(%d) = %d, want %d", v, got, v*(v+1)/2)
	}
}

func TestUninterpretedFunctions(t *testing.T) {
	c := newCtx(t)
	u := c.UninterpretedSort("U")
	f := c.FuncDecl("f", []*Sort{u}, u)
	a, b := c.Const("a", u), c.Const("b", u)
	// Congruence: a = b implies f(a) = f(b).
	valid(t, c, a.Eq(b).Implies(f.Apply(a).Eq(f.Apply(b))))
	// But f(a) = f(b) does not imply a = b.
	wantResult(t, c, Sat, f.Apply(a).Eq(f.Apply(b)), a.Ne(b))
	// f(f(f(a))) = a and f(f(f(f(f(a))))) = a give f(a) = a.
	f3 := f.Apply(f.Apply(f.Apply(a)))
	f5 := f.Apply(f.Apply(f3))
	valid(t, c, c.And(f3.Eq(a), f5.Eq(a)).Implies(f.Apply(a).Eq(a)))
	if f.Arity() != 1 || f.Name() != "f" || !f.Range().Equal(u) {
		t.Errorf("declaration %v: arity %d, name %q, range %v", f, f.Arity(), f.Name(), f.Range())
	}
	// A wrong number of arguments is an error.
	if f.Apply(a, b).Err() == nil {
		t.Error("f(a, b) built without error")
	}
	// Distinct over an uninterpreted sort.
	wantResult(t, c, Sat, c.Distinct(a, b, c.Const("d", u)))
}

func TestQuantifierInstantiation(t *testing.T) {
	c := newCtx(t)
	i := c.IntSort()
	f := c.FuncDecl("g", []*Sort{i}, i)
	x := c.IntConst("x")
	grows := c.Forall([]*Term{x}, f.Apply(x).Gt(x), c.Pattern(f.Apply(x)))
	if grows.Err() != nil {
		t.Fatal(grows.Err())
	}
	// Instantiating x := 3 contradicts g(3) <= 3.
	wantResult(t, c, Unsat, grows, f.Apply(c.Int(3)).Le(c.Int(3)))
	// Chained: g(g(3)) > 4 needs two instantiations.
	valid(t, c, grows.Implies(f.Apply(f.Apply(c.Int(3))).Gt(c.Int(4))))
	// Without a pattern Z3 picks its own.
	nopat := c.Forall([]*Term{x}, f.Apply(x).Gt(x))
	wantResult(t, c, Unsat, nopat, f.Apply(c.Int(7)).Le(c.Int(7)))
	// A satisfiable axiom: Z3's model-based instantiation finds a model.
	// (For grows it would not: each candidate interpretation of g is
	// refuted by a larger x, forever.)
	nonneg := c.Forall([]*Term{x}, f.Apply(x).Ge(c.Int(0)), c.Pattern(f.Apply(x)))
	s := wantResult(t, c, Sat, nonneg, f.Apply(c.Int(2)).Eq(c.Int(5)))
	m, _ := s.Model()
	if v, err := m.Int64(f.Apply(c.Int(-40))); err != nil || v < 0 {
		t.Errorf("model's g(-40) = %d, %v; want >= 0", v, err)
	}

	// Exists: no integer lies strictly between y and y+1.
	y, z := c.IntConst("y"), c.IntConst("z")
	wantResult(t, c, Unsat, c.Exists([]*Term{z}, z.Gt(y).And(z.Lt(y.Add(c.Int(1))))))
	// Over the reals one does.
	yr, zr := c.RealConst("yr"), c.RealConst("zr")
	valid(t, c, c.Forall([]*Term{yr}, c.Exists([]*Term{zr}, zr.Gt(yr).And(zr.Lt(yr.Add(c.Real(1, 1)))))))

	// Bound variables must be constants.
	if c.Forall([]*Term{c.Int(3)}, c.True()).Err() == nil {
		t.Error("quantifying over a numeral gave no error")
	}
	if c.Forall([]*Term{x.Add(c.Int(1))}, c.True()).Err() == nil {
		t.Error("quantifying over x+1 gave no error")
	}
	// A quantified query Z3 cannot settle ends with Unknown, not a hang.
	s2, _ := c.NewSolver()
	s2.SetTimeout(200 * time.Millisecond)
	s2.Assert(grows)
	if r, err := s2.Check(context.Background()); r == Unsat || err != nil {
		t.Errorf("grows alone: %v, %v", r, err)
	}
}
