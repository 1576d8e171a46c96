package web

import (
	"context"
	"fmt"
	"time"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
	"github.com/augur-verify/augur/value"
)

// explanation is what the counterexample's numbers come from: the
// specification's equation behind the annotation, and the values of the
// elements the two sides read, recomputed with the reference evaluator on
// the counterexample's inputs. It is only shown when the recomputation
// gives the report's two numbers again.
type explanation struct {
	// Equation is the specification's equation defining the annotation's
	// element, as written; Line the anchor of its line in the listing.
	Equation string
	Line     string
	LineN    int
	// Annotation lists the elements the equation reads at the
	// counterexample's point, Computed those the kernel's computed
	// expression reads, each with its value.
	Annotation, Computed []element
	// Inputs are the input elements behind the computed number (those
	// its elements read, down to the inputs), at most maxInputs of them;
	// MoreInputs counts the others.
	Inputs     []element
	MoreInputs int
	// Seed is the seed of the random inputs; Fixed tells that some
	// inputs are the counterexample's own.
	Seed  uint64
	Fixed bool
}

// element is a tensor element and its value.
type element struct{ Name, Value string }

// Bounds of an explanation: the work of the evaluator, its time (an outer
// guard), and the inputs listed.
const (
	explainMaxPoints = 1 << 16
	explainTimeout   = 2 * time.Second
	maxInputs        = 24
)

// explain recomputes the counterexample cx of a failed value condition
// over the specification (spec, named specName), or returns nil when it
// cannot: no annotation, a failure the evaluator cannot replay, numbers
// that differ from the report's. The random inputs are those of the
// counterexample's seed.
func explain(ctx context.Context, specName, spec string, cx *validate.Counterexample) *explanation {
	if cx == nil || cx.ExpectedExpr == "" || cx.ActualExpr == "" || cx.ExpectedValue == "" || cx.ActualValue == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, explainTimeout)
	defer cancel()
	s, info, err := sare.Load(&syntax.Source{Name: specName, Text: spec})
	if err != nil {
		return nil
	}
	q := readCounterexample(s, cx)
	if q == nil {
		return nil
	}
	ev, err := sare.NewEvaluator(s, info, q.params, q.inputs(cx.Seed, nil))
	if err != nil {
		return nil
	}
	ev.MaxPoints = explainMaxPoints
	want, err := ev.Eval(ctx, q.tensor.Name.Name, q.idx)
	if err != nil || want.String() != cx.ExpectedValue {
		return nil
	}
	got, err := expr.EvalValue(q.computed, q.cinfo, ev.Env(ctx))
	if err != nil || got.String() != cx.ActualValue {
		return nil
	}
	x := &explanation{Seed: cx.Seed, Fixed: len(q.fixed) > 0}
	if eq := equationAt(s, q.tensor, q.idx, q.params); eq != nil {
		x.Equation = eq.String()
		x.Line, x.LineN = fmt.Sprintf("S%d", eq.Pos().Line), eq.Pos().Line
		if eq.Reduce == nil {
			env := &pointEnv{params: q.params, vars: eq.Vars, idx: q.idx}
			x.Annotation = elements(ctx, ev, s, eq.RHS, env)
		}
	}
	x.Computed = elements(ctx, ev, s, q.computed, &pointEnv{params: q.params})
	x.listInputs(ctx, s, info, q, cx.Seed)
	return x
}

// cxQuery is a counterexample read against the specification: the
// element its annotation names, the expression the kernel computes, and
// the values it fixes.
type cxQuery struct {
	params map[string]int64
	// fixed are the counterexample's own inputs, by element
	// ("In(2, 0)"); the others are random.
	fixed map[string]value.Value
	// tensor and idx are the annotation's element.
	tensor *sare.Tensor
	idx    []int64
	// computed is the kernel's expression, checked against the
	// specification (cinfo).
	computed syntax.Expr
	cinfo    *expr.Info
}

// readCounterexample reads cx against s, or returns nil when its
// annotation is not an element of a computed tensor of s at constant
// indices, or its inputs or computed expression do not check against s.
func readCounterexample(s *sare.Spec, cx *validate.Counterexample) *cxQuery {
	q := &cxQuery{params: map[string]int64{}, fixed: map[string]value.Value{}}
	for _, p := range cx.Params {
		q.params[p.Name] = p.Value
	}
	for _, in := range cx.Inputs {
		t := s.Tensor(in.Tensor)
		if t == nil || !t.Input {
			return nil
		}
		v, err := value.Parse(t.Type, in.Value)
		if err != nil {
			return nil
		}
		q.fixed[expr.FormatIndex(in.Tensor, in.Index, '(', ')')] = v
	}
	annot, err := syntax.ParseExprString(cx.ExpectedExpr)
	if err != nil {
		return nil
	}
	call, ok := annot.(*syntax.Call)
	if !ok || s.Tensor(call.Fun.Name) == nil || s.Tensor(call.Fun.Name).Input {
		return nil
	}
	q.tensor = s.Tensor(call.Fun.Name)
	if q.idx, err = constIndices(call.Args, q.params); err != nil {
		return nil
	}
	if q.computed, err = syntax.ParseExprString(cx.ActualExpr); err != nil {
		return nil
	}
	q.cinfo = expr.NewInfo()
	r := &syntax.Reporter{}
	(&expr.Checker{R: r, Scope: specScope{s}, Info: q.cinfo, AllowTensors: true}).Value(q.computed, q.tensor.Type)
	if r.Errs.Err() != nil {
		return nil
	}
	return q
}

// inputs are the counterexample's inputs: its own, random ones of seed
// for the others. rec, when set, is told of every input element read.
func (q *cxQuery) inputs(seed uint64, rec func(*sare.Tensor, []int64, value.Value)) sare.Inputs {
	random := sare.RandomInputs(seed)
	return sare.InputFunc(func(t *sare.Tensor, idx []int64) (value.Value, error) {
		v, ok := q.fixed[expr.FormatIndex(t.Name.Name, idx, '(', ')')]
		if !ok {
			var err error
			if v, err = random.Input(t, idx); err != nil {
				return v, err
			}
		}
		if rec != nil {
			rec(t, idx, v)
		}
		return v, nil
	})
}

// listInputs lists the inputs behind the computed number (of inputs of
// seed), at most maxInputs of them: each element the computed expression
// reads is evaluated afresh, so that every input it reads is seen.
func (x *explanation) listInputs(ctx context.Context, s *sare.Spec, info *expr.Info, q *cxQuery, seed uint64) {
	seen := map[string]bool{}
	rec := func(t *sare.Tensor, idx []int64, v value.Value) {
		k := expr.FormatIndex(t.Name.Name, idx, '(', ')')
		if seen[k] {
			return
		}
		seen[k] = true
		if len(x.Inputs) < maxInputs {
			x.Inputs = append(x.Inputs, element{k, v.String()})
		} else {
			x.MoreInputs++
		}
	}
	for _, c := range refs(s, q.computed) {
		ev, err := sare.NewEvaluator(s, info, q.params, q.inputs(seed, rec))
		if err != nil {
			return
		}
		ev.MaxPoints = explainMaxPoints
		if idx, err := indices(c.Args, &pointEnv{params: q.params}); err == nil {
			_, _ = ev.Eval(ctx, c.Fun.Name, idx)
		}
	}
}

// specScope resolves names in an expression over a specification's
// tensors, outside any equation: parameters are its only indices.
type specScope struct{ s *sare.Spec }

func (c specScope) IsIndex(name string) bool { return c.s.IsParam(name) }
func (c specScope) Tensor(name string) (syntax.Type, int, bool) {
	return c.s.TensorType(name)
}
func (specScope) Array(string) (syntax.Type, int, bool) {
	return syntax.Invalid, 0, false
}

// pointEnv evaluates index expressions at a point: the parameters, and an
// equation's variables bound to the point's indices.
type pointEnv struct {
	params map[string]int64
	vars   []*syntax.Ident
	idx    []int64
}

func (e *pointEnv) Index(name string) (int64, bool) {
	for i, v := range e.vars {
		if v.Name == name && i < len(e.idx) {
			return e.idx[i], true
		}
	}
	n, ok := e.params[name]
	return n, ok
}

func (e *pointEnv) Tensor(name string, _ []int64) (value.Value, error) {
	return value.Value{}, fmt.Errorf("no tensor %s in an index", name)
}

func (e *pointEnv) Array(name string, _ []int64) (value.Value, error) {
	return value.Value{}, fmt.Errorf("no array %s in an index", name)
}

// constIndices evaluates a tensor access's arguments.
func constIndices(args []syntax.Expr, params map[string]int64) ([]int64, error) {
	return indices(args, &pointEnv{params: params})
}

func indices(args []syntax.Expr, env expr.Env) ([]int64, error) {
	idx := make([]int64, len(args))
	for i, a := range args {
		n, err := expr.EvalIndex(a, env)
		if err != nil {
			return nil, err
		}
		idx[i] = n
	}
	return idx, nil
}

// equationAt returns the equation of t whose domain holds idx (nil if
// none does, or if it cannot tell).
func equationAt(s *sare.Spec, t *sare.Tensor, idx []int64, params map[string]int64) *sare.Equation {
	for _, eq := range t.Eqs {
		if len(eq.Vars) != len(idx) {
			return nil
		}
		if eq.Where == nil {
			return eq
		}
		ok, err := expr.EvalCond(eq.Where, &pointEnv{params: params, vars: eq.Vars, idx: idx})
		if err != nil {
			return nil
		}
		if ok {
			return eq
		}
	}
	return nil
}

// refs lists the tensor accesses of x, each once, in reading order.
func refs(s *sare.Spec, x syntax.Expr) []*syntax.Call {
	var out []*syntax.Call
	seen := map[string]bool{}
	syntax.Inspect(x, func(x syntax.Expr) bool {
		c, ok := x.(*syntax.Call)
		if !ok || s.Tensor(c.Fun.Name) == nil {
			return true
		}
		if k := syntax.ExprString(c); !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
		return false
	})
	return out
}

// elements evaluates the tensor elements x reads, its index expressions
// under env; an element that cannot be evaluated is left out.
func elements(ctx context.Context, ev *sare.Evaluator, s *sare.Spec, x syntax.Expr, env expr.Env) []element {
	var out []element
	seen := map[string]bool{}
	for _, c := range refs(s, x) {
		idx, err := indices(c.Args, env)
		if err != nil {
			continue
		}
		name := expr.FormatIndex(c.Fun.Name, idx, '(', ')')
		if seen[name] {
			continue
		}
		seen[name] = true
		v, err := ev.Eval(ctx, c.Fun.Name, idx)
		if err != nil {
			continue
		}
		out = append(out, element{name, v.String()})
	}
	return out
}
