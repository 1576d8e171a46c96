package sched

import (
	"strings"
	"testing"
)

// TestPoisonValueFailures checks Options.PoisonValueFailures: a failed
// check of a stored value writes ⊥ instead of failing, and the run fails
// only where ⊥ reaches an out cell (with the chain from the failed check)
// or on another failure. Values that fail their check in cells nothing
// uses afterwards (a stale stage overwritten before it is read, a merge
// of a partial result never initialised into a row nobody reads) pass;
// the planted bugs of reductions, which reach the output, still fail.
func TestPoisonValueFailures(t *testing.T) {
	const stencil = `param N
assume N >= 1
input A(x) : i32
tensor S(x) : i32
S(x) = A(x) * A(x)
tensor G(x) : i32
G(x) = S(x) + 1
output G
`
	const stencilHead = `kernel stale(N)
assume N >= 1
in  a[x] : i32[N + 1] = A(x)
out g[x] : i32[N] = G(x)
`
	// A one-cell window: the row of the next iteration is computed
	// first from the current input (a stale stage: its annotation S(x +
	// 1) is false), then overwritten with the current row before g reads
	// it.
	stale := stencilHead + `{
  alloc t : i32[1] {
    for x < N {
      t[0] {S(x + 1)} := a[x] * a[x]
      t[0] {S(x)} := a[x] * a[x]
      g[x] {G(x)} := t[0] + 1
    }
  }
}
`
	// The same rows in the other order: g reads the stale one.
	staleRead := stencilHead + `{
  alloc t : i32[1] {
    for x < N {
      t[0] {S(x)} := a[x] * a[x]
      t[0] {S(x + 1)} := a[x] * a[x]
      g[x] {G(x)} := t[0] + 1
    }
  }
}
`
	// Partial results of one lane per element, merged into rows rounded
	// up to 4: the merges past N read partial results never initialised,
	// into cells nothing reads.
	mergeRows := `kernel rows(N)
assume N >= 0
in  a[k] : i32[N] = A(k)
in  b[k] : i32[N] = B(k)
out d[] : i32[] = D()
{
  alloc t : i32[4 * ((N + 3) / 4)] {
    for p < N {
      t[p] {D() @ ()} := 0
      t[p] {D() @ (p)} += a[p] * b[p]
    }
    alloc r : i32[4 * ((N + 3) / 4)] {
      for p < 4 * ((N + 3) / 4) {
        r[p] {D() @ ()} := 0
        r[p] {D()} += t[p]
      }
      d[] {D() @ ()} := 0
      for p < N {
        d[] {D()} += r[p]
      }
    }
  }
}
`
	// Rows of a sum computed one row past the output, the row's two
	// positions accumulated atomically by the iterations of a par loop:
	// the last row's second position reads a staged cell never written
	// (a garbage write), which only that row holds.
	const window = `param N
assume N >= 1
input A(x) : i32
tensor S(x) : i32
S(x) = reduce(+, k in 0 .. 2, A(x + k))
tensor R(x) : i32
R(x) = reduce(+, j in 0 .. 2, S(x + j))
`
	atomicRows := `kernel atomic(N)
assume N >= 1
in  a[x] : i32[N + 2] = A(x)
out s[x] : i32[N] = S(x)
{
  alloc u : i32[N + 2] {
    for x < N + 1 {
      u[x] {A(x)} := a[x]
    }
    alloc t : i32[N + 1] {
      for x < N + 1 {
        t[x] {S(x) @ ()} := 0
        par k < 2 {
          t[x] {S(x) @ (k)} += u[x + k]
        }
      }
      for x < N {
        s[x] {S(x)} := t[x]
      }
    }
  }
}
`
	// A sum of sums computed one row past the output: the last row reads
	// a partial result initialised but never accumulated into.
	partialRows := `kernel partial(N)
assume N >= 1
in  a[x] : i32[N + 2] = A(x)
out r[x] : i32[N] = R(x)
{
  alloc t : i32[N + 2] {
    for x < N + 2 {
      t[x] {S(x) @ ()} := 0
    }
    for x < N + 1 {
      for k < 2 {
        t[x] {S(x) @ (k)} += a[x + k]
      }
    }
    alloc w : i32[N + 1] {
      for x < N + 1 {
        w[x] {R(x) @ ()} := 0
        for j < 2 {
          w[x] {R(x) @ (j)} += t[x + j]
        }
      }
      for x < N {
        r[x] {R(x)} := w[x]
      }
    }
  }
}
`
	// A max update recomputed in place over a cell it already updated
	// (as Halide's sliding window recomputes an unrolled update): the
	// second max over b stores the value the cell holds, S2(x), against
	// the annotation of the earlier step S1(x).
	const maxSpec = `param N
assume N >= 1
input A(x) : i32
input B(x) : i32
input C(x) : i32
tensor S1(x) : i32
S1(x) = max(A(x), B(x))
tensor S2(x) : i32
S2(x) = max(S1(x), C(x))
tensor G(x) : i32
G(x) = S2(x)
output G
`
	const maxAgain = `kernel again(N)
assume N >= 1
in  a[x] : i32[N] = A(x)
in  b[x] : i32[N] = B(x)
in  c[x] : i32[N] = C(x)
out g[x] : i32[N] = G(x)
{
  alloc t : i32[N] {
    for x < N {
      t[x] {A(x)} := a[x]
      t[x] {S1(x)} := max(t[x], b[x])
      t[x] {S2(x)} := max(t[x], c[x])
      t[x] {S1(x)} := max(t[x], b[x])
      g[x] {G(x)} := t[x]
    }
  }
}
`
	for _, tc := range []struct {
		name, spec, kernel string
		n                  int64
		plain              Kind   // the run's failure without poisoning (0: none)
		kind               Kind   // the run's failure with it (0: none)
		origin             string // a substring of the chain of ⊥ in the out cell, from where it starts
		poisoned           int64  // the stores poisoned by a run that passes
		garbage            int64  // and its garbage writes
	}{
		{"stale row overwritten", stencil, stale, 3, WrongValue, 0, "", 3, 0},
		{"stale row read", stencil, staleRead, 3, WrongValue, OutputNotWritten, "annotation mismatch: t[0] := ", 0, 0},
		// The recomputed max stores the value its cell holds: no memory
		// changes. Not in place, or storing another value, it writes ⊥.
		{"max recomputed in place", maxSpec, maxAgain, 16, WrongValue, 0, "", 0, 0},
		{"max recomputed not in place", maxSpec, strings.Replace(maxAgain, "t[x] {S1(x)} := max(t[x], b[x])\n      g", "t[x] {S1(x)} := max(max(a[x], b[x]), c[x])\n      g", 1), 16, WrongValue, OutputNotWritten, "annotation mismatch: t[", 0, 0},
		{"max recomputed to another value", maxSpec, strings.Replace(maxAgain, "t[x] {S1(x)} := max(t[x], b[x])\n      g", "t[x] {S1(x)} := max(t[x], b[x]) + 1\n      g", 1), 16, WrongValue, OutputNotWritten, "annotation mismatch: t[", 0, 0},
		// The merges past the data read cells never written: garbage writes.
		{"merges past the data", dotSpec, mergeRows, 5, NotAccumulator, 0, "", 0, 3},
		{"merges one past the data", dotSpec, strings.Replace(mergeRows, "for p < N {\n        d[] {D()} += r[p]", "for p < N + 1 {\n        d[] {D()} += r[p]", 1), 5, NotAccumulator, OutputNotWritten, "t[5] (never written) read at 15:9 (at p=5), ⊥ written into r[5]", 0, 0},
		{"wrong identity", dotSpec, strings.Replace(dotRfactor, "t[p] {D() @ ()} := 0", "t[p] {D() @ ()} := 1", 1), 3, WrongIdentity, OutputNotWritten, "wrong identity: t[", 0, 0},
		{"wrong operator", dotSpec, strings.Replace(dotRfactor, "d[] {D()} += t[p]", "d[] {D()} *= t[p]", 1), 3, WrongOperator, OutputNotWritten, "wrong reduction operator", 0, 0},
		{"no initialisation", dotSpec, strings.Replace(dotRfactor, "d[] {D() @ ()} := 0", "skip", 1), 3, NotAccumulator, OutputNotWritten, "not an accumulator", 0, 0},
		{"wrong body", dotSpec, strings.Replace(dotRfactor, "a[4 * q + p] * b[4 * q + p]", "a[4 * q + p] * a[4 * q + p]", 1), 3, WrongValue, OutputNotWritten, "annotation mismatch", 0, 0},
		{"plain merge", dotSpec, strings.Replace(dotRfactor, "d[] {D()} += t[p]", "d[] {D()} := d[] + t[p]", 1), 3, IncompleteReduction, OutputNotWritten, "incomplete reduction", 0, 0},
		// ⊥ accumulated by one iteration of a par loop is one of the
		// loop's atomic accumulations, not a write conflicting with the
		// others'.
		{"atomic garbage past the data", window + "output S\n", atomicRows, 3, 0, 0, "", 0, 1},
		{"atomic garbage into the output", window + "output S\n", strings.Replace(strings.Replace(atomicRows, "i32[N] = S(x)", "i32[N + 1] = S(x)", 1), "for x < N {", "for x < N + 1 {", 1), 3, OutputNotWritten, OutputNotWritten, "u[4] (never written) read at 14:11 (at x=3 k=1), ⊥ written into t[3]", 0, 0},
		// A reduction's read of an incomplete partial result writes ⊥.
		{"incomplete read past the data", window + "output R\n", partialRows, 3, IncompleteReduction, 0, "", 1, 0},
		{"incomplete read into the output", window + "output R\n", strings.Replace(strings.Replace(partialRows, "i32[N] = R(x)", "i32[N + 1] = R(x)", 1), "for x < N {", "for x < N + 1 {", 1), 3, IncompleteReduction, OutputNotWritten, "incomplete reduction: t[4] holds a partial result of S(4)", 0, 0},
		// An output left incomplete is a failure of the output itself.
		{"skips a tail", dotSpec, strings.Replace(dotRfactor, "(N + 3 - p) / 4", "N / 4", 1), 10, IncompleteReduction, IncompleteReduction, "", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			params := map[string]int64{"N": tc.n}
			_, err := run(t, tc.spec, tc.kernel, params, Options{GarbageWrites: true})
			if tc.plain == 0 && err != nil {
				t.Fatalf("run with garbage writes failed: %v", err)
			} else if tc.plain != 0 {
				wantFailure(t, err, tc.plain, "")
			}
			res, err := run(t, tc.spec, tc.kernel, params, Options{GarbageWrites: true, PoisonValueFailures: true})
			if tc.kind == 0 {
				if err != nil {
					t.Fatalf("run with poisoned failures failed: %v", err)
				}
				if res.Poisoned != tc.poisoned || res.GarbageWrites != tc.garbage {
					t.Errorf("%d stores poisoned and %d garbage writes, want %d and %d", res.Poisoned, res.GarbageWrites, tc.poisoned, tc.garbage)
				}
				return
			}
			f := wantFailure(t, err, tc.kind, "")
			if tc.origin == "" {
				return
			}
			if f.Garbage == nil {
				t.Fatalf("no garbage chain in %s", f.Error())
			}
			if path := f.Garbage.String(); !strings.HasPrefix(path, tc.origin) {
				t.Errorf("⊥ comes from %q, want it to start with %q", path, tc.origin)
			}
			if !strings.Contains(f.Msg, tc.origin) {
				t.Errorf("the failure %q does not say where ⊥ starts", f.Msg)
			}
		})
	}
	// Poisoning needs garbage writes.
	_, err := run(t, stencil, stale, map[string]int64{"N": 3}, Options{PoisonValueFailures: true})
	wantFailure(t, err, WrongValue, "")
}
