package sched

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// benchKernel is a tiled matrix product with lets in its loop nests, as
// a compiler's lowered code has: index variables of long names looked up
// at every depth, past two dozen lets whose names have the length of
// theirs, the parameters past all of them.
const benchKernel = `kernel matmul(N, M, P)
assume N >= 1 and M >= 1 and P >= 0 and N % 8 == 0 and M % 8 == 0
in  a[i, k] : f32[N, P] = A(i, k)
in  b[k, j] : f32[P, M] = B(k, j)
out c[i, j] : f32[N, M] = C(i, j)
{
  par matmul_s0_i_io < N / 8 {
    let matmul_s0_i_base = 8 * matmul_s0_i_io
    let matmul_s0_i_extent = min(N - matmul_s0_i_base, 8)
    let matmul_s0_unused_00 = matmul_s0_i_io + 0
    let matmul_s0_unused_01 = matmul_s0_i_io + 1
    let matmul_s0_unused_02 = matmul_s0_i_io + 2
    let matmul_s0_unused_03 = matmul_s0_i_io + 3
    let matmul_s0_unused_04 = matmul_s0_i_io + 4
    let matmul_s0_unused_05 = matmul_s0_i_io + 5
    let matmul_s0_unused_06 = matmul_s0_i_io + 6
    let matmul_s0_unused_07 = matmul_s0_i_io + 7
    let matmul_s0_unused_08 = matmul_s0_i_io + 8
    let matmul_s0_unused_09 = matmul_s0_i_io + 9
    let matmul_s0_unused_10 = matmul_s0_i_io + 10
    let matmul_s0_unused_11 = matmul_s0_i_io + 11
    let matmul_s0_unused_12 = matmul_s0_i_io + 12
    let matmul_s0_unused_13 = matmul_s0_i_io + 13
    let matmul_s0_unused_14 = matmul_s0_i_io + 14
    let matmul_s0_unused_15 = matmul_s0_i_io + 15
    let matmul_s0_unused_16 = matmul_s0_i_io + 16
    let matmul_s0_unused_17 = matmul_s0_i_io + 17
    let matmul_s0_unused_18 = matmul_s0_i_io + 18
    let matmul_s0_unused_19 = matmul_s0_i_io + 19
    let matmul_s0_unused_20 = matmul_s0_i_io + 20
    let matmul_s0_unused_21 = matmul_s0_i_io + 21
    let matmul_s0_unused_22 = matmul_s0_i_io + 22
    let matmul_s0_unused_23 = matmul_s0_i_io + 23
    for matmul_s0_j_jo < M / 8 {
      let matmul_s0_j_base = 8 * matmul_s0_j_jo
      let matmul_s0_j_extent = min(M - matmul_s0_j_base, 8)
      for matmul_s0_i_ii < matmul_s0_i_extent {
        let matmul_s0_i = matmul_s0_i_base + matmul_s0_i_ii
        for matmul_s0_j_ji < matmul_s0_j_extent {
          let matmul_s0_j = matmul_s0_j_base + matmul_s0_j_ji
          c[matmul_s0_i, matmul_s0_j] {R(matmul_s0_i, matmul_s0_j, -1)} := 0
          for matmul_s1_k < P {
            let matmul_s1_k_clamped = min(max(matmul_s1_k, 0), P - 1)
            c[matmul_s0_i, matmul_s0_j] {R(matmul_s0_i, matmul_s0_j, matmul_s1_k_clamped)} := c[matmul_s0_i, matmul_s0_j] + a[matmul_s0_i, matmul_s1_k_clamped] * b[matmul_s1_k_clamped, matmul_s0_j]
          }
        }
      }
    }
  }
}
`

// BenchmarkRunLets runs benchKernel on 16x16x16 matrices against one
// evaluator of the specification, whose elements the first run computes:
// the later runs measure the interpreter.
func BenchmarkRunLets(b *testing.B) {
	spec, sinfo := loadMatmul(b)
	k, errs := Parse(&syntax.Source{Name: "k.sched", Text: benchKernel})
	if len(errs) > 0 {
		b.Fatal(errs.Detail())
	}
	info, errs := Check(k, spec)
	if len(errs) > 0 {
		b.Fatal(errs.Detail())
	}
	params := map[string]int64{"N": 16, "M": 16, "P": 16}
	ev, err := sare.NewEvaluator(spec, sinfo, params, sare.RandomInputs(1))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Run(context.Background(), k, info, ev, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIndexLookup evaluates an index expression over the innermost
// variables of a scope of 32, each name of one length, and over
// parameters: looked up by name (expr.Env.Index), and by node
// (expr.IdentEnv, as the interpreter does).
func BenchmarkIndexLookup(b *testing.B) {
	sc := &indexScope{params: map[string]int64{}}
	var terms []string
	for i := range 32 {
		name := fmt.Sprintf("f_s0_v%02d", i)
		sc.vars = append(sc.vars, Var{Name: name, Value: int64(i)})
		if i >= 28 {
			terms = append(terms, name)
		}
	}
	for i := range 16 {
		name := fmt.Sprintf("f_p_%04d", i)
		sc.params[name] = int64(i)
		if i%4 == 0 {
			terms = append(terms, name)
		}
	}
	x, err := syntax.ParseExprString(strings.Join(terms, " + "))
	if err != nil {
		b.Fatal(err)
	}
	for _, bench := range []struct {
		name string
		env  expr.Env
	}{{"name", byName{sc}}, {"node", byNode{byName{sc}}}} {
		b.Run(bench.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := expr.EvalIndex(x, bench.env); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// byName looks the names of an indexScope up by name only.
type byName struct{ sc *indexScope }

func (e byName) Index(name string) (int64, bool) { return e.sc.Index(name) }
func (e byName) Tensor(name string, _ []int64) (value.Value, error) {
	return value.Value{}, fmt.Errorf("tensor %s", name)
}
func (e byName) Array(name string, idx []int64) (value.Value, error) { return e.sc.Array(name, idx) }

// byNode looks them up by node too.
type byNode struct{ byName }

func (e byNode) IndexIdent(id *syntax.Ident) (int64, bool) { return e.sc.IndexIdent(id) }
