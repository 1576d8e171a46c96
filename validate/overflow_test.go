package validate

import (
	"context"
	"testing"

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
