package sched

import (
	"testing"

	"github.com/augur-verify/augur/value"
)

// TestKernelOverflow checks Options.KernelOverflow: a kernel whose i32
// arithmetic overflows where its specification's does not fails as it
// wraps, and passes when its overflow is unconstrained (the failure needs
// the overflow); a wrong kernel whose values do not overflow still fails
// so, and so does one that annotates an overflowing value with an element
// the specification leaves undefined.
func TestKernelOverflow(t *testing.T) {
	const spec = `overflow unconstrained
param N
assume N >= 1
input A(i) : i32
tensor D(i) : i32
D(i) = A(i) / 2
output D
`
	const head = `kernel k(N)
assume N >= 1
in  a[i] : i32[N] = A(i)
out d[i] : i32[N] = D(i)
`
	// a / 2 as (a * 2) / 4: a * 2 wraps for |a| >= 2^30.
	doubled := head + `{
  par i < N {
    d[i] {D(i)} := (a[i] * 2) / 4
  }
}
`
	// A wrong kernel, a / 4, whose arithmetic never overflows.
	quarter := head + `{
  par i < N {
    d[i] {D(i)} := a[i] / 4
  }
}
`
	params := map[string]int64{"N": 16}
	_, err := run(t, spec, doubled, params, Options{})
	wantFailure(t, err, WrongValue, "")
	if _, err := run(t, spec, doubled, params, Options{KernelOverflow: value.OverflowUnconstrained}); err != nil {
		t.Errorf("doubled, overflow unconstrained: %v", err)
	}
	_, err = run(t, spec, quarter, params, Options{KernelOverflow: value.OverflowUnconstrained})
	wantFailure(t, err, WrongValue, "")
	// Undefined elements stay failures: an annotation past the
	// specification's domain.
	undef := `overflow unconstrained
param N
assume N >= 1
input A(i) : i32
tensor D(i) : i32
D(i) = A(i) / 2 where i < N
output D
`
	past := `kernel k(N)
assume N >= 1
in  a[i] : i32[N] = A(i)
out d[i] : i32[N] = D(i)
{
  alloc t : i32[1] {
    par i < N {
      d[i] {D(i)} := (a[i] * 2) / 4
    }
    t[0] {D(N)} := (a[0] * 2) * 2
  }
}
`
	_, err = run(t, undef, past, params, Options{KernelOverflow: value.OverflowUnconstrained})
	wantFailure(t, err, UndefinedAnnotation, "")
}
