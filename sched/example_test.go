package sched_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// The whole pipeline: load a specification, parse and check a kernel
// against it, then run the kernel on random inputs. This kernel
// parallelises a reduction, which races.
func ExampleRun() {
	spec, specInfo, err := sare.Load(&syntax.Source{Name: "dot.sare", Text: `
param N
input A(i) : i32
input B(i) : i32
tensor S(k) : i32
S(k) = 0 where k == -1
S(k) = S(k - 1) + A(k) * B(k) where 0 <= k < N
tensor D() : i32
D() = S(N - 1)
output D
`})
	if err != nil {
		fmt.Println(err)
		return
	}
	k, errs := sched.Parse(&syntax.Source{Name: "dot.sched", Text: `kernel dot(N)
in  a[i] : i32[N] = A(i)
in  b[i] : i32[N] = B(i)
out d[] : i32[] = D()
{
  d[] {S(-1)} := 0
  par k < N {
    d[] {S(k)} := d[] + a[k] * b[k]
  }
}
`})
	if len(errs) > 0 {
		fmt.Println(errs.Detail())
		return
	}
	info, errs := sched.Check(k, spec)
	if len(errs) > 0 {
		fmt.Println(errs.Detail())
		return
	}
	ev, err := sare.NewEvaluator(spec, specInfo, map[string]int64{"N": 4}, sare.RandomInputs(1))
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = sched.Run(context.Background(), k, info, ev, sched.Options{})
	var f *sched.Failure
	if errors.As(err, &f) {
		fmt.Println(f.Kind, f.LoopVar, f.Iters, f.Cell())
		fmt.Println(f.Detail())
	}
	// Output:
	// read-write race k [0 1] d[]
	// dot.sched:7:3: read-write race: iteration k=0 writes d[] (d[] {S(k)} := d[] + a[k] * b[k], at 8:5) and iteration k=1 reads it (d[] {S(k)} := d[] + a[k] * b[k], at 8:5)
	//       par k < N {
	//       ^
}
