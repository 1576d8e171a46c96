package atl

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// paramsNear returns values of the parameters, each in [1, 9], that
// satisfy the assumptions and are as close to size as possible.
func paramsNear(t *testing.T, c *Checked, size int64) map[string]int64 {
	t.Helper()
	var best map[string]int64
	bestDist := int64(-1)
	cur := map[string]int64{}
	var try func(i int)
	try = func(i int) {
		if i == len(c.params) {
			for _, a := range c.assumes {
				if ok, err := a.eval(cur); err != nil || !ok {
					return
				}
			}
			d := int64(0)
			for _, v := range cur {
				d += (v - size) * (v - size)
			}
			if bestDist < 0 || d < bestDist {
				bestDist, best = d, map[string]int64{}
				for k, v := range cur {
					best[k] = v
				}
			}
			return
		}
		for v := int64(1); v <= 9; v++ {
			cur[c.params[i]] = v
			try(i + 1)
		}
	}
	try(0)
	if best == nil {
		t.Fatalf("no parameter values in [1, 9] satisfy the assumptions")
	}
	return best
}

func close32(a, b float64) bool {
	return math.Abs(a-b) <= 1e-3*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// TestSemanticsAgree checks, on every example that validates, at two
// sizes: the generated kernel runs clean under augur run's interpreter
// against the generated specification (every annotation and output
// cell), and ATL's reference semantics (of the def and of the schedule)
// gives the specification's values.
func TestSemanticsAgree(t *testing.T) {
	files, _ := filepath.Glob("../../examples/atl/*.atl")
	corpus, _ := filepath.Glob("testdata/corpus/*.atl")
	files = append(files, corpus...)
	ctx := context.Background()
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains("\n"+string(data), "\n# expect: VALID") {
			continue
		}
		t.Run(strings.TrimSuffix(filepath.Base(file), ".atl"), func(t *testing.T) {
			src := &syntax.Source{Name: file, Text: string(data)}
			res, err := Compile(ctx, src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			spec, sinfo, err := sare.Load(&syntax.Source{Name: "spec.sare", Text: res.Spec})
			if err != nil {
				t.Fatal(err)
			}
			kernel, kinfo, err := sched.Load(&syntax.Source{Name: "prog.sched", Text: res.Kernels[0].Text}, spec)
			if err != nil {
				t.Fatal(err)
			}
			for _, size := range []int64{3, 7} {
				params := paramsNear(t, res.Checked, size)
				ev, err := sare.NewEvaluator(spec, sinfo, params, sare.RandomInputs(uint64(size)))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := sched.Run(ctx, kernel, kinfo, ev, sched.Options{Tolerance: 1e-4}); err != nil {
					t.Fatalf("%v: augur run: %v", params, err)
				}
				in := func(name string, idx []int64) float64 {
					v, err := ev.Eval(ctx, name, idx)
					if err != nil {
						t.Fatal(err)
					}
					return v.Float64()
				}
				for _, sched := range []bool{false, true} {
					eval := res.Checked.Eval
					if sched {
						eval = res.Checked.EvalSchedule
					}
					got, err := eval(ctx, params, in)
					if err != nil {
						t.Fatalf("%v: %v", params, err)
					}
					forEachIndex(got.Shape, func(off int, idx []int64) {
						want, err := ev.Eval(ctx, res.Name, idx)
						if err != nil {
							t.Fatal(err)
						}
						if !close32(got.Data[off], want.Float64()) {
							t.Fatalf("%v (schedule %v): ATL gives %s%v = %g, the specification %g", params, sched, res.Name, idx, got.Data[off], want.Float64())
						}
					})
				}
			}
		})
	}
}

func forEachIndex(shape []int64, f func(off int, idx []int64)) {
	idx := make([]int64, len(shape))
	n := int(size(shape))
	for off := 0; off < n; off++ {
		rem := int64(off)
		for d := len(shape) - 1; d >= 0; d-- {
			idx[d] = rem % shape[d]
			rem /= shape[d]
		}
		f(off, append([]int64(nil), idx...))
	}
}
