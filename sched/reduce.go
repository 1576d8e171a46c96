package sched

import (
	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
)

// This file checks the reduction forms of assignments (Clément 2022,
// Section 7.3): initialisations `{T(x) @ ()} := e`, accumulations
// `{T(x) @ (j)} OP= e` and merges `{T(x)} OP= b[...]`.

// reduction is the element of a reduction tensor that the annotation of
// a reduction assignment names.
type reduction struct {
	call   *syntax.Call // the annotation
	tensor string
	elem   syntax.Type // the tensor's element type
	rank   int
	op     expr.ReduceOp
	vars   int // the number of variables it reduces over
}

// reductionOf returns the reduction tensor named by the annotation of a
// reduction assignment; ok is false when the annotation is not a call of
// a reduction tensor of spec.
func reductionOf(s *Assign, spec Spec) (r reduction, ok bool) {
	c, isCall := s.Annot.(*syntax.Call)
	if !isCall || spec == nil {
		return reduction{}, false
	}
	elem, rank, ok := spec.TensorType(c.Fun.Name)
	if !ok {
		return reduction{}, false
	}
	op, vars, ok := spec.ReductionOp(c.Fun.Name)
	if !ok {
		return reduction{}, false
	}
	return reduction{call: c, tensor: c.Fun.Name, elem: elem, rank: rank, op: op, vars: vars}, true
}

// MergeSource returns the array read a merge `{T(x)} OP= b[...]` combines,
// or nil when s is not a merge.
func MergeSource(s *Assign) *syntax.Index {
	if s.Op == expr.NoReduce || s.At != nil {
		return nil
	}
	ix, _ := s.Value.(*syntax.Index)
	return ix
}

func (c *checker) reductionAssign(s *Assign) {
	red, ok := reductionOf(s, c.spec)
	pos := s.Annot.Pos()
	if !ok {
		c.errorf(pos, syntax.CodeDefinition, "the annotation of a reduction assignment must be an element of a reduction tensor, as T(x) with T defined by reduce(...)")
		return
	}
	if len(red.call.Args) != red.rank {
		return // reported by the annotation's check
	}
	switch {
	case s.At == nil && s.Op == expr.NoReduce:
		// unreachable: not a reduction assignment
	case s.At != nil && len(s.At) == 0 && s.Op != expr.NoReduce:
		c.errorf(s.AtPos, syntax.CodeDefinition, "@ () initialises an accumulator and takes ':=', not %s=", s.Op)
	case len(s.At) > 0 && s.Op == expr.NoReduce:
		c.errorf(s.AtPos, syntax.CodeDefinition, "an accumulation at a reduction position takes %s=, not ':='", red.op)
	case len(s.At) > 0 && len(s.At) != red.vars:
		c.errorf(s.AtPos, syntax.CodeArity, "%s reduces over %d variable(s), position has %d", red.tensor, red.vars, len(s.At))
	case s.At == nil && MergeSource(s) == nil:
		c.errorf(s.Value.Pos(), syntax.CodeDefinition, "a merge {%s} %s= must read one array cell holding a partial result", syntax.ExprString(s.Annot), s.Op)
	}
	for _, x := range s.At {
		c.exprs(false).Index(x)
	}
}
