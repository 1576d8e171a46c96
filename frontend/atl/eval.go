package atl

import (
	"context"
	"errors"
	"fmt"
)

// Tensor is an ATL value: a scalar (empty Shape) or a multi-dimensional
// tensor stored row-major. Pad marks the cells holding padding, ATL's
// pad value, which behaves as zero (Data is 0 there).
type Tensor struct {
	Shape []int64
	Data  []float64
	Pad   []bool
}

// InputFunc gives the element of an input tensor at an index.
type InputFunc func(name string, idx []int64) float64

// ErrEvalBudget is returned when an evaluation exceeds its step budget.
var ErrEvalBudget = errors.New("evaluation budget exhausted")

// Eval evaluates the program's def (the reference semantics) at the
// given parameter values, reading inputs from in. Reads outside a
// tensor give 0, as in ATL; division by zero is an error (ATL's
// semantics is partial there).
func (c *Checked) Eval(ctx context.Context, params map[string]int64, in InputFunc) (*Tensor, error) {
	return c.eval(ctx, c.def, params, in)
}

// EvalSchedule evaluates the schedule (or the def when there is none).
func (c *Checked) EvalSchedule(ctx context.Context, params map[string]int64, in InputFunc) (*Tensor, error) {
	if c.sched == nil {
		return c.Eval(ctx, params, in)
	}
	return c.eval(ctx, c.sched, params, in)
}

func (c *Checked) eval(ctx context.Context, n *node, params map[string]int64, in InputFunc) (*Tensor, error) {
	env := map[string]int64{}
	for _, p := range c.params {
		v, ok := params[p]
		if !ok {
			return nil, fmt.Errorf("no value for parameter %s", p)
		}
		env[p] = v
	}
	for _, a := range c.assumes {
		ok, err := a.eval(env)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("the parameters violate the assumption %s", a)
		}
	}
	ev := &evaluator{ctx: ctx, idx: env, tensors: map[string]*Tensor{}, input: in, budget: 50_000_000}
	for _, t := range c.inputs {
		sh, err := ev.shape(t.shape)
		if err != nil {
			return nil, fmt.Errorf("input %s: %w", t.name, err)
		}
		ev.inputs = append(ev.inputs, t.name)
		ev.tensors[t.name] = &Tensor{Shape: sh} // read through input
	}
	return ev.eval(n)
}

type evaluator struct {
	ctx     context.Context
	idx     map[string]int64
	tensors map[string]*Tensor
	inputs  []string
	input   InputFunc
	budget  int
}

func (ev *evaluator) shape(sh []*aff) ([]int64, error) {
	out := make([]int64, len(sh))
	for i, d := range sh {
		v, err := d.eval(ev.idx)
		if err != nil {
			return nil, err
		}
		if v < 0 {
			return nil, fmt.Errorf("dimension %s is %d, negative", d, v)
		}
		out[i] = v
	}
	return out, nil
}

func size(sh []int64) int64 {
	n := int64(1)
	for _, d := range sh {
		n *= d
	}
	return n
}

func padTensor(sh []int64) *Tensor {
	n := size(sh)
	t := &Tensor{Shape: sh, Data: make([]float64, n), Pad: make([]bool, n)}
	for i := range t.Pad {
		t.Pad[i] = true
	}
	return t
}

func (ev *evaluator) bind(name string, v int64, f func() (*Tensor, error)) (*Tensor, error) {
	old, had := ev.idx[name]
	ev.idx[name] = v
	t, err := f()
	if had {
		ev.idx[name] = old
	} else {
		delete(ev.idx, name)
	}
	return t, err
}

func (ev *evaluator) bindTensor(name string, v *Tensor, f func() (*Tensor, error)) (*Tensor, error) {
	old, had := ev.tensors[name]
	ev.tensors[name] = v
	t, err := f()
	if had {
		ev.tensors[name] = old
	} else {
		delete(ev.tensors, name)
	}
	return t, err
}

// eval computes the value of n under the current bindings, each node
// evaluated counting against the budget.
func (ev *evaluator) eval(n *node) (*Tensor, error) {
	if ev.budget--; ev.budget < 0 {
		return nil, ErrEvalBudget
	}
	if ev.budget%4096 == 0 {
		if err := ev.ctx.Err(); err != nil {
			return nil, err
		}
	}
	sh, err := ev.shape(n.shape)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", n.pos, err)
	}
	switch n.kind {
	case kScalar:
		v, err := ev.scalar(n.s)
		if err != nil {
			return nil, err
		}
		return &Tensor{Data: []float64{v}, Pad: []bool{false}}, nil
	case kGen:
		return ev.gen(n, sh)
	case kSum:
		return ev.sum(n, sh)
	case kGuard:
		ok, err := n.cond.eval(ev.idx)
		if err != nil {
			return nil, err
		}
		if !ok {
			return padTensor(sh), nil
		}
		return ev.eval(n.kids[0])
	case kLet:
		v, err := ev.eval(n.kids[0])
		if err != nil {
			return nil, err
		}
		return ev.bindTensor(n.v, v, func() (*Tensor, error) { return ev.eval(n.kids[1]) })
	case kWide:
		return ev.wide(n, 0)
	case kGenRec:
		return ev.genrec(n)
	}
	x, err := ev.eval(n.kids[0])
	if err != nil {
		return nil, err
	}
	switch n.kind {
	case kConcat, kFlatten, kSplit, kTranspose:
		return ev.rearrange(n, sh, x)
	}
	return ev.padOrTruncate(n, sh, x)
}

// gen evaluates the Gen n of shape sh: its body's values for each index,
// one after another.
func (ev *evaluator) gen(n *node, sh []int64) (*Tensor, error) {
	lo, hi, err := ev.bounds(n)
	if err != nil {
		return nil, err
	}
	out := &Tensor{Shape: sh}
	for i := lo; i < hi; i++ {
		t, err := ev.bind(n.v, i, func() (*Tensor, error) { return ev.eval(n.kids[0]) })
		if err != nil {
			return nil, err
		}
		out.Data = append(out.Data, t.Data...)
		out.Pad = append(out.Pad, t.Pad...)
	}
	return out, nil
}

// sum evaluates the Sum n of shape sh: the sum of its body's values over
// its index, padding where every term is padding.
func (ev *evaluator) sum(n *node, sh []int64) (*Tensor, error) {
	lo, hi, err := ev.bounds(n)
	if err != nil {
		return nil, err
	}
	out := padTensor(sh)
	for i := lo; i < hi; i++ {
		t, err := ev.bind(n.v, i, func() (*Tensor, error) { return ev.eval(n.kids[0]) })
		if err != nil {
			return nil, err
		}
		for j := range out.Data {
			if !t.Pad[j] {
				out.Data[j] += t.Data[j]
				out.Pad[j] = false
			}
		}
	}
	return out, nil
}

// rearrange evaluates the concatenation, flattening, split or
// transposition n of shape sh, whose first operand is x.
func (ev *evaluator) rearrange(n *node, sh []int64, x *Tensor) (*Tensor, error) {
	switch n.kind {
	case kConcat:
		y, err := ev.eval(n.kids[1])
		if err != nil {
			return nil, err
		}
		return &Tensor{Shape: sh, Data: append(append([]float64(nil), x.Data...), y.Data...), Pad: append(append([]bool(nil), x.Pad...), y.Pad...)}, nil
	case kFlatten:
		return &Tensor{Shape: sh, Data: x.Data, Pad: x.Pad}, nil
	case kSplit:
		out := padTensor(sh)
		copy(out.Data, x.Data)
		copy(out.Pad, x.Pad)
		return out, nil
	}
	// kTranspose
	out := &Tensor{Shape: sh, Data: make([]float64, len(x.Data)), Pad: make([]bool, len(x.Pad))}
	a, b := x.Shape[0], x.Shape[1]
	inner := size(x.Shape[2:])
	for i := int64(0); i < a; i++ {
		for j := int64(0); j < b; j++ {
			src, dst := (i*b+j)*inner, (j*a+i)*inner
			copy(out.Data[dst:dst+inner], x.Data[src:src+inner])
			copy(out.Pad[dst:dst+inner], x.Pad[src:src+inner])
		}
	}
	return out, nil
}

// padOrTruncate evaluates the truncation or padding n of shape sh of x by
// its count k of rows, on the left or the right.
func (ev *evaluator) padOrTruncate(n *node, sh []int64, x *Tensor) (*Tensor, error) {
	k, err := n.k.eval(ev.idx)
	if err != nil {
		return nil, err
	}
	inner := size(x.Shape[1:])
	rows := x.Shape[0]
	switch n.kind {
	case kTruncl, kTruncr:
		if k < 0 || k > rows {
			return nil, fmt.Errorf("%s: cannot truncate %d of %d elements", n.pos, k, rows)
		}
		from, to := k*inner, rows*inner
		if n.kind == kTruncr {
			from, to = 0, (rows-k)*inner
		}
		return &Tensor{Shape: sh, Data: x.Data[from:to], Pad: x.Pad[from:to]}, nil
	}
	if k < 0 {
		return nil, fmt.Errorf("%s: cannot pad by %d", n.pos, k)
	}
	p := padTensor(append([]int64{k}, x.Shape[1:]...))
	if n.kind == kPadl {
		return &Tensor{Shape: sh, Data: append(p.Data, x.Data...), Pad: append(p.Pad, x.Pad...)}, nil
	}
	return &Tensor{Shape: sh, Data: append(append([]float64(nil), x.Data...), p.Data...), Pad: append(append([]bool(nil), x.Pad...), p.Pad...)}, nil
}

func (ev *evaluator) bounds(n *node) (int64, int64, error) {
	lo, err := n.lo.eval(ev.idx)
	if err != nil {
		return 0, 0, err
	}
	hi, err := n.hi.eval(ev.idx)
	return lo, hi, err
}

// wide evaluates the lanes from the i-th on, each bound in the next (the
// sequential reading of a wide binding), then the body.
func (ev *evaluator) wide(n *node, i int) (*Tensor, error) {
	if i == len(n.lanes) {
		return ev.eval(n.kids[i])
	}
	v, err := ev.eval(n.kids[i])
	if err != nil {
		return nil, err
	}
	return ev.bindTensor(n.lanes[i].name, v, func() (*Tensor, error) { return ev.wide(n, i+1) })
}

// genrec iterates the generator from all padding, each step reading the
// previous table, as many times as the table has elements: the fixpoint
// of a well-founded recurrence (repeat_eval).
func (ev *evaluator) genrec(n *node) (*Tensor, error) {
	g := n.kids[0]
	sh, err := ev.shape(g.shape)
	if err != nil {
		return nil, err
	}
	t := padTensor(sh)
	for step := int64(0); step < size(sh); step++ {
		t, err = ev.bindTensor(n.v, t, func() (*Tensor, error) { return ev.eval(g) })
		if err != nil {
			return nil, err
		}
	}
	return ev.bindTensor(n.v, t, func() (*Tensor, error) { return ev.eval(n.kids[1]) })
}

func (ev *evaluator) scalar(s *sx) (float64, error) {
	switch s.op {
	case 'n':
		return s.val, nil
	case 'i':
		v, err := s.index.eval(ev.idx)
		return float64(v), err
	case 'g':
		idx := make([]int64, len(s.idx))
		for i, x := range s.idx {
			v, err := x.eval(ev.idx)
			if err != nil {
				return 0, err
			}
			idx[i] = v
		}
		t := ev.tensors[s.name]
		off := int64(0)
		for i, v := range idx {
			if v < 0 || v >= t.Shape[i] {
				return 0, nil // out of bounds reads give 0 in ATL
			}
			off = off*t.Shape[i] + v
		}
		if t.Data == nil && ev.isInput(s.name) {
			return ev.input(s.name, idx), nil
		}
		return t.Data[off], nil
	case '~':
		v, err := ev.scalar(s.x)
		return -v, err
	}
	x, err := ev.scalar(s.x)
	if err != nil {
		return 0, err
	}
	y, err := ev.scalar(s.y)
	if err != nil {
		return 0, err
	}
	switch s.op {
	case '+':
		return x + y, nil
	case '-':
		return x - y, nil
	case '*':
		return x * y, nil
	}
	if y == 0 {
		return 0, fmt.Errorf("%s: division by zero", s.pos)
	}
	return x / y, nil
}

func (ev *evaluator) isInput(name string) bool {
	for _, n := range ev.inputs {
		if n == name {
			return true
		}
	}
	return false
}
