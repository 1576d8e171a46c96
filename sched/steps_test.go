package sched

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/syntax"
)

// stepsKernel has every statement that counts steps: lets, ifs with an
// else if chain, a local array, sequential loops with a lower bound, par
// loops, and two in bindings of one array with where clauses.
const stepsKernel = `kernel k(N, M)
assume N >= 1 and M >= 1
in  a[i] : f32[N] = A(i)
in  b[j] : f32[M] = B(j)
in  c[i, j] : f32[N, M] = C(i, j) where j == 0
in  c[i, j] : f32[N, M] = C(i, j) where j >= 1 and i >= N
out c[i, j] : f32[N, M] = C(i, j)
{
  par i < N {
    alloc t : f32[] {
      t[] {A(i)} := a[i]
      for j in 1 .. M {
        let jj = j
        if jj == 1 {
          c[i, jj] {C(i, jj)} := t[] * b[jj]
        } else if jj < 3 {
          c[i, jj] {C(i, jj)} := b[jj] * t[]
        } else {
          c[i, jj] {C(i, jj)} := t[] * b[jj]
        }
      }
    }
  }
}
`

// triangleKernel has loops whose iterations take different steps (a
// bound read through a let of the outer variable) and loops whose
// iterations all take the same (counted once, times the iterations).
const triangleKernel = `kernel k(N, M)
assume N >= 1 and M >= 1
in  a[i] : f32[N] = A(i)
in  b[j] : f32[M] = B(j)
out c[i, j] : f32[N, M] = C(i, j)
{
  par i < N {
    let m = min(i + 1, M)
    for j < m {
      for r < 2 {
        c[i, j] {C(i, j)} := a[i] * b[j]
      }
    }
    for j in m .. M {
      if i >= 1 {
        c[i, j] {C(i, j)} := b[j] * a[i]
      } else {
        c[i, j] {C(i, j)} := a[i] * b[j]
      }
    }
  }
}
`

// Steps counts exactly the steps of a run that does not fail, and tells
// when a run needs more than the limit.
func TestStepsMatchRun(t *testing.T) {
	matmul, err := os.ReadFile("testdata/matmul.sched")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, spec, kernel string
		params             map[string]int64
	}{
		{"matmul", matmulSpecText(t), string(matmul), map[string]int64{"N": 3, "M": 4, "P": 5}},
		{"matmul P=0", matmulSpecText(t), string(matmul), map[string]int64{"N": 2, "M": 3, "P": 0}},
		{"branches", outerSpec, stepsKernel, map[string]int64{"N": 3, "M": 5}},
		{"one column", outerSpec, stepsKernel, map[string]int64{"N": 2, "M": 1}},
		{"triangles", outerSpec, triangleKernel, map[string]int64{"N": 5, "M": 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			spec, sinfo, err := sare.Load(&syntax.Source{Name: "s.sare", Text: c.spec})
			if err != nil {
				t.Fatal(err)
			}
			k := mustParse(t, c.kernel)
			info, errs := Check(k, spec)
			if len(errs) > 0 {
				t.Fatalf("check:\n%s", errs.Detail())
			}
			ev, err := sare.NewEvaluator(spec, sinfo, c.params, sare.RandomInputs(1))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Run(context.Background(), k, info, ev, Options{})
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			n, err := Steps(k, info, c.params, 1<<40)
			if err != nil || n != res.Steps {
				t.Fatalf("Steps = %d, %v; the run took %d", n, err, res.Steps)
			}
			if n, err := Steps(k, info, c.params, res.Steps); err != nil || n != res.Steps {
				t.Errorf("Steps with the limit at the run's steps = %d, %v; want %d", n, err, res.Steps)
			}
			if n, err := Steps(k, info, c.params, res.Steps-1); err != nil || n <= res.Steps-1 {
				t.Errorf("Steps with the limit one below the run's = %d, %v; want more than the limit", n, err)
			}
			// A run with a budget below the count cannot finish.
			ev, _ = sare.NewEvaluator(spec, sinfo, c.params, sare.RandomInputs(1))
			if _, err := Run(context.Background(), k, info, ev, Options{MaxSteps: res.Steps - 1}); err == nil {
				t.Errorf("a run within %d steps finished", res.Steps-1)
			}
		})
	}
}

// The count stops at the limit, however large the loops.
func TestStepsLimit(t *testing.T) {
	k, info := checkedMatmul(t)
	big := int64(1) << 40
	n, err := Steps(k, info, map[string]int64{"N": big, "M": big, "P": big}, 1000)
	if err != nil || n <= 1000 || n > 1000+big {
		t.Errorf("Steps = %d, %v; want past the limit of 1000, by at most one binding", n, err)
	}
	if _, err := Steps(k, info, map[string]int64{"N": 2, "M": 2}, 1000); err == nil {
		t.Error("Steps without a value for P: no error")
	}
}

// checkedMatmul returns testdata/matmul.sched checked against the
// matmul specification.
func checkedMatmul(t *testing.T) (*Kernel, *Info) {
	t.Helper()
	spec, _, err := sare.Load(&syntax.Source{Name: "s.sare", Text: matmulSpecText(t)})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/matmul.sched")
	if err != nil {
		t.Fatal(err)
	}
	k := mustParse(t, string(data))
	info, errs := Check(k, spec)
	if len(errs) > 0 {
		t.Fatalf("check:\n%s", errs.Detail())
	}
	return k, info
}

// firstAssign returns the first assignment of b in program order.
func firstAssign(b *Block) *Assign {
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *Assign:
			return s
		case *Loop:
			if a := firstAssign(s.Body); a != nil {
				return a
			}
		case *Alloc:
			if a := firstAssign(s.Body); a != nil {
				return a
			}
		case *Block:
			if a := firstAssign(s); a != nil {
				return a
			}
		}
	}
	return nil
}

// StepsTo counts the steps a run needs to report a failure of one
// execution of a statement: exactly, so that a run with one step less
// cannot report it, whether par loops finish their later iterations
// before reporting (nested or around a sequential loop) or not.
func TestStepsToFailure(t *testing.T) {
	const head = `kernel k(N, M)
assume N >= 1 and M >= 1
in  a[i] : f32[N] = A(i) where i != 2
in  b[j] : f32[M] = B(j)
out c[i, j] : f32[N, M] = C(i, j)
{
`
	params := map[string]int64{"N": 5, "M": 4}
	for _, c := range []struct{ name, body string }{
		{"par par", "par i < N {\n par j < M {\n c[i, j] {C(i, j)} := a[i] * b[j]\n }\n }\n"},
		{"par for", "par i < N {\n for j < M {\n c[i, j] {C(i, j)} := a[i] * b[j]\n }\n }\n"},
		{"for for", "for i < N {\n for j < M {\n c[i, j] {C(i, j)} := a[i] * b[j]\n }\n }\n"},
		{"for par", "for i < N {\n let x = i\n par j < M {\n c[x, j] {C(x, j)} := a[x] * b[j]\n }\n }\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			spec, sinfo, err := sare.Load(&syntax.Source{Name: "s.sare", Text: outerSpec})
			if err != nil {
				t.Fatal(err)
			}
			k := mustParse(t, head+c.body+"}\n")
			info, errs := Check(k, spec)
			if len(errs) > 0 {
				t.Fatalf("check:\n%s", errs.Detail())
			}
			target := firstAssign(k.Body)
			n, reached, err := StepsTo(k, info, params, target, []Var{{Name: "i", Value: 2}, {Name: "j", Value: 0}}, 1<<40)
			if err != nil || !reached {
				t.Fatalf("StepsTo = %d, %v, %v; want the point reached", n, reached, err)
			}
			runWith := func(steps int64) error {
				ev, err := sare.NewEvaluator(spec, sinfo, params, sare.RandomInputs(1))
				if err != nil {
					t.Fatal(err)
				}
				_, err = Run(context.Background(), k, info, ev, Options{MaxSteps: steps})
				return err
			}
			wantFailure(t, runWith(n), UndefinedRead, "")
			if err := runWith(n - 1); !errors.Is(err, ErrBudget) {
				t.Errorf("a run within %d steps: %v; want the budget exhausted", n-1, err)
			}
			if m, reached, err := StepsTo(k, info, params, target, []Var{{Name: "i", Value: 2}, {Name: "j", Value: 0}}, n-1); err != nil || reached || m <= n-1 {
				t.Errorf("StepsTo with the limit one below = %d, %v, %v; want past the limit", m, reached, err)
			}
			// A point the run never reaches: the count of the whole run.
			total, err := Steps(k, info, params, 1<<40)
			if err != nil {
				t.Fatal(err)
			}
			if m, reached, err := StepsTo(k, info, params, target, []Var{{Name: "i", Value: 7}, {Name: "j", Value: 0}}, 1<<40); err != nil || reached || m != total {
				t.Errorf("StepsTo past the loops = %d, %v, %v; want %d, not reached", m, reached, err, total)
			}
		})
	}
}

// Loops whose iterations all take the same steps are counted once, times
// their iterations: a count of 2^58 steps is exact, and immediate.
func TestStepsUniformLoops(t *testing.T) {
	k, info := checkedMatmul(t)
	n, m, p := int64(1)<<19, int64(1)<<19, int64(1)<<19
	// In cells, then par i (one step, one per iteration) around for j
	// (one step, one per iteration: the initialisation, for k and P
	// accumulations), then the out cells.
	want := n*p + p*m + 1 + n*(1+1+m*(1+1+1+2*p)) + n*m
	got, err := Steps(k, info, map[string]int64{"N": n, "M": m, "P": p}, 1<<62)
	if err != nil || got != want {
		t.Errorf("Steps = %d, %v; want %d", got, err, want)
	}
}
