// Package compiler is Augur's bundled tensor compiler: it turns an
// algorithm (package alg, the .alg format) and its schedule into a
// specification (.sare) and an annotated kernel (.sched) that the verifier
// checks, a frontend.Pair whose one kernel is frontend.Prog. Its Result
// embeds the pair and adds the schedule compiled and the miscompilation
// injected, if any. CompileSource (source.go) is the whole flow from the
// algorithm's text, as augur compile and the service's POST /v1/compile
// run it.
//
// Compile (compile.go) runs these steps, one file each:
//
//   - spec.go translates the checked algorithm to a system of affine
//     recurrence equations following Clément 2022, section 2.4.4: one tensor
//     per stage (F_0 for the pure definition, F_u for the u-th update, with
//     the RDom variables as extra dimensions), and F, the last stage's value.
//   - schedule.go applies the scheduling directives of Reinking 2022,
//     section 2.8, to a schedule model (per stage: its loops and the splits
//     and fuses that made them, specializations; per func: compute and store
//     levels, inlining, folds, bounds), rejecting illegal ones with the rule
//     they break.
//   - nest.go builds each stage's loop nest in a small IR (ir.go): loops,
//     lets for the variables the splits define, guards, the annotated
//     store innermost.
//   - place.go places the nests consumers first: each func at its compute
//     level, over the region its consumers read there (bounds inference,
//     Reinking 2022, section 2.7: exact Presburger images of the accesses
//     over the loops inside the level and their extrema, bounds.go, the
//     sets built from the IR's expressions by package
//     internal/quasiaffine), its buffer at its store level; dominance,
//     folds and races are checked there.
//   - unroll.go gives unrolled and vectorised loops of bounded extent a
//     constant upper bound of it (their iterations guarded), and regions
//     of constant extent their bounds as lo and lo + k; interval.go is
//     bounds inference's fallback beyond its budget of engine steps,
//     interval arithmetic.
//   - fusewith.go fuses the loop nests of two stages that compute_with
//     asks to compute together, once both are placed.
//   - lower.go and emit.go bind inputs and outputs and print the kernel:
//     display names for the IR's variables, array cells for accesses.
//
// reduce.go compiles the reductions a schedule may re-order (Clément
// 2022, chapter 7): atomic() and Halide's rfactor, which adds an
// intermediate func of partial results to the compiled program; such a
// func's specification is a reduce(...) over the whole RDom, and its stores
// initialise, accumulate at a position, or merge partial results.
//
// auto.go is the autoscheduler, fuzz.go the random schedule generator,
// inject.go the injectable miscompilations.
//
// Files, in reading order: compile.go, source.go, spec.go, schedule.go,
// ir.go, expr.go, nest.go, place.go, fusewith.go, bounds.go, unroll.go, interval.go,
// lower.go, emit.go, reduce.go, auto.go, fuzz.go, inject.go.
package compiler
