package symeval

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// This file holds the test oracle: a concrete prophetic interpreter that
// runs a kernel at given parameter values the way Clément 2022, Fig. 5.3,
// reads it, every assignment storing its annotation instantiated at the
// current point (index subexpressions replaced by their values), and the
// comparison of its final memory with an instantiated symbolic heap.

// pair is a checked specification and kernel.
type pair struct {
	spec   *sare.Spec
	sinfo  *expr.Info
	kernel *sched.Kernel
	kinfo  *sched.Info
}

func loadPair(t testing.TB, specName, specText, kernelName, kernelText string) *pair {
	t.Helper()
	spec, sinfo, err := sare.Load(&syntax.Source{Name: specName, Text: specText})
	if err != nil {
		t.Fatalf("%s: %v", specName, err)
	}
	k, kinfo, err := sched.Load(&syntax.Source{Name: kernelName, Text: kernelText}, spec)
	if err != nil {
		t.Fatalf("%s: %v", kernelName, err)
	}
	return &pair{spec: spec, sinfo: sinfo, kernel: k, kinfo: kinfo}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var runParam = regexp.MustCompile(`--param (\w+)=(-?\d+)`)

// runParams reads the parameters of a kernel's "# augur run:" line.
func runParams(text string) map[string]int64 {
	ps := map[string]int64{}
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "# augur run:") {
			continue
		}
		for _, m := range runParam.FindAllStringSubmatch(line, -1) {
			v, _ := strconv.ParseInt(m[2], 10, 64)
			ps[m[1]] = v
		}
	}
	return ps
}

// loopBounds evaluates the bounds of the loop s in env: it runs from l
// to h, h excluded.
func loopBounds(s *sched.Loop, env mapEnv) (l, h int64, err error) {
	lo, hi := s.Bounds()
	if l, err = expr.EvalIndex(lo, env); err != nil {
		return 0, 0, err
	}
	h, err = expr.EvalIndex(hi, env)
	return l, h, err
}

// cellKey renders a cell as "a[1, 2]".
func cellKey(a string, idx []int64) string { return expr.FormatIndex(a, idx, '[', ']') }

// delta is a differential memory of the concrete prophetic run: each cell
// written maps to the set of instantiated annotations (more than one only
// after a parallel loop whose iterations wrote different annotations).
type delta map[string]map[string]bool

// update returns d ▷ o.
func (d delta) update(o delta) delta {
	out := delta{}
	for k, v := range d {
		out[k] = v
	}
	for k, v := range o {
		out[k] = v
	}
	return out
}

// concrete runs a kernel prophetically at concrete parameter values.
type concrete struct {
	info  *expr.Info
	steps int
}

// instantiate replaces the index-language subexpressions of the checked
// value expression x by their values in env and prints the result.
func instantiate(x syntax.Expr, info *expr.Info, env mapEnv) (string, error) {
	var err error
	out := rebuild(x, func(e syntax.Expr) (syntax.Expr, bool) {
		if _, typed := info.Types[e]; typed || isConstraintNode(e) {
			return nil, false
		}
		v, e2 := expr.EvalIndex(e, env)
		if e2 != nil {
			err = e2
		}
		if v < 0 {
			return &syntax.Unary{Op: syntax.OpNeg, X: &syntax.Lit{Kind: syntax.IntLiteral, Text: strconv.FormatInt(-v, 10)}}, true
		}
		return &syntax.Lit{Kind: syntax.IntLiteral, Text: strconv.FormatInt(v, 10)}, true
	}, nil)
	return syntax.ExprString(out), err
}

func (c *concrete) block(b *sched.Block, env mapEnv) (delta, error) {
	env = copyEnv(env)
	d := delta{}
	for _, s := range b.Stmts {
		if l, ok := s.(*sched.Let); ok {
			v, err := expr.EvalIndex(l.Value, env)
			if err != nil {
				return nil, err
			}
			env[l.Var.Name] = v
			continue
		}
		sd, err := c.stmt(s, env)
		if err != nil {
			return nil, err
		}
		d = d.update(sd)
	}
	return d, nil
}

func copyEnv(env mapEnv) mapEnv {
	out := mapEnv{}
	for k, v := range env {
		out[k] = v
	}
	return out
}

// branchTaken returns the branch of s that runs in env: its then block,
// its else statement, or nil when the condition is false and s has no
// else.
func branchTaken(s *sched.If, env mapEnv) (sched.Stmt, error) {
	ok, err := expr.EvalCond(s.Cond, env)
	switch {
	case err != nil:
		return nil, err
	case ok:
		return s.Then, nil
	}
	return s.Else, nil
}

// bindVar returns a copy of env with name bound to v: the environment of
// one iteration of a loop on name.
func bindVar(env mapEnv, name string, v int64) mapEnv {
	e := copyEnv(env)
	e[name] = v
	return e
}

// withoutArray returns the cells of m outside the array name: what stays
// visible when the scope of an Alloc of name ends.
func withoutArray[V any](m map[string]V, name string) map[string]V {
	out := maps.Clone(m)
	maps.DeleteFunc(out, func(k string, _ V) bool { return strings.HasPrefix(k, name+"[") })
	return out
}

func (c *concrete) stmt(s sched.Stmt, env mapEnv) (delta, error) {
	c.steps++
	if c.steps > 2_000_000 {
		return nil, fmt.Errorf("too many steps")
	}
	switch s := s.(type) {
	case *sched.Skip:
		return delta{}, nil
	case *sched.Block:
		return c.block(s, env)
	case *sched.Assign:
		idx := make([]int64, len(s.Indices))
		for i, x := range s.Indices {
			v, err := expr.EvalIndex(x, env)
			if err != nil {
				return nil, err
			}
			idx[i] = v
		}
		str, err := instantiate(s.Annot, c.info, env)
		if err != nil {
			return nil, err
		}
		return delta{cellKey(s.Array.Name, idx): {str: true}}, nil
	case *sched.If:
		taken, err := branchTaken(s, env)
		if err != nil || taken == nil {
			return delta{}, err
		}
		return c.stmt(taken, env)
	case *sched.Alloc:
		d, err := c.block(s.Body, env)
		if err != nil {
			return nil, err
		}
		return withoutArray(d, s.Array.Name), nil
	case *sched.Loop:
		l, h, err := loopBounds(s, env)
		if err != nil {
			return nil, err
		}
		d := delta{}
		for x := l; x < h; x++ {
			it, err := c.block(s.Body, bindVar(env, s.Var.Name, x))
			if err != nil {
				return nil, err
			}
			if !s.Par {
				d = d.update(it)
				continue
			}
			for k, v := range it {
				if d[k] == nil {
					d[k] = map[string]bool{}
				}
				for str := range v {
					d[k][str] = true
				}
			}
		}
		return d, nil
	}
	return nil, fmt.Errorf("unknown statement %T", s)
}

// boxCells calls f on every cell of the box lo <= idx < hi.
func boxCells(lo, hi []int64, f func(idx []int64) error) error {
	idx := append([]int64(nil), lo...)
	for {
		for k := range idx {
			if idx[k] >= hi[k] {
				return nil
			}
		}
		if err := f(append([]int64(nil), idx...)); err != nil {
			return err
		}
		k := len(idx) - 1
		for ; k >= 0; k-- {
			idx[k]++
			if idx[k] < hi[k] {
				break
			}
			if k > 0 {
				idx[k] = lo[k]
			}
		}
		if k < 0 {
			return nil
		}
	}
}

// initialDelta is the concrete initial memory of the in bindings.
func (c *concrete) initial(k *sched.Kernel, params map[string]int64) (delta, error) {
	d := delta{}
	for _, b := range k.Bindings {
		if b.Dir != sched.In {
			continue
		}
		env := mapEnv(params)
		hi := make([]int64, len(b.Extents))
		for i, e := range b.Extents {
			v, err := expr.EvalIndex(e, env)
			if err != nil {
				return nil, err
			}
			hi[i] = v
		}
		err := boxCells(make([]int64, len(hi)), hi, func(idx []int64) error {
			e := copyEnv(env)
			for i, v := range b.Vars {
				e[v.Name] = idx[i]
			}
			if b.Where != nil {
				ok, err := expr.EvalCond(b.Where, e)
				if err != nil || !ok {
					return err
				}
			}
			info := expr.NewInfo()
			info.Types = map[syntax.Expr]syntax.Type{b.Tensor: syntax.F32}
			str, err := instantiate(b.Tensor, info, e)
			if err != nil {
				return err
			}
			d[cellKey(b.Array.Name, idx)] = map[string]bool{str: true}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return d, nil
}

// arrays returns every array of the kernel with its rank and extents at
// params (local arrays too, whose cells must all be absent at the end).
func arrays(k *sched.Kernel, params map[string]int64) map[string][]int64 {
	out := map[string][]int64{}
	for _, b := range k.Bindings {
		ext := make([]int64, len(b.Extents))
		for i, e := range b.Extents {
			ext[i], _ = expr.EvalIndex(e, mapEnv(params))
		}
		out[b.Array.Name] = ext
	}
	sched.Walk(k.Body, func(s sched.Stmt) bool {
		if a, ok := s.(*sched.Alloc); ok {
			// Extents may depend on loop variables: use a generous box.
			ext := make([]int64, len(a.Extents))
			for i := range ext {
				ext[i] = 8
			}
			out[a.Array.Name] = ext
		}
		return true
	})
	return out
}

// concreteMemory runs the kernel of p at params in the concrete prophetic
// semantics and returns the final memory.
func concreteMemory(t *testing.T, p *pair, params map[string]int64) delta {
	t.Helper()
	c := &concrete{info: p.kinfo.Types}
	init, err := c.initial(p.kernel, params)
	if err != nil {
		t.Fatalf("%s at %v: concrete initial memory: %v", p.kernel.Name.Name, params, err)
	}
	body, err := c.block(p.kernel.Body, mapEnv(params))
	if err != nil {
		t.Fatalf("%s at %v: concrete run: %v", p.kernel.Name.Name, params, err)
	}
	return init.update(body)
}

// compareHeap checks the instantiated symbolic heap against the concrete
// prophetic memory on every cell of every array within a margin of its
// extents, and returns the number of cells compared.
func compareHeap(t *testing.T, ctx context.Context, p *pair, pr *Prophecy, params map[string]int64) int {
	t.Helper()
	mem := concreteMemory(t, p, params)
	bound, err := pr.Final.Bind(params)
	if err != nil {
		t.Fatalf("bind: %v", err)
	}
	seen := map[string]bool{}
	cells := 0
	check := func(a string, idx []int64) error {
		key := cellKey(a, idx)
		if seen[key] {
			return nil
		}
		seen[key] = true
		cells++
		got, err := bound.At(ctx, a, idx, 8)
		if err != nil {
			return err
		}
		want := mem[key]
		var gotStr []string
		for _, g := range got {
			cx := pr.Contexts.Lookup(g.Context)
			if cx == nil {
				return fmt.Errorf("%s: unknown context %s", key, g.Context)
			}
			vals := make([]int64, len(g.Holes))
			for i, h := range g.Holes {
				vals[i], _ = h.Int64()
			}
			e, err := cx.Fill(vals)
			if err != nil {
				return err
			}
			gotStr = append(gotStr, syntax.ExprString(e))
		}
		switch {
		case len(want) == 0 && len(got) == 0:
		case len(want) == 0 || len(got) != 1 || !want[gotStr[0]]:
			return fmt.Errorf("%s: symbolic %v, concrete %v", key, gotStr, sortedKeys(want))
		}
		return nil
	}
	for a, ext := range arrays(p.kernel, params) {
		lo := make([]int64, len(ext))
		hi := make([]int64, len(ext))
		for i, e := range ext {
			lo[i], hi[i] = -2, e+2
		}
		if err := boxCells(lo, hi, func(idx []int64) error { return check(a, idx) }); err != nil {
			t.Fatalf("%s at %v: %v\nheap:\n%s", p.kernel.Name.Name, params, err, pr.Final.Describe(pr.Contexts))
		}
	}
	for key := range mem {
		a, idx := parseCell(key)
		if err := check(a, idx); err != nil {
			t.Fatalf("%s at %v: %v\nheap:\n%s", p.kernel.Name.Name, params, err, pr.Final.Describe(pr.Contexts))
		}
	}
	return cells
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func parseCell(key string) (string, []int64) {
	a, rest, _ := strings.Cut(key, "[")
	rest = strings.TrimSuffix(rest, "]")
	var idx []int64
	if rest != "" {
		for _, f := range strings.Split(rest, ", ") {
			v, _ := strconv.ParseInt(f, 10, 64)
			idx = append(idx, v)
		}
	}
	return a, idx
}

// checkOutputs checks, for a kernel that sched.Run accepts, that every
// cell of every out binding holds exactly one content in the
// instantiated heap, whose value on random inputs is the binding's tensor
// element. It returns the number of cells checked.
func checkOutputs(t *testing.T, ctx context.Context, p *pair, pr *Prophecy, params map[string]int64, seed uint64) int {
	t.Helper()
	ev, err := sare.NewEvaluator(p.spec, p.sinfo, params, sare.RandomInputs(seed))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sched.Run(ctx, p.kernel, p.kinfo, ev, sched.Options{}); err != nil {
		t.Fatalf("%s at %v: sched.Run: %v", p.kernel.Name.Name, params, err)
	}
	bound, err := pr.Final.Bind(params)
	if err != nil {
		t.Fatal(err)
	}
	env := ev.Env(ctx)
	cells := 0
	err = forOutCells(p.kernel, params, func(b *sched.Binding, idx []int64, e mapEnv) error {
		args := make([]int64, len(b.Tensor.Args))
		for i, a := range b.Tensor.Args {
			v, err := expr.EvalIndex(a, e)
			if err != nil {
				return err
			}
			args[i] = v
		}
		want, err := ev.Eval(ctx, b.Tensor.Fun.Name, args)
		if err != nil {
			return err
		}
		got, err := bound.At(ctx, b.Array.Name, idx, 4)
		if err != nil {
			return err
		}
		if len(got) != 1 {
			return fmt.Errorf("%s has %d contents, want 1", cellKey(b.Array.Name, idx), len(got))
		}
		cx := pr.Contexts.Lookup(got[0].Context)
		vals := make([]int64, len(got[0].Holes))
		for i, h := range got[0].Holes {
			vals[i], _ = h.Int64()
		}
		v, err := cx.Eval(vals, env)
		if err != nil {
			return err
		}
		if !v.Equal(want) {
			return fmt.Errorf("%s: prophecy %s%v = %v, specification %s = %v", cellKey(b.Array.Name, idx), cx, vals, v, expr.FormatIndex(b.Tensor.Fun.Name, args, '(', ')'), want)
		}
		cells++
		return nil
	})
	if err != nil {
		t.Fatalf("%s at %v: %v", p.kernel.Name.Name, params, err)
	}
	return cells
}

// forOutCells calls f on every cell of every out binding of k at params
// that the binding's where clause keeps, with the binding, the cell's
// index and the environment binding the binding's variables to it.
func forOutCells(k *sched.Kernel, params map[string]int64, f func(b *sched.Binding, idx []int64, e mapEnv) error) error {
	for _, b := range k.Bindings {
		if b.Dir != sched.Out {
			continue
		}
		hi := make([]int64, len(b.Extents))
		for i, e := range b.Extents {
			hi[i], _ = expr.EvalIndex(e, mapEnv(params))
		}
		err := boxCells(make([]int64, len(hi)), hi, func(idx []int64) error {
			e := copyEnv(mapEnv(params))
			for i, v := range b.Vars {
				e[v.Name] = idx[i]
			}
			if b.Where != nil {
				if ok, err := expr.EvalCond(b.Where, e); err != nil || !ok {
					return err
				}
			}
			return f(b, idx, e)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// examplePairs lists the example pairs: for each directory, the
// specification and every kernel.
func examplePairs(t *testing.T) [][2]string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("..", "examples", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var out [][2]string
	for _, d := range dirs {
		specs, _ := filepath.Glob(filepath.Join(d, "*.sare"))
		kernels, _ := filepath.Glob(filepath.Join(d, "*.sched"))
		if len(specs) != 1 {
			continue
		}
		for _, k := range kernels {
			out = append(out, [2]string{specs[0], k})
		}
	}
	return out
}

// runPair is a pair loaded for a run, with the kernel's name and the
// parameters it runs at.
type runPair struct {
	*pair
	kernelName string
	params     map[string]int64
}

// everyPair loads the example pairs and the small extra ones, each with
// the parameters of its "augur run" line, or every parameter 5 where it
// has none.
func everyPair(t *testing.T) []runPair {
	t.Helper()
	var out []runPair
	add := func(specName, spec, kernelName, kernel string) {
		p := loadPair(t, specName, spec, kernelName, kernel)
		params := runParams(kernel)
		if len(params) == 0 {
			for _, id := range p.kernel.Params {
				params[id.Name] = 5
			}
		}
		out = append(out, runPair{p, kernelName, params})
	}
	for _, sk := range examplePairs(t) {
		add(sk[0], readFile(t, sk[0]), sk[1], readFile(t, sk[1]))
	}
	for _, c := range smallPairs {
		add(c.name+".sare", c.spec, c.name+".sched", c.kernel)
	}
	return out
}
