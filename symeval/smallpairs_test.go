package symeval

import (
	"context"
	"testing"
)

// smallPair is a small pair written for the differential tests (against
// concrete execution, concrete_test.go, and in the tests of symbolic
// evaluation, races and obligations), valid at every parameter set
// listed. smallPairs cover what the corpus has few of: overwrites,
// shifted tiles, branches, a benign race, an in-place update, a scalar
// sum, a cast under a where clause and clamped reads.
type smallPair struct {
	name, spec, kernel string
	params             []map[string]int64
}

const vecSpec = `
param N
assume N >= 4
input A(i) : f32
tensor S(i) : f32
S(i) = A(i) + A(i + 1)
output S
`

var smallPairs = []smallPair{
	{
		// Clément 2022, Example 9: the iterations overwrite the cells of a
		// small array; each keeps the last one.
		name: "overwrite",
		spec: `
param N
assume N >= 1
input A(i) : f32
tensor L(i) : f32
L(i) = A(i + 4 * ((N - 1 - i) / 4))
output L
`,
		kernel: `
kernel overwrite(N)
assume N >= 4
in  a[i] : f32[N] = A(i)
out o[i] : f32[4] = L(i)
{
  for x < N {
    o[x % 4] {A(x)} := a[x]
  }
}
`,
		params: []map[string]int64{{"N": 4}, {"N": 5}, {"N": 7}, {"N": 10}},
	},
	{
		// Shifted tiles of 4 with a local buffer, lets and a guard.
		name: "shifted_tiles",
		spec: vecSpec,
		kernel: `
kernel shifted(N)
assume N >= 4
in  a[i] : f32[N + 1] = A(i)
out s[i] : f32[N] = S(i)
{
  for io < (N + 3) / 4 {
    alloc tmp : f32[5] {
      let base = min(4 * io, N - 4)
      for d < 5 {
        let i = base + d
        tmp[d] {A(i)} := a[i]
      }
      for ii < 4 {
        let i = base + ii
        if i < N {
          s[i] {S(i)} := tmp[ii] + tmp[ii + 1]
        }
      }
    }
  }
}
`,
		params: []map[string]int64{{"N": 4}, {"N": 6}, {"N": 9}},
	},
	{
		// if / else if / else inside a par loop, with a remainder test.
		name: "branches",
		spec: vecSpec,
		kernel: `
kernel branches(N)
assume N >= 4
in  a[i] : f32[N + 1] = A(i)
out s[i] : f32[N] = S(i)
{
  par i < N {
    if i % 2 == 0 {
      s[i] {S(i)} := a[i] + a[i + 1]
    } else if i < 3 {
      s[i] {A(i) + A(i + 1)} := a[i] + a[i + 1]
    } else {
      s[i] {S(i)} := a[i] + a[i + 1]
    }
  }
}
`,
		params: []map[string]int64{{"N": 4}, {"N": 7}},
	},
	{
		// Two iterations of a par loop write one cell with equal values
		// under different annotations: ν keeps one of them.
		name: "benign_race",
		spec: vecSpec,
		kernel: `
kernel benign(N)
assume N >= 4
in  a[i] : f32[N + 1] = A(i)
out s[i] : f32[N] = S(i)
{
  par i < N {
    s[i] {S(i)} := a[i] + a[i + 1]
  }
  par k < 2 {
    if k == 0 {
      s[0] {S(0)} := a[0] + a[1]
    } else {
      s[0] {A(0) + A(1)} := a[0] + a[1]
    }
  }
}
`,
		params: []map[string]int64{{"N": 4}, {"N": 5}},
	},
	{
		// An in-place update: the same array is bound in and out.
		name: "in_place",
		spec: `
param N
assume N >= 0
input A(i) : f32
tensor D(i) : f32
D(i) = A(i) * 2
output D
`,
		kernel: `
kernel in_place(N)
assume N >= 0
in  x[i] : f32[N] = A(i)
out x[i] : f32[N] = D(i)
{
  for i < N {
    x[i] {D(i)} := x[i] * 2
  }
}
`,
		params: []map[string]int64{{"N": 0}, {"N": 3}},
	},
	{
		// A zero-dimensional accumulator and a loop with a lower bound.
		name: "scalar_sum",
		spec: `
param N
assume N >= 1
input A(i) : f32
tensor Sum(i) : f32
Sum(i) = 0                  where i == 0
Sum(i) = Sum(i - 1) + A(i)  where 1 <= i < N
tensor T() : f32
T() = Sum(N - 1)
output T
`,
		kernel: `
kernel scalar_sum(N)
assume N >= 1
in  a[i] : f32[N] = A(i)
out r[] : f32[] = T()
{
  r[] {Sum(0)} := 0
  for i in 1 .. N {
    r[] {Sum(i)} := r[] + a[i]
  }
}
`,
		params: []map[string]int64{{"N": 1}, {"N": 2}, {"N": 6}},
	},
	{
		// An out binding with a where clause, a cast of an index and a
		// comparison of indices inside a value.
		name: "where_cast",
		spec: `
param N
assume N >= 2
input A(i) : f32
tensor W(i) : f32
W(i) = A(i) * f32(i) + select(i < N - 1, A(0), A(1))
output W
`,
		kernel: `
kernel where_cast(N)
assume N >= 2
in  a[i] : f32[N] = A(i)
out w[i] : f32[2 * N] = W(i / 2) where i % 2 == 0
{
  for i < N {
    w[2 * i] {A(i) * f32(i) + select(i < N - 1, A(0), A(1))} := a[i] * f32(i) + select(i < N - 1, a[0], a[1])
  }
}
`,
		params: []map[string]int64{{"N": 2}, {"N": 5}},
	},
	{
		// Copies through boundary conditions: a's clamps are kept in the
		// template (clampread.go), b's content runs backwards, so its
		// clamp is case-split.
		name:   "clamped",
		spec:   clampedSpec,
		kernel: clampedKernel,
		params: []map[string]int64{{"N": 2, "L": 0}, {"N": 3, "L": -2}, {"N": 5, "L": 4}},
	},
}

const clampedSpec = `
param N, L
assume N >= 2
input A(i) : f32
input B(i) : f32
tensor E(i) : f32
E(i) = A(max(min(i, L + N - 1), L))
tensor C(i) : f32
C(i) = E(i) + E(i + 1)
tensor D(i) : f32
D(i) = B(N - 1 - max(min(i, N - 1), 0))
output C, D
`

const clampedKernel = `
kernel clamped(N, L)
assume N >= 2
in  a[i] : f32[N] = A(i + L)
in  b[i] : f32[N] = B(N - 1 - i)
out c[i] : f32[N + 4] = C(i + L - 2)
out d[i] : f32[N + 4] = D(i - 2)
{
  for x < N + 4 {
    c[x] {C(x + L - 2)} := a[max(min(x + L - 2, L + N - 1), L) - L] + a[max(min(x + L - 1, L + N - 1), L) - L]
    d[x] {D(x - 2)} := b[max(min(x - 2, N - 1), 0)]
  }
}
`

// TestSmallPairsConcrete compares the prophecy of each small pair above
// with its concrete execution, cell by cell, and evaluates its out cells.
func TestSmallPairsConcrete(t *testing.T) {
	ctx := context.Background()
	cells, outs := 0, 0
	for _, c := range smallPairs {
		t.Run(c.name, func(t *testing.T) {
			p := loadPair(t, c.name+".sare", c.spec, c.name+".sched", c.kernel)
			pr := prophesy(t, p)
			for _, ps := range c.params {
				cells += compareHeap(t, ctx, p, pr, ps)
				outs += checkOutputs(t, ctx, p, pr, ps, 7)
			}
		})
	}
	t.Logf("%d kernels, %d cells compared, %d out cells evaluated", len(smallPairs), cells, outs)
}
