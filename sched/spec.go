package sched

import (
	"context"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// Spec is what the kernel language sees of the specification a kernel
// implements: its parameters, the element types and ranks of its tensors,
// its reductions, its outputs and the names its language reserves. Check
// checks a kernel's interface and annotations against it; *sare.Spec is
// one.
type Spec interface {
	// ParamNames returns the parameters, in declaration order.
	ParamNames() []string
	// IsParam reports whether name is a parameter.
	IsParam(name string) bool
	// TensorType returns the element type and rank of the tensor called
	// name.
	TensorType(name string) (elem syntax.Type, rank int, ok bool)
	// ReductionOp returns the operator of the reduction tensor called
	// name and the number of variables it reduces over; ok is false when
	// there is no such reduction tensor.
	ReductionOp(name string) (op expr.ReduceOp, vars int, ok bool)
	// OutputNames returns the outputs, in declaration order.
	OutputNames() []string
	// Reserved reports whether name is reserved in the specification
	// language: a kernel cannot declare it either.
	Reserved(name string) bool
}

// Evaluator computes what Run checks a kernel against: the elements of
// the specification's tensors at given parameters, and the positions and
// bodies of its reductions. *sare.Evaluator is one.
type Evaluator interface {
	// Params returns the parameters' values.
	Params() map[string]int64
	// Eval returns the element idx of the tensor called name.
	Eval(ctx context.Context, name string, idx []int64) (value.Value, error)
	// ReductionDomain returns the positions of the reduction of element x
	// of the reduction tensor called name, in lexicographic order; nil
	// when x is not a defined element.
	ReductionDomain(ctx context.Context, name string, x []int64) ([][]int64, error)
	// ReductionBody returns the body of that reduction at position pt;
	// inDomain is false when x is not a defined element or pt is outside
	// its reduction's domain.
	ReductionBody(ctx context.Context, name string, x, pt []int64) (v value.Value, inDomain bool, err error)
}

// isTensor reports whether spec has a tensor called name.
func isTensor(spec Spec, name string) bool {
	_, _, ok := spec.TensorType(name)
	return ok
}
