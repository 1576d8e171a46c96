package smt

import (
	"runtime"
	"testing"
)

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

// TestSimplifyMemo: a term simplified again gives the simplification made
// the first time, without another call into Z3, and the memo keeps no
// term alive: once the terms are dropped, ReleaseUnused gives back their
// references as if nothing had been simplified.
func TestSimplifyMemo(t *testing.T) {
	c := newCtx(t, WithManualRelease())
	i := c.IntConst("i")
	x := i.Add(c.Int(0)).Mul(c.Int(1)).Add(c.Int(2).Mul(c.Int(3)))
	first := x.Simplify()
	if again := x.Simplify(); again != first {
		t.Errorf("simplified again: a new term %s, want the first one, %s", again, first)
	}
	if want := i.Add(c.Int(6)).Simplify(); !first.Equal(want) {
		t.Errorf("simplification %s, want %s", first, want)
	}
	c.ReleaseUnused()
	base := c.Held()
	for n := range 100 {
		i.Add(c.Int(int64(n))).Add(c.Int(1)).Simplify()
	}
	c.ReleaseUnused()
	if held := c.Held(); held != base {
		t.Errorf("%d references held after the simplified terms were dropped, want %d", held, base)
	}
	runtime.KeepAlive(x)
	runtime.KeepAlive(first)
	runtime.KeepAlive(i)
}

// TestSimplifyMemoSurvivesCollection: in a context made
// WithManualRelease, a simplification dropped by its caller is found again
// after a collection, so that the terms Z3 makes, and the work of later
// checks, do not depend on when the collector ran: simplifying the term
// again makes no new Z3 term.
func TestSimplifyMemoSurvivesCollection(t *testing.T) {
	c := newCtx(t, WithManualRelease())
	i := c.IntConst("i")
	x := i.Add(c.Int(0)).Mul(c.Int(1)).Add(c.Int(2).Mul(c.Int(3)))
	x.Simplify()
	runtime.GC()
	runtime.GC()
	before := c.Held()
	x.Simplify()
	if made := c.Held() - before; made != 0 {
		t.Errorf("simplifying again after a collection made %d Z3 references, want none", made)
	}
	runtime.KeepAlive(x)
}

// BenchmarkSimplifyRepeated simplifies the same index term over and over,
// as the encodings of a condition do.
func BenchmarkSimplifyRepeated(b *testing.B) {
	c := newCtx(b, WithManualRelease())
	i, j := c.IntConst("i"), c.IntConst("j")
	x := i.Mul(c.Int(8)).Add(j).Add(c.Int(-3)).Sub(i.Mul(c.Int(8)))
	for b.Loop() {
		x.Simplify()
	}
}
