package smt

import (
	"context"
	"strings"
	"testing"
)

// TestAbstractProducts: products of two or more real terms that are not
// numerals become nl.mul, their factors ordered by the name of their
// outermost function (A(i)·B(j) and B(j)·A(i) alike), quotients by such
// terms nl.div; linear products and integer products
// stay. What is left proves a difference of equal products impossible,
// and is satisfiable where only the real product's properties (x·x ≥ 0)
// made the formulas unsatisfiable.
func TestAbstractProducts(t *testing.T) {
	c := newCtx(t)
	r := c.RealSort()
	a := c.FuncDecl("A", []*Sort{c.IntSort()}, r)
	b := c.FuncDecl("B", []*Sort{c.IntSort()}, r)
	i, j := c.IntConst("i"), c.IntConst("j")
	x, y, z := a.Apply(i), b.Apply(j), c.RealConst("z")
	terms := []*Term{
		x.Mul(y).Add(z).Ne(z.Add(y.Mul(x))),
		c.Mul(c.Real(3, 1), x, y, z).Div(z).Ge(c.Real(1, 2).Mul(x)),
		i.Mul(j).Gt(c.Int(4)),
	}
	got, n, err := c.AbstractProducts(terms...)
	if err != nil {
		t.Fatal(err)
	}
	if n != 5 {
		t.Errorf("%d products and quotients replaced, want 5 (x·y twice, x·y·z twice, its quotient)", n)
	}
	text := got[0].String() + "\n" + got[1].String() + "\n" + got[2].String()
	for _, want := range []string{"(nl.mul (A i) (B j))", "(nl.div ", "(* 3.0 (nl.mul (nl.mul (A i) (B j)) z))", "(* (/ 1.0 2.0) (A i))", "(* i j)"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in the abstraction:\n%s", want, text)
		}
	}
	if strings.Contains(got[0].String(), "(B j) (A i)") {
		t.Errorf("y·x kept its own order:\n%s", got[0])
	}
	if res := checkTerms(t, c, got[0]); res != Unsat {
		t.Errorf("x·y + z ≠ z + y·x abstracted: %s, want unsat", res)
	}
	square := x.Mul(x).Lt(c.Real(0, 1))
	if res := checkTerms(t, c, square); res != Unsat {
		t.Fatalf("x·x < 0: %s, want unsat", res)
	}
	abs, _, err := c.AbstractProducts(square)
	if err != nil {
		t.Fatal(err)
	}
	if res := checkTerms(t, c, abs...); res != Sat {
		t.Errorf("x·x < 0 abstracted: %s, want sat (nl.mul knows nothing of signs)", res)
	}
	linear := []*Term{x.Mul(c.Real(2, 1)).Gt(z.Div(c.Real(-3, 1)))}
	if same, n, err := c.AbstractProducts(linear...); err != nil || n != 0 || same[0] != linear[0] {
		t.Errorf("a linear formula was changed (%d replaced, %v)", n, err)
	}
}

// checkTerms checks the conjunction of ts in a fresh solver.
func checkTerms(t *testing.T, c *Context, ts ...*Term) Result {
	t.Helper()
	s, err := c.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Assert(ts...); err != nil {
		t.Fatal(err)
	}
	res, err := s.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestAbstractProductsRegrouped: a product's abstraction does not depend
// on how its factors are grouped or scaled, so that linear arithmetic
// relates (2·x)·(3·y) to 6·(x·y), x·(y·z) to (x·y)·z, and a product of a
// sum scaled term by term (S·(c·x·x + c·y·y), harris's kernel) to the
// scaled product of the sum (c·S·S, its specification); a sum whose terms
// have different numerals is a factor of its own.
func TestAbstractProductsRegrouped(t *testing.T) {
	c := newCtx(t)
	r := c.RealSort()
	a := c.FuncDecl("A", []*Sort{c.IntSort()}, r)
	x, y, z := a.Apply(c.Int(0)), a.Apply(c.Int(1)), c.RealConst("z")
	k := c.Real(5368709, 134217728)
	s := x.Mul(x).Add(y.Mul(y))
	for _, tc := range []struct {
		name string
		f    *Term
		want Result
	}{
		{"(2x)(3y) = 6(xy)", c.Mul(c.Real(2, 1), x).Mul(c.Real(3, 1).Mul(y)).Ne(c.Real(6, 1).Mul(x.Mul(y))), Unsat},
		{"x(yz) = (xy)z", x.Mul(y.Mul(z)).Ne(x.Mul(y).Mul(z)), Unsat},
		{"S(cxx + cyy) = cSS", s.Mul(k.Mul(x.Mul(x)).Add(k.Mul(y.Mul(y)))).Ne(k.Mul(s.Mul(s))), Unsat},
		{"S(cxx + 2yy) = cSS", s.Mul(k.Mul(x.Mul(x)).Add(c.Real(2, 1).Mul(y.Mul(y)))).Ne(k.Mul(s.Mul(s))), Sat},
	} {
		if res := checkTerms(t, c, tc.f); res != Unsat && tc.want == Unsat {
			t.Fatalf("%s: %s before abstraction, want unsat", tc.name, res)
		}
		abs, n, err := c.AbstractProducts(tc.f)
		if err != nil || n == 0 {
			t.Fatalf("%s: %d replaced, %v", tc.name, n, err)
		}
		if res := checkTerms(t, c, abs...); res != tc.want {
			t.Errorf("%s abstracted: %s, want %s\n%s", tc.name, res, tc.want, abs[0])
		}
	}
}
