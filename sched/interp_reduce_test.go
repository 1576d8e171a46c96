package sched

import (
	"strings"
	"testing"
)

const dotSpec = `param N
assume N >= 0
input A(k) : i32
input B(k) : i32
tensor D() : i32
D() = reduce(+, k in 0 .. N, A(k) * B(k))
output D
`

const dotHead = `kernel dot(N)
assume N >= 0
in  a[k] : i32[N] = A(k)
in  b[k] : i32[N] = B(k)
out d[] : i32[] = D()
`

// dotRfactor computes the dot product in four strided partial results
// merged at the end.
const dotRfactor = dotHead + `{
  alloc t : i32[4] {
    par p < 4 {
      t[p] {D() @ ()} := 0
      for q < (N + 3 - p) / 4 {
        t[p] {D() @ (4 * q + p)} += a[4 * q + p] * b[4 * q + p]
      }
    }
    d[] {D() @ ()} := 0
    for p < 4 {
      d[] {D()} += t[p]
    }
  }
}
`

func TestReductionRun(t *testing.T) {
	for _, tc := range []struct {
		name    string
		kernel  string
		n       int64
		kind    Kind   // 0: the run succeeds
		message string // a substring of the failure's message
	}{
		{"rfactor", dotRfactor, 11, 0, ""},
		{"rfactor empty", dotRfactor, 0, 0, ""},
		{"atomic par", dotHead + "{\n  d[] {D() @ ()} := 0\n  par k < N {\n    d[] {D() @ (k)} += a[k] * b[k]\n  }\n}\n", 7, 0, ""},
		{"reversed", dotHead + "{\n  d[] {D() @ ()} := 0\n  for k < N {\n    d[] {D() @ (N - 1 - k)} += a[N - 1 - k] * b[N - 1 - k]\n  }\n}\n", 7, 0, ""},
		{"skips a tail", strings.Replace(dotRfactor, "(N + 3 - p) / 4", "N / 4", 1), 10, IncompleteReduction,
			"d[] holds a partial result of D() without position (8) (8 of its positions accumulated)"},
		{"double count", strings.Replace(dotRfactor, "    d[] {D() @ ()} := 0", "    if N > 2 { t[1] {D() @ (2)} += a[2] * b[2] }\n    d[] {D() @ ()} := 0", 1), 5, DoubleCount,
			"position (2) of D() is in t[2] and already in d[]"},
		{"outside", dotHead + "{\n  d[] {D() @ ()} := 0\n  for k < N {\n    d[] {D() @ (k + 1)} += a[k] * b[k]\n  }\n}\n", 1, OutsideReduction,
			"position (1) is outside the domain of the reduction D()"},
		{"wrong identity", strings.Replace(dotRfactor, "t[p] {D() @ ()} := 0", "t[p] {D() @ ()} := 1", 1), 3, WrongIdentity,
			"t[0] := 1 initialises an accumulator of D(), but the identity of + on i32 is 0"},
		{"wrong operator", strings.Replace(dotRfactor, "d[] {D()} += t[p]", "d[] {D()} *= t[p]", 1), 3, WrongOperator, "but D() is a + reduction"},
		{"plain merge", strings.Replace(dotRfactor, "d[] {D()} += t[p]", "d[] {D()} := d[] + t[p]", 1), 3, IncompleteReduction, ""},
		{"no initialisation", strings.Replace(dotRfactor, "d[] {D() @ ()} := 0", "skip", 1), 3, NotAccumulator, ""},
		{"wrong body", strings.Replace(dotRfactor, "a[4 * q + p] * b[4 * q + p]", "a[4 * q + p] * a[4 * q + p]", 1), 3, WrongValue, ""},
		{"read while accumulating", dotHead + "{\n  d[] {D() @ ()} := 0\n  par k < N {\n    d[] {D() @ (k)} += a[k] * b[k] + 0 * d[]\n  }\n}\n", 3, IncompleteReduction, ""},
		{"write while accumulating", dotHead + "{\n  d[] {D() @ ()} := 0\n  par k < N {\n    d[] {D() @ (k)} += a[k] * b[k]\n    if k == 1 { d[] {D() @ ()} := 0 }\n  }\n}\n", 3, WriteWriteConflict, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := run(t, dotSpec, tc.kernel, map[string]int64{"N": tc.n}, Options{})
			if tc.kind == 0 {
				if err != nil {
					t.Fatalf("run failed: %v", err)
				}
				return
			}
			f := wantFailure(t, err, tc.kind, "")
			if !strings.Contains(f.Msg, tc.message) {
				t.Errorf("message %q, want it to contain %q", f.Msg, tc.message)
			}
		})
	}
}

func TestReductionCheckErrors(t *testing.T) {
	for _, tc := range []struct{ kernel, want string }{
		{dotHead + "{\n  d[] {D() @ (0)} := 0\n}\n", "takes +="},
		{dotHead + "{\n  d[] {D() @ ()} += 0\n}\n", "takes ':='"},
		{dotHead + "{\n  d[] {D()} += a[0] * 2\n}\n", "must read one array cell"},
		{dotHead + "{\n  d[] {D() @ (0, 1)} += a[0]\n}\n", "reduces over 1 variable(s), position has 2"},
		{dotHead + "{\n  d[] {A(0) @ ()} := 0\n}\n", "element of a reduction tensor"},
	} {
		k := mustParse(t, tc.kernel)
		spec := mustSpec(t, dotSpec)
		_, errs := Check(k, spec)
		if err := errs.Err(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.kernel, err, tc.want)
		}
	}
}

// dotLanes factors the dot product into one partial result per element,
// computed four lanes at a time: the staging buffers and the partial
// results are rounded up to whole vectors, and the lanes past the data
// read cells never written. MERGE is replaced by the merges.
const dotLanes = dotHead + `{
  alloc sa : i32[4 * ((N + 3) / 4)] {
    for k < N {
      sa[k] {A(k)} := a[k]
    }
    alloc t : i32[4 * ((N + 3) / 4)] {
      par p < 4 * ((N + 3) / 4) {
        t[p] {D() @ ()} := 0
        t[p] {D() @ (p)} += sa[p] * b[min(p, N - 1)]
      }
      d[] {D() @ ()} := 0
      MERGE
    }
  }
}
`

// TestReductionGarbageWrites checks the garbage writes of reductions
// (Options.GarbageWrites): an accumulation reading a cell never written
// writes ⊥ into its partial result, unchecked, and so does an
// accumulation or a merge into a cell holding ⊥; the run fails only if ⊥
// reaches an out cell. Without garbage writes, the read fails.
func TestReductionGarbageWrites(t *testing.T) {
	const n = 5 // lanes 5 to 7 read sa past the data
	for _, tc := range []struct {
		name, kernel string
		kind         Kind  // 0: the run succeeds
		garbage      int64 // the garbage writes of a run that succeeds
	}{
		{"garbage partials never merged", strings.Replace(dotLanes, "MERGE", "for p < N {\n        d[] {D()} += t[p]\n      }", 1), 0, 3},
		// The merge of lane 5 reads ⊥; the merges after it into d[] are
		// garbage writes too, and ⊥ ends in the output.
		{"garbage partial merged", strings.Replace(dotLanes, "MERGE", "for p < N + 1 {\n        d[] {D()} += t[p]\n      }", 1), OutputNotWritten, 0},
		// The first accumulation reads ⊥; the later ones, into a cell
		// holding ⊥, keep it there.
		{"garbage accumulated first", dotHead + `{
  alloc sa : i32[N] {
    for k < N - 1 {
      sa[k] {A(k)} := a[k]
    }
    d[] {D() @ ()} := 0
    for q < N {
      d[] {D() @ (N - 1 - q)} += sa[N - 1 - q] * b[N - 1 - q]
    }
  }
}
`, OutputNotWritten, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := run(t, dotSpec, tc.kernel, map[string]int64{"N": n}, Options{GarbageWrites: true})
			switch {
			case tc.kind == 0 && err != nil:
				t.Fatalf("run failed: %v", err)
			case tc.kind == 0 && res.GarbageWrites != tc.garbage:
				t.Errorf("%d garbage writes, want %d", res.GarbageWrites, tc.garbage)
			case tc.kind != 0:
				wantFailure(t, err, tc.kind, "")
			}
			_, err = run(t, dotSpec, tc.kernel, map[string]int64{"N": n}, Options{})
			wantFailure(t, err, UndefinedRead, "")
		})
	}
}
