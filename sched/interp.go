package sched

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// Default budgets of Run.
const (
	// DefaultMaxSteps bounds the statements executed plus the cells
	// initialised and checked.
	DefaultMaxSteps = 100_000_000
	// DefaultMaxCells bounds the cells of all arrays live at once.
	DefaultMaxCells = 1 << 22
)

// ErrBudget is wrapped by the error Run returns when a budget of Options
// is exhausted: the parameters are too large to run, which says nothing
// about the kernel.
var ErrBudget = errors.New("budget exhausted")

// Options tune Run.
type Options struct {
	// Tolerance compares floats with value.Close: 0 (the default)
	// compares them exactly.
	Tolerance float64
	// Equality is the value model's equality with which computed values
	// are compared with the specification's (annotations, out cells,
	// identities of reductions) and with each other (two iterations of a
	// par loop writing one cell): value.BitExact (the default, the ieee
	// model's), where −0 and +0 differ, or value.RealEqual (the real
	// model's), where they are the same number.
	Equality value.Equality
	// MaxSteps bounds the statements executed plus the cells initialised
	// and checked; 0 means DefaultMaxSteps.
	MaxSteps int64
	// MaxCells bounds the cells of all arrays live at once; 0 means
	// DefaultMaxCells.
	MaxCells int64
	// GarbageWrites gives reads of cells that hold no defined value the
	// verifier's semantics of garbage writes (Clément 2022, section 9.9;
	// docs/validate.md): an assignment whose value reads such a cell
	// does not fail but writes the undefined value ⊥ into its cell,
	// without checking its annotation, so that a later read of the cell
	// is a garbage read too. The kernel then fails only if ⊥ reaches an
	// out cell (output not written), or on any other failure. So do
	// the initialisations, accumulations and merges of reductions
	// (interp_reduce.go), and an accumulation or merge into a cell
	// holding ⊥ writes ⊥ in turn.
	GarbageWrites bool
	// PoisonValueFailures, with GarbageWrites, asks whether a failed
	// check of a stored value can reach an output: a failure that
	// concerns only the value an assignment stores (an annotation
	// mismatch, an undefined value, a read of an incomplete partial
	// result, and the bookkeeping of reductions: a
	// wrong identity or operator, a position outside the reduction or
	// accumulated twice, a cell that is no accumulator of the element)
	// does not fail the run but writes ⊥ into the cell written, as a
	// garbage write whose chain starts there (GarbageStep.Failure); a
	// reduction's read of ⊥ or of an incomplete partial result writes ⊥
	// too. An accumulation or a merge that writes ⊥ still updates its
	// cell: in a par loop it is one of the loop's atomic accumulations,
	// and the cell holds ⊥ when the loop ends. The
	// run then fails only where ⊥ reaches an out cell, or on a failure
	// over indices (bounds, races), of an output's value, or at an
	// undefined annotation (an element the specification does not
	// define, whatever the value): a run that passes shows that no value
	// that failed its check is used by an output at these parameters.
	// An update in place (its value reads the cell it writes) whose
	// annotation fails but that stores the defined value its cell
	// already holds (a plain value, bit for bit) changes no memory: it
	// keeps the cell, whose value passed its own check when it was
	// written, instead of writing ⊥.
	PoisonValueFailures bool
	// KernelOverflow is what the kernel's own signed integer arithmetic
	// gives on overflow. The zero value, value.OverflowWraps, is the
	// kernel language's: it wraps (docs/formats.md, "Signed overflow").
	// value.OverflowUnconstrained gives it the meaning a specification's
	// option gives Halide's: an i32 or i64 operation of an assignment's
	// value or annotation whose exact result leaves its type's range is
	// unconstrained, and so is what is computed from it; the checks of a
	// stored value, of an accumulated value and of an out cell accept an
	// unconstrained kernel value where the specification's is defined.
	// A run that fails as the kernel wraps but passes so shows that its
	// failure needs the kernel to overflow.
	KernelOverflow value.Overflow
}

// Result summarises a run that found no failure.
type Result struct {
	Steps       int64 // statements executed plus cells initialised and checked
	Assignments int64 // assignments executed, each with its annotation checked
	OutputCells int64 // cells of out bindings checked against the specification
	// GarbageWrites counts the assignments that wrote ⊥ for reading a
	// cell holding no defined value (Options.GarbageWrites).
	GarbageWrites int64
	// Poisoned counts the assignments that wrote ⊥ for a failed check
	// of their value (Options.PoisonValueFailures).
	Poisoned int64
}

// Run executes the checked kernel k (info is Check's result) with the
// reference semantics of the kernel language (Clément 2022, Fig. 4.5),
// against the specification evaluated by ev (the one k was checked
// against), whose parameter values and inputs it uses. In arrays start with their tensors' elements (cells outside
// a binding's where hold no defined value); every assignment's annotation is
// checked against the specification at the same point; every par loop is
// checked per rule U-PARLOOP (each iteration runs against the memory as it
// was when the loop started; a cell written by one iteration must not be read
// by another; two iterations may write one cell only with equal values); at
// the end every out cell is compared with the specification.
//
// A kernel that goes wrong gives a *Failure. Any other error (parameters
// violating the kernel's assumptions, a budget exhausted, ctx cancelled,
// an ill-defined specification) is not a verdict on the kernel.
func Run(ctx context.Context, k *Kernel, info *Info, ev Evaluator, opts Options) (*Result, error) {
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	if opts.MaxCells <= 0 {
		opts.MaxCells = DefaultMaxCells
	}
	if opts.KernelOverflow != info.Types.Overflow {
		// The kernel's expressions evaluated under another overflow:
		// the same types, a fresh Info (Check's stays as it is).
		ki := *info
		ki.Types = &expr.Info{Types: info.Types.Types, Overflow: opts.KernelOverflow}
		info = &ki
	}
	in := &interp{ctx: ctx, k: k, info: info, ev: ev, opts: opts, indexScope: indexScope{params: ev.Params()}, root: &frame{}}
	in.frame = in.root
	if err := in.run(); err != nil {
		if f, ok := errors.AsType[*Failure](err); ok {
			f.Steps = in.res.Steps
		}
		return nil, err
	}
	return &in.res, nil
}

type interp struct {
	ctx  context.Context
	k    *Kernel
	info *Info
	ev   Evaluator
	opts Options
	res  Result
	// lines holds the text of the statements that failures and garbage
	// writes named (stmtLine): a run that poisons failures names one
	// statement again at every iteration.
	lines map[Stmt]string

	indexScope
	arrays []*store // arrays in scope, innermost last
	frame  *frame   // the current frame: the root, or an iteration of a par loop
	root   *frame
	cells  int64 // cells live
	// aenv is the environment of the annotation being checked, reused
	// from one assignment to the next.
	aenv annotEnv
	// garbage is the last garbage write into each cell that holds ⊥
	// (Options.GarbageWrites; garbage.go).
	garbage map[loc]*GarbageStep
}

// store is one instance of an array: a global array, or one execution of
// an alloc. Cells hold the undefined value of the element type until
// written.
type store struct {
	name  string
	elem  syntax.Type
	ext   []int64
	cells []value.Value
	// ghosts is the reduction state of the cells holding partial results
	// (interp_reduce.go), by offset.
	ghosts map[int]*ghost
	// owner is the frame the store was created in: that frame writes it
	// directly, and its reads and writes of it belong to no par loop's
	// read or write set (rule U-ALLOCATE removes them).
	owner *frame
}

// loc is a memory location: one cell of one store.
type loc struct {
	s   *store
	off int
}

func (l loc) index() []int64 {
	idx := make([]int64, len(l.s.ext))
	off := int64(l.off)
	for d := len(idx) - 1; d >= 0; d-- {
		idx[d] = off % l.s.ext[d]
		off /= l.s.ext[d]
	}
	return idx
}

func (l loc) String() string { return formatCell(l.s.name, l.index()) }

// offset returns the cell at idx, or false when idx is out of bounds.
func (s *store) offset(idx []int64) (int, bool) {
	if len(idx) != len(s.ext) {
		return 0, false
	}
	off := int64(0)
	for d, n := range idx {
		if n < 0 || n >= s.ext[d] {
			return 0, false
		}
		off = off*s.ext[d] + n
	}
	return int(off), true
}

// frame is the evaluation of one iteration of a par loop (or the root):
// its differential memory δμ (writes) and read set ρ (reads), each with
// the first statement responsible, in order of first access.
type frame struct {
	parent     *frame
	writes     map[loc]write
	writeOrder []loc
	reads      map[loc]*Assign
	readOrder  []loc
	// accs are the accumulations into cells the frame neither owns nor
	// wrote (interp_reduce.go), in order of first accumulation.
	accs     map[loc]*accum
	accOrder []loc
}

type write struct {
	v     value.Value
	stmt  *Assign
	ghost *ghost // the cell's reduction state after the write; nil for a plain value
}

func newFrame(parent *frame) *frame {
	return &frame{parent: parent, writes: map[loc]write{}, reads: map[loc]*Assign{}}
}

// load reads a cell in the current frame: the frame's own writes, then
// its ancestors' up to the store's owner, then the store itself. The read
// joins the frame's read set unless the frame owns the store.
func (in *interp) load(l loc, stmt *Assign) value.Value {
	f := in.frame
	if f != l.s.owner {
		if _, ok := f.reads[l]; !ok {
			f.reads[l] = stmt
			f.readOrder = append(f.readOrder, l)
		}
	}
	v, _ := in.view(l)
	return v
}

// storeCell writes a cell in the current frame.
func (in *interp) storeCell(l loc, v value.Value, stmt *Assign) {
	in.storeCellGhost(l, v, stmt, nil)
}

// step counts one unit of work against the budget.
func (in *interp) step() error {
	in.res.Steps++
	if in.res.Steps > in.opts.MaxSteps {
		return fmt.Errorf("more than %d steps: %w (use smaller parameters or raise the step budget)", in.opts.MaxSteps, ErrBudget)
	}
	if in.res.Steps%1024 == 0 {
		if err := in.ctx.Err(); err != nil {
			return fmt.Errorf("run interrupted: %w", err)
		}
	}
	return nil
}

// indexScope is what index expressions read: the parameters and the
// loop and let variables in scope. It implements the index part of
// expr.Env for the interpreter and for the step counts.
type indexScope struct {
	params map[string]int64
	vars   []Var // loop and let variables in scope, innermost last
	// resolved is where identifiers looked up resolved, by the slot of
	// their position (IndexIdent); nil until the first lookup.
	resolved *[resolvedSlots]resolution
}

// Index implements expr.Env for index expressions.
func (sc *indexScope) Index(name string) (int64, bool) {
	for i := len(sc.vars) - 1; i >= 0; i-- {
		if sc.vars[i].Name == name {
			return sc.vars[i].Value, true
		}
	}
	n, ok := sc.params[name]
	return n, ok
}

// IndexIdent implements expr.IdentEnv: Index(id.Name), with the place
// where id resolved the last time remembered by node. A checked kernel
// never has two bindings of one name in scope (a parameter, a loop, let
// or binding variable; Check rejects a redeclaration), so a variable
// remembered at a position that still holds its name is the binding in
// scope, and a parameter stays the binding of its name. The lookup by
// name (a scan of the variables in scope, then a hash of the name into
// the parameters) is left for a node not remembered, or whose variable
// has left the scope.
func (sc *indexScope) IndexIdent(id *syntax.Ident) (int64, bool) {
	slot := resolvedSlot(id.NamePos)
	if sc.resolved != nil {
		if r := &sc.resolved[slot]; r.id == id {
			if r.pos < 0 {
				return r.param, true
			}
			// The same declaration's name is the same string: compared
			// without reading its bytes.
			if r.pos < len(sc.vars) && sc.vars[r.pos].Name == r.name {
				return sc.vars[r.pos].Value, true
			}
		}
	} else {
		sc.resolved = new([resolvedSlots]resolution)
	}
	for i := len(sc.vars) - 1; i >= 0; i-- {
		if sc.vars[i].Name == id.Name {
			sc.resolved[slot] = resolution{id: id, name: sc.vars[i].Name, pos: i}
			return sc.vars[i].Value, true
		}
	}
	n, ok := sc.params[id.Name]
	if ok {
		sc.resolved[slot] = resolution{id: id, pos: -1, param: n}
	}
	return n, ok
}

// resolvedSlots is the size of indexScope.resolved, a power of two.
const resolvedSlots = 1024

// resolvedSlot returns the slot of indexScope.resolved of the
// identifier at pos: a table indexed by position, with no hashing of
// names or pointers, where two identifiers of one slot take turns.
func resolvedSlot(pos syntax.Pos) int {
	h := uint32(pos.Line)*0x9e3779b1 + uint32(pos.Col)
	h ^= h >> 15
	return int(h & (resolvedSlots - 1))
}

// resolution is where the identifier id resolved: the variable named
// name at position pos of indexScope.vars, or, when pos is -1, the
// parameter of value param.
type resolution struct {
	id    *syntax.Ident
	name  string
	pos   int
	param int64
}

// Array implements expr.Env: index expressions read no arrays.
func (sc *indexScope) Array(name string, _ []int64) (value.Value, error) {
	return value.Value{}, fmt.Errorf("array %s read in an index expression", name)
}

// Tensor implements expr.Env: kernel code reads no tensors.
func (in *interp) Tensor(name string, _ []int64) (value.Value, error) {
	return value.Value{}, fmt.Errorf("tensor %s read by kernel code", name)
}

func (in *interp) lookup(name string) *store {
	for i := len(in.arrays) - 1; i >= 0; i-- {
		if in.arrays[i].name == name {
			return in.arrays[i]
		}
	}
	return nil
}

func (in *interp) env() []Var { return append([]Var(nil), in.vars...) }

// failure builds a failure located at the statement s.
// stmtLine is StmtLine(s), computed once per statement of the run.
func (in *interp) stmtLine(s Stmt) string {
	if l, ok := in.lines[s]; ok {
		return l
	}
	if in.lines == nil {
		in.lines = map[Stmt]string{}
	}
	l := StmtLine(s)
	in.lines[s] = l
	return l
}

func (in *interp) failure(kind Kind, s Stmt, format string, args ...any) *Failure {
	f := &Failure{Kind: kind, Pos: s.Pos(), Stmt: in.stmtLine(s), Env: in.env(), Msg: fmt.Sprintf(format, args...)}
	in.locate(f)
	return f
}

func (in *interp) locate(f *Failure) {
	if src := in.k.Src; src != nil {
		f.File = src.Name
		f.LineText = src.Line(f.Pos.Line)
	}
}

// indexFailure turns an error evaluating an index expression of s into
// a failure.
func (in *interp) indexFailure(s Stmt, err error) *Failure {
	var se *syntax.Error
	msg := err.Error()
	if errors.As(err, &se) {
		msg = se.Msg
	}
	return in.failure(IndexError, s, "%s", msg)
}

// AssumptionError reports parameter values that violate one of the
// kernel's assumptions: the run is not possible, and says nothing about the
// kernel's correctness.
type AssumptionError struct {
	Params string     // the parameter values, "N=2, M=3"
	Assume string     // the assumption violated, printed
	Pos    syntax.Pos // the assumption's position
	src    *syntax.Source
}

func (e *AssumptionError) Error() string {
	msg := fmt.Sprintf("the parameters %s violate the kernel's assumption %s", e.Params, e.Assume)
	if e.src != nil && e.Pos.IsValid() {
		return fmt.Sprintf("%s:%s: %s", e.src.Name, e.Pos, msg)
	}
	return msg
}

func (in *interp) run() error {
	for _, a := range in.k.Assumes {
		ok, err := expr.EvalCond(a.Cond, in)
		if err != nil {
			return fmt.Errorf("kernel assumption %s: %w", syntax.ExprString(a.Cond), err)
		}
		if !ok {
			return &AssumptionError{Params: in.formatParams(), Assume: syntax.ExprString(a.Cond), Pos: a.Cond.Pos(), src: in.k.Src}
		}
	}
	for _, p := range in.k.Params {
		if _, ok := in.params[p.Name]; !ok {
			return fmt.Errorf("no value for parameter %s", p.Name)
		}
	}
	for _, a := range in.info.Arrays {
		s, err := in.newStore(a.Name, a.Elem, a.Extents, a.Bindings[0])
		if err != nil {
			return err
		}
		in.arrays = append(in.arrays, s)
	}
	for _, a := range in.info.Arrays {
		if err := in.bind(a, In); err != nil {
			return err
		}
	}
	if in.k.Body != nil {
		if err := in.block(in.k.Body); err != nil {
			return err
		}
	}
	for _, a := range in.info.Arrays {
		if err := in.bind(a, Out); err != nil {
			return err
		}
	}
	return nil
}

func (in *interp) formatParams() string {
	parts := make([]string, 0, len(in.k.Params))
	for _, p := range in.k.Params {
		parts = append(parts, fmt.Sprintf("%s=%d", p.Name, in.params[p.Name]))
	}
	return strings.Join(parts, " ")
}

// newStore creates an array instance of the given extents, owned by the
// current frame; node locates errors.
func (in *interp) newStore(name string, elem syntax.Type, extents []syntax.Expr, node interface{ Pos() syntax.Pos }) (*store, error) {
	s := &store{name: name, elem: elem, owner: in.frame, ext: make([]int64, len(extents))}
	size := int64(1)
	for d, x := range extents {
		n, err := expr.EvalIndex(x, in)
		if err != nil {
			return nil, in.nodeFailure(IndexError, node, "extent %s: %v", syntax.ExprString(x), errMsg(err))
		}
		n = max(n, 0) // an empty dimension: no cells
		s.ext[d] = n
		if n != 0 && size > math.MaxInt64/n {
			return nil, fmt.Errorf("array %s: %d cells or more: %w", name, size, ErrBudget)
		}
		size *= n
	}
	if in.cells+size > in.opts.MaxCells {
		return nil, fmt.Errorf("array %s%v needs %d cells, more than the %d allowed: %w", name, s.ext, size, in.opts.MaxCells, ErrBudget)
	}
	in.cells += size
	s.cells = make([]value.Value, size)
	undef := value.Undef(elem)
	for i := range s.cells {
		s.cells[i] = undef
	}
	return s, nil
}

func errMsg(err error) string {
	var se *syntax.Error
	if errors.As(err, &se) {
		return se.Msg
	}
	return err.Error()
}

// nodeFailure builds a failure at a statement or binding.
func (in *interp) nodeFailure(kind Kind, node interface{ Pos() syntax.Pos }, format string, args ...any) *Failure {
	if s, ok := node.(Stmt); ok {
		return in.failure(kind, s, format, args...)
	}
	f := &Failure{Kind: kind, Pos: node.Pos(), Env: in.env(), Msg: fmt.Sprintf(format, args...)}
	if b, ok := node.(*Binding); ok {
		f.Stmt = BindingString(b)
	}
	in.locate(f)
	return f
}

// bind applies the array's bindings of direction dir: an in binding
// initialises the cells it covers; an out binding checks them.
func (in *interp) bind(a *Array, dir Dir) error {
	s := in.lookup(a.Name)
	covered := map[int]*Binding{}
	for _, b := range a.Bindings {
		if b.Dir != dir {
			continue
		}
		if err := in.bindOne(s, b, covered); err != nil {
			return err
		}
	}
	return nil
}

func (in *interp) bindOne(s *store, b *Binding, covered map[int]*Binding) error {
	mark := len(in.vars)
	defer func() { in.vars = in.vars[:mark] }()
	for _, v := range b.Vars {
		in.vars = append(in.vars, Var{Name: v.Name})
	}
	vars := in.vars[mark:]
	return forEachCell(s.ext, func(idx []int64, off int) error {
		if err := in.step(); err != nil {
			return err
		}
		for d := range vars {
			vars[d].Value = idx[d]
		}
		if b.Where != nil {
			ok, err := expr.EvalCond(b.Where, in)
			if err != nil {
				return in.nodeFailure(IndexError, b, "%s", errMsg(err))
			}
			if !ok {
				return nil
			}
		}
		if o, dup := covered[off]; dup {
			f := in.nodeFailure(BindingOverlap, b, "%s is covered by this %s binding and the one at %s", formatCell(s.name, idx), b.Dir, o.Pos())
			f.Array, f.Index = s.name, append([]int64(nil), idx...)
			return f
		}
		covered[off] = b
		tidx := make([]int64, len(b.Tensor.Args))
		for i, x := range b.Tensor.Args {
			n, err := expr.EvalIndex(x, in)
			if err != nil {
				return in.nodeFailure(IndexError, b, "%s", errMsg(err))
			}
			tidx[i] = n
		}
		want, err := in.ev.Eval(in.ctx, b.Tensor.Fun.Name, tidx)
		if err != nil {
			return fmt.Errorf("binding of %s: %w", s.name, err)
		}
		if b.Dir == In {
			s.cells[off] = want
			return nil
		}
		in.res.OutputCells++
		got := s.cells[off]
		if g := s.ghosts[off]; g != nil {
			missing, err := in.complete(g)
			if err != nil {
				return fmt.Errorf("reduction %s: %w", g.tag(), err)
			}
			if missing != nil {
				f := in.incomplete(b, formatCell(s.name, idx), g, missing)
				f.Array, f.Index = s.name, append([]int64(nil), idx...)
				return f
			}
		}
		tensor := expr.FormatIndex(b.Tensor.Fun.Name, tidx, '(', ')')
		var f *Failure
		switch {
		case got.IsUndef() && in.garbage[loc{s: s, off: off}] != nil:
			g := in.garbage[loc{s: s, off: off}]
			f = in.nodeFailure(OutputNotWritten, b, "%s holds the undefined value ⊥ of garbage writes when the kernel ends; it should hold %s = %s; ⊥ comes from: %s",
				formatCell(s.name, idx), tensor, want, g)
			f.Garbage = g
		case got.IsUndef():
			f = in.nodeFailure(OutputNotWritten, b, "%s holds no value when the kernel ends; it should hold %s = %s",
				formatCell(s.name, idx), tensor, want)
		case !in.accepts(want, got):
			f = in.nodeFailure(OutputWrongValue, b, "%s holds %s when the kernel ends; it should hold %s = %s",
				formatCell(s.name, idx), got, tensor, want)
		default:
			return nil
		}
		f.Array, f.Index = s.name, append([]int64(nil), idx...)
		f.Expected, f.Actual, f.Tensor = want, got, tensor
		return f
	})
}

// forEachCell calls f on every index of an array of the given extents, in
// row-major order, with the cell's offset.
func forEachCell(ext []int64, f func(idx []int64, off int) error) error {
	size := int64(1)
	for _, n := range ext {
		size *= n
	}
	idx := make([]int64, len(ext))
	for off := int64(0); off < size; off++ {
		if err := f(idx, int(off)); err != nil {
			return err
		}
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < ext[d] {
				break
			}
			idx[d] = 0
		}
	}
	return nil
}

// block runs the statements of b; lets end with it.
func (in *interp) block(b *Block) error {
	mark := len(in.vars)
	defer func() { in.vars = in.vars[:mark] }()
	for _, s := range b.Stmts {
		if err := in.stmt(s); err != nil {
			return err
		}
	}
	return nil
}

func (in *interp) stmt(s Stmt) error {
	if err := in.step(); err != nil {
		return err
	}
	switch s := s.(type) {
	case *Skip:
		return nil
	case *Assign:
		return in.assign(s)
	case *If:
		ok, err := expr.EvalCond(s.Cond, in)
		if err != nil {
			return in.indexFailure(s, err)
		}
		if ok {
			return in.block(s.Then)
		}
		if s.Else != nil {
			return in.stmt(s.Else)
		}
		return nil
	case *Let:
		n, err := expr.EvalIndex(s.Value, in)
		if err != nil {
			return in.indexFailure(s, err)
		}
		in.vars = append(in.vars, Var{Name: s.Var.Name, Value: n})
		return nil
	case *Alloc:
		st, err := in.newStore(s.Array.Name, s.Elem, s.Extents, s)
		if err != nil {
			return err
		}
		in.arrays = append(in.arrays, st)
		err = in.block(s.Body)
		in.arrays = in.arrays[:len(in.arrays)-1]
		in.cells -= int64(len(st.cells))
		return err
	case *Loop:
		return in.loop(s)
	case *Block:
		return in.block(s)
	}
	return fmt.Errorf("%s: unknown statement %T", s.Pos(), s)
}

func (in *interp) loop(s *Loop) error {
	loX, hiX := s.Bounds()
	lo, err := expr.EvalIndex(loX, in)
	if err != nil {
		return in.indexFailure(s, err)
	}
	hi, err := expr.EvalIndex(hiX, in)
	if err != nil {
		return in.indexFailure(s, err)
	}
	if s.Par {
		return in.par(s, lo, hi)
	}
	in.vars = append(in.vars, Var{Name: s.Var.Name})
	defer func() { in.vars = in.vars[:len(in.vars)-1] }()
	for x := lo; x < hi; x++ {
		if err := in.step(); err != nil {
			return err
		}
		in.vars[len(in.vars)-1].Value = x
		if err := in.block(s.Body); err != nil {
			return err
		}
	}
	return nil
}

// access records which iterations of a par loop accessed a cell: the
// first two distinct ones, with the statements responsible and, for
// writes, the first value written.
type access struct {
	n     int
	iters [2]int64
	stmts [2]*Assign
	v     value.Value
	ghost *ghost
}

// parSets accumulates the write and read sets of a par loop's
// iterations, and the first write-write conflict.
type parSets struct {
	writes     map[loc]*access
	writeOrder []loc
	reads      map[loc]*access
	readOrder  []loc
	conflict   *conflict
	eq         value.Equality // the equality of two values written
}

type conflict struct {
	l     loc
	first *access
	iter  int64
	v     value.Value
	stmt  *Assign
}

func (p *parSets) merge(x int64, f *frame) {
	for _, l := range f.writeOrder {
		w := f.writes[l]
		a := p.writes[l]
		if a == nil {
			p.writes[l] = &access{n: 1, iters: [2]int64{x}, stmts: [2]*Assign{w.stmt}, v: w.v, ghost: w.ghost}
			p.writeOrder = append(p.writeOrder, l)
			continue
		}
		if p.conflict == nil && !p.eq.Equal(w.v, a.v) {
			p.conflict = &conflict{l: l, first: a, iter: x, v: w.v, stmt: w.stmt}
		}
		if a.n < 2 {
			a.iters[1], a.stmts[1], a.n = x, w.stmt, 2
		}
	}
	for _, l := range f.readOrder {
		stmt := f.reads[l]
		a := p.reads[l]
		if a == nil {
			p.reads[l] = &access{n: 1, iters: [2]int64{x}, stmts: [2]*Assign{stmt}}
			p.readOrder = append(p.readOrder, l)
			continue
		}
		if a.n < 2 {
			a.iters[1], a.stmts[1], a.n = x, stmt, 2
		}
	}
}

// race finds a cell written by one iteration and read by another: the
// cell, and the writing and reading iterations with their statements.
func (p *parSets) race() (l loc, w, r int64, ws, rs *Assign, found bool) {
	for _, l := range p.readOrder {
		wa := p.writes[l]
		if wa == nil {
			continue
		}
		ra := p.reads[l]
		for i := 0; i < wa.n; i++ {
			for j := 0; j < ra.n; j++ {
				if wa.iters[i] != ra.iters[j] {
					return l, wa.iters[i], ra.iters[j], wa.stmts[i], ra.stmts[j], true
				}
			}
		}
	}
	return loc{}, 0, 0, nil, nil, false
}

// par runs a parallel loop per rule U-PARLOOP: every iteration in a frame
// of its own against the memory as it was when the loop started; then
// the race conditions; then the union of the iterations' writes.
// Iterations that fail do not stop the others, so that a race involving
// them is reported first.
func (in *interp) par(s *Loop, lo, hi int64) error {
	parent := in.frame
	sets := &parSets{writes: map[loc]*access{}, reads: map[loc]*access{}, eq: in.opts.Equality}
	accs := &parAccs{}
	var failed error
	mark := len(in.vars)
	in.vars = append(in.vars, Var{Name: s.Var.Name})
	for x := lo; x < hi; x++ {
		if err := in.step(); err != nil {
			in.vars = in.vars[:mark]
			return err
		}
		in.vars[mark].Value = x
		f := newFrame(parent)
		in.frame = f
		err := in.block(s.Body)
		in.frame = parent
		if err != nil {
			var fail *Failure
			if !errors.As(err, &fail) {
				in.vars = in.vars[:mark]
				return err
			}
			if failed == nil {
				failed = err
			}
		}
		sets.merge(x, f)
		accs.merge(x, f)
	}
	in.vars = in.vars[:mark]
	if l, w, r, ws, rs, ok := sets.race(); ok {
		f := in.failure(ReadWriteRace, s, "iteration %s=%d writes %s (%s, at %s) and iteration %s=%d reads it (%s, at %s)",
			s.Var.Name, w, l, StmtLine(ws), ws.Pos(), s.Var.Name, r, StmtLine(rs), rs.Pos())
		f.Array, f.Index, f.LoopVar, f.Iters = l.s.name, l.index(), s.Var.Name, [2]int64{w, r}
		return f
	}
	if l, ia, o, os, w, ok := accs.race(sets); ok {
		kind, what := ReadWriteRace, "reads"
		if w {
			kind, what = WriteWriteConflict, "writes"
		}
		f := in.failure(kind, s, "iteration %s=%d accumulates into %s (%s, at %s) and iteration %s=%d %s it (%s, at %s)",
			s.Var.Name, ia.iter, l, StmtLine(ia.a.stmt), ia.a.stmt.Pos(), s.Var.Name, o, what, StmtLine(os), os.Pos())
		f.Array, f.Index, f.LoopVar, f.Iters = l.s.name, l.index(), s.Var.Name, [2]int64{ia.iter, o}
		return f
	}
	if c := sets.conflict; c != nil {
		f := in.failure(WriteWriteConflict, s, "iterations %s=%d and %s=%d write different values into %s: %s (%s, at %s) and %s (%s, at %s)",
			s.Var.Name, c.first.iters[0], s.Var.Name, c.iter, c.l, c.first.v, StmtLine(c.first.stmts[0]), c.first.stmts[0].Pos(),
			c.v, StmtLine(c.stmt), c.stmt.Pos())
		f.Array, f.Index, f.LoopVar, f.Iters = c.l.s.name, c.l.index(), s.Var.Name, [2]int64{c.first.iters[0], c.iter}
		f.Expected, f.Actual = c.first.v, c.v
		return f
	}
	if failed != nil {
		return failed
	}
	for _, l := range sets.writeOrder {
		a := sets.writes[l]
		in.storeCellGhost(l, a.v, a.stmts[0], a.ghost)
	}
	if err := accs.apply(in, s); err != nil {
		return err
	}
	if parent != in.root {
		for _, l := range sets.readOrder {
			if l.s.owner == parent {
				continue
			}
			if _, ok := parent.reads[l]; !ok {
				parent.reads[l] = sets.reads[l].stmts[0]
				parent.readOrder = append(parent.readOrder, l)
			}
		}
	}
	return nil
}

// valueEnv evaluates an assignment's value: array reads are checked for
// bounds and definedness, and the first problem of each kind is kept so
// that the assignment reports them in the order the format prescribes.
type valueEnv struct {
	in         *interp
	stmt       *Assign
	oob, undef *cellRef // the first out-of-bounds read; the first read of a cell holding no defined value
	// partial is the first read of a partial result missing positions
	// (partialGhost, missing); err an error checking it.
	partial      *cellRef
	partialGhost *ghost
	missing      []int64
	err          error
}

// cellRef is a cell read by a value, kept for a failure.
type cellRef struct {
	s   *store
	idx []int64
}

func (e *valueEnv) Index(name string) (int64, bool) { return e.in.Index(name) }

// IndexIdent implements expr.IdentEnv.
func (e *valueEnv) IndexIdent(id *syntax.Ident) (int64, bool) { return e.in.IndexIdent(id) }
func (e *valueEnv) Tensor(name string, idx []int64) (value.Value, error) {
	return e.in.Tensor(name, idx)
}

func (e *valueEnv) Array(name string, idx []int64) (value.Value, error) {
	s := e.in.lookup(name)
	if s == nil {
		return value.Value{}, fmt.Errorf("no array %s", name)
	}
	off, ok := s.offset(idx)
	if !ok {
		if e.oob == nil {
			e.oob = &cellRef{s: s, idx: append([]int64(nil), idx...)}
		}
		return value.Undef(s.elem), nil
	}
	l := loc{s: s, off: off}
	v := e.in.load(l, e.stmt)
	if v.IsUndef() && e.undef == nil {
		e.undef = &cellRef{s: s, idx: append([]int64(nil), idx...)}
	}
	if _, g := e.in.view(l); g != nil && e.partial == nil && e.err == nil {
		missing, err := e.in.complete(g)
		if err != nil {
			e.err = fmt.Errorf("reduction %s: %w", g.tag(), err)
		} else if missing != nil {
			e.partial, e.partialGhost, e.missing = &cellRef{s: s, idx: append([]int64(nil), idx...)}, g, missing
		}
	}
	return v, nil
}

// garbageOnly reports whether the only problem of the value's reads is a
// read of a cell holding no defined value: with garbage writes, the
// assignment then writes ⊥ (Options.GarbageWrites).
func (e *valueEnv) garbageOnly() bool {
	return e.oob == nil && e.undef != nil && e.partial == nil && e.err == nil
}

func formatExtents(ext []int64) string {
	parts := make([]string, len(ext))
	for i, n := range ext {
		parts[i] = fmt.Sprint(n)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// annotEnv evaluates an annotation over the specification's tensors.
type annotEnv struct {
	in      *interp
	evalErr error // an error of the specification's evaluator
	// The first tensor element read: its tensor's name and index (a
	// copy), formatted only for a failure (firstElem).
	firstName string
	firstIdx  []int64
}

// firstElem returns the first tensor element read, as "R(0, 1)", or "".
func (e *annotEnv) firstElem() string {
	if e.firstName == "" {
		return ""
	}
	return expr.FormatIndex(e.firstName, e.firstIdx, '(', ')')
}

func (e *annotEnv) Index(name string) (int64, bool) { return e.in.Index(name) }

// IndexIdent implements expr.IdentEnv.
func (e *annotEnv) IndexIdent(id *syntax.Ident) (int64, bool) { return e.in.IndexIdent(id) }
func (e *annotEnv) Array(name string, idx []int64) (value.Value, error) {
	return e.in.Array(name, idx)
}

func (e *annotEnv) Tensor(name string, idx []int64) (value.Value, error) {
	v, err := e.in.ev.Eval(e.in.ctx, name, idx)
	if err != nil {
		if e.evalErr == nil {
			e.evalErr = err
		}
		return v, err
	}
	if e.firstName == "" {
		e.firstName, e.firstIdx = name, append(e.firstIdx[:0], idx...)
	}
	return v, nil
}

// assign runs an assignment with the checks in the order the format
// prescribes: the value's reads (the bounds of every read, then the
// definedness of every read), the written cell's bounds, the value's
// definedness, then the annotation. The cell is written only when every
// check passes.
// garbageAssign executes the assignment s, whose value read a cell
// holding no defined value, as a garbage write (Options.GarbageWrites):
// it writes ⊥ into its cell of st, checked for bounds only.
func (in *interp) garbageAssign(s *Assign, st *store, read *cellRef, data map[int]int64) error {
	off, _, err := in.target(s, st, data)
	if err != nil {
		return err
	}
	in.res.GarbageWrites++
	l := loc{s: st, off: off}
	if roff, ok := read.s.offset(read.idx); ok {
		in.recordGarbage(s, loc{s: read.s, off: roff}, l)
	}
	in.storeCell(l, value.Undef(st.elem), s)
	return nil
}

// target evaluates the indices of the assignment s into st, and returns
// the cell's offset and index, or the out-of-bounds write.
func (in *interp) target(s *Assign, st *store, data map[int]int64) (int, []int64, error) {
	idx := make([]int64, len(s.Indices))
	for i, x := range s.Indices {
		if n, ok := data[i]; ok {
			idx[i] = n
			continue
		}
		n, err := expr.EvalIndex(x, in)
		if err != nil {
			return 0, nil, in.indexFailure(s, err)
		}
		idx[i] = n
	}
	off, ok := st.offset(idx)
	if !ok {
		f := in.failure(OutOfBoundsWrite, s, "%s is outside %s%s", formatCell(st.name, idx), st.name, formatExtents(st.ext))
		f.Array, f.Index = st.name, idx
		return 0, nil, f
	}
	return off, idx, nil
}

func (in *interp) assign(s *Assign) error {
	if s.IsReduction() {
		return in.reductionAssign(s)
	}
	in.res.Assignments++
	st := in.lookup(s.Array.Name)
	if st == nil {
		return fmt.Errorf("%s: no array %s (was the kernel checked?)", s.Pos(), s.Array.Name)
	}
	venv := &valueEnv{in: in, stmt: s}
	v, err := expr.EvalValue(s.Value, in.info.Types, venv)
	if err != nil {
		return in.indexFailure(s, err)
	}
	// The data-dependent indices of the written cell read arrays as
	// the value does, checked with its reads.
	data, undefIdx, err := in.dataIndices(s, venv)
	if err != nil {
		return in.indexFailure(s, err)
	}
	if err := in.readFailure(s, venv); err != nil {
		if undefIdx == nil && (in.opts.GarbageWrites && venv.garbageOnly() || in.poisons() && venv.oob == nil && venv.err == nil && venv.undef != nil) {
			return in.garbageAssign(s, st, venv.undef, data)
		}
		if f, ok := err.(*Failure); ok && f.Kind == IncompleteReduction && in.poisons() && venv.oob == nil && venv.undef == nil {
			// A read of an incomplete partial result: a wrong value.
			off, _, terr := in.target(s, st, data)
			if terr != nil {
				return terr
			}
			return in.poison(s, loc{s: st, off: off}, f)
		}
		return err
	}
	if undefIdx != nil {
		return in.failure(IndexError, s, "the index %s of the write into %s is undefined", syntax.ExprString(undefIdx), st.name)
	}
	off, idx, err := in.target(s, st, data)
	if err != nil {
		return err
	}
	if v.IsUndef() {
		f := in.failure(UndefinedStore, s, "the value stored into %s is undefined", formatCell(st.name, idx))
		f.Array, f.Index, f.Actual = st.name, idx, v
		return in.poison(s, loc{s: st, off: off}, f)
	}
	aenv := &in.aenv
	*aenv = annotEnv{in: in, firstIdx: aenv.firstIdx[:0]}
	want, err := expr.EvalValue(s.Annot, in.info.Types, aenv)
	if aenv.evalErr != nil {
		return fmt.Errorf("annotation of %s at %s: %w", formatCell(st.name, idx), s.Pos(), aenv.evalErr)
	}
	if err != nil {
		return in.indexFailure(s, err)
	}
	if in.accepts(want, v) {
		in.storeCell(loc{s: st, off: off}, v, s)
		return nil
	}
	// A failure: the cell and the annotation are described.
	cell := formatCell(st.name, idx)
	tensor := ""
	if c, ok := s.Annot.(*syntax.Call); ok && isTensor(in.info.spec, c.Fun.Name) {
		tensor = aenv.firstElem()
	}
	annot := syntax.ExprString(s.Annot)
	if tensor != "" && tensor != annot {
		annot += " = " + tensor
	}
	var f *Failure
	if want.IsUndef() {
		f = in.failure(UndefinedAnnotation, s, "the annotation %s of %s is undefined", annot, cell)
	} else {
		f = in.failure(WrongValue, s, "%s := %s, but the annotation %s is %s", cell, v, annot, want)
	}
	f.Array, f.Index, f.Expected, f.Actual, f.Tensor = st.name, idx, want, v, tensor
	if f.Kind == UndefinedAnnotation {
		// An element the specification does not define: a failure of
		// the annotation whatever the value.
		return f
	}
	l := loc{s: st, off: off}
	if in.poisons() && readsOwnCell(s) && in.unchanged(l, v) {
		// An update in place that writes the value its cell holds:
		// memory is as before, and the cell keeps the value that
		// passed its own check when it was written.
		in.storeCell(l, v, s)
		return nil
	}
	return in.poison(s, l, f)
}

// accepts reports whether the kernel's value got satisfies the
// specification's value want (Equality.Accepts), or, under
// Options.KernelOverflow unconstrained, is computed from an overflow of
// the kernel's and want is defined.
func (in *interp) accepts(want, got value.Value) bool {
	if in.opts.Equality.Accepts(want, got, in.opts.Tolerance) {
		return true
	}
	return in.opts.KernelOverflow == value.OverflowUnconstrained && got.IsUnconstrained() && !want.IsUndef()
}

// readsOwnCell reports whether the value of the assignment s reads the
// cell s writes (the same array at the same indices): an update in
// place.
func readsOwnCell(s *Assign) bool {
	found := false
	syntax.Inspect(s.Value, func(e syntax.Expr) bool {
		if x, ok := e.(*syntax.Index); ok && x.Array.Name == s.Array.Name && syntax.EqualList(x.Indices, s.Indices) {
			found = true
		}
		return !found
	})
	return found
}

// unchanged reports whether the cell l holds the defined plain value v
// (no reduction's partial result), bit for bit: an assignment that
// stores v there leaves memory as it was. With
// Options.PoisonValueFailures an update in place that does so keeps the
// cell's value rather than writing ⊥ for its annotation: the value
// passed its check when it was written (Halide recomputes a max update
// over a cell it already updated, max(m, a) = m), and is no value that
// failed.
func (in *interp) unchanged(l loc, v value.Value) bool {
	old, g := in.view(l)
	return g == nil && !old.IsUndef() && !old.Inexact() && !v.Inexact() && old.Equal(v)
}

// poisons reports whether failed checks of stored values write ⊥
// (Options.PoisonValueFailures, which needs garbage writes).
func (in *interp) poisons() bool {
	return in.opts.GarbageWrites && in.opts.PoisonValueFailures
}

// poison returns f, the failed check of the value that the assignment s
// stores into the cell l; with Options.PoisonValueFailures it writes ⊥
// into l instead, as a garbage write whose chain starts at f, and
// returns nil.
func (in *interp) poison(s *Assign, l loc, f *Failure) error {
	if !in.poisons() {
		return f
	}
	in.res.Poisoned++
	step := &GarbageStep{Pos: s.Pos(), Stmt: in.stmtLine(s), Env: in.env(), Wrote: l.String(), Failure: f.Kind.String() + ": " + f.Msg}
	if in.garbage == nil {
		in.garbage = map[loc]*GarbageStep{}
	}
	in.garbage[l] = step
	in.writeGarbage(s, l)
	return nil
}

// dataIndices evaluates the data-dependent indices of the cell that the
// assignment s writes (Clément 2022, section 9.6.3) in venv, by position;
// undef is the first whose value is undefined, or nil.
func (in *interp) dataIndices(s *Assign, venv *valueEnv) (data map[int]int64, undef syntax.Expr, err error) {
	for i, x := range s.Indices {
		if !in.info.Types.IsDataIndex(x) {
			continue
		}
		n, defined, err := expr.EvalDataIndex(x, in.info.Types, venv)
		if err != nil {
			return nil, nil, err
		}
		if !defined {
			if undef == nil {
				undef = x
			}
			continue
		}
		if data == nil {
			data = map[int]int64{}
		}
		data[i] = n
	}
	return data, undef, nil
}
