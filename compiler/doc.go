// Package compiler is Augur's bundled tensor compiler: it turns an
// algorithm (package alg, the .alg format) into a specification (.sare) and
// an annotated kernel (.sched) that the verifier checks.
//
// Compile runs three steps:
//
//   - spec.go translates the checked algorithm to a system of affine
//     recurrence equations following seed 002 section 2.4.4: one tensor per
//     stage (F_0 for the pure definition, F_u for the u-th update, with the
//     RDom variable as an extra dimension), and F, the last stage's value.
//   - bounds.go infers, for every func and input, the box of points the
//     pipeline needs (seed 003 section 2.7): exact images of the access
//     relations over the consumers' loop domains, computed with package
//     presburger, and their lexicographic extrema per dimension.
//   - lower.go emits the loop nest of the default schedule (every func
//     compute_root, pure loops in Halide's order with the first dimension
//     innermost, update stages after it, RDom loops innermost) with every
//     store annotated with the stage element it computes.
//
// Scheduling directives are parsed (package alg) but none is implemented in
// this milestone: Compile rejects any with an error naming it.
package compiler
