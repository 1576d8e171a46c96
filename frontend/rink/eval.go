package rink

import (
	"errors"
	"fmt"
)

// Value is an element of 𝕍 ∪ {•}: a number, or the undefined value •
// (the zero Value).
type Value struct {
	X       float64
	Defined bool
}

// Num is the defined value x.
func Num(x float64) Value { return Value{X: x, Defined: true} }

func (v Value) String() string {
	if !v.Defined {
		return "•"
	}
	return fmt.Sprint(v.X)
}

// Tensor is the part of a store that holds one variable: its cells in
// row-major order over Alloc, the allocated extents (the logical extents,
// or with padding the rounded-up ones).
type Tensor struct {
	Type  Shape // the logical type Γ(x)
	Alloc Shape
	Cells []Value
}

// At returns the cell at the 0-based multi-index idx.
func (t *Tensor) At(idx []int64) Value { return t.Cells[offset(t.Alloc, idx)] }

// Store is a dynamic store μ: each declared variable's tensor.
type Store map[string]*Tensor

// EvalOptions select the semantics of Eval.
type EvalOptions struct {
	// VectorLength, when positive, selects the padded semantics of
	// Section 4 (Figs. 13-14) with M = VectorLength: every extent is
	// rounded up to a multiple of M, padding cells start at 0 and every
	// statement computes the whole padded extent.
	VectorLength int64
	// F64 computes in binary64; by default every operation is rounded to
	// binary32, the element type of the generated specification.
	F64 bool
	// MaxCells bounds the cells of each variable and the work of each
	// statement (zero: 1<<22 cells).
	MaxCells int64
}

// ErrTooLarge is returned by Eval when a variable or a statement exceeds
// EvalOptions.MaxCells.
var ErrTooLarge = errors.New("rink: program too large to evaluate")

// Init gives the initial value of the logical cell idx (0-based) of a
// variable (rule d-var: any value of 𝕍 ∪ {•}).
type Init func(name string, idx []int64) Value

// Eval runs a checked program from the store that init describes and
// returns the final store (rule ev-prog): the semantics of Figs. 10-12,
// or with a vector length the padded one of Figs. 13-14. Division is the
// controlled division of Definition 8 (0/0 = 0/• = 0; any other division
// by 0 or by •, and any operation on •, gives •), which the paper adopts
// for both implementations.
func Eval(p *Program, info *Info, init Init, opts EvalOptions) (Store, error) {
	if opts.MaxCells <= 0 {
		opts.MaxCells = 1 << 22
	}
	ev := &evaluator{info: info, opts: opts, store: Store{}}
	for _, d := range p.Decls {
		t := Shape(d.Extents)
		alloc := ev.round(t)
		n, ok := cells(alloc, opts.MaxCells)
		if !ok {
			return nil, fmt.Errorf("%w: %s has more than %d cells", ErrTooLarge, d.Name.Name, opts.MaxCells)
		}
		x := &Tensor{Type: t, Alloc: alloc, Cells: make([]Value, n)}
		forEach(alloc, func(idx []int64) {
			v := Num(0) // d-pad-var: padding cells hold 0
			if inside(idx, t) {
				v = ev.round1(init(d.Name.Name, idx))
			}
			x.Cells[offset(alloc, idx)] = v
		})
		ev.store[d.Name.Name] = x
	}
	for _, s := range p.Stmts {
		x := ev.store[s.LHS.Name]
		// ev-stmt: every r_i from the old store, then all written.
		r := make([]Value, len(x.Cells))
		ev.work = 0
		forEach(x.Alloc, func(idx []int64) {
			r[offset(x.Alloc, idx)] = ev.eval(s.RHS, idx)
		})
		if ev.work > opts.MaxCells*64 {
			return nil, fmt.Errorf("%w: the statement assigning %s takes more than %d steps", ErrTooLarge, s.LHS.Name, opts.MaxCells*64)
		}
		x.Cells = r
	}
	return ev.store, nil
}

type evaluator struct {
	info  *Info
	opts  EvalOptions
	store Store
	work  int64
}

// round is ⌈t⌉ (Definition 7), or t without padding.
func (ev *evaluator) round(t Shape) Shape {
	m := ev.opts.VectorLength
	out := make(Shape, len(t))
	for i, d := range t {
		if m > 0 {
			d = (d + m - 1) / m * m
		}
		out[i] = d
	}
	return out
}

// round1 rounds a value to the element type.
func (ev *evaluator) round1(v Value) Value {
	if v.Defined && !ev.opts.F64 {
		v.X = float64(float32(v.X))
	}
	return v
}

// eval is eval_{Γ,μ}(e_i) of Fig. 12 (with ⌈Γ⌉ when padded), idx 0-based.
func (ev *evaluator) eval(e Expr, idx []int64) Value {
	ev.work++
	if ev.work > ev.opts.MaxCells*64 {
		return Value{}
	}
	switch e := e.(type) {
	case *VarRef: // (7)
		return ev.store[e.Name].At(idx)
	case *Paren: // (8)
		return ev.eval(e.X, idx)
	case *Product: // (9)
		k := len(ev.info.Types[e.X])
		return ev.arith('*', ev.eval(e.X, idx[:k]), ev.eval(e.Y, idx[k:]))
	case *Transpose: // (10)
		j := append([]int64(nil), idx...)
		j[e.M-1], j[e.N-1] = j[e.N-1], j[e.M-1]
		return ev.eval(e.X, j)
	case *Contract: // (11)
		t := ev.round(ev.info.Types[e.X])
		m, n := min(e.M, e.N)-1, max(e.M, e.N)-1
		j := make([]int64, len(t))
		for i, k := 0, 0; i < len(t); i++ {
			if i != m && i != n {
				j[i] = idx[k]
				k++
			}
		}
		sum := Num(0)
		for l := int64(0); l < t[m] && ev.work <= ev.opts.MaxCells*64; l++ {
			j[m], j[n] = l, l
			sum = ev.arith('+', sum, ev.eval(e.X, j))
		}
		return sum
	case *Binary: // (18)
		r := len(ev.info.Types[e])
		at := func(x Expr) []int64 {
			if len(ev.info.Types[x]) == r {
				return idx
			}
			return nil // a scalar operand
		}
		return ev.arith(e.Op, ev.eval(e.X, at(e.X)), ev.eval(e.Y, at(e.Y)))
	}
	return Value{}
}

// arith applies op with the extended arithmetic of Definition 4 and the
// controlled division of Definition 8, rounded to the element type.
func (ev *evaluator) arith(op byte, a, b Value) Value {
	if op == '/' && a.Defined && a.X == 0 && (!b.Defined || b.X == 0) {
		return Num(0)
	}
	if !a.Defined || !b.Defined {
		return Value{}
	}
	var x float64
	switch op {
	case '+':
		x = a.X + b.X
	case '-':
		x = a.X - b.X
	case '*':
		x = a.X * b.X
	case '/':
		if b.X == 0 {
			return Value{}
		}
		x = a.X / b.X
	}
	return ev.round1(Num(x))
}

// cells returns the number of cells of a tensor of extents t, and false
// when it exceeds limit.
func cells(t Shape, limit int64) (int64, bool) {
	n := int64(1)
	for _, d := range t {
		if d <= 0 || n > limit/d {
			return 0, false
		}
		n *= d
	}
	return n, true
}

func offset(t Shape, idx []int64) int64 {
	var off int64
	for i, d := range t {
		off = off*d + idx[i]
	}
	return off
}

func inside(idx []int64, t Shape) bool {
	for i, d := range t {
		if idx[i] >= d {
			return false
		}
	}
	return true
}

// forEach calls f on every multi-index below t, in row-major order; f
// must not keep idx.
func forEach(t Shape, f func(idx []int64)) {
	idx := make([]int64, len(t))
	for _, d := range t {
		if d <= 0 {
			return
		}
	}
	for {
		f(idx)
		i := len(t) - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < t[i] {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return
		}
	}
}
