package symeval

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// raceRun runs a kernel concretely, recording written and read cells, and
// reports every execution of a par loop with whether two of its
// iterations race (one writes a cell another reads).
type raceRun struct {
	steps int
	at    func(l *sched.Loop, env mapEnv, raced bool) error
}

type cells map[string]bool

func (r *raceRun) block(b *sched.Block, env mapEnv) (w, rd cells, err error) {
	env = copyEnv(env)
	w, rd = cells{}, cells{}
	for _, s := range b.Stmts {
		if l, ok := s.(*sched.Let); ok {
			v, err := expr.EvalIndex(l.Value, env)
			if err != nil {
				return nil, nil, err
			}
			env[l.Var.Name] = v
			continue
		}
		sw, sr, err := r.stmt(s, env)
		if err != nil {
			return nil, nil, err
		}
		for k := range sw {
			w[k] = true
		}
		for k := range sr {
			rd[k] = true
		}
	}
	return w, rd, nil
}

func (r *raceRun) stmt(s sched.Stmt, env mapEnv) (w, rd cells, err error) {
	if r.steps++; r.steps > 500_000 {
		return nil, nil, fmt.Errorf("too many steps")
	}
	switch s := s.(type) {
	case *sched.Skip:
		return cells{}, cells{}, nil
	case *sched.Block:
		return r.block(s, env)
	case *sched.Assign:
		rd = cells{}
		var ierr error
		syntax.Inspect(s.Value, func(x syntax.Expr) bool {
			if ix, ok := x.(*syntax.Index); ok {
				idx := make([]int64, len(ix.Indices))
				for i, a := range ix.Indices {
					if idx[i], err = expr.EvalIndex(a, env); err != nil {
						ierr = err
					}
				}
				rd[cellKey(ix.Array.Name, idx)] = true
			}
			return true
		})
		if ierr != nil {
			return nil, nil, ierr
		}
		idx := make([]int64, len(s.Indices))
		for i, a := range s.Indices {
			if idx[i], err = expr.EvalIndex(a, env); err != nil {
				return nil, nil, err
			}
		}
		return cells{cellKey(s.Array.Name, idx): true}, rd, nil
	case *sched.If:
		taken, err := branchTaken(s, env)
		if err != nil || taken == nil {
			return cells{}, cells{}, err
		}
		return r.stmt(taken, env)
	case *sched.Alloc:
		w, rd, err := r.block(s.Body, env)
		if err != nil {
			return nil, nil, err
		}
		return withoutArray(w, s.Array.Name), withoutArray(rd, s.Array.Name), nil
	case *sched.Loop:
		l, h, err := loopBounds(s, env)
		if err != nil {
			return nil, nil, err
		}
		w, rd = cells{}, cells{}
		var ws, rds []cells
		for x := l; x < h; x++ {
			iw, ir, err := r.block(s.Body, bindVar(env, s.Var.Name, x))
			if err != nil {
				return nil, nil, err
			}
			ws, rds = append(ws, iw), append(rds, ir)
			for k := range iw {
				w[k] = true
			}
			for k := range ir {
				rd[k] = true
			}
		}
		if s.Par {
			raced := false
			for i := range ws {
				for j := range rds {
					if i == j {
						continue
					}
					for k := range ws[i] {
						if rds[j][k] {
							raced = true
						}
					}
				}
			}
			if err := r.at(s, env, raced); err != nil {
				return nil, nil, err
			}
		}
		return w, rd, nil
	}
	return nil, nil, fmt.Errorf("unknown statement %T", s)
}

// parLoops lists the par loops of a kernel with the scope they run in,
// their enclosing loop variables and those variables' parameters.
func parLoops(t *testing.T, k *sched.Kernel) map[*sched.Loop]assignSite {
	t.Helper()
	var params []string
	for _, p := range k.Params {
		params = append(params, p.Name)
	}
	out := map[*sched.Loop]assignSite{}
	var walk func(b *sched.Block, s *Scope, vars []string, pm map[string]string)
	walk = func(b *sched.Block, s *Scope, vars []string, pm map[string]string) {
		for _, st := range b.Stmts {
			switch st := st.(type) {
			case *sched.Let:
				ns, err := s.Let(context.Background(), st.Var.Name, st.Value)
				if err != nil {
					t.Fatal(err)
				}
				s = ns
			case *sched.Loop:
				if st.Par {
					out[st] = assignSite{scope: s, vars: vars, param: pm}
				}
				ns, p := s.With(st.Var.Name)
				npm := map[string]string{st.Var.Name: p}
				for k, v := range pm {
					npm[k] = v
				}
				walk(st.Body, ns, append(vars[:len(vars):len(vars)], st.Var.Name), npm)
			case *sched.If:
				walk(st.Then, s, vars, pm)
				if st.Else != nil {
					walk(&sched.Block{Stmts: []sched.Stmt{st.Else}}, s, vars, pm)
				}
			case *sched.Alloc:
				walk(st.Body, s, vars, pm)
			case *sched.Block:
				walk(st, s, vars, pm)
			}
		}
	}
	walk(k.Body, NewScope(params), nil, map[string]string{})
	return out
}

// checkRaces compares the read-write races of every par loop with the
// concrete run at params; it returns the executions compared and those
// that race.
func checkRaces(t *testing.T, ctx context.Context, p *pair, pr *Prophecy, params map[string]int64) (execs, raced int) {
	t.Helper()
	loops := parLoops(t, p.kernel)
	races := map[*sched.Loop]*presburger.UnionMap{}
	for l, site := range loops {
		r, err := readWriteRaces(ctx, pr, site.scope, l)
		if err != nil {
			t.Fatalf("%s: %s: %v", p.kernel.Name.Name, sched.StmtLine(l), err)
		}
		races[l] = r
	}
	run := &raceRun{at: func(l *sched.Loop, env mapEnv, conc bool) error {
		site := loops[l]
		bind := map[string]int64{}
		for k, v := range params {
			bind[k] = v
		}
		for _, x := range site.vars {
			bind[site.param[x]] = env[x]
		}
		b, err := races[l].BindParams(intsOf(bind, races[l].Params().Space().Params))
		if err != nil {
			return err
		}
		empty, err := b.IsEmpty(ctx)
		if err != nil {
			return err
		}
		if empty == conc {
			return fmt.Errorf("%s at %v: races %s (empty %v), concrete race %v", sched.StmtLine(l), env, races[l], empty, conc)
		}
		execs++
		if conc {
			raced++
		}
		return nil
	}}
	if _, _, err := run.block(p.kernel.Body, mapEnv(params)); err != nil {
		t.Fatalf("%s at %v: %v\n%s", p.kernel.Name.Name, params, err, p.kernel)
	}
	return execs, raced
}

// TestReadWriteRaces compares the read-write races found symbolically
// with a concrete run on the examples (the parallelised reduction races,
// the others do not) and on random kernels.
func TestReadWriteRaces(t *testing.T) {
	ctx := context.Background()
	execs, raced := 0, 0
	for _, sk := range examplePairs(t) {
		text := readFile(t, sk[1])
		p := loadPair(t, sk[0], readFile(t, sk[0]), sk[1], text)
		pr := prophesy(t, p)
		e, r := checkRaces(t, ctx, p, pr, runParams(text))
		execs, raced = execs+e, raced+r
		if strings.Contains(sk[1], "par_reduction") != (r > 0) {
			t.Errorf("%s: %d racing executions of %d", sk[1], r, e)
		}
	}
	for _, c := range smallPairs {
		p := loadPair(t, c.name+".sare", c.spec, c.name+".sched", c.kernel)
		pr := prophesy(t, p)
		for _, ps := range c.params {
			e, r := checkRaces(t, ctx, p, pr, ps)
			execs, raced = execs+e, raced+r
			if r > 0 {
				t.Errorf("%s: %d racing executions", c.name, r)
			}
		}
	}
	for seed := uint64(0); seed < uint64(*randomKernels); seed++ {
		p := loadPair(t, "random.sare", randomSpec, fmt.Sprintf("random%d.sched", seed), randomKernel(seed))
		pr := prophesy(t, p)
		for _, nv := range []int64{1, 3} {
			e, r := checkRaces(t, ctx, p, pr, map[string]int64{"N": nv})
			execs, raced = execs+e, raced+r
		}
	}
	t.Logf("%d par loop executions compared, %d racing", execs, raced)
}

// evalObligations instantiates obligations at the kernel parameters
// params (other parameters are projected out, as universally quantified)
// and evaluates both sides; it returns the points and the failing ones.
func evalObligations(t *testing.T, ctx context.Context, p *pair, obs []obligation, params map[string]int64) (points, failed int) {
	t.Helper()
	ev, err := sare.NewEvaluator(p.spec, p.sinfo, params, sare.RandomInputs(11))
	if err != nil {
		t.Fatal(err)
	}
	return evalObligationsIn(t, ctx, ev.Env(ctx), obs, params)
}

// evalObligationsIn is evalObligations with the inputs of env.
func evalObligationsIn(t *testing.T, ctx context.Context, env expr.Env, obs []obligation, params map[string]int64) (points, failed int) {
	t.Helper()
	for _, ob := range obs {
		m := ob.Points
		var err error
		for _, q := range m.Space().Params {
			if _, isKernel := params[q]; !isKernel {
				if m, err = m.ProjectOut(presburger.DimParam, paramIndex(m.Space(), q), 1); err != nil {
					t.Fatal(err)
				}
			}
		}
		pts, err := boundPoints(ctx, m, intsOf(params, m.Space().Params), 5000)
		if err != nil {
			t.Fatal(err)
		}
		for _, vals := range pts {
			a, err := ob.Impl.Eval(vals[:ob.Impl.Holes], env)
			if err != nil {
				t.Fatal(err)
			}
			b, err := ob.Spec.Eval(vals[ob.Impl.Holes:], env)
			if err != nil {
				t.Fatal(err)
			}
			points++
			if !a.Equal(b) {
				failed++
			}
		}
	}
	return points, failed
}

// TestWriteConflicts checks the write-write obligations of par loops: none
// where iterations never write one cell (matmul) or write it with the same
// context and holes (the overlapping shifted tiles), one that holds for
// the benign race with two annotations, one that fails when two
// iterations write different values.
func TestWriteConflicts(t *testing.T) {
	ctx := context.Background()
	conflicting := smallPair{name: "conflict", spec: vecSpec, kernel: `
kernel conflict(N)
assume N >= 4
in  a[i] : f32[N + 1] = A(i)
out s[i] : f32[N] = S(i)
{
  par i < N {
    s[i] {S(i)} := a[i] + a[i + 1]
  }
  par k < 2 {
    s[0] {A(k)} := a[k]
  }
}
`, params: []map[string]int64{{"N": 4}}}
	cases := []struct {
		c          smallPair
		obs, fails bool
	}{
		{smallPair{name: "matmul", spec: readFile(t, "../examples/matmul/matmul.sare"), kernel: readFile(t, "../examples/matmul/matmul.sched"), params: []map[string]int64{{"N": 3, "M": 2, "P": 2}}}, false, false},
		{smallPair{name: "outer_split_par", spec: readFile(t, "../examples/outer/outer.sare"), kernel: readFile(t, "../examples/outer/outer_split_par.sched"), params: []map[string]int64{{"N": 10, "M": 3}}}, false, false},
		{smallPairs[3], true, false}, // benign_race
		{conflicting, true, true},
	}
	for _, tc := range cases {
		p := loadPair(t, tc.c.name+".sare", tc.c.spec, tc.c.name+".sched", tc.c.kernel)
		pr := prophesy(t, p)
		var obs []obligation
		for l, site := range parLoops(t, p.kernel) {
			o, err := writeConflicts(ctx, pr, site.scope, l)
			if err != nil {
				t.Fatalf("%s: %v", tc.c.name, err)
			}
			obs = append(obs, o...)
		}
		if (len(obs) > 0) != tc.obs {
			t.Errorf("%s: %d obligations", tc.c.name, len(obs))
			continue
		}
		n, failed := evalObligations(t, ctx, p, obs, tc.c.params[0])
		if tc.obs && n == 0 {
			t.Errorf("%s: obligations without points", tc.c.name)
		}
		if (failed > 0) != tc.fails {
			t.Errorf("%s: %d of %d points fail", tc.c.name, failed, n)
		}
		// The reference interpreter agrees.
		ev, err := sare.NewEvaluator(p.spec, p.sinfo, tc.c.params[0], sare.RandomInputs(11))
		if err != nil {
			t.Fatal(err)
		}
		_, err = sched.Run(ctx, p.kernel, p.kinfo, ev, sched.Options{})
		var f *sched.Failure
		conflict := errors.As(err, &f) && f.Kind == sched.WriteWriteConflict
		if conflict != tc.fails || (err != nil && !conflict) {
			t.Errorf("%s: sched.Run: %v", tc.c.name, err)
		}
	}
}
