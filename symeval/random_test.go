package symeval

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/augur-verify/augur/presburger"
)

// Random kernels: well-typed but arbitrary (wrong annotations, reads and
// writes out of bounds, races), whose prophetic heaps are compared with
// the concrete prophetic run. Values are never computed: only the shape of
// the writes and reads matters here.

// randomKernels is the number of random kernels TestRandomKernels tries;
// go test -run RandomKernels -args -random-kernels=200 tries more.
var randomKernels = flag.Int("random-kernels", 10, "number of random kernels of TestRandomKernels")

const randomSpec = `
param N
assume N >= 1
input A(i) : f32
input B(i, j) : f32
tensor C(i) : f32
C(i) = A(i)
output C
`

type kernelGen struct {
	r      *rand.Rand
	b      strings.Builder
	vars   []string // index names in scope
	fresh  int
	arrays []string // local arrays in scope (rank 1, extent 4)
}

func (g *kernelGen) name(prefix string) string {
	g.fresh++
	return fmt.Sprintf("%s%d", prefix, g.fresh)
}

// index returns a random quasi-affine expression over the names in scope.
func (g *kernelGen) index(depth int) string {
	r := g.r
	leaf := func() string {
		if r.IntN(3) == 0 || len(g.vars) == 0 {
			return fmt.Sprint(r.IntN(5) - 1)
		}
		return g.vars[r.IntN(len(g.vars))]
	}
	if depth <= 0 || r.IntN(2) == 0 {
		return leaf()
	}
	a, b := g.index(depth-1), g.index(depth-1)
	switch r.IntN(7) {
	case 0:
		return "(" + a + " + " + b + ")"
	case 1:
		return "(" + a + " - " + b + ")"
	case 2:
		return fmt.Sprintf("(%s / %d)", a, r.IntN(3)+2)
	case 3:
		return fmt.Sprintf("(%s %% %d)", a, r.IntN(3)+2)
	case 4:
		return "min(" + a + ", " + b + ")"
	case 5:
		return "max(" + a + ", " + b + ")"
	default:
		return fmt.Sprintf("select(%s < %s, %s, %s)", a, b, g.index(0), g.index(0))
	}
}

func (g *kernelGen) cond() string {
	ops := []string{"==", "!=", "<", "<=", ">", ">="}
	c := fmt.Sprintf("%s %s %s", g.index(1), ops[g.r.IntN(6)], g.index(1))
	switch g.r.IntN(4) {
	case 0:
		return c + " and " + g.index(0) + " >= 1"
	case 1:
		return "not (" + c + ") or " + g.index(0) + " == 2"
	}
	return c
}

func (g *kernelGen) line(depth int, format string, args ...any) {
	g.b.WriteString(strings.Repeat("  ", depth+1))
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteString("\n")
}

func (g *kernelGen) annot() string {
	switch g.r.IntN(4) {
	case 0:
		return fmt.Sprintf("B(%s, %s)", g.index(1), g.index(1))
	case 1:
		return fmt.Sprintf("A(%s) * B(%s, %s)", g.index(1), g.index(1), g.index(1))
	case 2:
		return "0"
	}
	return fmt.Sprintf("A(%s)", g.index(1))
}

// value returns a random right-hand side reading the arrays in scope.
func (g *kernelGen) value() string {
	switch g.r.IntN(4) {
	case 0:
		return "0"
	case 1:
		return fmt.Sprintf("c[%s] * 2", g.index(1))
	case 2:
		return fmt.Sprintf("q[%s, %s] + c[%s]", g.index(1), g.index(1), g.index(1))
	}
	if len(g.arrays) > 0 {
		return fmt.Sprintf("%s[%s] + a[%s]", g.arrays[g.r.IntN(len(g.arrays))], g.index(1), g.index(1))
	}
	return fmt.Sprintf("a[%s]", g.index(1))
}

func (g *kernelGen) block(depth, budget int) {
	n := 1 + g.r.IntN(3)
	mark, amark := len(g.vars), len(g.arrays)
	for i := 0; i < n; i++ {
		g.stmt(depth, budget)
	}
	g.vars, g.arrays = g.vars[:mark], g.arrays[:amark]
}

func (g *kernelGen) stmt(depth, budget int) {
	r := g.r
	k := r.IntN(10)
	if budget <= 0 {
		k = r.IntN(3)
	}
	switch {
	case k <= 2:
		targets := append([]string{"c", "q"}, g.arrays...)
		a := targets[r.IntN(len(targets))]
		idx := g.index(2)
		if a == "q" {
			idx += ", " + g.index(2)
		}
		g.line(depth, "%s[%s] {%s} := %s", a, idx, g.annot(), g.value())
	case k == 3:
		v := g.name("t")
		g.line(depth, "let %s = %s", v, g.index(2))
		g.vars = append(g.vars, v)
	case k == 4:
		g.line(depth, "if %s {", g.cond())
		g.block(depth+1, budget-1)
		if r.IntN(2) == 0 {
			g.line(depth, "} else {")
			g.block(depth+1, budget-1)
		}
		g.line(depth, "}")
	case k == 5:
		a := g.name("l")
		g.line(depth, "alloc %s : f32[4] {", a)
		g.arrays = append(g.arrays, a)
		g.block(depth+1, budget-1)
		g.arrays = g.arrays[:len(g.arrays)-1]
		g.line(depth, "}")
	default:
		v := g.name("v")
		kw := "for"
		if r.IntN(2) == 0 {
			kw = "par"
		}
		bound := []string{"N", "3", "N - 1", "(N + 1) / 2", "min(N, 2)"}[r.IntN(5)]
		if len(g.vars) > 0 && r.IntN(3) == 0 {
			bound = g.vars[r.IntN(len(g.vars))] + " + 1"
		}
		if r.IntN(4) == 0 {
			g.line(depth, "%s %s in %s .. %s {", kw, v, g.index(1), bound)
		} else {
			g.line(depth, "%s %s < %s {", kw, v, bound)
		}
		g.vars = append(g.vars, v)
		g.block(depth+1, budget-1)
		g.vars = g.vars[:len(g.vars)-1]
		g.line(depth, "}")
	}
}

func randomKernel(seed uint64) string {
	g := &kernelGen{r: rand.New(rand.NewPCG(seed, 99)), vars: []string{"N"}}
	g.b.WriteString(`kernel random(N)
assume N >= 1
in  a[i] : f32[N] = A(i)
in  q[i, j] : f32[4, N] = B(i, j) where i <= j + 1
out c[i] : f32[N] = C(i)
{
`)
	g.block(0, 3)
	g.b.WriteString("}\n")
	return g.b.String()
}

// TestRandomKernels compares the prophetic heaps of random kernels with
// the concrete prophetic run at N = 1 ... 4.
func TestRandomKernels(t *testing.T) {
	ctx := context.Background()
	n := *randomKernels
	if testing.Short() {
		n = min(n, 8)
	}
	// Racy random kernels can make ν costly; a small budget keeps the
	// test fast and deterministic, and kernels out of budget are counted.
	opts := Options{Budget: presburger.Budget{MaxSteps: 200_000}}
	cells, budget := 0, 0
	for seed := uint64(0); seed < uint64(n); seed++ {
		text := randomKernel(seed)
		p := loadPair(t, "random.sare", randomSpec, fmt.Sprintf("random%d.sched", seed), text)
		pr, err := Prophesy(ctx, p.kernel, p.kinfo, p.spec, opts)
		if errors.Is(err, presburger.ErrBudget) {
			budget++
			t.Logf("seed %d: %v", seed, err)
			continue
		}
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, text)
		}
		for _, nv := range []int64{1, 3} {
			func() {
				defer func() {
					if t.Failed() {
						t.Logf("kernel (seed %d):\n%s", seed, text)
					}
				}()
				cells += compareHeap(t, ctx, p, pr, map[string]int64{"N": nv})
			}()
		}
	}
	t.Logf("%d random kernels, %d cells compared, %d out of budget", n, cells, budget)
}
