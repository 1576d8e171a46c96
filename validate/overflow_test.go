package validate

import (
	"context"
	"testing"

	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// pinSpec leaves F(i) = A(i) * 3 unconstrained where it overflows; G
// reads F (and is unconstrained with it), G0 does not.
const pinSpec = `overflow unconstrained
param N
assume N >= 1
input A(i) : i32
tensor F(i) : i32
F(i) = A(i) * 3
tensor G(i) : i32
G(i) = F(i) - A(i) * 3
tensor G0(i) : i32
G0(i) = A(i) - A(i)
output G, G0
`

// pinKernel stores 7 for F(i) where A(i) * 3 overflows, which F's
// freedom allows, then computes G and G0 from it: G is right (free where
// F is), G0 is wrong (0 is wanted, 7 - 3a is computed).
const pinKernel = `kernel pin(N)
assume N >= 1
in  a[i] : i32[N] = A(i)
out g[i] : i32[N] = G(i)
out g0[i] : i32[N] = G0(i)
{
  alloc f : i32[N] {
    for i < N {
      f[i] {F(i)} := select(a[i] > 715827882 or a[i] < -715827882, 7, a[i] * 3)
    }
    for i < N {
      g[i] {G(i)} := f[i] - a[i] * 3
      g0[i] {G0(i)} := f[i] - a[i] * 3
    }
  }
}
`

// TestUnconstrainedNotPinned: a cell annotated with an unconstrained
// element may hold anything, so the solver must not take it to hold the
// element's wrapped value: the kernel computing G0 from such a cell is
// never VALID, with or without the quick test (which finds it INVALID).
func TestUnconstrainedNotPinned(t *testing.T) {
	for _, quick := range []bool{false, true} {
		rep, err := Validate(context.Background(), &syntax.Source{Name: "pin.sare", Text: pinSpec}, &syntax.Source{Name: "pin.sched", Text: pinKernel},
			Options{Jobs: 1, NoQuickTest: !quick})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict == Valid {
			t.Fatalf("quick test %v: VALID for a kernel whose G0 is 7 - 3a where 0 is wanted", quick)
		}
		if quick && rep.Verdict != Invalid {
			t.Errorf("quick test: %s, want INVALID", rep.Verdict)
		}
	}
}

// TestUnconstrainedPropagates: G(i) = F(i) - A(i) * 3 is unconstrained
// wherever F(i) is, so the kernel that stores 7 for an overflowing F(i)
// and computes G from it is VALID.
func TestUnconstrainedPropagates(t *testing.T) {
	spec := `overflow unconstrained
param N
assume N >= 1
input A(i) : i32
tensor F(i) : i32
F(i) = A(i) * 3
tensor G(i) : i32
G(i) = F(i) - A(i) * 3
output G
`
	prog := `kernel pin(N)
assume N >= 1
in  a[i] : i32[N] = A(i)
out g[i] : i32[N] = G(i)
{
  alloc f : i32[N] {
    for i < N {
      f[i] {F(i)} := select(a[i] > 715827882 or a[i] < -715827882, 7, a[i] * 3)
    }
    for i < N {
      g[i] {G(i)} := f[i] - a[i] * 3
    }
  }
}
`
	rep, err := Validate(context.Background(), &syntax.Source{Name: "g.sare", Text: spec}, &syntax.Source{Name: "g.sched", Text: prog}, Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != Valid {
		t.Errorf("%s (%s), want VALID", rep.Verdict, rep.Reason)
	}
}

// equaliseSpec is the last stage of Halide's hist app, reduced: a pixel
// scaled by 255 over the image's size, an i32 product of parameters that
// may overflow (and is then unconstrained), clamped, rounded, clamped
// again and cast to u8.
const equaliseSpec = `overflow unconstrained
param W, H
assume W >= 1 and H >= 1
input A(x, y) : u8
tensor E(x, y) : f32
E(x, y) = max(min(f32(A(x, y)) * (f32(255.0) / f32(i32(H) * i32(W))), f32(255.0)), f32(0.0))
tensor O(x, y) : u8
O(x, y) = u8(max(min(E(x, y) + f32(0.5), f32(255.0)), f32(0.0)))
output O
`

// equaliseKernel computes O as Halide does, the product's operands and
// the division's in another order.
const equaliseKernel = `kernel equalise(W, H)
assume W >= 1 and H >= 1
in  a[x, y] : u8[W, H] = A(x, y)
out o[x, y] : u8[W, H] = O(x, y)
{
  for y < H {
    for x < W {
      o[x, y] {O(x, y)} := u8(max(min(max(min(f32(255.0) / f32(i32(W) * i32(H)) * f32(a[x, y]), f32(255.0)), f32(0.0)) + f32(0.5), f32(255.0)), f32(0.0)))
    }
  }
}
`

// TestUnconstrainedProductCheap: the annotation of equaliseKernel's
// store is proved within 20,000 resource units (5,858 with Z3 4.8.12;
// 46,527 before). The
// specification's side is the body where the product does not overflow
// and E's application where it does, on the very terms of the overflow
// that the query's negation excludes (assumeFalse), and the overflow is
// decided in the integers (smt/encode's intOverflow): with the overflow
// tested on bit-vectors and left in the side, hist's condition of this
// shape took 14 million units.
func TestUnconstrainedProductCheap(t *testing.T) {
	rep, err := Validate(context.Background(), &syntax.Source{Name: "e.sare", Text: equaliseSpec}, &syntax.Source{Name: "e.sched", Text: equaliseKernel}, Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != Valid {
		t.Fatalf("%s (%s), want VALID", rep.Verdict, rep.Reason)
	}
	for _, c := range rep.Conditions {
		if c.Kind == sched.WrongValue {
			t.Logf("%s: %s, %d units", c.Text, c.Solver, c.Resources)
			if c.Resources > 20_000 {
				t.Errorf("%s: %d resource units, want at most 20,000", c.Text, c.Resources)
			}
		}
	}
}
