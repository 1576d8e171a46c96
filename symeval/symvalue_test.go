package symeval

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/augur-verify/augur/presburger"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// assignSite is an assignment with the scope it runs in.
type assignSite struct {
	st    *sched.Assign
	scope *Scope
	vars  []string          // loop variables, outermost first
	lets  []*sched.Let      // lets in scope, in order
	param map[string]string // loop variable -> presburger parameter
}

// assignSites lists the assignments of a kernel with their scopes.
func assignSites(t *testing.T, k *sched.Kernel) []assignSite {
	t.Helper()
	var params []string
	for _, p := range k.Params {
		params = append(params, p.Name)
	}
	var out []assignSite
	var walk func(b *sched.Block, s *Scope, vars []string, lets []*sched.Let, pm map[string]string)
	walk = func(b *sched.Block, s *Scope, vars []string, lets []*sched.Let, pm map[string]string) {
		for _, st := range b.Stmts {
			switch st := st.(type) {
			case *sched.Let:
				ns, err := s.Let(context.Background(), st.Var.Name, st.Value)
				if err != nil {
					t.Fatal(err)
				}
				s, lets = ns, append(lets[:len(lets):len(lets)], st)
			case *sched.Assign:
				out = append(out, assignSite{st: st, scope: s, vars: vars, lets: lets, param: pm})
			case *sched.Loop:
				ns, p := s.With(st.Var.Name)
				npm := map[string]string{st.Var.Name: p}
				for k, v := range pm {
					npm[k] = v
				}
				walk(st.Body, ns, append(vars[:len(vars):len(vars)], st.Var.Name), lets, npm)
			case *sched.If:
				walk(st.Then, s, vars, lets, pm)
				if st.Else != nil {
					walk(&sched.Block{Stmts: []sched.Stmt{st.Else}}, s, vars, lets, pm)
				}
			case *sched.Alloc:
				walk(st.Body, s, vars, lets, pm)
			case *sched.Block:
				walk(st, s, vars, lets, pm)
			}
		}
	}
	walk(k.Body, NewScope(params), nil, nil, map[string]string{})
	return out
}

// setPoints enumerates the points of a set without parameters.
func setPoints(ctx context.Context, m *presburger.Map, limit int) ([][]presburger.Int, error) {
	var out [][]presburger.Int
	for {
		pt, err := m.Sample(ctx)
		if err != nil || pt == nil {
			return out, err
		}
		out = append(out, pt)
		if len(out) > limit {
			return nil, fmt.Errorf("more than %d points", limit)
		}
		single := m
		for k, v := range pt {
			if single, err = single.FixDim(presburger.DimOut, k, v); err != nil {
				return nil, err
			}
		}
		if m, err = m.Subtract(ctx, single); err != nil {
			return nil, err
		}
	}
}

// boundPoints binds the parameters of m to vals and returns its points, at
// most limit of them.
func boundPoints(ctx context.Context, m *presburger.Map, vals map[string]presburger.Int, limit int) ([][]int64, error) {
	bm, err := m.BindParams(vals)
	if err != nil {
		return nil, err
	}
	pts, err := setPoints(ctx, bm, limit)
	if err != nil {
		return nil, err
	}
	out := make([][]int64, len(pts))
	for k, pt := range pts {
		out[k] = make([]int64, len(pt))
		for i, v := range pt {
			out[k][i], _ = v.Int64()
		}
	}
	return out, nil
}

// TestEvalInHeap evaluates the right-hand side of every assignment of the
// example and extra kernels in the kernel's final prophetic heap (Fig.
// 5.1), and compares the result, at random points, with the expression
// evaluated concretely in the concrete prophetic memory.
func TestEvalInHeap(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 7))
	points, nonEmpty := 0, 0
	for _, rp := range everyPair(t) {
		p, params := rp.pair, rp.params
		pr := prophesy(t, p)
		mem := concreteMemory(t, p, params)
		for _, site := range assignSites(t, p.kernel) {
			v, err := evalInHeap(ctx, pr.Contexts, p.kinfo.Types, site.scope, pr.Final, site.st.Value)
			if err != nil {
				t.Fatalf("%s: %s: %v", rp.kernelName, syntax.ExprString(site.st.Value), err)
			}
			for n := 0; n < 6; n++ {
				env := copyEnv(mapEnv(params))
				bind := map[string]int64{}
				for k, val := range params {
					bind[k] = val
				}
				for _, x := range site.vars {
					env[x] = int64(r.IntN(8) - 1)
					bind[site.param[x]] = env[x]
				}
				ok := true
				for _, l := range site.lets {
					if env[l.Var.Name], err = expr.EvalIndex(l.Value, env); err != nil {
						ok = false
					}
				}
				if !ok {
					continue
				}
				want, defined, err := concreteValue(site.st.Value, p.kinfo.Types, env, mem)
				if err != nil {
					t.Fatal(err)
				}
				got, err := instantiateValue(ctx, pr.Contexts, v, bind)
				if err != nil {
					t.Fatalf("%s: %s: %v", rp.kernelName, syntax.ExprString(site.st.Value), err)
				}
				points++
				switch {
				case defined == 1 && len(got) == 1 && got[0] == want:
					nonEmpty++
				case defined == 0 && len(got) == 0:
				case defined > 1:
					// A cell with several contents: any combination may come out.
				default:
					t.Fatalf("%s: %s at %v: symbolic %v, concrete %q (%d)", rp.kernelName, syntax.ExprString(site.st.Value), env, got, want, defined)
				}
			}
		}
	}
	t.Logf("%d points, %d with a defined value", points, nonEmpty)
	if nonEmpty == 0 {
		t.Fatal("no defined value was compared")
	}
}

// concreteValue rebuilds e with every array read replaced by the content
// of the cell in mem and every index subexpression by its value. defined
// is 0 if a read cell has no content, 2 if one has several, 1 otherwise.
func concreteValue(e syntax.Expr, info *expr.Info, env mapEnv, mem delta) (string, int, error) {
	defined := 1
	var err error
	out := rebuild(e, func(x syntax.Expr) (syntax.Expr, bool) {
		if ix, ok := x.(*syntax.Index); ok {
			idx := make([]int64, len(ix.Indices))
			for i, a := range ix.Indices {
				if idx[i], err = expr.EvalIndex(a, env); err != nil {
					return x, true
				}
			}
			contents := mem[cellKey(ix.Array.Name, idx)]
			switch len(contents) {
			case 0:
				defined = 0
				return x, true
			case 1:
			default:
				if defined == 1 {
					defined = 2
				}
			}
			for s := range contents {
				parsed, perr := syntax.ParseExprString(s)
				if perr != nil {
					err = perr
				}
				return parsed, true
			}
		}
		if _, typed := info.Types[x]; typed || isConstraintNode(x) {
			return nil, false
		}
		s, ierr := instantiate(x, info, env)
		if ierr != nil {
			err = ierr
		}
		parsed, perr := syntax.ParseExprString(s)
		if perr != nil {
			err = perr
		}
		return parsed, true
	}, nil)
	return syntax.ExprString(out), defined, err
}

// instantiateValue binds the parameters of a symbolic value and prints
// every expression it denotes.
func instantiateValue(ctx context.Context, cs *Contexts, v *presburger.UnionMap, bind map[string]int64) ([]string, error) {
	var out []string
	for _, m := range v.Maps() {
		vals := map[string]presburger.Int{}
		for _, p := range m.Space().Params {
			b, ok := bind[p]
			if !ok {
				return nil, fmt.Errorf("no value for %s", p)
			}
			vals[p] = presburger.NewInt(b)
		}
		pts, err := boundPoints(ctx, m, vals, 16)
		if err != nil {
			return nil, err
		}
		c := cs.Lookup(m.Space().Out.Name)
		for _, holes := range pts {
			e, err := c.Fill(holes)
			if err != nil {
				return nil, err
			}
			out = append(out, syntax.ExprString(e))
		}
	}
	return out, nil
}

// TestReads checks reads(e) on the matrix product's accumulation.
func TestReads(t *testing.T) {
	ctx := context.Background()
	s := NewScope([]string{"N", "M", "P"})
	s, _ = s.With("i")
	s, _ = s.With("j")
	s, _ = s.With("k")
	got, err := reads(ctx, s, mustExpr(t, "c[i, j] + a[i, k] * b[k, j]"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := presburger.ParseUnionMap("[N, M, P, i, j, k] -> { c[i, j]; a[i, k]; b[k, j] }")
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := got.IsEqual(ctx, want); err != nil || !eq {
		t.Fatalf("reads = %s, want %s (%v)", got, want, err)
	}
}

// TestEvalInHeapFusion checks the symbolic value of the blur's vertical
// stage: the three reads of the local buffer share their column hole.
func TestEvalInHeapFusion(t *testing.T) {
	ctx := context.Background()
	p := loadPair(t, "blur.sare", readFile(t, "../examples/blur/blur.sare"), "blur.sched", readFile(t, "../examples/blur/blur.sched"))
	pr := prophesy(t, p)
	s := NewScope([]string{"W", "H"})
	s, _ = s.With("y")
	s, _ = s.With("dy")
	s, _ = s.With("x")
	v, err := evalInHeap(ctx, pr.Contexts, p.kinfo.Types, s, pr.Final, mustValue(t, p, "input[x, y + dy] + input[x + 1, y + dy] + input[x + 2, y + dy]"))
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Maps()) != 1 {
		t.Fatalf("%d components: %s", len(v.Maps()), v)
	}
	c := pr.Contexts.Lookup(v.Maps()[0].Space().Out.Name)
	if got := c.String(); got != "In(□1, □2) + In(□3, □2) + In(□4, □2)" {
		t.Errorf("context %s", got)
	}
}

// mustValue returns the right-hand side of the kernel's assignment whose
// value prints as text.
func mustValue(t *testing.T, p *pair, text string) syntax.Expr {
	t.Helper()
	var found syntax.Expr
	sched.Walk(p.kernel.Body, func(s sched.Stmt) bool {
		if a, ok := s.(*sched.Assign); ok && found == nil {
			if syntax.ExprString(a.Value) == text {
				found = a.Value
			}
		}
		return true
	})
	if found == nil {
		t.Fatalf("no assignment of %s", text)
	}
	return found
}

// TestDropColumn checks that fusing holes keeps its samples as the
// projections of the old ones.
func TestDropColumn(t *testing.T) {
	pt := func(xs ...int64) []presburger.Int {
		out := make([]presburger.Int, len(xs))
		for i, x := range xs {
			out[i] = presburger.NewInt(x)
		}
		return out
	}
	got := dropColumn([][]presburger.Int{pt(1, 2, 3), pt(4, 5, 6), pt(7)}, 1)
	want := [][]presburger.Int{pt(1, 3), pt(4, 6)}
	if len(got) != len(want) {
		t.Fatalf("got %d points, want %d", len(got), len(want))
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("point %d: got %v, want %v", i, got[i], want[i])
		}
		for k := range want[i] {
			if got[i][k].Cmp(want[i][k]) != 0 {
				t.Fatalf("point %d: got %v, want %v", i, got[i], want[i])
			}
		}
	}
}
