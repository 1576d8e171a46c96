package sched

import (
	"errors"
	"fmt"
	"math"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
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
	c := &stepCounter{indexScope: indexScope{params: params}, limit: min(limit, math.MaxInt64/4)}
	err := c.kernel(k, info)
	if errors.Is(err, errPastLimit) {
		return c.n, nil
	}
	if err != nil {
		return 0, fmt.Errorf("steps of kernel %s: %w", kernelName(k), err)
	}
	return c.n, nil
}

// StepsTo returns the steps Run takes on the checked kernel k (info is
// Check's result) at the parameter values params before it can report a
// failure of the statement target at one execution of it: the one where
// the variables of the loops around target have the values at,
// outermost first (a loop absent from at matches any value). Those are the steps up
// to that execution, then the steps of the later iterations of every par
// loop around it, which Run completes before it reports a failure of one
// of their iterations (Clément 2022, rule U-PARLOOP). reached is false
// when the run ends without executing target at that point; a run that
// fails earlier, elsewhere, takes fewer steps and reports another
// failure. As with Steps, the count stops once it passes limit: a result
// greater than limit (with reached false) only says that Run cannot
// report the failure within limit steps.
func StepsTo(k *Kernel, info *Info, params map[string]int64, target Stmt, at []Var, limit int64) (n int64, reached bool, err error) {
	c := &stepCounter{indexScope: indexScope{params: params}, limit: min(limit, math.MaxInt64/4), target: target, at: at}
	err = c.kernel(k, info)
	switch {
	case errors.Is(err, errReached):
		return c.n, true, nil
	case errors.Is(err, errPastLimit):
		return c.n, false, nil
	case err != nil:
		return 0, false, fmt.Errorf("steps of kernel %s: %w", kernelName(k), err)
	}
	return c.n, false, nil
}

// errPastLimit stops a count past its limit.
var errPastLimit = errors.New("past the limit")

// errReached unwinds a count from the execution of the statement that
// StepsTo looks for, as a failure there unwinds Run.
var errReached = errors.New("reached the target")

// stepCounter walks a kernel's control flow as Run does, counting the
// steps Run counts: every statement executed, every iteration of a loop,
// every cell of an array with a binding, once per binding.
type stepCounter struct {
	indexScope
	n     int64
	limit int64
	// target and at are StepsTo's statement and loop values, if any.
	target Stmt
	at     []Var
	// uniformLoops memoises uniform, by loop.
	uniformLoops map[*Loop]bool
}

// uniform reports whether every iteration of the loop l takes the same
// steps, so that one iteration counts for all: no bound, condition or
// let in its body reads l's variable (nor binds its name again), and the
// body holds no statement StepsTo looks for.
func (c *stepCounter) uniform(l *Loop) bool {
	if u, ok := c.uniformLoops[l]; ok {
		return u
	}
	name, u := l.Var.Name, true
	reads := func(x syntax.Expr) {
		syntax.Inspect(x, func(e syntax.Expr) bool {
			if id, ok := e.(*syntax.Ident); ok && id.Name == name {
				u = false
			}
			return u
		})
	}
	Walk(l.Body, func(s Stmt) bool {
		if c.target != nil && s == c.target {
			u = false
		}
		switch s := s.(type) {
		case *If:
			reads(s.Cond)
		case *Let:
			u = u && s.Var.Name != name
			reads(s.Value)
		case *Loop:
			u = u && s.Var.Name != name
			lo, hi := s.Bounds()
			reads(lo)
			reads(hi)
		}
		return u
	})
	if c.uniformLoops == nil {
		c.uniformLoops = map[*Loop]bool{}
	}
	c.uniformLoops[l] = u
	return u
}

// atTarget reports whether s, executed now, is StepsTo's target.
func (c *stepCounter) atTarget(s Stmt) bool {
	if c.target == nil || s != c.target {
		return false
	}
	// Innermost first: those change most often.
	for i := len(c.at) - 1; i >= 0; i-- {
		if v, ok := c.Index(c.at[i].Name); !ok || v != c.at[i].Value {
			return false
		}
	}
	return true
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
			n, err := expr.EvalIndex(x, c)
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
	if c.atTarget(s) {
		return errReached
	}
	switch s := s.(type) {
	case *If:
		ok, err := expr.EvalCond(s.Cond, c)
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
		n, err := expr.EvalIndex(s.Value, c)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Pos(), err)
		}
		c.vars = append(c.vars, Var{Name: s.Var.Name, Value: n})
	case *Alloc:
		return c.block(s.Body)
	case *Loop:
		loX, hiX := s.Bounds()
		lo, err := expr.EvalIndex(loX, c)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Pos(), err)
		}
		hi, err := expr.EvalIndex(hiX, c)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Pos(), err)
		}
		c.vars = append(c.vars, Var{Name: s.Var.Name})
		defer func() { c.vars = c.vars[:len(c.vars)-1] }()
		if lo < hi && c.uniform(s) {
			// One iteration, as many times as the loop runs.
			c.vars[len(c.vars)-1].Value = lo
			start := c.n
			if err := c.add(1); err != nil {
				return err
			}
			if err := c.block(s.Body); err != nil {
				return err
			}
			// per >= 1 (the iteration's own step) and c.n <= c.limit.
			per := c.n - start
			rest := uint64(hi) - uint64(lo) - 1 // hi > lo: exact in uint64
			if rest > uint64(c.limit-c.n)/uint64(per) {
				c.n = c.limit + 1
				return errPastLimit
			}
			return c.add(int64(rest) * per)
		}
		var reached error
		for x := lo; x < hi; x++ {
			if err := c.add(1); err != nil {
				return err
			}
			c.vars[len(c.vars)-1].Value = x
			err := c.block(s.Body)
			if s.Par && errors.Is(err, errReached) {
				// Run finishes the loop before it reports the failure
				// of an iteration.
				reached = err
				continue
			}
			if err != nil {
				return err
			}
		}
		return reached
	case *Block:
		return c.block(s)
	}
	return nil
}

// Tensor implements expr.Env: index expressions read no tensors.
func (c *stepCounter) Tensor(name string, _ []int64) (value.Value, error) {
	return value.Value{}, fmt.Errorf("tensor %s read in an index expression", name)
}
