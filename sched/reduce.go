package sched

import (
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/syntax"
)

// This file checks the reduction forms of assignments (Clément 2022,
// Section 7.3): initialisations `{T(x) @ ()} := e`, accumulations
// `{T(x) @ (j)} OP= e` and merges `{T(x)} OP= b[...]`.

// ReductionOf returns the reduction tensor named by the annotation of a
// reduction assignment, with its reduction equation; nil when the
// annotation is not a call of a reduction tensor of spec.
func ReductionOf(s *Assign, spec *sare.Spec) (*syntax.Call, *sare.Tensor, *sare.Equation) {
	c, ok := s.Annot.(*syntax.Call)
	if !ok || spec == nil {
		return nil, nil, nil
	}
	t := spec.Tensor(c.Fun.Name)
	if t == nil {
		return nil, nil, nil
	}
	eq := t.Reduction()
	if eq == nil {
		return nil, nil, nil
	}
	return c, t, eq
}

// MergeSource returns the array read a merge `{T(x)} OP= b[...]` combines,
// or nil when s is not a merge.
func MergeSource(s *Assign) *syntax.Index {
	if s.Op == sare.NoReduce || s.At != nil {
		return nil
	}
	ix, _ := s.Value.(*syntax.Index)
	return ix
}

func (c *checker) reductionAssign(s *Assign) {
	call, t, eq := ReductionOf(s, c.spec)
	pos := s.Annot.Pos()
	if t == nil {
		c.errorf(pos, syntax.CodeDefinition, "the annotation of a reduction assignment must be an element of a reduction tensor, as T(x) with T defined by reduce(...)")
		return
	}
	if len(call.Args) != t.Rank() {
		return // reported by the annotation's check
	}
	r := eq.Reduce
	switch {
	case s.At == nil && s.Op == sare.NoReduce:
		// unreachable: not a reduction assignment
	case s.At != nil && len(s.At) == 0 && s.Op != sare.NoReduce:
		c.errorf(s.AtPos, syntax.CodeDefinition, "@ () initialises an accumulator and takes ':=', not %s=", s.Op)
	case len(s.At) > 0 && s.Op == sare.NoReduce:
		c.errorf(s.AtPos, syntax.CodeDefinition, "an accumulation at a reduction position takes %s=, not ':='", r.Op)
	case len(s.At) > 0 && len(s.At) != len(r.Vars):
		c.errorf(s.AtPos, syntax.CodeArity, "%s reduces over %d variable(s), position has %d", t.Name.Name, len(r.Vars), len(s.At))
	case s.At == nil && MergeSource(s) == nil:
		c.errorf(s.Value.Pos(), syntax.CodeDefinition, "a merge {%s} %s= must read one array cell holding a partial result", syntax.ExprString(s.Annot), s.Op)
	}
	for _, x := range s.At {
		c.exprs(false).Index(x)
	}
}
