package sare

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// DefaultMaxPoints bounds the number of tensor elements an Evaluator
// memoises unless told otherwise.
const DefaultMaxPoints = 1 << 22

// Evaluator computes elements of a checked specification for given
// parameter values and inputs: the reference semantics a kernel is
// compared against. An element is computed by the unique equation whose
// domain holds it (undefined if none does) from the elements its
// right-hand side reads, which are computed first, with memoisation. The
// recursion uses an explicit stack, so deep recurrences such as
// R(i, j, k) = R(i, j, k - 1) + ... work for any depth. An Evaluator is
// not safe for concurrent use.
type Evaluator struct {
	spec    *Spec
	tensors map[string]*Tensor // by name; the first of duplicates, as Spec.Tensor
	info    *expr.Info
	params  map[string]int64
	inputs  Inputs
	memo    map[string]value.Value
	keyBuf  []byte         // scratch space for memo lookups
	onStack map[string]int // scratch space of run
	selEnv  pointEnv       // scratch space of selectEquation
	// eqReads holds each equation's tensor reads at plain indices
	// (prefetch.go), once looked for.
	eqReads map[*Equation][]tensorRead
	// evals counts the evaluations of right-hand sides, those that
	// found elements missing included.
	evals int

	// MaxPoints bounds the number of elements memoised or under
	// evaluation; beyond it Eval fails rather than exhaust memory.
	MaxPoints int
}

// NewEvaluator prepares the evaluation of spec, which must have passed
// Check (info is Check's result), with the given parameter values. Every
// parameter needs a value, and the values must satisfy the assumptions.
func NewEvaluator(spec *Spec, info *expr.Info, params map[string]int64, inputs Inputs) (*Evaluator, error) {
	if info == nil || inputs == nil {
		return nil, errors.New("new evaluator: missing type information or inputs")
	}
	ps := make(map[string]int64, len(params))
	for _, p := range spec.Params {
		n, ok := params[p.Name]
		if !ok {
			return nil, fmt.Errorf("no value for parameter %s", p.Name)
		}
		ps[p.Name] = n
	}
	for name := range params {
		if _, ok := ps[name]; !ok {
			return nil, fmt.Errorf("%s is not a parameter of the specification", name)
		}
	}
	e := &Evaluator{spec: spec, tensors: make(map[string]*Tensor), info: info, params: ps, inputs: inputs,
		memo: make(map[string]value.Value), MaxPoints: DefaultMaxPoints}
	for _, t := range spec.Tensors {
		if _, dup := e.tensors[t.Name.Name]; !dup {
			e.tensors[t.Name.Name] = t
		}
	}
	env := &pointEnv{e: e}
	for _, a := range spec.Assumes {
		ok, err := expr.EvalCond(a.Cond, env)
		if err != nil {
			return nil, e.locate(err)
		}
		if !ok {
			return nil, e.locate(errorAt(a.Cond.Pos(), "the parameters %s violate the assumption %s",
				formatParams(spec, ps), syntax.ExprString(a.Cond)))
		}
	}
	return e, nil
}

func formatParams(spec *Spec, ps map[string]int64) string {
	var parts []string
	for _, p := range spec.Params {
		parts = append(parts, fmt.Sprintf("%s=%d", p.Name, ps[p.Name]))
	}
	return strings.Join(parts, " ")
}

// Params returns the parameter values.
func (e *Evaluator) Params() map[string]int64 { return e.params }

// Spec returns the specification being evaluated.
func (e *Evaluator) Spec() *Spec { return e.spec }

// ErrMaxPoints is, under errors.Is, the error of an evaluation that
// needs more than its Evaluator's MaxPoints elements.
var ErrMaxPoints = errors.New("more tensor elements needed than MaxPoints allows")

// maxPointsError is the error of an evaluation stopped at MaxPoints
// elements (its value).
type maxPointsError int

func (n maxPointsError) Error() string {
	return fmt.Sprintf("more than %d tensor elements needed (a recurrence without a base case, or parameters too large for MaxPoints)", int(n))
}

// Is makes the error ErrMaxPoints under errors.Is.
func (n maxPointsError) Is(target error) bool { return target == ErrMaxPoints }

// Points returns the number of tensor elements the evaluator has
// computed (memoised) so far: a measure of its work.
func (e *Evaluator) Points() int { return len(e.memo) }

// Env returns an environment that binds the parameters and reads tensors
// through e, for evaluating expressions over the specification (such as
// annotations) outside an equation.
func (e *Evaluator) Env(ctx context.Context) expr.Env { return &evalEnv{e: e, ctx: ctx} }

type evalEnv struct {
	e   *Evaluator
	ctx context.Context
}

func (v *evalEnv) Index(name string) (int64, bool) {
	n, ok := v.e.params[name]
	return n, ok
}
func (v *evalEnv) Tensor(name string, idx []int64) (value.Value, error) {
	return v.e.Eval(v.ctx, name, idx)
}
func (v *evalEnv) Array(name string, _ []int64) (value.Value, error) {
	return value.Value{}, fmt.Errorf("array %s read in a specification expression", name)
}

// locate fills in the file name and source line of a positioned error.
func (e *Evaluator) locate(err error) error {
	var se *syntax.Error
	if !errors.As(err, &se) || se.File != "" || e.spec.Src == nil {
		return err
	}
	c := *se
	c.File = e.spec.Src.Name
	c.LineText = e.spec.Src.Line(c.Pos.Line)
	return &c
}

// key encodes a tensor element for the memo table.
func key(t *Tensor, idx []int64) string { return string(appendKey(nil, t, idx)) }

// appendKey appends the key of the element idx of t to b: the tensor's
// name, a zero byte, and each index as a signed varint, which tells where
// it ends (one byte from -64 to 63): short keys, cheap to hash and
// compare in a table of a million elements.
func appendKey(b []byte, t *Tensor, idx []int64) []byte {
	b = append(b, t.Name.Name...)
	b = append(b, 0)
	for _, n := range idx {
		b = binary.AppendVarint(b, n)
	}
	return b
}

// lookup returns the memoised element, without allocating.
func (e *Evaluator) lookup(t *Tensor, idx []int64) (value.Value, bool) {
	e.keyBuf = appendKey(e.keyBuf[:0], t, idx)
	v, ok := e.memo[string(e.keyBuf)]
	return v, ok
}

// point is one tensor element.
type point struct {
	t   *Tensor
	idx []int64
	key string
}

func (p point) String() string { return expr.FormatIndex(p.t.Name.Name, p.idx, '(', ')') }

// frame is an element under evaluation on the explicit stack.
type frame struct {
	point
	eq   *Equation // the equation whose domain holds the point
	env  pointEnv  // the equation's environment at the point, once eq is set
	deps []point   // elements the right-hand side reads that are not known yet
	next int
	// chained: the element was pushed by an element of its own tensor,
	// so that its own predecessor is likely missing too (prefetch.go).
	chained bool
}

// Eval returns the element name(idx): the value its equation gives, the
// undefined value of its type outside every equation's domain, or the
// input's value. It fails on a cyclic dependency (with the cycle), on a
// point in the domains of two equations (an ill-defined specification),
// on index overflow, on cancellation of ctx, and beyond MaxPoints.
func (e *Evaluator) Eval(ctx context.Context, name string, idx []int64) (value.Value, error) {
	t := e.tensors[name]
	if t == nil {
		return value.Value{}, fmt.Errorf("evaluate %s: no such tensor", expr.FormatIndex(name, idx, '(', ')'))
	}
	if len(idx) != t.Rank() {
		return value.Value{}, fmt.Errorf("evaluate %s: tensor %s has %d dimensions", expr.FormatIndex(name, idx, '(', ')'), name, t.Rank())
	}
	if v, ok := e.lookup(t, idx); ok {
		return v, nil
	}
	p := point{t: t, idx: append([]int64(nil), idx...), key: key(t, idx)}
	if t.Input {
		return e.input(p)
	}
	v, err := e.run(ctx, p)
	if err != nil {
		return v, fmt.Errorf("evaluate %s: %w", p, e.locate(err))
	}
	return v, nil
}

func (e *Evaluator) input(p point) (value.Value, error) {
	v, err := e.inputs.Input(p.t, p.idx)
	if err != nil {
		return value.Value{}, fmt.Errorf("input %s: %w", p, err)
	}
	if v.Type() != p.t.Type {
		return value.Value{}, fmt.Errorf("input %s has type %s, want %s", p, v.Type(), p.t.Type)
	}
	e.memo[p.key] = v
	return v, nil
}

// run evaluates p and every element it depends on, depth first, with an
// explicit stack.
func (e *Evaluator) run(ctx context.Context, root point) (value.Value, error) {
	stack := []*frame{{point: root}}
	// The table of the points on the stack is kept from one run to the
	// next (empty at the end of each).
	if e.onStack == nil {
		e.onStack = map[string]int{}
	}
	onStack := e.onStack
	defer clear(onStack)
	onStack[root.key] = 0
	steps := 0
	for len(stack) > 0 {
		if steps++; steps%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return value.Value{}, err
			}
		}
		if len(e.memo)+len(stack) > e.MaxPoints {
			// An unbounded descent, such as R(i) = R(i - 1) with no base
			// case, ends here too.
			return value.Value{}, maxPointsError(e.MaxPoints)
		}
		f := stack[len(stack)-1]
		if f.deps == nil {
			done, err := e.step(f)
			if err != nil {
				return value.Value{}, err
			}
			if done {
				delete(onStack, f.key)
				stack = stack[:len(stack)-1]
			}
			continue
		}
		// Descend into the next dependency not known yet.
		pushed := false
		for f.next < len(f.deps) {
			d := f.deps[f.next]
			f.next++
			if _, ok := e.memo[d.key]; ok {
				continue
			}
			if i, ok := onStack[d.key]; ok {
				return value.Value{}, e.cycle(stack[i:], d)
			}
			onStack[d.key] = len(stack)
			stack = append(stack, &frame{point: d, chained: d.t == f.t})
			pushed = true
			break
		}
		if !pushed {
			f.deps = nil // every dependency is known: evaluate again
		}
	}
	return e.memo[root.key], nil
}

// step evaluates the frame's point, selecting its equation the first
// time. It returns true when the value is known (and memoised), or false
// with f.deps set to the elements that must be computed first.
func (e *Evaluator) step(f *frame) (bool, error) {
	if f.eq == nil {
		eq, err := e.selectEquation(f.point)
		if err != nil {
			return false, err
		}
		if eq == nil {
			e.memo[f.key] = value.Undef(f.t.Type)
			return true, nil
		}
		f.eq = eq
		f.env = pointEnv{e: e, vars: eq.Vars, vals: f.idx, probe: true}
		if f.chained {
			// A link of a recurrence: what it reads first (prefetch.go).
			if deps := e.prefetch(f); len(deps) > 0 {
				f.deps, f.next = deps, 0
				return false, nil
			}
		}
	}
	env := &f.env
	env.missing = nil
	e.evals++
	var v value.Value
	var err error
	if f.eq.Reduce != nil {
		v, err = e.evalReduction(f.eq, f.t, env)
	} else {
		v, err = expr.EvalValue(f.eq.RHS, e.info, env)
	}
	if err != nil {
		return false, err
	}
	if len(env.missing) > 0 {
		f.deps, f.next = env.missing, 0
		return false, nil
	}
	if v.Type() != f.t.Type {
		return false, errorAt(f.eq.RHS.Pos(), "equation gives %s a value of type %s, want %s", f.point, v.Type(), f.t.Type)
	}
	e.memo[f.key] = v
	return true, nil
}

// selectEquation returns the equation whose domain holds p, or nil; two
// such equations make the specification ill-defined.
func (e *Evaluator) selectEquation(p point) (*Equation, error) {
	var found *Equation
	env := &e.selEnv
	*env = pointEnv{e: e, vals: p.idx}
	for _, eq := range p.t.Eqs {
		if len(eq.Vars) != len(p.idx) {
			return nil, errorAt(eq.Pos(), "equation of %s has %d variables, want %d", p.t.Name.Name, len(eq.Vars), len(p.idx))
		}
		if eq.Where != nil {
			env.vars = eq.Vars
			ok, err := expr.EvalCond(eq.Where, env)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		if found != nil {
			return nil, errorAt(eq.Pos(), "ill-defined specification: %s is in the domains of two equations of %s (at %s and %s)",
				p, p.t.Name.Name, found.Pos(), eq.Pos())
		}
		found = eq
	}
	return found, nil
}

// cycle describes a cyclic dependency: path[0] needs path[1] ... needs d,
// and d is path[0].
func (e *Evaluator) cycle(path []*frame, d point) error {
	var b strings.Builder
	for _, f := range path {
		fmt.Fprintf(&b, "%s (equation at %s) needs ", f.point, f.eq.Pos())
	}
	b.WriteString(d.String())
	return errorAt(path[0].eq.Pos(), "cyclic dependency: %s", b.String())
}

// pointEnv evaluates expressions at one point of an equation. In probe
// mode, reading an element that is not known yet records it and reads as
// undefined; the caller evaluates again once it is known. Index
// expressions never depend on tensor values, so the probe finds every
// element the right-hand side reads.
type pointEnv struct {
	e       *Evaluator
	vars    []*syntax.Ident // the equation's variables,
	vals    []int64         // bound to these values
	probe   bool
	missing []point
}

func (v *pointEnv) Index(name string) (int64, bool) {
	for i, id := range v.vars {
		if id.Name == name {
			return v.vals[i], true
		}
	}
	n, ok := v.e.params[name]
	return n, ok
}

func (v *pointEnv) Tensor(name string, idx []int64) (value.Value, error) {
	t := v.e.tensors[name]
	if t == nil || len(idx) != t.Rank() {
		return value.Value{}, fmt.Errorf("no tensor %s of rank %d", name, len(idx))
	}
	if val, ok := v.e.lookup(t, idx); ok {
		return val, nil
	}
	p := point{t: t, idx: append([]int64(nil), idx...), key: key(t, idx)}
	if t.Input {
		return v.e.input(p)
	}
	if !v.probe {
		return value.Value{}, errNeed
	}
	v.missing = append(v.missing, p)
	return value.Undef(t.Type), nil
}

func (v *pointEnv) Array(name string, _ []int64) (value.Value, error) {
	return value.Value{}, fmt.Errorf("array %s read in a specification", name)
}

// errNeed is returned by the evaluator's internal environment when an
// element is not computed yet; the evaluation is retried once it is.
var errNeed = errors.New("element not computed yet")

// errorAt returns an evaluation error at pos. The error is a
// *syntax.Error so that callers holding the source can render it with
// its line and caret.
func errorAt(pos syntax.Pos, format string, args ...any) error {
	return &syntax.Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}
