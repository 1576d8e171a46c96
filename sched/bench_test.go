package sched

import (
	"context"
	"os"
	"testing"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/syntax"
)

// benchKernel is a tiled matrix product with lets in its loop nests, as
// a compiler's code has: index variables looked up at every depth, the
// parameters past all of them.
const benchKernel = `kernel matmul(N, M, P)
assume N >= 1 and M >= 1 and P >= 0 and N % 8 == 0 and M % 8 == 0
in  a[i, k] : f32[N, P] = A(i, k)
in  b[k, j] : f32[P, M] = B(k, j)
out c[i, j] : f32[N, M] = C(i, j)
{
  par io < N / 8 {
    for jo < M / 8 {
      let ibase = 8 * io
      let jbase = 8 * jo
      for ii < 8 {
        let i = ibase + ii
        for ji < 8 {
          let j = jbase + ji
          c[i, j] {R(i, j, -1)} := 0
          for k < P {
            let kk = k
            c[i, j] {R(i, j, kk)} := c[i, j] + a[i, kk] * b[kk, j]
          }
        }
      }
    }
  }
}
`

// BenchmarkRunLets runs benchKernel on 16x16x16 matrices, its
// specification's evaluator made anew for each run.
func BenchmarkRunLets(b *testing.B) {
	data, err := os.ReadFile("testdata/matmul.sare")
	if err != nil {
		b.Fatal(err)
	}
	spec, sinfo, err := sare.Load(&syntax.Source{Name: "matmul.sare", Text: string(data)})
	if err != nil {
		b.Fatal(err)
	}
	k, errs := Parse(&syntax.Source{Name: "k.sched", Text: benchKernel})
	if len(errs) > 0 {
		b.Fatal(errs.Detail())
	}
	info, errs := Check(k, spec)
	if len(errs) > 0 {
		b.Fatal(errs.Detail())
	}
	params := map[string]int64{"N": 16, "M": 16, "P": 16}
	for b.Loop() {
		ev, err := sare.NewEvaluator(spec, sinfo, params, sare.RandomInputs(1))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Run(context.Background(), k, info, ev, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
