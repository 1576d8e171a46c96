// Package sched reads, checks and runs kernels: the imperative language
// of arrays and loops (.sched files) in which a compiler's output is
// written, every array write annotated with the specification value it
// claims to store (its prophetic annotation).
//
// The phases, in order:
//
//   - Parse turns source text into a Kernel (ast.go, parse.go), reporting
//     every syntax error with its position and a caret; Print gives the
//     canonical text back (print.go), Equal compares kernels ignoring
//     positions (equal.go), and Marshal and Unmarshal are the JSON twin
//     (json.go).
//   - Check type-checks a kernel against a specification, seen through
//     the Spec interface (spec.go; *sare.Spec is one), following the
//     kernel language's typing rules (Clément, "Translation Validation of
//     Tensor Compilers", 2022, Fig. 4.7): quasi-affine indices, bounds and
//     conditions; values typed against arrays, annotations against
//     tensors, with the expression checker of package expr; bindings that
//     agree with the specification (check.go), and the reduction forms of
//     assignments (reduce.go). Load parses and checks in one call.
//   - Run executes a checked kernel with the big-step semantics of
//     Clément 2022, Fig. 4.5, with differential memories and read sets, so
//     that every par loop is checked per rule U-PARLOOP; it checks every
//     annotation against the specification evaluated at the same point (by
//     an Evaluator, spec.go; *sare.Evaluator is one) and
//     every out cell at the end, and reports the first failure as a
//     *Failure (interp.go, failure.go). A specification's value that is
//     unconstrained (its signed overflow under value.OverflowUnconstrained)
//     accepts any value the kernel stores (value.Equality.Accepts); the
//     kernel's own arithmetic wraps, unless Options.KernelOverflow asks
//     whether a failure needs the kernel to overflow.
//
// Start reading at Kernel, then Check, then Run.
//
// Files, in reading order: spec.go, ast.go, parse.go, print.go, check.go, reduce.go,
// interp.go, interp_reduce.go, failure.go, steps.go, garbage.go, equal.go,
// json.go.
package sched
