package compiler

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/internal/quasiaffine"
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
)

// Result is a compiled algorithm: the pair of the specification and its
// one kernel, frontend.Prog, and how it was compiled.
type Result struct {
	frontend.Pair
	Schedule string // the schedule compiled, as a schedule block ("" for the default)
	Injected string // the injected miscompilation, if any
}

// Options are the choices of a compilation beyond the algorithm.
type Options struct {
	// Schedule, when not nil, replaces the algorithm's own schedule block;
	// ScheduleSrc is the source its positions refer to.
	Schedule    *alg.Schedule
	ScheduleSrc *syntax.Source
	// Auto asks the autoscheduler for a schedule (AutoSchedule), in place
	// of the algorithm's own.
	Auto bool
	// Inject names a miscompilation to reproduce on purpose (see
	// Injections); the empty string compiles faithfully.
	Inject string
	// BoundsBudget bounds the exact bounds of each dimension of a region
	// (zero: DefaultBoundsBudget); beyond it, bounds inference falls back
	// to interval arithmetic.
	BoundsBudget presburger.Budget
	// UnrollCopies emits an unrolled loop as copies of its body, one per
	// iteration, as code generation unrolls it. By default an unrolled
	// loop is emitted as a sequential loop, as the Halide front end
	// translates Halide's unrolled loops: the kernel is the loop nest
	// before unrolling, and its validation costs the loop's body once,
	// not once per copy.
	UnrollCopies bool
}

// ErrNotApplicable is wrapped by the error of an injection that does not
// apply to the algorithm and schedule compiled.
var ErrNotApplicable = errors.New("the injection does not apply")

// Compile compiles the checked program p into a specification and an
// annotated kernel named name, with the schedule of opts (or the
// algorithm's own, or the default: every func computed at the root).
// Illegal schedules and unsupported constructs are errors, a
// syntax.ErrorList positioned at the directive or construct when there is
// one; an injection that does not apply wraps ErrNotApplicable.
func Compile(ctx context.Context, p *alg.Program, name string, opts Options) (res *Result, err error) {
	defer func() {
		// A panic is a bug of the compiler: reported as an error, never
		// passed through the package boundary.
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("internal compiler error (please report it with the algorithm and schedule): %v", r)
		}
	}()
	// atomic() and rfactor rewrite the program's funcs: compile a copy
	pc := *p
	pc.Decls = append([]alg.Decl(nil), p.Decls...)
	c := &compiler{p: &pc, name: name, display: map[string]string{}, budget: DefaultBoundsBudget(), unrollCopies: opts.UnrollCopies}
	if opts.BoundsBudget != (presburger.Budget{}) {
		c.budget = opts.BoundsBudget
	}
	if opts.Inject != "" {
		if _, ok := injectionByName(opts.Inject); !ok {
			return nil, fmt.Errorf("unknown injection %q (augur compile --list-injections lists them)", opts.Inject)
		}
		c.inject = opts.Inject
	}
	if err := c.supported(); err != nil {
		return nil, err
	}
	c.stageNames()
	sch := p.Schedule
	c.schedSrc = p.Src
	if opts.Schedule != nil {
		sch, c.schedSrc = opts.Schedule, opts.ScheduleSrc
		if errs := alg.CheckSchedule(p, sch, c.schedSrc); len(errs) > 0 {
			return nil, errs
		}
	}
	if opts.Auto {
		auto, err := AutoSchedule(ctx, p)
		if err != nil {
			return nil, err
		}
		sch, c.schedSrc = auto, &syntax.Source{Name: "autoschedule", Text: auto.String()}
	}
	if sch != nil {
		c.dirs = sch.Directives
	}
	if err := c.schedule(c.dirs); err != nil {
		return nil, err
	}
	if err := c.injectSchedule(); err != nil {
		return nil, err
	}
	spec := c.spec()
	kernel, err := c.lower(ctx)
	if err != nil {
		return nil, err
	}
	res = &Result{Pair: frontend.Pair{Spec: spec, Kernels: []frontend.Kernel{{Name: frontend.Prog, Text: kernel}}}}
	if sch != nil && len(sch.Directives) > 0 {
		res.Schedule = sch.String()
	}
	if c.inject != "" {
		if !c.injected {
			return nil, fmt.Errorf("%s: %w to this algorithm and schedule: %s", c.inject, ErrNotApplicable, injectionNeeds(c.inject))
		}
		res.Injected = c.inject
	}
	return res, nil
}

type compiler struct {
	p        *alg.Program
	name     string
	params   []string
	schedSrc *syntax.Source
	dirs     []*alg.Directive
	// stage tensors of each func: stages[F][0] is the pure definition's
	// tensor, stages[F][u+1] the u-th update's; final[F] is F's value.
	stages map[string][]string
	taken  map[string]bool // every name of the algorithm and its specification
	// regions of the inputs and outputs, filled by lowering.
	regions map[string]*box
	assumed quasiaffine.Formula // the assumptions, a condition of every set of bounds inference
	fs      map[string]*funcSched
	// red: the funcs whose update is a reduction the schedule may
	// re-order (atomic() and rfactor, reduce.go)
	red map[string]*reduction
	// chainSpec is, per schedule line, the specialization its calls
	// schedule since a specialize (see target)
	chainSpec map[int]*loopSched
	values    map[string][]syntax.Expr // right-hand sides per stage, inlined funcs substituted
	root      *nBlock
	// placed lists the nests placed so far, per func (for compute_with)
	placed  map[string][]node
	nvars   int
	display map[string]string
	// budget bounds the exact bounds of one dimension of a region
	budget presburger.Budget
	// the miscompilation to inject, and whether it was
	inject   string
	injected bool
	// unrollCopies: unrolled loops emitted as copies (Options.UnrollCopies)
	unrollCopies bool
	// optima memoizes optimum by its set and question (see optimumKey)
	optima map[optimumKey]syntax.Expr
}

// errAt is a diagnostic of kind code at pos of the algorithm.
func (c *compiler) errAt(pos syntax.Pos, code syntax.Code, format string, args ...any) error {
	r := &syntax.Reporter{Src: c.p.Src}
	r.ErrorCodef(pos, code, format, args...)
	return r.Errs
}

// codeOf is the code of an error of bounds inference that a diagnostic
// reports: CodeNotAffine for an expression outside the quasi-affine
// language, the code of a diagnostic it wraps, else none.
func codeOf(err error) syntax.Code {
	var na *quasiaffine.NotAffineError
	var el syntax.ErrorList
	switch {
	case errors.As(err, &na):
		return syntax.CodeNotAffine
	case errors.As(err, &el) && len(el) > 0:
		return el[0].Code
	}
	return ""
}

// supported rejects what this milestone does not compile.
func (c *compiler) supported() error {
	for _, u := range c.p.Updates() {
		for i, a := range u.Args {
			if id, ok := a.(*syntax.Ident); !ok || id.Name != u.Target.Vars[i].Name {
				return c.errAt(a.Pos(), syntax.CodeUnsupported, "update of %s with %s in dimension %d: left-hand sides other than the pure variables in place are not supported yet", u.Func.Name, syntax.ExprString(a), i+1)
			}
		}
	}
	for _, o := range c.p.Outputs() {
		for _, f := range c.p.Funcs() {
			if f.Name.Name == o.Func.Name {
				continue
			}
			if reads(f, o.Func.Name) {
				return c.errAt(o.Pos, syntax.CodeUnsupported, "output %s is also read by %s: outputs read by other funcs are not supported yet", o.Func.Name, f.Name.Name)
			}
		}
	}
	empty := func(v *alg.RVar, what string) error {
		if l, ok := linearize(sub(v.Hi, v.Lo)); ok && allZero(l) && l.c < 1 {
			return c.errAt(v.Lo.Pos(), syntax.CodeUnsupported, "%s %s in %s .. %s is empty: empty ranges are not supported yet", what, v.Name.Name, syntax.ExprString(v.Lo), syntax.ExprString(v.Hi))
		}
		return nil
	}
	for _, o := range c.p.Outputs() {
		for _, d := range o.Dims {
			if err := empty(d, "output dimension"); err != nil {
				return err
			}
		}
	}
	for _, r := range c.p.RDoms() {
		for _, v := range r.Vars {
			if err := empty(v, "RDom variable"); err != nil {
				return err
			}
		}
	}
	for _, id := range c.p.Params {
		c.params = append(c.params, id.Name)
	}
	return nil
}

// reads reports whether a definition of f reads the func or input name.
func reads(f *alg.Func, name string) bool {
	found := false
	check := func(x syntax.Expr) {
		syntax.Inspect(x, func(e syntax.Expr) bool {
			if cl, ok := e.(*syntax.Call); ok && cl.Fun.Name == name {
				found = true
			}
			return true
		})
	}
	check(f.Value)
	for _, u := range f.Updates {
		if u.Func.Name != name {
			check(u.Value)
		}
	}
	return found
}

func (c *compiler) stageNames() {
	c.stages = map[string][]string{}
	taken := map[string]bool{}
	c.taken = taken
	for _, id := range c.p.Params {
		taken[id.Name] = true
	}
	for _, in := range c.p.Inputs() {
		taken[in.Name.Name] = true
	}
	for _, f := range c.p.Funcs() {
		taken[f.Name.Name] = true
		for _, v := range f.Vars {
			taken[v.Name] = true
		}
	}
	for _, in := range c.p.Inputs() {
		for _, v := range in.Vars {
			taken[v.Name] = true
		}
	}
	for _, r := range c.p.RDoms() {
		taken[r.Name.Name] = true
	}
	fresh := func(base string) string {
		n := base
		for i := 2; taken[n]; i++ {
			n = fmt.Sprintf("%s%d", base, i)
		}
		taken[n] = true
		return n
	}
	for _, f := range c.p.Funcs() {
		if len(f.Updates) == 0 {
			c.stages[f.Name.Name] = []string{f.Name.Name}
			continue
		}
		var names []string
		for u := 0; u <= len(f.Updates); u++ {
			names = append(names, fresh(fmt.Sprintf("%s_%d", f.Name.Name, u)))
		}
		c.stages[f.Name.Name] = names
	}
}

// rvar is the name of the RDom variable r.k as a loop variable and a
// tensor dimension: r_k.
func rvar(name string) string { return strings.ReplaceAll(name, ".", "_") }

// assumptions returns the program's assumptions and those the compilation
// needs: every output region and every RDom non-empty, but for RDoms
// declared possibly empty.
func (c *compiler) assumptions() []syntax.Expr {
	var out []syntax.Expr
	for _, a := range c.p.Assumes() {
		out = append(out, a.Cond)
	}
	nonEmpty := func(v *alg.RVar) {
		ext := sub(v.Hi, v.Lo)
		if n, ok := litInt(ext); ok && n >= 1 {
			return // a constant, non-empty range
		}
		out = append(out, bin(ext, syntax.OpGe, intLit(1)))
	}
	for _, o := range c.p.Outputs() {
		for _, d := range o.Dims {
			nonEmpty(d)
		}
	}
	for _, r := range c.p.RDoms() {
		if r.MayBeEmpty {
			continue // updates over an empty RDom change nothing
		}
		for _, v := range r.Vars {
			nonEmpty(v)
		}
	}
	return out
}

// litInt returns the value of an integer literal.
func litInt(x syntax.Expr) (int64, bool) {
	l, ok := x.(*syntax.Lit)
	if !ok || l.Kind != syntax.IntLiteral {
		return 0, false
	}
	v, err := strconv.ParseInt(l.Text, 0, 64)
	return v, err == nil
}

// allZero reports whether the affine form has no variable.
func allZero(l *linear) bool {
	for _, k := range l.coef {
		if k != 0 {
			return false
		}
	}
	return true
}

// rdomDims returns the RDom variables of an update, outermost first (the
// RDom's last variable is its outermost loop, as in Halide), with their
// names as loop variables and tensor dimensions (r_k).
func rdomDims(u *alg.Update) ([]string, []*alg.RVar) {
	if u.RDom == nil {
		return nil, nil
	}
	var names []string
	var vars []*alg.RVar
	for i := len(u.RDom.Vars) - 1; i >= 0; i-- {
		v := u.RDom.Vars[i]
		names = append(names, rvar(u.RDom.Name.Name+"."+v.Name.Name))
		vars = append(vars, v)
	}
	return names, vars
}
