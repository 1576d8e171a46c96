package sched

import (
	"errors"
	"fmt"
	"math"

	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/value"
)

// Steps returns the steps (see Options.MaxSteps) that Run takes on the
// checked kernel k (info is Check's result) at the parameter values
// params, which must satisfy the kernel's assumptions, when no failure
// stops it; a run that fails stops earlier and takes fewer. The count
// stops once it passes limit: a result greater than limit only says that
// the run needs more than limit steps.
//
// The control flow of a kernel (loop bounds, conditions, lets, extents)
// depends on the parameters alone, never on the contents of arrays, so
// the count walks it without evaluating a single value or cell: at a
// small fraction of the cost of the run. An index expression that cannot
// be evaluated (a run fails there) gives an error.
func Steps(k *Kernel, info *Info, params map[string]int64, limit int64) (int64, error) {
	// Sums of counts up to the limit stay far from overflowing.
	c := &stepCounter{params: params, limit: min(limit, math.MaxInt64/4)}
	err := c.kernel(k, info)
	if errors.Is(err, errPastLimit) {
		return c.n, nil
	}
	if err != nil {
		return 0, fmt.Errorf("steps of kernel %s: %w", kernelName(k), err)
	}
	return c.n, nil
}

// errPastLimit stops a count past its limit.
var errPastLimit = errors.New("past the limit")

// stepCounter walks a kernel's control flow as Run does, counting the
// steps Run counts: every statement executed, every iteration of a loop,
// every cell of an array with a binding, once per binding.
type stepCounter struct {
	params map[string]int64
	vars   []Var // loop and let variables in scope, innermost last
	n      int64
	limit  int64
}

// add counts n steps.
func (c *stepCounter) add(n int64) error {
	c.n += n
	if c.n > c.limit {
		return errPastLimit
	}
	return nil
}

func (c *stepCounter) kernel(k *Kernel, info *Info) error {
	cells := make([]int64, len(info.Arrays))
	for i, a := range info.Arrays {
		size := int64(1)
		for _, x := range a.Extents {
			n, err := sare.EvalIndex(x, c)
			if err != nil {
				return fmt.Errorf("extent of %s: %w", a.Name, err)
			}
			if n = max(n, 0); n != 0 && size > math.MaxInt64/n {
				size = math.MaxInt64
			} else {
				size *= n
			}
			// Past the limit, the array's bindings alone pass it.
			size = min(size, c.limit+1)
		}
		cells[i] = size
	}
	bindings := func(dir Dir) error {
		for i, a := range info.Arrays {
			for _, b := range a.Bindings {
				if b.Dir != dir {
					continue
				}
				if err := c.add(cells[i]); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := bindings(In); err != nil {
		return err
	}
	if k.Body != nil {
		if err := c.block(k.Body); err != nil {
			return err
		}
	}
	return bindings(Out)
}

func (c *stepCounter) block(b *Block) error {
	mark := len(c.vars)
	defer func() { c.vars = c.vars[:mark] }()
	for _, s := range b.Stmts {
		if err := c.stmt(s); err != nil {
			return err
		}
	}
	return nil
}

func (c *stepCounter) stmt(s Stmt) error {
	if err := c.add(1); err != nil {
		return err
	}
	switch s := s.(type) {
	case *If:
		ok, err := sare.EvalCond(s.Cond, c)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Pos(), err)
		}
		if ok {
			return c.block(s.Then)
		}
		if s.Else != nil {
			return c.stmt(s.Else)
		}
	case *Let:
		n, err := sare.EvalIndex(s.Value, c)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Pos(), err)
		}
		c.vars = append(c.vars, Var{Name: s.Var.Name, Value: n})
	case *Alloc:
		return c.block(s.Body)
	case *Loop:
		loX, hiX := s.Bounds()
		lo, err := sare.EvalIndex(loX, c)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Pos(), err)
		}
		hi, err := sare.EvalIndex(hiX, c)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Pos(), err)
		}
		c.vars = append(c.vars, Var{Name: s.Var.Name})
		defer func() { c.vars = c.vars[:len(c.vars)-1] }()
		for x := lo; x < hi; x++ {
			if err := c.add(1); err != nil {
				return err
			}
			c.vars[len(c.vars)-1].Value = x
			if err := c.block(s.Body); err != nil {
				return err
			}
		}
	case *Block:
		return c.block(s)
	}
	return nil
}

// Index implements sare.Env for index expressions.
func (c *stepCounter) Index(name string) (int64, bool) {
	for i := len(c.vars) - 1; i >= 0; i-- {
		if c.vars[i].Name == name {
			return c.vars[i].Value, true
		}
	}
	n, ok := c.params[name]
	return n, ok
}

// Tensor implements sare.Env: index expressions read no tensors.
func (c *stepCounter) Tensor(name string, _ []int64) (value.Value, error) {
	return value.Value{}, fmt.Errorf("tensor %s read in an index expression", name)
}

// Array implements sare.Env: index expressions read no arrays.
func (c *stepCounter) Array(name string, _ []int64) (value.Value, error) {
	return value.Value{}, fmt.Errorf("array %s read in an index expression", name)
}
