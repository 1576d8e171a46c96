package smt

import "testing"

func TestSimplifyArithSOM(t *testing.T) {
	z, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	h, a := z.BVConst("h", 32), z.BVConst("a", 32)
	x := h.BVMul(z.BV(31, 32)).BVAdd(a).BVMul(z.BV(31, 32))
	y := h.BVMul(z.BV(961, 32)).BVAdd(a.BVMul(z.BV(31, 32)))
	if !x.SimplifyArith().Equal(y.SimplifyArith()) {
		t.Errorf("%s and %s", x.SimplifyArith(), y.SimplifyArith())
	}
	r, s := z.RealConst("r"), z.RealConst("s")
	p := r.Add(s).Add(z.Real(1, 2))
	q := z.Real(1, 2).Add(s.Add(r))
	if !p.SimplifyArith().Equal(q.SimplifyArith()) {
		t.Errorf("%s and %s", p.SimplifyArith(), q.SimplifyArith())
	}
	if x.SimplifyArith().Equal(h.BVMul(z.BV(960, 32)).BVAdd(a.BVMul(z.BV(31, 32))).SimplifyArith()) {
		t.Errorf("different polynomials made equal")
	}
}

func TestApplications(t *testing.T) {
	z, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	f := z.FuncDecl("f", []*Sort{z.IntSort()}, z.IntSort())
	x := z.IntConst("x")
	e := f.Apply(x).Add(f.Apply(z.Int(3))).Add(f.Apply(x)).Mul(f.Apply(f.Apply(x)))
	apps, err := f.Applications(e)
	if err != nil {
		t.Fatal(err)
	}
	if len(apps) != 3 {
		t.Errorf("%d applications, want 3 (f(x), f(3), f(f(x)))", len(apps))
	}
}
