package sare

import (
	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
)

// The elements a recurrence reads before its first evaluation.
//
// The evaluator finds the elements an equation's right-hand side reads by
// evaluating it (in probe mode, the elements not known yet reading as
// undefined), then computes them and evaluates the right-hand side again.
// Along a recurrence such as R(i) = R(i - 1) + A(i), reached from its
// last element (a scan's result, the histogram of a pixel's bin), each
// element evaluated that way finds its predecessor missing: every element
// of the chain was evaluated twice, the first time for nothing. An
// element pushed by one of its own tensor (a link of such a chain) is
// therefore first looked at without evaluating it: the indices of the
// tensor reads of its equation's right-hand side are evaluated, and the
// reads not known yet are computed first. The right-hand side is then
// evaluated once, as before. The elements computed are the same (every
// read of a right-hand side is evaluated, select being eager), and so
// are their values; only the order of the work changes. Reads at
// data-dependent indices are left to the evaluation, which finds them as
// before.

// tensorRead is a read T(e1, ..., en) of a right-hand side whose indices
// are plain index expressions (no data-dependent index).
type tensorRead struct {
	t    *Tensor
	args []syntax.Expr
}

// readsOf returns the tensor reads of eq's right-hand side at plain
// indices, memoised per equation; nil for a reduction, whose body is
// evaluated under its reduction's variables.
func (e *Evaluator) readsOf(eq *Equation) []tensorRead {
	if rs, ok := e.eqReads[eq]; ok {
		return rs
	}
	var rs []tensorRead
	if eq.Reduce == nil {
		syntax.Inspect(eq.RHS, func(x syntax.Expr) bool {
			c, ok := x.(*syntax.Call)
			if !ok || c.Fun == nil || !expr.ReadsElement(c) || e.tensors[c.Fun.Name] == nil {
				return true
			}
			t := e.tensors[c.Fun.Name]
			if len(c.Args) != t.Rank() {
				return true
			}
			for _, a := range c.Args {
				if e.info.IsDataIndex(a) {
					return true // its indices read data: left to the evaluation
				}
			}
			rs = append(rs, tensorRead{t: t, args: c.Args})
			return true
		})
	}
	if e.eqReads == nil {
		e.eqReads = map[*Equation][]tensorRead{}
	}
	e.eqReads[eq] = rs
	return rs
}

// prefetch returns the elements that the frame's right-hand side reads at
// plain indices and that are neither known nor inputs, in the order of
// the reads (each once), or nil when none is missing or an index cannot
// be evaluated (the evaluation then reports it).
func (e *Evaluator) prefetch(f *frame) []point {
	var missing []point
	var idx []int64
	for _, r := range e.readsOf(f.eq) {
		idx = idx[:0]
		for _, a := range r.args {
			n, err := expr.EvalIndex(a, &f.env)
			if err != nil {
				return nil
			}
			idx = append(idx, n)
		}
		if r.t.Input {
			continue
		}
		if _, ok := e.lookup(r.t, idx); ok {
			continue
		}
		k := key(r.t, idx)
		dup := false
		for _, m := range missing {
			if m.key == k {
				dup = true
				break
			}
		}
		if !dup {
			missing = append(missing, point{t: r.t, idx: append([]int64(nil), idx...), key: k})
		}
	}
	return missing
}
