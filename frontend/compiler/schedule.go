package compiler

import (
	"fmt"
	"strings"

	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/internal/quasiaffine"
	"github.com/augur-verify/augur/syntax"
)

// The schedule model: what the directives of Reinking 2022, section 2.8,
// decide, per func and per stage, before lowering.

// loopKind is how a loop is traversed.
type loopKind int

const (
	serial loopKind = iota
	parallel
	vectorized // emitted as a par loop: the lanes
	unrolled   // a sequential loop, or duplicated statements (Options.UnrollCopies)
)

// tailKind is a split's tail strategy (Reinking 2022, section 2.8.2).
type tailKind int

const (
	tailGuard tailKind = iota // guard the body with an if
	tailShift                 // shift the last iteration inwards (recomputation)
	tailRound                 // round the extent up (overcompute)
)

func (t tailKind) String() string { return [...]string{"guard", "shift", "round"}[t] }

// dimSched is one loop of a stage.
type dimSched struct {
	name string // as the schedule writes it: x, xo, r.k
	pure bool   // a pure dimension, or split or fused from pure ones
	kind loopKind
}

// splitSched is a split (fuse false: old -> outer, inner by factor) or a
// fuse (fuse true: inner, outer -> old).
type splitSched struct {
	fuse              bool
	old, outer, inner string
	factor            int64
	tail              tailKind
	pos               syntax.Pos
	pure              bool // a split of a pure loop
}

// loopSched is the loop structure of one stage: its loops, innermost
// first, and the splits and fuses that made them, in order.
type loopSched struct {
	dims   []dimSched
	splits []splitSched
}

func (l *loopSched) clone() *loopSched {
	return &loopSched{dims: append([]dimSched(nil), l.dims...), splits: append([]splitSched(nil), l.splits...)}
}

func (l *loopSched) find(name string) int {
	for i, d := range l.dims {
		if d.name == name {
			return i
		}
	}
	return -1
}

// specialization is one F.specialize(cond) branch of a stage.
type specialization struct {
	cond  syntax.Expr
	loops *loopSched
}

// stageSched is the schedule of one stage of a func (0: the pure
// definition, u+1: the u-th update).
type stageSched struct {
	loops *loopSched
	specs []specialization
}

// level is a loop level: the loop dim of one of func's stages; the zero
// level (func "") is the root.
type level struct {
	fn  string
	dim string
	pos syntax.Pos
}

func (l level) root() bool { return l.fn == "" }

// funcSched is the schedule of a func: where it is computed and stored,
// and its storage and bounds directives.
type funcSched struct {
	stages   []*stageSched
	compute  level
	store    *level // nil: where it is computed
	inline   bool
	fold     map[int]int64          // dimension -> fold factor
	bound    map[int][2]syntax.Expr // dimension -> min, extent
	boundExt map[int]int64          // dimension -> extent (bound_extent)
	align    map[int][2]int64       // dimension -> modulus, remainder
	foldPos  syntax.Pos
	boundPos map[int]syntax.Pos
	foldSpan int64        // the points one computation spans (for an injection)
	with     *computeWith // compute_with(G, x) of the pure definition (fusewith.go)
}

// schedule applies the directives to the default schedule: every func
// compute_root, stored where computed, loops in Halide's order.
func (c *compiler) schedule(dirs []*alg.Directive) error {
	c.fs = map[string]*funcSched{}
	c.red = map[string]*reduction{}
	for _, f := range c.p.Funcs() {
		c.fs[f.Name.Name] = newFuncSched(f)
	}
	c.chainSpec = map[int]*loopSched{}
	for _, d := range dirs {
		if err := c.directive(d); err != nil {
			return err
		}
	}
	return c.checkPlacement()
}

// newFuncSched is the default schedule of f: computed at the root, stored
// where computed, every stage's loops in Halide's order.
func newFuncSched(f *alg.Func) *funcSched {
	fs := &funcSched{boundPos: map[int]syntax.Pos{}, fold: map[int]int64{}, bound: map[int][2]syntax.Expr{}, boundExt: map[int]int64{}, align: map[int][2]int64{}}
	for s := 0; s <= len(f.Updates); s++ {
		fs.stages = append(fs.stages, defaultStage(f, s))
	}
	return fs
}

// defaultStage is the default schedule of stage s of f: the RDom's
// variables innermost, its first variable innermost of all, then the pure
// variables, the first innermost.
func defaultStage(f *alg.Func, s int) *stageSched {
	ls := &loopSched{}
	if s > 0 && f.Updates[s-1].RDom != nil {
		r := f.Updates[s-1].RDom
		for _, v := range r.Vars {
			ls.dims = append(ls.dims, dimSched{name: r.Name.Name + "." + v.Name.Name})
		}
	}
	for _, v := range f.Vars {
		ls.dims = append(ls.dims, dimSched{name: v.Name, pure: true})
	}
	return &stageSched{loops: ls}
}

// dirErr is a diagnostic of kind code positioned at a directive (mostly
// syntax.CodeSchedule, a rule of the schedule model broken).
func (c *compiler) dirErr(d *alg.Directive, code syntax.Code, format string, args ...any) error {
	r := &syntax.Reporter{Src: c.schedSrc}
	if r.Src == nil {
		r.Src = c.p.Src
	}
	r.ErrorCodef(d.Pos, code, "%s: %s", d, fmt.Sprintf(format, args...))
	return r.Errs
}

// argName returns argument i as a loop name.
func argName(d *alg.Directive, i int) (string, bool) {
	if i >= len(d.Args) {
		return "", false
	}
	id, ok := d.Args[i].(*syntax.Ident)
	if !ok {
		return "", false
	}
	return id.Name, true
}

// argInt returns argument i as an integer constant.
func argInt(d *alg.Directive, i int) (int64, bool) {
	if i >= len(d.Args) {
		return 0, false
	}
	if l, ok := linearize(d.Args[i]); ok && allZero(l) {
		return l.c, true
	}
	return 0, false
}

// arity lists the argument counts a directive accepts, with its usage.
var arity = map[string]struct {
	min, max int
	usage    string
}{
	"split":          {4, 5, "split(x, xo, xi, factor[, guard|shift|round])"},
	"fuse":           {3, 3, "fuse(inner, outer, fused)"},
	"reorder":        {2, 64, "reorder(x, y, ...), innermost first"},
	"tile":           {8, 9, "tile(x, y, xo, yo, xi, yi, fx, fy[, guard|shift|round])"},
	"parallel":       {1, 1, "parallel(x)"},
	"vectorize":      {1, 2, "vectorize(x[, factor])"},
	"unroll":         {1, 2, "unroll(x[, factor])"},
	"compute_root":   {0, 0, "compute_root()"},
	"compute_at":     {2, 2, "compute_at(G, x)"},
	"compute_with":   {2, 2, "compute_with(G, x)"},
	"store_root":     {0, 0, "store_root()"},
	"store_at":       {2, 2, "store_at(G, x)"},
	"compute_inline": {0, 0, "compute_inline()"},
	"fold_storage":   {2, 2, "fold_storage(y, factor)"},
	"bound":          {3, 3, "bound(x, min, extent)"},
	"bound_extent":   {2, 2, "bound_extent(x, extent)"},
	"align_bounds":   {2, 3, "align_bounds(x, modulus[, remainder])"},
	"specialize":     {1, 1, "specialize(condition)"},
	"atomic":         {0, 0, "atomic()"},
	"rfactor":        {2, 3, "rfactor(rv, u[, intermediate])"},
}

// Directives lists the scheduling directives the compiler implements, with
// their arguments.
func Directives() []string {
	var out []string
	for _, n := range []string{"split", "fuse", "reorder", "tile", "parallel", "vectorize", "unroll",
		"compute_root", "compute_at", "compute_with", "store_root", "store_at", "compute_inline",
		"fold_storage", "bound", "bound_extent", "align_bounds", "specialize", "atomic", "rfactor"} {
		out = append(out, arity[n].usage)
	}
	return out
}

// storageDirective applies fold_storage, bound, bound_extent or
// align_bounds to a dimension of f.
func (c *compiler) storageDirective(d *alg.Directive, f *alg.Func, fs *funcSched, isOutput bool) error {
	v, _ := argName(d, 0)
	dim := -1
	for i, fv := range f.Vars {
		if fv.Name == v {
			dim = i
		}
	}
	if dim < 0 {
		return c.dirErr(d, syntax.CodeSchedule, "%s is not a pure variable of %s", syntax.ExprString(d.Args[0]), f.Name.Name)
	}
	switch d.Name {
	case "fold_storage":
		k, ok := argInt(d, 1)
		if !ok || k < 1 {
			return c.dirErr(d, syntax.CodeSchedule, "the fold factor must be a positive integer constant")
		}
		if isOutput {
			return c.dirErr(d, syntax.CodeSchedule, "%s is an output: its storage cannot be folded", f.Name.Name)
		}
		fs.fold[dim] = k
		fs.foldPos = d.Pos
	case "bound":
		if !c.paramsOnly(d.Args[1]) || !c.paramsOnly(d.Args[2]) || !isAffine(d.Args[1]) || !isAffine(d.Args[2]) {
			return c.dirErr(d, syntax.CodeSchedule, "the min and extent must be quasi-affine expressions of the parameters")
		}
		if _, ok := fs.boundExt[dim]; ok {
			return c.dirErr(d, syntax.CodeSchedule, "%s already has bound_extent(%s, ...): a dimension takes one of bound and bound_extent", f.Name.Name, v)
		}
		fs.bound[dim] = [2]syntax.Expr{d.Args[1], d.Args[2]}
		fs.boundPos[dim] = d.Pos
	case "bound_extent":
		return c.boundExtent(d, f, fs, dim, isOutput)
	case "align_bounds":
		m, ok := argInt(d, 1)
		if !ok || m < 1 {
			return c.dirErr(d, syntax.CodeSchedule, "the modulus must be a positive integer constant")
		}
		var r int64
		if len(d.Args) == 3 {
			if r, ok = argInt(d, 2); !ok {
				return c.dirErr(d, syntax.CodeSchedule, "the remainder must be an integer constant")
			}
		}
		fs.align[dim] = [2]int64{m, ((r % m) + m) % m}
	}
	return nil
}

// boundExtent records bound_extent(x, k) on dimension dim of f: k a
// positive constant, f no output (its region is the declared one), and
// the dimension not bounded by bound as well.
func (c *compiler) boundExtent(d *alg.Directive, f *alg.Func, fs *funcSched, dim int, isOutput bool) error {
	k, ok := argInt(d, 1)
	if !ok || k < 1 {
		return c.dirErr(d, syntax.CodeSchedule, "the extent must be a positive integer constant")
	}
	if isOutput {
		return c.dirErr(d, syntax.CodeSchedule, "%s is an output: its region is the declared one", f.Name.Name)
	}
	if _, ok := fs.bound[dim]; ok {
		return c.dirErr(d, syntax.CodeSchedule, "%s already has bound(%s, ...): a dimension takes one of bound and bound_extent", f.Name.Name, f.Vars[dim].Name)
	}
	fs.boundExt[dim] = k
	fs.boundPos[dim] = d.Pos
	return nil
}

// target returns the loop schedule a stage directive applies to: that of
// the specialization opened last in the same chain, or the stage's own.
func (c *compiler) target(d *alg.Directive) *loopSched {
	if ls, ok := c.chainSpec[d.Chain]; ok {
		return ls
	}
	return c.fs[d.Func.Name].stages[d.Update+1].loops
}

func (c *compiler) directive(d *alg.Directive) error {
	a, ok := arity[d.Name]
	if !ok {
		return c.dirErr(d, syntax.CodeUndeclared, "unknown directive (the directives are %s)", strings.Join(directiveNames(), ", "))
	}
	if len(d.Args) < a.min || len(d.Args) > a.max {
		return c.dirErr(d, syntax.CodeArity, "wrong number of arguments: %s", a.usage)
	}
	f := c.p.Func(d.Func.Name)
	fs := c.fs[d.Func.Name]
	isOutput := c.isOutput(f.Name.Name)
	funcLevel := func() error {
		if d.Update >= 0 {
			return c.dirErr(d, syntax.CodeSchedule, "%s applies to a func, not to one of its update stages", d.Name)
		}
		return nil
	}
	switch d.Name {
	case "split", "fuse", "reorder", "tile", "parallel", "vectorize", "unroll":
		return c.loopDirective(d, f, c.target(d))
	case "atomic":
		return c.atomicDirective(d, f)
	case "rfactor":
		return c.rfactorDirective(d, f)
	case "specialize":
		cond := d.Args[0]
		if quasiaffine.Check(cond) != nil || !c.paramsOnly(cond) {
			return c.dirErr(d, syntax.CodeSchedule, "the condition must be a quasi-affine constraint on the parameters (it is decided once, before the loops run)")
		}
		st := fs.stages[d.Update+1]
		ls := c.target(d).clone()
		st.specs = append(st.specs, specialization{cond: cond, loops: ls})
		c.chainSpec[d.Chain] = ls
		return nil
	case "compute_root", "compute_at", "compute_inline", "store_root", "store_at":
		if err := funcLevel(); err != nil {
			return err
		}
		if isOutput && d.Name != "compute_root" && d.Name != "store_root" {
			return c.dirErr(d, syntax.CodeSchedule, "%s is an output: outputs are computed and stored at the root", f.Name.Name)
		}
		switch d.Name {
		case "compute_root":
			fs.compute, fs.inline = level{}, false
		case "compute_inline":
			if len(f.Updates) > 0 {
				return c.dirErr(d, syntax.CodeSchedule, "%s has update definitions: only funcs with a pure definition alone can be inlined", f.Name.Name)
			}
			fs.inline = true
		case "store_root":
			fs.store = &level{pos: d.Pos}
		case "compute_at", "store_at":
			g, ok := argName(d, 0)
			dim, ok2 := argName(d, 1)
			if !ok || !ok2 {
				return c.dirErr(d, syntax.CodeArity, "expected a func and one of its loops: %s", a.usage)
			}
			if c.p.Func(g) == nil {
				return c.dirErr(d, syntax.CodeSchedule, "%s is not a func", g)
			}
			if g == f.Name.Name {
				return c.dirErr(d, syntax.CodeSchedule, "a func cannot be placed inside its own loops")
			}
			l := level{fn: g, dim: dim, pos: d.Pos}
			if d.Name == "compute_at" {
				fs.compute, fs.inline = l, false
			} else {
				fs.store = &l
			}
		}
		return nil
	case "compute_with":
		if err := funcLevel(); err != nil {
			return err
		}
		return c.computeWithDirective(d, f, fs)
	case "fold_storage", "bound", "bound_extent", "align_bounds":
		if err := funcLevel(); err != nil {
			return err
		}
		return c.storageDirective(d, f, fs, isOutput)
	}
	return c.dirErr(d, syntax.CodeUndeclared, "unknown directive")
}

func directiveNames() []string {
	var out []string
	for _, u := range Directives() {
		out = append(out, u[:strings.Index(u, "(")])
	}
	return out
}

// isAffine reports whether x is written in the quasi-affine fragment of
// bounds inference.
func isAffine(x syntax.Expr) bool { return quasiaffine.Check(x) == nil }

// paramsOnly reports whether x names parameters only.
func (c *compiler) paramsOnly(x syntax.Expr) bool {
	ok := true
	params := map[string]bool{}
	for _, p := range c.params {
		params[p] = true
	}
	syntax.Inspect(x, func(e syntax.Expr) bool {
		switch e := e.(type) {
		case *syntax.Ident:
			if !params[e.Name] {
				ok = false
			}
		case *syntax.Call:
			if e.Fun.Name != "min" && e.Fun.Name != "max" {
				ok = false
			}
		}
		return true
	})
	return ok
}

func (c *compiler) isOutput(name string) bool {
	for _, o := range c.p.Outputs() {
		if o.Func.Name == name {
			return true
		}
	}
	return false
}

// freshLoopName reports an error unless name can name a new loop of the
// stage whose loops are ls (each stage has its own loop names, as in
// Halide).
func (c *compiler) freshLoopName(d *alg.Directive, ls *loopSched, name string) error {
	if !syntax.ValidName(name) || strings.HasPrefix(name, "buf_") {
		return c.dirErr(d, syntax.CodeSchedule, "%s cannot name a loop", name)
	}
	if c.taken[name] {
		return c.dirErr(d, syntax.CodeSchedule, "%s is already a name of the algorithm: new loop names must be new", name)
	}
	if ls.find(name) >= 0 {
		return c.dirErr(d, syntax.CodeSchedule, "%s already names a loop of this stage", name)
	}
	for _, s := range ls.splits {
		if s.outer == name || s.inner == name || s.old == name {
			return c.dirErr(d, syntax.CodeSchedule, "%s already named a loop of this stage: new loop names must be new", name)
		}
	}
	return nil
}

// tailArg returns the tail strategy of argument i: guard when absent.
func (c *compiler) tailArg(d *alg.Directive, i int) (tailKind, error) {
	if i >= len(d.Args) {
		return tailGuard, nil
	}
	if t, ok := parseTail(d.Args[i]); ok {
		return t, nil
	}
	return 0, c.dirErr(d, syntax.CodeSchedule, "the tail strategy is guard, shift or round")
}

func parseTail(x syntax.Expr) (tailKind, bool) {
	id, ok := x.(*syntax.Ident)
	if !ok {
		return 0, false
	}
	switch id.Name {
	case "guard", "GuardWithIf":
		return tailGuard, true
	case "shift", "ShiftInwards":
		return tailShift, true
	case "round", "RoundUp":
		return tailRound, true
	}
	return 0, false
}

// loopDirective applies a loop-phase directive (Reinking 2022, section 2.8.2)
// to the loops ls of a stage.
func (c *compiler) loopDirective(d *alg.Directive, f *alg.Func, ls *loopSched) error {
	e := &loopEdit{c: c, d: d, f: f, ls: ls}
	switch d.Name {
	case "split":
		return e.split()
	case "tile":
		return e.tile()
	case "fuse":
		return e.fuse()
	case "reorder":
		var names []string
		for i := range d.Args {
			if _, err := e.dim(i); err != nil {
				return err
			}
			n, _ := argName(d, i)
			names = append(names, n)
		}
		return c.reorder(d, f, ls, names)
	case "parallel", "vectorize", "unroll":
		return e.setKind()
	}
	return nil
}

// loopEdit is one loop-phase directive d applied to the loops ls of a
// stage of f.
type loopEdit struct {
	c  *compiler
	d  *alg.Directive
	f  *alg.Func
	ls *loopSched
}

// dim returns the position in ls of the loop that argument i names.
func (e *loopEdit) dim(i int) (int, error) {
	n, ok := argName(e.d, i)
	if !ok {
		return -1, e.c.dirErr(e.d, syntax.CodeSchedule, "argument %d must name a loop", i+1)
	}
	k := e.ls.find(n)
	if k < 0 {
		var names []string
		for j := len(e.ls.dims) - 1; j >= 0; j-- {
			names = append(names, e.ls.dims[j].name)
		}
		return -1, e.c.dirErr(e.d, syntax.CodeSchedule, "%s has no loop %s (its loops, outermost first: %s)", stageLabel(e.f, e.d.Update+1), n, strings.Join(names, ", "))
	}
	return k, nil
}

// splitLoop splits the loop at xi into outer and inner by factor, with the
// tail strategy tail.
func (e *loopEdit) splitLoop(xi int, outer, inner string, factor int64, tail tailKind) error {
	c, d, ls := e.c, e.d, e.ls
	x := ls.dims[xi]
	for _, n := range []string{outer, inner} {
		if err := c.freshLoopName(d, ls, n); err != nil {
			return err
		}
	}
	if outer == inner {
		return c.dirErr(d, syntax.CodeSchedule, "the outer and inner loops need two names")
	}
	if factor < 1 {
		return c.dirErr(d, syntax.CodeSchedule, "the split factor must be a positive integer constant")
	}
	if tail != tailGuard && d.Update >= 0 {
		return c.dirErr(d, syntax.CodeSchedule, "the %s tail strategy recomputes or overcomputes points: only pure stages may use it, update stages need guard", tail)
	}
	if tail != tailGuard && !x.pure {
		return c.dirErr(d, syntax.CodeSchedule, "the %s tail strategy on a reduction loop would change the reduction: use guard", tail)
	}
	ls.splits = append(ls.splits, splitSched{old: x.name, outer: outer, inner: inner, factor: factor, tail: tail, pos: d.Pos, pure: x.pure})
	ls.replaceDims(xi, xi+1, dimSched{name: inner, pure: x.pure, kind: serial}, dimSched{name: outer, pure: x.pure, kind: x.kind})
	return nil
}

// replaceDims replaces the loops ls.dims[lo:hi] with dims.
func (ls *loopSched) replaceDims(lo, hi int, dims ...dimSched) {
	nd := append([]dimSched(nil), ls.dims[:lo]...)
	nd = append(nd, dims...)
	ls.dims = append(nd, ls.dims[hi:]...)
}

// split applies split(x, outer, inner, factor[, tail]).
func (e *loopEdit) split() error {
	c, d, ls := e.c, e.d, e.ls
	xi, err := e.dim(0)
	if err != nil {
		return err
	}
	outer, ok1 := argName(d, 1)
	inner, ok2 := argName(d, 2)
	k, ok3 := argInt(d, 3)
	if !ok1 || !ok2 || !ok3 {
		return c.dirErr(d, syntax.CodeArity, "expected %s", arity["split"].usage)
	}
	tail, err := c.tailArg(d, 4)
	if err != nil {
		return err
	}
	if ls.dims[xi].name == outer || ls.dims[xi].name == inner {
		return c.dirErr(d, syntax.CodeSchedule, "the split loops need new names (the loop %s is replaced)", ls.dims[xi].name)
	}
	return e.splitLoop(xi, outer, inner, k, tail)
}

// tile applies tile(x, y, xo, yo, xi, yi, fx, fy[, tail]): two splits and
// a reorder.
func (e *loopEdit) tile() error {
	c, d := e.c, e.d
	xi, err := e.dim(0)
	if err != nil {
		return err
	}
	if _, err := e.dim(1); err != nil {
		return err
	}
	var names [4]string
	for i := range names {
		n, ok := argName(d, 2+i)
		if !ok {
			return c.dirErr(d, syntax.CodeArity, "expected %s", arity["tile"].usage)
		}
		names[i] = n
	}
	fx, ok1 := argInt(d, 6)
	fy, ok2 := argInt(d, 7)
	if !ok1 || !ok2 {
		return c.dirErr(d, syntax.CodeSchedule, "the tile factors must be integer constants")
	}
	tail, err := c.tailArg(d, 8)
	if err != nil {
		return err
	}
	if err := e.splitLoop(xi, names[0], names[2], fx, tail); err != nil {
		return err
	}
	yi, err := e.dim(1)
	if err != nil {
		return err
	}
	if err := e.splitLoop(yi, names[1], names[3], fy, tail); err != nil {
		return err
	}
	return c.reorder(d, e.f, e.ls, []string{names[2], names[3], names[0], names[1]})
}

// fuse applies fuse(inner, outer, fused).
func (e *loopEdit) fuse() error {
	c, d, ls := e.c, e.d, e.ls
	ii, err := e.dim(0)
	if err != nil {
		return err
	}
	oi, err := e.dim(1)
	if err != nil {
		return err
	}
	fused, ok := argName(d, 2)
	if !ok {
		return c.dirErr(d, syntax.CodeArity, "expected %s", arity["fuse"].usage)
	}
	if oi != ii+1 {
		return c.dirErr(d, syntax.CodeSchedule, "%s must be the loop immediately outside %s (reorder first)", ls.dims[oi].name, ls.dims[ii].name)
	}
	if ls.dims[ii].pure != ls.dims[oi].pure {
		return c.dirErr(d, syntax.CodeSchedule, "a pure loop and a reduction loop cannot be fused")
	}
	if err := c.freshLoopName(d, ls, fused); err != nil {
		return err
	}
	ls.splits = append(ls.splits, splitSched{fuse: true, old: fused, outer: ls.dims[oi].name, inner: ls.dims[ii].name, pos: d.Pos})
	ls.replaceDims(ii, oi+1, dimSched{name: fused, pure: ls.dims[ii].pure, kind: ls.dims[oi].kind})
	return nil
}

// setKind applies parallel, vectorize or unroll (x[, factor]): with a
// factor, to the inner loop of a split of x by it.
func (e *loopEdit) setKind() error {
	c, d, ls := e.c, e.d, e.ls
	xi, err := e.dim(0)
	if err != nil {
		return err
	}
	if len(d.Args) == 2 {
		k, ok := argInt(d, 1)
		if !ok || k < 1 {
			return c.dirErr(d, syntax.CodeSchedule, "the factor must be a positive integer constant")
		}
		base := strings.ReplaceAll(ls.dims[xi].name, ".", "_")
		suffix := map[string]string{"vectorize": "_v", "unroll": "_u"}[d.Name]
		outer, inner := base+suffix+"o", base+suffix+"i"
		if err := e.splitLoop(xi, outer, inner, k, tailGuard); err != nil {
			return err
		}
		xi = ls.find(inner)
	}
	kind := map[string]loopKind{"parallel": parallel, "vectorize": vectorized, "unroll": unrolled}[d.Name]
	if kind != unrolled && !ls.dims[xi].pure && c.red[e.f.Name.Name] == nil {
		return c.dirErr(d, syntax.CodeSchedule, "%s is a reduction loop: only pure loops may run in parallel or be vectorised (unless the update is declared a reduction first, with atomic() or rfactor)", ls.dims[xi].name)
	}
	ls.dims[xi].kind = kind
	return nil
}

// reorder permutes the named loops among the positions they occupy, the
// first named innermost. Two reduction loops keep their relative order.
func (c *compiler) reorder(d *alg.Directive, f *alg.Func, ls *loopSched, names []string) error {
	var pos []int
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			return c.dirErr(d, syntax.CodeSchedule, "%s is named twice", n)
		}
		seen[n] = true
		pos = append(pos, ls.find(n))
	}
	sorted := append([]int(nil), pos...)
	for i := range sorted {
		for j := i + 1; j < len(sorted); j++ {
			if sorted[j] < sorted[i] {
				sorted[i], sorted[j] = sorted[j], sorted[i]
			}
		}
	}
	old := append([]dimSched(nil), ls.dims...)
	for i, p := range sorted {
		ls.dims[p] = old[pos[i]]
	}
	// reduction loops in their old relative order?
	var before, after []string
	for _, dm := range old {
		if !dm.pure {
			before = append(before, dm.name)
		}
	}
	for _, dm := range ls.dims {
		if !dm.pure {
			after = append(after, dm.name)
		}
	}
	if strings.Join(before, ",") != strings.Join(after, ",") && c.red[f.Name.Name] == nil {
		return c.dirErr(d, syntax.CodeSchedule, "this would reorder the reduction loops %s: the order of a reduction's iterations is part of its meaning", strings.Join(before, " and "))
	}
	return nil
}

// checkPlacement checks what the directives decided together: store levels
// enclose compute levels (checked again on the loop nest), folds apply to
// funcs computed inside a loop.
func (c *compiler) checkPlacement() error {
	for _, f := range c.p.Funcs() {
		fs := c.fs[f.Name.Name]
		if fs.inline && fs.store != nil && !fs.store.root() {
			return c.errAt(fs.store.pos, syntax.CodeSchedule, "%s is computed inline: it has no storage to place", f.Name.Name)
		}
	}
	return c.checkComputeWith()
}
